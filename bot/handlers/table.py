"""The session's one pinned table card: posted at /newgame, edited in place after every change."""

from __future__ import annotations

import asyncio
import logging
import secrets
from dataclasses import dataclass, field
from typing import Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup
from telegram.error import BadRequest, TelegramError

from bot.handlers.common import Turn
from bot.ledger.results import SEATS, HandRecord, SessionInfo
from bot.persistence import save_now
from bot.render import CARD_HANDS, card_row, table_card

log = logging.getLogger(__name__)

# chat_data (stored as JSON by bot.persistence, shared by every worker):
CARDS = "cards"  # {str(session id): message id of its card}
KEEP_CARDS = 20  # cards of this many newest sessions are remembered (chat_data stays small)
PIN_REFUSED = "pin_refused"  # [session ids whose "cannot pin" was said]
CARD_TOKEN = "card_token"  # set anew whenever a process re-reads the card's rows (see card_rows)
# bot_data (this process only): chat id → (card token, CardRows) the rows behind the card as last rendered
CARD_ROWS = "card_rows"
CARD_EDITS = "card_edits"  # bot_data: chat id → the CardEdit waiting for its time (see refresh_card)
CARD_LOCKS = "card_locks"  # bot_data: chat id → asyncio.Lock, so edits of one chat never overlap


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


@dataclass
class CardRows:
    """What the card shows of the ledger, kept between changes so a new hand does not re-read the session:
    the last rows, every seat's total, how many live rows, and the newest row's sequence number."""

    session_id: int
    recent: list[HandRecord]
    totals: dict[str, int]
    rows: int
    last_seq: int
    lines: dict[tuple[str | None, int], str] = field(default_factory=dict)  # (lang, seq) -> card row

    def line(self, lang: str | None, hand: HandRecord) -> str:
        """The card's line of one of these rows, rendered once per language (a row never changes here:
        an undo or an edit reloads the rows into a new CardRows)."""
        key = (lang, hand.seq)
        text = self.lines.get(key)
        if text is None:
            text = self.lines[key] = card_row(lang, hand)
        return text

    def add(self, hand: HandRecord) -> bool:
        """Append the row just recorded; False when the cache is not the row before it (reload then)."""
        if hand.session_id != self.session_id or hand.seq != self.last_seq + 1 or hand.voided:
            return False
        self.recent = [*self.recent, hand][-CARD_HANDS:]
        shown = {row.seq for row in self.recent}
        self.lines = {key: text for key, text in self.lines.items() if key[1] in shown}
        for seat, amount in hand.payments.items():
            self.totals[seat] = self.totals.get(seat, 0) + amount
        self.rows += 1
        self.last_seq = hand.seq
        return True


def _load_rows(ledger: Any, session_id: int) -> CardRows:
    rows = ledger.ledger(session_id)
    totals = dict(rows[-1].running) if rows else {seat: 0 for seat in SEATS}
    # A voided row may carry a later seq: the next hand then misses the cache once and reloads.
    last_seq = max((row.hand.seq for row in rows), default=0)
    return CardRows(session_id, [row.hand for row in rows[-CARD_HANDS:]], totals, len(rows), last_seq)


async def card_rows(turn: Turn, session: SessionInfo, added: HandRecord | None) -> CardRows:
    """The card's rows: this process's cached ones plus `added`, or read afresh from the ledger.

    The cache is used only while the chat's card token is the one this process set with it. Every reload
    (after an undo, an edit, a new card) and the first row of a session set a new token, so another
    worker's cache of the older rows is not used again; a plain append keeps the token (no write per hand):
    another worker's next append then misses the sequence number it expects and reloads."""
    chat_data = turn.context.application.chat_data[turn.chat_id]
    caches: dict[int, tuple[str, CardRows]] = turn.context.bot_data.setdefault(CARD_ROWS, {})
    token, cached = caches.get(turn.chat_id, ("", None))
    if cached is not None and cached.session_id == session.id and token == chat_data.get(CARD_TOKEN):
        if added is None and not session.hands_played and not cached.rows:
            return cached  # lobby changes: no rows yet
        first = not cached.rows
        if added is not None and cached.add(added):
            if first:
                _remember(turn, cached)  # a worker holding the empty lobby would not notice the row
            return cached
    fresh = await turn.run(_load_rows, turn.ledger, session.id)
    _remember(turn, fresh)
    return fresh


def _remember(turn: Turn, rows: CardRows) -> None:
    token = secrets.token_hex(6)
    turn.context.application.chat_data[turn.chat_id][CARD_TOKEN] = token
    turn.context.bot_data.setdefault(CARD_ROWS, {})[turn.chat_id] = (token, rows)


async def refresh_card(
    turn: Turn,
    session: SessionInfo,
    *,
    new: bool = False,
    added: HandRecord | None = None,
    later: bool = False,
) -> None:
    """Edit the session's card in place (or post and pin it when there is none yet, or `new`).

    `added` is the row just recorded (the card then needs no ledger read). The card's message id lives
    in chat_data (in the database, read fresh at the start of each update: bot.persistence). If the bot
    may not pin, it says so once per session and goes on; if the old card cannot be edited (deleted, too
    old), a fresh one is posted.

    `later` (after a recorded change, whose one-line result was just sent): the edit is made
    `card_edit_seconds` from now, showing every change made meanwhile, so a chat gets about one message a
    second at most (Telegram's advice) and a burst of changes one edit. An edit made at once (any other
    change) shows everything, so a waiting one is dropped; edits of one chat never overlap.
    """
    rows = await card_rows(turn, session, added)
    chat_data = turn.context.application.chat_data[turn.chat_id]
    known = str(session.id) in chat_data.get(CARDS, {})
    waiting: dict[int, CardEdit] = turn.context.bot_data.setdefault(CARD_EDITS, {})
    delay = turn.settings.card_edit_seconds
    if later and delay > 0 and known and not new:
        edit = waiting.get(turn.chat_id)
        if edit is not None:
            handle = edit.handle  # the edit already due shows this change too
        else:
            handle = asyncio.get_running_loop().call_later(
                delay, _edit_due, turn.context.application, turn.chat_id
            )
        waiting[turn.chat_id] = CardEdit(turn, session, rows, handle)
        return
    edit = waiting.pop(turn.chat_id, None)
    if edit is not None:
        edit.handle.cancel()  # this edit shows everything the waiting one would
    async with _card_lock(turn):
        await _show_card(turn, session, rows, new=new)


@dataclass(frozen=True, slots=True)
class CardEdit:
    """A card edit waiting for its time: the newest state to show, and the timer that will show it."""

    turn: Turn
    session: SessionInfo
    rows: CardRows
    handle: asyncio.TimerHandle


def _edit_due(application: Any, chat_id: int) -> None:
    application.create_task(make_waiting_edit(application, chat_id), name=f"card edit {chat_id}")


async def make_waiting_edit(application: Any, chat_id: int) -> None:
    """Make the chat's waiting card edit now, if there is one."""
    edit = application.bot_data.get(CARD_EDITS, {}).pop(chat_id, None)
    if edit is None:
        return  # an edit made at once showed it already
    edit.handle.cancel()
    try:
        async with _card_lock(edit.turn):
            await _show_card(edit.turn, edit.session, edit.rows)
    except TelegramError as exc:  # the next change edits the card again; the ledger has it all
        log.warning("could not edit the table card of chat %s: %s", chat_id, exc)


async def make_waiting_edits(application: Any) -> None:
    """Make every waiting card edit now: at shutdown (post_stop), so none is lost with a clean stop."""
    for chat_id in list(application.bot_data.get(CARD_EDITS, {})):
        await make_waiting_edit(application, chat_id)


def _card_lock(turn: Turn) -> asyncio.Lock:
    locks: dict[int, asyncio.Lock] = turn.context.bot_data.setdefault(CARD_LOCKS, {})
    lock = locks.get(turn.chat_id)
    if lock is None:
        lock = locks[turn.chat_id] = asyncio.Lock()
    return lock


async def _show_card(turn: Turn, session: SessionInfo, rows: CardRows, *, new: bool = False) -> None:
    text = table_card(turn.lang, session, rows.recent, rows.totals, rows.rows, rows.line)
    markup = lobby_markup(turn, session)
    chat_data = turn.context.application.chat_data[turn.chat_id]
    cards: dict[str, int] = chat_data.setdefault(CARDS, {})
    message_id = cards.get(str(session.id))
    bot = turn.context.bot
    if message_id is not None and not new:
        try:
            await bot.edit_message_text(
                text, chat_id=turn.chat_id, message_id=message_id, reply_markup=markup
            )
            return
        except BadRequest as exc:
            if "not modified" in str(exc).lower():
                return
            log.info(
                "table card %s of chat %s not editable (%s): posting a new one", message_id, turn.chat_id, exc
            )
    message = await turn.say(text, markup)
    cards[str(session.id)] = message.message_id
    for old in sorted(cards, key=int)[:-KEEP_CARDS]:
        del cards[old]  # a session that old is long ended: its card is never edited again
    await save_state(turn)  # the card id must survive even a hard kill, or a restart pins a second card
    if not session.is_open:
        return
    try:
        await bot.pin_chat_message(turn.chat_id, message.message_id, disable_notification=True)
    except TelegramError as exc:
        refused: list[int] = chat_data.setdefault(PIN_REFUSED, [])
        log.info("cannot pin in chat %s: %s", turn.chat_id, exc)
        if session.id not in refused:
            refused.append(session.id)
            del refused[:-KEEP_CARDS]
            await save_state(turn)
            await turn.reply("book.pin_refused")


async def save_state(turn: Turn) -> None:
    """Write this chat's data and the new button objects to the database now, not only after the update."""
    try:
        await save_now(turn.context.application, turn.chat_id)
    except Exception as exc:  # persistence is a convenience; the ledger holds everything that counts
        log.warning("could not save the bot state: %s", exc)


async def unpin_card(turn: Turn, session_id: int) -> None:
    """Unpin an ended session's card, so the chat's pin shows the table in play (failures only logged)."""
    message_id = turn.context.application.chat_data[turn.chat_id].get(CARDS, {}).get(str(session_id))
    if message_id is None:
        return
    try:
        await turn.context.bot.unpin_chat_message(turn.chat_id, message_id=message_id)
    except TelegramError as exc:
        log.info("could not unpin the card of session %s: %s", session_id, exc)
