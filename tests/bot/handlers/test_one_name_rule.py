"""One rule of names for every command (issue 30, "people are people"): a typed name means the same person
in /hu as in /sub, /paid and /score (`bot.names.named`, used by the grammar's resolver and by the
ledger's look-ups). Through the real Application, on SQLite and PostgreSQL; each person's money by hand."""

from __future__ import annotations

from harness import END, Table, ledger, money

from bot.ledger.play import groups
from bot.names import named


async def test_a_typed_name_means_the_same_person_in_hu_sub_paid_and_score(db_table: Table) -> None:
    """刘洋 (@liu) sits at 北; Liu (no @username) has only written to the bot. "liu" is Liu's name (a name
    is a display name before an @username), so `/hu liu …` does not record 刘洋's hand: Liu is not at
    the table. `/hu @liu 自摸 5花` is 刘洋's, T = 10: 刘洋 +30, Ann/Bob/Cat −10 each.
    `/sub 西 liu` seats Liu (the member, no question) for Cat; `/hu liu 自摸 4花` is now Liu's at 西,
    T = 9: Liu +27, Ann/Bob/刘洋 −9 each. By hand: Ann −19, Bob −19, Cat −10, 刘洋 +21, Liu +27 (sum 0).
    /edit 1 liu … is refused (Liu was not at hand 1's table); /score liu and /paid liu mean Liu too."""
    table = db_table
    table.transport.add_user("liu", user_id=1020, first_name="刘洋")
    table.transport.add_user("lily", user_id=1041, first_name="Liu")
    table.user("lily").pop("username", None)
    await table.say("ann", "/newgame 苏州 1")
    for name in ("ann", "bob", "cat", "liu"):
        await table.say(name, "/join")
    await table.say("ann", "/dealer 东")
    await table.say("ann", "/rules instant on")
    await table.say("lily", "/help")  # the member Liu is known now
    turn = await table.say("ann", "/hu liu 自摸 5花")
    assert turn.texts[0].startswith("“liu”不是本桌的玩家。"), turn.texts
    assert groups.chat_state(ledger(table), table.chat_id).session.hands_played == 0
    turn = await table.say("ann", "/hu @liu 自摸 5花")
    assert turn.texts[0].startswith("第1局 北 自摸"), turn.texts
    turn = await table.say("ann", "/sub 西 liu")
    assert turn.texts[0] == "西位：Cat 离开，Liu 从下一局起接着打。各人的分数分开记。"
    assert groups.chat_state(ledger(table), table.chat_id).session.seats["W"].telegram_id == 1041
    turn = await table.say("ann", "/hu liu 自摸 4花")
    assert turn.texts[0].startswith("第2局 西 自摸"), turn.texts
    turn = await table.say("ann", "/edit 1 liu 自摸 5花")  # hand 1 was 刘洋's: Liu did not sit there yet
    assert turn.texts == ["liu 没有坐在第1局的桌上：那一局是 东 Ann、南 Bob、西 Cat、北 刘洋。"], turn.texts
    turn = await table.say("ann", "/score liu")
    assert turn.texts == ["Liu：本场积分 +27，已结束各场实付 0"]
    await table.say("ann", "/end")
    await table.press("ann", END)
    assert money(table) == {"Ann": -19, "Bob": -19, "Cat": -10, "刘洋": 21, "Liu": 27}
    turn = await table.say("bob", "/paid liu")  # the night's transfers: Bob → Liu 19, Ann → 刘洋 19, …
    assert turn.texts == ["Bob 说已付给 Liu 19，等 Liu 点“已收到”确认。\n第1场 1. Bob → Liu 19 · 待确认 19"]
    turn = await table.say("ann", "/paid @liu")
    assert turn.texts[0].startswith("Ann 说已付给 刘洋 19，"), turn.texts


def test_the_rule_reads_display_names_first_and_usernames_first_after_an_at() -> None:
    people = [("刘洋", ("刘洋", "@liu")), ("Liu", ("Liu",)), ("Ann", ("Ann", "@ann")), ("Ann2", ("ann",))]
    assert named("liu", people) == ["Liu"]  # a display name before an @username
    assert named("@liu", people) == ["刘洋"]  # an @username before a display name
    assert named("@LIU ", people) == ["刘洋"] and named(" 刘洋", people) == ["刘洋"]
    assert named("ann", people) == ["Ann", "Ann2"]  # several: the caller asks
    assert named("@ann", people) == ["Ann"]
    assert named("@nobody", people) == [] and named("", people) == []
