"""What every handler shares: the `Turn` (one update in one language), refusals, permissions, error text."""

from __future__ import annotations

import asyncio
import functools
import logging
import warnings
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

from telegram import Chat, ChatMember, InlineKeyboardMarkup, Message, Update
from telegram.error import TelegramError
from telegram.ext import ContextTypes
from telegram.warnings import PTBUserWarning

from bot.grammar.errors import GrammarError
from bot.i18n import has, t
from bot.ledger.errors import LedgerError, WouldBlock
from bot.ledger.results import SEATS, SessionInfo, UserRef
from scoring.errors import ScoringError

if TYPE_CHECKING:
    from bot.ledger.service import LedgerService
    from bot.settings import Settings

log = logging.getLogger(__name__)

P = ParamSpec("P")
R = TypeVar("R")
GROUP_TYPES = (Chat.GROUP, Chat.SUPERGROUP)
SESSION_HINTS = "session_hints"  # bot_data key (bot_data is not persisted): chat id -> last SessionInfo seen
ADMIN_STATUSES = (ChatMember.ADMINISTRATOR, ChatMember.OWNER)
# `Turn.post` sends through Bot.do_api_request on purpose (it needs no Message back); PTB would suggest
# Bot.sendMessage at every call.
warnings.filterwarnings(
    "ignore", message=r"Please use 'Bot\.sendMessage' instead of", category=PTBUserWarning
)


class Refusal(Exception):
    """A user-facing refusal: a catalog key and its params; nothing was recorded.

    With `usage=True` the reply ends with the command's usage line and example.
    """

    def __init__(self, key: str, /, *, usage: bool = False, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.usage = usage
        self.params = params


def wind(lang: str | None, seat: object) -> str:
    """A seat letter as the group reads it: 东 / 東 / E."""
    return t(lang, f"wind.{seat}") if seat in SEATS else str(seat)


def _join(lang: str | None, items: list[str]) -> str:
    return (", " if lang == "en" else "、").join(items)


def ledger_params(lang: str | None, params: Mapping[str, Any]) -> dict[str, Any]:
    """Ledger error params made printable: seats as wind names, lists joined, reasons per winner."""
    out: dict[str, Any] = dict(params)
    if "seat" in params:
        out["wind"] = wind(lang, params["seat"])
    if "empty" in params:
        empty = list(params["empty"])
        out["missing"] = len(empty)
        out["seats"] = _join(lang, [wind(lang, s) for s in empty])
    if "names" in params:
        out["names"] = _join(lang, [str(n) for n in params["names"]])
    if "reasons" in params:
        out["reasons"] = "; ".join(
            f"{wind(lang, r.get('winner'))} {r.get('reason') or ''}".strip() for r in params["reasons"]
        )
    out.setdefault("who", params.get("name") or (wind(lang, params["seat"]) if "seat" in params else ""))
    return out


def error_text(lang: str | None, error: BaseException, usage_key: str | None = None) -> str:
    """The reply for an error a user caused: refusal, grammar, ledger or scoring error."""
    usage = False
    if isinstance(error, Refusal):
        text, usage = t(lang, error.key, **error.params), error.usage
    elif isinstance(error, GrammarError):
        key = f"grammar.{error.code}"
        text = t(lang, key, **error.params) if has(key, lang or "") else str(error)
        usage = True
    elif isinstance(error, LedgerError):
        key = f"ledger.{error.code}"
        if has(key, lang or ""):
            text = t(lang, key, **ledger_params(lang, error.params))
        else:
            text = t(lang, "ledger.error", message=str(error))
    elif isinstance(error, ScoringError):
        text = t(lang, "err.scoring", message=str(error))
    else:
        raise TypeError(f"not a user error: {error!r}")
    if usage and usage_key:
        return t(lang, "err.usage", problem=text, usage=t(lang, usage_key))
    return text


USER_ERRORS = (Refusal, GrammarError, LedgerError, ScoringError)


def user_ref(update: Update) -> UserRef | None:
    """The sender as the ledger sees it, or None (channel posts)."""
    user = update.effective_user
    if user is None:
        return None
    return UserRef(telegram_id=user.id, display_name=user.full_name or str(user.id), username=user.username)


@dataclass
class Turn:
    """One update being handled: the chat, the sender, the group's language and the shared services."""

    update: Update
    context: ContextTypes.DEFAULT_TYPE
    lang: str
    command: str | None = None
    _admin: bool | None = field(default=None, repr=False)
    _answered: bool = field(default=False, repr=False)

    @classmethod
    async def start(cls, update: Update, context: ContextTypes.DEFAULT_TYPE, command: str | None) -> Turn:
        """Look up the chat's language (cached in chat_data) and wrap the update."""
        return cls(update, context, await chat_language(context, update), command)

    @property
    def ledger(self) -> LedgerService:
        """The ledger service of the application."""
        return ledger_of(self.context)

    @property
    def settings(self) -> Settings:
        """The application's settings."""
        return self.context.bot_data["settings"]  # type: ignore[no-any-return]

    @property
    def chat_id(self) -> int:
        """The chat of the update."""
        chat = self.update.effective_chat
        assert chat is not None
        return chat.id

    @property
    def is_group(self) -> bool:
        """True in a group or supergroup."""
        chat = self.update.effective_chat
        return chat is not None and chat.type in GROUP_TYPES

    @property
    def user(self) -> UserRef | None:
        """The sender as a ledger `UserRef`."""
        return user_ref(self.update)

    @property
    def text(self) -> str:
        """The message text after the command word (`/hu@bot 南 自摸` → `南 自摸`)."""
        message = self.update.message  # typed by a person; a button press has no text of its own
        raw = (message.text or message.caption or "") if message else ""
        parts = raw.split(maxsplit=1)
        if parts and parts[0].startswith("/"):
            return parts[1].strip() if len(parts) > 1 else ""
        return raw.strip()

    @property
    def source_key(self) -> str:
        """The idempotency key of this update: a redelivered update carries the same one."""
        return f"update:{self.update.update_id}"

    def t(self, key: str, /, **params: Any) -> str:
        """A catalog message in this chat's language."""
        return t(self.lang, key, **params)

    def wind(self, seat: object) -> str:
        """A seat letter in this chat's language."""
        return wind(self.lang, seat)

    async def run(self, fn: Callable[P, R], /, *args: P.args, **kwargs: P.kwargs) -> R:
        """Run a blocking ledger/scoring call off the event loop."""
        return await asyncio.to_thread(fn, *args, **kwargs)

    async def quick(self, op: Callable[[LedgerService], R]) -> R:
        """A short ledger call (a read of the table or of a pending entry, a hand's commit, a pending entry's
        creation or confirmation): made on the event loop when SQLite can take it at once
        (`LedgerService.nonblocking`: its write lock free, commits not waiting for the disk), since the hop
        to a worker thread and back costs more than the transaction; else, and on PostgreSQL, in a worker
        thread like `run`."""
        view = self.ledger.nonblocking()
        if view is not None:
            try:
                return op(view)
            except WouldBlock:
                log.debug("the database is busy: the ledger call goes to a worker thread")
        return await asyncio.to_thread(op, self.ledger)

    async def say(self, text: str, markup: InlineKeyboardMarkup | None = None) -> Message:
        """Send `text` to the chat (not as a quote, so it survives a deleted command message)."""
        return await self.context.bot.send_message(self.chat_id, text, reply_markup=markup)

    async def post(self, text: str) -> None:
        """`say` without buttons, for a message the handler does not read back (a hand's one-line result):
        the same Bot API call through the same rate limiter, but the answer is not parsed into a `Message`
        (about 0.1 ms, as much as the rest of sending it)."""
        await self.context.bot.do_api_request("sendMessage", {"chat_id": self.chat_id, "text": text})

    async def reply(self, key: str, /, markup: InlineKeyboardMarkup | None = None, **params: Any) -> Message:
        """Send a catalog message to the chat."""
        return await self.say(self.t(key, **params), markup)

    async def answer(self, text: str | None = None, *, alert: bool = False) -> None:
        """Answer the callback query of this turn, once (a toast, or an alert box)."""
        query = self.update.callback_query
        if query is None or self._answered:
            return
        self._answered = True
        try:
            await query.answer(text[:200] if text else None, show_alert=alert)
        except TelegramError:
            log.debug("callback query already answered or too old")

    async def is_admin(self) -> bool:
        """Whether the sender is an administrator or the owner of the group (getChatMember, once per turn)."""
        if self._admin is None:
            user = self.update.effective_user
            message = self.update.effective_message
            sender_chat = message.sender_chat if message is not None else None
            if sender_chat is not None and sender_chat.id == self.chat_id:
                self._admin = True  # an anonymous admin, posting as the group itself
            elif user is None:
                self._admin = False
            else:
                try:
                    member = await self.context.bot.get_chat_member(self.chat_id, user.id)
                    self._admin = member.status in ADMIN_STATUSES
                except TelegramError as exc:
                    log.warning("getChatMember failed in chat %s: %s", self.chat_id, exc)
                    self._admin = False
        return self._admin

    def is_seated(self, session: SessionInfo) -> bool:
        """Whether the sender holds a seat at the table."""
        user = self.update.effective_user
        return user is not None and any(p.telegram_id == user.id for p in session.seats.values())

    async def require_writer(self, session: SessionInfo | None) -> None:
        """Writes are for seated players and group admins (Refusal otherwise)."""
        if session is not None and self.is_seated(session):
            return
        if await self.is_admin():
            return
        raise Refusal("err.not_allowed")

    async def require_session(self) -> SessionInfo:
        """The open table of this group (LedgerError NoOpenSession otherwise), remembered as its hint."""
        chat_id = self.chat_id
        session = await self.quick(lambda ledger: ledger.require_session(chat_id))
        self.remember_session(session)
        return session

    def session_hint(self) -> SessionInfo | None:
        """The open table as this process last read or wrote it, without a database read. Only a guess: a
        write made from it must let the ledger check it (e.g. `commit(expect_seats=...)`)."""
        hints: dict[int, SessionInfo] = self.context.bot_data.get(SESSION_HINTS, {})
        return hints.get(self.chat_id)

    def remember_session(self, session: SessionInfo | None) -> None:
        """Keep `session` as the chat's hint (in memory only; an ended session drops it)."""
        hints: dict[int, SessionInfo] = self.context.bot_data.setdefault(SESSION_HINTS, {})
        if session is None or not session.is_open:
            hints.pop(self.chat_id, None)
        else:
            hints[self.chat_id] = session


def ledger_of(context: ContextTypes.DEFAULT_TYPE) -> LedgerService:
    """The ledger service stored by `build_application`."""
    return context.bot_data["ledger"]  # type: ignore[no-any-return]


async def chat_language(
    context: ContextTypes.DEFAULT_TYPE, update: Update | None = None, chat_id: int | None = None
) -> str:
    """The chat's language from the ledger's group settings, cached in chat_data."""
    if chat_id is None:
        chat = update.effective_chat if update else None
        if chat is None:
            return context.bot_data["settings"].default_language  # type: ignore[no-any-return]
        chat_id = chat.id
    chat_data = context.application.chat_data[chat_id]
    lang = chat_data.get("lang")
    if lang is None:
        group = await asyncio.to_thread(ledger_of(context).get_group, chat_id)
        lang = chat_data["lang"] = group.language
    return str(lang)


def set_chat_language(context: ContextTypes.DEFAULT_TYPE, chat_id: int, lang: str) -> None:
    """Refresh the cached language after /lang."""
    context.application.chat_data[chat_id]["lang"] = lang


Handler = Callable[[Update, ContextTypes.DEFAULT_TYPE], Awaitable[None]]


def command(name: str, *, group_only: bool = True) -> Callable[[Callable[[Turn], Awaitable[None]]], Handler]:
    """Wrap `async def handler(turn)` as a PTB callback: language lookup, group check, and every user
    error (refusal, grammar, ledger, scoring) turned into one short reply; nothing else is swallowed."""

    def decorate(fn: Callable[[Turn], Awaitable[None]]) -> Handler:
        @functools.wraps(fn)
        async def callback(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
            if update.effective_chat is None:
                return
            turn = await Turn.start(update, context, name)
            try:
                if group_only and not turn.is_group:
                    raise Refusal("err.group_only")
                await fn(turn)
            except USER_ERRORS as error:
                await turn.say(error_text(turn.lang, error, f"usage.{name}"))

        return callback

    return decorate


def button(fn: Callable[[Turn, Any], Awaitable[None]]) -> Handler:
    """Wrap `async def on_press(turn, data)` for a callback query carrying an object: every user error
    becomes a short answer on the button (an alert), the query is always answered."""

    @functools.wraps(fn)
    async def callback(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        if query is None or update.effective_chat is None:
            return
        turn = await Turn.start(update, context, None)
        try:
            await fn(turn, query.data)
        except USER_ERRORS as error:
            await turn.answer(error_text(turn.lang, error), alert=True)
        await turn.answer()

    return callback
