"""`build_application`: the one place that wires settings, ledger, handlers, buttons, jobs and the menu."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import warnings
from collections.abc import Awaitable, Callable, Coroutine
from datetime import timedelta
from pathlib import Path
from typing import Any
from weakref import WeakValueDictionary

from aiolimiter import AsyncLimiter
from cachetools import FIFOCache
from telegram import Update
from telegram.error import NetworkError, RetryAfter
from telegram.ext import (
    Application,
    ApplicationBuilder,
    ApplicationHandlerStop,
    BaseRateLimiter,
    BaseUpdateProcessor,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    InlineQueryHandler,
    MessageHandler,
    TypeHandler,
    filters,
)
from telegram.request import BaseRequest
from telegram.warnings import PTBDeprecationWarning

from bot import buttons
from bot.commands import BY_NAME, COMMANDS, bot_commands
from bot.handlers import (
    ending,
    errors,
    flow,
    inline,
    picker,
    questions,
    recording,
    rules,
    season,
    session,
    settling,
    supergroup,
    views,
)
from bot.handlers.picker import PickerSubmission
from bot.i18n import DEFAULT_LANGUAGE
from bot.jobs import setup_jobs
from bot.ledger import Ledger
from bot.ledger.storage.store import Defaults
from bot.services import store_services
from bot.settings import Settings

log = logging.getLogger(__name__)

CONSOLE_TOKEN = "123456:console-mode-no-token"  # syntactically valid; only ever sent to the in-process API
RATE_LIMIT_RETRIES = 3  # a flood-control RetryAfter is waited out and retried this often
RECENT_UPDATES = 2048  # update ids remembered to drop a redelivered update (the oldest forgotten first)
CONCURRENT_UPDATES = 64  # updates of different chats handled at once; one chat's updates in order
STARTUP_FIRST_DELAY = 1.0  # seconds before the second getMe when the Bot API is unreachable at start-up
STARTUP_MAX_DELAY = 60.0  # the wait doubles up to this and stays there

AnyApplication = Application[Any, Any, Any, Any, Any, Any]
# Telegram's limits as its Bot FAQ documents them
# (https://core.telegram.org/bots/faq#my-bot-is-hitting-limits-how-do-i-avoid-this): "in a group, bots are
# not able to send more than 20 messages per minute", and no "more than 30 messages per second or so" in
# all; "avoid sending more than one message per second" to one chat, "short bursts" over it allowed. They
# count messages: what puts a new message in a chat.
MESSAGES_PER_SECOND = 30
GROUP_MESSAGES = 20
GROUP_PERIOD = 60.0  # seconds
GROUPS_KEPT = 512  # groups whose recent messages are counted; a full bucket is forgotten beyond that
RETRY_MARGIN = 0.1  # seconds waited beyond a RetryAfter


def new_message(endpoint: str) -> bool:
    """Whether a Bot API method puts a new message in a chat (sendMessage, sendPhoto, copyMessage,
    forwardMessage, ...): what Telegram's message limits count. An edit, a callback answer, a pin or a
    read is not a message."""
    return endpoint.startswith(("send", "copyMessage", "forwardMessage")) and endpoint != "sendChatAction"


def retry_seconds(exc: RetryAfter) -> float:
    """How long Telegram asks to wait (PTB 22 gives seconds and warns that a timedelta is coming)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PTBDeprecationWarning)
        wait = exc.retry_after
    return wait.total_seconds() if isinstance(wait, timedelta) else float(wait)


class TelegramRateLimiter(BaseRateLimiter[int]):
    """Telegram's flood limits applied to what Telegram counts (`new_message`): a group's 20 messages a
    minute and the bot's 30 a second hold back only the messages the bot sends. Answering a press,
    editing a preview or the card, pinning: never held behind the table's own recent messages (PTB's
    `AIORateLimiter` counts every request with a chat_id against the group's 20 a minute, so a table
    correcting hands back to back waited seconds per edit). A RetryAfter that Telegram answers anyway (an
    undocumented limit) is waited out by that chat's requests only, then retried up to `max_retries` times
    (a call's `rate_limit_args` overrides it)."""

    def __init__(
        self,
        max_retries: int = 0,
        *,
        overall_rate: float = MESSAGES_PER_SECOND,
        group_rate: float = GROUP_MESSAGES,
        group_period: float = GROUP_PERIOD,
        retry_margin: float = RETRY_MARGIN,
    ) -> None:
        self._max_retries, self._retry_margin = max_retries, retry_margin
        self._overall = AsyncLimiter(overall_rate, 1)
        self._group_rate, self._group_period = group_rate, group_period
        self._groups: dict[int | str, AsyncLimiter] = {}
        self._paused: dict[object, float] = {}  # chat id (None: requests without one) -> loop time

    async def initialize(self) -> None:
        """Nothing to set up."""

    async def shutdown(self) -> None:
        """Nothing to tear down."""

    def _group(self, chat: int | str) -> AsyncLimiter:
        limiter = self._groups.get(chat)
        if limiter is None:
            if len(self._groups) >= GROUPS_KEPT:
                for key, old in list(self._groups.items()):
                    if old.has_capacity(old.max_rate):
                        del self._groups[key]
            limiter = self._groups[chat] = AsyncLimiter(self._group_rate, self._group_period)
        return limiter

    def _limiters(self, endpoint: str, chat: object) -> list[AsyncLimiter]:
        if not new_message(endpoint):
            return []
        with contextlib.suppress(TypeError, ValueError):
            chat = int(chat)  # type: ignore[call-overload]
        group = isinstance(chat, str) or (isinstance(chat, int) and chat < 0)  # a group, channel or @name
        return [self._group(chat), self._overall] if group else [self._overall]  # type: ignore[arg-type]

    async def _wait_paused(self, chat: object) -> None:
        loop = asyncio.get_running_loop()
        while (until := self._paused.get(chat, 0.0)) > loop.time():
            await asyncio.sleep(until - loop.time())
        self._paused.pop(chat, None)

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, bool | dict[str, Any] | list[dict[str, Any]]]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: int | None,
    ) -> bool | dict[str, Any] | list[dict[str, Any]]:
        """Make the request once the limits that count it allow; RetryAfter: that chat waits, then again."""
        retries = rate_limit_args or self._max_retries
        chat = data.get("chat_id")
        limiters = self._limiters(endpoint, chat)
        for attempt in range(retries + 1):
            try:
                async with contextlib.AsyncExitStack() as stack:
                    for limiter in limiters:
                        await stack.enter_async_context(limiter)
                    await self._wait_paused(chat)
                    return await callback(*args, **kwargs)
            except RetryAfter as exc:
                if attempt == retries:
                    raise
                seconds = retry_seconds(exc) + self._retry_margin
                log.info("%s in chat %s: flood limit, retrying in %.1f s", endpoint, chat, seconds)
                until = asyncio.get_running_loop().time() + seconds
                self._paused[chat] = max(self._paused.get(chat, 0.0), until)
        raise AssertionError("unreachable")


def chat_of(update: object) -> int | None:
    """The chat an update belongs to: a Telegram update's, or the table's of a picker submission."""
    if isinstance(update, PickerSubmission):
        return update.chat_id
    chat = update.effective_chat if isinstance(update, Update) else None
    return chat.id if chat is not None else None


class PerChatUpdateProcessor(BaseUpdateProcessor):
    """Handles updates of different chats at the same time and those of one chat one after the other, in
    the order they came: a table waits for its own Bot API calls, never for another table's."""

    def __init__(self, max_concurrent_updates: int) -> None:
        super().__init__(max_concurrent_updates)
        self._locks: WeakValueDictionary[int | None, asyncio.Lock] = WeakValueDictionary()

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        key = chat_of(update)
        lock = self._locks.get(key)
        if lock is None:
            lock = self._locks[key] = asyncio.Lock()
        async with lock:
            await coroutine

    async def initialize(self) -> None:
        """Nothing to set up."""

    async def shutdown(self) -> None:
        """Nothing to tear down."""


class BotApplication(Application[Any, Any, Any, Any, Any, Any]):
    """PTB's Application, waiting for the Bot API at start-up: while getMe fails on the network (refused,
    timed out, a 5xx page from a proxy) it is retried, the wait doubling from `startup_first_delay` to
    `startup_max_delay`, for `startup_attempts` tries (0: until it answers). A rejected token is not
    retried."""

    startup_first_delay = STARTUP_FIRST_DELAY
    startup_max_delay = STARTUP_MAX_DELAY
    startup_attempts = 0

    async def initialize(self) -> None:
        delay, attempt = self.startup_first_delay, 1
        while True:
            try:
                await self.bot.initialize()  # getMe; safe to call again after a failure
                break
            except NetworkError as exc:  # TimedOut too; InvalidToken is no NetworkError
                if self.startup_attempts and attempt >= self.startup_attempts:
                    raise
                log.warning("Bot API unreachable (try %d: %s); next try in %.1f s", attempt, exc, delay)
                await asyncio.sleep(delay)
                delay, attempt = min(delay * 2, self.startup_max_delay), attempt + 1
        await super().initialize()


def make_ledger(settings: Settings) -> Ledger:
    """The ledger service on the configured database (created and migrated on first use)."""
    if settings.database_url.startswith("sqlite:///"):
        path = settings.database_url.removeprefix("sqlite:///")
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
    return Ledger.from_url(
        settings.database_url,
        defaults=Defaults(settings.default_language, settings.confirm_timeout_seconds),
    )


async def drop_redelivered(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Stop an update already handled by this process (Telegram redelivers when an answer got lost; the
    page sends a submission again when its answer got lost). Writes are idempotent in the ledger too; this
    keeps a second reply from appearing. A repeated picker submission is answered `duplicate`; one that
    failed is forgotten, so that the page's retry with the same key goes on."""
    if isinstance(update, Update):
        update_id: int | str = update.update_id
    elif isinstance(update, PickerSubmission):
        update_id = update.source_key
    else:
        return
    seen: FIFOCache[int | str, None] | None = context.bot_data.get("recent_updates")
    if seen is None:
        seen = context.bot_data["recent_updates"] = FIFOCache(maxsize=RECENT_UPDATES)
    if update_id in seen:
        log.info("dropping redelivered update %s", update_id)
        if isinstance(update, PickerSubmission):
            update.answer("duplicate")
        raise ApplicationHandlerStop
    seen[update_id] = None
    if isinstance(update, PickerSubmission):
        update.outcome.add_done_callback(
            lambda done: seen.pop(update_id, None) if done.cancelled() or done.exception() else None
        )


FULL_WIDTH_SLASH = "／"  # U+FF0F, what Chinese input methods type for "/"


async def full_width_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """`／hu 南 自摸 5花` works like `/hu 南 自摸 5花`: the word after the full-width slash names a command of
    the table, whose callback handles the update as it is (Turn.text drops either slash); any other word is
    an unknown command. `／hu@otherbot` is left to that bot."""
    message = update.effective_message
    text = (message.text or "") if message is not None else ""
    word = text.split(maxsplit=1)[0].removeprefix(FULL_WIDTH_SLASH) if text.strip() else ""
    name, _, target = word.partition("@")
    me = context.bot.username if context.bot else None
    if not name or (target and me and target.lower() != me.lower()):
        return
    known = BY_NAME.get(name.lower())
    await (known.callback if known is not None else errors.unknown_command)(update, context)


def register_handlers(application: AnyApplication) -> None:
    """Every handler, from the command table plus the buttons, unknown commands and the error handler."""
    application.add_handler(TypeHandler(object, drop_redelivered), group=-1)
    # A hand from the tile picker: a custom update the page's server puts on the update queue.
    application.add_handler(TypeHandler(PickerSubmission, picker.picker_submitted))
    # New messages only: editing a sent "/hu …" must not record the hand a second time.
    fresh = filters.UpdateType.MESSAGE
    # The group became a supergroup: its ledger follows it to the new chat id.
    application.add_handler(MessageHandler(fresh & filters.StatusUpdate.MIGRATE, supergroup.chat_migrated))
    for command in COMMANDS:
        application.add_handler(CommandHandler(command.name, command.callback, filters=fresh))
    presses = (
        (buttons.PENDING, recording.pending_pressed),
        (buttons.FLOW, flow.flow_pressed),
        (buttons.DEALER, questions.dealer_pressed),
        (buttons.NAME, questions.name_pressed),
        (buttons.JOIN, session.join_pressed),
        (buttons.GUEST, session.guest_pressed),
        (buttons.SEAT_WHO, session.seat_who_pressed),
        (buttons.END, ending.end_pressed),
        (buttons.RULES, rules.rules_pressed),
        (buttons.LEDGER_CSV, views.ledger_csv_pressed),
        (buttons.SETTLE, settling.settle_pressed),
        (buttons.PAY, settling.pay_pressed),
        (buttons.VIEW, views.view_pressed),
        (buttons.SEASON, season.season_pressed),
    )
    for pattern, callback in presses:
        application.add_handler(CallbackQueryHandler(callback, pattern=pattern))
    private_photo = fresh & filters.ChatType.PRIVATE & filters.PHOTO  # a 收款码 (/paycode)
    application.add_handler(MessageHandler(private_photo, settling.paycode_photo))
    application.add_handler(CallbackQueryHandler(errors.stale_button))  # any other data: expired
    # A group's chat (no command): its senders become members the group knows (a handler group of its own,
    # beside whatever else answers the message).
    chatter = fresh & filters.ChatType.GROUPS & ~filters.COMMAND
    application.add_handler(MessageHandler(chatter, session.chat_message_seen), group=1)
    application.add_handler(InlineQueryHandler(inline.inline_query))  # `@bot <hand>` in any chat
    application.add_handler(MessageHandler(fresh & filters.COMMAND, errors.unknown_command))
    application.add_handler(MessageHandler(fresh & filters.Regex(f"^{FULL_WIDTH_SLASH}"), full_width_command))
    application.bot_data[errors.COMMAND_NAMES] = tuple(command.name for command in COMMANDS)
    application.add_error_handler(errors.error_handler)


async def post_init(application: AnyApplication) -> None:
    """After the bot is initialized: the start-up log line, then the Telegram menu from the command table
    (the default language, and en)."""
    log.info("bot @%s started", application.bot.username)
    try:
        await application.bot.set_my_commands(bot_commands(DEFAULT_LANGUAGE))
        await application.bot.set_my_commands(bot_commands("en"), language_code="en")
    except Exception as exc:  # a missing menu must not keep the bot from starting
        log.warning("set_my_commands failed: %s", exc)


def build_application(
    settings: Settings,
    *,
    request: BaseRequest | None = None,
    get_updates_request: BaseRequest | None = None,
    ledger: Ledger | None = None,
) -> AnyApplication:
    """The real Application: token (or a console placeholder), Bot API base URL, rate limiter, updates of
    different chats at once, the ledger in `bot_data["ledger"]` (built from the settings unless given),
    every handler, the sweeps on the JobQueue and the command menu. Buttons carry short string data, so
    nothing but the ledger is stored.

    `request` / `get_updates_request` replace PTB's HTTP transport (the in-process Bot API of console mode
    and the tests)."""
    builder = (
        ApplicationBuilder()
        .application_class(BotApplication)
        .token(settings.token or CONSOLE_TOKEN)
        .rate_limiter(TelegramRateLimiter(max_retries=RATE_LIMIT_RETRIES))
    )
    if settings.telegram_base_url:
        # Given as the Bot API documents it (`http://127.0.0.1:8081/bot`); files live under `/file/bot`.
        base = settings.telegram_base_url
        builder = builder.base_url(base)
        if base.rstrip("/").endswith("/bot"):
            builder = builder.base_file_url(base.rstrip("/")[: -len("/bot")] + "/file/bot")
    builder = builder.post_init(post_init)
    builder = builder.concurrent_updates(PerChatUpdateProcessor(CONCURRENT_UPDATES))
    if request is not None:
        builder = builder.request(request)
    if get_updates_request is not None:
        builder = builder.get_updates_request(get_updates_request)
    application = builder.build()
    store_services(application.bot_data, settings, ledger if ledger is not None else make_ledger(settings))
    register_handlers(application)
    setup_jobs(application)  # the sweeps of bot.jobs.sweeps and the heartbeat
    return application
