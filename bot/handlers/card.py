"""The session's one pinned table card: posted at /newgame, edited in place at once after every change;
and the changes of who plays at it mid-session: /sub (a substitute takes a seat from the next hand on) and
the end of the night (/end asks, a Confirm button ends it and posts the summary).

The card's message id and whether pinning was refused are columns of the session in the ledger
(`SessionInfo.card_message_id` / `pin_refused`), so every worker, and this one after a restart, edits the
same card."""

from __future__ import annotations

import logging

from telegram import InlineKeyboardButton, InlineKeyboardMarkup
from telegram.error import BadRequest, TelegramError

from bot.handlers.buttons import EndPress, JoinPress
from bot.handlers.turn import Refusal, Turn, command
from bot.ledger import SEATS, CardView, SessionInfo, UserRef
from bot.ledger.errors import UnknownPlayer
from bot.render import session_standings, table_card
from bot.summary.post import post_summary
from scoring.seats import parse_seat

log = logging.getLogger(__name__)


def lobby_markup(turn: Turn, session: SessionInfo) -> InlineKeyboardMarkup | None:
    """The Join button while seats are free and no hand has been played."""
    if len(session.seats) >= len(SEATS) or session.hands_played or not session.is_open:
        return None
    button = InlineKeyboardButton(turn.t("lobby.join_button"), callback_data=JoinPress(session.id).data)
    return InlineKeyboardMarkup([[button]])


async def show_card(
    turn: Turn, session: SessionInfo, card: CardView | None = None, *, new: bool = False
) -> None:
    """Edit the session's card to show `card` (read from the ledger when not given), or post and pin a card
    when the session has none yet, when `new`, or when the old one cannot be edited (deleted, too old).

    If the bot may not pin, it says so once per session and goes on."""
    if card is None:
        card = await turn.run(turn.ledger.card_view, session.id)
    session = card.session
    text = table_card(turn.lang, card)
    markup = lobby_markup(turn, session)
    if session.card_message_id is not None and not new:
        try:
            await turn.edit(session.card_message_id, text, markup)
            return
        except BadRequest as exc:
            if "not modified" in str(exc).lower():
                return
            log.info(
                "card %s of chat %s not editable (%s): a new one", session.card_message_id, turn.chat_id, exc
            )
    message = await turn.say(text, markup)
    await turn.run(turn.ledger.set_card, session.id, message.message_id)
    if not session.is_open:
        return
    try:
        await turn.context.bot.pin_chat_message(turn.chat_id, message.message_id, disable_notification=True)
    except TelegramError as exc:
        log.info("cannot pin in chat %s: %s", turn.chat_id, exc)
        if await turn.run(turn.ledger.refuse_pin, session.id):
            await turn.reply("book.pin_refused")


async def unpin_card(turn: Turn, session: SessionInfo) -> None:
    """Unpin an ended session's card, so the chat's pin shows the table in play (failures only logged)."""
    if session.card_message_id is None:
        return
    try:
        await turn.context.bot.unpin_chat_message(turn.chat_id, message_id=session.card_message_id)
    except TelegramError as exc:
        log.info("could not unpin the card of session %s: %s", session.id, exc)


# ---- /sub ------------------------------------------------------------------------------------------


@command("sub")
async def sub(turn: Turn) -> None:
    """/sub <seat> <player or guest>: from the next hand on another person sits at the seat; who leaves
    keeps their own totals, and the card, /score and the summary show both under the seat. `/sub <seat>`
    alone: the sender takes the seat."""
    words = turn.text.split()
    if not words or len(words) > 2:
        key = "err.missing_args" if not words else "err.too_many_args"
        raise Refusal(key, usage=True, value=" ".join(words[2:]))
    session = turn.require_session()
    seat = parse_seat(words[0])
    if seat is None:
        raise Refusal("err.bad_seat", usage=True, value=words[0])
    if len(words) == 1:  # the newcomer takes the seat themselves
        user = turn.user
        if user is None:
            raise Refusal("err.not_allowed")
        change, gone = await turn.run(turn.ledger.substitute, turn.chat_id, seat, user, key=turn.source_key)
    else:
        await turn.require_writer(session)
        user, guest = await _newcomer(turn, words[1])
        change, gone = await turn.run(
            turn.ledger.substitute, turn.chat_id, seat, user, guest_name=guest, key=turn.source_key
        )
    await turn.reply("seat.sub", wind=turn.wind(seat), left=gone.name, player=change.player.name)
    await show_card(turn, change.session)


async def _newcomer(turn: Turn, word: str) -> tuple[UserRef | None, str | None]:
    """Who /sub seats: a person of the group (@username or name: their Telegram account, or the guest of
    that name), else a new guest of that name (never an unknown @username)."""
    try:
        player = await turn.run(turn.ledger.find_player, turn.chat_id, word)
    except UnknownPlayer:
        if word.startswith("@"):
            raise Refusal("err.sub_unknown_user", value=word) from None
        return None, word
    if player.telegram_id is None:
        return None, player.display_name
    return UserRef(player.telegram_id, player.display_name, player.username), None


# ---- /end: the standings, then a Confirm ---------------------------------------------------------


def end_markup(turn: Turn, session: SessionInfo) -> InlineKeyboardMarkup:
    """[End and settle] [Keep playing] under /end's question."""
    return InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(turn.t("end.confirm"), callback_data=EndPress(session.id).data),
                InlineKeyboardButton(turn.t("end.keep"), callback_data=EndPress(session.id, False).data),
            ]
        ]
    )


async def ask_end(turn: Turn, session: SessionInfo) -> None:
    """/end: the session's standings and a question; only the Confirm button ends the session. Asked once
    per message: a redelivered /end finds its key claimed and asks nothing again."""
    if not await turn.run(turn.ledger.claim, turn.source_key):
        return
    report = await turn.run(turn.ledger.standings, turn.chat_id, session_id=session.id)
    lines = [turn.t("end.ask", number=session.number, hands=session.hands_played)]
    lines += session_standings(turn.lang, report.session_rows)
    await turn.say("\n".join(lines), end_markup(turn, session))


async def end_pressed(turn: Turn, press: EndPress) -> None:
    """/end's buttons: only in their own chat, for this chat's open session, by a seated player or an
    admin. Confirm ends the session (once: a second press finds it ended) and posts the summary."""
    session = await turn.own_session(press.session_id)
    assert session is not None
    await turn.require_writer(session)
    message_id = turn.pressed_message_id
    message = turn.update.callback_query.message if turn.update.callback_query else None
    shown = getattr(message, "text", None) or ""
    who = turn.user.display_name if turn.user else "?"
    if not press.end:
        if message_id is not None:
            await turn.edit(message_id, "\n".join(x for x in (shown, turn.t("end.kept", player=who)) if x))
        return
    summary = await turn.run(
        turn.ledger.end_session, turn.chat_id, by=turn.user, session_id=session.id, key=turn.source_key
    )
    if message_id is not None:
        await turn.edit(message_id, "\n".join(x for x in (shown, turn.t("end.confirmed", player=who)) if x))
    await show_card(turn, summary.session)
    await unpin_card(turn, summary.session)
    await post_summary(turn.context.bot, turn.ledger, turn.chat_id, session.id, lang=turn.lang)
