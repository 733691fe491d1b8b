"""Who may press 我已付 / 已收到, and who the bot says pressed: an admin
never settles their own debt, an admin's press is announced in the admin's name, a guest's debt can be
settled (an admin presses for the guest), prompts name who can actually press, and 台 is no one's name.
Through the real Application, on SQLite and PostgreSQL; every person's money checked by hand."""

from __future__ import annotations

import pytest
from harness import END, Reply, Table, by_person, ledger, money, summary

from bot.ledger.money import settling


async def end(table: Table) -> Reply:
    await table.say("ann", "/end")
    await table.press("ann", END)
    return summary(table, 1)


async def test_an_admin_cannot_settle_their_own_debt_and_presses_are_named_for_who_pressed(
    db_seated: Table,
) -> None:
    """Ann (东) is an admin and owes Bob (南) 50; Cat (西) owes Dan (北) 20:
        /adjust 东 南 50: Ann −50, Bob +50; /adjust 西 北 20: Cat −20, Dan +20.
    Transfers: 1. Cat → Dan 20, 2. Ann → Bob 50. Ann's own 已收到 on her debt is refused and changes
    nothing (Ann −50, Bob +50); Bob confirms it (Ann 0, Bob 0); Zoe, an admin, confirms Cat's 20 and the
    bot says Zoe did (all even)."""
    table = db_seated
    table.set_admins("ann", "zoe")
    await table.say("ann", "/rules instant on")
    await table.say("ann", "/adjust 东 南 50")
    await table.say("ann", "/adjust 西 北 20")
    card = await end(table)
    assert "结算（最少转账）：\n1. Cat → Dan 20\n2. Ann → Bob 50" in card.text

    await table.press("ann", "2 我已付", message_id=card.message_id)
    turn = await table.press("ann", "2 已收到", message_id=card.message_id)
    assert turn.answers[0] == "这笔是 Ann 付给 Bob 的：自己欠的账不能自己确认，要由 Bob 点“已收到”。"
    assert "2. Ann → Bob 50 · 待确认 50" in summary(table, 1).text
    assert money(table) == {"Ann": -50, "Bob": 50, "Cat": -20, "Dan": 20}
    turn = await table.press("bob", "2 已收到", message_id=card.message_id)
    assert turn.answers[0] == "✅ Bob 确认收到 Ann 的 50。"
    assert money(table) == {"Cat": -20, "Dan": 20}

    await table.press("cat", "1 我已付", message_id=card.message_id)
    turn = await table.press("zoe", "1 已收到", message_id=card.message_id)
    assert turn.answers[0] == "✅ Zoe（管理员）确认 Cat 已付给 Dan 20。"
    assert "1. Cat → Dan 20 ✅ 已结清" in summary(table, 1).text
    assert money(table) == {}


async def test_a_guests_debt_is_settled_by_an_admin_or_the_guests_seater(db_table: Table) -> None:
    """小王 is a guest at 北, seated by Ann: /adjust 北 东 30 and /adjust 北 南 20, so 小王 −50, Ann +30,
    Bob +20; two transfers, 小王 → Ann 30 and 小王 → Bob 20. Bob (neither an admin nor 小王's seater)
    cannot press for 小王, and the answer says who can. Zoe (admin) presses 我已付 for 小王's 30, Ann
    confirms (小王 −20, Bob +20); Ann, who seated 小王, presses 我已付 for the 20, Bob confirms: all even."""
    table = db_table
    table.set_admins("zoe")
    await table.say("ann", "/newgame 苏州 1")
    for name in ("ann", "bob", "cat"):
        await table.say(name, "/join")
    await table.seat_guest("ann", "/join 小王")
    await table.say("ann", "/dealer 东")
    await table.say("ann", "/rules instant on")
    await table.say("ann", "/adjust 北 东 30")
    await table.say("ann", "/adjust 北 南 20")
    card = await end(table)
    assert money(table) == {"小王": -50, "Ann": 30, "Bob": 20}
    number = {
        tr.payee.display_name: tr.number
        for tr in ledger(table).read(settling.balance, table.chat_id).transfers
    }
    to_ann, to_bob = number["Ann"], number["Bob"]

    turn = await table.press("ann", f"{to_ann} 已收到", message_id=card.message_id)
    assert turn.answers[0] == (
        "小王 还没说已付给 Ann，没有可以确认的。小王 是客人：管理员或带 小王 入座的人替 小王 点“我已付”。"
    )
    turn = await table.press("bob", f"{to_ann} 我已付", message_id=card.message_id)
    assert turn.answers[0] == (
        "这笔是 小王 付给 Ann 的：小王 是客人，“我已付”由管理员或带 小王 入座的人替 小王 点，"
        "“已收到”由 Ann 或管理员点。"
    )
    assert money(table) == {"小王": -50, "Ann": 30, "Bob": 20}
    turn = await table.press("zoe", f"{to_ann} 我已付", message_id=card.message_id)
    assert turn.texts[0].startswith("Zoe（管理员）替客人 小王 说已付给 Ann 30，等 Ann 点“已收到”确认。")
    turn = await table.press("ann", f"{to_ann} 已收到", message_id=card.message_id)
    assert turn.answers[0] == "✅ Ann 确认收到 小王 的 30。"
    assert money(table) == {"小王": -20, "Bob": 20}
    turn = await table.press("ann", f"{to_bob} 我已付", message_id=card.message_id)
    assert turn.texts[0].startswith(
        "Ann（带客人入座的人）替客人 小王 说已付给 Bob 20，等 Bob 点“已收到”确认。"
    )
    await table.press("bob", f"{to_bob} 已收到", message_id=card.message_id)
    assert money(table) == {}


async def test_what_is_paid_to_the_table_asks_an_admin_and_names_the_admin(db_seated: Table) -> None:
    """台费 10 a player: Ann (东) self-draws 5 花, T = 5 + 5 = 10 from each of the three:
        Ann +30 − 10 = +20, Bob/Cat/Dan −10 − 10 = −20 each, 台 +40.
    Dan pays the 台 his 20: the prompt asks an admin, not the 台, to confirm; Zoe's confirmation is in
    Zoe's name. After it: Ann +20, 台 +20 and two of Bob, Cat, Dan −20 (the one who paid the 台 is even)."""
    table = db_seated
    table.set_admins("zoe")
    await table.say("zoe", "/rules 台费 10")
    await table.say("ann", "/rules instant on")
    await table.say("ann", "/hu 东 自摸 5花")
    card = await end(table)
    assert money(table) == {"Ann": 20, "Bob": -20, "Cat": -20, "Dan": -20, "台": 40}
    to_table = [
        tr
        for tr in ledger(table).read(settling.balance, table.chat_id).transfers
        if tr.payee.display_name == "台"
    ]
    tr = to_table[0]
    payer = tr.payer.display_name
    turn = await table.press(payer.lower(), f"{tr.number} 我已付", message_id=card.message_id)
    assert turn.texts[0].startswith(f"{payer} 说已付给 台 20，等管理员替 台 点“已收到”确认。")
    turn = await table.press("zoe", f"{tr.number} 已收到", message_id=card.message_id)
    assert turn.answers[0] == f"✅ Zoe（管理员）确认 {payer} 已付给 台 20。"
    expected = {"Ann": 20, "Bob": -20, "Cat": -20, "Dan": -20, "台": 20}
    del expected[payer]
    assert money(table) == expected


@pytest.mark.slow
async def test_no_guest_takes_the_name_of_the_table_account(db_table: Table) -> None:
    """/join 台 and /sub 北 台 are refused; with 台费 10 the night still ends and settles:
    Ann (东) self-draws 5 花 (T = 10): Ann +30 − 10 = +20, Bob, Cat, Dan −20 each, 台 +40."""
    table = db_table
    table.set_admins("zoe")
    await table.say("ann", "/newgame 苏州 1")
    for name in ("ann", "bob", "cat"):
        await table.say(name, "/join")
    turn = await table.say("ann", "/join 台")
    assert turn.texts == ["“台”是台费、抽水的账户，不能当客人名字。例如：/join 路人甲"]
    await table.say("dan", "/join")
    turn = await table.say("ann", "/sub 北 台")
    assert turn.texts == ["“台”是台费、抽水的账户，不能当客人名字。例如：/join 路人甲"]
    await table.say("zoe", "/rules 台费 10")
    await table.say("ann", "/dealer 东")
    await table.say("ann", "/rules instant on")
    await table.say("ann", "/hu 东 自摸 5花")
    await end(table)
    assert money(table) == {"Ann": 20, "Bob": -20, "Cat": -20, "Dan": -20, "台": 40}


async def test_paid_asks_which_of_two_same_named_people_and_never_picks_the_one_at_the_table(
    db_table: Table,
) -> None:
    """Two people called "Fay", neither with an @username (1040 and 1041), both owe Ann.
    Night one: Ann (东) self-draws 4 花, T = 9: Ann +27, Bob −9, Fay¹ −9, Fay² −9.
    With no table open, Ann's "/paid Fay 9" asks which Fay; she presses Fay（2）: Fay² paid her 9, so
    Ann +18, Bob −9, Fay¹ −9, Fay² 0. Night two opens with Fay² seated; "/paid Fay" now fits only Fay¹
    (the only Fay with anything open with Ann), never the seated Fay²: Ann +9, Bob −9, Fay¹ 0."""
    table = db_table
    for name, uid in (("fay1", 1040), ("fay2", 1041)):
        table.transport.add_user(name, user_id=uid, first_name="Fay")
        table.user(name).pop("username", None)
    await table.say("ann", "/newgame 苏州 1")
    for name in ("ann", "bob", "fay1", "fay2"):
        await table.say(name, "/join")
    await table.say("ann", "/dealer 东")
    await table.say("ann", "/rules instant on")
    await table.say("ann", "/hu 东 自摸 4花")
    await end(table)
    assert by_person(table) == {1001: 27, 1002: -9, 1040: -9, 1041: -9}

    turn = await table.say("ann", "/paid Fay 9")
    assert turn.texts[0].split("\n")[0] == "“Fay”能指好几位：是哪一位？点名字记下这笔。"
    assert turn.sent[0].buttons == ("Fay（1）", "Fay（2）")
    assert by_person(table) == {1001: 27, 1002: -9, 1040: -9, 1041: -9}  # nothing recorded yet
    turn = await table.press("ann", "Fay（2）", message_id=turn.sent[0].message_id)
    assert turn.texts[0].startswith("✅ Ann 记下收到 Fay（2） 的 9。")
    assert by_person(table) == {1001: 18, 1002: -9, 1040: -9}

    await table.say("ann", "/newgame 苏州 1")
    for name in ("ann", "bob", "cat", "fay2"):
        await table.say(name, "/join")
    turn = await table.say("ann", "/paid Fay")
    assert turn.texts[0].startswith("✅ Ann 记下收到 Fay（1） 的 9。"), turn.texts
    assert by_person(table) == {1001: 9, 1002: -9}


@pytest.mark.slow
async def test_two_people_of_one_name_are_told_apart_wherever_money_is_shown(db_table: Table) -> None:
    """Fay¹ (西) and Fay² (北), neither with an @username; 收盘倍数 2.
        /adjust 北 西 90: Fay² −90, Fay¹ +90; paid ×2: Fay² −180, Fay¹ +180 (Ann, Bob 0).
    One transfer, Fay（2） → Fay（1） 180, and every line names which Fay; once Fay¹ confirms, all even."""
    table = db_table
    table.set_admins("zoe")
    for name, uid in (("fay1", 1040), ("fay2", 1041)):
        table.transport.add_user(name, user_id=uid, first_name="Fay")
        table.user(name).pop("username", None)
    await table.say("ann", "/newgame 苏州 1")
    for name in ("ann", "bob", "fay1", "fay2"):
        await table.say(name, "/join")
    await table.say("zoe", "/rules 结算倍数 2")
    await table.say("ann", "/dealer 东")
    await table.say("ann", "/rules instant on")
    await table.say("ann", "/adjust 北 西 90")
    card = await end(table)
    assert "结算（最少转账）：\n1. Fay（2） → Fay（1） 180" in card.text
    assert "Fay（1）：本场 +90 ×2 · 应结 +180" in card.text
    assert "Fay（2）：本场 −90 ×2 · 应结 −180" in card.text
    assert by_person(table) == {1040: 180, 1041: -180}
    turn = await table.say("ann", "/balance")
    assert turn.texts == [
        "💰 没结清的账：\n第1场 1. Fay（2） → Fay（1） 180\n每人合计：\nFay（1） +180\nFay（2） −180"
    ]
    turn = await table.press("fay2", "1 我已付", message_id=card.message_id)
    assert turn.texts[0].startswith("Fay（2） 说已付给 Fay（1） 180，等 Fay（1） 点“已收到”确认。")
    turn = await table.press("fay1", "1 已收到", message_id=card.message_id)
    assert turn.answers[0] == "✅ Fay（1） 确认收到 Fay（2） 的 180。"
    assert by_person(table) == {}


@pytest.mark.slow
async def test_score_and_stats_ask_which_person_a_shared_name_means_a_guest_too(db_table: Table) -> None:
    """A guest "Fay" plays night one at 北 and self-draws 5 花,
    T = 10: guest Fay +30, Ann/Bob/Cat −10 each. Later a member whose name is also Fay (no @username)
    speaks. "/score Fay" and "/stats Fay" ask with a button per Fay; the guest (the older: Fay（1）) is
    reachable: her money is +30."""
    table = db_table
    await table.say("ann", "/newgame 苏州 1")
    for name in ("ann", "bob", "cat"):
        await table.say(name, "/join")
    await table.seat_guest("ann", "/join Fay")
    await table.say("ann", "/dealer 东")
    await table.say("ann", "/rules instant on")
    await table.say("ann", "/hu 北 自摸 5花")
    await end(table)
    table.transport.add_user("fay", user_id=1040, first_name="Fay")
    table.user("fay").pop("username", None)
    await table.say("fay", "/help")  # the member Fay is known now
    turn = await table.say("eve", "/score Fay")
    assert turn.texts == ["“Fay”能指好几位：是哪一位？点名字看。"]
    assert turn.sent[0].buttons == ("Fay（1）", "Fay（2）")
    turn = await table.press("eve", "Fay（1）", message_id=turn.sent[0].message_id)
    assert turn.texts == ["Fay（1）：本场积分 0，已结束各场实付 +30"]
    turn = await table.say("eve", "/stats Fay")
    assert turn.sent[0].buttons == ("Fay（1）", "Fay（2）")
    turn = await table.press("eve", "Fay（1）", message_id=turn.sent[0].message_id)
    assert turn.sent and turn.sent[-1].text.endswith("· 实付 +30"), turn.texts
    assert money(table) == {"Fay": 30, "Ann": -10, "Bob": -10, "Cat": -10}
