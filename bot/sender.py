"""The one sender: every text the bot posts in a chat, and every edit of one, goes out through here, split
or cut at Telegram's bound (4,096 characters a message; `render.MESSAGE_LIMIT` keeps a margin); and what a
send does when Telegram answers that the group became a supergroup (`to_group`)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

from telegram import Bot, InlineKeyboardMarkup, Message, ReplyParameters
from telegram.error import ChatMigrated

from bot.ledger import Ledger
from bot.ledger.play import supergroup
from bot.render import MESSAGE_LIMIT, split_messages
from bot.text import shorten

log = logging.getLogger(__name__)
T = TypeVar("T")


def fit(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """One message's text cut to Telegram's bound (for edits and answers, which cannot be split)."""
    return shorten(text, limit)


async def send_text(
    bot: Bot,
    chat_id: int,
    text: str,
    markup: InlineKeyboardMarkup | None = None,
    *,
    reply_to: int | None = None,
    topic: int | None = None,
) -> Message:
    """Send `text` to the chat (in forum topic `topic`, when given): over the bound it goes out as several
    messages split at line ends, the buttons under the last (a reply quotes `reply_to` from the first);
    the last message is returned."""
    chunks = split_messages(text.split("\n")) if len(text) > MESSAGE_LIMIT else [text]
    quote = ReplyParameters(reply_to) if reply_to is not None else None
    for chunk in chunks[:-1]:
        await bot.send_message(chat_id, chunk, reply_parameters=quote, message_thread_id=topic)
        quote = None
    return await bot.send_message(
        chat_id, chunks[-1], reply_markup=markup, reply_parameters=quote, message_thread_id=topic
    )


async def edit_text(
    bot: Bot, chat_id: int, message_id: int, text: str, markup: InlineKeyboardMarkup | None = None
) -> None:
    """Edit one of the bot's messages (an edit is one message: a text over the bound is cut)."""
    await bot.edit_message_text(fit(text), chat_id=chat_id, message_id=message_id, reply_markup=markup)


async def follow_migration(ledger: Ledger, old_chat_id: int, new_chat_id: int) -> None:
    """The group `old_chat_id` is now the supergroup `new_chat_id`: its ledger moves there (once, however
    often this is said)."""
    if await asyncio.to_thread(
        ledger.write_once, None, supergroup.migrate, old_chat_id, new_chat_id, ledger.now()
    ):
        log.info("chat %s is now %s: the ledger followed", old_chat_id, new_chat_id)


async def to_group(ledger: Ledger, chat_id: int, send: Callable[[int], Awaitable[T]]) -> T:
    """`send(chat_id)`; when Telegram refuses it because the group became a supergroup (ChatMigrated), the
    group's ledger moves to the new id and `send` goes again, there."""
    try:
        return await send(chat_id)
    except ChatMigrated as moved:
        await follow_migration(ledger, chat_id, moved.new_chat_id)
        return await send(moved.new_chat_id)
