"""Who may do what, in one place: `POLICY` says for every change of a table (seat, substitute, record,
confirm, correct, end, change rules, …) which people may make it — seated players, the table's opener,
group admins, anyone — and `require(turn, action, session)` is the one check every command and button
makes (a `Refusal` naming who may). Admins come from getChatMember, asked once per turn."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, Literal

from telegram import ChatMember
from telegram.error import TelegramError

from bot.grammar import vocab
from bot.handlers.turn import Turn
from bot.ledger import SessionInfo, UserRef
from bot.ledger.errors import NotFound
from bot.ledger.play import groups, pending, sessions
from bot.render.errors import Refusal
from scoring import find_pattern

log = logging.getLogger(__name__)

ADMIN_STATUSES = (ChatMember.ADMINISTRATOR, ChatMember.OWNER)
# Commands that only read: the only ones a message sent on behalf of a channel may use.
READ_ONLY = frozenset({"help", "score", "ledger", "history", "stats", "calc", "ting", "unknown"})


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


async def is_admin(turn: Turn) -> bool:
    """Whether the sender is an administrator or the owner of the group (getChatMember, once per turn)."""
    if turn.admin is None:
        user = turn.user
        if turn.on_behalf_of_chat:
            turn.admin = turn.anonymous_admin  # the group itself: an anonymous admin; a channel: no
        elif user is None:
            turn.admin = False
        else:
            try:
                member = await turn.context.bot.get_chat_member(turn.chat_id, user.telegram_id)
                turn.admin = member.status in ADMIN_STATUSES
            except TelegramError as exc:
                log.warning("getChatMember failed in chat %s: %s", turn.chat_id, exc)
                turn.admin = False
    return turn.admin


async def sole_admin(turn: Turn) -> bool:
    """Whether the sender is the group's only administrator (bots aside): getChatAdministrators. A
    failure of Telegram's answers False (another admin may be there)."""
    user = turn.user
    if user is None or not await is_admin(turn):
        return False
    try:
        members = await turn.context.bot.get_chat_administrators(turn.chat_id)
    except TelegramError as exc:
        log.warning("getChatAdministrators failed in chat %s: %s", turn.chat_id, exc)
        return False
    return not [m for m in members if not m.user.is_bot and m.user.id != user.telegram_id]


def is_seated(turn: Turn, session: SessionInfo) -> bool:
    """Whether the sender holds a seat at the table."""
    user = turn.user
    if user is None:
        return False
    return any(p.telegram_id == user.telegram_id for p in session.seats.values())


async def is_opener(turn: Turn, session: SessionInfo) -> bool:
    """Whether the sender opened the table (a person, never a chat)."""
    user = turn.user
    if session.opened_by is None or user is None:
        return False
    opener = await turn.read(groups.get_player, session.opened_by)
    return opener.telegram_id is not None and opener.telegram_id == user.telegram_id


def person(turn: Turn) -> UserRef:
    """The sender as a player who can take a seat: not a channel, not an anonymous admin (Refusal)."""
    user = turn.user
    if user is None:
        raise Refusal("err.anonymous_no_seat" if turn.anonymous_admin else "err.channel_sender")
    return user


async def require_guest_seater(turn: Turn, session: SessionInfo, name: str) -> None:
    """A guest is seated by whom `POLICY["seat_guest"]` names, under a name that is no word of /hu."""
    if is_grammar_word(name):
        raise Refusal("err.guest_grammar_word", name=name)
    await require(turn, "seat_guest", session)


Role = Literal["anyone", "seated", "opener", "admin"]
Action = Literal[
    "seat",
    "seat_guest",
    "move",
    "dealer",
    "substitute",
    "roll",
    "record",
    "confirm",
    "correct",
    "end",
    "rules",
    "language",
    "schedule",
    "season",
]


@dataclass(frozen=True, slots=True)
class Permission:
    """Who may make one kind of change, and the refusal (catalog key) everyone else gets."""

    roles: tuple[Role, ...]
    refusal: str


SEATED_OR_ADMIN: tuple[Role, ...] = ("seated", "admin")
POLICY: dict[Action, Permission] = {
    "seat": Permission(("anyone",), "err.not_allowed"),  # /join, Join: a person takes a free seat
    "seat_guest": Permission(("seated", "opener", "admin"), "err.not_allowed_guest"),  # /join <guest>
    "move": Permission(SEATED_OR_ADMIN, "err.not_allowed"),  # /seat <player> <seat>
    "dealer": Permission(SEATED_OR_ADMIN, "err.not_allowed"),  # /dealer, the dealer buttons
    "substitute": Permission(SEATED_OR_ADMIN, "err.not_allowed_sub"),  # /sub, with or without a name
    "roll": Permission(SEATED_OR_ADMIN, "err.not_allowed"),  # /roll
    "record": Permission(SEATED_OR_ADMIN, "err.not_allowed"),  # /hu /draw /escape /adjust, /hu buttons
    "confirm": Permission(SEATED_OR_ADMIN, "err.not_allowed"),  # Confirm / Cancel (and `confirm_by`)
    "correct": Permission(SEATED_OR_ADMIN, "err.not_allowed"),  # /undo /edit
    "end": Permission(SEATED_OR_ADMIN, "err.not_allowed"),  # /end and its buttons
    "rules": Permission(("opener", "admin"), "err.not_allowed_rules"),  # /rules and its buttons
    "language": Permission(SEATED_OR_ADMIN, "err.not_allowed"),  # /lang while a table is open
    "schedule": Permission(("admin",), "jobs.schedule_admins_only"),  # /schedule weekly|off
    "season": Permission(("admin",), "season.admins_only"),  # /season close and its Confirm
}


async def may(turn: Turn, action: Action, session: SessionInfo | None) -> bool:
    """Whether the sender may make this change at this table (`POLICY`)."""
    for role in POLICY[action].roles:
        if role == "anyone":
            return True
        if role == "seated" and session is not None and is_seated(turn, session):
            return True
        if role == "opener" and session is not None and await is_opener(turn, session):
            return True
        if role == "admin" and await is_admin(turn):
            return True
    return False


def table_allows(action: Action, session: SessionInfo) -> list[int]:
    """The Telegram ids of the people the table alone lets make this change (`POLICY`'s "seated"): stored
    with an entry waiting for Confirm, so that its press is checked against data in the press's one write
    (anyone else is asked of Telegram first: an admin presses again, `as_admin`). A table that changes
    after (a /sub, a hand) makes the entry stale, so the ids never outlive the table they were read from."""
    if "seated" not in POLICY[action].roles:
        return []
    return sorted({p.telegram_id for p in session.seats.values() if p.telegram_id is not None})


async def require(turn: Turn, action: Action, session: SessionInfo | None, **params: Any) -> None:
    """The one permission check: the sender may make this change (`POLICY`), else its Refusal."""
    if not await may(turn, action, session):
        raise Refusal(POLICY[action].refusal, **params)


async def writable_session(turn: Turn, action: Action = "record") -> SessionInfo:
    """The open table, and the sender may make this change to it."""
    session = turn.require_session()
    await require(turn, action, session)
    return session


async def own_session(turn: Turn, session_id: int) -> SessionInfo | None:
    """The open table a button names (None for 0: a button shown while no table was open), which must
    be this chat's open table: a button of an older table of this chat has expired, one of another
    chat's table is refused (a forged press) and changes nothing."""
    if session_id == (turn.session.id if turn.session else 0):
        return turn.session
    if session_id:
        try:
            named = await turn.read(sessions.get_session, session_id)
        except NotFound:
            named = None
        if named is None or named.chat_id != turn.chat_id:
            raise Refusal("err.foreign_button")
    raise Refusal("err.flow_stale")


async def refuse_own_entry(turn: Turn, pending_id: str) -> None:
    """`confirm_by other`: the one who recorded an entry may not confirm it (Refusal; NotFound). An entry
    with no recorder (an anonymous admin's, from before the setting) is confirmed by a player who is no
    admin, since any admin may have sent it."""
    entry = await turn.read(pending.get_pending, pending_id)
    if entry.created_by is None:
        if await is_admin(turn):
            raise Refusal("err.confirm_by_other")
        return
    if turn.user is None:
        return
    recorder = await turn.read(groups.get_player, entry.created_by)
    if recorder.telegram_id == turn.user.telegram_id:
        raise Refusal("err.confirm_by_other")
