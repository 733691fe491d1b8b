"""The session's one pinned table card: posted at /newgame, edited in place after every change."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from telegram import InlineKeyboardButton, InlineKeyboardMarkup
from telegram.error import BadRequest, TelegramError

from bot.handlers.common import Turn
from bot.ledger.results import SEATS, SessionInfo
from bot.render import table_card

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class JoinPress:
    """Callback data of the lobby's Join button: the session it seats into."""

    session_id: int


def lobby_markup(turn: Turn, session: SessionInfo) -> InlineKeyboardMarkup | None:
    """The Join button while seats are free and no hand has been played."""
    if len(session.seats) >= len(SEATS) or session.hands_played or not session.is_open:
        return None
    return InlineKeyboardMarkup(
        [[InlineKeyboardButton(turn.t("lobby.join_button"), callback_data=JoinPress(session.id))]]
    )


async def refresh_card(turn: Turn, session: SessionInfo, *, new: bool = False) -> None:
    """Edit the session's card in place (or post and pin it when there is none yet, or `new`).

    The card's message id lives in chat_data. If the bot may not pin, it says so once per session and
    goes on; if the old card cannot be edited (deleted, too old), a fresh one is posted.
    """
    rows = await turn.run(turn.ledger.ledger, session.id)
    text = table_card(turn.lang, session, rows)
    markup = lobby_markup(turn, session)
    chat_data = turn.context.application.chat_data[turn.chat_id]
    cards: dict[int, int] = chat_data.setdefault("cards", {})
    message_id = cards.get(session.id)
    bot = turn.context.bot
    if message_id is not None and not new:
        try:
            await bot.edit_message_text(text, chat_id=turn.chat_id, message_id=message_id,
                                        reply_markup=markup)
            return
        except BadRequest as exc:
            if "not modified" in str(exc).lower():
                return
            log.info("table card %s of chat %s not editable (%s): posting a new one", message_id,
                     turn.chat_id, exc)
    message = await turn.say(text, markup)
    cards[session.id] = message.message_id
    if not session.is_open:
        return
    try:
        await bot.pin_chat_message(turn.chat_id, message.message_id, disable_notification=True)
    except TelegramError as exc:
        refused: set[int] = chat_data.setdefault("pin_refused", set())
        log.info("cannot pin in chat %s: %s", turn.chat_id, exc)
        if session.id not in refused:
            refused.add(session.id)
            await turn.reply("book.pin_refused")


async def unpin_card(turn: Turn, session_id: int) -> None:
    """Unpin an ended session's card, so the chat's pin shows the table in play (failures only logged)."""
    message_id = turn.context.application.chat_data[turn.chat_id].get("cards", {}).get(session_id)
    if message_id is None:
        return
    try:
        await turn.context.bot.unpin_chat_message(turn.chat_id, message_id=message_id)
    except TelegramError as exc:
        log.info("could not unpin the card of session %s: %s", session_id, exc)
