"""The one way to talk to the database: an ORM `Session` in one transaction, retried on a lock or a race;
on SQLite the writes of this process one at a time, in the order they came (`Writer`)."""

from __future__ import annotations

import contextlib
import logging
import random
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import TypeVar
from weakref import WeakValueDictionary

from sqlalchemy import Engine
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError
from sqlmodel import Session

from bot.ledger import errors
from bot.ledger.storage.db import immediate, is_sqlite, lock_busy
from bot.ledger.storage.models import AppliedKey

log = logging.getLogger(__name__)
T = TypeVar("T")


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


class Store:
    """Transactions on one engine, and the ledger's clock.

    `read(fn)` runs `fn(session)` in a read transaction; `write(fn, key=...)` in a write transaction (on
    SQLite BEGIN IMMEDIATE: the write lock up front, so a read-then-write never works on a stale
    snapshot), the whole of it again after a unique-constraint race, a serialization failure or a busy
    lock. A `key` makes the write idempotent: it is stored with the write, and a write whose key is
    already stored raises `errors.Repeated` and changes nothing."""

    def __init__(
        self, engine: Engine, *, clock: Callable[[], datetime] | None = None, max_attempts: int = 12
    ) -> None:
        self.engine = engine
        self._writer = writer_for(engine)
        self._clock = clock or (lambda: datetime.now(UTC))
        self._max_attempts = max_attempts

    def now(self) -> datetime:
        """The ledger's time, aware (UTC when the clock gives a naive one)."""
        moment = self._clock()
        return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)

    def read(self, fn: Callable[[Session], T]) -> T:
        """`fn(session)` in one read transaction."""
        with Session(self.engine, expire_on_commit=False) as session, session.begin():
            return fn(session)

    def write(self, fn: Callable[[Session], T], *, key: str | None = None) -> T:
        """`fn(session)` in one write transaction, retried whole on a conflict; idempotent on `key`. On
        SQLite it waits for its turn first (`Writer`)."""
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
                    return fn(session)
            except (IntegrityError, OperationalError) as exc:
                if not _retryable(exc):
                    raise
                log.info("ledger write conflict (attempt %d): %s", attempt, exc.orig)
                time.sleep(min(0.5, 0.005 * 2**attempt) * random.random())
        raise errors.Conflict(f"gave up after {self._max_attempts} conflicting attempts", attempts=attempt)


def _retryable(exc: DBAPIError) -> bool:
    """A unique violation or a serialization / deadlock / lock failure: the transaction can be retried."""
    orig = exc.orig
    sqlstate = getattr(orig, "sqlstate", None) or getattr(getattr(orig, "diag", None), "sqlstate", None)
    if sqlstate is not None:
        return sqlstate in {"23505", "40001", "40P01", "55P03"}
    return "unique constraint failed" in str(orig).lower() or lock_busy(exc)
