"""Hands as the table played them: one roll per hand, an edit keeps every hand's own time, and
replies stay in the forum topic they were asked in. Through the real Application, SQLite and PostgreSQL."""

from __future__ import annotations

import pytest
from harness import Table

from bot.ledger.play import books, groups

CONFIRM = "✅ 确认"


async def test_one_roll_per_hand_the_first_stands(db_seated: Table) -> None:
    table = db_seated
    table.force_dice(2, 3)
    first = await table.say("bob", "/roll")  # 5: the first dealer is 东
    assert "骰子 2 + 3 = 5。" in first.text
    table.force_dice(4, 4)
    again = await table.say("cat", "/roll")  # a second roll for the same hand hoping for a 豹子
    assert again.texts == ["第1局已经掷过骰子了：第一次的点数算数。"] and not again.of("sendDice")
    state = groups.chat_state(table.app.bot_data["ledger"], table.chat_id).session.state
    assert (state.dealer, state.baozi) == ("E", False)
    await table.say("ann", "/rules instant on")
    await table.say("ann", "/hu 南 自摸 5花")
    table.force_dice(4, 4)
    turn = await table.say("cat", "/roll")  # hand 2 gets its own roll
    assert "豹子！" in turn.text


async def test_an_edit_keeps_every_hands_own_time(db_seated: Table) -> None:
    table = db_seated
    ledger = table.app.bot_data["ledger"]
    await table.say("ann", "/dealer 东")
    await table.say("ann", "/rules instant on")
    await table.say("ann", "/hu 南 自摸 5花")
    await table.say("ann", "/hu 西 自摸 5花")
    session_id = groups.chat_state(ledger, table.chat_id).session.id
    before = {h.number: h.recorded_at for h in ledger.read(books.hands, session_id)}
    await table.say("ann", "/edit 1 东 自摸 5花")  # the deal changes: hand 2 is re-scored
    after = ledger.read(books.hands, session_id)
    assert [h.number for h in after] == [1, 2] and all(h.replaces is not None for h in after)
    assert {h.number: h.recorded_at for h in after} == before


async def test_replies_stay_in_the_forum_topic(db_seated: Table) -> None:
    table = db_seated
    update = table.state.message(table.chat_id, "ann", "/dealer 东")
    update["message"].update({"message_thread_id": 77, "is_topic_message": True})
    turn = await table._run(update)
    sends = turn.of("sendMessage")
    assert sends and all(call.params.get("message_thread_id") in (77, "77") for call in sends)
    plain = await table.say("ann", "/score")
    assert all("message_thread_id" not in call.params for call in plain.of("sendMessage"))


@pytest.mark.slow
async def test_a_redelivered_command_is_silent_in_a_newer_session(db_seated: Table) -> None:
    """Problem 17: Telegram redelivers /end after the table ended and a new one opened: nothing is said or
    asked again, and the new table stays open; a redelivered press is silent too."""
    table = db_seated
    end = table.state.message(table.chat_id, "ann", "/end")
    await table._run(end)
    press = table.state.press(table.chat_id, "ann", None, "✅ 结束并结算")
    await table._run(press)
    await table.say("ann", "/newgame 苏州 1")
    again = await table._run(end)
    assert again.of("sendMessage", "editMessageText") == []
    pressed_again = await table._run(press)
    assert pressed_again.of("sendMessage", "editMessageText", "sendPhoto", "sendDocument") == []
    assert groups.chat_state(table.app.bot_data["ledger"], table.chat_id).session is not None
