"""The ledger's handle (`Ledger`) and the one way to talk to the database: `fn(session, ...)` in one
transaction, retried on a lock or a race; on SQLite the writes of this process one at a time, in the order
they came (`Writer`)."""

from __future__ import annotations

import contextlib
import logging
import random
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Concatenate, ParamSpec, Self, TypeVar
from weakref import WeakValueDictionary

from sqlalchemy import Engine
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError
from sqlmodel import Session

from bot.ledger import errors
from bot.ledger.options import BY_ID
from bot.ledger.storage.db import immediate, is_sqlite, lock_busy, open_database
from bot.ledger.storage.models import AppliedKey, ChatGroup
from bot.ledger.values import GroupInfo
from bot.settings import Settings

log = logging.getLogger(__name__)
T = TypeVar("T")
P = ParamSpec("P")


class Writer:
    """One writer at a time, first come first served: SQLite lets one connection write at a time, and
    writers of one process that raced for its lock spun on SQLITE_BUSY (retried with random sleeps, out of
    order, p99 around a second when 50 tables pressed at once). Queued here instead, each write begins
    when the one before it has committed; other processes still meet the lock in SQLite (busy_timeout)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._holder: int | None = None  # the thread whose turn it is
        self._waiting: deque[threading.Event] = deque()

    @property
    def queued(self) -> int:
        """Writers waiting for their turn."""
        with self._lock:
            return len(self._waiting)

    @contextlib.contextmanager
    def turn(self) -> Iterator[None]:
        """Hold the database's write turn for the block (a block inside it, in the same thread, goes on)."""
        me = threading.get_ident()
        with self._lock:
            if self._holder == me:
                mine, nested = None, True
            elif self._holder is not None or self._waiting:
                mine, nested = threading.Event(), False
                self._waiting.append(mine)
            else:
                mine, nested, self._holder = None, False, me
        if nested:
            yield
            return
        if mine is not None:
            mine.wait()  # handed over by the writer before
            self._holder = me
        try:
            yield
        finally:
            with self._lock:
                self._holder = None
                if self._waiting:
                    self._holder = -1  # handed over: taken by the woken thread
                    self._waiting.popleft().set()


_writers: WeakValueDictionary[str, Writer] = WeakValueDictionary()
_writers_lock = threading.Lock()


def writer_for(engine: Engine) -> Writer | None:
    """The one `Writer` of a SQLite database in this process (every engine on the same file shares it);
    None for PostgreSQL, whose row locks let writers of different tables go at once."""
    if not is_sqlite(engine):
        return None
    database = engine.url.database or ":memory:"
    with _writers_lock:
        writer = _writers.get(database)
        if writer is None:
            writer = _writers[database] = Writer()
        return writer


DEFAULT_RULES = "suzhou"
GROUPS_KEPT = 4096  # chats whose settings are remembered for replies without the database


@dataclass(frozen=True, slots=True)
class Defaults:
    """What a new group starts with: the bot's settings `default_language` and `confirm_timeout_seconds`
    (`Settings`' own defaults when none are given: they have no other home)."""

    language: str = Settings.model_fields["default_language"].default
    confirm_timeout_seconds: int = Settings.model_fields["confirm_timeout_seconds"].default

    def group(self, chat_id: int, now: datetime) -> ChatGroup:
        """A new group row with these defaults (not added to any session)."""
        return ChatGroup(
            chat_id=chat_id,
            language=self.language,
            rules=DEFAULT_RULES,
            options={},
            instant=BY_ID["instant"].default,
            confirm_timeout_seconds=self.confirm_timeout_seconds,
            weekly_schedule=False,
            created_at=now,
        )


class Ledger:
    """The ledger's one handle: an engine, its clock, a new group's defaults, and the one way a call runs.

    `read(fn, *args)` runs `fn(session, *args)` in a read transaction; `write(fn, *args)` in a write
    transaction (on SQLite BEGIN IMMEDIATE: the write lock up front, so a read-then-write never works
    on a stale snapshot, and the writes of this process one at a time, `Writer`), the whole of it again
    after a unique-constraint race, a serialization failure or a busy lock; `write_once(key, fn, *args)`
    makes it idempotent: the key is stored with the write, and a write whose key is already stored
    raises `errors.Repeated` and changes nothing. Every error is a `bot.ledger.errors.LedgerError` and means
    nothing was written. The calls block: handlers run them off the event loop (`asyncio.to_thread`).

    It also keeps what this process remembers without the database: each chat's settings as last read
    or written (`cached_group`, the language of a reply when the database cannot be read) and the idle
    tables whose end failed (`idle_failures`, `bot.ledger.play.sessions.end_idle`)."""

    def __init__(
        self,
        engine: Engine,
        *,
        clock: Callable[[], datetime] | None = None,
        defaults: Defaults | None = None,
        max_attempts: int = 12,
    ) -> None:
        """Wrap an engine from `bot.ledger.storage.db.open_database` (schema already migrated)."""
        self.engine = engine
        self.defaults = defaults or Defaults()
        self._writer = writer_for(engine)
        self._clock = clock or (lambda: datetime.now(UTC))
        self._max_attempts = max_attempts
        self._groups: OrderedDict[int, GroupInfo] = OrderedDict()
        self._groups_lock = threading.Lock()
        # Idle tables whose end failed: session id -> (failures, when to try again), this worker's own.
        self.idle_failures: dict[int, tuple[int, datetime]] = {}

    @classmethod
    def from_url(cls, url: str, **kwargs: Any) -> Self:
        """Open (and migrate) the database at `url` and return a ledger on it."""
        return cls(open_database(url), **kwargs)

    def now(self) -> datetime:
        """The ledger's time, aware (UTC when the clock gives a naive one)."""
        moment = self._clock()
        return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)

    def read(self, fn: Callable[Concatenate[Session, P], T], /, *args: P.args, **kwargs: P.kwargs) -> T:
        """`fn(session, *args, **kwargs)` in one read transaction."""
        with Session(self.engine, expire_on_commit=False) as session, session.begin():
            return fn(session, *args, **kwargs)

    def write(self, fn: Callable[Concatenate[Session, P], T], /, *args: P.args, **kwargs: P.kwargs) -> T:
        """`fn(session, *args, **kwargs)` in one write transaction, retried whole on a conflict. On SQLite
        it waits for its turn first (`Writer`)."""
        return self._transact(None, lambda session: fn(session, *args, **kwargs))

    def write_once(
        self, key: str | None, fn: Callable[Concatenate[Session, P], T], /, *args: P.args, **kwargs: P.kwargs
    ) -> T:
        """`write`, idempotent on `key` (None: as `write`): the key is stored with the write, and a write
        whose key is stored already raises `errors.Repeated` and changes nothing."""
        return self._transact(key, lambda session: fn(session, *args, **kwargs))

    def _transact(self, key: str | None, call: Callable[[Session], T]) -> T:
        for attempt in range(1, self._max_attempts + 1):
            try:
                with (
                    self._writer.turn() if self._writer is not None else contextlib.nullcontext(),
                    immediate(),
                    Session(self.engine, expire_on_commit=False, autoflush=False) as session,
                    session.begin(),
                ):
                    if key is not None:
                        if session.get(AppliedKey, key) is not None:
                            raise errors.Repeated(f"{key} was applied before", key=key)
                        session.add(AppliedKey(key=key, applied_at=self.now()))
                    return call(session)
            except (IntegrityError, OperationalError) as exc:
                if not _retryable(exc):
                    raise
                log.info("ledger write conflict (attempt %d): %s", attempt, exc.orig)
                time.sleep(min(0.5, 0.005 * 2**attempt) * random.random())
        raise errors.Conflict(f"gave up after {self._max_attempts} conflicting attempts", attempts=attempt)

    def claim(self, key: str) -> bool:
        """Store an idempotency key on its own, for a reply that writes nothing else (a question): True the
        first time, False when the update was handled before (a redelivery then says nothing again)."""
        try:
            self.write_once(key, _nothing)
        except errors.Repeated:
            return False
        return True

    def cached_language(self, chat_id: int) -> str:
        """The chat's language as this process last read or wrote it (the default language for a chat it
        has not seen), without the database: the language of a reply when the database cannot be read."""
        group = self.cached_group(chat_id)
        return group.language if group is not None else self.defaults.language

    def cached_group(self, chat_id: int) -> GroupInfo | None:
        """The group's settings as this process last read or wrote them, without the database (None for a
        chat it has not seen since it started)."""
        with self._groups_lock:
            return self._groups.get(chat_id)

    def remember_group(self, group: GroupInfo) -> None:
        """Keep the group's settings as just read or written (the newest `GROUPS_KEPT` chats)."""
        with self._groups_lock:
            self._groups[group.chat_id] = group
            self._groups.move_to_end(group.chat_id)
            while len(self._groups) > GROUPS_KEPT:
                self._groups.popitem(last=False)


def _nothing(_s: Session) -> None:
    """A write of nothing but its key (`Ledger.claim`)."""


def _retryable(exc: DBAPIError) -> bool:
    """A unique violation or a serialization / deadlock / lock failure: the transaction can be retried."""
    orig = exc.orig
    sqlstate = getattr(orig, "sqlstate", None) or getattr(getattr(orig, "diag", None), "sqlstate", None)
    if sqlstate is not None:
        return sqlstate in {"23505", "40001", "40P01", "55P03"}
    return "unique constraint failed" in str(orig).lower() or lock_busy(exc)
