"""People by user id, never by a guess (issue 18, problem 3): the bot names whoever holds an @username now,
refreshed from each update. Through the real Application, on SQLite and PostgreSQL."""

from __future__ import annotations

from harness import Table


def nets(table: Table) -> dict[str, int]:
    report = table.app.bot_data["ledger"].standings(table.chat_id)
    return {row.player.name: row.net for row in report.session_rows}


async def test_an_old_username_names_whoever_holds_it_now(db_seated: Table) -> None:
    table = db_seated
    await table.say("ann", "/dealer 东")
    await table.say("ann", "/rules instant on")
    table.user("ann")["username"] = "ann_new"  # Ann changes her @username …
    table.user("bob")["username"] = "ann"  # … and Bob takes her old one
    await table.say("bob", "/score")  # any update of Bob's tells the bot
    await table.say("cat", "/hu @ann 自摸 5花")
    assert nets(table)["Bob"] == 30 and nets(table)["Ann"] == -10
    await table.say("ann", "/score")
    await table.say("cat", "/hu @ann_new 自摸 5花")
    assert nets(table)["Ann"] == 20


async def test_a_member_who_only_read_can_be_named_in_sub(db_seated: Table) -> None:
    table = db_seated
    await table.say("eve", "/score")  # Eve has never written anything: the bot still knows her now
    turn = await table.say("ann", "/sub 北 @eve")
    assert turn.texts[0] == "北位：Dan 离开，Eve 从下一局起接着打。各人的分数分开记。"
