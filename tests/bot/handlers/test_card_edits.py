"""The pinned card is edited in place at once after every recorded change, from the commit's own read:
the one-line result first, then one edit of the card showing the hand."""

from __future__ import annotations

from typing import Any

import pytest
from harness import Table

from bot.ledger.play import books, groups


def card_edits(table: Table, card_id: int) -> list[Any]:
    return [c for c in table.calls("editMessageText") if c.ok and c.result["message_id"] == card_id]


async def test_the_result_goes_out_then_the_card_shows_the_hand(seated_table: Table) -> None:
    await seated_table.say("ann", "/rules instant on")
    card_id = seated_table.pins()[-1]
    before = len(card_edits(seated_table, card_id))
    turn = await seated_table.say("bob", "/hu 南 自摸 5花")
    assert turn.texts == ["第1局 南 自摸 10花 → 南 +30 · 东 −10 · 西 −10 · 北 −10 · 下局庄 南"]
    assert [c.method for c in turn.calls] == ["sendMessage", "editMessageText"]
    assert len(card_edits(seated_table, card_id)) == before + 1
    assert "1 南 自摸 10花 | −10 +30 −10 −10" in seated_table.message(card_id).text


async def test_every_hand_of_a_burst_is_on_the_card(seated_table: Table) -> None:
    await seated_table.say("ann", "/rules instant on")
    card_id = seated_table.pins()[-1]
    for text in ("/hu 南 自摸 5花", "/hu 东 冲 西 8花", "/draw"):
        await seated_table.say("bob", text)
    card = seated_table.message(card_id).text
    assert "1 南 自摸 10花" in card and "2 西 放冲，东 胡" in card and "\n3 " in card
    ledger = seated_table.app.bot_data["ledger"]
    running = ledger.read(books.ledger_rows, groups.chat_state(ledger, seated_table.chat_id).session.id)[
        -1
    ].running
    assert "第4局" in card and f"东 Ann  {running['E']:+d}".replace("-", "−") in card


@pytest.mark.slow
async def test_end_leaves_the_card_ended_with_the_last_hand(seated_table: Table) -> None:
    await seated_table.say("ann", "/rules instant on")
    card_id = seated_table.pins()[-1]
    await seated_table.say("bob", "/hu 南 自摸 5花")
    await seated_table.say("ann", "/end")
    await seated_table.press("ann", "✅ 结束并结算")
    ended = seated_table.message(card_id).text
    assert "1 南 自摸" in ended and "这一场结束了。" in ended
