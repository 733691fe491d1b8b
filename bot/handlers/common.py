"""What every handler shares: the `Turn` (one update, started from one read of the chat's state), refusals,
permissions, error text, and the decorators that turn handlers into PTB callbacks."""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable, Coroutine, Mapping
from dataclasses import dataclass, field
from typing import Any, ParamSpec, TypeVar

from telegram import Chat, ChatMember, InlineKeyboardMarkup, Message, Update
from telegram.error import BadRequest, TelegramError
from telegram.ext import ContextTypes

from bot.grammar import make_resolver, vocab
from bot.grammar.errors import EXCERPT, GrammarError
from bot.i18n import has, t
from bot.ledger import ChatState, LedgerService, SessionInfo, UserRef
from bot.ledger.errors import ForeignButton, LedgerError, NoOpenSession, NotFound, Repeated
from bot.render import MESSAGE_LIMIT, join_words, refusal_text, rules_name, split_messages, term_name, wind
from bot.settings import Settings
from scoring import find_pattern
from scoring.errors import ScoringError
from scoring.tiles import parse_tiles, rank, suit

log = logging.getLogger(__name__)

P = ParamSpec("P")
R = TypeVar("R")
T = TypeVar("T")
GROUP_TYPES = (Chat.GROUP, Chat.SUPERGROUP)
ADMIN_STATUSES = (ChatMember.ADMINISTRATOR, ChatMember.OWNER)
# Commands that only read: the only ones a message sent on behalf of a channel may use.
READ_ONLY = frozenset({"help", "score", "ledger", "history", "stats", "calc", "ting", "unknown"})
QUOTED = ("value", "token", "command", "option", "word", "ref")  # params that echo what a user typed
ANSWER_LIMIT = 200  # Telegram shows at most 200 characters of a button's answer
COMMAND_PREFIXES = ("/", "／")  # a full-width slash is what Chinese input methods type


def excerpt(text: object, limit: int = EXCERPT) -> str:
    """At most `limit` characters of something a user typed, "…" marking a cut."""
    text = str(text)
    return text if len(text) <= limit else text[:limit] + "…"


def fit(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """One message's text cut to Telegram's bound (for edits, which cannot be split)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


class Refusal(Exception):
    """A user-facing refusal: a catalog key and its params; nothing was recorded.

    With `usage=True` the reply ends with the command's usage line and example.
    """

    def __init__(self, key: str, /, *, usage: bool = False, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.usage = usage
        self.params = {k: excerpt(v) if k in (*QUOTED, "name") else v for k, v in params.items()}


def ledger_params(lang: str | None, params: Mapping[str, Any]) -> dict[str, Any]:
    """Ledger error params made printable: seats as wind names, lists joined, reasons per winner."""
    out: dict[str, Any] = {
        k: excerpt(v) if k in QUOTED else excerpt(v, 64) if isinstance(v, str) else v
        for k, v in params.items()
    }
    if "seat" in params:
        out["wind"] = wind(lang, params["seat"])
    if "empty" in params:
        empty = list(params["empty"])
        out["missing"] = len(empty)
        out["seats"] = join_words(lang, [wind(lang, s) for s in empty])
    if "names" in params:
        out["names"] = join_words(lang, [str(n) for n in params["names"]])
    if "reasons" in params:
        out["reasons"] = ("; " if lang == "en" else "；").join(
            refusal_text(lang, r) for r in params["reasons"]
        )
    if "field" in params:
        out["field"] = field_name(lang, params["field"])
    out.setdefault("who", out.get("name") or (wind(lang, params["seat"]) if "seat" in params else ""))
    return out


def tile_words(lang: str | None, shorthand: object) -> str:
    """Tiles by name: `9p` → 九筒, `555p` → 五筒×3, `[56p]` → 五筒、六筒, `1z` → 东 (東, East); text that is
    no tiles comes back as typed (cut short).

    >>> tile_words("zh-Hans", "9p"), tile_words("zh-Hant", "[555p]"), tile_words("en", "1z")
    ('九筒', '五筒×3', 'East')
    """
    text = str(shorthand).strip().strip("[]()【】（）").split(":")[0]
    try:
        tiles = parse_tiles(text)
    except ScoringError:
        return excerpt(text)
    if not tiles:
        return excerpt(text)
    # The names come from the catalog (`tiles.*`): ranks, one word per suit, the honours 1z–7z.
    ranks, honours = t(lang, "tiles.ranks").split(), t(lang, "tiles.honours").split()

    def name(tile: int) -> str:
        letter = suit(tile)
        if letter is None:
            return honours[rank(tile) - 1]
        return t(lang, f"tiles.rank_{letter}", rank=ranks[rank(tile) - 1])

    if len(set(tiles)) == 1:
        return name(tiles[0]) + (f"×{len(tiles)}" if len(tiles) > 1 else "")
    return (", " if lang == "en" else "、").join(name(tile) for tile in tiles)


def field_name(lang: str | None, field: object) -> str:
    """A request field in words: `wins[0].declared.hard_flowers` → 硬花数 (its last part, `field.<name>`);
    a field the catalog does not name reads "this value"."""
    last = str(field or "").rsplit(".", 1)[-1].split("[", 1)[0]
    key = f"field.{last}"
    return t(lang, key if last and has(key) else "field.value")


def _term_or_flag(lang: str | None, name: object) -> str:
    """A flag (`after_kong` → 杠开), a pattern by id or by name (`qingyise`, 清一色 → 清一色 / 清一色 /
    Full flush) or a condition (`self_draw` → 自摸) in words; other text as typed."""
    for key in (f"flag.{name}", f"need.{name}"):
        if has(key):
            return t(lang, key)
    pattern = find_pattern(str(name))
    return term_name(lang, pattern.id if pattern is not None else str(name), excerpt(name))


def _need(lang: str | None, need: object) -> str:
    key = f"need.{need}"
    if has(key):
        return t(lang, key)
    flag = f"flag.{need}"
    return t(lang, flag) if has(flag) else t(lang, "need.other")


def scoring_params(lang: str | None, params: Mapping[str, Any]) -> dict[str, Any]:
    """A ScoringError's params made printable in `lang`: tiles by name, flags, patterns and fields in
    words, typed text cut short."""
    out: dict[str, Any] = {k: excerpt(v) if isinstance(v, str) else v for k, v in params.items()}
    for key in ("tile", "meld"):
        if key in params:
            out[key] = tile_words(lang, params[key])
    for key in ("flag", "other", "pattern"):
        if key in params:
            out[key] = _term_or_flag(lang, params[key])
    if "needs" in params:
        out["needs"] = _need(lang, params["needs"])
    if "rules" in params:
        rules = str(params["rules"])
        out["rules"] = rules_name(lang, rules) if has(f"rules_name.{rules}") else excerpt(rules)
    if "field" in params:
        out["field"] = field_name(lang, params["field"])
    if "option" in params:
        key = f"option.{params['option']}.name"
        out["option"] = t(lang, key) if has(key) else excerpt(params["option"])
    if "wind" in params:
        out["wind"] = (
            wind(lang, params["wind"]) if str(params["wind"]) in "ESWN" else tile_words(lang, params["wind"])
        )
    named = "field" in params and field_name(None, params["field"]) != field_name(None, "")
    out["where"] = t(lang, "scoring.where", field=out["field"]) if named else ""
    return out


def scoring_text(lang: str | None, error: ScoringError) -> str:
    """What is wrong with a hand or a request, in the group's language: catalog `scoring.<code>` with the
    error's params; the English message never reaches a group."""
    code = getattr(error, "code", "invalid")
    params = getattr(error, "params", None) or {}
    if code == "pattern_conflict" and params.get("other") in ("self_draw", "hua"):
        code = "pattern_self_draw" if params["other"] == "self_draw" else "pattern_no_hua"
    if code == "pattern_rules" and "option" not in params:
        code = "pattern_rules_set"  # the pattern does not score in this rule set at all
    key = f"scoring.{code}" if has(f"scoring.{code}") else "scoring.invalid"
    if key == "scoring.invalid" and code != "invalid":
        log.warning("no catalog text for scoring error %r (%s)", code, error)
    return t(lang, key, **scoring_params(lang, params))


def _scoring_cause(error: BaseException) -> ScoringError | None:
    """The ScoringError behind a grammar or ledger error (its chained cause), if any."""
    seen: set[int] = set()
    cause = error.__cause__
    while cause is not None and id(cause) not in seen:
        if isinstance(cause, ScoringError):
            return cause
        seen.add(id(cause))
        cause = cause.__cause__
    return None


def error_text(lang: str | None, error: BaseException, usage_key: str | None = None) -> str:
    """The reply for an error a user caused: refusal, grammar, ledger or scoring error, every one in the
    group's language (a scoring error behind a grammar or ledger error through `scoring.<code>`)."""
    usage = False
    cause = _scoring_cause(error)
    if isinstance(error, Refusal):
        text, usage = t(lang, error.key, **error.params), error.usage
    elif isinstance(error, GrammarError):
        key = f"grammar.{error.code}"
        params = dict(error.params)
        if cause is not None and "reason" in params:
            params["reason"] = scoring_text(lang, cause)
        text = t(lang, key, **params) if has(key, lang or "") else str(error)
        usage = True
    elif isinstance(error, LedgerError):
        key = f"ledger.{error.code}"
        params = ledger_params(lang, error.params)
        if key == "ledger.invalid_entry":
            params["detail"] = scoring_text(lang, cause or ScoringError("invalid entry"))
        if has(key, lang or ""):
            text = t(lang, key, **params)
        else:
            text = t(lang, "ledger.error", message=excerpt(error, 300))
    elif isinstance(error, ScoringError):
        text = t(lang, "err.scoring", message=scoring_text(lang, error))
    else:
        raise TypeError(f"not a user error: {error!r}")
    if usage and usage_key:
        return t(lang, "err.usage", problem=text, usage=t(lang, usage_key))
    return text


USER_ERRORS = (Refusal, GrammarError, LedgerError, ScoringError)


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


def is_grammar_word(word: str) -> bool:
    """Whether `word` means something in /hu (自摸, 冲, 混子, 杠开, 5花, 清一色, 123m …): a guest called
    that could never be named there."""
    folded = word.casefold()
    return (
        vocab.is_vocabulary(word)
        or folded in vocab.TABLE_STATE_WORDS
        or folded in vocab.FILLER_WORDS
        or vocab.parse_hua(word) is not None
        or vocab.looks_like_tiles(word)
        or find_pattern(word) is not None
    )


def seat_resolver(session: SessionInfo) -> Callable[[str], str | None]:
    """The grammar's `resolve(word) -> seat | None` over the seated table, in memory: E/S/W/N, 东南西北/東,
    @username, or a seated player's name (case-insensitive)."""
    names = {
        seat: [player.name, *([f"@{player.username}"] if player.username else [])]
        for seat, player in session.seats.items()
    }
    return make_resolver(names)


def ledger_of(context: ContextTypes.DEFAULT_TYPE) -> LedgerService:
    """The ledger service stored by `build_application`."""
    ledger = context.bot_data["ledger"]
    assert isinstance(ledger, LedgerService)
    return ledger


@dataclass
class Turn:
    """One update being handled: the chat's state as read once at its start (group settings and open
    table), the sender, and the shared services."""

    update: Update
    context: ContextTypes.DEFAULT_TYPE
    state: ChatState
    command: str | None = None
    _admin: bool | None = field(default=None, repr=False)
    _answered: bool = field(default=False, repr=False)

    @classmethod
    async def start(cls, update: Update, context: ContextTypes.DEFAULT_TYPE, command: str | None) -> Turn:
        """Read the chat's state (`ledger.chat_state`: one read) and wrap the update."""
        chat = update.effective_chat
        assert chat is not None
        state = await asyncio.to_thread(ledger_of(context).chat_state, chat.id)
        return cls(update, context, state, command)

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
    def ledger(self) -> LedgerService:
        """The ledger service of the application."""
        return ledger_of(self.context)

    @property
    def settings(self) -> Settings:
        """The application's settings."""
        settings = self.context.bot_data["settings"]
        assert isinstance(settings, Settings)
        return settings

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
        if parts and parts[0].startswith(COMMAND_PREFIXES):
            return parts[1].strip() if len(parts) > 1 else ""
        return raw.strip()

    @property
    def source_key(self) -> str:
        """The idempotency key of this update: the message in its chat, or the callback query. A redelivered
        update carries the same one (update ids are not stable across a week of silence)."""
        query = self.update.callback_query
        if query is not None:
            return f"cbq:{query.id}"
        message = self.update.effective_message
        assert message is not None
        return f"msg:{self.chat_id}:{message.message_id}"

    @property
    def pressed_message_id(self) -> int | None:
        """The message whose button was pressed."""
        query = self.update.callback_query
        return query.message.message_id if query is not None and query.message is not None else None

    def t(self, key: str, /, **params: Any) -> str:
        """A catalog message in this chat's language."""
        return t(self.lang, key, **params)

    def wind(self, seat: object) -> str:
        """A seat letter in this chat's language."""
        return wind(self.lang, seat)

    async def run(self, fn: Callable[P, R], /, *args: P.args, **kwargs: P.kwargs) -> R:
        """Run a blocking ledger/scoring call off the event loop."""
        return await asyncio.to_thread(fn, *args, **kwargs)

    @property
    def sender_chat(self) -> Chat | None:
        """The chat this message was sent on behalf of (a channel, or the group itself), else None."""
        return sender_chat_of(self.update)

    @property
    def anonymous_admin(self) -> bool:
        """A message from an anonymous admin: sent on behalf of the group itself."""
        chat = self.sender_chat
        return chat is not None and chat.id == self.chat_id

    async def say(self, text: str, markup: InlineKeyboardMarkup | None = None) -> Message:
        """Send `text` to the chat (not as a quote, so it survives a deleted command message). Every reply
        goes through here: a text over Telegram's bound goes out as several messages, split at line ends,
        the buttons under the last; that last one is returned."""
        chunks = split_messages(text.split("\n")) if len(text) > MESSAGE_LIMIT else [text]
        for chunk in chunks[:-1]:
            await self.context.bot.send_message(self.chat_id, chunk)
        return await self.context.bot.send_message(self.chat_id, chunks[-1], reply_markup=markup)

    async def reply(self, key: str, /, markup: InlineKeyboardMarkup | None = None, **params: Any) -> Message:
        """Send a catalog message to the chat."""
        return await self.say(self.t(key, **params), markup)

    async def edit(self, message_id: int, text: str, markup: InlineKeyboardMarkup | None = None) -> None:
        """Edit one of the bot's messages in this chat."""
        await self.context.bot.edit_message_text(
            fit(text), chat_id=self.chat_id, message_id=message_id, reply_markup=markup
        )

    async def answer(self, text: str | None = None, *, alert: bool = False) -> None:
        """Answer the callback query of this turn, once (a toast, or an alert box)."""
        query = self.update.callback_query
        if query is None or self._answered:
            return
        self._answered = True
        try:
            await query.answer(fit(text, ANSWER_LIMIT) if text else None, show_alert=alert)
        except TelegramError:
            log.debug("callback query already answered or too old")

    async def is_admin(self) -> bool:
        """Whether the sender is an administrator or the owner of the group (getChatMember, once per turn)."""
        if self._admin is None:
            user = self.update.effective_user
            if self.sender_chat is not None:
                self._admin = self.anonymous_admin  # the group itself: an anonymous admin; a channel: no
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
        if user is None or self.sender_chat is not None:
            return False
        return any(p.telegram_id == user.id for p in session.seats.values())

    async def is_opener(self, session: SessionInfo) -> bool:
        """Whether the sender opened the table (a person, never a chat)."""
        user = self.update.effective_user
        if session.opened_by is None or user is None or self.sender_chat is not None:
            return False
        opener = await self.run(self.ledger.get_player, session.opened_by)
        return opener.telegram_id is not None and opener.telegram_id == user.id

    def person(self) -> UserRef:
        """The sender as a player who can take a seat: not a channel, not an anonymous admin (Refusal)."""
        user = self.user
        if user is None:
            raise Refusal("err.anonymous_no_seat" if self.anonymous_admin else "err.channel_sender")
        return user

    async def require_guest_seater(self, session: SessionInfo, name: str) -> None:
        """A guest is seated by the table's opener, a seated player or an admin, under a name that is no
        word of /hu (Refusal)."""
        if is_grammar_word(name):
            raise Refusal("err.guest_grammar_word", name=name)
        if self.is_seated(session) or await self.is_opener(session) or await self.is_admin():
            return
        raise Refusal("err.not_allowed_guest")

    async def require_writer(self, session: SessionInfo | None) -> None:
        """Writes are for seated players and group admins (Refusal otherwise)."""
        if session is not None and self.is_seated(session):
            return
        if await self.is_admin():
            return
        raise Refusal("err.not_allowed")

    def require_session(self) -> SessionInfo:
        """The open table of this group (LedgerError NoOpenSession otherwise)."""
        if self.session is None:
            raise NoOpenSession(f"chat {self.chat_id} has no open session", chat_id=self.chat_id)
        return self.session

    async def writable_session(self) -> SessionInfo:
        """The open table, and the sender may write to it."""
        session = self.require_session()
        await self.require_writer(session)
        return session

    async def own_session(self, session_id: int) -> SessionInfo | None:
        """The open table a button names (None for 0: a button shown while no table was open), which must
        be this chat's open table: a button of an older table of this chat has expired, one of another
        chat's table is refused (a forged press) and changes nothing."""
        if session_id == (self.session.id if self.session else 0):
            return self.session
        if session_id:
            try:
                named = await self.run(self.ledger.get_session, session_id)
            except NotFound:
                named = None
            if named is None or named.chat_id != self.chat_id:
                raise Refusal("err.foreign_button")
        raise Refusal("err.flow_stale")


Handler = Callable[[Update, ContextTypes.DEFAULT_TYPE], Coroutine[Any, Any, None]]  # what PTB's handlers take


def command(name: str, *, group_only: bool = True) -> Callable[[Callable[[Turn], Awaitable[None]]], Handler]:
    """Wrap `async def handler(turn)` as a PTB callback: the chat's state, group check, and every user
    error (refusal, grammar, ledger, scoring) turned into one short reply; a command already applied (a
    redelivered update) is silent; nothing else is swallowed."""

    def decorate(fn: Callable[[Turn], Awaitable[None]]) -> Handler:
        @functools.wraps(fn)
        async def callback(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
            if update.effective_chat is None:
                return
            turn = await Turn.start(update, context, name)
            try:
                if group_only and not turn.is_group:
                    raise Refusal("err.group_only")
                if turn.sender_chat is not None and not turn.anonymous_admin and name not in READ_ONLY:
                    raise Refusal("err.channel_sender")  # a channel is never a player and may not write
                await fn(turn)
            except Repeated:
                log.info("%s already applied: nothing to do", turn.source_key)
            except USER_ERRORS as error:
                await turn.say(error_text(turn.lang, error, f"usage.{name}"))

        return callback

    return decorate


def button(parse: Callable[[object], T | None]) -> Callable[[Callable[[Turn, T], Awaitable[None]]], Handler]:
    """Wrap `async def on_press(turn, data)` for a button whose callback data `parse` reads (None: not a
    button this bot made, or no longer understood: "expired"). Every user error becomes a short answer on
    the button (an alert); the query is always answered, also when the pressed message cannot be edited
    (a photo, a message too old): that press has expired."""

    def decorate(fn: Callable[[Turn, T], Awaitable[None]]) -> Handler:
        @functools.wraps(fn)
        async def callback(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
            query = update.callback_query
            if query is None or update.effective_chat is None:
                return
            turn = await Turn.start(update, context, None)
            data = parse(query.data)
            try:
                if data is None:
                    raise Refusal("err.flow_stale")
                await fn(turn, data)
            except ForeignButton:
                await turn.answer(turn.t("err.foreign_button"), alert=True)
            except Repeated:
                log.info("%s already applied: nothing to do", turn.source_key)
            except USER_ERRORS as error:
                await turn.answer(error_text(turn.lang, error), alert=True)
            except BadRequest as exc:  # the pressed message cannot show the next step (a photo, deleted)
                log.info("press %s on a message that cannot be edited: %s", turn.source_key, exc)
                await turn.answer(turn.t("err.flow_stale"), alert=True)
            finally:
                await turn.answer()

        return callback

    return decorate
