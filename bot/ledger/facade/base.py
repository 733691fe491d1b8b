"""The base of the ledger facade: the store, the group defaults and the write helpers every call uses."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import TypeVar

from sqlmodel import Session

from bot.ledger import errors
from bot.ledger.play import groups, sessions
from bot.ledger.storage.models import ChatGroup, TableSession
from bot.ledger.storage.store import Ledger
from bot.ledger.values import (
    ChatState,
    HandRecord,
    SessionInfo,
    UserRef,
)

# What a hand write did: the row concerned, the rows it voided, the rows it wrote as replacements.
Written = tuple[HandRecord, tuple[HandRecord, ...], tuple[HandRecord, ...]]
T = TypeVar("T")
GROUPS_KEPT = 4096  # chats whose settings are remembered for replies without the database


class Calls(Ledger):
    """The ledger handle's helpers every facade call uses."""

    def _now(self) -> datetime:
        return self.now()

    def _read(self, fn: Callable[[Session], T]) -> T:
        return self.read(fn)

    def _write(self, fn: Callable[[Session], T], key: str | None = None) -> T:
        return self.write_once(key, fn)

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
            lambda s: groups.chat_state(s, chat_id, self.defaults, now, sender, entry, people=people)
        )
        self.remember_group(state.group)
        return state

    def refresh_sender(
        self, chat_id: int, sender: UserRef, *, entry: str | None = None, people: bool = False
    ) -> ChatState:
        """`chat_state` after storing the sender as they are now (`ensure_player`), in one write."""
        now = self._now()

        def op(s: Session) -> ChatState:
            groups.ensure_player(s, self._group(s, chat_id), sender, now)
            s.flush()
            return groups.chat_state(s, chat_id, self.defaults, now, None, entry, people=people)

        state = self._write(op)
        self.remember_group(state.group)
        return state

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
        return groups.ensure_group(s, chat_id, self.defaults, self._now())

    def _on_open(
        self, chat_id: int, fn: Callable[[Session, ChatGroup, TableSession], T], key: str | None
    ) -> T:
        """`fn(session, group, open table)` in one write, the table locked."""
        return self._write(lambda s: fn(s, *sessions.open_table(s, chat_id)), key)
