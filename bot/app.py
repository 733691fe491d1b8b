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
    PersistenceInput,
    PicklePersistence,
    TypeHandler,
    filters,
)
from telegram.request import BaseRequest

from bot.commands import COMMANDS, bot_commands
from bot.handlers import errors, flow, recording, rules, session, table
from bot.jobs import setup_jobs
from bot.ledger import LedgerService
from bot.settings import Settings

log = logging.getLogger(__name__)

CONSOLE_TOKEN = "123456:console-mode-no-token"  # syntactically valid; only ever sent to the in-process API
RATE_LIMIT_RETRIES = 3  # a flood-control RetryAfter is waited out and retried this often
RECENT_UPDATES = 2048  # update ids remembered to drop a redelivered update
STATE_FILE = "bot-state.pickle"  # under data_dir: button callback data and per-chat card ids

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


def make_persistence(settings: Settings) -> PicklePersistence[Any, Any, Any]:
    """What must outlive a restart besides the database: the objects behind inline buttons (so a
    Confirm under a preview still works after the bot restarts) and each chat's pinned-card message id.
    Hands, players and pending entries are in the ledger, never here."""
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    return PicklePersistence(
        filepath=settings.data_dir / STATE_FILE,
        store_data=PersistenceInput(bot_data=False, chat_data=True, user_data=False, callback_data=True),
        update_interval=30,
    )


async def drop_redelivered(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Stop an update already handled by this process (Telegram redelivers when an answer got lost).
    Writes are idempotent in the ledger too; this keeps a second preview or reply from appearing."""
    seen: dict[int, None] = context.bot_data.setdefault("recent_updates", {})
    if update.update_id in seen:
        log.info("dropping redelivered update %s", update.update_id)
        raise ApplicationHandlerStop
    seen[update.update_id] = None
    if len(seen) > RECENT_UPDATES:
        for old in list(seen)[: len(seen) - RECENT_UPDATES]:
            del seen[old]


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
    application.add_error_handler(errors.error_handler)


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
    callback data kept across restarts, the ledger in `bot_data["ledger"]` (built from the settings unless
    given), every handler, the persistent jobs and the command menu.

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
    builder = builder.arbitrary_callback_data(True).post_init(post_init)
    builder = builder.persistence(make_persistence(settings))
    if request is not None:
        builder = builder.request(request)
    if get_updates_request is not None:
        builder = builder.get_updates_request(get_updates_request)
    application = builder.build()
    application.bot_data["settings"] = settings
    application.bot_data["ledger"] = ledger if ledger is not None else make_ledger(settings)
    register_handlers(application)
    setup_jobs(application)  # the persistent job store: confirmation expiry, idle auto-end, weekly post
    return application
