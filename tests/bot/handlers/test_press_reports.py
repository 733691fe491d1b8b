"""A press reports what the ledger did: a Cancel pressed on a preview whose Confirm was committed (its result
edit failed, or the worker stopped between the commit and the edit) says the hand counts, and the stale
preview's buttons give way to the result."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from harness import Table, ledger

from bot.ledger.play import books, groups

CONFIRM, CANCEL = "✅ 确认", "✖ 取消"


@contextmanager
def edits_refused(table: Table, message_id: int) -> Iterator[list[str]]:
    """Telegram answers 502 Bad Gateway to every edit of `message_id`."""
    state = table.transport.state
    real = state.handle
    failed: list[str] = []

    def handle(name: str, params: Any, files: Any = None) -> Any:
        if name.startswith("edit") and str(params.get("message_id")) == str(message_id):
            failed.append(name)
            return 502, {"ok": False, "error_code": 502, "description": "Bad Gateway"}
        return real(name, params, files)

    state.handle = handle  # type: ignore[method-assign]
    try:
        yield failed
    finally:
        state.handle = real  # type: ignore[method-assign]


async def test_a_cancel_after_a_committed_confirm_says_the_hand_counts(seated_table: Table) -> None:
    table = seated_table
    preview = (await table.say("bob", "/hu 南 自摸 5花 清一色")).sent[-1]
    with edits_refused(table, preview.message_id) as failed:
        await table.press("cat", CONFIRM, message_id=preview.message_id)
    table.handler_errors.clear()
    assert failed  # the result could not replace the preview: its buttons are still there
    assert CANCEL in table.message(preview.message_id).buttons
    session = groups.chat_state(ledger(table), table.chat_id).session
    assert len(ledger(table).read(books.hands, session.id)) == 1

    pressed = await table.press("dan", CANCEL, message_id=preview.message_id)
    said = "\n".join([*pressed.answers, *(e.text for e in pressed.edits), *pressed.texts])
    assert "已取消" not in said and "没有记入" not in said
    shown = table.message(preview.message_id)
    assert shown.buttons == ()  # the stale preview's buttons are gone
    assert shown.text.startswith("第1局 南 自摸")  # replaced by the result
    assert "取消不了" in shown.text
    assert len(ledger(table).read(books.hands, session.id)) == 1  # the hand counts, once


async def test_a_second_confirm_on_a_stale_preview_shows_the_result(seated_table: Table) -> None:
    table = seated_table
    preview = (await table.say("bob", "/hu 南 自摸 5花 清一色")).sent[-1]
    with edits_refused(table, preview.message_id):
        await table.press("cat", CONFIRM, message_id=preview.message_id)
    table.handler_errors.clear()
    await table.press("dan", CONFIRM, message_id=preview.message_id)
    shown = table.message(preview.message_id)
    assert shown.buttons == () and shown.text.startswith("第1局 南 自摸")
    session = groups.chat_state(ledger(table), table.chat_id).session
    assert len(ledger(table).read(books.hands, session.id)) == 1
