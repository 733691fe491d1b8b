"""SQLModel tables of the ledger: groups, players, sessions, seats, hands, payments, totals, pending."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, Column, ForeignKey, Index, Integer, UniqueConstraint, text
from sqlmodel import AutoString, Field, SQLModel

from bot.ledger.options import BY_ID
from bot.ledger.values import HandKind, PendingKind, PendingStatus

# Explicit constraint names keep Alembic migrations identical on SQLite and PostgreSQL.
SQLModel.metadata.naming_convention = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def _json() -> Any:
    return Field(default_factory=dict, sa_column=Column(JSON, nullable=False))


class ChatGroup(SQLModel, table=True):
    """A Telegram group chat and its table settings."""

    __tablename__ = "chat_group"

    id: int | None = Field(default=None, primary_key=True)
    chat_id: int = Field(sa_column=Column(BigInteger, nullable=False, unique=True))
    language: str = Field(max_length=16)
    rules: str = Field(max_length=32)
    options: dict[str, Any] = _json()
    instant: bool = BY_ID["instant"].default  # the group options: bot.ledger.options
    confirm_timeout_seconds: int  # a new group's comes from the settings (store.Defaults)
    weekly_schedule: bool = False
    weekly_day: str = Field(default="sun", max_length=3)  # mon … sun
    weekly_time: str = Field(default="20:00", max_length=5)  # HH:MM in `timezone`
    weekly_last_post_at: datetime | None = None  # the weekly sweep's compare-and-set
    timezone: str = Field(default=BY_ID["timezone"].default, max_length=64)
    confirm_by: str = Field(default=BY_ID["confirm_by"].default, max_length=8)
    settle: dict[str, Any] = _json()  # what the group changed of the settling-up options (SETTLE_OPTIONS)
    created_at: datetime


class Player(SQLModel, table=True):
    """A player of one group: a Telegram user, or a guest known by name only (guest_key set)."""

    __tablename__ = "player"
    __table_args__ = (
        UniqueConstraint("group_id", "telegram_id"),
        UniqueConstraint("group_id", "guest_key"),
    )

    id: int | None = Field(default=None, primary_key=True)
    group_id: int = Field(foreign_key="chat_group.id", index=True)
    telegram_id: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True))
    username: str | None = Field(default=None, max_length=64)
    display_name: str = Field(max_length=128)
    guest_key: str | None = Field(default=None, max_length=128)
    paycode_file_id: str | None = Field(default=None, max_length=256)  # payment QR photo (/paycode)
    created_at: datetime


class TableSession(SQLModel, table=True):
    """One table session of a group; at most one open per group (partial unique index)."""

    __tablename__ = "table_session"
    __table_args__ = (
        UniqueConstraint("group_id", "number"),
        Index(
            "uq_table_session_one_open",
            "group_id",
            unique=True,
            sqlite_where=text("status = 'open'"),
            postgresql_where=text("status = 'open'"),
        ),
        Index("ix_table_session_status_activity", "status", "last_activity_at"),
    )

    id: int | None = Field(default=None, primary_key=True)
    group_id: int = Field(foreign_key="chat_group.id")
    number: int
    rules: str = Field(max_length=32)
    options: dict[str, Any] = _json()
    stake: int
    status: str = Field(max_length=8)  # open | ended
    opened_by: int | None = Field(default=None, foreign_key="player.id")
    opened_at: datetime
    ended_at: datetime | None = None
    end_reason: str | None = Field(default=None, max_length=32)
    last_activity_at: datetime
    state: dict[str, Any] = _json()  # DealerState of the coming hand
    dealer_set: bool = False
    last_seq: int = 0  # highest hand.seq written
    live_rows: int = 0  # live hand rows of any kind
    hands_played: int = 0  # live win/draw/escape rows
    version: int = 0  # bumped by every change of the table; pending entries remember it
    card_message_id: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True))
    pin_refused: bool = False  # "cannot pin" was said once for this session
    flow_message_id: int | None = Field(
        default=None, sa_column=Column(BigInteger, nullable=True)
    )  # open /hu flow
    summary_message_id: int | None = Field(
        default=None, sa_column=Column(BigInteger, nullable=True)
    )  # the end-of-session summary, edited as its transfers are paid
    season_id: int | None = Field(default=None, foreign_key="season.id")  # set when its season closes


class Seat(SQLModel, table=True):
    """A player's seat (E/S/W/N) at a session's table; kept, inactive, when the player leaves (/sub)."""

    __tablename__ = "seat"
    __table_args__ = (
        UniqueConstraint("session_id", "player_id"),
        Index(
            "uq_seat_one_active",
            "session_id",
            "seat",
            unique=True,
            sqlite_where=text("active = 1"),
            postgresql_where=text("active = true"),
        ),
    )

    id: int | None = Field(default=None, primary_key=True)
    session_id: int = Field(foreign_key="table_session.id")
    seat: str = Field(max_length=1)
    player_id: int = Field(foreign_key="player.id")
    active: bool = True  # the player sits there now
    left_after: int | None = None  # live rows of the table when the player left
    seated_by: int | None = None  # for a guest: the player who seated them (may press 我已付 for them)


class Hand(SQLModel, table=True):
    """A recorded ledger row: win, draw, escape or adjustment. Never deleted; voided and replaced instead."""

    __tablename__ = "hand"
    __table_args__ = (
        UniqueConstraint("session_id", "seq"),
        Index(  # one live hand per number; adjustments carry the number of the hand they follow
            "uq_hand_live_number",
            "session_id",
            "number",
            unique=True,
            sqlite_where=text("voided = 0 AND kind <> 'adjust'"),
            postgresql_where=text("voided = false AND kind <> 'adjust'"),
        ),
        Index("ix_hand_session_number", "session_id", "number"),  # the ledger order (rows.IN_ORDER)
    )

    id: int | None = Field(default=None, primary_key=True)
    session_id: int = Field(foreign_key="table_session.id")
    seq: int
    number: int  # 第n局 of a hand; an adjustment's is that of the hand it follows (0: before the first)
    kind: HandKind = Field(sa_type=AutoString(length=8))
    text: str | None = None
    entry: dict[str, Any] = _json()
    request: dict[str, Any] = _json()
    response: dict[str, Any] = _json()
    state_before: dict[str, Any] = _json()
    state_after: dict[str, Any] = _json()
    seat_players: dict[str, Any] = _json()  # seat -> player id when recorded
    note: str | None = None
    dealer_after_player_id: int | None = Field(default=None, foreign_key="player.id")
    streak_after: int = 0
    recorded_by: int | None = Field(default=None, foreign_key="player.id")
    recorded_at: datetime
    source_key: str | None = Field(default=None, max_length=128, unique=True)
    voided: bool = False
    voided_by: int | None = Field(default=None, foreign_key="player.id")
    voided_at: datetime | None = None
    void_key: str | None = Field(default=None, max_length=128, unique=True)
    replaced_by: int | None = Field(default=None, foreign_key="hand.id")
    replaces: int | None = Field(default=None, foreign_key="hand.id")
    # The bot's one-line result message of the row (marked void there when the row is undone or edited).
    result_message_id: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True))


class Payment(SQLModel, table=True):
    """One player's signed amount in one hand (integer, the hand's rows sum to zero)."""

    __tablename__ = "payment"
    __table_args__ = (UniqueConstraint("hand_id", "player_id"),)

    id: int | None = Field(default=None, primary_key=True)
    hand_id: int = Field(foreign_key="hand.id")
    player_id: int = Field(foreign_key="player.id", index=True)
    amount: int = Field(sa_column=Column(BigInteger, nullable=False))
    hua: int = 0  # the player's 花 / f when this row is a win


class SessionTotal(SQLModel, table=True):
    """Running totals of one player in one session, updated in the same transaction as the hands."""

    __tablename__ = "session_total"

    session_id: int = Field(foreign_key="table_session.id", primary_key=True)
    player_id: int = Field(foreign_key="player.id", primary_key=True)
    net: int = Field(default=0, sa_column=Column(BigInteger, nullable=False, default=0))
    hands: int = 0
    wins: int = 0
    self_draws: int = 0
    dealt_in: int = 0
    biggest_win: int = Field(default=0, sa_column=Column(BigInteger, nullable=False, default=0))
    biggest_hua: int = 0
    longest_streak: int = 0


class GroupTotal(SQLModel, table=True):
    """Running all-time totals of one player in one group."""

    __tablename__ = "group_total"

    group_id: int = Field(foreign_key="chat_group.id", primary_key=True)
    player_id: int = Field(foreign_key="player.id", primary_key=True)
    sessions: int = 0  # sessions in which the player played a hand
    net: int = Field(default=0, sa_column=Column(BigInteger, nullable=False, default=0))
    hands: int = 0
    wins: int = 0
    self_draws: int = 0
    dealt_in: int = 0
    biggest_win: int = Field(default=0, sa_column=Column(BigInteger, nullable=False, default=0))
    biggest_hua: int = 0
    longest_streak: int = 0


class PendingEntry(SQLModel, table=True):
    """An entry shown as a preview and awaiting Confirm/Cancel; consumed exactly once."""

    __tablename__ = "pending_entry"
    __table_args__ = (Index("ix_pending_entry_status_expires", "status", "expires_at"),)

    id: str = Field(primary_key=True, max_length=32)
    session_id: int = Field(foreign_key="table_session.id", index=True)
    kind: PendingKind = Field(sa_type=AutoString(length=8))
    payload: dict[str, Any] = _json()
    text: str | None = None
    preview: dict[str, Any] = _json()
    base_version: int
    created_by: int | None = Field(default=None, foreign_key="player.id")
    created_at: datetime
    expires_at: datetime
    message_id: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True))
    status: PendingStatus = Field(sa_type=AutoString(length=10))
    consumed_at: datetime | None = None
    hand_id: int | None = Field(default=None, sa_column=Column(Integer, ForeignKey("hand.id"), nullable=True))
    # Who may press it, decided from the table when it was made (`pending.may_press`): the Telegram ids of
    # the players seated then, and whether its recorder may not confirm it (`confirm_by other`).
    pressers: list[int] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    by_other: bool = False


class AppliedKey(SQLModel, table=True):
    """The idempotency key of a write that makes no hand (a command's chat + message id, a press's query
    id), written in the same transaction as the write: a redelivered update finds it and changes nothing."""

    __tablename__ = "applied_key"

    key: str = Field(primary_key=True, max_length=128)
    applied_at: datetime


class SettleTransfer(SQLModel, table=True):
    """One transfer that settles an ended session: payer owes payee `amount`, paid in confirmed parts
    (`paid`); `claimed` is what the payer says was paid and the payee has not confirmed yet. Status open |
    partly | settled | carried (what was open when the group's next session ended went into its transfers,
    `carried_to`). Never deleted."""

    __tablename__ = "settle_transfer"
    __table_args__ = (
        UniqueConstraint("session_id", "number"),
        Index("ix_settle_transfer_group_id_status", "group_id", "status"),
    )

    id: int | None = Field(default=None, primary_key=True)
    group_id: int = Field(foreign_key="chat_group.id")
    session_id: int = Field(foreign_key="table_session.id")
    number: int  # 1, 2, ... in the session's summary
    payer_id: int = Field(foreign_key="player.id")
    payee_id: int = Field(foreign_key="player.id")
    amount: int = Field(sa_column=Column(BigInteger, nullable=False))
    paid: int = Field(default=0, sa_column=Column(BigInteger, nullable=False, default=0))
    claimed: int = Field(default=0, sa_column=Column(BigInteger, nullable=False, default=0))
    status: str = Field(default="open", max_length=8)
    carried_to: int | None = Field(default=None, foreign_key="table_session.id")
    created_at: datetime
    closed_at: datetime | None = None
    reminded_at: datetime | None = None  # the reminder sweep's compare-and-set


class SettlePayment(SQLModel, table=True):
    """A payment on a transfer: claimed by the payer (我已付, /paid), then confirmed by the payee or an admin
    (已收到), or confirmed at once when the payee records it; voided (never deleted) when the transfer is
    carried while it waits."""

    __tablename__ = "settle_payment"

    id: int | None = Field(default=None, primary_key=True)
    transfer_id: int = Field(foreign_key="settle_transfer.id", index=True)
    amount: int = Field(sa_column=Column(BigInteger, nullable=False))
    status: str = Field(max_length=10)  # claimed | confirmed | voided
    claimed_by: int | None = Field(default=None, foreign_key="player.id")
    confirmed_by: int | None = Field(default=None, foreign_key="player.id")
    created_at: datetime
    confirmed_at: datetime | None = None


class SettleLine(SQLModel, table=True):
    """One person's figures in the settling of an ended session: the session's net (stake units), what
    they brought in from earlier open transfers, the 台费 and the 抽水 they paid (a line from before
    revision 0012 has both in `fee`), the balance before and after 抹零."""

    __tablename__ = "settle_line"

    session_id: int = Field(foreign_key="table_session.id", primary_key=True)
    player_id: int = Field(foreign_key="player.id", primary_key=True)
    net: int = Field(default=0, sa_column=Column(BigInteger, nullable=False, default=0))
    carried: int = Field(default=0, sa_column=Column(BigInteger, nullable=False, default=0))
    fee: int = Field(default=0, sa_column=Column(BigInteger, nullable=False, default=0))
    rake: int = Field(default=0, sa_column=Column(BigInteger, nullable=False, default=0, server_default="0"))
    raw: int = Field(default=0, sa_column=Column(BigInteger, nullable=False, default=0))
    rounded: int = Field(default=0, sa_column=Column(BigInteger, nullable=False, default=0))


class SummaryPost(SQLModel, table=True):
    """The end-of-session summary as ledger state: due from the transaction that ends the session, then
    claimed by one poster at a time (`due_at` moves a lease ahead, `attempts` is the claim's token), its
    parts marked as each goes out (`sent`: the card, the chart, the CSV; `sending`: the part whose send
    began), posted (`posted_at`) or given up
    (`due_at` None with `posted_at` None). `thread_id`: the forum topic of the /end that ended it."""

    __tablename__ = "summary_post"
    __table_args__ = (Index("ix_summary_post_due_at", "due_at"),)

    session_id: int = Field(foreign_key="table_session.id", primary_key=True)
    thread_id: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True))
    sent: int = 0  # parts out, in order: 1 the card, 2 the chart, 3 the CSV
    sending: int = 0  # the part whose send began (out or not: its send never answered), 0 for none
    attempts: int = 0
    due_at: datetime | None = None
    posted_at: datetime | None = None
    created_at: datetime


class Season(SQLModel, table=True):
    """A closed season of a group (or the one an admin asked to close, `closed_at` still None): its number,
    name, and the final standings and titles as they were at the close (the hall of fame). The ended
    sessions of a closed season carry its id (`TableSession.season_id`); the current season is the group's
    ended sessions that carry none."""

    __tablename__ = "season"
    __table_args__ = (UniqueConstraint("group_id", "number"),)

    id: int | None = Field(default=None, primary_key=True)
    group_id: int = Field(foreign_key="chat_group.id")
    number: int
    name: str | None = Field(default=None, max_length=64)
    asked_by: int | None = Field(default=None, foreign_key="player.id")
    asked_at: datetime
    closed_by: int | None = Field(default=None, foreign_key="player.id")
    closed_at: datetime | None = None
    final: dict[str, Any] = _json()  # the standings and titles at the close (`seasons.close`)
