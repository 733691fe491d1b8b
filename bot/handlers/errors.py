"""Unknown commands, stale buttons, and the error handler that logs without ever printing the token."""

from __future__ import annotations

import difflib
import logging
import traceback
from collections.abc import Iterable
from urllib.parse import quote

from telegram import Update
from telegram.error import ChatMigrated, TelegramError
from telegram.ext import ContextTypes

from bot.handlers.callbacks import button, command
from bot.handlers.turn import ANSWER_LIMIT, Turn, ledger_of, thread_of
from bot.i18n import DEFAULT_LANGUAGE, t
from bot.ledger.storage.db import storage_failure
from bot.render.errors import excerpt
from bot.sender import fit, follow_migration, send_text

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
    message = turn.update.effective_message if turn.update is not None else None
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
    """Log an error (token redacted) and answer its update: "try again" when the database could not be
    reached, read or written (`storage_failure`: the call rolled back), "something went wrong" otherwise.
    A press is answered on its button (an alert), or in the chat when the handler had answered it already;
    a message gets a message in its chat and topic. The language is the ledger's cached one, without the
    database (which may be what failed). A reply refused because the group became a supergroup moves the
    group's ledger there."""
    error = context.error
    token = context.bot.token if context.bot else None
    storage = error is not None and storage_failure(error)
    if storage:
        first_line = str(error).splitlines()[0] if str(error) else ""
        log.warning("storage unavailable: %s", redact(f"{type(error).__name__}: {first_line}", token))
    else:
        log.error("error while handling an update: %s", format_redacted(error, token) if error else "unknown")
    if not isinstance(update, Update):
        return
    chat = update.effective_chat
    if chat is not None and isinstance(error, ChatMigrated):  # a reply to a group now a supergroup
        await follow_migration(ledger_of(context), chat.id, error.new_chat_id)
    if isinstance(error, TelegramError):  # Telegram refused a reply: a press is still answered, silently
        if update.callback_query is not None:
            try:
                await update.callback_query.answer()
            except TelegramError:
                log.debug("callback query already answered")
        return
    text = t(
        ledger_of(context).cached_language(chat.id) if chat else DEFAULT_LANGUAGE,
        "err.storage" if storage else "err.internal",
    )
    try:
        if update.callback_query is not None:
            try:
                await update.callback_query.answer(fit(text, ANSWER_LIMIT), show_alert=True)
                return
            except TelegramError:  # answered already by the handler: say it in the chat instead
                log.debug("callback query already answered; reporting in the chat")
        if chat is not None:
            await send_text(context.bot, chat.id, text, topic=thread_of(update))
    except Exception:  # the error reply itself must never raise from the error handler
        log.exception("could not report the error to the chat")
