"""In a forum group every answer goes to the topic it was asked in: texts, the /stats and /history chart
(a photo, sent from a task after the handler), /balance csv's document (issue 28). Through the real
Application."""

from __future__ import annotations

import pytest
from harness import Table, Turn

from bot.console.state import Call

TOPIC = 77
SENDS = ("sendMessage", "sendPhoto", "sendDocument")


async def in_topic(table: Table, name: str, text: str) -> Turn:
    update = table.state.message(table.chat_id, name, text)
    update["message"].update({"message_thread_id": TOPIC, "is_topic_message": True})
    return await table.deliver(update)


def topics(calls: list[Call]) -> list[object]:
    return [call.params.get("message_thread_id") for call in calls]


async def a_night(table: Table) -> None:
    await table.say("ann", "/rules instant on")
    await table.say("ann", "/hu 东 自摸 5花")
    await table.say("ann", "/hu 南 冲 西 6花")
    await table.say("ann", "/end")
    await table.press("ann", "✅ 结束并结算")


@pytest.mark.slow
async def test_stats_history_and_the_sheet_answer_in_the_topic(seated_table: Table) -> None:
    table = seated_table
    await a_night(table)
    for text, method in (
        ("/stats", "sendPhoto"),
        ("/stats bob", "sendPhoto"),
        ("/history", "sendPhoto"),
        ("/balance csv", "sendDocument"),
    ):
        turn = await in_topic(table, "bob", text)
        sends = turn.of(*SENDS)
        assert [c.method for c in sends] == [method], (text, [c.method for c in turn.calls])
        assert topics(sends) == [TOPIC], text
    outside = await table.say("bob", "/stats")
    assert outside.of("sendPhoto") and topics(outside.of(*SENDS)) == [None]


async def test_a_second_flow_is_pointed_at_in_the_topic(seated_table: Table) -> None:
    table = seated_table
    first = await in_topic(table, "ann", "/hu")
    assert topics(first.of(*SENDS)) == [TOPIC]
    again = await in_topic(table, "ann", "/hu")
    assert again.of(*SENDS) and topics(again.of(*SENDS)) == [TOPIC], again.texts


async def test_the_ledgers_csv_button_answers_in_the_topic(
    seated_table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    import bot.handlers.views as views

    table = seated_table
    monkeypatch.setattr(views, "LEDGER_PAGE", 1)  # the newest row only: the whole ledger is the CSV's
    await table.say("ann", "/rules instant on")
    await table.say("ann", "/hu 东 自摸 5花")
    await table.say("ann", "/hu 东 自摸 6花")
    page = await in_topic(table, "bob", "/ledger")
    [reply] = page.sent
    assert reply.buttons == ("📎 整场账本（CSV）",), reply.buttons
    press = table.state.press(table.chat_id, "bob", reply.message_id, "📎 整场账本（CSV）")
    press["callback_query"]["message"].update(message_thread_id=TOPIC, is_topic_message=True)
    turn = await table.deliver(press)
    assert [c.method for c in turn.of(*SENDS)] == ["sendDocument"]
    assert topics(turn.of(*SENDS)) == [TOPIC]
