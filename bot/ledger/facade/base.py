"""The base of the ledger facade: the store, the group defaults and the write helpers every call uses."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from typing import Any, Self, TypeVar

from sqlalchemy import Engine
from sqlmodel import Session

from bot.ledger import errors
from bot.ledger.play import groups, sessions
from bot.ledger.storage.db import is_sqlite, open_database
from bot.ledger.storage.models import ChatGroup, TableSession
from bot.ledger.storage.store import Store
from bot.ledger.values import (
    ChatState,
    GroupInfo,
    HandRecord,
    SessionInfo,
    UserRef,
)

# What a hand write did: the row concerned, the rows it voided, the rows it wrote as replacements.
Written = tuple[HandRecord, tuple[HandRecord, ...], tuple[HandRecord, ...]]
T = TypeVar("T")
GROUPS_KEPT = 4096  # chats whose settings are remembered for replies without the database


class Calls:
    """The store and the group defaults every ledger call uses."""

    def __init__(
        self,
        engine: Engine,
        *,
        clock: Callable[[], datetime] | None = None,
        defaults: groups.Defaults | None = None,
        max_attempts: int = 12,
    ) -> None:
        """Wrap an engine from `bot.ledger.storage.db.open_database` (schema already migrated)."""
        self._store = Store(engine, clock=clock, max_attempts=max_attempts)
        self._defaults = defaults or groups.Defaults()  # a new group's language and timeout
        self._groups: OrderedDict[int, GroupInfo] = OrderedDict()  # a cache of reads, see cached_group
        self._groups_lock = threading.Lock()
        # Idle tables whose end failed: session id -> (failures, when to try again), this worker's own.
        self._idle_failures: dict[int, tuple[int, datetime]] = {}
        # The one thread a turn's calls run in on SQLite (`bot.services.in_ledger`): one writer at a time
        # anyway, and each call starts warm in the thread the one before ran in (a hand's CPU −8% against
        # the event loop's pool of threads); None on PostgreSQL, whose tables' writes go at once.
        self.thread = ThreadPoolExecutor(1, thread_name_prefix="ledger") if is_sqlite(engine) else None

    @classmethod
    def from_url(cls, url: str, **kwargs: Any) -> Self:
        """Open (and migrate) the database at `url` and return a service on it."""
        return cls(open_database(url), **kwargs)

    @property
    def engine(self) -> Engine:
        """The SQLAlchemy engine."""
        return self._store.engine

    def _now(self) -> datetime:
        return self._store.now()

    def _read(self, fn: Callable[[Session], T]) -> T:
        return self._store.read(fn)

    def _write(self, fn: Callable[[Session], T], key: str | None = None) -> T:
        return self._store.write(fn, key=key)

    def chat_state(
        self,
        chat_id: int,
        sender: UserRef | None = None,
        *,
        entry: str | None = None,
        people: bool = False,
    ) -> ChatState:
        """The group's settings (defaults when not stored yet; nothing is written), its open session,
        whether `sender` is stored as they are now (else `refresh_sender`), the pending entry `entry` (an
        id) if it is stored, and (`people`) every player of the group: one read."""
        now = self._now()
        state = self._read(
            lambda s: groups.chat_state(s, chat_id, self._defaults, now, sender, entry, people=people)
        )
        self._remember_group(state.group)
        return state

    def refresh_sender(
        self, chat_id: int, sender: UserRef, *, entry: str | None = None, people: bool = False
    ) -> ChatState:
        """`chat_state` after storing the sender as they are now (`ensure_player`), in one write."""
        now = self._now()

        def op(s: Session) -> ChatState:
            groups.ensure_player(s, self._group(s, chat_id), sender, now)
            s.flush()
            return groups.chat_state(s, chat_id, self._defaults, now, None, entry, people=people)

        state = self._write(op)
        self._remember_group(state.group)
        return state

    def cached_language(self, chat_id: int) -> str:
        """The chat's language as this process last read or wrote it (the default language for a chat it
        has not seen), without the database: the language of a reply when the database cannot be read."""
        group = self.cached_group(chat_id)
        return group.language if group is not None else self._defaults.language

    def cached_group(self, chat_id: int) -> GroupInfo | None:
        """The group's settings as this process last read or wrote them, without the database (None for a
        chat it has not seen since it started)."""
        with self._groups_lock:
            return self._groups.get(chat_id)

    def _remember_group(self, group: GroupInfo) -> None:
        with self._groups_lock:
            self._groups[group.chat_id] = group
            self._groups.move_to_end(group.chat_id)
            while len(self._groups) > GROUPS_KEPT:
                self._groups.popitem(last=False)

    def current_session(self, chat_id: int) -> SessionInfo | None:
        """The group's open session, or None."""
        return self.chat_state(chat_id).session

    def require_session(self, chat_id: int) -> SessionInfo:
        """The group's open session, or NoOpenSession."""
        info = self.current_session(chat_id)
        if info is None:
            raise errors.NoOpenSession("this group has no open table session", chat_id=chat_id)
        return info

    def _group(self, s: Session, chat_id: int) -> ChatGroup:
        return groups.ensure_group(s, chat_id, self._defaults, self._now())

    def _on_open(
        self, chat_id: int, fn: Callable[[Session, ChatGroup, TableSession], T], key: str | None
    ) -> T:
        """`fn(session, group, open table)` in one write, the table locked."""
        return self._write(lambda s: fn(s, *sessions.open_table(s, chat_id)), key)
