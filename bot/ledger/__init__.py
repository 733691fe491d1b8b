"""Persistence and service layer: groups, players, table sessions, hands and payments (issue 3)."""

from bot.ledger.errors import LedgerError
from bot.ledger.pending import pending_id_for
from bot.ledger.queries import CARD_HANDS
from bot.ledger.service import LedgerService
from bot.ledger.values import (
    SEATS,
    CardView,
    ChatState,
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

__all__ = [
    "CARD_HANDS",
    "SEATS",
    "CardView",
    "ChatState",
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
    "pending_id_for",
]
