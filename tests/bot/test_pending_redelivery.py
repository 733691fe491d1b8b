"""A /hu update delivered again (a restart, Telegram's retry) in preview mode leaves one preview in the chat:
the entry is stored once (keyed by the message), and the restarted bot takes back its second message."""

from __future__ import annotations

from typing import Any

from harness import Table

from bot.console.driver import deliver

CONFIRM = "✅ 确认"


def previews(table: Table) -> list[Any]:
    """Every message the bot sent with Confirm/Cancel buttons."""
    return [r for r in table.replies() if CONFIRM in r.buttons]


async def test_a_redelivered_hu_after_a_restart_shows_no_second_preview(
    seated_table: Table, bot_settings: Any, transport: Any
) -> None:
    from bot.app import build_application

    update = seated_table.state.message(seated_table.chat_id, "bob", "/hu 南 自摸 5花 清一色")
    await deliver(seated_table.app, update)
    shown = previews(seated_table)
    assert len(shown) == 1
    ledger = seated_table.app.bot_data["ledger"]
    session = ledger.current_session(seated_table.chat_id)
    assert len(ledger.open_pending(seated_table.chat_id)) == 1
    # A second process on the same database (the bot restarted) receives the same update again.
    other = build_application(bot_settings, request=transport, get_updates_request=transport)
    restarted = await Table.start(other, transport, chat_id=seated_table.chat_id)
    try:
        await deliver(other, update)
        assert previews(restarted) == shown  # one preview in the chat, still the first one
        assert len(ledger.open_pending(seated_table.chat_id)) == 1
        # The one preview still commits, once.
        done = await restarted.press("cat", CONFIRM, message_id=shown[0].message_id)
        assert done.edits[0].text.startswith("第1局 南 自摸")  # the preview became the result
        assert len(ledger.hands(session.id)) == 1
    finally:
        await restarted.stop()
