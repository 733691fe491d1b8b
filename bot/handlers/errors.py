"""Unknown commands, stale buttons, and the error handler that logs without ever printing the token."""

from __future__ import annotations

import logging
import traceback

from telegram import Update
from telegram.error import TelegramError
from telegram.ext import CallbackDataCache, ContextTypes, InvalidCallbackData

from bot.handlers.common import Turn, chat_language, command
from bot.i18n import t

log = logging.getLogger(__name__)


@command("unknown", group_only=False)
async def unknown_command(turn: Turn) -> None:
    """A /word the bot does not know (addressed to this bot): say so, point at /help; nothing recorded."""
    message = turn.update.effective_message
    word = (message.text or "").split(maxsplit=1)[0] if message and message.text else ""
    name, _, target = word.lstrip("/").partition("@")
    me = turn.context.bot.username if turn.context.bot else None
    if target and me and target.lower() != me.lower():
        return  # a command for another bot in the same group
    await turn.reply("err.unknown_command", command=name)


REDISPATCH = "redispatch_updates"  # bot_data: ids of updates being handled again with resolved buttons


def is_redispatched(context: ContextTypes.DEFAULT_TYPE, update: Update) -> bool:
    """True (once) for an update `stale_button` hands back to the application with its button resolved."""
    pending: set[int] = context.bot_data.setdefault(REDISPATCH, set())
    if update.update_id in pending:
        pending.discard(update.update_id)
        return True
    return False


async def resolve_from_database(update: Update, context: ContextTypes.DEFAULT_TYPE) -> object | None:
    """The object behind a button this process does not know, read from the shared database (another
    worker sent the keyboard, or it was saved after this process loaded its cache); None if it is unknown
    there too. The keyboard joins this process's cache, so its other buttons resolve directly."""
    from bot.persistence import DatabasePersistence

    query = update.callback_query
    persistence = context.application.persistence
    cache = getattr(context.bot, "callback_data_cache", None)
    if query is None or not isinstance(persistence, DatabasePersistence) or cache is None:
        return None
    data = query.data
    raw = data.callback_data if isinstance(data, InvalidCallbackData) else None
    if not raw or len(raw) <= 32:
        return None  # not one of PTB's keyboard uuid + button uuid strings
    keyboard_uuid, button_uuid = CallbackDataCache.extract_uuids(raw)
    keyboard = await persistence.load_keyboard(keyboard_uuid)
    if keyboard is None or button_uuid not in keyboard[2]:
        return None
    cache.load_persistence_data(([keyboard], {}))
    return keyboard[2][button_uuid]


async def stale_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A button whose callback data this process does not have: first looked up in the database and, when
    found, the update is handled again with the real object (once: a redispatched update never comes
    back here); only a button unknown everywhere (dropped long ago) answers that it has expired."""
    query = update.callback_query
    if query is None:
        return
    resolved = await resolve_from_database(update, context)
    if resolved is not None and not isinstance(resolved, InvalidCallbackData):
        # The query now carries the object, so this handler (pattern InvalidCallbackData) cannot match the
        # update again: no loop. PTB's CallbackDataCache puts resolved objects in the same way.
        with query._unfrozen():
            query.data = resolved  # type: ignore[assignment]
        pending: set[int] = context.bot_data.setdefault(REDISPATCH, set())
        pending.add(update.update_id)  # lets it past drop_redelivered (same update id)
        try:
            await context.application.process_update(update)
        finally:
            pending.discard(update.update_id)
        return
    lang = await chat_language(context, update)
    try:
        await query.answer(t(lang, "err.flow_stale"), show_alert=True)
    except TelegramError:
        log.debug("stale callback query could not be answered")


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
        record.msg = message.replace(self.secret, "<token>")
        record.args = None
        return True


def install_redaction(secret: str | None) -> None:
    """Put the token filter on every handler of the root logger (call after logging is configured)."""
    redactor = RedactingFilter(secret)
    for handler in logging.getLogger().handlers:
        handler.addFilter(redactor)


async def error_handler(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Log an unexpected error (token redacted) and tell the chat something went wrong."""
    error = context.error
    token = context.bot.token if context.bot else None
    detail = "".join(traceback.format_exception(error)) if error else "unknown error"
    if token:
        detail = detail.replace(token, "<token>")
    log.error("error while handling an update: %s", detail)
    chat = update.effective_chat if isinstance(update, Update) else None
    if chat is not None and not isinstance(error, TelegramError):
        try:
            lang = await chat_language(context, chat_id=chat.id)
            await context.bot.send_message(chat.id, t(lang, "err.internal"))
        except Exception:  # the error reply itself must never raise from the error handler
            log.exception("could not report the error to the chat")


__all__ = [
    "InvalidCallbackData",
    "error_handler",
    "is_redispatched",
    "resolve_from_database",
    "stale_button",
    "unknown_command",
]
