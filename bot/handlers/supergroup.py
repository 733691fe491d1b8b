"""A group that Telegram turned into a supergroup: the service messages of the move (`migrate_to_chat_id`
in the old chat, `migrate_from_chat_id` in the new one) take the group's ledger to the new chat id, once,
in either order and however often they come (`bot.ledger.play.supergroup.migrate`); in the new chat the open
table's card is posted and pinned again (the old chat's messages stay there)."""

from __future__ import annotations

from telegram import Update
from telegram.ext import ContextTypes

from bot.handlers.card import show_card
from bot.handlers.turn import Turn, ledger_of
from bot.sender import follow_migration


def moved_chats(update: Update) -> tuple[int, int] | None:
    """(old chat id, new chat id) of a migration service message, else None."""
    message = update.effective_message
    if message is None:
        return None
    if message.migrate_to_chat_id:
        return message.chat.id, message.migrate_to_chat_id
    if message.migrate_from_chat_id:
        return message.migrate_from_chat_id, message.chat.id
    return None


async def chat_migrated(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Either service message of the move: the ledger follows the group. The one in the new chat also
    posts the open table's card there, once (keyed by the message: a redelivery posts nothing)."""
    moved = moved_chats(update)
    if moved is None:
        return
    old, new = moved
    ledger = ledger_of(context)
    await follow_migration(ledger, old, new)
    if update.effective_chat is None or update.effective_chat.id != new:
        return
    turn = await Turn.start(update, context, None)
    session = turn.session
    if session is None or session.card_message_id is not None:
        return
    if await turn.run(ledger.claim, turn.source_key):
        await show_card(turn, session)
