"""Persistence and service layer: groups, players, table sessions, hands and payments (issue 3)."""

from bot.ledger.errors import LedgerError
from bot.ledger.results import (
    SEATS,
    CommitResult,
    DealerState,
    GroupInfo,
    HandPreview,
    HandRecord,
    LedgerRow,
    PendingInfo,
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
from bot.ledger.service import LedgerService

__all__ = [
    "SEATS",
    "CommitResult",
    "DealerState",
    "GroupInfo",
    "HandPreview",
    "HandRecord",
    "LedgerError",
    "LedgerRow",
    "LedgerService",
    "PendingInfo",
    "PlayerInfo",
    "PlayerStats",
    "SeatChange",
    "SessionInfo",
    "SessionSummary",
    "Standing",
    "StandingsReport",
    "Transfer",
    "UserRef",
]
