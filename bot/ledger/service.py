"""The ledger service: every operation on groups, players, sessions and hands, one transaction per call."""

from __future__ import annotations

import contextlib
import copy
import functools
import logging
import random
import secrets
import time
import uuid
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

from sqlalchemy import (
    Connection,
    Engine,
    Insert,
    Select,
    bindparam,
    func,
    insert,
    literal_column,
    select,
    update,
)
from sqlalchemy.dialects import postgresql
from sqlalchemy.dialects import sqlite as sqlite_dialect
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError
from sqlmodel import Session

from bot.ledger import errors
from bot.ledger.db import IMMEDIATE, checkpoint, is_sqlite, lock_busy, nonblocking_engine, open_database
from bot.ledger.models import (
    ChatGroup,
    GroupTotal,
    Hand,
    Payment,
    PendingEntry,
    Player,
    Seat,
    SessionTotal,
    TableSession,
)
from bot.ledger.results import (
    SEATS,
    CommitResult,
    DealerState,
    GroupInfo,
    HandPreview,
    HandRecord,
    LedgerRow,
    PendingInfo,
    PendingKind,
    PlayerInfo,
    PlayerStats,
    SeatChange,
    SessionInfo,
    SessionSummary,
    Standing,
    StandingsReport,
    Transfer,
    UserRef,
)
from bot.ledger.transfers import minimal_transfers

log = logging.getLogger(__name__)
T = TypeVar("T")

LANGUAGES = ("zh-Hans", "zh-Hant", "en")
DEFAULT_RULES = "suzhou"
ENTRY_KEYS = frozenset({"event", "discarder", "escaper", "wins"})
PENDING_KINDS = ("hand", "adjust", "edit", "undo")
SEAT_WORDS = {
    "e": "E",
    "east": "E",
    "东": "E",
    "東": "E",
    "东家": "E",
    "東家": "E",
    "s": "S",
    "south": "S",
    "南": "S",
    "南家": "S",
    "w": "W",
    "west": "W",
    "西": "W",
    "西家": "W",
    "n": "N",
    "north": "N",
    "北": "N",
    "北家": "N",
}
EVENT_KIND = {"win": "win", "draw": "draw", "escape": "escape"}
# Pending entries created under a source key get the id uuid5(PENDING_KEYS, key): a repeat finds the first.
PENDING_KEYS = uuid.UUID("5b0f3c2e-8a4d-4e1b-9c57-6d2f1a0e7b43")


def normalize_seat(value: object) -> str:
    """E/S/W/N from a seat word (E, east, 东, 東, 东家 ...); InvalidSeat otherwise.

    >>> normalize_seat("東"), normalize_seat("w")
    ('E', 'W')
    """
    if isinstance(value, str):
        seat = SEAT_WORDS.get(value.strip().lower())
        if seat is not None:
            return seat
    raise errors.InvalidSeat(f"not a seat: {value!r} (use E S W N or 东南西北)", seat=str(value))


@dataclass(slots=True)
class _Delta:
    """What one ledger row adds to one player's running totals."""

    net: int = 0
    hands: int = 0
    wins: int = 0
    self_draws: int = 0
    dealt_in: int = 0


class LedgerService:
    """Groups, players, table sessions and hands, backed by SQLite or PostgreSQL.

    Thread-safe: every public method opens its own database session and transaction, so handlers call it
    through `asyncio.to_thread`. Write methods retry on unique-constraint / serialization conflicts.
    Every error is a `bot.ledger.errors.LedgerError` (code + params) and means nothing was written.

    Operations on "the table" take the group's `chat_id` and act on its one open session.
    Players are referred to by player id (`find_player` resolves @username, seat, 东南西北 or a name).
    Entries are the partial RULES.md §3 request with seats:
    `{"event": "win", "discarder": "W", "wins": [{"winner": "S", "type": "discard", "declared": {...}}]}`.
    """

    def __init__(
        self,
        engine: Engine,
        *,
        clock: Callable[[], datetime] | None = None,
        default_language: str = "zh-Hans",
        default_confirm_timeout_seconds: int = 120,
        max_attempts: int = 12,
    ) -> None:
        """Wrap an engine from `bot.ledger.db.open_database` (schema already migrated)."""
        self._engine = engine
        self._write_engine = engine.execution_options(**IMMEDIATE) if is_sqlite(engine) else engine
        self._clock = clock or (lambda: datetime.now(UTC))
        self._default_language = default_language if default_language in LANGUAGES else "zh-Hans"
        self._default_timeout = default_confirm_timeout_seconds
        self._max_attempts = max_attempts
        self._hot_statements: _HotStatements | None = None
        self._pending_statements: _PendingStatements | None = None
        self._nonblocking: LedgerService | bool | None = False  # False: not made yet (see nonblocking)
        self._fail_fast = False  # this service is a nonblocking() view
        self._held: Connection | None = None  # a view's one connection, kept open between its writes

    def nonblocking(self) -> LedgerService | None:
        """This service on a connection for the event loop's thread, that never waits for a lock, or None.

        On a SQLite file in WAL mode with synchronous NORMAL or OFF, a hand's whole write transaction takes
        less time than handing it to a worker thread and back. Through this view a write either gets
        SQLite's write lock at once, or raises `errors.WouldBlock` before doing anything (another thread or
        process is writing): then make the call on the service itself in a worker thread. Reads do not wait
        in WAL mode (the rare exception raises WouldBlock too). For the event loop's thread only (one
        connection). None on PostgreSQL, in-memory SQLite
        and synchronous FULL/EXTRA (see `bot.ledger.db.nonblocking_engine`)."""
        if self._nonblocking is False:
            engine = nonblocking_engine(self._engine) if not self._fail_fast else None
            view: LedgerService | None = None
            if engine is not None:
                view = copy.copy(self)
                view._engine = engine
                view._write_engine = engine.execution_options(**IMMEDIATE)
                view._fail_fast = True
                view._nonblocking = None
            self._nonblocking = view
        return self._nonblocking or None

    def close(self) -> None:
        """Release the nonblocking view's connection (the main engine is the caller's to dispose of)."""
        view = self._nonblocking
        if isinstance(view, LedgerService):
            if view._held is not None:
                view._held.close()
                view._held = None
            view._engine.dispose()
        self._nonblocking = False

    def checkpoint(self) -> tuple[int, int] | None:
        """SQLite: move the WAL's pages into the database file (`bot.ledger.db.checkpoint`), which the
        `nonblocking` view's commits leave to this call; (pages in the WAL, pages copied). None on
        PostgreSQL and in-memory SQLite. Blocking (it may fsync): for a worker thread."""
        return checkpoint(self._engine)

    @classmethod
    def from_url(cls, url: str, **kwargs: Any) -> LedgerService:
        """Open (and migrate) the database at `url` and return a service on it."""
        return cls(open_database(url), **kwargs)

    @property
    def _hot(self) -> _HotStatements:
        """The hot path's statements, compiled for this engine's dialect on first use."""
        if self._hot_statements is None:
            self._hot_statements = _HotStatements(self._engine.dialect)
        return self._hot_statements

    @property
    def _pending_sql(self) -> _PendingStatements:
        """The preview + Confirm path's statements, compiled for this engine's dialect on first use."""
        if self._pending_statements is None:
            self._pending_statements = _PendingStatements(self._engine.dialect)
        return self._pending_statements

    @property
    def engine(self) -> Engine:
        """The SQLAlchemy engine (for jobs that keep their own tables in the same database)."""
        return self._engine

    # ---- transactions -------------------------------------------------------------------------------

    def _now(self) -> datetime:
        now = self._clock()
        return now if now.tzinfo is not None else now.replace(tzinfo=UTC)

    def _read(self, fn: Callable[[Session], T]) -> T:
        with self._reading(), Session(self._engine, expire_on_commit=False) as session, session.begin():
            return fn(session)

    @contextlib.contextmanager
    def _reading(self) -> Iterator[None]:
        """Around a read: in a `nonblocking` view, SQLite's rare "database is locked" for a reader (another
        connection recovering or resetting the WAL) becomes WouldBlock, for the caller's waiting road."""
        if not self._fail_fast:
            yield
            return
        try:
            yield
        except OperationalError as exc:
            if not lock_busy(exc):
                raise
            raise errors.WouldBlock(str(exc.orig)) from exc

    def _write(self, fn: Callable[[Session], T]) -> T:
        """Run `fn` in one write transaction; retry the whole of it on a write conflict."""

        def once() -> T:
            with (
                Session(self._write_engine, expire_on_commit=False, autoflush=False) as session,
                session.begin(),
            ):
                return fn(session)

        return self._retrying(once)

    def _read_core(self, fn: Callable[[Connection], T]) -> T:
        """Run `fn` on a plain connection (Core statements, no ORM session) in one read transaction."""
        with self._reading(), self._engine.connect() as conn:
            return fn(conn)

    def _write_core(self, fn: Callable[[Connection], T]) -> T:
        """`_write` for Core statements on a plain connection: one transaction, retried on a conflict."""

        def once() -> T:
            if self._fail_fast:  # a view: its one connection stays checked out (half the cost of a checkout)
                if self._held is None or self._held.invalidated or self._held.closed:
                    self._held = self._write_engine.connect()
                with self._held.begin():
                    return fn(self._held)
            with self._write_engine.begin() as conn:
                return fn(conn)

        return self._retrying(once)

    def _retrying(self, once: Callable[[], T]) -> T:
        """`once()` (one whole transaction), again after a write conflict, up to `_max_attempts` times; in a
        `nonblocking` view, WouldBlock at the first conflict instead (nothing was written)."""
        for attempt in range(1, self._max_attempts + 1):
            try:
                return once()
            except (IntegrityError, OperationalError) as exc:
                if not _retryable(exc):
                    raise
                if self._fail_fast:  # nothing was written: the caller takes the waiting road
                    raise errors.WouldBlock(str(exc.orig)) from exc
                log.info("ledger write conflict (attempt %d): %s", attempt, exc.orig)
                time.sleep(min(0.5, 0.005 * 2**attempt) * random.random())
        raise errors.Conflict(f"gave up after {self._max_attempts} conflicting attempts", attempts=attempt)

    # ---- groups -------------------------------------------------------------------------------------

    def _group(self, session: Session, chat_id: int, *, create: bool) -> ChatGroup | None:
        group = session.scalars(select(ChatGroup).where(ChatGroup.chat_id == chat_id)).first()
        if group is None and create:
            group = ChatGroup(
                chat_id=chat_id,
                language=self._default_language,
                rules=DEFAULT_RULES,
                options={},
                instant=False,
                confirm_timeout_seconds=self._default_timeout,
                weekly_schedule=False,
                created_at=self._now(),
            )
            session.add(group)
            session.flush()
        return group

    def get_group(self, chat_id: int) -> GroupInfo:
        """The group's settings; a group is created with defaults on first use."""

        def op(s: Session) -> GroupInfo:
            group = self._group(s, chat_id, create=True)
            assert group is not None
            return _group_info(group)

        return self._write(op)

    def update_group(
        self,
        chat_id: int,
        *,
        language: str | None = None,
        rules: str | None = None,
        options: dict[str, Any] | None = None,
        instant: bool | None = None,
        confirm_timeout_seconds: int | None = None,
        weekly_schedule: bool | None = None,
    ) -> GroupInfo:
        """Change group settings. `rules` accepts 苏州/蘇州/宿州 and ids; `options` are merged into the
        group's defaults and validated by the scoring core (InvalidValue on a bad one; the rule set
        changing resets the group's options). The open session is not changed (see `update_session`)."""
        if language is not None and language not in LANGUAGES:
            raise errors.InvalidValue(
                f"unknown language {language!r} (use {', '.join(LANGUAGES)})",
                field="language",
                value=language,
            )
        if confirm_timeout_seconds is not None and not 5 <= confirm_timeout_seconds <= 86400:
            raise errors.InvalidValue(
                f"confirmation timeout must be 5..86400 seconds, got {confirm_timeout_seconds}",
                field="confirm_timeout_seconds",
                value=confirm_timeout_seconds,
            )
        new_rules = _resolve_rules(rules) if rules is not None else None

        def op(s: Session) -> GroupInfo:
            group = self._group(s, chat_id, create=True)
            assert group is not None
            if language is not None:
                group.language = language
            if new_rules is not None and new_rules != group.rules:
                group.rules = new_rules
                group.options = {}
            if options is not None:
                merged = {**group.options, **options}
                normalized = _validate_options(group.rules, merged)
                group.options = {key: normalized[key] for key in merged}
            if instant is not None:
                group.instant = bool(instant)
            if confirm_timeout_seconds is not None:
                group.confirm_timeout_seconds = confirm_timeout_seconds
            if weekly_schedule is not None:
                group.weekly_schedule = bool(weekly_schedule)
            s.add(group)
            return _group_info(group)

        return self._write(op)

    def list_groups(self, *, weekly_schedule: bool | None = None) -> list[GroupInfo]:
        """Every group, optionally only those with the weekly-schedule flag set (or unset)."""

        def op(s: Session) -> list[GroupInfo]:
            query = select(ChatGroup).order_by(ChatGroup.id)
            if weekly_schedule is not None:
                query = query.where(ChatGroup.weekly_schedule == weekly_schedule)
            return [_group_info(g) for g in s.scalars(query)]

        return self._read(op)

    # ---- players ------------------------------------------------------------------------------------

    def _ensure_player(self, s: Session, group: ChatGroup, user: UserRef) -> Player:
        player = s.scalars(
            select(Player).where(Player.group_id == group.id, Player.telegram_id == user.telegram_id)
        ).first()
        name = _clean_name(user.display_name) or (user.username or str(user.telegram_id))
        username = user.username.lstrip("@") if user.username else None
        if player is None:
            player = Player(
                group_id=_id(group),
                telegram_id=user.telegram_id,
                username=username,
                display_name=name,
                created_at=self._now(),
            )
            s.add(player)
            s.flush()
        elif player.username != username or player.display_name != name:
            player.username = username
            player.display_name = name
            s.add(player)
        return player

    def _guest(self, s: Session, group: ChatGroup, name: str) -> Player:
        clean = _clean_name(name)
        if not clean:
            raise errors.InvalidValue("a guest needs a name", field="name", value=name)
        key = clean.casefold()
        player = s.scalars(select(Player).where(Player.group_id == group.id, Player.guest_key == key)).first()
        if player is None:
            player = Player(group_id=_id(group), display_name=clean, guest_key=key, created_at=self._now())
            s.add(player)
            s.flush()
        return player

    def _actor(self, s: Session, group: ChatGroup, by: UserRef | None) -> int | None:
        return _id(self._ensure_player(s, group, by)) if by is not None else None

    def ensure_player(self, chat_id: int, user: UserRef) -> PlayerInfo:
        """The group's player for a Telegram user, created or refreshed (username, display name)."""

        def op(s: Session) -> PlayerInfo:
            group = self._group(s, chat_id, create=True)
            assert group is not None
            return _player_info(self._ensure_player(s, group, user), chat_id)

        return self._write(op)

    def add_guest(self, chat_id: int, name: str) -> PlayerInfo:
        """A named guest without Telegram account; the same name returns the same guest."""

        def op(s: Session) -> PlayerInfo:
            group = self._group(s, chat_id, create=True)
            assert group is not None
            return _player_info(self._guest(s, group, name), chat_id)

        return self._write(op)

    def get_player(self, player_id: int) -> PlayerInfo:
        """A player by id (NotFound)."""

        def op(s: Session) -> PlayerInfo:
            player = s.get(Player, player_id)
            if player is None:
                raise errors.NotFound(f"no player {player_id}", what="player", id=player_id)
            group = s.get(ChatGroup, player.group_id)
            assert group is not None
            return _player_info(player, group.chat_id)

        return self._read(op)

    def _find_player(self, s: Session, chat_id: int, ref: str) -> tuple[Player, str | None]:
        """(player, seat at the open table or None)."""
        text = ref.strip()
        group = self._group(s, chat_id, create=False)
        if group is None or not text:
            raise errors.UnknownPlayer(f"no player {ref!r} in this group", ref=ref)
        ts = _open_session_row(s, _id(group), lock=False)
        seats = _seats(s, _id(ts)) if ts is not None else {}
        seat_of = {p.id: seat for seat, p in seats.items()}
        seat_word = SEAT_WORDS.get(text.lower())
        if seat_word is not None:
            if ts is None:
                raise errors.NoOpenSession("no open table to look up a seat", chat_id=chat_id)
            if seat_word not in seats:
                raise errors.PlayerNotSeated(f"seat {seat_word} is empty", seat=seat_word, name=text)
            return seats[seat_word], seat_word
        players = list(s.scalars(select(Player).where(Player.group_id == group.id)))
        if text.startswith("@"):
            wanted = text[1:].casefold()
            matches = [p for p in players if p.username and p.username.casefold() == wanted]
        else:
            wanted = text.casefold()
            matches = [p for p in players if p.display_name.casefold() == wanted]
            if not matches:
                matches = [p for p in players if p.username and p.username.casefold() == wanted]
        if len(matches) > 1:
            seated = [p for p in matches if p.id in seat_of]
            if len(seated) == 1:
                matches = seated
        if not matches:
            raise errors.UnknownPlayer(f"no player {ref!r} in this group", ref=ref)
        if len(matches) > 1:
            names = [p.display_name + (f" (@{p.username})" if p.username else "") for p in matches]
            raise errors.AmbiguousPlayer(
                f"{ref!r} matches several players: {', '.join(names)}", ref=ref, names=names
            )
        return matches[0], seat_of.get(_id(matches[0]))

    def find_player(self, chat_id: int, ref: str) -> PlayerInfo:
        """Resolve `@username`, a seat (E/S/W/N, 东南西北, 東), or a display/guest name (case-insensitive)
        to a player of the group. Seats resolve against the open session. UnknownPlayer, AmbiguousPlayer,
        PlayerNotSeated (an empty seat)."""
        return self._read(lambda s: _player_info(self._find_player(s, chat_id, ref)[0], chat_id))

    def find_seat(self, chat_id: int, ref: str) -> str:
        """Resolve a player reference (as `find_player`) to that player's seat at the open table;
        PlayerNotSeated if the player has none. Usable as the grammar's `resolve` callback."""

        def op(s: Session) -> str:
            player, seat = self._find_player(s, chat_id, ref)
            if seat is None:
                raise errors.PlayerNotSeated(
                    f"{player.display_name} has no seat at this table", name=player.display_name, ref=ref
                )
            return seat

        return self._read(op)

    # ---- sessions and seats -------------------------------------------------------------------------

    def _lock_open(self, s: Session, chat_id: int) -> tuple[ChatGroup, TableSession]:
        group = self._group(s, chat_id, create=False)
        ts = _open_session_row(s, _id(group), lock=True) if group is not None else None
        if group is None or ts is None:
            raise errors.NoOpenSession("this group has no open table session", chat_id=chat_id)
        return group, ts

    def _change_open(self, chat_id: int, change: Callable[[TableSession], None]) -> SessionInfo:
        """Lock the open session, apply `change` to it, bump its version; one write transaction."""

        def op(s: Session) -> SessionInfo:
            _group_row, ts = self._lock_open(s, chat_id)
            change(ts)
            self._touch(ts)
            s.add(ts)
            return _session_info(s, ts, chat_id)

        return self._write(op)

    def _touch(self, ts: TableSession) -> None:
        """The table changed: note the activity (idle end), bump the version (pending previews go stale)."""
        ts.last_activity_at = self._now()
        ts.version += 1

    def open_session(
        self,
        chat_id: int,
        *,
        by: UserRef | None = None,
        rules: str | None = None,
        stake: int = 1,
        options: dict[str, Any] | None = None,
    ) -> SessionInfo:
        """Open a table session: rules (default the group's), options (group defaults plus these, snapshot),
        stake > 0. SessionAlreadyOpen if the group has one (also enforced by a unique index)."""
        _check_stake(stake)
        chosen = _resolve_rules(rules) if rules is not None else None

        def op(s: Session) -> SessionInfo:
            group = self._group(s, chat_id, create=True)
            assert group is not None
            existing = _open_session_row(s, _id(group), lock=False)
            if existing is not None:
                raise errors.SessionAlreadyOpen(
                    f"session {existing.number} is still open",
                    chat_id=chat_id,
                    session_id=existing.id,
                    number=existing.number,
                )
            session_rules = chosen or group.rules
            base = dict(group.options) if session_rules == group.rules else {}
            snapshot = _validate_options(session_rules, {**base, **(options or {})})
            number = (
                s.scalar(select(func.max(TableSession.number)).where(TableSession.group_id == group.id)) or 0
            ) + 1
            now = self._now()
            ts = TableSession(
                group_id=_id(group),
                number=number,
                rules=session_rules,
                options=snapshot,
                stake=stake,
                status="open",
                opened_by=self._actor(s, group, by),
                opened_at=now,
                last_activity_at=now,
                state=DealerState().to_json(),
            )
            s.add(ts)
            s.flush()
            return _session_info(s, ts, chat_id)

        return self._write(op)

    def current_session(self, chat_id: int) -> SessionInfo | None:
        """The group's open session, or None."""

        def op(conn: Connection) -> SessionInfo | None:
            table = _load_table(self._hot, conn, chat_id, lock=False)
            return _table_info(table) if table is not None else None

        return self._read_core(op)

    def require_session(self, chat_id: int) -> SessionInfo:
        """The group's open session, or NoOpenSession."""
        info = self.current_session(chat_id)
        if info is None:
            raise errors.NoOpenSession("this group has no open table session", chat_id=chat_id)
        return info

    def get_session(self, session_id: int) -> SessionInfo:
        """A session by id, open or ended (NotFound)."""

        def op(conn: Connection) -> SessionInfo:
            table = _load_table(self._hot, conn, None, lock=False, session_id=session_id)
            if table is None:
                raise errors.NotFound(f"no session {session_id}", what="session", id=session_id)
            return _table_info(table)

        return self._read_core(op)

    def update_session(
        self, chat_id: int, *, options: dict[str, Any] | None = None, stake: int | None = None
    ) -> SessionInfo:
        """Change the open session's options (merged, validated) or stake; applies to later hands only."""
        if stake is not None:
            _check_stake(stake)

        def change(ts: TableSession) -> None:
            if options is not None:
                ts.options = _validate_options(ts.rules, {**ts.options, **options})
            if stake is not None:
                ts.stake = stake

        return self._change_open(chat_id, change)

    def join(
        self,
        chat_id: int,
        user: UserRef | None = None,
        *,
        guest_name: str | None = None,
        seat: str | None = None,
    ) -> SeatChange:
        """Seat a Telegram user or a named guest at the next free seat (E, S, W, N order) or at `seat`.
        Before the first hand only (SeatsLocked). AlreadySeated, SeatTaken, TableFull, NoOpenSession."""
        if (user is None) == (guest_name is None):
            raise errors.InvalidValue("join needs either a Telegram user or a guest name", field="player")
        wanted = normalize_seat(seat) if seat is not None else None

        def op(s: Session) -> SeatChange:
            group, ts = self._lock_open(s, chat_id)
            player = (
                self._ensure_player(s, group, user)
                if user is not None
                else self._guest(s, group, guest_name or "")
            )
            seats = _seats(s, _id(ts))
            for taken, occupant in seats.items():
                if occupant.id == player.id:
                    raise errors.AlreadySeated(
                        f"{player.display_name} already sits at {taken}", name=player.display_name, seat=taken
                    )
            _check_unlocked(ts)
            if wanted is not None:
                if wanted in seats:
                    raise errors.SeatTaken(
                        f"seat {wanted} is taken by {seats[wanted].display_name}",
                        seat=wanted,
                        name=seats[wanted].display_name,
                    )
                target = wanted
            else:
                free = [x for x in SEATS if x not in seats]
                if not free:
                    raise errors.TableFull("all four seats are taken")
                target = free[0]
            s.add(Seat(session_id=_id(ts), seat=target, player_id=_id(player)))
            if s.get(SessionTotal, (ts.id, player.id)) is None:
                s.add(SessionTotal(session_id=_id(ts), player_id=_id(player)))
            if s.get(GroupTotal, (group.id, player.id)) is None:
                s.add(GroupTotal(group_id=_id(group), player_id=_id(player)))
            self._touch(ts)
            s.add(ts)
            s.flush()
            _forget_seats(s)
            return SeatChange(_player_info(player, chat_id), target, _session_info(s, ts, chat_id))

        return self._write(op)

    def move(self, chat_id: int, player_id: int, seat: str) -> SeatChange:
        """Move a seated player to `seat` before the first hand; an occupant of that seat swaps places."""
        target = normalize_seat(seat)

        def op(s: Session) -> SeatChange:
            _group_row, ts = self._lock_open(s, chat_id)
            rows = {row.seat: row for row in s.scalars(select(Seat).where(Seat.session_id == ts.id))}
            mine = next((row for row in rows.values() if row.player_id == player_id), None)
            player = _player_row(s, player_id)
            if mine is None:
                raise errors.PlayerNotSeated(
                    f"{player.display_name} has no seat at this table", name=player.display_name
                )
            _check_unlocked(ts)
            if mine.seat != target:
                other = rows.get(target)
                origin = mine.seat
                mine.seat = "-"  # free the unique (session, seat) slot during the swap
                s.add(mine)
                s.flush()
                if other is not None:
                    other.seat = origin
                    s.add(other)
                    s.flush()
                mine.seat = target
                s.add(mine)
                self._touch(ts)
                s.add(ts)
                s.flush()
            _forget_seats(s)
            return SeatChange(_player_info(player, chat_id), target, _session_info(s, ts, chat_id))

        return self._write(op)

    def unseat(self, chat_id: int, player_id: int) -> SeatChange:
        """Free a player's seat before the first hand (PlayerNotSeated, SeatsLocked)."""

        def op(s: Session) -> SeatChange:
            _group_row, ts = self._lock_open(s, chat_id)
            player = _player_row(s, player_id)
            row = s.scalars(select(Seat).where(Seat.session_id == ts.id, Seat.player_id == player_id)).first()
            if row is None:
                raise errors.PlayerNotSeated(
                    f"{player.display_name} has no seat at this table", name=player.display_name
                )
            _check_unlocked(ts)
            s.delete(row)
            total = s.get(SessionTotal, (ts.id, player_id))
            if total is not None and total.net == 0 and total.hands == 0:
                s.delete(total)
            self._touch(ts)
            s.add(ts)
            s.flush()
            _forget_seats(s)
            return SeatChange(_player_info(player, chat_id), None, _session_info(s, ts, chat_id))

        return self._write(op)

    def set_dealer(self, chat_id: int, seat: str) -> SessionInfo:
        """Choose the first dealer (also the round's first dealer) before the first hand (SeatsLocked)."""
        dealer = normalize_seat(seat)

        def change(ts: TableSession) -> None:
            _check_unlocked(ts)
            current = DealerState.from_json(ts.state)
            ts.state = DealerState(dealer=dealer, first_dealer=dealer, baozi=current.baozi).to_json()
            ts.dealer_set = True

        return self._change_open(chat_id, change)

    def mark_baozi(self, chat_id: int, baozi: bool = True) -> SessionInfo:
        """Mark (or clear) 豹子 for the coming hand: the dice of /roll showed a double."""

        def change(ts: TableSession) -> None:
            ts.state = replace(DealerState.from_json(ts.state), baozi=bool(baozi)).to_json()

        return self._change_open(chat_id, change)

    def end_session(
        self,
        chat_id: int,
        *,
        by: UserRef | None = None,
        session_id: int | None = None,
        reason: str = "manual",
    ) -> SessionSummary:
        """End the open session (or exactly `session_id`, which must still be open: SessionNotOpen), e.g.
        reason "manual" or "idle". Pending entries of the session expire. Returns its summary."""

        def op(s: Session) -> SessionSummary:
            if session_id is not None:
                ts = s.scalars(
                    select(TableSession).where(TableSession.id == session_id).with_for_update()
                ).first()
                if ts is None:
                    raise errors.NotFound(f"no session {session_id}", what="session", id=session_id)
                if ts.status != "open":
                    raise errors.SessionNotOpen(
                        f"session {ts.number} has already ended", session_id=session_id, number=ts.number
                    )
                group = s.get(ChatGroup, ts.group_id)
                assert group is not None
            else:
                group, ts = self._lock_open(s, chat_id)
            self._actor(s, group, by)
            now = self._now()
            ts.status = "ended"
            ts.ended_at = now
            ts.end_reason = reason[:32]
            self._touch(ts)
            s.add(ts)
            for pending in s.scalars(
                select(PendingEntry).where(PendingEntry.session_id == ts.id, PendingEntry.status == "pending")
            ):
                pending.status = "expired"
                pending.consumed_at = now
                s.add(pending)
            s.flush()
            return _summary(s, ts, group.chat_id)

        return self._write(op)

    def idle_sessions(self, idle_for: timedelta, *, now: datetime | None = None) -> list[SessionInfo]:
        """Open sessions whose last activity is older than `idle_for` (for the idle-end job)."""
        cutoff = (now or self._now()) - idle_for

        def op(s: Session) -> list[SessionInfo]:
            rows = s.scalars(
                select(TableSession)
                .where(TableSession.status == "open", TableSession.last_activity_at < cutoff)
                .order_by(TableSession.id)
            )
            return [_session_info(s, ts) for ts in rows]

        return self._read(op)

    def open_sessions(self) -> list[SessionInfo]:
        """Every open session of every group (for jobs after a restart)."""

        def op(s: Session) -> list[SessionInfo]:
            rows = s.scalars(
                select(TableSession).where(TableSession.status == "open").order_by(TableSession.id)
            )
            return [_session_info(s, ts) for ts in rows]

        return self._read(op)

    # ---- hands: scoring -----------------------------------------------------------------------------

    def _score(
        self,
        ts: TableSession | _Table,
        seats: Mapping[str, Player | PlayerInfo],
        state: DealerState,
        entry: object,
        *,
        rules: str | None = None,
        options: dict[str, Any] | None = None,
        stake: int | None = None,
    ) -> HandPreview:
        """Score an entry against a dealer state; rules/options/stake default to the session's."""
        missing = [seat for seat in SEATS if seat not in seats]
        if missing:
            raise errors.TableNotFull(f"empty seats: {' '.join(missing)}", empty=missing)
        clean = _check_entry(entry)
        request: dict[str, Any] = {
            "rules": rules or ts.rules,
            "options": _copy_json(options if options is not None else ts.options),
            "stake": stake if stake is not None else ts.stake,
            "dealer": state.dealer,
            "round_wind": state.round_wind,
            "baozi": state.baozi,
            "diling": state.diling,
            "streak": state.streak,
            "hand_number": state.hand_number,
            "first_dealer": state.first_dealer,
            **clean,  # a private copy already (_check_entry); nothing below changes it
        }
        response = _call_scoring(request)
        payments = _payments_of(response)
        after = DealerState(
            dealer=str(response["next_dealer"]),
            streak=int(response["next_streak"]),
            diling=bool(response["next_diling"]),
            round_wind=str(response["next_round_wind"]),
            hand_number=int(response["next_hand_number"]),
            first_dealer=state.first_dealer,
            baozi=False,
        )
        return HandPreview(
            session_id=_id(ts),
            kind=EVENT_KIND[str(clean.get("event", "win"))],  # type: ignore[arg-type]
            entry=clean,
            request=request,
            response=response,
            payments=payments,
            player_payments={_id(seats[seat]): amount for seat, amount in payments.items()},
            before=state,
            after=after,
        )

    def _adjust_preview(
        self, s: Session, ts: TableSession, payer_id: int, payee_id: int, amount: int, note: str | None
    ) -> HandPreview:
        if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
            raise errors.InvalidValue(
                f"an adjustment needs a positive whole amount, got {amount!r}", field="amount", value=amount
            )
        if payer_id == payee_id:
            raise errors.InvalidValue("payer and payee are the same player", field="payee", value=payee_id)
        seats = _seats(s, _id(ts))
        seat_of = {p.id: seat for seat, p in seats.items()}
        for pid in (payer_id, payee_id):
            if pid not in seat_of:
                player = _player_row(s, pid)
                raise errors.PlayerNotSeated(
                    f"{player.display_name} has no seat at this table", name=player.display_name
                )
        state = DealerState.from_json(ts.state)
        payer, payee = seat_of[payer_id], seat_of[payee_id]
        entry = {"payer": payer, "payee": payee, "amount": amount, "note": note}
        payments = {payer: -amount, payee: amount}
        return HandPreview(
            session_id=_id(ts),
            kind="adjust",
            entry=entry,
            request={"adjust": entry},
            response={"payments": payments},
            payments=payments,
            player_payments={payer_id: -amount, payee_id: amount},
            before=state,
            after=state,
            note=note,
        )

    def preview(self, chat_id: int, entry: dict[str, Any]) -> HandPreview:
        """Score an entry against the open table's current state without recording anything.
        InvalidEntry (malformed), TableNotFull, NoOpenSession. A refused win is returned with
        `allowed == False` and its reasons (commit would raise WinNotAllowed)."""

        def op(s: Session) -> HandPreview:
            group = self._group(s, chat_id, create=False)
            ts = _open_session_row(s, _id(group), lock=False) if group is not None else None
            if ts is None:
                raise errors.NoOpenSession("this group has no open table session", chat_id=chat_id)
            return self._score(ts, _seats(s, _id(ts)), DealerState.from_json(ts.state), entry)

        return self._read(op)

    # ---- hands: writing -----------------------------------------------------------------------------

    def _insert(
        self,
        s: Session,
        group: ChatGroup,
        ts: TableSession,
        preview: HandPreview,
        *,
        number: int,
        actor: int | None,
        source_key: str | None,
        text: str | None,
        replaces: int | None = None,
    ) -> Hand:
        """Write one ledger row with its payments and add it to the running totals."""
        if preview.kind != "adjust" and not preview.allowed:
            raise errors.WinNotAllowed(_refusal(preview), reasons=preview.reasons, number=number)
        total = sum(preview.payments.values())
        if total != 0:
            raise errors.ZeroSumViolation(f"payments sum to {total}", total=total)
        seats = _seats(s, _id(ts))
        seat_players = {seat: _id(p) for seat, p in seats.items()}
        ts.last_seq += 1
        hand = Hand(
            session_id=_id(ts),
            seq=ts.last_seq,
            number=number,
            kind=preview.kind,
            text=text,
            entry=preview.entry,
            request=preview.request,
            response=preview.response,
            state_before=preview.before.to_json(),
            state_after=preview.after.to_json(),
            seat_players=seat_players,
            note=preview.note,
            dealer_after_player_id=seat_players.get(preview.after.dealer),
            streak_after=preview.after.streak,
            recorded_by=actor,
            recorded_at=self._now(),
            source_key=source_key,
            replaces=replaces,
        )
        s.add(hand)
        s.flush()
        hua = _hua_by_seat(preview.response)
        s.execute(
            insert(Payment.__table__),  # type: ignore[attr-defined]
            [
                {
                    "hand_id": _id(hand),
                    "player_id": seat_players[seat],
                    "amount": amount,
                    "hua": hua.get(seat, 0),
                }
                for seat, amount in preview.payments.items()
            ],
        )
        self._apply(s, group, ts, _deltas(hand), +1)
        return hand

    def _void(
        self,
        s: Session,
        group: ChatGroup,
        ts: TableSession,
        hand: Hand,
        actor: int | None,
        void_key: str | None,
    ) -> None:
        hand.voided = True
        hand.voided_by = actor
        hand.voided_at = self._now()
        hand.void_key = void_key
        s.add(hand)
        s.flush()
        self._apply(s, group, ts, _deltas(hand), -1)

    def _apply(
        self, s: Session, group: ChatGroup, ts: TableSession, deltas: dict[int, _Delta], sign: int
    ) -> None:
        """Add (sign +1) or take back (sign -1) a row's deltas in the session and all-time running totals."""
        _apply_totals(s.connection(), _id(group), _id(ts), deltas, sign)

    def _existing(self, s: Session, source_key: str | None, *, void: bool = False) -> Hand | None:
        if source_key is None:
            return None
        column = Hand.void_key if void else Hand.source_key
        return s.scalars(select(Hand).where(column == source_key)).first()

    def _repeat(self, s: Session, hand: Hand) -> CommitResult:
        ts = _session_row(s, hand.session_id)
        return CommitResult(hand=_hand_record(s, hand), created=False, session=_session_info(s, ts))

    def commit(
        self,
        chat_id: int,
        entry: dict[str, Any],
        *,
        by: UserRef | None = None,
        source_key: str | None = None,
        text: str | None = None,
        expect_seats: Mapping[str, int] | None = None,
    ) -> CommitResult:
        """Score and record a hand in one transaction: hand row, payments, running totals, dealer state.
        Idempotent on `source_key` (e.g. "update:<update_id>"): a repeat returns the existing hand with
        `created == False`. WinNotAllowed, InvalidEntry, TableNotFull, NoOpenSession.
        `expect_seats` (seat -> player id): the seating the entry was read against (e.g. a table the caller
        remembers instead of reading it again); if the open table is seated otherwise, PendingStale
        (params: reason="seats") and nothing is written."""

        def op(conn: Connection) -> CommitResult | int:
            if source_key is not None:
                existing = self._hot.hand_by_source.rows(conn, {"source_key": source_key})
                if existing:
                    return int(existing[0][0])
            table = _load_table(self._hot, conn, chat_id, lock=True)
            if table is None:
                raise errors.NoOpenSession("this group has no open table session", chat_id=chat_id)
            if expect_seats is not None and {x: p.id for x, p in table.seats.items()} != dict(expect_seats):
                raise errors.PendingStale("the table is seated otherwise than assumed", reason="seats")
            preview = self._score(table, table.seats, DealerState.from_json(table.state), entry)
            actor = self._actor_core(conn, table, by)
            return self._record(conn, table, preview, actor=actor, source_key=source_key, text=text)

        result = self._write_core(op)
        if isinstance(result, int):  # a repeat: the hand recorded by the first delivery
            hand_id = result
            return self._read(lambda s: self._repeat(s, _hand_row(s, hand_id)))
        return result

    def _actor_core(self, conn: Connection, table: _Table, by: UserRef | None) -> int | None:
        """`_actor` on a Core connection; a seated player whose name has not changed costs no statement."""
        if by is None:
            return None
        name = _clean_name(by.display_name) or (by.username or str(by.telegram_id))
        username = by.username.lstrip("@") if by.username else None
        seat = next((x for x, p in table.seats.items() if p.telegram_id == by.telegram_id), None)
        seated = table.seats[seat] if seat is not None else None
        if seated is not None and (seated.username, seated.display_name) == (username, name):
            return seated.id
        row = conn.execute(
            _PLAYER_BY_TELEGRAM, {"group_id": table.group_id, "telegram_id": by.telegram_id}
        ).first()
        if row is None:
            inserted = conn.execute(
                _INSERT_PLAYER,
                {
                    "group_id": table.group_id,
                    "telegram_id": by.telegram_id,
                    "username": username,
                    "display_name": name,
                    "guest_key": None,
                    "created_at": self._now(),
                },
            )
            return int(inserted.inserted_primary_key[0])
        player_id = int(row.id)
        if (row.username, row.display_name) != (username, name):
            conn.execute(_RENAME_PLAYER, {"b_id": player_id, "b_username": username, "b_display_name": name})
            if seat is not None:
                table.seats[seat] = replace(table.seats[seat], username=username, display_name=name)
        return player_id

    def _record(
        self,
        conn: Connection,
        table: _Table,
        preview: HandPreview,
        *,
        actor: int | None,
        source_key: str | None,
        text: str | None,
    ) -> CommitResult:
        """Write a scored hand (win, draw or escape) as the next row of the open table, in Core: the hand, its
        payments, the running totals and the session's dealer state. Returns without re-reading anything."""
        if not preview.allowed:
            raise errors.WinNotAllowed(_refusal(preview), reasons=preview.reasons, number=table.live_rows + 1)
        total = sum(preview.payments.values())
        if total != 0:
            raise errors.ZeroSumViolation(f"payments sum to {total}", total=total)
        seat_players = {seat: p.id for seat, p in table.seats.items()}
        now = self._now()
        seq, number = table.last_seq + 1, table.live_rows + 1
        hot = self._hot
        inserted = hot.insert_hand.rows(
            conn,
            {
                "session_id": table.id,
                "seq": seq,
                "number": number,
                "kind": preview.kind,
                "text": text,
                "entry": preview.entry,
                "request": preview.request,
                "response": preview.response,
                "state_before": preview.before.to_json(),
                "state_after": preview.after.to_json(),
                "seat_players": seat_players,
                "note": preview.note,
                "dealer_after_player_id": seat_players.get(preview.after.dealer),
                "streak_after": preview.after.streak,
                "recorded_by": actor,
                "recorded_at": now,
                "source_key": source_key,
                "voided": False,
                "voided_by": None,
                "voided_at": None,
                "void_key": None,
                "replaced_by": None,
                "replaces": None,
            },
        )
        hand_id = int(inserted[0][0])
        hua = _hua_by_seat(preview.response)
        hot.insert_payments.run(
            conn,
            [
                {
                    "hand_id": hand_id,
                    "player_id": seat_players[seat],
                    "amount": amount,
                    "hua": hua.get(seat, 0),
                }
                for seat, amount in preview.payments.items()
            ],
        )
        deltas = _row_deltas(preview.kind, seat_players, preview.request, preview.response)
        rows = _total_rows(deltas, +1)
        for scope, scope_id in (("session_id", table.id), ("group_id", table.group_id)):
            hot.totals[scope].run(conn, [{scope: scope_id, **row} for row in rows])
        state = preview.after.to_json()
        played = 0 if preview.kind == "adjust" else 1
        hot.session_after_hand.run(
            conn, {"b_id": table.id, "b_state": state, "b_seq": seq, "b_played": played, "b_now": now}
        )
        table.state, table.last_seq, table.live_rows = state, seq, number
        table.hands_played += played
        table.version += 1
        table.last_activity_at = now
        hand = HandRecord(
            id=hand_id,
            session_id=table.id,
            seq=seq,
            number=number,
            kind=preview.kind,
            text=text,
            entry=dict(preview.entry),
            request=dict(preview.request),
            response=dict(preview.response),
            payments=_payments_of(preview.response),
            player_payments=dict(preview.player_payments),
            before=preview.before,
            after=preview.after,
            note=preview.note,
            recorded_by=actor,
            recorded_at=now,
            source_key=source_key,
            voided=False,
            voided_by=None,
            voided_at=None,
            replaced_by=None,
            replaces=None,
        )
        return CommitResult(hand=hand, created=True, session=_table_info(table))

    def _commit_in(
        self,
        s: Session,
        group: ChatGroup,
        ts: TableSession,
        entry: object,
        *,
        by: UserRef | None,
        source_key: str | None,
        text: str | None,
    ) -> CommitResult:
        preview = self._score(ts, _seats(s, _id(ts)), DealerState.from_json(ts.state), entry)
        hand = self._insert(
            s,
            group,
            ts,
            preview,
            number=ts.live_rows + 1,
            actor=self._actor(s, group, by),
            source_key=source_key,
            text=text,
        )
        ts.state = preview.after.to_json()
        ts.live_rows += 1
        ts.hands_played += 1
        self._touch(ts)
        s.add(ts)
        s.flush()
        return CommitResult(
            hand=_hand_record(s, hand, preview.player_payments),
            created=True,
            session=_session_info(s, ts, group.chat_id),
        )

    def adjust(
        self,
        chat_id: int,
        payer_id: int,
        payee_id: int,
        amount: int,
        *,
        note: str | None = None,
        by: UserRef | None = None,
        source_key: str | None = None,
        text: str | None = None,
    ) -> CommitResult:
        """Record a zero-sum side payment (payer -> payee, amount > 0, both seated) with a note; it does not
        change the dealer state. Idempotent on `source_key`."""

        def op(s: Session) -> CommitResult:
            existing = self._existing(s, source_key)
            if existing is not None:
                return self._repeat(s, existing)
            group, ts = self._lock_open(s, chat_id)
            return self._adjust_in(s, group, ts, payer_id, payee_id, amount, note, by, source_key, text)

        return self._write(op)

    def _adjust_in(
        self,
        s: Session,
        group: ChatGroup,
        ts: TableSession,
        payer_id: int,
        payee_id: int,
        amount: int,
        note: str | None,
        by: UserRef | None,
        source_key: str | None,
        text: str | None,
    ) -> CommitResult:
        preview = self._adjust_preview(s, ts, payer_id, payee_id, amount, note)
        hand = self._insert(
            s,
            group,
            ts,
            preview,
            number=ts.live_rows + 1,
            actor=self._actor(s, group, by),
            source_key=source_key,
            text=text,
        )
        ts.live_rows += 1
        self._touch(ts)
        s.add(ts)
        s.flush()
        return CommitResult(
            hand=_hand_record(s, hand, preview.player_payments),
            created=True,
            session=_session_info(s, ts, group.chat_id),
        )

    def undo(self, chat_id: int, *, by: UserRef | None = None, source_key: str | None = None) -> CommitResult:
        """Void the last live row of the open session; the dealer state, 连庄, 滴零 and 豹子 roll back to
        before it. `result.hand` is the voided hand. NothingToUndo. Idempotent on `source_key`."""

        def op(s: Session) -> CommitResult:
            existing = self._existing(s, source_key, void=True)
            if existing is not None:
                return self._repeat(s, existing)
            group, ts = self._lock_open(s, chat_id)
            return self._undo_in(s, group, ts, by, source_key, expected_id=None)

        return self._write(op)

    def _last_live(self, s: Session, ts: TableSession) -> Hand | None:
        return s.scalars(
            select(Hand)
            .where(Hand.session_id == ts.id, Hand.voided.is_(False))  # type: ignore[attr-defined]
            .order_by(Hand.number.desc())
            .limit(1)
        ).first()  # type: ignore[attr-defined]

    def _undo_in(
        self,
        s: Session,
        group: ChatGroup,
        ts: TableSession,
        by: UserRef | None,
        void_key: str | None,
        *,
        expected_id: int | None,
    ) -> CommitResult:
        last = self._last_live(s, ts)
        if last is None or (expected_id is not None and last.id != expected_id):
            if last is None:
                raise errors.NothingToUndo("no hand to undo in this session")
            raise errors.PendingStale("the last hand changed since the preview", number=last.number)
        self._void(s, group, ts, last, self._actor(s, group, by), void_key)
        ts.state = dict(last.state_before)
        ts.live_rows -= 1
        if last.kind != "adjust":
            ts.hands_played -= 1
        self._touch(ts)
        s.add(ts)
        s.flush()
        return CommitResult(
            hand=_hand_record(s, last),
            created=True,
            session=_session_info(s, ts, group.chat_id),
            voided=(_hand_record(s, last),),
        )

    def _plan_edit(
        self, s: Session, ts: TableSession, number: int, entry: object
    ) -> list[tuple[Hand, HandPreview]]:
        """(old row, replacement preview) for hand `number` and each later row whose result changes."""
        target = s.scalars(
            select(Hand).where(Hand.session_id == ts.id, Hand.number == number, Hand.voided.is_(False))
        ).first()  # type: ignore[attr-defined]
        if target is None:
            raise errors.HandNotFound(f"no hand {number} in this session", number=number)
        if target.kind == "adjust":
            raise errors.InvalidValue(
                f"row {number} is an adjustment: undo it and adjust again", field="number", value=number
            )
        seats = _seats(s, _id(ts))
        later = list(
            s.scalars(
                select(Hand)
                .where(Hand.session_id == ts.id, Hand.number > number, Hand.voided.is_(False))
                .order_by(Hand.number)
            )
        )  # type: ignore[attr-defined]
        plan: list[tuple[Hand, HandPreview]] = []
        state = DealerState.from_json(target.state_before)
        first = self._score(
            ts,
            seats,
            state,
            entry,
            rules=target.request["rules"],
            options=target.request["options"],
            stake=target.request["stake"],
        )
        plan.append((target, first))
        state = first.after
        for row in later:
            before = replace(state, baozi=DealerState.from_json(row.state_before).baozi)
            if before.to_json() == row.state_before:
                break  # same state as recorded: this and every later row are unchanged
            if row.kind == "adjust":
                adjusted = HandPreview(
                    session_id=_id(ts),
                    kind="adjust",
                    entry=row.entry,
                    request=row.request,
                    response=row.response,
                    payments=_payments_of(row.response),
                    player_payments={},
                    before=before,
                    after=before,
                    note=row.note,
                )
                plan.append((row, adjusted))
                state = before
                continue
            try:
                rescored = self._score(
                    ts,
                    seats,
                    before,
                    row.entry,
                    rules=row.request["rules"],
                    options=row.request["options"],
                    stake=row.request["stake"],
                )
            except errors.LedgerError as exc:
                raise type(exc)(
                    f"hand {row.number} after the edit: {exc}", **{**exc.params, "number": row.number}
                ) from exc
            if not rescored.allowed:
                raise errors.WinNotAllowed(
                    f"hand {row.number} after the edit: {_refusal(rescored)}",
                    reasons=rescored.reasons,
                    number=row.number,
                )
            plan.append((row, rescored))
            state = rescored.after
        return plan

    def preview_edit(self, chat_id: int, number: int, entry: dict[str, Any]) -> tuple[HandPreview, ...]:
        """What `edit` would write: the replacement of hand `number` followed by every later live hand
        whose result changes, re-scored from the corrected dealer state, without recording anything."""

        def op(s: Session) -> tuple[HandPreview, ...]:
            group = self._group(s, chat_id, create=False)
            ts = _open_session_row(s, _id(group), lock=False) if group is not None else None
            if ts is None:
                raise errors.NoOpenSession("this group has no open table session", chat_id=chat_id)
            return tuple(preview for _row, preview in self._plan_edit(s, ts, number, entry))

        return self._read(op)

    def edit(
        self,
        chat_id: int,
        number: int,
        entry: dict[str, Any],
        *,
        by: UserRef | None = None,
        source_key: str | None = None,
        text: str | None = None,
    ) -> CommitResult:
        """Replace hand `number` with a corrected entry and re-score every later live hand from the
        corrected dealer state, in one transaction. Old rows are voided and point to their replacements
        (`replaced_by`); nothing is deleted. `result.hand` is the replacement of hand `number`,
        `result.replaced` all replacements. HandNotFound, WinNotAllowed, InvalidEntry."""

        def op(s: Session) -> CommitResult:
            existing = self._existing(s, source_key)
            if existing is not None:
                return self._repeat(s, existing)
            group, ts = self._lock_open(s, chat_id)
            return self._edit_in(s, group, ts, number, entry, by, source_key, text)

        return self._write(op)

    def _edit_in(
        self,
        s: Session,
        group: ChatGroup,
        ts: TableSession,
        number: int,
        entry: object,
        by: UserRef | None,
        source_key: str | None,
        text: str | None,
    ) -> CommitResult:
        plan = self._plan_edit(s, ts, number, entry)
        actor = self._actor(s, group, by)
        old_rows = [row for row, _preview in plan]
        for row in old_rows:
            self._void(s, group, ts, row, actor, None)
        new_rows: list[Hand] = []
        for index, (row, preview) in enumerate(plan):
            if row.kind == "adjust":
                preview = replace(
                    preview,
                    player_payments={
                        int(row.seat_players[seat]): amount for seat, amount in preview.payments.items()
                    },
                )
            new = self._insert(
                s,
                group,
                ts,
                preview,
                number=row.number,
                actor=actor,
                source_key=source_key if index == 0 else None,
                text=text if index == 0 else row.text,
                replaces=row.id,
            )
            row.replaced_by = new.id
            s.add(row)
            new_rows.append(new)
        last_changed = plan[-1]
        tail = s.scalars(
            select(Hand)
            .where(Hand.session_id == ts.id, Hand.number > last_changed[0].number, Hand.voided.is_(False))
            .limit(1)
        ).first()  # type: ignore[attr-defined]
        if tail is None:
            # The edit reached the last row: the coming hand starts from the new final state (its 豹子 kept).
            coming = DealerState.from_json(ts.state)
            ts.state = replace(last_changed[1].after, baozi=coming.baozi).to_json()
        self._touch(ts)
        s.add(ts)
        s.flush()
        records = tuple(_hand_record(s, h) for h in new_rows)
        return CommitResult(
            hand=records[0],
            created=True,
            session=_session_info(s, ts, group.chat_id),
            voided=tuple(_hand_record(s, h) for h in old_rows),
            replaced=records,
        )

    # ---- pending entries (preview + Confirm/Cancel) -----------------------------------------------

    def create_pending(
        self,
        chat_id: int,
        kind: PendingKind,
        payload: dict[str, Any],
        *,
        by: UserRef | None = None,
        text: str | None = None,
        timeout_seconds: int | None = None,
        source_key: str | None = None,
    ) -> PendingInfo:
        """Store an entry awaiting confirmation, with its preview, expiring after `timeout_seconds`
        (default the group's). payload by kind: "hand" -> the entry; "edit" -> {"number", "entry"};
        "adjust" -> {"payer", "payee", "amount", "note"} (player ids); "undo" -> {}.
        Validation is the same as the direct operation (errors raised here, nothing stored).
        Idempotent on `source_key` (e.g. "update:<update_id>"): a repeat returns the entry the first call
        stored, whatever its status now (its `message_id` tells whether the preview was already shown)."""
        if kind not in PENDING_KINDS:
            raise errors.InvalidValue(f"unknown pending kind {kind!r}", field="kind", value=kind)
        if not isinstance(payload, dict):
            raise errors.InvalidValue("payload must be an object", field="payload", value=repr(payload))
        keyed_id = pending_id_for(source_key) if source_key is not None else None
        if kind == "hand":
            timeout = timeout_seconds
            return self._write_core(
                lambda conn: self._create_pending_hand(conn, chat_id, payload, by, text, timeout, keyed_id)
            )

        def op(s: Session) -> PendingInfo:
            if keyed_id is not None:
                earlier = s.get(PendingEntry, keyed_id)
                if earlier is not None:
                    return _pending_info(earlier, _chat_of_session(s, earlier.session_id))
            group, ts = self._lock_open(s, chat_id)
            stored = copy.deepcopy(payload)
            preview: HandPreview | None
            if kind == "hand":
                preview = self._score(ts, _seats(s, _id(ts)), DealerState.from_json(ts.state), payload)
                if not preview.allowed:
                    raise errors.WinNotAllowed(_refusal(preview), reasons=preview.reasons)
            elif kind == "edit":
                number = _int_field(payload, "number")
                preview = self._plan_edit(s, ts, number, payload.get("entry"))[0][1]
            elif kind == "adjust":
                preview = self._adjust_preview(
                    s,
                    ts,
                    _int_field(payload, "payer"),
                    _int_field(payload, "payee"),
                    _int_field(payload, "amount"),
                    _note(payload.get("note")),
                )
            else:
                last = self._last_live(s, ts)
                if last is None:
                    raise errors.NothingToUndo("no hand to undo in this session")
                stored = {"hand_id": last.id, "number": last.number}
                preview = None
            now = self._now()
            timeout = timeout_seconds if timeout_seconds is not None else group.confirm_timeout_seconds
            pending = PendingEntry(
                id=keyed_id or secrets.token_hex(6),
                session_id=_id(ts),
                kind=kind,
                payload=stored,
                text=text,
                preview=_preview_json(preview) if preview is not None else {},
                base_version=ts.version,
                created_by=self._actor(s, group, by),
                created_at=now,
                expires_at=now + timedelta(seconds=timeout),
                status="pending",
            )
            s.add(pending)
            s.flush()
            return _pending_info(pending, group.chat_id)

        return self._write(op)

    def _create_pending_hand(
        self,
        conn: Connection,
        chat_id: int,
        payload: dict[str, Any],
        by: UserRef | None,
        text: str | None,
        timeout_seconds: int | None,
        keyed_id: str | None,
    ) -> PendingInfo:
        """`create_pending` of a hand, in Core: one SELECT of the table, the scoring, one INSERT."""
        sql = self._pending_sql
        if keyed_id is not None:
            earlier = sql.by_id.rows(conn, {"pending_id": keyed_id})
            if earlier:
                return _pending_from_row(earlier[0])[1]
        table = _load_table(self._hot, conn, chat_id, lock=True)
        if table is None:
            raise errors.NoOpenSession("this group has no open table session", chat_id=chat_id)
        preview = self._score(table, table.seats, DealerState.from_json(table.state), payload)
        if not preview.allowed:
            raise errors.WinNotAllowed(_refusal(preview), reasons=preview.reasons)
        now = self._now()
        timeout = timeout_seconds if timeout_seconds is not None else table.confirm_timeout_seconds
        values = {
            "id": keyed_id or secrets.token_hex(6),
            "session_id": table.id,
            "kind": "hand",
            "payload": _copy_json(payload),
            "text": text,
            "preview": _preview_json(preview),
            "base_version": table.version,
            "created_by": self._actor_core(conn, table, by),
            "created_at": now,
            "expires_at": now + timedelta(seconds=timeout),
            "message_id": None,
            "status": "pending",
            "consumed_at": None,
            "hand_id": None,
        }
        sql.insert.run(conn, values)
        return _pending_from_row((*(values[name] for name in _PENDING_NAMES), table.chat_id))[1]

    def _pending_row(self, s: Session, pending_id: str, *, lock: bool) -> PendingEntry:
        query = select(PendingEntry).where(PendingEntry.id == pending_id)
        if lock:
            query = query.with_for_update().execution_options(populate_existing=True)
        pending = s.scalars(query).first()
        if pending is None:
            raise errors.NotFound(f"no pending entry {pending_id!r}", what="pending", id=pending_id)
        return pending

    def set_pending_message(self, pending_id: str, message_id: int) -> PendingInfo:
        """Remember the chat message that shows the preview (to edit it on confirm/cancel/expiry)."""

        def op(conn: Connection) -> PendingInfo:
            sql = self._pending_sql
            sql.message.run(conn, {"b_id": pending_id, "b_message": message_id})
            return self._pending_core(conn, pending_id, lock=False)[1]

        return self._write_core(op)

    def _pending_core(
        self, conn: Connection, pending_id: str, *, lock: bool
    ) -> tuple[dict[str, Any], PendingInfo]:
        rows = (self._pending_sql.by_id_locked if lock else self._pending_sql.by_id).rows(
            conn, {"pending_id": pending_id}
        )
        if not rows:
            raise errors.NotFound(f"no pending entry {pending_id!r}", what="pending", id=pending_id)
        return _pending_from_row(rows[0])

    def get_pending(self, pending_id: str) -> PendingInfo:
        """A pending entry by id (NotFound)."""

        return self._read_core(lambda conn: self._pending_core(conn, pending_id, lock=False)[1])

    def confirm_pending(self, pending_id: str, *, by: UserRef | None = None) -> CommitResult:
        """Carry out a pending entry exactly once (source key "pending:<id>"); a second confirm returns the
        same result with `created == False`. PendingExpired, PendingCancelled, PendingStale (the table
        changed since the preview), SessionNotOpen, NotFound."""
        key = f"pending:{pending_id}"

        def fast(conn: Connection) -> CommitResult | int | None:
            """Kind "hand" in Core; None for the other kinds (the ORM path below), a hand id on a repeat."""
            values, _info = self._pending_core(conn, pending_id, lock=False)
            if values["kind"] != "hand":
                return None
            # Lock order session -> pending, as every other writer.
            table = _load_table(self._hot, conn, None, lock=True, session_id=values["session_id"])
            assert table is not None  # the pending row's foreign key
            values, _info = self._pending_core(conn, pending_id, lock=True)
            if values["status"] == "committed" and values["hand_id"] is not None:
                return int(values["hand_id"])
            if values["status"] == "cancelled":
                raise errors.PendingCancelled("this entry was cancelled", pending_id=pending_id)
            if values["status"] == "expired" or _aware(values["expires_at"]) <= self._now():
                raise errors.PendingExpired(
                    "this entry expired before it was confirmed", pending_id=pending_id
                )
            if table.status != "open":
                raise errors.SessionNotOpen(
                    f"session {table.number} has ended", session_id=table.id, number=table.number
                )
            if table.version != values["base_version"]:
                raise errors.PendingStale(
                    "the table changed since this preview; enter it again", pending_id=pending_id
                )
            preview = self._score(table, table.seats, DealerState.from_json(table.state), values["payload"])
            actor = self._actor_core(conn, table, by)
            result = self._record(conn, table, preview, actor=actor, source_key=key, text=values["text"])
            now, hand_id = self._now(), result.hand.id
            done = {"b_id": pending_id, "b_status": "committed", "b_at": now, "b_hand": hand_id}
            self._pending_sql.done.run(conn, done)
            return result

        outcome = self._write_core(fast)
        if isinstance(outcome, int):  # confirmed before: the hand it recorded
            hand_id = outcome
            return self._read(lambda s: self._repeat(s, _hand_row(s, hand_id)))
        if outcome is not None:
            return outcome

        def op(s: Session) -> CommitResult:
            # Lock order session -> pending, as every other writer: no deadlock with end_session.
            session_id = self._pending_row(s, pending_id, lock=False).session_id
            ts = s.scalars(select(TableSession).where(TableSession.id == session_id).with_for_update()).one()
            pending = self._pending_row(s, pending_id, lock=True)
            if pending.status == "committed" and pending.hand_id is not None:
                hand = s.get(Hand, pending.hand_id)
                assert hand is not None
                return self._repeat(s, hand)
            if pending.status == "cancelled":
                raise errors.PendingCancelled("this entry was cancelled", pending_id=pending_id)
            if pending.status == "expired" or pending.expires_at <= self._now():
                raise errors.PendingExpired(
                    "this entry expired before it was confirmed", pending_id=pending_id
                )
            if ts.status != "open":
                raise errors.SessionNotOpen(
                    f"session {ts.number} has ended", session_id=ts.id, number=ts.number
                )
            if ts.version != pending.base_version:
                raise errors.PendingStale(
                    "the table changed since this preview; enter it again", pending_id=pending_id
                )
            group = s.get(ChatGroup, ts.group_id)
            assert group is not None
            payload = pending.payload
            if pending.kind == "hand":
                result = self._commit_in(s, group, ts, payload, by=by, source_key=key, text=pending.text)
            elif pending.kind == "edit":
                result = self._edit_in(
                    s, group, ts, int(payload["number"]), payload.get("entry"), by, key, pending.text
                )
            elif pending.kind == "adjust":
                result = self._adjust_in(
                    s,
                    group,
                    ts,
                    int(payload["payer"]),
                    int(payload["payee"]),
                    int(payload["amount"]),
                    _note(payload.get("note")),
                    by,
                    key,
                    pending.text,
                )
            else:
                result = self._undo_in(s, group, ts, by, key, expected_id=int(payload["hand_id"]))
            pending.status = "committed"
            pending.consumed_at = self._now()
            pending.hand_id = result.hand.id
            s.add(pending)
            return result

        return self._write(op)

    def cancel_pending(self, pending_id: str, *, by: UserRef | None = None) -> PendingInfo:
        """Drop a pending entry (no-op if already cancelled/expired; committed ones stay committed)."""

        def op(s: Session) -> PendingInfo:
            pending = self._pending_row(s, pending_id, lock=True)
            if pending.status == "pending":
                pending.status = "cancelled"
                pending.consumed_at = self._now()
                s.add(pending)
            return _pending_info(pending, _chat_of_session(s, pending.session_id))

        return self._write(op)

    def expire_pending(self, *, now: datetime | None = None) -> list[PendingInfo]:
        """Mark every pending entry past its expiry as expired and return them (to edit their messages)."""
        moment = now or self._now()

        def op(s: Session) -> list[PendingInfo]:
            rows = list(
                s.scalars(
                    select(PendingEntry)
                    .where(PendingEntry.status == "pending", PendingEntry.expires_at <= moment)
                    .with_for_update()
                )
            )
            for pending in rows:
                pending.status = "expired"
                pending.consumed_at = moment
                s.add(pending)
            return [_pending_info(p, _chat_of_session(s, p.session_id)) for p in rows]

        return self._write(op)

    def open_pending(self, chat_id: int) -> list[PendingInfo]:
        """The group's entries still awaiting confirmation."""

        def op(s: Session) -> list[PendingInfo]:
            rows = s.scalars(
                select(PendingEntry)
                .join(TableSession)
                .join(ChatGroup)
                .where(ChatGroup.chat_id == chat_id, PendingEntry.status == "pending")
                .order_by(PendingEntry.created_at)
            )
            return [_pending_info(p, chat_id) for p in rows]

        return self._read(op)

    # ---- reading ------------------------------------------------------------------------------------

    def hands(self, session_id: int, *, include_voided: bool = False) -> list[HandRecord]:
        """The session's rows in ledger order (by number, then seq); voided rows only when asked."""

        def op(s: Session) -> list[HandRecord]:
            _session_row(s, session_id)
            query = select(Hand).where(Hand.session_id == session_id)
            if not include_voided:
                query = query.where(Hand.voided.is_(False))  # type: ignore[attr-defined]
            rows = list(s.scalars(query.order_by(Hand.number, Hand.seq)))
            return _hand_records(s, rows)

        return self._read(op)

    def get_hand(self, session_id: int, number: int) -> HandRecord:
        """The live hand with this number (HandNotFound)."""

        def op(s: Session) -> HandRecord:
            hand = s.scalars(
                select(Hand).where(
                    Hand.session_id == session_id, Hand.number == number, Hand.voided.is_(False)
                )
            ).first()  # type: ignore[attr-defined]
            if hand is None:
                raise errors.HandNotFound(f"no hand {number} in this session", number=number)
            return _hand_record(s, hand)

        return self._read(op)

    def ledger(self, session_id: int) -> list[LedgerRow]:
        """Hand-by-hand rows of live hands with every seat's running total after each."""
        rows: list[LedgerRow] = []
        running: dict[str, int] = dict.fromkeys(SEATS, 0)
        for hand in self.hands(session_id):
            for seat, amount in hand.payments.items():
                running[seat] = running.get(seat, 0) + amount
            rows.append(LedgerRow(hand=hand, running=dict(running)))
        return rows

    def standings(self, chat_id: int, *, session_id: int | None = None) -> StandingsReport:
        """Session standings (the open session, or `session_id`) and the group's all-time standings,
        read from running totals (never a scan of the hands)."""

        def op(s: Session) -> StandingsReport:
            group = self._group(s, chat_id, create=False)
            if group is None:
                return StandingsReport(session=None, session_rows=(), alltime_rows=())
            if session_id is not None:
                ts: TableSession | None = _session_row(s, session_id)
            else:
                ts = _open_session_row(s, _id(group), lock=False)
            session_rows: tuple[Standing, ...] = ()
            info = None
            if ts is not None:
                info = _session_info(s, ts, chat_id)
                session_rows = _session_standings(s, ts, info, chat_id)
            alltime = s.execute(
                select(GroupTotal, Player)
                .join(Player, Player.id == GroupTotal.player_id)
                .where(GroupTotal.group_id == group.id)
                .order_by(GroupTotal.net.desc(), Player.id)
            )  # type: ignore[attr-defined]
            alltime_rows = tuple(
                _standing(total, player, chat_id, None)
                for total, player in alltime
                if total.hands or total.net
            )
            return StandingsReport(session=info, session_rows=session_rows, alltime_rows=alltime_rows)

        return self._read(op)

    def player_stats(
        self, chat_id: int, *, session_id: int | None = None, player_id: int | None = None
    ) -> list[PlayerStats]:
        """Per-player stats for one session or the group's whole history; one player with `player_id`.
        Players who never played are left out; ordered by net, best first."""

        def op(s: Session) -> list[PlayerStats]:
            group = self._group(s, chat_id, create=False)
            if group is None:
                return []
            totals: list[tuple[SessionTotal | GroupTotal, Player]]
            hand_scope: Any
            if session_id is not None:
                _session_row(s, session_id)
                query = (
                    select(SessionTotal, Player)
                    .join(Player, Player.id == SessionTotal.player_id)
                    .where(SessionTotal.session_id == session_id)
                )
                if player_id is not None:
                    query = query.where(SessionTotal.player_id == player_id)
                totals = [(t, p) for t, p in s.execute(query)]
                hand_scope = Hand.session_id == session_id
            else:
                query = (
                    select(GroupTotal, Player)
                    .join(Player, Player.id == GroupTotal.player_id)
                    .where(GroupTotal.group_id == group.id)
                )
                if player_id is not None:
                    query = query.where(GroupTotal.player_id == player_id)
                totals = [(t, p) for t, p in s.execute(query)]
                hand_scope = Hand.session_id.in_(  # type: ignore[attr-defined]
                    select(TableSession.id).where(TableSession.group_id == group.id)
                )
            live = Hand.voided.is_(False)  # type: ignore[attr-defined]
            biggest = {
                pid: (amount or 0, hua or 0)
                for pid, amount, hua in s.execute(
                    select(Payment.player_id, func.max(Payment.amount), func.max(Payment.hua))
                    .join(Hand, Hand.id == Payment.hand_id)
                    .where(hand_scope, live, Hand.kind == "win", Payment.amount > 0)
                    .group_by(Payment.player_id)
                )
            }
            streaks: dict[int, int] = _pairs(
                s.execute(
                    select(Hand.dealer_after_player_id, func.max(Hand.streak_after))
                    .where(hand_scope, live, Hand.dealer_after_player_id.is_not(None))  # type: ignore[union-attr]
                    .group_by(Hand.dealer_after_player_id)
                )
            )
            session_counts: dict[int, int] = _pairs(
                s.execute(
                    select(SessionTotal.player_id, func.count())
                    .join(TableSession, TableSession.id == SessionTotal.session_id)
                    .where(TableSession.group_id == group.id, SessionTotal.hands > 0)
                    .group_by(SessionTotal.player_id)
                )
            )
            stats = [
                PlayerStats(
                    player=_player_info(player, chat_id),
                    sessions=(1 if total.hands else 0)
                    if session_id is not None
                    else int(session_counts.get(_id(player), 0)),
                    hands=total.hands,
                    wins=total.wins,
                    self_draws=total.self_draws,
                    dealt_in=total.dealt_in,
                    biggest_win=int(biggest.get(_id(player), (0, 0))[0]),
                    biggest_hua=int(biggest.get(_id(player), (0, 0))[1]),
                    longest_streak=int(streaks.get(_id(player)) or 0),
                    net=total.net,
                )
                for total, player in totals
                if total.hands or total.net or player_id is not None
            ]
            stats.sort(key=lambda st: (-st.net, st.player.id))
            return stats

        return self._read(op)

    def history(self, chat_id: int, *, limit: int = 20) -> list[SessionSummary]:
        """The group's sessions, newest first, with each player's net."""

        def op(s: Session) -> list[SessionSummary]:
            group = self._group(s, chat_id, create=False)
            if group is None:
                return []
            rows = s.scalars(
                select(TableSession)
                .where(TableSession.group_id == group.id)
                .order_by(TableSession.number.desc())
                .limit(limit)
            )  # type: ignore[attr-defined]
            return [_summary(s, ts, chat_id) for ts in rows]

        return self._read(op)

    def session_summary(self, session_id: int) -> SessionSummary:
        """One session with each player's net and its hand count."""
        return self._read(lambda s: _summary(s, _session_row(s, session_id)))

    def transfers(self, session_id: int) -> list[Transfer]:
        """The fewest payments that settle the session (exact for up to 8 players, greedy beyond)."""

        def op(s: Session) -> list[Transfer]:
            ts = _session_row(s, session_id)
            chat_id = _chat_of_session(s, _id(ts))
            rows = list(
                s.execute(
                    select(SessionTotal, Player)
                    .join(Player, Player.id == SessionTotal.player_id)
                    .where(SessionTotal.session_id == session_id)
                    .order_by(Player.id)
                )
            )
            players = {_id(p): _player_info(p, chat_id) for _t, p in rows}
            balances = {_id(p): t.net for t, p in rows}
            if sum(balances.values()) != 0:
                raise errors.ZeroSumViolation(
                    f"session totals sum to {sum(balances.values())}", total=sum(balances.values())
                )
            return [Transfer(players[a], players[b], amount) for a, b, amount in minimal_transfers(balances)]

        return self._read(op)


# ---- module helpers -----------------------------------------------------------------------------------


def pending_id_for(source_key: str) -> str:
    """The id of the pending entry created under `source_key` (32 hex digits, the same in every process)."""
    return uuid.uuid5(PENDING_KEYS, source_key).hex


def _retryable(exc: DBAPIError) -> bool:
    """A unique violation or a serialization / deadlock / lock failure: the transaction can be retried."""
    orig = exc.orig
    sqlstate = getattr(orig, "sqlstate", None) or getattr(getattr(orig, "diag", None), "sqlstate", None)
    if sqlstate is not None:
        return sqlstate in {"23505", "40001", "40P01", "55P03"}
    return "unique constraint failed" in str(orig).lower() or lock_busy(exc)


def _pairs(rows: Iterable[Any]) -> dict[Any, Any]:
    # dict(result) would treat a Result as a mapping (it has .keys()); build it from the row tuples.
    return {key: value for key, value in rows}


def _id(row: Any) -> int:
    value = row.id
    assert value is not None, "row has not been flushed"
    return int(value)


def _clean_name(name: str) -> str:
    return " ".join(name.split())[:128]


def _check_stake(stake: object) -> None:
    if isinstance(stake, bool) or not isinstance(stake, int) or not 1 <= stake <= 1_000_000:
        raise errors.InvalidValue(
            f"stake must be a whole number from 1 to 1000000, got {stake!r}", field="stake", value=stake
        )


def _check_unlocked(ts: TableSession) -> None:
    if ts.live_rows > 0:
        raise errors.SeatsLocked("seats and the first dealer are fixed once a hand is recorded")


def _int_field(payload: dict[str, Any], key: str) -> int:
    value = payload.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise errors.InvalidValue(
            f"payload.{key} must be a whole number, got {value!r}", field=key, value=value
        )
    return value


def _note(value: object) -> str | None:
    if value is None:
        return None
    return str(value)[:500]


def _resolve_rules(name: str) -> str:
    import scoring

    try:
        return str(scoring.resolve_rules(name))
    except scoring.ScoringError as exc:
        raise errors.InvalidValue(str(exc), field="rules", value=name) from exc


def _validate_options(rules: str, options: dict[str, Any]) -> dict[str, Any]:
    import scoring

    try:
        return dict(scoring.validate_options(rules, options))
    except scoring.ScoringError as exc:
        raise errors.InvalidValue(str(exc), field="options", value=repr(options)) from exc


def _check_entry(entry: object) -> dict[str, Any]:
    """The entry as a plain dict with only the keys an entry may carry (the ledger adds the rest)."""
    if not isinstance(entry, dict):
        raise errors.InvalidEntry(
            f"an entry must be an object, got {type(entry).__name__}", detail="entry: not an object"
        )
    extra = sorted(str(k) for k in entry if k not in ENTRY_KEYS)
    if extra:
        detail = f"entry: unexpected field(s) {', '.join(extra)} (allowed: {', '.join(sorted(ENTRY_KEYS))})"
        raise errors.InvalidEntry(detail, detail=detail)
    event = entry.get("event", "win")
    if event not in EVENT_KIND:
        detail = f"event: unknown event {event!r} (win, draw, escape)"
        raise errors.InvalidEntry(detail, detail=detail)
    return _copy_json(entry)


def _copy_json(value: Any) -> Any:
    """A deep copy of JSON-shaped data (dicts, lists, tuples of scalars), several times faster than
    `copy.deepcopy` for entries, options and requests; anything else is shared, as JSON has no such values."""
    if isinstance(value, dict):
        return {key: _copy_json(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_copy_json(item) for item in value]
    if isinstance(value, tuple):
        return tuple(_copy_json(item) for item in value)
    return value


def _call_scoring(request: dict[str, Any]) -> dict[str, Any]:
    import scoring

    try:
        response = scoring.score_request(request)  # never changes its input (tests/scoring/test_fast_path.py)
    except scoring.ScoringError as exc:
        raise errors.InvalidEntry(str(exc), detail=str(exc)) from exc
    return dict(response)


def _payments_of(response: dict[str, Any]) -> dict[str, int]:
    raw = response.get("payments") or {}
    payments: dict[str, int] = {}
    for seat in SEATS:
        value = raw.get(seat, 0)
        if isinstance(value, bool) or not isinstance(value, int):
            raise errors.ZeroSumViolation(f"payment of {seat} is not an integer: {value!r}", total=None)
        payments[seat] = value
    total = sum(payments.values())
    if total != 0:
        raise errors.ZeroSumViolation(f"payments sum to {total}", total=total)
    return {seat: amount for seat, amount in payments.items() if amount or seat in raw}


def _refusal(preview: HandPreview) -> str:
    return "; ".join(f"{r['winner']}: {r['reason']}" for r in preview.reasons) or "win not allowed"


def _hua_by_seat(response: dict[str, Any]) -> dict[str, int]:
    return {
        str(w["winner"]): int(w.get("hua") or 0)
        for w in response.get("wins", [])
        if w.get("allowed", True) and w.get("winner") in SEATS
    }


def _deltas(hand: Hand) -> dict[int, _Delta]:
    """What a ledger row contributes to each player's totals (net, hands, wins, 自摸, 放冲)."""
    return _row_deltas(hand.kind, hand.seat_players, hand.request, hand.response)


def _row_deltas(
    kind: str, seat_players: Mapping[str, Any], request: dict[str, Any], response: dict[str, Any]
) -> dict[int, _Delta]:
    """`_deltas` of a row given by its kind, seat -> player id, scoring request and response."""
    seat_players = {seat: int(pid) for seat, pid in seat_players.items()}
    deltas: dict[int, _Delta] = defaultdict(_Delta)
    for seat, amount in _payments_of(response).items():
        deltas[seat_players[seat]].net += amount
    if kind == "adjust":
        return dict(deltas)
    for pid in seat_players.values():
        deltas[pid].hands += 1
    if kind == "win":
        types = {str(w.get("winner")): str(w.get("type")) for w in request.get("wins", [])}
        dealt = False
        for win in response.get("wins", []):
            if not win.get("allowed", True) or win.get("winner") not in seat_players:
                continue
            deltas[seat_players[win["winner"]]].wins += 1
            win_type = types.get(win["winner"])
            if win_type == "self_draw":
                deltas[seat_players[win["winner"]]].self_draws += 1
            elif win_type in ("discard", "rob_kong"):
                dealt = True
        discarder = request.get("discarder")
        if dealt and discarder in seat_players:
            deltas[seat_players[discarder]].dealt_in += 1
    return dict(deltas)


def _open_session_row(s: Session, group_id: int, *, lock: bool) -> TableSession | None:
    query = select(TableSession).where(TableSession.group_id == group_id, TableSession.status == _OPEN)
    if lock:
        query = query.with_for_update()
    return s.scalars(query).first()


def _session_row(s: Session, session_id: int) -> TableSession:
    ts = s.get(TableSession, session_id)
    if ts is None:
        raise errors.NotFound(f"no session {session_id}", what="session", id=session_id)
    return ts


def _hand_row(s: Session, hand_id: int) -> Hand:
    hand = s.get(Hand, hand_id)
    if hand is None:
        raise errors.NotFound(f"no hand {hand_id}", what="hand", id=hand_id)
    return hand


def _player_row(s: Session, player_id: int) -> Player:
    player = s.get(Player, player_id)
    if player is None:
        raise errors.UnknownPlayer(f"no player {player_id}", ref=str(player_id))
    return player


def _chat_of_session(s: Session, session_id: int) -> int:
    chat_id = s.scalar(
        select(ChatGroup.chat_id)
        .join(TableSession, TableSession.group_id == ChatGroup.id)
        .where(TableSession.id == session_id)
    )
    assert chat_id is not None
    return int(chat_id)


def _seats(s: Session, session_id: int) -> dict[str, Player]:
    """Seat -> player of a session, cached for the rest of the transaction (see `_forget_seats`)."""
    cache: dict[int, dict[str, Player]] = s.info.setdefault("seats", {})
    if session_id not in cache:
        rows = s.execute(
            select(Seat.seat, Player)
            .join(Player, Player.id == Seat.player_id)
            .where(Seat.session_id == session_id)
        )
        cache[session_id] = {seat: player for seat, player in rows if seat in SEATS}
    return dict(cache[session_id])


def _forget_seats(s: Session) -> None:
    s.info.pop("seats", None)


def _group_info(group: ChatGroup) -> GroupInfo:
    return GroupInfo(
        chat_id=group.chat_id,
        language=group.language,
        rules=group.rules,
        options=dict(group.options),
        instant=group.instant,
        confirm_timeout_seconds=group.confirm_timeout_seconds,
        weekly_schedule=group.weekly_schedule,
        created_at=_aware(group.created_at),
    )


def _player_info(player: Player, chat_id: int) -> PlayerInfo:
    return PlayerInfo(
        id=_id(player),
        chat_id=chat_id,
        display_name=player.display_name,
        telegram_id=player.telegram_id,
        username=player.username,
    )


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _session_info(s: Session, ts: TableSession, chat_id: int | None = None) -> SessionInfo:
    if chat_id is None:
        chat_id = _chat_of_session(s, _id(ts))
    seats = {
        seat: _player_info(p, chat_id)
        for seat, p in sorted(_seats(s, _id(ts)).items(), key=lambda kv: SEATS.index(kv[0]))
    }
    return SessionInfo(
        id=_id(ts),
        chat_id=chat_id,
        number=ts.number,
        rules=ts.rules,
        options=dict(ts.options),
        stake=ts.stake,
        seats=seats,
        status="open" if ts.status == "open" else "ended",
        opened_by=ts.opened_by,
        opened_at=_aware(ts.opened_at),
        ended_at=_aware(ts.ended_at) if ts.ended_at else None,
        end_reason=ts.end_reason,
        last_activity_at=_aware(ts.last_activity_at),
        state=DealerState.from_json(ts.state),
        hands_played=ts.hands_played,
        dealer_set=ts.dealer_set,
    )


def _hand_records(s: Session, hands: Iterable[Hand]) -> list[HandRecord]:
    rows = list(hands)
    payments: dict[int, dict[int, int]] = defaultdict(dict)
    ids = [_id(h) for h in rows]
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        for hand_id, player_id, amount in s.execute(
            select(Payment.hand_id, Payment.player_id, Payment.amount).where(Payment.hand_id.in_(chunk))
        ):  # type: ignore[attr-defined]
            payments[hand_id][player_id] = amount
    return [_hand_record(s, h, payments.get(_id(h), {})) for h in rows]


def _hand_record(s: Session, hand: Hand, player_payments: dict[int, int] | None = None) -> HandRecord:
    if player_payments is None:
        player_payments = {
            pid: amount
            for pid, amount in s.execute(
                select(Payment.player_id, Payment.amount).where(Payment.hand_id == hand.id)
            )
        }
    return HandRecord(
        id=_id(hand),
        session_id=hand.session_id,
        seq=hand.seq,
        number=hand.number,
        kind=hand.kind,  # type: ignore[arg-type]
        text=hand.text,
        entry=dict(hand.entry),
        request=dict(hand.request),
        response=dict(hand.response),
        payments=_payments_of(hand.response),
        player_payments=dict(player_payments),
        before=DealerState.from_json(hand.state_before),
        after=DealerState.from_json(hand.state_after),
        note=hand.note,
        recorded_by=hand.recorded_by,
        recorded_at=_aware(hand.recorded_at),
        source_key=hand.source_key,
        voided=hand.voided,
        voided_by=hand.voided_by,
        voided_at=_aware(hand.voided_at) if hand.voided_at else None,
        replaced_by=hand.replaced_by,
        replaces=hand.replaces,
    )


def _standing(total: SessionTotal | GroupTotal, player: Player, chat_id: int, seat: str | None) -> Standing:
    return Standing(
        player=_player_info(player, chat_id),
        seat=seat,
        net=total.net,
        hands=total.hands,
        wins=total.wins,
        self_draws=total.self_draws,
        dealt_in=total.dealt_in,
    )


def _session_standings(s: Session, ts: TableSession, info: SessionInfo, chat_id: int) -> tuple[Standing, ...]:
    seat_of = {p.id: seat for seat, p in info.seats.items()}
    rows = [
        _standing(total, player, chat_id, seat_of.get(_id(player)))
        for total, player in s.execute(
            select(SessionTotal, Player)
            .join(Player, Player.id == SessionTotal.player_id)
            .where(SessionTotal.session_id == ts.id)
        )
    ]
    rows.sort(key=lambda r: (SEATS.index(r.seat) if r.seat else 9, r.player.id))
    return tuple(rows)


def _summary(s: Session, ts: TableSession, chat_id: int | None = None) -> SessionSummary:
    info = _session_info(s, ts, chat_id)
    totals = {
        pid: net
        for pid, net in s.execute(
            select(SessionTotal.player_id, SessionTotal.net).where(SessionTotal.session_id == ts.id)
        )
    }
    return SessionSummary(session=info, totals=totals, hands_played=ts.hands_played)


def _preview_json(preview: HandPreview) -> dict[str, Any]:
    return {
        "session_id": preview.session_id,
        "kind": preview.kind,
        "entry": preview.entry,
        "request": preview.request,
        "response": preview.response,
        "payments": preview.payments,
        "player_payments": {str(k): v for k, v in preview.player_payments.items()},
        "before": preview.before.to_json(),
        "after": preview.after.to_json(),
        "note": preview.note,
    }


def _preview_from_json(obj: dict[str, Any]) -> HandPreview:
    return HandPreview(
        session_id=int(obj["session_id"]),
        kind=obj["kind"],
        entry=obj["entry"],
        request=obj["request"],
        response=obj["response"],
        payments={k: int(v) for k, v in obj["payments"].items()},
        player_payments={int(k): int(v) for k, v in obj["player_payments"].items()},
        before=DealerState.from_json(obj["before"]),
        after=DealerState.from_json(obj["after"]),
        note=obj.get("note"),
    )


def _pending_info(pending: PendingEntry, chat_id: int) -> PendingInfo:
    return PendingInfo(
        id=pending.id,
        session_id=pending.session_id,
        chat_id=chat_id,
        kind=pending.kind,  # type: ignore[arg-type]
        payload=dict(pending.payload),
        text=pending.text,
        preview=_preview_from_json(pending.preview) if pending.preview else None,
        created_by=pending.created_by,
        created_at=_aware(pending.created_at),
        expires_at=_aware(pending.expires_at),
        message_id=pending.message_id,
        status=pending.status,  # type: ignore[arg-type]
        hand_id=pending.hand_id,
    )


# ---- the hot path in SQLAlchemy Core ----------------------------------------------------------------------
# Recording a hand and looking up the open table run on every /hu. They use prebuilt Core statements (compiled
# once, then served from SQLAlchemy's statement cache) instead of ORM objects: the open session, its group and
# its seated players in one SELECT, one INSERT of the hand, one executemany of its payments, one upsert
# executemany per running-totals table and one UPDATE of the session.

_GROUP_T = ChatGroup.__table__  # type: ignore[attr-defined]
_SESSION_T = TableSession.__table__  # type: ignore[attr-defined]
_SEAT_T = Seat.__table__  # type: ignore[attr-defined]
_PLAYER_T = Player.__table__  # type: ignore[attr-defined]
_HAND_T = Hand.__table__  # type: ignore[attr-defined]
_PAYMENT_T = Payment.__table__  # type: ignore[attr-defined]
_TOTAL_TABLES = {"session_id": SessionTotal.__table__, "group_id": GroupTotal.__table__}  # type: ignore[attr-defined]


@dataclass(slots=True)
class _Table:
    """The open session row with its group and seated players, as one SELECT returns them."""

    id: int
    group_id: int
    chat_id: int
    confirm_timeout_seconds: int
    number: int
    rules: str
    options: dict[str, Any]
    stake: int
    status: str
    opened_by: int | None
    opened_at: datetime
    ended_at: datetime | None
    end_reason: str | None
    last_activity_at: datetime
    state: dict[str, Any]
    dealer_set: bool
    last_seq: int
    live_rows: int
    hands_played: int
    version: int
    seats: dict[str, PlayerInfo] = field(default_factory=dict)


_TABLE_COLUMNS = (
    _SESSION_T.c.id,
    _SESSION_T.c.group_id,
    _GROUP_T.c.chat_id,
    _GROUP_T.c.confirm_timeout_seconds,
    *(
        _SESSION_T.c[name]
        for name in (
            "number", "rules", "options", "stake", "status", "opened_by", "opened_at", "ended_at",
            "end_reason", "last_activity_at", "state", "dealer_set", "last_seq", "live_rows",
            "hands_played", "version",
        )
    ),
)  # fmt: skip
_SEAT_COLUMNS = (
    _SEAT_T.c.seat,
    _PLAYER_T.c.id.label("seat_player_id"),
    _PLAYER_T.c.telegram_id,
    _PLAYER_T.c.username,
    _PLAYER_T.c.display_name,
)


# `status = 'open'` written into the SQL, not bound: it matches the WHERE of the partial index
# uq_table_session_one_open as it stands. With a bound parameter SQLite prepares the statement again at every
# execution to check the index still applies (about 35 µs, more than the lookup itself).
_OPEN = literal_column("'open'")


def _table_select(*, lock: bool, by_id: bool = False) -> Select[Any]:
    joined = (
        _SESSION_T.join(_GROUP_T, _GROUP_T.c.id == _SESSION_T.c.group_id)
        .outerjoin(_SEAT_T, _SEAT_T.c.session_id == _SESSION_T.c.id)
        .outerjoin(_PLAYER_T, _PLAYER_T.c.id == _SEAT_T.c.player_id)
    )
    query = select(*_TABLE_COLUMNS, *_SEAT_COLUMNS).select_from(joined)
    if by_id:  # a session by id, open or ended
        query = query.where(_SESSION_T.c.id == bindparam("session_id"))
    else:  # the group's open session
        query = query.where(_GROUP_T.c.chat_id == bindparam("chat_id"), _SESSION_T.c.status == _OPEN)
    # PostgreSQL: lock the session row only (SQLite ignores FOR UPDATE; BEGIN IMMEDIATE holds the lock).
    return query.with_for_update(of=_SESSION_T) if lock else query


_OPEN_TABLE = _table_select(lock=False)
_OPEN_TABLE_LOCKED = _table_select(lock=True)
_HAND_BY_SOURCE = select(_HAND_T.c.id).where(_HAND_T.c.source_key == bindparam("source_key"))
_PLAYER_BY_TELEGRAM = select(_PLAYER_T.c.id, _PLAYER_T.c.username, _PLAYER_T.c.display_name).where(
    _PLAYER_T.c.group_id == bindparam("group_id"), _PLAYER_T.c.telegram_id == bindparam("telegram_id")
)
_RENAME_PLAYER = (
    update(_PLAYER_T)
    .where(_PLAYER_T.c.id == bindparam("b_id"))
    .values(username=bindparam("b_username"), display_name=bindparam("b_display_name"))
)
_INSERT_PLAYER = insert(_PLAYER_T)
_INSERT_HAND = insert(_HAND_T)
_INSERT_PAYMENTS = insert(_PAYMENT_T)
_SESSION_AFTER_HAND = (
    update(_SESSION_T)
    .where(_SESSION_T.c.id == bindparam("b_id"))
    .values(
        state=bindparam("b_state"),
        last_seq=bindparam("b_seq"),
        live_rows=_SESSION_T.c.live_rows + 1,
        hands_played=_SESSION_T.c.hands_played + bindparam("b_played"),
        version=_SESSION_T.c.version + 1,
        last_activity_at=bindparam("b_now"),
    )
)


def _load_table(
    hot: _HotStatements, conn: Connection, chat_id: int | None, *, lock: bool, session_id: int | None = None
) -> _Table | None:
    """The group's open session (or the session `session_id`, open or ended) with its seats, in one
    statement, or None; `lock` for writers."""
    if session_id is not None:
        statement = hot.table_by_id_locked if lock else hot.table_by_id
        params: dict[str, Any] = {"session_id": session_id}
    else:
        statement = hot.open_table_locked if lock else hot.open_table
        params = {"chat_id": chat_id}
    width = len(_TABLE_COLUMNS)
    rows = statement.rows(conn, params, repeated=width)  # the session's columns repeat on every seat's row
    if not rows:
        return None
    table = _Table(*rows[0][:width])
    seated = {row[width]: row for row in rows if row[width] in SEATS}
    for seat in SEATS:
        row = seated.get(seat)
        if row is not None:
            table.seats[seat] = PlayerInfo(
                id=int(row[width + 1]),
                chat_id=table.chat_id,
                display_name=row[width + 4],
                telegram_id=row[width + 2],
                username=row[width + 3],
            )
    return table


def _table_info(table: _Table) -> SessionInfo:
    return SessionInfo(
        id=table.id,
        chat_id=table.chat_id,
        number=table.number,
        rules=table.rules,
        options=dict(table.options),
        stake=table.stake,
        seats=dict(table.seats),
        status="open" if table.status == "open" else "ended",
        opened_by=table.opened_by,
        opened_at=_aware(table.opened_at),
        ended_at=_aware(table.ended_at) if table.ended_at else None,
        end_reason=table.end_reason,
        last_activity_at=_aware(table.last_activity_at),
        state=DealerState.from_json(table.state),
        hands_played=table.hands_played,
        dealer_set=bool(table.dealer_set),
    )


@functools.cache
def _totals_upsert(dialect: str, scope: str) -> Insert:
    """INSERT ... ON CONFLICT DO UPDATE adding deltas to a running-totals row (SQLite and PostgreSQL)."""
    table = _TOTAL_TABLES[scope]
    insert_of = postgresql.insert if dialect == "postgresql" else sqlite_dialect.insert
    stmt = insert_of(table)
    return stmt.on_conflict_do_update(
        index_elements=[table.c[scope], table.c.player_id],
        set_={name: table.c[name] + stmt.excluded[name] for name in _Delta.__slots__},
    )


def _total_rows(deltas: dict[int, _Delta], sign: int) -> list[dict[str, int]]:
    """Upsert parameters of a row's deltas, players in id order (the same lock order in every transaction)."""
    return [
        {
            "player_id": pid,
            **{name: sign * getattr(deltas[pid], name) for name in _Delta.__slots__},
            "biggest_win": 0,
            "biggest_hua": 0,
            "longest_streak": 0,
            "sessions": 0,
        }
        for pid in sorted(deltas)
    ]


def _apply_totals(
    conn: Connection, group_id: int, session_id: int, deltas: dict[int, _Delta], sign: int
) -> None:
    """Add (sign +1) or take back (sign -1) a row's deltas in the session and all-time running totals: one
    upsert executemany per table, players in id order (the same lock order in every transaction)."""
    if not deltas:
        return
    rows = _total_rows(deltas, sign)
    dialect = conn.dialect.name
    for scope, scope_id in (("session_id", session_id), ("group_id", group_id)):
        conn.execute(_totals_upsert(dialect, scope), [{scope: scope_id, **row} for row in rows])


class _Raw:
    """A hot statement compiled once for the engine's dialect and run straight on the DB-API cursor.

    Parameters and rows go through the column types' own bind and result processors, exactly what a Core
    execute applies, without its per-call execution machinery (about 50-100 µs a statement, more than the
    statement itself on SQLite). Driver errors come out as SQLAlchemy's DBAPIError subclasses
    (IntegrityError, OperationalError), so the write loop retries them as before.
    """

    __slots__ = ("binds", "error", "fixed", "names", "results", "sql")

    def __init__(self, stmt: Any, dialect: Any, column_keys: list[str] | None = None) -> None:
        compiled = stmt.compile(dialect=dialect, column_keys=column_keys)
        self.sql: str = compiled.string
        self.names: list[str] | None = list(compiled.positiontup or ()) if compiled.positional else None
        self.fixed = {name: bind.value for name, bind in compiled.binds.items() if bind.value is not None}
        self.binds = [
            (name, processor)
            for name, bind in compiled.binds.items()
            if (processor := bind.type.dialect_impl(dialect).bind_processor(dialect)) is not None
        ]
        columns = list(getattr(stmt, "selected_columns", ()))
        self.results = [
            (index, processor)
            for index, column in enumerate(columns)
            if (processor := column.type.dialect_impl(dialect).result_processor(dialect, None)) is not None
        ]
        self.error: type[Exception] = dialect.loaded_dbapi.Error

    def _params(self, given: Mapping[str, Any]) -> Any:
        values = {**self.fixed, **given}
        for name, processor in self.binds:
            if name in values:
                values[name] = processor(values[name])
        return [values[name] for name in self.names] if self.names is not None else values

    def _fail(self, error: Exception, params: Any) -> DBAPIError:
        return DBAPIError.instance(self.sql, params, error, self.error)

    def rows(
        self, conn: Connection, params: Mapping[str, Any], *, repeated: int = 0
    ) -> list[tuple[Any, ...]]:
        """Execute and fetch every row, processed. The first `repeated` columns are the same in every row
        (a joined parent): only the first row's are processed, the others are left raw."""
        bound = self._params(params)
        cursor = conn.connection.cursor()
        try:
            cursor.execute(self.sql, bound)
            fetched = cursor.fetchall()
        except self.error as error:
            raise self._fail(error, bound) from error
        finally:
            cursor.close()
        if not self.results:
            return [tuple(row) for row in fetched]
        processed = []
        for number, row in enumerate(fetched):
            values = list(row)
            for index, processor in self.results:
                if number == 0 or index >= repeated:
                    values[index] = processor(values[index])
            processed.append(tuple(values))
        return processed

    def run(self, conn: Connection, params: Mapping[str, Any] | list[Mapping[str, Any]]) -> None:
        """Execute once (a mapping) or executemany (a list of mappings), no rows."""
        many = isinstance(params, list)
        bound = [self._params(p) for p in params] if many else self._params(params)  # type: ignore[union-attr]
        cursor = conn.connection.cursor()
        try:
            if many:
                cursor.executemany(self.sql, bound)
            else:
                cursor.execute(self.sql, bound)
        except self.error as error:
            raise self._fail(error, bound) from error
        finally:
            cursor.close()


_HAND_COLUMNS = [
    "session_id", "seq", "number", "kind", "text", "entry", "request", "response", "state_before",
    "state_after", "seat_players", "note", "dealer_after_player_id", "streak_after", "recorded_by",
    "recorded_at", "source_key", "voided", "voided_by", "voided_at", "void_key", "replaced_by", "replaces",
]  # fmt: skip
_TOTAL_COLUMNS = ["player_id", *_Delta.__slots__]


class _HotStatements:
    """The hot path's statements compiled for one dialect (built on first use by a service)."""

    def __init__(self, dialect: Any) -> None:
        self.open_table = _Raw(_OPEN_TABLE, dialect)
        self.open_table_locked = _Raw(_OPEN_TABLE_LOCKED, dialect)
        self.table_by_id = _Raw(_table_select(lock=False, by_id=True), dialect)
        self.table_by_id_locked = _Raw(_table_select(lock=True, by_id=True), dialect)
        self.hand_by_source = _Raw(_HAND_BY_SOURCE, dialect)
        self.insert_hand = _Raw(_INSERT_HAND.returning(_HAND_T.c.id), dialect, _HAND_COLUMNS)
        self.insert_payments = _Raw(_INSERT_PAYMENTS, dialect, ["hand_id", "player_id", "amount", "hua"])
        self.totals = {
            scope: _Raw(_totals_upsert(dialect.name, scope), dialect, [scope, *_TOTAL_COLUMNS])
            for scope in _TOTAL_TABLES
        }
        self.session_after_hand = _Raw(_SESSION_AFTER_HAND, dialect)


_PENDING_T = PendingEntry.__table__  # type: ignore[attr-defined]
_PENDING_NAMES = (
    "id", "session_id", "kind", "payload", "text", "preview", "base_version", "created_by", "created_at",
    "expires_at", "message_id", "status", "consumed_at", "hand_id",
)  # fmt: skip


def _pending_select(*, lock: bool) -> Select[Any]:
    query = (
        select(*(_PENDING_T.c[name] for name in _PENDING_NAMES), _GROUP_T.c.chat_id)
        .select_from(
            _PENDING_T.join(_SESSION_T, _SESSION_T.c.id == _PENDING_T.c.session_id).join(
                _GROUP_T, _GROUP_T.c.id == _SESSION_T.c.group_id
            )
        )
        .where(_PENDING_T.c.id == bindparam("pending_id"))
    )
    return query.with_for_update(of=_PENDING_T) if lock else query


_PENDING_DONE = (
    update(_PENDING_T)
    .where(_PENDING_T.c.id == bindparam("b_id"))
    .values(status=bindparam("b_status"), consumed_at=bindparam("b_at"), hand_id=bindparam("b_hand"))
)
_PENDING_MESSAGE = (
    update(_PENDING_T).where(_PENDING_T.c.id == bindparam("b_id")).values(message_id=bindparam("b_message"))
)


class _PendingStatements:
    """The preview + Confirm path's statements compiled for one dialect."""

    def __init__(self, dialect: Any) -> None:
        self.by_id = _Raw(_pending_select(lock=False), dialect)
        self.by_id_locked = _Raw(_pending_select(lock=True), dialect)
        self.insert = _Raw(insert(_PENDING_T), dialect, list(_PENDING_NAMES))
        self.done = _Raw(_PENDING_DONE, dialect)
        self.message = _Raw(_PENDING_MESSAGE, dialect)


def _pending_from_row(row: tuple[Any, ...]) -> tuple[dict[str, Any], PendingInfo]:
    """(the row's columns by name, its PendingInfo) from a `_pending_select` row."""
    values = dict(zip(_PENDING_NAMES, row, strict=False))
    info = PendingInfo(
        id=values["id"],
        session_id=values["session_id"],
        chat_id=int(row[len(_PENDING_NAMES)]),
        kind=values["kind"],
        payload=dict(values["payload"]),
        text=values["text"],
        preview=_preview_from_json(values["preview"]) if values["preview"] else None,
        created_by=values["created_by"],
        created_at=_aware(values["created_at"]),
        expires_at=_aware(values["expires_at"]),
        message_id=values["message_id"],
        status=values["status"],
        hand_id=values["hand_id"],
    )
    return values, info
