"""Recording: /hu /draw /escape /adjust /undo /edit → preview with Confirm/Cancel → commit → card + result.

Every write reads like: update → parse → scoring (the ledger's preview) → ledger (one transaction: on the
event loop when SQLite takes it at once, else in a thread; `Turn.quick`) → render → reply. Nothing counts
before Confirm unless the group set `instant`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from telegram import InlineKeyboardButton, InlineKeyboardMarkup
from telegram.error import TelegramError
from telegram.ext import Application, ContextTypes

from bot.handlers.common import USER_ERRORS, Refusal, Turn, button, chat_language, command, ledger_of
from bot.handlers.table import refresh_card, save_state
from bot.ledger.errors import PendingCancelled, PendingExpired, PendingStale
from bot.ledger.results import CommitResult, PendingInfo, SessionInfo
from bot.render import hand_summary, payments_text, preview_text, result_line

if TYPE_CHECKING:
    from bot.ledger.service import LedgerService

log = logging.getLogger(__name__)

PendingKind = Literal["hand", "adjust", "edit", "undo"]


@dataclass(frozen=True, slots=True)
class PendingPress:
    """Callback data of a preview's buttons: which pending entry, and Confirm or Cancel."""

    pending_id: str
    action: Literal["confirm", "cancel"]


def seat_resolver(session: SessionInfo) -> Callable[[str], str | None]:
    """The grammar's `resolve(word) -> seat | None` over the seated table, in memory (no database call):
    E/S/W/N, 东南西北/東, @username, or a seated player's name (case-insensitive)."""
    from bot.grammar import make_resolver

    names: dict[str, list[str]] = {}
    for seat, player in session.seats.items():
        names[seat] = [player.name, *([f"@{player.username}"] if player.username else [])]
    return make_resolver(names)


def confirm_markup(turn: Turn, pending_id: str, kind: PendingKind) -> InlineKeyboardMarkup:
    """[Confirm] [Cancel] under a preview (or [Void it] [Keep it] under an undo question)."""
    yes, no = ("undo.confirm", "undo.cancel") if kind == "undo" else ("preview.confirm", "preview.cancel")
    return InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(turn.t(yes), callback_data=PendingPress(pending_id, "confirm")),
                InlineKeyboardButton(turn.t(no), callback_data=PendingPress(pending_id, "cancel")),
            ]
        ]
    )


async def record_hand(turn: Turn, parse: Callable[[SessionInfo], dict[str, Any]]) -> None:
    """Parse a hand against the table and preview or commit it.

    In an instant group, a sender seated at the table this process last saw parses against that table and
    commits in one ledger call that checks the seating (no read of the table first); if the seating
    changed, or the remembered table does not parse the text, it reads the table and goes the usual way."""
    hint = turn.session_hint()
    if hint is not None and turn.is_seated(hint) and await instant_group(turn):
        try:
            entry: dict[str, Any] | None = parse(hint)
        except USER_ERRORS:
            entry = None  # e.g. a renamed player: the fresh table decides
        if entry is not None:
            seats = {seat: player.id for seat, player in hint.seats.items()}
            by, key, text = turn.user, turn.source_key, turn.text or None
            try:
                result = await turn.quick(
                    lambda ledger: ledger.commit(
                        turn.chat_id, entry, by=by, source_key=key, text=text, expect_seats=seats
                    )
                )
            except PendingStale:
                turn.remember_session(None)
            else:
                await after_commit(turn, "hand", result)
                return
    session = await writable_session(turn)
    await submit(turn, session, "hand", parse(session))


async def writable_session(turn: Turn) -> SessionInfo:
    """The open table, and the sender may write to it."""
    session = await turn.require_session()
    await turn.require_writer(session)
    return session


def pending_text(
    turn: Turn, pending: PendingInfo, session: SessionInfo, *, hint: bool = True, extra: str = ""
) -> str:
    """The message that shows a pending entry: the itemized preview (or the undo question), `extra`
    lines (an edit's later hands), and how long it waits for Confirm."""
    if pending.kind == "undo":
        return turn.t("undo.ask_short")
    assert pending.preview is not None
    note = None
    number = None
    if pending.kind == "edit":
        number = pending.payload.get("number")
        note = turn.t("preview.replace", n=number)
    text = preview_text(turn.lang, pending.preview, session, number=number, note=note) + extra
    if hint:
        seconds = round((pending.expires_at - pending.created_at).total_seconds())
        if seconds % 60:
            text += "\n" + turn.t("preview.confirm_hint_seconds", seconds=seconds)
        else:
            text += "\n" + turn.t("preview.confirm_hint", minutes=seconds // 60)
    return text


async def submit(
    turn: Turn,
    session: SessionInfo,
    kind: PendingKind,
    payload: dict[str, Any],
    *,
    edit_message_id: int | None = None,
    shown: str | None = None,
) -> None:
    """Preview an entry with Confirm/Cancel, or commit it at once when the group is `instant`.

    `shown` replaces the rendered preview (the undo question); `edit_message_id` turns an existing
    message (the /hu button flow) into the preview instead of sending a new one."""
    if kind != "undo" and await instant_group(turn):
        result = await turn.quick(lambda ledger: commit_now(ledger, turn, kind, payload))
        await after_commit(turn, kind, result, edit_message_id=edit_message_id)
        return
    chat_id, by, text, key = turn.chat_id, turn.user, turn.text or None, turn.source_key
    pending = await turn.quick(
        lambda ledger: ledger.create_pending(chat_id, kind, payload, by=by, text=text, source_key=key)
    )
    if pending.message_id is not None or pending.status != "pending":
        return  # a redelivered update (e.g. after a restart): its preview is already in the chat
    extra = await later_hands_text(turn, payload) if kind == "edit" else ""
    text = shown or pending_text(turn, pending, session, extra=extra)
    markup = confirm_markup(turn, pending.id, kind)
    if edit_message_id is not None:
        await turn.context.bot.edit_message_text(
            text, chat_id=turn.chat_id, message_id=edit_message_id, reply_markup=markup
        )
        message_id = edit_message_id
    else:
        message_id = (await turn.say(text, markup)).message_id
    pending_id = pending.id
    pending = await turn.quick(lambda ledger: ledger.set_pending_message(pending_id, message_id))
    schedule_expiry(turn.context.application, pending)
    await save_state(turn)  # its Confirm button works after a restart, even a hard kill


async def later_hands_text(turn: Turn, payload: dict[str, Any]) -> str:
    """For an /edit preview: how every later hand comes out once re-scored from the corrected state."""
    previews = await turn.run(turn.ledger.preview_edit, turn.chat_id, payload["number"], payload["entry"])
    later = previews[1:]
    if not later:
        return ""
    lines = [turn.t("preview.later", count=len(later))]
    for preview in later:
        lines.append(
            turn.t(
                "preview.later_row",
                n=preview.before.hand_number,
                what=hand_summary(turn.lang, preview),
                payments=payments_text(
                    turn.lang, preview.payments, [w["winner"] for w in preview.entry.get("wins") or []]
                ),
            )
        )
    return "\n" + "\n".join(lines)


async def instant_group(turn: Turn) -> bool:
    """The group's `instant` setting, cached in chat_data (/rules refreshes it)."""
    chat_data = turn.context.application.chat_data[turn.chat_id]
    if "instant" not in chat_data:
        group = await turn.run(turn.ledger.get_group, turn.chat_id)
        chat_data["instant"] = group.instant
    return bool(chat_data["instant"])


def commit_now(ledger: LedgerService, turn: Turn, kind: PendingKind, payload: dict[str, Any]) -> CommitResult:
    """The direct ledger operation of an `instant` group (through `Turn.quick`), idempotent on the update."""
    chat_id, key, by = turn.chat_id, turn.source_key, turn.user
    text = turn.text or None
    if kind == "hand":
        return ledger.commit(chat_id, payload, by=by, source_key=key, text=text)
    if kind == "edit":
        return ledger.edit(chat_id, payload["number"], payload["entry"], by=by, source_key=key, text=text)
    if kind == "adjust":
        return ledger.adjust(
            chat_id,
            payload["payer"],
            payload["payee"],
            payload["amount"],
            note=payload.get("note"),
            by=by,
            source_key=key,
            text=text,
        )
    return ledger.undo(chat_id, by=by, source_key=key)


async def after_commit(
    turn: Turn, kind: PendingKind, result: CommitResult, *, edit_message_id: int | None = None
) -> None:
    """Reply with the one-line result (or turn the button-flow message into it) and edit the pinned card."""
    if kind == "undo":
        text = turn.t("result.undone", n=result.hand.number)
    elif kind == "edit":
        text = turn.t("result.edited", n=result.hand.number) + "\n" + result_line(turn.lang, result.hand)
    else:
        text = result_line(turn.lang, result.hand)
    if edit_message_id is not None:
        await turn.context.bot.edit_message_text(text, chat_id=turn.chat_id, message_id=edit_message_id)
    else:
        await turn.post(text)
    added = result.hand if kind in ("hand", "adjust") and result.created else None
    turn.remember_session(result.session)
    await refresh_card(turn, result.session, added=added, later=True)


def keep_alive(turn: Turn, session: SessionInfo) -> None:
    """(Re)schedule the idle auto-end of the session after activity (bot.jobs, persistent)."""
    from bot.jobs import touch_session

    if session.is_open:
        touch_session(turn.context.application, turn.chat_id, session.id)


# ---- the commands --------------------------------------------------------------------------------


@command("hu")
async def hu(turn: Turn) -> None:
    """/hu <winner> <how> [details]; /hu alone starts the button flow."""
    from bot.grammar import parse_hu
    from bot.handlers.flow import start_flow

    if not turn.text:
        await start_flow(turn, await writable_session(turn))
        return
    await record_hand(turn, lambda session: parse_hu(turn.text, seat_resolver(session)))


@command("draw")
async def draw(turn: Turn) -> None:
    """/draw: 荒庄, no payments; the dealer moves by the rules."""
    if turn.text:
        raise Refusal("err.too_many_args", usage=True, value=turn.text)
    from bot.grammar import parse_draw

    await record_hand(turn, lambda _session: parse_draw(turn.text))


@command("escape")
async def escape(turn: Turn) -> None:
    """/escape <player>: 逃跑, the leaver pays 120 花 split among the other three."""
    from bot.grammar import parse_escape

    await record_hand(turn, lambda session: parse_escape(turn.text, seat_resolver(session)))


@command("adjust")
async def adjust(turn: Turn) -> None:
    """/adjust <from> <to> <amount> [note]: a zero-sum side payment kept with its note."""
    from bot.grammar import parse_adjust

    session = await writable_session(turn)
    parsed = parse_adjust(turn.text, seat_resolver(session), strict=True)
    payer, payee = session.seats[parsed.payer], session.seats[parsed.payee]
    payload = {"payer": payer.id, "payee": payee.id, "amount": parsed.amount, "note": parsed.note or None}
    await submit(turn, session, "adjust", payload)


@command("undo")
async def undo(turn: Turn) -> None:
    """/undo: void the last row after a confirm button; dealer, 连庄 and 滴零 roll back with it."""
    if turn.text:
        raise Refusal("err.too_many_args", usage=True, value=turn.text)
    session = await writable_session(turn)
    hands = await turn.run(turn.ledger.hands, session.id)
    if not hands:
        raise Refusal("err.nothing_to_undo")
    last = hands[-1]
    question = turn.t("undo.ask", n=last.number, summary=hand_summary(turn.lang, last))
    await submit(turn, session, "undo", {}, shown=question)


@command("edit")
async def edit(turn: Turn) -> None:
    """/edit <n> <entry>: replace hand n; every later hand is re-scored from the corrected dealer state."""
    from bot.grammar import parse_edit, parse_entry

    session = await writable_session(turn)
    number, typed = parse_edit(turn.text)
    entry = parse_entry(typed, seat_resolver(session))
    await submit(turn, session, "edit", {"number": number, "entry": entry})


# ---- Confirm / Cancel ------------------------------------------------------------------------------


@button
async def pending_pressed(turn: Turn, data: PendingPress) -> None:
    """Confirm commits the pending entry exactly once; Cancel drops it. Seated players or admins only."""
    ledger = turn.ledger
    pending = await turn.quick(lambda ledger: ledger.get_pending(data.pending_id))
    session_id = pending.session_id
    session = await turn.quick(lambda ledger: ledger.get_session(session_id))
    await turn.require_writer(session)
    query = turn.update.callback_query
    assert query is not None
    who = turn.user.display_name if turn.user else "?"
    if data.action == "cancel":
        await turn.run(ledger.cancel_pending, pending.id, by=turn.user)
        cancel_expiry(turn.context.application, pending.id)
        await _close_preview(turn, pending, session, turn.t("preview.cancelled"))
        return
    try:
        by = turn.user
        result = await turn.quick(lambda ledger: ledger.confirm_pending(pending.id, by=by))
    except (PendingExpired, PendingCancelled, PendingStale) as exc:
        from bot.handlers.common import error_text

        await _close_preview(turn, pending, session, error_text(turn.lang, exc))
        await turn.answer(error_text(turn.lang, exc), alert=True)
        return
    if not result.created:
        await turn.answer(turn.t("err.gone"))
        return
    cancel_expiry(turn.context.application, pending.id)
    await turn.answer(turn.t("preview.recorded_toast"))
    await _close_preview(turn, pending, session, turn.t("preview.confirmed", player=who))
    await after_commit(turn, pending.kind, result)


async def _close_preview(turn: Turn, pending: PendingInfo, session: SessionInfo, status: str) -> None:
    """Replace a preview's buttons by a status line (confirmed / cancelled / expired)."""
    if pending.message_id is None:
        return
    query = turn.update.callback_query
    if pending.kind == "undo" and query is not None and query.message is not None:
        base = getattr(query.message, "text", None) or pending_text(turn, pending, session)
    else:
        base = pending_text(turn, pending, session, hint=False)
    text = base + "\n" + status
    try:
        await turn.context.bot.edit_message_text(text, chat_id=pending.chat_id, message_id=pending.message_id)
    except TelegramError as exc:
        log.info("could not close preview %s: %s", pending.id, exc)


# ---- expiry ------------------------------------------------------------------------------------------


def schedule_expiry(application: Application[Any, Any, Any, Any, Any, Any], pending: PendingInfo) -> None:
    """Expire a pending entry at its deadline: a persistent JobQueue job (bot.jobs) that survives a
    restart; it calls `close_expired` to edit the preview."""
    from bot.jobs import schedule_expiry as schedule_persistent

    schedule_persistent(application, pending.chat_id, pending.id, pending.expires_at)


def cancel_expiry(application: Application[Any, Any, Any, Any, Any, Any], pending_id: str) -> None:
    """Drop the expiry job of a confirmed or cancelled entry (it would do nothing anyway)."""
    from bot.jobs import cancel_expiry as cancel_persistent

    try:
        cancel_persistent(application, pending_id)
    except Exception as exc:  # keeping the table small is a nicety; never fail a confirm for it
        log.info("could not drop the expiry job of %s: %s", pending_id, exc)


async def close_expired(context: ContextTypes.DEFAULT_TYPE, pending: PendingInfo) -> None:
    """Edit one expired preview: buttons gone, an 'expired, not recorded' line."""
    import asyncio

    if pending.message_id is None:
        return
    lang = await chat_language(context, chat_id=pending.chat_id)
    from bot.i18n import t
    from bot.render import preview_text as render_preview

    if pending.preview is not None:
        session = await asyncio.to_thread(ledger_of(context).get_session, pending.session_id)
        number = pending.payload.get("number") if pending.kind == "edit" else None
        text = render_preview(lang, pending.preview, session, number=number) + "\n" + t(lang, "err.expired")
    else:
        text = t(lang, "err.expired")
    try:
        await context.bot.edit_message_text(text, chat_id=pending.chat_id, message_id=pending.message_id)
    except TelegramError as exc:
        log.info("could not mark pending %s expired: %s", pending.id, exc)
