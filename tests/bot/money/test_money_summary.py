"""The end-of-session card names each person as settling does: two people of one display name are told
apart ("Fay（1）", "Fay（2）") on their own lines, in the biggest hand and in the longest 连庄. Through the
real Application, on SQLite and PostgreSQL; every person's money checked by hand."""

from __future__ import annotations

from harness import END, Reply, Table, by_person, summary


async def end(table: Table, number: int = 1) -> Reply:
    await table.say("ann", "/end")
    await table.press("ann", END)
    return summary(table, number)


async def test_the_card_tells_two_people_of_one_name_apart_on_every_line(db_table: Table) -> None:
    """Fay¹ (东, dealer) and Fay² (南), neither with an @username, Ann (西), Bob (北).
    Hand 1: Fay¹ self-draws 5 花 as dealer, T = 5 + 5 = 10: Fay¹ +30, Fay², Ann, Bob −10 (连庄 1).
    Hand 2: Fay¹ self-draws 3 花, T = 3 + 5 = 8: Fay¹ +24, the others −8 (连庄 2).
    Nights: Fay¹ +54, Fay² −18, Ann −18, Bob −18. Each card line, the biggest hand (hand 1) and the
    longest 连庄 say which Fay, as the transfers under them do."""
    table = db_table
    for name, uid in (("fay1", 1040), ("fay2", 1041)):
        table.transport.add_user(name, user_id=uid, first_name="Fay")
        table.user(name).pop("username", None)
    await table.say("ann", "/newgame 苏州 1")
    for name in ("fay1", "fay2", "ann", "bob"):
        await table.say(name, "/join")
    await table.say("ann", "/dealer 东")
    await table.say("ann", "/rules instant on")
    await table.say("ann", "/hu 东 自摸 5花")
    await table.say("ann", "/hu 东 自摸 3花")
    card = await end(table)
    lines = card.text.split("\n")
    assert "东 Fay（1） +54 · 2局 · 胡 2 · 自摸 2 · 放冲 0" in lines
    assert "南 Fay（2） −18 · 2局 · 胡 0 · 自摸 0 · 放冲 0" in lines
    assert "西 Ann −18 · 2局 · 胡 0 · 自摸 0 · 放冲 0" in lines
    assert "最大一手：第1局 东 Fay（1） 自摸 10花 +30" in lines
    assert "最长连庄：连庄2次，东 Fay（1）（到第2局）" in lines
    assert "Fay（2） → Fay（1） 18" in card.text
    assert by_person(table) == {1040: 54, 1041: -18, 1001: -18, 1002: -18}


async def night(table: Table, rules: str, entry: str, number: int) -> Reply:
    await table.say("ann", f"/newgame {rules} 1")
    for name in ("ann", "bob", "cat", "dan"):
        await table.say(name, "/join")
    await table.say("ann", "/dealer 东")
    await table.say("ann", "/rules instant on")
    await table.say("ann", entry)
    return await end(table, number)


async def test_the_biggest_hand_is_counted_per_rule_set_and_in_its_own_words(db_table: Table) -> None:
    """Night 1, 苏州, stake 1: Ann (东, dealer) self-draws 5 花, T = 5 + 5 = 10: Ann +30, Bob, Cat, Dan
    −10. Night 2, 宿州, stake 1: Ann (东, dealer) self-draws with f = 3: each 闲 pays 2·3 + 4 = 10: Ann +30,
    the others −10. The 宿州 card says its count is 花数 3, not "3花"; /stats keeps the two apart
    (苏州 10花, 宿州 花数 3) instead of one "最大一手10花" over both. Money: Ann +60, the others −20."""
    table = db_table
    first = await night(table, "苏州", "/hu 东 自摸 5花", 1)
    assert "最大一手：第1局 东 Ann 自摸 10花 +30" in first.text.split("\n")
    second = await night(table, "宿州", "/hu 东 自摸 3花", 2)
    assert "最大一手：第1局 东 Ann 自摸 花数 3 +30" in second.text.split("\n")
    turn = await table.say("eve", "/stats")
    lines = "\n".join(turn.texts).split("\n")
    ann = lines[lines.index("Ann 的统计：") + 1].split(" · ")
    assert ann == [
        *("2场", "2局", "胡 2", "自摸 2", "放冲 0"),
        "最大一手 苏州麻将 10花、宿州麻将 花数 3",
        *("最长连庄 1", "实付 +60"),
    ]
    bob = lines[lines.index("Bob 的统计：") + 1]
    assert bob == "2场 · 2局 · 胡 0 · 自摸 0 · 放冲 0 · 最大一手 没有 · 最长连庄 0 · 实付 −20"
    assert by_person(table) == {1001: 60, 1002: -20, 1003: -20, 1004: -20}
