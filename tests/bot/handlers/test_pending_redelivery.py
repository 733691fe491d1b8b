"""A /hu update delivered again (a restart, Telegram's retry) in preview mode leaves one preview in the chat:
the entry is stored once (keyed by the message), before the preview that shows it, and the chat's state
read for the update tells a restarted bot it is there, so nothing is sent again; a preview that could not
be sent is shown then. A hand is scored once, at the preview."""

from __future__ import annotations

from typing import Any

from harness import Table
from reads import open_pending

from bot.console.driver import deliver
from bot.ledger.play import books, groups, recording

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
    session = groups.chat_state(ledger, seated_table.chat_id).session
    assert len(open_pending(ledger, seated_table.chat_id)) == 1
    # A second process on the same database (the bot restarted) receives the same update again.
    other = build_application(bot_settings, request=transport, get_updates_request=transport)
    restarted = await Table.start(other, transport, chat_id=seated_table.chat_id)
    try:
        sends_before = len(seated_table.calls("sendMessage", "deleteMessage"))
        await deliver(other, update)
        assert previews(restarted) == shown  # one preview in the chat, still the first one
        assert len(seated_table.calls("sendMessage", "deleteMessage")) == sends_before  # nothing sent again
        assert len(open_pending(ledger, seated_table.chat_id)) == 1
        # The one preview still commits, once.
        done = await restarted.press("cat", CONFIRM, message_id=shown[0].message_id)
        assert done.edits[0].text.startswith("第1局 南 自摸")  # the preview became the result
        assert len(ledger.read(books.hands, session.id)) == 1
    finally:
        await restarted.stop()


async def test_a_preview_that_could_not_be_sent_is_shown_when_the_update_comes_again(
    seated_table: Table, bot_settings: Any, transport: Any, monkeypatch: Any
) -> None:
    """Telegram refuses the preview (a 502, and again when it is sent once more): the entry is stored
    (before its preview goes out) without a message. The bot restarts, Telegram delivers the update
    again, and the preview goes out then, once, its message written to the entry, its Confirm working."""
    from bot.handlers import recording

    monkeypatch.setattr(recording, "RESEND_AFTER", 0.0)
    ledger = seated_table.app.bot_data["ledger"]
    update = seated_table.state.message(seated_table.chat_id, "bob", "/hu 南 自摸 5花 清一色")

    state = seated_table.transport.state
    real_handle = state.handle

    def bad_gateway(method: str, params: Any, files: Any) -> Any:
        if method == "sendMessage":
            return 502, {"ok": False, "error_code": 502, "description": "Bad Gateway"}
        return real_handle(method, params, files)

    monkeypatch.setattr(state, "handle", bad_gateway)
    await deliver(seated_table.app, update)
    monkeypatch.setattr(state, "handle", real_handle)
    seated_table.handler_errors.clear()  # the handler's NetworkError, as PTB's error handler saw it
    [unshown] = open_pending(ledger, seated_table.chat_id)
    assert unshown.message_id is None and previews(seated_table) == []
    from bot.app import build_application

    other = build_application(bot_settings, request=transport, get_updates_request=transport)
    restarted = await Table.start(other, transport, chat_id=seated_table.chat_id)
    try:
        await deliver(other, update)  # the bot restarted; Telegram delivers the update again
        [shown] = previews(restarted)
        [stored] = open_pending(ledger, seated_table.chat_id)
        assert stored.message_id == shown.message_id
        done = await restarted.press("cat", CONFIRM, message_id=shown.message_id)
        assert done.edits[0].text.startswith("第1局 南 自摸")
    finally:
        await restarted.stop()


async def test_a_preview_whose_entry_could_not_be_stored_is_not_sent(
    seated_table: Table, monkeypatch: Any
) -> None:
    """Storing the entry failed (here: the table ended in another process in between): its preview never
    goes out (the entry is stored first), and the sender is told why. No Confirm is ever without its
    entry."""
    from bot.ledger.errors import NoOpenSession

    def table_gone(*args: Any, **kwargs: Any) -> Any:
        raise NoOpenSession("this group has no open table session", chat_id=seated_table.chat_id)

    monkeypatch.setattr(recording, "create_pending", table_gone)
    turn = await seated_table.say("bob", "/hu 南 自摸 5花 清一色")
    assert [c.method for c in turn.calls] == ["sendMessage"]
    assert previews(seated_table) == []
    assert turn.texts[-1].startswith("本群现在没有在打的牌")  # why, in the group's words


async def test_a_hand_is_scored_once_from_preview_to_ledger(seated_table: Table, monkeypatch: Any) -> None:
    """/hu scores the entry for its preview; Confirm records that preview (the table is unchanged, its
    version says so) and scores nothing again. The recorded money is the money the preview showed."""
    import scoring.request
    from bot.ledger.play import hands

    calls: list[dict[str, Any]] = []
    real = scoring.request.score_request

    def counting(request: Any) -> Any:
        calls.append(request)
        return real(request)

    monkeypatch.setattr(hands.scoring, "score_request", counting)
    preview = await seated_table.say("bob", "/hu 南 自摸 5花 清一色")
    assert len(calls) == 1
    ledger = seated_table.app.bot_data["ledger"]
    [pending] = open_pending(ledger, seated_table.chat_id)
    done = await seated_table.press("cat", CONFIRM)
    assert len(calls) == 1  # Confirm scored nothing
    [hand] = ledger.read(books.hands, groups.chat_state(ledger, seated_table.chat_id).session.id)
    # 底 5 + 5 硬花 + 清一色 10 = 20 花 from each of the three others, to bob's seat 南 (stake 1)
    assert hand.payments == pending.preview.payments == {"E": -20, "S": 60, "W": -20, "N": -20}
    assert hand.player_payments == pending.preview.player_payments
    assert done.edits[0].text.startswith("第1局 南 自摸")
    assert preview.sent[-1].message_id == done.edits[0].message_id
