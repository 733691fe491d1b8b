"""Groups and players: a chat's settings, its players (Telegram users and named guests), finding one."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, TypeVar
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sqlalchemy import bindparam, false, func, or_, update
from sqlalchemy import select as select_columns  # Core: rows of columns, no ORM objects
from sqlmodel import Session, col, select

import scoring
from bot.i18n import LANGUAGES
from bot.ledger import errors
from bot.ledger.options import BY_ID
from bot.ledger.storage.mappers import group_info, pending_info, player_info, session_info
from bot.ledger.storage.models import ChatGroup, Player, TableSession
from bot.ledger.storage.rows import (
    PLAYER,
    chat_of,
    group_and_table,
    group_row,
    open_session_row,
    pending_row,
    row_id,
    seats,
)
from bot.ledger.storage.store import Defaults, Ledger
from bot.ledger.values import ChatState, GroupInfo, Person, PlayerInfo, UserRef
from bot.names import answers_to, invisible, named, normalise
from scoring.rules import RuleSetId, as_rule_set_id
from scoring.seats import Seat, parse_seat

T = TypeVar("T")
WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")


def ensure_group(s: Session, chat_id: int, defaults: Defaults, now: datetime) -> ChatGroup:
    """The chat's group row, created with the defaults on first use."""
    group = group_row(s, chat_id)
    if group is None:
        group = defaults.group(chat_id, now)
        s.add(group)
        s.flush()
    return group


@dataclass(frozen=True, slots=True)
class Loaded:
    """What `chat_state` read, for a write that goes on in the same transaction: the group, its open
    session and the seated players."""

    group: ChatGroup | None
    table: TableSession | None
    seated: dict[Seat, Any]


def chat_state(
    ledger: Ledger,
    chat_id: int,
    sender: UserRef | None = None,
    *,
    entry: str | None = None,
    people: bool = False,
) -> ChatState:
    """The group's settings (defaults when not stored yet; nothing is written), its open session,
    whether `sender` is stored as they are now (else `refresh_sender`), the pending entry `entry` (an
    id) if it is stored, and (`people`) every player of the group: one read."""
    now = ledger.now()
    state = ledger.read(table_state, chat_id, ledger.defaults, now, sender, entry, people=people)[0]
    ledger.remember_group(state.group)
    return state


def refresh_sender(
    ledger: Ledger, chat_id: int, sender: UserRef, *, entry: str | None = None, people: bool = False
) -> ChatState:
    """`chat_state` after storing the sender as they are now (`ensure_player`), in one write."""
    now = ledger.now()

    def op(s: Session) -> ChatState:
        ensure_player(s, ensure_group(s, chat_id, ledger.defaults, now), sender, now)
        s.flush()
        return table_state(s, chat_id, ledger.defaults, now, None, entry, people=people)[0]

    state = ledger.write(op)
    ledger.remember_group(state.group)
    return state


def table_state(
    s: Session,
    chat_id: int,
    defaults: Defaults,
    now: datetime,
    sender: UserRef | None = None,
    entry: str | None = None,
    *,
    lock: bool = False,
    people: bool = False,
) -> tuple[ChatState, Loaded]:
    """The group's settings (the defaults when it is not stored yet), its open session, whether the sender
    is stored as they are now (`ensure_player` refreshes them), the pending entry `entry` (an id) if it is
    stored, and (`people`) every player of the group (`group_people`). The group and the session come
    back too (`Loaded`: a write goes on with them; `lock`: the session locked for update)."""
    group, ts = group_and_table(s, chat_id, lock=lock)
    if group is None:
        shown = group_info(defaults.group(chat_id, now))
        state = ChatState(group=shown, session=None, people=() if people else None)
        return state, Loaded(None, None, {})
    seated = seats(s, row_id(ts)) if ts is not None else {}
    fresh = sender is None or _stored_as(s, group, sender, seated)
    waiting = pending_row(s, entry) if entry is not None else None
    state = ChatState(
        group=group_info(group),
        session=session_info(s, ts, chat_id, seated) if ts is not None else None,
        sender_fresh=fresh,
        entry=pending_info(waiting, chat_id) if waiting is not None else None,
        people=tuple(group_people(s, row_id(group))) if people else None,
    )
    return state, Loaded(group, ts, seated)


def _stored_as(s: Session, group: ChatGroup, user: UserRef, seated: dict[Seat, Any]) -> bool:
    """Whether the group stores this user with their name and @username, and nobody else holds it: told by
    the seated players when the user is one of them (whoever took an @username took it from everyone
    else, `ensure_player`), else read."""
    name, username = _name_of(user)
    sitting = next((p for p in seated.values() if p.telegram_id == user.telegram_id), None)
    if sitting is not None:
        return (sitting.username, sitting.display_name) == (username, name)
    query = select(Player.telegram_id, Player.username, Player.display_name).where(
        Player.group_id == group.id,
        or_(col(Player.telegram_id) == user.telegram_id, _same_username(username)),
    )
    return [tuple(row) for row in s.execute(query)] == [(user.telegram_id, username, name)]


def _same_username(username: str | None) -> Any:
    """Players whose @username is this one, in any case (no one when None)."""
    if username is None:
        return false()
    return func.lower(Player.username) == username.lower()


def _name_of(user: UserRef) -> tuple[str, str | None]:
    """The display name and @username (without "@") a user is stored under."""
    name = clean_name(user.display_name) or (user.username or str(user.telegram_id))
    return name, user.username.lstrip("@") if user.username else None


def resolve_rules(name: str) -> str:
    """A rule-set id from 苏州/蘇州/宿州 or an id (InvalidValue)."""
    try:
        return str(scoring.resolve_rules(name))
    except scoring.ScoringError as exc:
        raise errors.InvalidValue(str(exc), field="rules", value=name) from exc


def validate_options(rules: RuleSetId, options: dict[str, Any]) -> dict[str, Any]:
    """Options checked and normalized by the scoring core (InvalidValue)."""
    try:
        return dict(scoring.validate_options(rules, options))
    except scoring.ScoringError as exc:
        raise errors.InvalidValue(str(exc), field="options", value=repr(options)) from exc


def check_settings(
    language: str | None,
    confirm_timeout_seconds: int | None,
    weekly_day: str | None,
    weekly_time: str | None,
    timezone: str | None,
    confirm_by: str | None = None,
) -> None:
    """InvalidValue for a setting out of range, before any transaction."""
    if confirm_by is not None and not BY_ID["confirm_by"].allows(confirm_by):
        raise errors.InvalidValue(
            f"confirm_by must be one of {BY_ID['confirm_by'].bounds}", field="confirm_by", value=confirm_by
        )
    if language is not None and language not in LANGUAGES:
        raise errors.InvalidValue(
            f"unknown language {language!r} (use {', '.join(LANGUAGES)})", field="language", value=language
        )
    if confirm_timeout_seconds is not None and not BY_ID["timeout"].allows(confirm_timeout_seconds):
        raise errors.InvalidValue(
            f"confirmation timeout must be {BY_ID['timeout'].bounds} seconds, got {confirm_timeout_seconds}",
            field="confirm_timeout_seconds",
            value=confirm_timeout_seconds,
        )
    if weekly_day is not None and weekly_day not in WEEKDAYS:
        raise errors.InvalidValue(f"weekday must be one of {WEEKDAYS}", field="weekly_day", value=weekly_day)
    if weekly_time is not None:
        hour, _, minute = weekly_time.partition(":")
        if not (hour.isdigit() and minute.isdigit() and int(hour) < 24 and int(minute) < 60):
            raise errors.InvalidValue("time must be HH:MM", field="weekly_time", value=weekly_time)
    if timezone is not None:
        try:
            ZoneInfo(timezone)
        except (ZoneInfoNotFoundError, ValueError) as exc:
            raise errors.InvalidValue(
                f"unknown time zone {timezone!r}", field="timezone", value=timezone
            ) from exc


def update_group(
    ledger: Ledger,
    chat_id: int,
    *,
    language: str | None = None,
    rules: RuleSetId | None = None,
    options: dict[str, Any] | None = None,
    instant: bool | None = None,
    confirm_timeout_seconds: int | None = None,
    weekly_schedule: bool | None = None,
    weekly_day: str | None = None,
    weekly_time: str | None = None,
    weekly_last_post_at: datetime | None = None,
    timezone: str | None = None,
    confirm_by: str | None = None,
    key: str | None = None,
) -> GroupInfo:
    """Change group settings. `rules` accepts 苏州/蘇州/宿州 and ids (the options reset); `options` are
    merged into the group's and validated by the scoring core. The open session is not changed."""
    check_settings(language, confirm_timeout_seconds, weekly_day, weekly_time, timezone, confirm_by)
    changes: dict[str, Any] = {
        "language": language,
        "rules": resolve_rules(rules) if rules is not None else None,
        "options": options,
        "instant": instant,
        "confirm_timeout_seconds": confirm_timeout_seconds,
        "weekly_schedule": weekly_schedule,
        "weekly_day": weekly_day,
        "weekly_time": weekly_time,
        "weekly_last_post_at": weekly_last_post_at,
        "timezone": timezone,
        "confirm_by": confirm_by,
    }
    now = ledger.now()

    def op(s: Session) -> GroupInfo:
        return apply_settings(s, ensure_group(s, chat_id, ledger.defaults, now), dict(changes))

    info = ledger.write_once(key, op)
    ledger.remember_group(info)
    return info


def list_groups(s: Session, *, weekly_schedule: bool | None = None) -> list[GroupInfo]:
    """Every group, optionally only those with the weekly-schedule flag set (or unset)."""
    query = select(ChatGroup).order_by(col(ChatGroup.id))
    if weekly_schedule is not None:
        query = query.where(ChatGroup.weekly_schedule == weekly_schedule)
    return [group_info(g) for g in s.scalars(query)]


def apply_settings(s: Session, group: ChatGroup, changes: dict[str, Any]) -> GroupInfo:
    """Apply checked settings to a group row: `rules` resets the options, `options` merge and validate."""
    rules = changes.pop("rules", None)
    options = changes.pop("options", None)
    if rules is not None and rules != group.rules:
        group.rules = rules
        group.options = {}
    if options is not None:
        merged = {**group.options, **options}
        normalized = validate_options(as_rule_set_id(group.rules), merged)
        group.options = {key: normalized[key] for key in merged}
    for name, value in changes.items():
        if value is not None:
            setattr(group, name, value)
    s.add(group)
    s.flush()
    return group_info(group)


def claim_weekly(s: Session, chat_id: int, due: datetime, now: datetime) -> bool:
    """Compare-and-set of the weekly post: True for exactly one caller per due time."""
    result = s.exec(
        update(ChatGroup)
        .where(
            col(ChatGroup.chat_id) == chat_id,
            col(ChatGroup.weekly_schedule).is_(True),
            or_(col(ChatGroup.weekly_last_post_at).is_(None), col(ChatGroup.weekly_last_post_at) < due),
        )
        .values(weekly_last_post_at=now)
    )
    return bool(result.rowcount)


# ---- players ---------------------------------------------------------------------------------------------


def clean_name(name: str) -> str:
    """A name as it is compared and shown (`names.normalise`: NFKC, nothing invisible), white space
    folded, at most 128 characters."""
    return " ".join(normalise(name).split())[:128]


_PLAYER_OF_USER = select(Player).where(
    Player.group_id == bindparam("group"), Player.telegram_id == bindparam("user")
)


def register(ledger: Ledger, chat_id: int, user: UserRef) -> PlayerInfo:
    """The group's player for a Telegram user, created or refreshed (username, display name); another
    player of the group who held that @username before loses it."""
    now = ledger.now()

    def op(s: Session) -> PlayerInfo:
        return player_info(
            ensure_player(s, ensure_group(s, chat_id, ledger.defaults, now), user, now), chat_id
        )

    return ledger.write(op)


def get_player(s: Session, player_id: int) -> PlayerInfo:
    """A player by id (NotFound)."""
    player = s.get(Player, player_id)
    if player is None:
        raise errors.NotFound(f"no player {player_id}", what="player", id=player_id)
    return player_info(player, chat_of(s, player.group_id))


def ensure_player(s: Session, group: ChatGroup, user: UserRef, now: datetime) -> Player:
    """The group's player of a Telegram user, created or refreshed (username, display name)."""
    player = s.scalars(_PLAYER_OF_USER, {"group": group.id, "user": user.telegram_id}).first()
    name, username = _name_of(user)
    taking = player is None or player.username != username
    if username is not None and taking:  # an @username is one person's at a time: whoever had it lost it
        s.execute(
            update(Player)
            .where(col(Player.group_id) == group.id, col(Player.telegram_id) != user.telegram_id)
            .where(_same_username(username))
            .values(username=None)
        )
    if player is None:
        player = Player(
            group_id=row_id(group),
            telegram_id=user.telegram_id,
            username=username,
            display_name=name,
            created_at=now,
        )
        s.add(player)
        s.flush()
    elif (player.username, player.display_name) != (username, name):
        player.username, player.display_name = username, name
        s.add(player)
    return player


def actor(
    s: Session, group: ChatGroup, by: UserRef | None, now: datetime, seated: dict[Seat, Any] | None = None
) -> int | None:
    """The player id of whoever made a change (created on first sight), or None; told by the seated
    players (`seats`, read in this transaction) when `by` sits there as they are now."""
    if by is None:
        return None
    name, username = _name_of(by)
    for player in (seated or {}).values():
        if (player.telegram_id, player.username, player.display_name) == (by.telegram_id, username, name):
            return int(player.id)
    return row_id(ensure_player(s, group, by, now))


GUEST_NAME_LIMIT = 16
TABLE_ACCOUNT = "台"  # the guest account 台费 and 抽水 are booked to: no one else's name


def name_holders(s: Session, group: ChatGroup, ts: TableSession) -> list[Player]:
    """Whose names a guest's may not take: everyone seated at the table and every member of the group (a
    guest called like a member would be a second 刘洋 in /score, the card and the transfers)."""
    query = select(Player).where(Player.group_id == group.id, col(Player.telegram_id).is_not(None))
    members = s.scalars(query)
    return [*seats(s, row_id(ts)).values(), *members]


def check_guest_name(name: str, seated: Iterable[Player]) -> None:
    """A guest's name: no invisible character (a zero-width space or a bidirectional control would make
    a second 台 or Ann that looks the same), and once normalised (`clean_name`) at most GUEST_NAME_LIMIT
    characters, no white space, not a seat word, not the 台 (the account 台费 and 抽水 go to), and not
    the name or @username of anyone seated at the table, in any case (BadGuestName, with the rule broken)."""
    rule = None
    if any(invisible(char) for char in name):
        rule = "invisible"
    elif len(name := clean_name(name)) > GUEST_NAME_LIMIT:
        rule = "too_long"
    elif not name or any(ch.isspace() for ch in name):
        rule = "space"
    elif parse_seat(name) is not None:
        rule = "seat_word"
    elif name.removeprefix("@").casefold() == TABLE_ACCOUNT.casefold():
        rule = "table"
    else:
        wanted = name.removeprefix("@").casefold()
        for player in seated:
            taken = {player.display_name.casefold(), (player.username or "").casefold()}
            if wanted in taken and player.guest_key != wanted:
                rule = "taken"
    if rule is not None:
        raise errors.BadGuestName(
            f"guest name {name!r} breaks the rule {rule}",
            name=name[:GUEST_NAME_LIMIT],
            rule=rule,
            limit=GUEST_NAME_LIMIT,
        )


def guest(s: Session, group: ChatGroup, name: str, now: datetime) -> Player:
    """The named guest of a group; the same name (any case) is the same guest."""
    clean = clean_name(name)
    if not clean:
        raise errors.InvalidValue("a guest needs a name", field="name", value=name)
    key = clean.casefold()
    player = s.scalars(select(Player).where(Player.group_id == group.id, Player.guest_key == key)).first()
    if player is None:
        player = Player(group_id=row_id(group), display_name=clean, guest_key=key, created_at=now)
        s.add(player)
        s.flush()
    return player


def find_guest(s: Session, group: ChatGroup, name: str) -> Player | None:
    """The named guest of a group, if there is one (the same name in any case)."""
    key = clean_name(name).casefold()
    return s.scalars(select(Player).where(Player.group_id == group.id, Player.guest_key == key)).first()


def twins(s: Session, group_id: int) -> dict[int, int]:
    """The players of a group whose display name (any case) another of its players shares: each one's
    1, 2, ... by age. Read once per transaction (`Session.info`)."""
    key = ("twins", group_id)
    if key not in s.info:
        names: dict[str, list[int]] = {}
        for pid, name, _username in group_people(s, group_id):
            names.setdefault(name.casefold(), []).append(pid)
        s.info[key] = {pid: n for ids in names.values() if len(ids) > 1 for n, pid in enumerate(ids, 1)}
    found: dict[int, int] = s.info[key]
    return found


def name_matches(s: Session, group: ChatGroup, text: str) -> list[Player]:
    """Every player of the group `text` names (`named`), oldest first."""
    players = s.scalars(select(Player).where(Player.group_id == group.id).order_by(col(Player.id)))
    return named(text, ((p, answers_to(p.display_name, p.username)) for p in players))


_PEOPLE = (
    select_columns(PLAYER.c.id, PLAYER.c.display_name, PLAYER.c.username)
    .where(PLAYER.c.group_id == bindparam("group"))
    .order_by(PLAYER.c.id)
)


def group_people(s: Session, group_id: int) -> list[Person]:
    """Every player of the group (id, display name, @username), oldest first: whom a typed name may mean
    besides a table's seated players (`named`). One prepared statement, no ORM objects."""
    found = s.connection().execute(_PEOPLE, {"group": group_id})
    return [(int(pid), name, username) for pid, name, username in found]


def people(s: Session, chat_id: int) -> list[Person]:
    """`group_people` of a chat's group (none when it has no group yet)."""
    group = group_row(s, chat_id)
    return group_people(s, row_id(group)) if group is not None else []


def seated_one(matches: Sequence[T], seated: Iterable[T]) -> list[T]:
    """Of several people a name fits, the one at the table when exactly one of them sits there (else all)."""
    at_table = [m for m in matches if m in set(seated)]
    return at_table if len(matches) > 1 and len(at_table) == 1 else list(matches)


def find_player(s: Session, chat_id: int, ref: str) -> tuple[PlayerInfo, Seat | None]:
    """Resolve `@username`, a seat word or a display/guest name (any case) to a player of the group and
    their seat at the open table. UnknownPlayer, AmbiguousPlayer, PlayerNotSeated (an empty seat)."""
    text = ref.strip()
    group = group_row(s, chat_id)
    if group is None or not text:
        raise errors.UnknownPlayer(f"no player {ref!r} in this group", ref=ref)
    ts = open_session_row(s, row_id(group), lock=False)
    seated = seats(s, row_id(ts)) if ts is not None else {}
    seat_of = {row_id(p): seat for seat, p in seated.items()}
    seat = parse_seat(text)
    if seat is not None:
        if ts is None:
            raise errors.NoOpenSession("no open table to look up a seat", chat_id=chat_id)
        if seat not in seated:
            raise errors.PlayerNotSeated(f"seat {seat} is empty", seat=seat, name=text)
        return player_info(seated[seat], chat_id), seat
    matches = name_matches(s, group, text)
    ids = seated_one([row_id(p) for p in matches], seat_of)
    matches = [p for p in matches if row_id(p) in ids]
    if not matches:
        raise errors.UnknownPlayer(f"no player {ref!r} in this group", ref=ref)
    if len(matches) > 1:
        names = [p.display_name + (f" (@{p.username})" if p.username else "") for p in matches]
        raise errors.AmbiguousPlayer(
            f"{ref!r} matches several players: {', '.join(names)}", ref=ref, names=names
        )
    return player_info(matches[0], chat_id), seat_of.get(row_id(matches[0]))


def find_seat(s: Session, chat_id: int, ref: str) -> Seat:
    """A player reference (as `find_player`) to that player's seat at the open table (PlayerNotSeated)."""
    player, seat = find_player(s, chat_id, ref)
    if seat is None:
        raise errors.PlayerNotSeated(f"{player.name} has no seat at this table", name=player.name, ref=ref)
    return seat


def players_named(s: Session, chat_id: int, ref: str) -> list[PlayerInfo]:
    """Every player of the group a name (or @username) fits, oldest first, each told apart by its
    `twin` number where they share a display name."""
    group = group_row(s, chat_id)
    if group is None:
        return []
    twin = twins(s, row_id(group))
    return [
        replace(player_info(p, chat_id), twin=twin.get(row_id(p), 0)) for p in name_matches(s, group, ref)
    ]
