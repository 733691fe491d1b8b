"""`build_application`: the one place that wires settings, ledger, handlers, buttons, jobs and the menu."""

from __future__ import annotations

import logging
from typing import Any

from telegram import Update
from telegram.ext import (
    AIORateLimiter,
    Application,
    ApplicationBuilder,
    ApplicationHandlerStop,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    InvalidCallbackData,
    MessageHandler,
    TypeHandler,
    filters,
)
from telegram.request import BaseRequest

from bot.commands import COMMANDS, bot_commands
from bot.handlers import errors, flow, recording, rules, session, table
from bot.jobs import setup_jobs
from bot.ledger import LedgerService
from bot.persistence import CodecError, DatabasePersistence, save_now
from bot.settings import Settings

log = logging.getLogger(__name__)

CONSOLE_TOKEN = "123456:console-mode-no-token"  # syntactically valid; only ever sent to the in-process API
RATE_LIMIT_RETRIES = 3  # a flood-control RetryAfter is waited out and retried this often
RECENT_UPDATES = 2048  # update ids remembered to drop a redelivered update
SAVE_GROUP = 1000  # the last handler group: writes the state the update changed
# PTB's own periodic save, a fallback: each update saves what it changed at once (SAVE_GROUP), and PTB's
# save deep-copies the whole button cache (blocking the event loop for a moment once the cache is full).
PERSISTENCE_INTERVAL = 300.0
# The objects behind inline buttons, stored as JSON by bot.persistence (register every new button type).
CALLBACK_TYPES: tuple[type, ...] = (recording.PendingPress, flow.HuFlow, table.JoinPress, rules.RulesPress)

AnyApplication = Application[Any, Any, Any, Any, Any, Any]


def make_ledger(settings: Settings) -> LedgerService:
    """The ledger service on the configured database (created and migrated on first use)."""
    if settings.database_url.startswith("sqlite:///"):
        path = settings.database_url.removeprefix("sqlite:///")
        if path and path != ":memory:":
            from pathlib import Path

            Path(path).parent.mkdir(parents=True, exist_ok=True)
    return LedgerService.from_url(
        settings.database_url,
        default_language=settings.default_language,
        default_confirm_timeout_seconds=settings.confirm_timeout_seconds,
    )


def make_persistence(ledger: LedgerService) -> DatabasePersistence:
    """The bot's own state in the ledger's database (tables of migration 0002), shared by every worker:
    the objects behind inline buttons (a Confirm under a preview works after a restart and on another
    worker) and chat_data (each chat's pinned-card message id, cached language and settings).
    Hands, players and pending entries are in the ledger, never here."""
    persistence = DatabasePersistence(
        ledger.engine, callback_types=CALLBACK_TYPES, update_interval=PERSISTENCE_INTERVAL
    )
    persistence.check_schema()
    return persistence


async def drop_redelivered(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Stop an update already handled by this process (Telegram redelivers when an answer got lost).
    Writes are idempotent in the ledger too; this keeps a second preview or reply from appearing."""
    seen: dict[int, None] = context.bot_data.setdefault("recent_updates", {})
    if errors.is_redispatched(context, update):
        return  # a button press resolved from the database, handled again on purpose
    if update.update_id in seen:
        log.info("dropping redelivered update %s", update.update_id)
        raise ApplicationHandlerStop
    seen[update.update_id] = None
    if len(seen) > RECENT_UPDATES:
        for old in list(seen)[: len(seen) - RECENT_UPDATES]:
            del seen[old]


async def save_after_update(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Write what this update changed (its chat's data, new or used keyboards) before the next update:
    another worker, or this one after a crash, then finds the card id and the buttons in the database."""
    chat = update.effective_chat
    try:
        await save_now(context.application, chat.id if chat is not None else None)
    except CodecError:
        raise  # a value of an unregistered type: a bug to see, not to hide
    except Exception as exc:  # the ledger holds everything that counts; PTB retries at its interval
        log.warning("could not save the bot state after update %s: %s", update.update_id, exc)


def register_handlers(application: AnyApplication) -> None:
    """Every handler, from the command table plus the buttons, unknown commands and the error handler."""
    application.add_handler(TypeHandler(Update, drop_redelivered), group=-1)
    # New messages only: editing a sent "/hu …" must not record the hand a second time.
    fresh = filters.UpdateType.MESSAGE
    for command in COMMANDS:
        application.add_handler(CommandHandler(command.name, command.callback, filters=fresh))
    application.add_handler(CallbackQueryHandler(recording.pending_pressed, pattern=recording.PendingPress))
    application.add_handler(CallbackQueryHandler(flow.flow_pressed, pattern=flow.HuFlow))
    application.add_handler(CallbackQueryHandler(session.join_pressed, pattern=table.JoinPress))
    application.add_handler(CallbackQueryHandler(rules.rules_pressed, pattern=rules.RulesPress))
    application.add_handler(CallbackQueryHandler(errors.stale_button, pattern=InvalidCallbackData))
    application.add_handler(MessageHandler(fresh & filters.COMMAND, errors.unknown_command))
    application.add_handler(TypeHandler(Update, save_after_update), group=SAVE_GROUP)
    application.add_error_handler(errors.error_handler)


async def post_stop(application: AnyApplication) -> None:
    """After the last update: the pinned cards' waiting edits are made (bot/handlers/table.py)."""
    await table.make_waiting_edits(application)


async def post_shutdown(application: AnyApplication) -> None:
    """The ledger's event-loop connection is closed (LedgerService.nonblocking)."""
    application.bot_data["ledger"].close()


async def post_init(application: AnyApplication) -> None:
    """After the bot is initialized: the Telegram menu from the command table (default zh-Hans, and en)."""
    try:
        await application.bot.set_my_commands(bot_commands("zh-Hans"))
        await application.bot.set_my_commands(bot_commands("en"), language_code="en")
    except Exception as exc:  # a missing menu must not keep the bot from starting
        log.warning("set_my_commands failed: %s", exc)


def build_application(
    settings: Settings,
    *,
    request: BaseRequest | None = None,
    get_updates_request: BaseRequest | None = None,
    ledger: LedgerService | None = None,
) -> AnyApplication:
    """The real Application: token (or a console placeholder), Bot API base URL, rate limiter, arbitrary
    callback data and chat_data kept in the database (bot.persistence), the ledger in `bot_data["ledger"]`
    (built from the settings unless given), every handler, the persistent jobs and the command menu.

    `request` / `get_updates_request` replace PTB's HTTP transport (the in-process Bot API of console mode
    and the tests)."""
    builder = ApplicationBuilder().token(settings.token or CONSOLE_TOKEN)
    if settings.telegram_base_url:
        # Given as the Bot API documents it (`http://127.0.0.1:8081/bot`); files live under `/file/bot`.
        base = settings.telegram_base_url
        builder = builder.base_url(base)
        if base.rstrip("/").endswith("/bot"):
            builder = builder.base_file_url(base.rstrip("/")[: -len("/bot")] + "/file/bot")
    builder = builder.rate_limiter(AIORateLimiter(max_retries=RATE_LIMIT_RETRIES))
    ledger = ledger if ledger is not None else make_ledger(settings)
    builder = builder.arbitrary_callback_data(True).post_init(post_init)
    builder = builder.post_stop(post_stop).post_shutdown(post_shutdown)
    builder = builder.persistence(make_persistence(ledger))
    if request is not None:
        builder = builder.request(request)
    if get_updates_request is not None:
        builder = builder.get_updates_request(get_updates_request)
    application = builder.build()
    application.bot_data["settings"] = settings
    application.bot_data["ledger"] = ledger
    register_handlers(application)
    setup_jobs(application)  # the persistent job store: confirmation expiry, idle auto-end, weekly post
    return application
