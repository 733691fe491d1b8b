"""The ledger service: every operation on groups, players, sessions and hands, one transaction per call."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Engine

from bot.ledger.results import (
    CommitResult,
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
    StandingsReport,
    Transfer,
    UserRef,
)


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
    ) -> None:
        """Wrap an engine from `bot.ledger.db.open_database` (schema already migrated)."""
        raise NotImplementedError

    @classmethod
    def from_url(cls, url: str, **kwargs: Any) -> LedgerService:
        """Open (and migrate) the database at `url` and return a service on it."""
        raise NotImplementedError

    # ---- groups -------------------------------------------------------------------------------------

    def get_group(self, chat_id: int) -> GroupInfo:
        """The group's settings; a group is created with defaults on first use."""
        raise NotImplementedError

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
        group's defaults and validated by the scoring core (InvalidValue / InvalidEntry on a bad one).
        The open session, if any, is not changed (see `update_session`)."""
        raise NotImplementedError

    def list_groups(self, *, weekly_schedule: bool | None = None) -> list[GroupInfo]:
        """Every group, optionally only those with the weekly-schedule flag set (or unset)."""
        raise NotImplementedError

    # ---- players ------------------------------------------------------------------------------------

    def ensure_player(self, chat_id: int, user: UserRef) -> PlayerInfo:
        """The group's player for a Telegram user, created or refreshed (username, display name)."""
        raise NotImplementedError

    def add_guest(self, chat_id: int, name: str) -> PlayerInfo:
        """A named guest without Telegram account; the same name returns the same guest."""
        raise NotImplementedError

    def get_player(self, player_id: int) -> PlayerInfo:
        """A player by id (NotFound)."""
        raise NotImplementedError

    def find_player(self, chat_id: int, ref: str) -> PlayerInfo:
        """Resolve `@username`, a seat (E/S/W/N, 东南西北, 東), or a display/guest name (case-insensitive)
        to a player of the group. Seats resolve against the open session. UnknownPlayer, AmbiguousPlayer,
        PlayerNotSeated (an empty seat)."""
        raise NotImplementedError

    def find_seat(self, chat_id: int, ref: str) -> str:
        """Resolve a player reference (as `find_player`) to that player's seat at the open table;
        PlayerNotSeated if the player has none. Usable as the grammar's `resolve` callback."""
        raise NotImplementedError

    # ---- sessions and seats -------------------------------------------------------------------------

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
        raise NotImplementedError

    def current_session(self, chat_id: int) -> SessionInfo | None:
        """The group's open session, or None."""
        raise NotImplementedError

    def require_session(self, chat_id: int) -> SessionInfo:
        """The group's open session, or NoOpenSession."""
        raise NotImplementedError

    def get_session(self, session_id: int) -> SessionInfo:
        """A session by id, open or ended (NotFound)."""
        raise NotImplementedError

    def update_session(
        self, chat_id: int, *, options: dict[str, Any] | None = None, stake: int | None = None
    ) -> SessionInfo:
        """Change the open session's options (merged, validated) or stake; applies to later hands only."""
        raise NotImplementedError

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
        raise NotImplementedError

    def move(self, chat_id: int, player_id: int, seat: str) -> SeatChange:
        """Move a seated player to `seat` before the first hand; an occupant of that seat swaps places."""
        raise NotImplementedError

    def unseat(self, chat_id: int, player_id: int) -> SeatChange:
        """Free a player's seat before the first hand (PlayerNotSeated, SeatsLocked)."""
        raise NotImplementedError

    def set_dealer(self, chat_id: int, seat: str) -> SessionInfo:
        """Choose the first dealer (also the round's first dealer) before the first hand (SeatsLocked)."""
        raise NotImplementedError

    def mark_baozi(self, chat_id: int, baozi: bool = True) -> SessionInfo:
        """Mark (or clear) 豹子 for the coming hand: the dice of /roll showed a double."""
        raise NotImplementedError

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
        raise NotImplementedError

    def idle_sessions(self, idle_for: timedelta, *, now: datetime | None = None) -> list[SessionInfo]:
        """Open sessions whose last activity is older than `idle_for` (for the idle-end job)."""
        raise NotImplementedError

    def open_sessions(self) -> list[SessionInfo]:
        """Every open session of every group (for jobs after a restart)."""
        raise NotImplementedError

    # ---- hands --------------------------------------------------------------------------------------

    def preview(self, chat_id: int, entry: dict[str, Any]) -> HandPreview:
        """Score an entry against the open table's current state without recording anything.
        InvalidEntry (malformed), TableNotFull, NoOpenSession. A refused win is returned with
        `allowed == False` and its reasons (commit would raise WinNotAllowed)."""
        raise NotImplementedError

    def commit(
        self,
        chat_id: int,
        entry: dict[str, Any],
        *,
        by: UserRef | None = None,
        source_key: str | None = None,
        text: str | None = None,
    ) -> CommitResult:
        """Score and record a hand in one transaction: hand row, payments, running totals, dealer state.
        Idempotent on `source_key` (e.g. "update:<update_id>"): a repeat returns the existing hand with
        `created == False`. WinNotAllowed, InvalidEntry, TableNotFull, NoOpenSession."""
        raise NotImplementedError

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
        raise NotImplementedError

    def undo(self, chat_id: int, *, by: UserRef | None = None, source_key: str | None = None) -> CommitResult:
        """Void the last live row of the open session; the dealer state, 连庄, 滴零 and 豹子 roll back to
        before it. `result.hand` is the voided hand. NothingToUndo. Idempotent on `source_key`."""
        raise NotImplementedError

    def preview_edit(self, chat_id: int, number: int, entry: dict[str, Any]) -> tuple[HandPreview, ...]:
        """What `edit` would write: the replacement of hand `number` followed by every later live hand
        re-scored from the corrected dealer state, without recording anything."""
        raise NotImplementedError

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
        raise NotImplementedError

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
    ) -> PendingInfo:
        """Store an entry awaiting confirmation, with its preview, expiring after `timeout_seconds`
        (default the group's). payload by kind: "hand" -> the entry; "edit" -> {"number", "entry"};
        "adjust" -> {"payer", "payee", "amount", "note"} (player ids); "undo" -> {}.
        Validation is the same as the direct operation (errors raised here, nothing stored)."""
        raise NotImplementedError

    def set_pending_message(self, pending_id: str, message_id: int) -> PendingInfo:
        """Remember the chat message that shows the preview (to edit it on confirm/cancel/expiry)."""
        raise NotImplementedError

    def get_pending(self, pending_id: str) -> PendingInfo:
        """A pending entry by id (NotFound)."""
        raise NotImplementedError

    def confirm_pending(self, pending_id: str, *, by: UserRef | None = None) -> CommitResult:
        """Carry out a pending entry exactly once (source key "pending:<id>"); a second confirm returns the
        same result with `created == False`. PendingExpired, PendingCancelled, PendingStale (another row was
        recorded since the preview), NotFound."""
        raise NotImplementedError

    def cancel_pending(self, pending_id: str, *, by: UserRef | None = None) -> PendingInfo:
        """Drop a pending entry (no-op if already cancelled/expired; committed ones stay committed)."""
        raise NotImplementedError

    def expire_pending(self, *, now: datetime | None = None) -> list[PendingInfo]:
        """Mark every pending entry past its expiry as expired and return them (to edit their messages)."""
        raise NotImplementedError

    def open_pending(self, chat_id: int) -> list[PendingInfo]:
        """The group's entries still awaiting confirmation."""
        raise NotImplementedError

    # ---- reading ------------------------------------------------------------------------------------

    def hands(self, session_id: int, *, include_voided: bool = False) -> list[HandRecord]:
        """The session's rows in ledger order (by number, then seq); voided rows only when asked."""
        raise NotImplementedError

    def get_hand(self, session_id: int, number: int) -> HandRecord:
        """The live hand with this number (HandNotFound)."""
        raise NotImplementedError

    def ledger(self, session_id: int) -> list[LedgerRow]:
        """Hand-by-hand rows of live hands with every seat's running total after each."""
        raise NotImplementedError

    def standings(self, chat_id: int, *, session_id: int | None = None) -> StandingsReport:
        """Session standings (the open session, or `session_id`) and the group's all-time standings,
        read from running totals (never a scan of the hands)."""
        raise NotImplementedError

    def player_stats(
        self, chat_id: int, *, session_id: int | None = None, player_id: int | None = None
    ) -> list[PlayerStats]:
        """Per-player stats for one session or the group's whole history; one player with `player_id`."""
        raise NotImplementedError

    def history(self, chat_id: int, *, limit: int = 20) -> list[SessionSummary]:
        """The group's sessions, newest first, with each player's net."""
        raise NotImplementedError

    def session_summary(self, session_id: int) -> SessionSummary:
        """One session with each player's net and its hand count."""
        raise NotImplementedError

    def transfers(self, session_id: int) -> list[Transfer]:
        """The fewest payments that settle the session (exact for up to 8 players, greedy beyond)."""
        raise NotImplementedError
