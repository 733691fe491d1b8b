"""/end: the standings and a Confirm, then the session closed, its waiting entries recorded or dropped, and
its summary posted (`end_pressed`)."""

from __future__ import annotations

import asyncio
import logging

from telegram import InlineKeyboardButton, InlineKeyboardMarkup
from telegram.error import TelegramError

from bot.buttons import EndPress
from bot.handlers.callbacks import button, command
from bot.handlers.card import after_commit, confirmed_status, show_card, unpin_card
from bot.handlers.permissions import (
    own_session,
    refuse_own_entry,
    require,
    writable_session,
)
from bot.handlers.turn import Turn
from bot.ledger import PendingInfo, SessionInfo
from bot.ledger.errors import (
    LedgerError,
)
from bot.ledger.play import books, pending, recording, sessions
from bot.ledger.values import PendingKind
from bot.render import (
    closed_preview_text,
    session_standings,
)
from bot.render.errors import Refusal
from bot.summary.post import post_ended

log = logging.getLogger(__name__)


@command("end")
async def end(turn: Turn) -> None:
    """/end: the standings and a Confirm button; the press closes the session and posts the summary card,
    chart and CSV (`end_pressed`)."""
    if turn.text:
        raise Refusal("err.too_many_args", usage=True, value=turn.text)
    await ask_end(turn, await writable_session(turn, "end"))


# ---- /end: the standings, then a Confirm ---------------------------------------------------------


def end_markup(turn: Turn, session: SessionInfo, waiting: bool = False) -> InlineKeyboardMarkup:
    """[End and settle] [Keep playing] under /end's question; with entries `waiting` for their Confirm,
    [Record them and end] above (End and settle drops them)."""
    rows = [
        [
            InlineKeyboardButton(turn.t("end.confirm"), callback_data=EndPress(session.id).data),
            InlineKeyboardButton(turn.t("end.keep"), callback_data=EndPress(session.id, False).data),
        ]
    ]
    if waiting:
        record = EndPress(session.id, record=True).data
        rows.insert(0, [InlineKeyboardButton(turn.t("end.record"), callback_data=record)])
    return InlineKeyboardMarkup(rows)


async def ask_end(turn: Turn, session: SessionInfo) -> None:
    """/end: the session's standings and a question; only the Confirm button ends the session. Asked once
    per message: a redelivered /end finds its key claimed and asks nothing again."""
    if not await turn.run(turn.ledger.claim, turn.source_key):
        return
    report = await turn.read(books.standings, turn.chat_id, session_id=session.id)
    lines = [turn.t("end.ask", number=session.number, hands=session.hands_played)]
    lines += session_standings(turn.lang, report.session_rows)
    waiting = await _waiting(turn, session)
    if waiting:  # a hand shown but not confirmed: recorded by the press that ends, or dropped
        lines.append(turn.t("end.waiting", count=len(waiting)))
    await turn.say("\n".join(lines), end_markup(turn, session, bool(waiting)))


async def _waiting(turn: Turn, session: SessionInfo) -> list[PendingInfo]:
    """The session's entries still waiting for their Confirm."""
    return await turn.read(pending.waiting_in, session.id)


async def _drop_previews(turn: Turn, waiting: list[PendingInfo], session: SessionInfo) -> None:
    """The previews of entries the end dropped, marked void (their buttons gone): the table ended."""
    status = turn.t("end.preview_dropped", number=session.number)
    for entry in waiting:
        if entry.message_id is None:
            continue
        try:
            await turn.edit(entry.message_id, closed_preview_text(turn.lang, entry, session, status))
        except TelegramError as exc:  # deleted, too old: the entry is void in the ledger anyway
            log.info("could not mark preview %s void: %s", entry.message_id, exc)


async def _record(turn: Turn, waiting: list[PendingInfo], session: SessionInfo) -> list[PendingInfo]:
    """Confirm each waiting entry as the presser's own Confirm would (who may confirm, `confirm_by other`:
    all checked before any is recorded), oldest first, each preview turned into its result; the entries
    that could not be recorded (expired, stale after an earlier one, a question not answered) are
    returned, for the end to drop."""
    await require(turn, "confirm", session)
    previews = [p for p in waiting if p.kind not in ("dealer", "name")]  # not a question waiting its answer
    if turn.state.group.confirm_by == "other":
        for pending in previews:
            await refuse_own_entry(turn, pending.id)
    left = [p for p in waiting if p not in previews]
    for pending in previews:
        try:
            result = await turn.run(
                recording.confirm_pending,
                turn.ledger,
                pending.id,
                chat_id=turn.chat_id,
                message_id=pending.message_id,
                by=turn.user,
            )
        except LedgerError as exc:  # no longer confirmable: dropped with the rest
            log.info("waiting entry %s not recorded at the end: %s", pending.id, exc)
            left.append(pending)
            continue
        kind: PendingKind = "undo" if result.hand.voided else "edit" if result.replaced else "hand"
        status = confirmed_status(turn, kind, result)
        await after_commit(turn, kind, result, flow_message=pending.message_id, status=status)
    return left


async def _nothing() -> None:
    return None


@button(EndPress.parse)
async def end_pressed(turn: Turn, press: EndPress) -> None:
    """/end's buttons: only in their own chat, for this chat's open session, by a seated player or an
    admin. Confirm ends the session (once: a second press finds it ended) and posts the summary, dropping
    the entries still waiting for their Confirm; 记入再结束 records those first (`_record`)."""
    session = await own_session(turn, press.session_id)
    assert session is not None
    await require(turn, "end", session)
    message_id = turn.pressed_message_id
    message = turn.pressed_message
    shown = getattr(message, "text", None) or ""
    who = turn.user.display_name if turn.user else "?"
    if not press.end:
        if message_id is not None:
            await turn.edit(message_id, "\n".join(x for x in (shown, turn.t("end.kept", player=who)) if x))
        return
    waiting = await _waiting(turn, session)
    recorded = 0
    if press.record and waiting:
        left = await _record(turn, waiting, session)
        recorded, waiting = len(waiting) - len(left), left
    summary = await turn.run(
        sessions.end_session,
        turn.ledger,
        turn.chat_id,
        by=turn.user,
        session_id=session.id,
        topic=turn.thread_id,
        key=turn.source_key,
    )
    # The press is answered with the question's edit, before the card, chart and CSV: the button stops
    # spinning at once.
    said = (
        turn.t("end.confirmed_recorded", player=who, count=recorded)
        if recorded
        else turn.t("end.confirmed", player=who)
    )
    confirmed = "\n".join(x for x in (shown, said) if x)
    edited = turn.edit(message_id, confirmed) if message_id is not None else _nothing()
    await asyncio.gather(turn.answer(), edited)
    await _drop_previews(turn, waiting, session)
    await show_card(turn, summary.session)
    await unpin_card(turn, summary.session)
    # The summary is due in the ledger since the session ended: posted now, or by the summary sweep when
    # a send fails or this worker stops first (bot.jobs.sweeps.post_due_summaries).
    await post_ended(turn.context.bot, turn.ledger, session.id, lang=turn.lang)
