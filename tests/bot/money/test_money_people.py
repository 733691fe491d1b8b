"""People by user id, never by a guess: the bot names whoever holds an @username now,
refreshed from each update. Through the real Application, on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest
from harness import Table

from bot.handlers.permissions import POLICY, Action
from bot.i18n import t
from bot.ledger.errors import BadGuestName
from bot.ledger.play import books, groups, seating


def nets(table: Table) -> dict[str, int]:
    report = table.app.bot_data["ledger"].read(books.standings, table.chat_id)
    return {row.player.name: row.net for row in report.session_rows}


@pytest.mark.slow
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


async def test_a_bystander_cannot_take_a_seat_and_record(db_seated: Table) -> None:
    """Problem 2: `/sub 东` alone by someone neither seated nor an admin changes nothing."""
    table = db_seated
    await table.say("ann", "/dealer 东")
    turn = await table.say("eve", "/sub 东")
    assert "只有入座的玩家或群管理员可以换人" in turn.text
    turn = await table.say("eve", "/hu 东 自摸 5花")
    assert turn.text == "只有入座的玩家或群管理员可以这样做。"
    session = groups.chat_state(table.app.bot_data["ledger"], table.chat_id).session
    assert session.seats["E"].name == "Ann" and session.hands_played == 0
    table.set_admins("zoe")
    turn = await table.say("zoe", "/sub 东")  # an admin may take a seat themselves
    assert turn.texts[0].startswith("东位：Ann 离开，Zoe")


async def test_every_change_asks_the_one_policy(db_seated: Table) -> None:
    """Each command that changes the table refuses a bystander with the policy's own answer, and the table
    does not change."""
    ledger = db_seated.app.bot_data["ledger"]
    before = groups.chat_state(ledger, db_seated.chat_id).session
    checks: list[tuple[str, Action]] = [
        ("/dealer 东", "dealer"),
        ("/roll", "roll"),
        ("/seat Ann 南", "move"),
        ("/join 老王", "seat_guest"),
        ("/draw", "record"),
        ("/adjust 东 南 5", "record"),
        ("/hu 东 自摸 5花", "record"),
        ("/undo", "correct"),
        ("/edit 1 荒庄", "correct"),
        ("/end", "end"),
        ("/sub 东 老王", "substitute"),
        ("/rules instant on", "rules"),
        ("/schedule weekly", "schedule"),
    ]
    for text, action in checks:
        turn = await db_seated.say("eve", text)
        expected = t("zh-Hans", POLICY[action].refusal, wind="东")
        assert turn.texts == [expected], (text, turn.texts)
    after = groups.chat_state(ledger, db_seated.chat_id).session
    assert (after.version, after.seats, after.state) == (before.version, before.seats, before.state)


async def test_a_member_named_in_join_or_sub_is_seated_as_that_member(db_table: Table) -> None:
    """Problem 4: /join 刘洋 and /sub 西 刘洋 seat the group's member 刘洋, never a second (guest) 刘洋;
    a guest may not take a member's name."""
    table = db_table
    table.transport.add_user("liuyang", user_id=1020, first_name="刘洋")
    await table.say("ann", "/newgame 苏州 1")
    await table.say("liuyang", "/score")  # 刘洋 is a member the bot knows
    for name in ("ann", "bob", "cat"):
        await table.say(name, "/join")
    turn = await table.say("ann", "/join 刘洋")
    ledger = table.app.bot_data["ledger"]
    seated = groups.chat_state(ledger, table.chat_id).session.seats["N"]
    assert seated.telegram_id == 1020 and seated.name == "刘洋", turn.texts
    await table.seat_guest("ann", "/sub 北 老王")
    turn = await table.say("ann", "/sub 西 刘洋")  # back at the table, as herself
    assert groups.chat_state(ledger, table.chat_id).session.seats["W"].telegram_id == 1020, turn.texts
    names = [row.player.name for row in ledger.read(books.standings, table.chat_id).session_rows]
    assert names.count("刘洋") == 1
    players = ledger.read(groups.find_player, table.chat_id, "刘洋")[0]
    assert players.telegram_id == 1020
    with pytest.raises(BadGuestName):  # the ledger itself never makes a guest of a member's name
        seating.substitute(ledger, table.chat_id, "S", guest_name="刘洋")


async def test_a_name_two_players_share_is_asked_never_guessed(db_table: Table) -> None:
    """Problem 3: two seated players both shown as "Ann": /hu Ann names nobody and asks which one, a button
    per seat it fits (tests/bot/handlers/test_name_question.py presses them); a first name equal to another
    player's
    @username does not win over the username."""
    table = db_table
    table.transport.add_user("ann2", user_id=1030, first_name="Ann")
    table.transport.add_user("joe", user_id=1031, first_name="bob")  # first name "bob": Bob's @username
    await table.say("ann", "/newgame 苏州 1")
    for name in ("ann", "ann2", "cat", "joe"):
        await table.say(name, "/join")
    await table.say("ann", "/dealer 东")
    await table.say("ann", "/rules instant on")
    turn = await table.say("cat", "/hu Ann 自摸 5花")
    assert turn.texts == ["“Ann”能指好几位玩家：是哪一位？点座位，这一局接着记。"], turn.texts
    assert turn.sent[0].buttons == ("东 Ann", "南 Ann")
    ledger = table.app.bot_data["ledger"]
    assert groups.chat_state(ledger, table.chat_id).session.hands_played == 0
    await table.say("cat", "/hu @ann2 自摸 5花")  # the @username names her
    assert groups.chat_state(ledger, table.chat_id).session.hands_played == 1
