"""A preview's send that Telegram answers with a 5xx: the entry is stored before its preview goes out (so
no Confirm can be seen, on any worker, before its entry exists); a 502 before delivery is sent once more,
so the reply is not lost; a 502 after delivery leaves a preview whose Confirm records the hand, once."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from harness import Table, ledger
from reads import open_pending

from bot.handlers import recording
from bot.ledger.play import books, groups

CONFIRM = "✅ 确认"
BAD_GATEWAY = 502, {"ok": False, "error_code": 502, "description": "Bad Gateway"}


@pytest.fixture(autouse=True)
def resend_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(recording, "RESEND_AFTER", 0.0)


def is_preview(params: dict[str, Any]) -> bool:
    return "预览" in str(params.get("text", ""))


@contextmanager
def bot_api(table: Table, fault: Callable[[str, dict[str, Any], Callable[[], Any]], Any]) -> Iterator[None]:
    """Every Bot API call goes through `fault(method, params, real)`, `real()` being Telegram's answer."""
    state = table.transport.state
    real = state.handle

    def handle(name: str, params: Any, files: Any = None) -> Any:
        return fault(name, dict(params), lambda: real(name, params, files))

    state.handle = handle  # type: ignore[method-assign]
    try:
        yield
    finally:
        state.handle = real  # type: ignore[method-assign]


def hands(table: Table) -> int:
    return len(ledger(table).read(books.hands, groups.chat_state(ledger(table), table.chat_id).session.id))


async def test_the_entry_is_stored_before_its_preview_can_be_seen(seated_table: Table) -> None:
    table = seated_table
    stored_when_sent: list[int] = []

    def watch(method: str, params: dict[str, Any], real: Callable[[], Any]) -> Any:
        if method == "sendMessage" and is_preview(params):
            stored_when_sent.append(len(open_pending(ledger(table), table.chat_id)))
        return real()

    with bot_api(table, watch):
        await table.say("bob", "/hu 南 自摸 5花 清一色")
    assert stored_when_sent == [1]
    [entry] = open_pending(ledger(table), table.chat_id)
    assert entry.message_id == table.replies()[-1].message_id  # and it knows its message


async def test_a_preview_refused_before_delivery_is_sent_once_more(seated_table: Table) -> None:
    table = seated_table
    refused: list[str] = []

    def first_refused(method: str, params: dict[str, Any], real: Callable[[], Any]) -> Any:
        if method == "sendMessage" and is_preview(params) and not refused:
            refused.append(method)
            return BAD_GATEWAY  # Telegram never got it
        return real()

    with bot_api(table, first_refused):
        await table.say("bob", "/hu 南 自摸 5花 清一色")
    previews = [r for r in table.replies() if CONFIRM in r.buttons]
    assert refused and len(previews) == 1  # the reply is not lost
    await table.press("cat", CONFIRM, message_id=previews[0].message_id)
    assert hands(table) == 1


async def test_an_orphan_preview_delivered_before_a_502_confirms_the_hand(seated_table: Table) -> None:
    table = seated_table
    failed: list[str] = []

    def delivered_then_502(method: str, params: dict[str, Any], real: Callable[[], Any]) -> Any:
        answer = real()
        if method == "sendMessage" and is_preview(params) and not failed:
            failed.append(method)
            return BAD_GATEWAY  # delivered, but the bot is told it failed
        return answer

    with bot_api(table, delivered_then_502):
        await table.say("bob", "/hu 南 自摸 5花 清一色")
    table.handler_errors.clear()
    previews = [r for r in table.replies() if CONFIRM in r.buttons]
    assert failed and previews
    orphan = previews[0]
    done = await table.press("cat", CONFIRM, message_id=orphan.message_id)
    assert "过期" not in "\n".join(done.answers + [e.text for e in done.edits])
    assert table.message(orphan.message_id).text.startswith("第1局 南 自摸")
    assert hands(table) == 1
    for copy in previews[1:]:  # a second copy, sent when the first seemed lost, shows the same result
        await table.press("dan", CONFIRM, message_id=copy.message_id)
        assert table.message(copy.message_id).text.startswith("第1局 南 自摸")
        assert table.message(copy.message_id).buttons == ()
    assert hands(table) == 1
