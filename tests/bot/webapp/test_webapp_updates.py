"""A picker submission is an update of the Application (`bot.handlers.picker.PickerSubmission` on its update
queue): it waits its turn behind the chat's other updates, a repeat is dropped by the redelivery filter, and
an error on its way goes to the Application's error handler while the page is told something went wrong."""

from __future__ import annotations

import asyncio
import logging
import uuid
from typing import Any

import pytest
from harness import Table
from test_webapp_api import SELF_DRAW, init_data, post, token_of

from bot.handlers import picker
from bot.handlers.turn import Turn
from bot.i18n import t
from scoring.entry import EntryJSON


async def test_an_error_while_recording_answers_the_page_and_reaches_the_error_handler(
    seated_table: Table, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The recording fails (a bug, not the user's): the page gets a 500 with the bot's "something went
    wrong", the error handler logs it, nothing is posted; the page's retry with the same key, once the
    fault is gone, posts the preview (the failed key was not kept)."""
    real = picker.record_hand

    async def broken(turn: Turn, entry: EntryJSON, **kwargs: Any) -> None:
        raise RuntimeError("recording broke")

    monkeypatch.setattr(picker, "record_hand", broken)
    auth = init_data(seated_table, "bob", token_of(seated_table))
    key = uuid.uuid4().hex
    told = len(seated_table.replies())
    with caplog.at_level(logging.ERROR, logger="bot.handlers.errors"):
        first = await post(seated_table, "/api/submit", {"entry": SELF_DRAW, "key": key}, auth)
    assert first.status_code == 500 and first.json()["error"] == t("zh-Hans", "err.internal")
    assert [type(e) for e in seated_table.handler_errors] == [RuntimeError]
    assert "recording broke" in caplog.text
    assert seated_table.replies()[told:] == []
    monkeypatch.setattr(picker, "record_hand", real)
    again = await post(seated_table, "/api/submit", {"entry": SELF_DRAW, "key": key}, auth)
    assert again.json()["status"] == "sent"
    [preview] = seated_table.replies()[told:]
    assert "南 +120" in preview.text


async def test_submissions_of_one_chat_are_handled_one_after_the_other(
    seated_table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two hands sent at the same moment to one table: the second is recorded only once the first is
    done (the chat's update order), never interleaved with it; a third with the first one's key is
    answered `duplicate` by the redelivery filter without being recorded."""
    real = picker.record_hand
    events: list[tuple[str, str]] = []

    async def slow(turn: Turn, entry: EntryJSON, **kwargs: Any) -> None:
        events.append(("start", turn.source_key))
        await asyncio.sleep(0.05)  # a slow Bot API: the other submission would start meanwhile
        await real(turn, entry, **kwargs)
        events.append(("end", turn.source_key))

    monkeypatch.setattr(picker, "record_hand", slow)
    auth = init_data(seated_table, "bob", token_of(seated_table))
    keys = [uuid.uuid4().hex, uuid.uuid4().hex]
    answers = await asyncio.gather(
        *(post(seated_table, "/api/submit", {"entry": SELF_DRAW, "key": key}, auth) for key in keys)
    )
    assert [a.json()["status"] for a in answers] == ["sent", "sent"]
    first, second = events[0][1], events[2][1]
    assert first != second and events == [
        ("start", first),
        ("end", first),
        ("start", second),
        ("end", second),
    ]
    again = await post(seated_table, "/api/submit", {"entry": SELF_DRAW, "key": keys[0]}, auth)
    assert again.json()["status"] == "duplicate" and len(events) == 4
