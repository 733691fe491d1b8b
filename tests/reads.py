"""What the tests read of the ledger that the bot itself never asks for: each straight from the ledger's
own queries in one read transaction, so that the ledger service offers only the calls the bot makes."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from sqlmodel import Session, col, select

from bot.ledger import (
    HandRecord,
    Ledger,
    PendingInfo,
    SessionSummary,
    Transfer,
    errors,
)
from bot.ledger.money import settling
from bot.ledger.play import sessions
from bot.ledger.storage.mappers import hand_records, pending_info
from bot.ledger.storage.models import ChatGroup, Hand, PendingEntry, TableSession
from bot.ledger.storage.rows import A_HAND, LIVE, session_row

T = TypeVar("T")


def _read(ledger: Ledger, fn: Callable[[Session], T]) -> T:
    with Session(ledger.engine) as s:
        return fn(s)


def open_pending(ledger: Ledger, chat_id: int) -> list[PendingInfo]:
    """The group's entries still waiting for Confirm."""

    def read(s: Session) -> list[PendingInfo]:
        rows = s.scalars(
            select(PendingEntry)
            .join(TableSession)
            .join(ChatGroup)
            .where(ChatGroup.chat_id == chat_id, PendingEntry.status == "pending")
            .order_by(col(PendingEntry.created_at))
        )
        return [pending_info(p, chat_id) for p in rows]

    return _read(ledger, read)


def get_hand(ledger: Ledger, session_id: int, number: int) -> HandRecord:
    """The live row with this number (HandNotFound)."""

    def read(s: Session) -> HandRecord:
        query = select(Hand).where(Hand.session_id == session_id, Hand.number == number, A_HAND, LIVE)
        row = s.scalars(query).first()
        if row is None:
            raise errors.HandNotFound(f"no hand {number} in this session", number=number)
        return hand_records([row])[0]

    return _read(ledger, read)


def session_summary(ledger: Ledger, session_id: int) -> SessionSummary:
    """One session with each player's net and its hand count."""
    return _read(ledger, lambda s: sessions.summary(s, session_row(s, session_id)))


def session_transfers(ledger: Ledger, session_id: int) -> list[Transfer]:
    """The stored transfers of an ended session (empty when it left none)."""
    return _read(ledger, lambda s: settling.stored_transfers(s, session_row(s, session_id)) or [])
