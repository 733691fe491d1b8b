"""Recording: /hu /draw /escape /adjust /undo /edit → preview with Confirm/Cancel → commit → result + card.

A write reads like: update → the chat's state (one read, `Turn.start`) → parse against the table →
scoring (`recording.preview` on that snapshot, no database) → the preview message → `recording.create_pending`
(one write: the entry with its preview and that message). Confirm: `recording.press` (one write:
the chat's state, who may press, and the stored preview recorded, in the press's chat only: a hand is
scored once) → the preview edited into the one-line result (one bot message per hand) → the card, from
the rows the commit wrote. Three transactions a hand. Nothing counts before Confirm unless the group
set `instant` (then one write: the commit, and one message).

Before the first dealer is chosen a hand entry (typed, the button flow, the Mini App, /draw, /escape) is
stored waiting for one and answered by a question with a button per seat (`ask_dealer`); the press sets
the dealer and the same entry goes on to its preview in that message (`questions.dealer_pressed`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable
from dataclasses import replace

from telegram import InlineKeyboardButton, InlineKeyboardMarkup
from telegram.error import BadRequest, NetworkError, TelegramError

from bot.buttons import DealerPress, NamePress, PendingPress
from bot.grammar import local_entry, parse_adjust, parse_draw, parse_edit, parse_entry, parse_escape, parse_hu
from bot.grammar.errors import GrammarError
from bot.handlers.callbacks import button, command
from bot.handlers.card import after_commit, confirmed_status, result_text, show_card
from bot.handlers.permissions import require, table_allows, writable_session
from bot.handlers.turn import Turn, seat_resolver
from bot.ledger import SEATS, CommitResult, HandPreview, SessionInfo, pending_id_for
from bot.ledger.errors import (
    NotFound,
    PendingCancelled,
    PendingExpired,
    PendingStale,
    SessionNotOpen,
    WinNotAllowed,
)
from bot.ledger.play import hands, recording
from bot.ledger.play.pending import show as show_pending
from bot.ledger.values import (
    AdjustPayload,
    EditPayload,
    NamePayload,
    Payload,
    PendingInfo,
    PendingKind,
)
from bot.render import hand_summary, payments_text, preview_text, wind
from bot.render.errors import USER_ERRORS, Refusal, error_text
from bot.render.items import join_words
from scoring.entry import EntryJSON
from scoring.seats import Seat

log = logging.getLogger(__name__)


def confirm_markup(turn: Turn, pending_id: str, kind: PendingKind) -> InlineKeyboardMarkup:
    """[Confirm] [Cancel] under a preview (or [Void it] [Keep it] under an undo question)."""
    yes, no = ("undo.confirm", "undo.cancel") if kind == "undo" else ("preview.confirm", "preview.cancel")
    return InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(turn.t(yes), callback_data=PendingPress(pending_id, "confirm").data),
                InlineKeyboardButton(turn.t(no), callback_data=PendingPress(pending_id, "cancel").data),
            ]
        ]
    )


def confirm_hint(turn: Turn) -> str:
    """How long a preview waits for Confirm, in the group's timeout."""
    seconds = turn.state.group.confirm_timeout_seconds
    if seconds % 60:
        return turn.t("preview.confirm_hint_seconds", seconds=seconds)
    return turn.t("preview.confirm_hint", minutes=seconds // 60)


def allowed(preview: HandPreview) -> HandPreview:
    """The preview of an entry the rules allow (WinNotAllowed, with each refused winner's reason)."""
    if preview.kind != "adjust" and not preview.allowed:
        raise WinNotAllowed("win not allowed", reasons=preview.reasons)
    return preview


async def record_hand(turn: Turn, entry: EntryJSON, *, flow_message: int | None = None) -> None:
    """Preview a hand, or commit it at once in an `instant` group; before the first dealer, ask for one
    (nothing is recorded against a dealer the table never named)."""
    session = await writable_session(turn)
    entry = local_entry(session.rules, entry)  # 宿州: 包 北 is a plain 杠开
    if not session.dealer_known:
        await turn.run(check_for_some_dealer, turn, session, entry)
        await ask_dealer(turn, session, entry, flow_message)
        return
    if turn.instant:
        by, key, text = turn.user, turn.source_key, turn.text or None
        result = await turn.run(
            recording.commit, turn.ledger, turn.chat_id, entry, by=by, source_key=key, text=text
        )
        await after_commit(turn, "hand", result, flow_message=flow_message)
        return
    # Scored on the snapshot the turn read: no database, so no hop to the ledger's thread.
    preview = allowed(recording.preview(turn.ledger, turn.chat_id, entry, session=session))
    await submit(
        turn, session, "hand", entry, preview, preview_text(turn.lang, preview, session), flow_message
    )


async def submit(
    turn: Turn,
    session: SessionInfo,
    kind: PendingKind,
    payload: Payload,
    preview: HandPreview | None,
    shown: str,
    flow_message: int | None = None,
) -> None:
    """Show an entry waiting for Confirm with Confirm/Cancel (`shown`, and how long it waits) and store it
    with the preview (so Confirm scores nothing again) and that message (`show_entry`). `flow_message`
    (the /hu button flow) is turned into the preview instead of sending a new message."""
    text = shown if kind == "undo" else f"{shown}\n{confirm_hint(turn)}"

    def view(pending_id: str) -> tuple[str, InlineKeyboardMarkup]:
        return text, confirm_markup(turn, pending_id, kind)

    await show_entry(turn, session, kind, payload, preview, flow_message, view)


async def show_entry(
    turn: Turn,
    session: SessionInfo,
    kind: PendingKind,
    payload: Payload,
    preview: HandPreview | None,
    flow_message: int | None,
    view: Callable[[str], tuple[str, InlineKeyboardMarkup]],
) -> None:
    """Store an entry, then show it as `view(its id)` says (the text and its buttons). Its id comes from
    the update's key, so the buttons can name it before it is stored; it is stored first, so no Confirm
    can be seen (on any worker) before its entry exists. A message that asked for it (`flow_message`: the
    /hu button flow, a question) is the entry's from the start, and is turned into it; else a new message
    is sent (`send_preview`: once more after an unknown outcome) and its id written to the entry
    (`pending.show`; a press on a preview whose id was never written is taken from any message of the
    chat that carries its button).

    A redelivered update finds its entry in the chat's state (`ChatState.entry`, read with it): shown
    already, it sends nothing; stored but never shown (the send failed, the process stopped), it is shown
    now. A write that fails sends nothing (nothing to take back).

    Who may press it is decided here, from the table this turn read, and stored with it: the seated
    players (`permissions.table_allows`), and under `confirm_by other` not its recorder, who needs an
    account to be told apart from its confirmer (an anonymous admin is refused and records under their own
    name)."""
    by_other = turn.state.group.confirm_by == "other"
    if by_other and turn.user is None:
        raise Refusal("err.confirm_by_anonymous")
    found = turn.state.entry
    if found is not None and (found.message_id is not None or found.status != "pending"):
        log.info("entry %s was shown already (message %s)", found.id, found.message_id)
        return
    pending_id = pending_id_for(turn.source_key)
    text, markup = view(pending_id)
    if found is None:
        pending = await turn.run(
            recording.create_pending,
            turn.ledger,
            turn.chat_id,
            kind,
            payload,
            preview=preview,
            base_version=session.version,
            message_id=flow_message,
            by=turn.user,
            text=turn.text or None,
            source_key=turn.source_key,
            pressers=table_allows("confirm", session),
            by_other=by_other,
        )
        if pending.message_id != flow_message or pending.status != "pending":  # stored before, elsewhere
            log.info("entry %s was shown already (message %s)", pending.id, pending.message_id)
            return
    if flow_message is not None:
        await turn.edit(flow_message, text, markup)
        return
    shown = await send_preview(turn, text, markup)
    if not await turn.write(None, show_pending, pending_id, shown):  # another process showed it first
        await delete_quietly(turn, shown)


RESEND_AFTER = 1.0  # seconds before a preview whose send had an unknown outcome is sent once more


async def send_preview(turn: Turn, text: str, markup: InlineKeyboardMarkup) -> int:
    """Send a preview; a send with an unknown outcome (a 5xx, a timeout: Telegram may or may not have
    posted it) once more, so the reply is not lost. Should both copies be in the chat, they are of one
    entry: a Confirm on either records it once, and a press on the other then shows the result."""
    try:
        return (await turn.say(text, markup)).message_id
    except BadRequest:
        raise
    except NetworkError as exc:
        log.warning("preview send failed in chat %s (%s); sending it once more", turn.chat_id, exc)
    await asyncio.sleep(RESEND_AFTER)
    return (await turn.say(text, markup)).message_id


async def delete_quietly(turn: Turn, message_id: int) -> None:
    """Delete a message the bot just sent (its entry could not be stored); a failure is only logged."""
    try:
        await turn.context.bot.delete_message(turn.chat_id, message_id)
    except TelegramError as exc:
        log.info("could not delete message %s of chat %s: %s", message_id, turn.chat_id, exc)


# ---- the commands --------------------------------------------------------------------------------


async def record_typed(turn: Turn, session: SessionInfo, flow_message: int | None = None) -> None:
    """A typed /hu (`turn.text`): its preview; a name in it that fits several seated players is asked
    about, a button per player it fits (`ask_name`), never guessed."""
    resolve = seat_resolver(session, await turn.people())
    try:
        entry = parse_hu(turn.text, resolve)
    except GrammarError as exc:
        if exc.code != "ambiguous_player":
            raise
        await ask_name(turn, session, str(exc.params["token"]), str(exc.params["seats"]), flow_message)
        return
    await record_hand(turn, entry, flow_message=flow_message)


@command("draw")
async def draw(turn: Turn) -> None:
    """/draw: 荒庄, no payments; the dealer moves by the rules."""
    if turn.text:
        raise Refusal("err.too_many_args", usage=True, value=turn.text)
    await record_hand(turn, parse_draw(turn.text))


@command("escape", people=True)
async def escape(turn: Turn) -> None:
    """/escape <player>: 逃跑, the leaver pays 120 花 split among the other three."""
    session = turn.require_session()
    people = await turn.people()
    await record_hand(turn, parse_escape(turn.text, seat_resolver(session, people)))


@command("adjust", people=True)
async def adjust(turn: Turn) -> None:
    """/adjust <from> <to> <amount> [note]: a zero-sum side payment kept with its note."""
    session = await writable_session(turn)
    people = await turn.people()
    parsed = parse_adjust(turn.text, seat_resolver(session, people), strict=True)
    payer, payee = session.seats[parsed.payer].id, session.seats[parsed.payee].id
    note = parsed.note or None
    payload: AdjustPayload = {"payer": payer, "payee": payee, "amount": parsed.amount, "note": note}
    if turn.instant:
        result = await turn.run(
            recording.adjust,
            turn.ledger,
            turn.chat_id,
            payer,
            payee,
            parsed.amount,
            note=note,
            by=turn.user,
            source_key=turn.source_key,
            text=turn.text or None,
        )
        await after_commit(turn, "adjust", result)
        return
    preview = hands.adjust_preview(session, payer, payee, parsed.amount, note)
    await submit(turn, session, "adjust", payload, preview, preview_text(turn.lang, preview, session))


@command("undo")
async def undo(turn: Turn) -> None:
    """/undo: void the last row after a confirm button; dealer, 连庄 and 滴零 roll back with it."""
    if turn.text:
        raise Refusal("err.too_many_args", usage=True, value=turn.text)
    session = await writable_session(turn, "correct")
    last = await turn.read(hands.last_hand, turn.chat_id)
    summary = hand_summary(turn.lang, last)
    if last.kind == "adjust":
        question_text = turn.t("undo.ask_adjust", summary=summary)
    else:
        question_text = turn.t("undo.ask", n=last.number, summary=summary)
    await submit(turn, session, "undo", {"hand_id": last.id, "number": last.number}, None, question_text)


@command("edit", people=True)
async def edit(turn: Turn) -> None:
    """/edit <n> <entry>: replace hand n; every later hand is re-scored from the corrected dealer state."""
    session = await writable_session(turn, "correct")
    number, typed = parse_edit(turn.text)
    # The hand's own table: names and seats in the correction mean who sat there when it was played.
    played = replace(session, seats=await turn.read(hands.hand_seating, turn.chat_id, number))
    people = await turn.people()
    try:
        entry = local_entry(session.rules, parse_entry(typed, seat_resolver(played, people)))
    except GrammarError as exc:  # seated now, but not in that hand: say so, not "not at this table"
        who = str(exc.params.get("token", ""))
        if exc.code != "unknown_player" or seat_resolver(session, people)(who) is None:
            raise
        seats = [f"{wind(turn.lang, s)} {played.seats[s].name}" for s in SEATS if s in played.seats]
        raise Refusal("err.not_in_hand", name=who, n=number, players=join_words(turn.lang, seats)) from None
    payload: EditPayload = {"number": number, "entry": entry}
    if turn.instant:
        by, key, text = turn.user, turn.source_key, turn.text or None
        result = await turn.run(
            recording.edit, turn.ledger, turn.chat_id, number, entry, by=by, source_key=key, text=text
        )
        await after_commit(turn, "edit", result)
        return
    previews = await turn.read(hands.preview_edit, turn.chat_id, number, entry)
    preview = allowed(previews[0])
    shown = preview_text(
        turn.lang, preview, played, number=number, note=turn.t("preview.replace", n=number)
    ) + later_hands_text(turn, previews[1:])
    await submit(turn, session, "edit", payload, preview, shown)


def later_hands_text(turn: Turn, later: tuple[HandPreview, ...]) -> str:
    """For an /edit preview: how every later hand comes out once re-scored from the corrected state."""
    if not later:
        return ""
    lines = [turn.t("preview.later", count=len(later))]
    for preview in later:
        winners = [w["winner"] for w in preview.wins]
        lines.append(
            turn.t(
                "preview.later_row",
                n=preview.before.hand_number,
                what=hand_summary(turn.lang, preview),
                payments=payments_text(turn.lang, preview.payments, winners),
            )
        )
    return "\n" + "\n".join(lines)


# ---- Confirm / Cancel ------------------------------------------------------------------------------


@button(PendingPress.parse, reads_state=False)
async def pending_pressed(turn: Turn, press: PendingPress) -> None:
    """Confirm commits the pending entry exactly once; Cancel drops it. Seated players or admins only, and
    only in the chat (and under the message) the entry was shown in: the ledger checks both.

    Who may press was decided when the entry was made (`show_entry`) and stored with it, so one write
    does it all for a player seated then: `recording.press`. Anyone else changes nothing there: asked of
    Telegram (`require`: an admin?), they press again, `as_admin`. Under `confirm_by other` the ledger
    refuses the recorder's own Confirm (`own`), an admin's too."""
    chat_id, message_id = turn.chat_id, turn.pressed_message_id
    try:
        pressed = await turn.run(
            recording.press,
            turn.ledger,
            press.pending_id,
            press.action,
            chat_id=chat_id,
            message_id=message_id,
            by=turn.user,
        )
        turn.state = pressed.state
        if not pressed.done and not pressed.own:
            await require(turn, "confirm", turn.session)
            pressed = await turn.run(
                recording.press,
                turn.ledger,
                press.pending_id,
                press.action,
                chat_id=chat_id,
                message_id=message_id,
                by=turn.user,
                as_admin=True,
            )
            turn.state = pressed.state
        if pressed.own:
            raise Refusal("err.confirm_by_other")
    except NotFound:
        raise Refusal("err.flow_stale") from None  # shown but never stored, or not by this bot
    except (PendingExpired, PendingCancelled, PendingStale, SessionNotOpen) as exc:
        if isinstance(exc, (PendingStale, SessionNotOpen)):
            # Still `pending` in the ledger: drop it, or the expiry sweep would later overwrite this
            # first reason with "expired".
            ledger, pending_id = turn.ledger, press.pending_id
            await turn.run(
                recording.cancel_pending, ledger, pending_id, chat_id=chat_id, message_id=message_id
            )
        await close_preview(turn, error_text(turn.lang, exc))
        await turn.answer(error_text(turn.lang, exc), alert=True)
        return
    result = pressed.result
    if result is None:  # cancelled
        await close_preview(turn, turn.t("preview.cancelled"))
        return
    if not result.created:  # confirmed before: its result may never have replaced this preview
        await show_committed(turn, press.action, result)
        return
    kind: PendingKind = "undo" if result.hand.voided else "edit" if result.replaced else "hand"
    status = confirmed_status(turn, kind, result)
    # The toast and the result travel together: one Bot API round trip for the tap, not two in a row.
    await asyncio.gather(
        turn.answer(turn.t("preview.undone_toast" if kind == "undo" else "preview.recorded_toast")),
        after_commit(turn, kind, result, flow_message=message_id, status=status),
    )
    for waiting in result.rescored:
        await show_rescored(turn, waiting, result)


async def show_rescored(turn: Turn, waiting: PendingInfo, result: CommitResult) -> None:
    """A hand waiting for its Confirm, re-scored after an /edit before it: its preview shows the new
    amounts and says why, with its Confirm and Cancel as before (they record what is shown now)."""
    if waiting.message_id is None or waiting.preview is None:
        return
    note = turn.t("preview.rescored", n=result.hand.number)
    text = preview_text(turn.lang, waiting.preview, result.session, note=note)
    try:
        await turn.edit(
            waiting.message_id, f"{text}\n{confirm_hint(turn)}", confirm_markup(turn, waiting.id, "hand")
        )
    except TelegramError as exc:  # deleted meanwhile: its Confirm, if pressed, still records what was scored
        log.info("could not show re-scored preview %s: %s", waiting.message_id, exc)


async def show_committed(turn: Turn, action: str, result: CommitResult) -> None:
    """A press on a preview whose entry was confirmed before (its result edit failed, or the worker stopped
    in between): the preview becomes the result that counts, with a line saying the press changed nothing
    (a Cancel: too late), and the card is shown as the ledger has it."""
    kind: PendingKind = "undo" if result.hand.voided else "hand"
    line = result_text(turn, kind, result)
    status = turn.t("preview.cancel_too_late" if action == "cancel" else "preview.confirmed_before")
    message = turn.pressed_message
    if message is not None and not (message.text or "").startswith(line):  # not the result yet
        try:
            await turn.edit(message.message_id, f"{line}\n{status}")
        except TelegramError as exc:
            log.info("could not turn preview %s into its result: %s", message.message_id, exc)
        await show_card(turn, result.session, result.card)
    await turn.answer(status if action == "cancel" else turn.t("err.gone"), alert=action == "cancel")


async def close_preview(turn: Turn, status: str) -> None:
    """Replace a preview's buttons by a status line (confirmed / cancelled / expired): the message as
    shown, without its Confirm hint (a preview's last line; an undo question is one line)."""
    message = turn.pressed_message
    if message is None:
        return  # too old for Telegram to show the bot what it was
    shown = message.text or ""
    if "\n" in shown:
        shown = shown.rsplit("\n", 1)[0]
    try:
        await turn.edit(message.message_id, "\n".join(part for part in (shown, status) if part))
    except TelegramError as exc:
        log.info("could not close preview %s: %s", message.message_id, exc)


# ---- a hand before the first dealer -----------------------------------------------------------------


def check_for_some_dealer(turn: Turn, session: SessionInfo, entry: EntryJSON) -> None:
    """Before asking who deals: an entry the rules refuse (or that cannot be scored) whoever deals gets its
    answer at once, as with 东 dealing; one that some dealer allows gets the question."""
    refused: Exception | None = None
    for seat in SEATS:
        state = replace(session.state, dealer=seat, first_dealer=seat)
        try:
            allowed(
                recording.preview(turn.ledger, turn.chat_id, entry, session=replace(session, state=state))
            )
            return
        except USER_ERRORS as error:
            refused = refused or error
    assert refused is not None
    raise refused


def seat_buttons(
    turn: Turn, session: SessionInfo, seats: Iterable[Seat], data: Callable[[Seat], str]
) -> list[InlineKeyboardButton]:
    """A button per seated player of `seats` (`东 Ann`), in that order, each carrying `data(seat)`."""
    return [
        InlineKeyboardButton(
            turn.t("ask.seat", wind=turn.wind(seat), player=session.seats[seat].name),
            callback_data=data(seat),
        )
        for seat in seats
        if seat in session.seats
    ]


def dealer_markup(turn: Turn, session: SessionInfo, pending_id: str) -> InlineKeyboardMarkup:
    """A button per seated player (`东 Ann`), two a row, in seat order."""
    labels = seat_buttons(turn, session, SEATS, lambda seat: DealerPress(pending_id, seat).data)
    return InlineKeyboardMarkup([labels[i : i + 2] for i in range(0, len(labels), 2)])


async def ask_name(
    turn: Turn, session: SessionInfo, token: str, seats: str, flow_message: int | None
) -> None:
    """Store a typed /hu whose `token` fits the players at `seats`, waiting for which one it means, and ask:
    a button per player it fits (`questions.name_pressed` reads the entry again with that seat)."""
    payload: NamePayload = {"text": turn.text, "token": token, "seats": seats}

    def view(pending_id: str) -> tuple[str, InlineKeyboardMarkup]:
        buttons = seat_buttons(
            turn, session, [s for s in SEATS if s in seats], lambda seat: NamePress(pending_id, seat).data
        )
        return turn.t("ask.name", token=token), InlineKeyboardMarkup([buttons])

    await show_entry(turn, session, "name", payload, None, flow_message, view)


async def ask_dealer(turn: Turn, session: SessionInfo, entry: EntryJSON, flow_message: int | None) -> None:
    """Store a hand entered before the first dealer, waiting for one, and ask who deals: a button per seat
    (or /dealer, /roll). Nothing is recorded; the press (`questions.dealer_pressed`) takes the entry on to its
    preview. A redelivered update finds the entry stored and shown, and sends nothing."""

    def view(pending_id: str) -> tuple[str, InlineKeyboardMarkup]:
        return turn.t("ask.dealer"), dealer_markup(turn, session, pending_id)

    await show_entry(turn, session, "dealer", {"entry": entry}, None, flow_message, view)
