"""One update being handled: the `Turn` (started from one read of the chat's state), the `Origin` of what
it writes (chat, who, key, text, topic), and the one sender every reply goes through (`Turn.say`: split at
Telegram's bound)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Concatenate, ParamSpec, TypeVar

from sqlmodel import Session
from telegram import Chat, InlineKeyboardMarkup, Message, Update
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from bot.grammar import make_resolver
from bot.i18n import t
from bot.ledger import ChatState, Ledger, Person, SessionInfo, UserRef, pending_id_for
from bot.ledger.errors import NoOpenSession
from bot.ledger.play import groups
from bot.names import answers_to
from bot.render import wind
from bot.sender import edit_text, fit, send_text
from bot.services import ledger_in, settings_in
from bot.settings import Settings
from scoring.seats import Seat

log = logging.getLogger(__name__)

P = ParamSpec("P")
R = TypeVar("R")
GROUP_TYPES = (Chat.GROUP, Chat.SUPERGROUP)
ANSWER_LIMIT = 200  # Telegram shows at most 200 characters of a button's answer
COMMAND_PREFIXES = ("/", "／")  # a full-width slash is what Chinese input methods type


def sender_chat_of(update: Update) -> Chat | None:
    """The chat a message was sent on behalf of: a channel, or the group itself (an anonymous admin);
    None for a person, and for every button press (a press always comes from a user)."""
    if update.callback_query is not None:
        return None
    message = update.effective_message
    return message.sender_chat if message is not None else None


def user_ref(update: Update) -> UserRef | None:
    """The sender as the ledger sees it, or None: a message sent on behalf of a chat is nobody's (every
    channel shares one placeholder user, and an anonymous admin is not a player)."""
    user = update.effective_user
    if user is None or sender_chat_of(update) is not None:
        return None
    return UserRef(telegram_id=user.id, display_name=user.full_name or str(user.id), username=user.username)


def seat_resolver(session: SessionInfo, people: Iterable[Person] = ()) -> Callable[[str], Seat | None]:
    """The grammar's `resolve(word) -> seat | None` over the seated table: E/S/W/N, 东南西北/東, or whom a
    name means by the one rule of names (`bot.names.named`): a seated player's name or @username
    (any case), None for a name that means someone of the group off this table (`people`: the group's
    players, `bot.ledger.play.groups.people`), as /sub or /paid would read the same name."""
    names = {seat: answers_to(player.name, player.username) for seat, player in session.seats.items()}
    seated = {player.id for player in session.seats.values()}
    others = {
        name: None
        for pid, display, username in people
        if pid not in seated
        for name in answers_to(display, username)
    }
    return make_resolver(names, others)


def thread_of(update: Update) -> int | None:
    """The forum topic an update came from (a command, or the message whose button was pressed); None
    outside topics (General, or a group without topics)."""
    message = update.effective_message
    if message is None or not message.is_topic_message:
        return None
    return message.message_thread_id


def source_key_of(update: Update) -> str:
    """The idempotency key of an update: the message in its chat, or the callback query. A redelivered
    update carries the same one (update ids are not stable across a week of silence)."""
    query = update.callback_query
    if query is not None:
        return f"cbq:{query.id}"
    message, chat = update.effective_message, update.effective_chat
    assert message is not None and chat is not None
    return f"msg:{chat.id}:{message.message_id}"


def text_of(update: Update) -> str:
    """The message text after the command word (`/hu@bot 南 自摸` → `南 自摸`); a press has none."""
    message = update.message  # typed by a person; a button press has no text of its own
    raw = (message.text or message.caption or "") if message else ""
    parts = raw.split(maxsplit=1)
    if parts and parts[0].startswith(COMMAND_PREFIXES):
        return parts[1].strip() if len(parts) > 1 else ""
    return raw.strip()


@dataclass(frozen=True, slots=True)
class Origin:
    """Where a write comes from, explicitly: the chat, who makes it (the ledger records them and the
    permissions ask about them), its idempotency key, its text, and the forum topic replies go to.
    `on_behalf_of` is the chat a message was sent on behalf of: a channel, or the group itself (an anonymous
    admin), with `user` None. Made from an update (`of`), for an entry going on after its question (its own
    recorder, text and key: `Turn.resumed`), or for a page request (bot.handlers.picker)."""

    chat_id: int
    chat_type: str
    user: UserRef | None
    key: str
    text: str = ""
    thread_id: int | None = None
    on_behalf_of: int | None = None

    @classmethod
    def of(cls, update: Update) -> Origin:
        """The origin of an update: its chat, its sender, `source_key_of`, `text_of`, `thread_of`."""
        chat = update.effective_chat
        assert chat is not None
        on_behalf = sender_chat_of(update)
        return cls(
            chat_id=chat.id,
            chat_type=chat.type,
            user=user_ref(update),
            key=source_key_of(update),
            text=text_of(update),
            thread_id=thread_of(update),
            on_behalf_of=on_behalf.id if on_behalf is not None else None,
        )

    @property
    def anonymous_admin(self) -> bool:
        """Sent on behalf of the group itself: an anonymous admin."""
        return self.on_behalf_of == self.chat_id

    @property
    def is_group(self) -> bool:
        return self.chat_type in GROUP_TYPES


def ledger_of(context: ContextTypes.DEFAULT_TYPE) -> Ledger:
    """The ledger service stored by `build_application`."""
    return ledger_in(context.bot_data)


@dataclass
class Turn:
    """One update being handled: the chat's state as read once at its start (group settings and open
    table), the origin of what it writes, and the shared services. `update` is the Telegram update it
    answers (None for a page request: nothing to answer or edit)."""

    update: Update | None
    context: ContextTypes.DEFAULT_TYPE
    state: ChatState
    origin: Origin
    command: str | None = None
    admin: bool | None = field(default=None, repr=False)  # permissions.is_admin's answer, asked once
    _answered: bool = field(default=False, repr=False)

    @classmethod
    async def start(
        cls, update: Update, context: ContextTypes.DEFAULT_TYPE, command: str | None, *, people: bool = False
    ) -> Turn:
        """Read the chat's state (`groups.chat_state`: one read, with the entry a message stored already,
        if any, and, for a command that reads typed names (`people`), the group's players; one write
        instead when the sender is new to the group or changed their name or @username:
        `groups.refresh_sender`) and wrap the update."""
        origin = Origin.of(update)
        ledger, sender = ledger_of(context), origin.user
        entry = pending_id_for(origin.key) if update.message is not None else None
        state = await asyncio.to_thread(
            groups.chat_state, ledger, origin.chat_id, sender, entry=entry, people=people
        )
        if sender is not None and not state.sender_fresh:  # usernames and names refreshed from each update
            state = await asyncio.to_thread(
                groups.refresh_sender, ledger, origin.chat_id, sender, entry=entry, people=people
            )
        return cls(update, context, state, origin, command)

    @classmethod
    async def remembered(
        cls, update: Update, context: ContextTypes.DEFAULT_TYPE, command: str | None
    ) -> Turn:
        """A turn whose handler reads the chat's state in its own write (`button(reads_state=False)`):
        until it does, the group as this process last read it and no session (`Turn.start` when this
        process has not read the group yet)."""
        origin = Origin.of(update)
        group = ledger_of(context).cached_group(origin.chat_id)
        if group is None:
            return await cls.start(update, context, command)
        return cls(update, context, ChatState(group=group, session=None), origin, command)

    def resumed(self, state: ChatState, origin: Origin) -> Turn:
        """This turn going on as another write: an entry after its question is answered goes on in the
        press's chat and message, with the entry's own recorder, text and key (`bot.handlers.questions`)."""
        return replace(self, state=state, origin=origin, admin=None, _answered=self._answered)

    @property
    def lang(self) -> str:
        """The chat's language."""
        return self.state.group.language

    @property
    def session(self) -> SessionInfo | None:
        """The chat's open table when the turn started, or None."""
        return self.state.session

    @property
    def instant(self) -> bool:
        """Whether the group commits entries without a preview."""
        return self.state.group.instant

    @property
    def ledger(self) -> Ledger:
        """The ledger service of the application."""
        return ledger_of(self.context)

    @property
    def settings(self) -> Settings:
        """The application's settings."""
        return settings_in(self.context.bot_data)

    @property
    def chat_id(self) -> int:
        """The chat of the write."""
        return self.origin.chat_id

    @property
    def is_group(self) -> bool:
        """True in a group or supergroup."""
        return self.origin.is_group

    @property
    def user(self) -> UserRef | None:
        """Who makes the write, as a ledger `UserRef` (None: a channel or an anonymous admin)."""
        return self.origin.user

    @property
    def text(self) -> str:
        """The text of the write: the message after the command word (`/hu@bot 南 自摸` → `南 自摸`)."""
        return self.origin.text

    @property
    def source_key(self) -> str:
        """The idempotency key of the write."""
        return self.origin.key

    @property
    def pressed_message(self) -> Message | None:
        """The message whose button was pressed, as Telegram still shows it (None: no press, or too old)."""
        query = self.update.callback_query if self.update is not None else None
        message = query.message if query is not None else None
        return message if isinstance(message, Message) else None

    @property
    def pressed_message_id(self) -> int | None:
        """The message whose button was pressed."""
        query = self.update.callback_query if self.update is not None else None
        return query.message.message_id if query is not None and query.message is not None else None

    def t(self, key: str, /, **params: Any) -> str:
        """A catalog message in this chat's language."""
        return t(self.lang, key, **params)

    def wind(self, seat: object) -> str:
        """A seat letter in this chat's language."""
        return wind(self.lang, seat)

    async def people(self) -> Sequence[Person]:
        """The group's players (whom a typed name may mean, `seat_resolver`): as the turn's start read them
        for a command that asked (`command(people=True)`), else read now."""
        if self.state.people is not None:
            return self.state.people
        return await self.read(groups.people, self.chat_id)

    async def run(self, fn: Callable[P, R], /, *args: P.args, **kwargs: P.kwargs) -> R:
        """Run a blocking ledger/scoring call off the event loop, in the loop's default threads, in a copy of
        the context (`asyncio.to_thread`, the one way a blocking call leaves the loop)."""
        return await asyncio.to_thread(fn, *args, **kwargs)

    async def read(self, fn: Callable[Concatenate[Session, P], R], /, *args: P.args, **kwargs: P.kwargs) -> R:
        """`ledger.read(fn, *args, **kwargs)` off the event loop: one read transaction."""
        return await asyncio.to_thread(self.ledger.read, fn, *args, **kwargs)

    async def write(
        self, key: str | None, fn: Callable[Concatenate[Session, P], R], /, *args: P.args, **kwargs: P.kwargs
    ) -> R:
        """`ledger.write_once(key, fn, *args, **kwargs)` off the event loop: one write transaction,
        idempotent on `key` (None: not)."""
        return await asyncio.to_thread(self.ledger.write_once, key, fn, *args, **kwargs)

    @property
    def on_behalf_of_chat(self) -> bool:
        """Sent on behalf of a chat (a channel, or the group itself), not by a person."""
        return self.origin.on_behalf_of is not None

    @property
    def anonymous_admin(self) -> bool:
        """A message from an anonymous admin: sent on behalf of the group itself."""
        return self.origin.anonymous_admin

    async def say(self, text: str, markup: InlineKeyboardMarkup | None = None) -> Message:
        """Send `text` to the chat (not as a quote, so it survives a deleted command message), through the
        one sender (`bot.sender.send_text`: split at Telegram's bound, the buttons under the last part), in
        the forum topic the update came from."""
        return await send_text(self.context.bot, self.chat_id, text, markup, topic=self.thread_id)

    @property
    def thread_id(self) -> int | None:
        """The forum topic the update came from (`thread_of`), so that every reply stays in it."""
        return self.origin.thread_id

    async def reply(self, key: str, /, markup: InlineKeyboardMarkup | None = None, **params: Any) -> Message:
        """Send a catalog message to the chat."""
        return await self.say(self.t(key, **params), markup)

    async def edit(self, message_id: int, text: str, markup: InlineKeyboardMarkup | None = None) -> None:
        """Edit one of the bot's messages in this chat."""
        await edit_text(self.context.bot, self.chat_id, message_id, text, markup)

    async def answer(self, text: str | None = None, *, alert: bool = False) -> None:
        """Answer the callback query of this turn, once (a toast, or an alert box)."""
        query = self.update.callback_query if self.update is not None else None
        if query is None or self._answered:
            return
        self._answered = True
        try:
            await query.answer(fit(text, ANSWER_LIMIT) if text else None, show_alert=alert)
        except TelegramError:
            log.debug("callback query already answered or too old")

    def require_session(self) -> SessionInfo:
        """The open table of this group (LedgerError NoOpenSession otherwise)."""
        if self.session is None:
            raise NoOpenSession(f"chat {self.chat_id} has no open session", chat_id=self.chat_id)
        return self.session
