"""Unknown commands, stale buttons, and the error handler that logs without ever printing the token."""

from __future__ import annotations

import asyncio
import difflib
import logging
import traceback
from collections.abc import Iterable
from urllib.parse import quote

from telegram import Update
from telegram.error import ChatMigrated, TelegramError
from telegram.ext import ContextTypes

from bot.handlers.callbacks import button, command
from bot.handlers.turn import Turn, ledger_of
from bot.i18n import t
from bot.render.errors import excerpt
from bot.sender import follow_migration, send_text

log = logging.getLogger(__name__)


COMMAND_NAMES = "command_names"  # bot_data key: the names of the command table (set by bot.app)


def nearest_command(name: str, names: Iterable[str]) -> str | None:
    """The command a mistyped word most likely meant (`huu` → `hu`, `stat` → `stats`), or None.

    >>> nearest_command("huu", ["hu", "help", "history"]), nearest_command("zzz", ["hu"])
    ('hu', None)
    """
    found = difflib.get_close_matches(name.casefold(), list(names), n=1, cutoff=0.6)
    return found[0] if found else None


@command("unknown", group_only=False)
async def unknown_command(turn: Turn) -> None:
    """A /word the bot does not know (addressed to this bot): say so and suggest the nearest command (or
    point at /help); nothing recorded."""
    message = turn.update.effective_message
    word = (message.text or "").split(maxsplit=1)[0] if message and message.text else ""
    name, _, target = word.lstrip("/／").partition("@")
    me = turn.context.bot.username if turn.context.bot else None
    if target and me and target.lower() != me.lower():
        return  # a command for another bot in the same group
    suggestion = nearest_command(name, turn.context.bot_data.get(COMMAND_NAMES, ()))
    if suggestion is not None:
        await turn.reply("err.unknown_command_suggest", command=excerpt(name), suggestion=suggestion)
        return
    await turn.reply("err.unknown_command", command=excerpt(name))


def never(_data: object) -> None:
    """The parser of a button no handler reads: every press of it has expired."""
    return None


@button(never)
async def stale_button(turn: Turn, data: None) -> None:
    """A press whose data no handler reads (garbage, or a button of an older bot): answered "expired"."""


def redact(text: str, secret: str | None) -> str:
    """`text` with the token replaced by `<token>`, also as it appears percent-encoded in a URL."""
    if not secret:
        return text
    for form in {secret, quote(secret, safe=""), quote(secret)}:
        text = text.replace(form, "<token>")
    return text


def format_redacted(error: BaseException, secret: str | None) -> str:
    """A traceback of `error` (with its chained causes) without the token."""
    return redact("".join(traceback.format_exception(error)), secret)


class RedactingFilter(logging.Filter):
    """Replaces the bot token wherever it appears in a log record (URLs of failed requests carry it)."""

    def __init__(self, secret: str | None) -> None:
        super().__init__()
        self.secret = secret

    def filter(self, record: logging.LogRecord) -> bool:
        if not self.secret:
            return True
        message = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            message += "\n" + "".join(traceback.format_exception(*record.exc_info))
            record.exc_info = None
            record.exc_text = None
        if record.exc_text:
            message += "\n" + record.exc_text
            record.exc_text = None
        record.msg = redact(message, self.secret)
        record.args = None
        return True


def install_redaction(secret: str | None) -> None:
    """Put the token filter on every handler of the root logger (call after logging is configured)."""
    redactor = RedactingFilter(secret)
    for handler in logging.getLogger().handlers:
        handler.addFilter(redactor)


async def error_handler(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Log an unexpected error (token redacted) and tell the chat something went wrong; a reply refused
    because the group became a supergroup moves the group's ledger there."""
    error = context.error
    token = context.bot.token if context.bot else None
    detail = format_redacted(error, token) if error else "unknown error"
    log.error("error while handling an update: %s", detail)
    chat = update.effective_chat if isinstance(update, Update) else None
    if chat is not None and isinstance(error, ChatMigrated):  # a reply to a group now a supergroup
        await follow_migration(ledger_of(context), chat.id, error.new_chat_id)
    if chat is not None and not isinstance(error, TelegramError):
        try:
            group = await asyncio.to_thread(ledger_of(context).get_group, chat.id)
            await send_text(context.bot, chat.id, t(group.language, "err.internal"))
        except Exception:  # the error reply itself must never raise from the error handler
            log.exception("could not report the error to the chat")
