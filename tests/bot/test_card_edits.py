"""The pinned card edited a moment after a recorded change (settings.card_edit_seconds): the one-line result
goes out at once, the card follows, and a burst of changes becomes one edit showing all of them."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from harness import Table, seat_four

from bot.app import build_application
from bot.console.transport import InProcessBotAPI
from bot.settings import Settings

DELAY = 0.2  # seconds: long enough for the test's own turns, short enough to wait for


async def running(sqlite_url: str, tmp_path: Path, transport: InProcessBotAPI) -> AsyncIterator[Table]:
    """The real bot whose card is edited DELAY seconds after a recorded change, four players seated."""
    settings = Settings(
        _env_file=None,
        telegram_bot_token="123:TEST",
        data_dir=tmp_path,  # type: ignore[call-arg]
        database_url=sqlite_url,
        card_edit_seconds=DELAY,
    )
    table = await Table.start(
        build_application(settings, request=transport, get_updates_request=transport), transport
    )
    try:
        yield await seat_four(table)
    finally:
        await table.stop()


@pytest.fixture
async def slow_card(sqlite_url: str, tmp_path: Path, transport: InProcessBotAPI) -> AsyncIterator[Table]:
    """An instant table with a dealer whose card is edited DELAY seconds after a recorded change."""
    async for table in running(sqlite_url, tmp_path, transport):
        await table.say("ann", "/dealer 东")
        await table.say("ann", "/rules instant on")
        yield table


def card_edits(table: Table, card_id: int) -> list[Any]:
    return [c for c in table.calls("editMessageText") if c.ok and c.result["message_id"] == card_id]


async def test_the_result_goes_out_at_once_and_the_card_follows(slow_card: Table) -> None:
    card_id = slow_card.pins()[-1]
    before = len(card_edits(slow_card, card_id))
    turn = await slow_card.say("bob", "/hu 南 自摸 5花")
    assert turn.texts == ["第1局 南 自摸 10花 → 南 +30 · 东 −10 · 西 −10 · 北 −10 · 下局庄 南"]
    assert len(card_edits(slow_card, card_id)) == before  # not yet
    await asyncio.sleep(DELAY * 3)
    assert len(card_edits(slow_card, card_id)) == before + 1
    assert "1 南 自摸 10花 | −10 +30 −10 −10" in slow_card.message(card_id).text


async def test_a_burst_of_hands_is_one_edit_showing_every_hand(slow_card: Table) -> None:
    card_id = slow_card.pins()[-1]
    before = len(card_edits(slow_card, card_id))
    for text in ("/hu 南 自摸 5花", "/hu 东 冲 西 8花", "/draw"):
        await slow_card.say("bob", text)
    await asyncio.sleep(DELAY * 3)
    assert len(card_edits(slow_card, card_id)) == before + 1
    card = slow_card.message(card_id).text
    assert "1 南 自摸 10花" in card and "2 东" in card and "\n3 " in card
    ledger = slow_card.app.bot_data["ledger"]
    running = ledger.ledger(ledger.current_session(slow_card.chat_id).id)[-1].running
    assert "第 4 局" in card and f"东 Ann  {running['E']:+d}".replace("-", "−") in card


async def test_an_immediate_edit_drops_the_waiting_one(slow_card: Table) -> None:
    """/end edits the card at once (ended): the waiting edit of the last hand must not overwrite it."""
    card_id = slow_card.pins()[-1]
    await slow_card.say("bob", "/hu 南 自摸 5花")
    await slow_card.say("ann", "/end")
    ended = slow_card.message(card_id).text
    edits = len(card_edits(slow_card, card_id))
    await asyncio.sleep(DELAY * 3)
    assert len(card_edits(slow_card, card_id)) == edits
    assert slow_card.message(card_id).text == ended and "1 南 自摸 10花" in ended


async def test_a_waiting_edit_is_made_when_the_bot_stops(
    sqlite_url: str, tmp_path: Path, transport: InProcessBotAPI
) -> None:
    card_id = 0
    async for table in running(sqlite_url, tmp_path, transport):
        await table.say("ann", "/rules instant on")
        card_id = table.pins()[-1]
        await table.say("bob", "/hu 南 自摸 5花")
        assert "1 南 自摸 10花" not in table.message(card_id).text
    # post_stop (run_polling's, and the console's) makes the waiting edits before the bot shuts down.
    assert "1 南 自摸 10花" in Table(None, transport).message(card_id).text  # type: ignore[arg-type]


def test_the_setting_is_bounded() -> None:
    from pydantic import ValidationError

    from bot.settings import Settings

    assert Settings(_env_file=None).card_edit_seconds == 1.0  # type: ignore[call-arg]
    with pytest.raises(ValidationError, match="card_edit_seconds"):
        Settings(_env_file=None, card_edit_seconds=-1)  # type: ignore[call-arg]
