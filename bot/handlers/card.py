"""The session's one pinned table card: posted at /newgame, edited in place at once after every change,
unpinned when the session ends; a hand's one result message, then the card (`after_commit`).

The card's message id and whether pinning was refused are columns of the session in the ledger
(`SessionInfo.card_message_id` / `pin_refused`), so every worker, and this one after a restart, edits the
same card."""

from __future__ import annotations

import logging

from telegram import InlineKeyboardButton, InlineKeyboardMarkup
from telegram.error import BadRequest, TelegramError

from bot.buttons import JoinPress
from bot.handlers.turn import Turn
from bot.ledger import SEATS, CardView, CommitResult, SessionInfo
from bot.ledger.play import books, hands, sessions
from bot.ledger.values import PendingKind
from bot.render import hand_summary, result_line, table_card
from bot.webauth import table_token

log = logging.getLogger(__name__)


def picker_button(turn: Turn, session: SessionInfo) -> InlineKeyboardButton | None:
    """ "🀄 选牌": the tile picker of this open table, a direct-link Mini App
    (`https://t.me/<bot>/<app>?startapp=<signed table token>&mode=compact`; a `web_app` button is refused
    in groups). None until the app's short name is configured (WEBAPP_SHORT_NAME)."""
    short_name, bot = turn.settings.webapp_short_name, turn.context.bot
    if not short_name or not session.is_open or not bot.username:
        return None
    token = table_token(bot.token, session.chat_id, session.id)
    url = f"https://t.me/{bot.username}/{short_name}?startapp={token}&mode=compact"
    return InlineKeyboardButton(turn.t("webapp.button"), url=url)


def lobby_markup(turn: Turn, session: SessionInfo) -> InlineKeyboardMarkup | None:
    """The Join button while seats are free and no hand has been played; the picker once the table is full."""
    if len(session.seats) >= len(SEATS) or session.hands_played or not session.is_open:
        picker = picker_button(turn, session) if len(session.seats) >= len(SEATS) else None
        return InlineKeyboardMarkup([[picker]]) if picker is not None else None
    button = InlineKeyboardButton(turn.t("lobby.join_button"), callback_data=JoinPress(session.id).data)
    return InlineKeyboardMarkup([[button]])


async def show_card(
    turn: Turn, session: SessionInfo, card: CardView | None = None, *, new: bool = False
) -> None:
    """Edit the session's card to show `card` (read from the ledger when not given), or post and pin a card
    when the session has none yet, when `new`, or when the old one cannot be edited (deleted, too old).

    With several workers on one database (PostgreSQL), another worker's edit of a later state may reach
    Telegram before this one: after its edit, a worker reads the table's version again, and while it
    moved past what the edit showed, shows the card again (`CARD_ROUNDS` at most), so the last edit to
    land is of the ledger's last state.

    If the bot may not pin, it says so once per session and goes on."""
    if card is None:
        card = await turn.read(books.session_card, session.id)
    if card.session.card_message_id is not None and not new:
        for _ in range(CARD_ROUNDS):
            if not await edit_card(turn, card):
                break  # not editable: a new card below
            if not shared(turn):
                return
            now = await turn.read(sessions.get_session, card.session.id)
            if now.version == card.session.version or now.card_message_id != card.session.card_message_id:
                return
            card = await turn.read(books.session_card, card.session.id)
        else:
            return
    session = card.session
    text = table_card(turn.lang, card)
    markup = lobby_markup(turn, session)
    message = await turn.say(text, markup)
    await turn.write(None, sessions.set_card, session.id, message.message_id)
    if not session.is_open:
        return
    try:
        await turn.context.bot.pin_chat_message(turn.chat_id, message.message_id, disable_notification=True)
    except TelegramError as exc:
        log.info("cannot pin in chat %s: %s", turn.chat_id, exc)
        if await turn.write(None, sessions.refuse_pin, session.id):
            await turn.reply("book.pin_refused")


CARD_ROUNDS = 4  # edits of one card in a row by one worker, at most, while other workers change the table


def shared(turn: Turn) -> bool:
    """Whether other workers may write this ledger (PostgreSQL; SQLite is one process's, its chats' updates
    in order)."""
    return turn.ledger.engine.dialect.name == "postgresql"


async def edit_card(turn: Turn, card: CardView) -> bool:
    """Edit the session's card to show `card`; False when it cannot be edited (deleted, too old). A card
    that already shows it ("message is not modified") is shown."""
    session = card.session
    assert session.card_message_id is not None
    try:
        await turn.edit(session.card_message_id, table_card(turn.lang, card), lobby_markup(turn, session))
    except BadRequest as exc:
        if "not modified" in str(exc).lower():
            return True
        log.info(
            "card %s of chat %s not editable (%s): a new one", session.card_message_id, turn.chat_id, exc
        )
        return False
    return True


async def unpin_card(turn: Turn, session: SessionInfo) -> None:
    """Unpin an ended session's card, so the chat's pin shows the table in play (failures only logged)."""
    if session.card_message_id is None:
        return
    try:
        await turn.context.bot.unpin_chat_message(turn.chat_id, message_id=session.card_message_id)
    except TelegramError as exc:
        log.info("could not unpin the card of session %s: %s", session.id, exc)


async def after_commit(
    turn: Turn,
    kind: PendingKind,
    result: CommitResult,
    *,
    flow_message: int | None = None,
    status: str | None = None,
) -> None:
    """The hand's one bot message: the one-line result, sent (an `instant` group) or edited into the
    message that asked for it (`flow_message`: the preview on Confirm, or the /hu button flow), with a
    `status` line under it (who confirmed); then the card, edited at once."""
    if not result.created:
        return  # a redelivered update: its result is in the chat already
    text = result_text(turn, kind, result)
    if status:
        text = f"{text}\n{status}"
    sent: int | None = None
    if flow_message is not None:
        try:
            await turn.edit(flow_message, text)
            sent = flow_message
        except TelegramError as exc:  # deleted meanwhile: the result still goes out, as a new message
            log.info("could not turn message %s into the result: %s", flow_message, exc)
    try:
        if sent is None:
            sent = (await turn.say(text)).message_id
    finally:  # the hand is recorded: the card shows it even when its result could not be sent
        await show_card(turn, result.session, result.card)
    await mark_results(turn, kind, result, sent)


def result_text(turn: Turn, kind: PendingKind, result: CommitResult) -> str:
    """A committed row's one-line result (an undo: what it voided; an edit: the hand it replaced)."""
    if kind == "undo" and result.hand.kind == "adjust":  # not a hand: no number, no dealer to roll back
        return turn.t("result.undone_adjust", summary=hand_summary(turn.lang, result.hand))
    if kind == "undo":
        return turn.t("result.undone", n=result.hand.number)
    if kind == "edit":
        return turn.t("result.edited", n=result.hand.number) + "\n" + result_line(turn.lang, result.hand)
    return result_line(turn.lang, result.hand)


async def mark_results(turn: Turn, kind: PendingKind, result: CommitResult, sent: int) -> None:
    """Remember the new row's result message; mark the result messages of the rows an /undo or /edit
    voided (their line as it was, and that it is void), so no stale result reads as standing."""
    if kind != "undo" and sent != result.result_message:  # a Confirm's preview was stored with the row
        await turn.write(None, hands.set_result_message, result.hand.id, sent)
    for index, old in enumerate(result.voided):
        message_id = await turn.read(hands.result_message, old.id)
        if message_id is None or message_id == sent:
            continue
        if kind == "undo":
            text = result_line(turn.lang, old) + "\n" + turn.t("result.void_undone")
        elif index == 0 or index >= len(result.replaced):  # the edited hand: its edit stands instead
            text = (
                result_line(turn.lang, old)
                + "\n"
                + turn.t("result.void_edited_replaced", n=result.hand.number)
            )
        else:  # a later hand, scored anew: it still counts, with its new line
            new = result.replaced[index]
            head = turn.t("result.void_edited_recounted", n=result.hand.number)
            text = head + "\n" + result_line(turn.lang, new)
            await turn.write(None, hands.set_result_message, new.id, message_id)
        try:
            await turn.edit(message_id, text)
        except TelegramError as exc:  # deleted, too old: the row is void in the ledger anyway
            log.info("could not mark result %s void: %s", message_id, exc)


# What a Confirm says under the result: recorded, or (an undo) voided.
_CONFIRMED = {("undo", "adjust"): "preview.confirmed_undo_adjust"}
_CONFIRMED.update({("undo", k): "preview.confirmed_undo" for k in ("win", "draw", "escape")})


def confirmed_status(turn: Turn, kind: PendingKind, result: CommitResult) -> str:
    """The line under a confirmed entry's result: who confirmed it, and that it was recorded (or voided)."""
    who = turn.user.display_name if turn.user else "?"
    return turn.t(_CONFIRMED.get((kind, result.hand.kind), "preview.confirmed"), player=who)
