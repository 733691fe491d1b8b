"""Frozen value objects the ledger service returns: plain data, no database handles."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal, Protocol, TypedDict, cast, overload

from bot.ledger.options import BY_ID, SETTLE_OPTIONS
from scoring.entry import EntryJSON, RequestJSON
from scoring.response import ScoreResponse, WinResult
from scoring.rules import RuleSetId
from scoring.seats import SEATS as SEATS  # re-exported: bot.ledger.SEATS
from scoring.seats import Seat, as_seat

HandKind = Literal["win", "draw", "escape", "adjust"]
# Waiting for an answer before their preview, asked with a button per seat: "dealer" a hand entry before the
# first dealer, "name" a typed /hu whose name fits more than one seated player.
PendingKind = Literal["hand", "adjust", "edit", "undo", "dealer", "name"]
PendingStatus = Literal["pending", "committed", "cancelled", "expired"]


# What an entry waiting for Confirm (or for an answer) keeps to carry itself out, by its kind: a hand's is
# the builder's entry itself (`EntryJSON`); the others are these. Written by the handlers, checked by
# `pending.check_payload`, read back through `payload_of` (the kind told, the shape typed).
class AdjustPayload(TypedDict):
    """/adjust: who pays whom (player ids), how much, and the note."""

    payer: int
    payee: int
    amount: int
    note: str | None


class EditPayload(TypedDict):
    """/edit: the hand's number and its corrected entry."""

    number: int
    entry: EntryJSON


class UndoPayload(TypedDict):
    """/undo: the row to void (its id, and the number shown)."""

    hand_id: int
    number: int


class DealerPayload(TypedDict):
    """A hand waiting for the first dealer to be chosen."""

    entry: EntryJSON


class NamePayload(TypedDict):
    """A typed /hu whose `token` fits the players at `seats` (seat letters): the text read again with the
    one chosen."""

    text: str
    token: str
    seats: str


Payload = EntryJSON | AdjustPayload | EditPayload | UndoPayload | DealerPayload | NamePayload


@dataclass(frozen=True, slots=True)
class UserRef:
    """A Telegram user as the handler sees it (no Telegram types here)."""

    telegram_id: int
    display_name: str
    username: str | None = None


@dataclass(frozen=True, slots=True)
class GroupInfo:
    """A group chat's settings: language, default rule set and options, confirmation behaviour."""

    chat_id: int
    language: str
    rules: RuleSetId
    options: dict[str, Any]
    instant: bool
    confirm_timeout_seconds: int
    weekly_schedule: bool
    created_at: datetime
    weekly_day: str = "sun"  # mon … sun
    weekly_time: str = "20:00"  # HH:MM in `timezone`
    weekly_last_post_at: datetime | None = None
    timezone: str = BY_ID["timezone"].default
    confirm_by: str = BY_ID["confirm_by"].default  # any: a seated player or admin; other: not the recorder
    settle_changes: dict[str, Any] = field(default_factory=dict)  # what the group changed of SETTLE_OPTIONS

    @property
    def settle(self) -> dict[str, Any]:
        """The group's settling-up options, defaults filled in."""
        return {**SETTLE_OPTIONS, **{k: v for k, v in self.settle_changes.items() if k in SETTLE_OPTIONS}}


@dataclass(frozen=True, slots=True)
class PlayerInfo:
    """A player of one group: a Telegram user (telegram_id set) or a named guest (telegram_id None)."""

    id: int
    chat_id: int
    display_name: str
    telegram_id: int | None = None
    username: str | None = None
    # Where money is shown (transfers, settle figures): 1, 2, ... among the group's players who share this
    # display name (any case), by age, so that "Fay（1）" and "Fay（2）" are told apart; 0 when unique.
    twin: int = 0

    @property
    def is_guest(self) -> bool:
        """True for a guest seated by name, without a Telegram account."""
        return self.telegram_id is None

    @property
    def name(self) -> str:
        """What the bot shows: the display name."""
        return self.display_name


def dealer_known(dealer_set: bool, hands_played: int) -> bool:
    """Whether the coming hand has a dealer: the first one was chosen (/dealer, /roll, the dealer question)
    or a recorded hand moved the deal on. Before that no hand is scored: 东 is only the stored default."""
    return dealer_set or hands_played > 0


@dataclass(frozen=True, slots=True)
class DealerState:
    """The table state before a hand: dealer seat, 连庄 count, 滴零, round wind, hand number, first dealer,
    and 豹子 marked for the coming hand (by /roll)."""

    dealer: Seat = "E"
    streak: int = 0
    diling: bool = False
    round_wind: Seat = "E"
    hand_number: int = 1
    first_dealer: Seat = "E"
    baozi: bool = False

    def to_json(self) -> dict[str, Any]:
        """The JSON object stored in the database."""
        return {
            "dealer": self.dealer,
            "streak": self.streak,
            "diling": self.diling,
            "round_wind": self.round_wind,
            "hand_number": self.hand_number,
            "first_dealer": self.first_dealer,
            "baozi": self.baozi,
        }

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> DealerState:
        """Inverse of `to_json`."""
        return cls(
            dealer=as_seat(str(obj["dealer"])),
            streak=int(obj["streak"]),
            diling=bool(obj["diling"]),
            round_wind=as_seat(str(obj["round_wind"])),
            hand_number=int(obj["hand_number"]),
            first_dealer=as_seat(str(obj["first_dealer"])),
            baozi=bool(obj.get("baozi", False)),
        )


@dataclass(frozen=True, slots=True)
class SessionInfo:
    """A table session: rules, options snapshot, stake, seats, open/ended, and the current dealer state."""

    id: int
    chat_id: int
    number: int  # the group's session number, 1, 2, ...
    rules: RuleSetId
    options: dict[str, Any]
    stake: int
    seats: dict[Seat, PlayerInfo]  # seat letter -> player, only occupied seats
    status: Literal["open", "ended"]
    opened_by: int | None  # player id
    opened_at: datetime
    ended_at: datetime | None
    end_reason: str | None
    last_activity_at: datetime
    state: DealerState  # the state the next hand starts from
    hands_played: int  # live hands of kind win/draw/escape (not adjustments, not voided)
    dealer_set: bool  # the first dealer was chosen explicitly (/dealer or /roll)
    version: int = 0  # bumped by every change of the table; a preview remembers the version it saw
    card_message_id: int | None = None  # the session's pinned card
    pin_refused: bool = False  # "cannot pin" was said for this session
    flow_message_id: int | None = None  # the table's open /hu button flow
    summary_message_id: int | None = None  # the end-of-session summary (its transfers' buttons)

    @property
    def is_open(self) -> bool:
        """True while hands can be recorded."""
        return self.status == "open"

    @property
    def dealer_known(self) -> bool:
        """Whether the coming hand has a dealer (`dealer_known`): else a hand entry asks for one first."""
        return dealer_known(self.dealer_set, self.hands_played)

    def seat_of(self, player_id: int) -> Seat | None:
        """The seat of a player at this table, or None."""
        for seat, player in self.seats.items():
            if player.id == player_id:
                return seat
        return None


@dataclass(frozen=True, slots=True)
class SeatChange:
    """The outcome of join/move: the player, the seat now held, the session."""

    player: PlayerInfo
    seat: Seat | None
    session: SessionInfo


class AdjustJSON(TypedDict):
    """An adjustment's entry: who pays whom how much, and why."""

    payer: str
    payee: str
    amount: int
    note: str | None


class AdjustRequest(TypedDict):
    """An adjustment's request (nothing is scored): its entry."""

    adjust: AdjustJSON


class AdjustResponse(TypedDict):
    """An adjustment's response: the payments by seat."""

    payments: dict[Seat, int]


def wins_of(response: Mapping[str, Any]) -> list[WinResult]:
    """The scored wins of a stored response (`scoring.response.ScoreResponse`), typed; none for 荒庄, 逃跑
    and an adjustment. Read once here, with the core's defaults for a key an older row may lack."""
    defaults: dict[str, object] = {"allowed": True, "reason": None, "hua": 0, "items": [], "multiplier": 1}
    return [cast(WinResult, {**defaults, **win}) for win in response.get("wins") or []]


@dataclass(frozen=True, slots=True)
class HandPreview:
    """A scored entry, not recorded: the full scoring request and response, payments by seat and by player,
    and the dealer state before and after."""

    session_id: int
    kind: HandKind
    entry: EntryJSON | AdjustJSON
    request: RequestJSON | AdjustRequest
    response: ScoreResponse | AdjustResponse
    payments: dict[Seat, int]  # seat -> signed amount (stake units already applied)
    player_payments: dict[int, int]  # player id -> signed amount
    before: DealerState
    after: DealerState
    note: str | None = None
    seats: dict[Seat, int] = field(default_factory=dict)  # seat -> player id of the table it was scored for

    @property
    def wins(self) -> list[WinResult]:
        """The scored wins (none for 荒庄, 逃跑, an adjustment)."""
        return wins_of(self.response)

    @property
    def allowed(self) -> bool:
        """False when the scoring core refused every win of the hand (see `reasons`). A 一炮多响 with one
        winner refused (below the threshold, 宿州 multi_win false) is recorded with the others: a refused win
        scores nothing and the others stand (docs/rules.md §1 Who may win, §2 Settlement)."""
        wins = wins_of(self.response)
        return not wins or any(w["allowed"] for w in wins)

    @property
    def reasons(self) -> list[dict[str, Any]]:
        """The refused wins: [{"winner": seat, "reason": code, ...}] with every detail the scoring core gave
        (e.g. "threshold": {"have": 1, "need": 4}), its breakdown left out."""
        return [
            {key: value for key, value in w.items() if key not in ("allowed", "items")}
            for w in wins_of(self.response)
            if not w["allowed"]
        ]


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One recorded row of a session's ledger (a win, 荒庄, 逃跑 or an adjustment), live or voided."""

    id: int
    session_id: int
    seq: int  # row sequence in the session, every row, never reused
    number: int  # the hand's number in the session ledger as users see it (第n局); kept by an edit
    kind: HandKind
    text: str | None  # the entry as typed
    entry: EntryJSON | AdjustJSON
    request: RequestJSON | AdjustRequest
    response: ScoreResponse | AdjustResponse
    payments: dict[Seat, int]  # seat -> amount
    player_payments: dict[int, int]  # player id -> amount
    before: DealerState
    after: DealerState
    note: str | None
    recorded_by: int | None  # player id
    recorded_at: datetime
    source_key: str | None
    voided: bool
    voided_by: int | None
    voided_at: datetime | None
    replaced_by: int | None  # hand id of the replacement after an edit
    replaces: int | None  # hand id this one replaced
    seat_players: dict[Seat, int] = field(default_factory=dict)  # seat -> player id when it was recorded

    @property
    def wins(self) -> list[WinResult]:
        """The response's per-winner list (winner, allowed, hua, items, multiplier)."""
        return wins_of(self.response)


@dataclass(frozen=True, slots=True)
class CardView:
    """What the session's card shows: the session, its newest live rows (ledger order), every seat's
    running net, and how many live rows there are."""

    session: SessionInfo
    recent: tuple[HandRecord, ...]
    totals: dict[Seat, int]  # seat -> the seat's net (of everyone who sat there)
    rows: int
    people: tuple[Standing, ...] = ()  # everyone who played, by seat, each with their own net (/sub)
    # What is still owed from earlier sessions (上次欠的) while the table is open: the group's open
    # transfers that go into this night's transfers at its end (between two people at this table, no
    # claim waiting), and those that stay between their two people as they are.
    owed: tuple[Transfer, ...] = ()
    owed_kept: tuple[Transfer, ...] = ()


Person = tuple[int, str, str | None]  # a player of the group: id, display name, @username (whom a name means)


@dataclass(frozen=True, slots=True)
class ChatState:
    """What a turn starts from: the group's settings and its open session (None when there is none)."""

    group: GroupInfo
    session: SessionInfo | None
    sender_fresh: bool = True  # False: the sender is not stored as they are now (new, renamed, @username)
    entry: PendingInfo | None = None  # the entry stored under the update's key, when it asked for it
    people: tuple[Person, ...] | None = None  # the group's players, when the turn asked (typed names)


@dataclass(frozen=True, slots=True)
class CommitResult:
    """What commit/undo/edit/adjust/confirm did: the hand concerned (new, existing on a repeat, or voided),
    whether something was written now, every hand voided by the operation, and the session afterwards."""

    hand: HandRecord
    created: bool
    session: SessionInfo
    voided: tuple[HandRecord, ...] = ()
    replaced: tuple[HandRecord, ...] = ()  # replacements written by an edit, in ledger order
    card: CardView | None = None  # the session's card after the write, read in the same transaction
    result_message: int | None = None  # the message stored as the row's result, in this same write
    rescored: tuple[PendingInfo, ...] = ()  # hands waiting for Confirm, re-scored after an /edit before them


@dataclass(frozen=True, slots=True)
class Pressed:
    """A Confirm or Cancel pressed (`recording.press`): the chat's state the write read (after
    it), whether it was done (False: nothing written; the entry's stored pressers do not name the presser,
    or `own`: the recorder's Confirm of an entry someone else must confirm), and the confirmed write (None
    for a Cancel that dropped the entry; for a press on an entry confirmed before, its row with `created`
    False, whichever button)."""

    state: ChatState
    done: bool
    result: CommitResult | None = None
    own: bool = False


@dataclass(frozen=True, slots=True)
class PendingInfo:
    """An entry awaiting confirmation (a preview message with Confirm/Cancel buttons)."""

    id: str  # short random id, fits in callback data
    session_id: int
    chat_id: int
    kind: PendingKind
    payload: Payload  # by `kind`: read it through `payload_of`
    text: str | None
    preview: HandPreview | None  # None for undo
    created_by: int | None  # player id
    created_at: datetime
    expires_at: datetime
    message_id: int | None
    status: PendingStatus
    hand_id: int | None  # the hand written (or voided, for undo) on confirm


@dataclass(frozen=True, slots=True)
class AnsweredEntry:
    """An entry that waited for an answer (who deals, who a name means): the entry (payload, recorder,
    text), the table after the answer, and whether this call answered (False: answered already)."""

    entry: PendingInfo
    session: SessionInfo
    created: bool


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's running totals: net amount and counts, for a session or all-time in the group."""

    player: PlayerInfo
    seat: Seat | None  # at the session's table; None in all-time rows
    net: int
    hands: int
    wins: int
    self_draws: int
    dealt_in: int  # 放冲: paid a discard win


@dataclass(frozen=True, slots=True)
class StandingsReport:
    """Session standings (by seat order) and the group's all-time standings (by net, best first)."""

    session: SessionInfo | None
    session_rows: tuple[Standing, ...]
    alltime_rows: tuple[Standing, ...]


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """Per-player statistics over a session or the group's history."""

    player: PlayerInfo
    sessions: int
    hands: int
    wins: int
    self_draws: int
    dealt_in: int
    biggest_win: int  # largest amount received in one hand (0 if none)
    biggest_hua: int  # largest 花 / f of one win (0 if none)
    longest_streak: int  # longest 连庄 as dealer
    net: int
    # The most 花 of one win per rule set played, (rules, 花): 苏州's T and 宿州's f are not compared.
    biggest: tuple[tuple[RuleSetId, int], ...] = ()


@dataclass(frozen=True, slots=True)
class LedgerRow:
    """A ledger line: the hand and every seat's running total after it."""

    hand: HandRecord
    running: dict[Seat, int]


@dataclass(frozen=True, slots=True)
class Transfer:
    """One settlement payment: payer hands `amount` to payee. A stored transfer of an ended session
    (`id` set) also says how much is confirmed paid, how much the payer says is paid and waits for the
    payee, its state (open | partly | settled | carried) and, once carried, the session it went into."""

    payer: PlayerInfo
    payee: PlayerInfo
    amount: int
    id: int = 0
    number: int = 0  # 1, 2, ... in its session's summary
    session_id: int = 0
    session_number: int = 0
    paid: int = 0
    claimed: int = 0
    status: str = "open"
    carried_to_number: int | None = None
    paycode: bool = False  # the payee stored a payment QR photo (/paycode)

    @property
    def open(self) -> int:
        """What is still owed (not confirmed paid)."""
        return self.amount - self.paid if self.status in ("open", "partly") else 0

    @property
    def unclaimed(self) -> int:
        """What is owed and nobody has said is paid."""
        return self.open - self.claimed if self.status in ("open", "partly") else 0


@dataclass(frozen=True, slots=True)
class SettleFigures:
    """One person's figures in settling an ended session: net (stake units), carried in from earlier
    open transfers, 台费 paid, balance before (`raw`) and after 抹零 (`rounded`), 抽水 paid."""

    player: PlayerInfo
    net: int
    carried: int
    fee: int
    raw: int
    rounded: int
    rake: int = 0


@dataclass(frozen=True, slots=True)
class PaymentResult:
    """What a payment did: `kind` claimed (the payer says so), confirmed (the payee or an admin confirmed
    what was claimed) or received (the payee recorded it), the amount, and the transfers it touched as
    they are now."""

    kind: Literal["claimed", "confirmed", "received"]
    amount: int
    transfers: tuple[Transfer, ...]
    # The admin who pressed for someone else (我已付 for a guest payer, 已收到 for a payee); None when the
    # payer or payee pressed themselves.
    by: PlayerInfo | None = None
    role: Literal["admin", "seater"] = "admin"  # `by` pressed as an admin, or as the guest's seater


@dataclass(frozen=True, slots=True)
class PaymentLine:
    """One payment on a transfer, for the settlement sheet: amount, claimed | confirmed | voided, when."""

    amount: int
    status: str
    at: datetime


@dataclass(frozen=True, slots=True)
class Balance:
    """Who still owes whom in a group, across sessions: the open transfers (oldest first) and each
    person's open balance (+ is owed money)."""

    transfers: tuple[Transfer, ...]
    totals: dict[int, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class SessionSummary:
    """An ended (or open) session with its totals: for /history and the end-of-session card."""

    session: SessionInfo
    totals: dict[int, int] = field(default_factory=dict)  # player id -> net
    hands_played: int = 0


@dataclass(frozen=True, slots=True)
class DueSummary:
    """An ended session's summary claimed for posting: where it goes (chat, forum topic), how many of its
    parts (card, chart, CSV) are out already, and the claim's token (`attempt`: a later claim supersedes
    this one, and the marks of a superseded poster change nothing)."""

    session_id: int
    chat_id: int
    thread_id: int | None
    sent: int
    attempt: int
    end_reason: str | None
    sending: int = 0  # the part an earlier poster began to send and never heard back about (if > sent)


class _Waiting(Protocol):
    """A pending entry as stored (`PendingInfo`, or its row): its kind and its payload."""

    @property
    def kind(self) -> str: ...

    @property
    def payload(self) -> Any: ...


@overload
def payload_of(entry: _Waiting, kind: Literal["hand"]) -> EntryJSON: ...
@overload
def payload_of(entry: _Waiting, kind: Literal["adjust"]) -> AdjustPayload: ...
@overload
def payload_of(entry: _Waiting, kind: Literal["edit"]) -> EditPayload: ...
@overload
def payload_of(entry: _Waiting, kind: Literal["undo"]) -> UndoPayload: ...
@overload
def payload_of(entry: _Waiting, kind: Literal["dealer"]) -> DealerPayload: ...
@overload
def payload_of(entry: _Waiting, kind: Literal["name"]) -> NamePayload: ...
def payload_of(entry: _Waiting, kind: PendingKind) -> Payload:
    """An entry's payload in the shape of its kind, which must be `kind` (ValueError otherwise: a caller
    that reads an entry as another kind's is a bug, never a user's input)."""
    if entry.kind != kind:
        raise ValueError(f"an entry of kind {entry.kind} read as one of kind {kind}")
    return cast(Payload, entry.payload)
