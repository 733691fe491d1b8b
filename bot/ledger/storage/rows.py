"""Look-ups: the tables as Core sees them, the SQL fragments the ledger's queries share (live hands, the
sitting seats, the ledger's order), and a row by its key."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, Protocol

from sqlalchemy import Table, and_, bindparam, case, literal_column, true
from sqlalchemy import select as select_columns  # Core: rows of columns, no ORM objects
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlmodel import Session, SQLModel, col, select

from bot.ledger import errors
from bot.ledger.storage.models import (
    ChatGroup,
    GroupTotal,
    Hand,
    Payment,
    PendingEntry,
    Player,
    Seat,
    SessionTotal,
    SettleTransfer,
    TableSession,
)
from bot.ledger.values import (
    SEATS,
)
from scoring.seats import Seat as SeatLetter  # the ORM row is `Seat`


# The tables as Core sees them (the ORM models stay the schema), for the hot path's reads of columns and
# its set-based writes (a hand's rows, payments and totals), which load no ORM object.
def _table(model: type[SQLModel]) -> Table:
    table = model.__table__  # type: ignore[attr-defined]  # set by SQLModel for table=True models
    assert isinstance(table, Table)
    return table


GROUP, SESSION, SEAT, PLAYER = _table(ChatGroup), _table(TableSession), _table(Seat), _table(Player)
HAND, PAYMENT, PENDING = _table(Hand), _table(Payment), _table(PendingEntry)
SESSION_TOTAL, GROUP_TOTAL = _table(SessionTotal), _table(GroupTotal)
SETTLE_TRANSFER = _table(SettleTransfer)


# Each database's INSERT, by dialect name: both spell ON CONFLICT the same way (`on_conflict_do_nothing`,
# `on_conflict_do_update`, `excluded`).
INSERTS: dict[str, Callable[[Table], Any]] = {"sqlite": sqlite_insert, "postgresql": postgresql_insert}


def insert_into(s: Session, table: Table) -> Any:
    """An INSERT into `table` in the dialect of `s`'s database; the rows given as parameters, one
    statement however many (SQLAlchemy keeps its compiled form: a statement of the same shape is compiled
    once)."""
    return INSERTS[s.get_bind().dialect.name](table)


# A live (not voided) row, spelled as the partial index uq_hand_live_number says it ("voided = 0"), so that
# the databases use the index: "voided IS 0" would scan the session's rows.
LIVE = col(Hand.voided) == False  # noqa: E712
SITTING = Seat.active == True  # noqa: E712  (as the partial index uq_seat_one_active says it)
# The values the partial indexes name are written into the SQL, never bound: SQLite prepares a statement
# whose bound value could choose a partial index anew on every execution (about 50 µs, ten times the
# look-up itself).
LIVE_TABLE = col(TableSession.status) == literal_column("'open'")  # as uq_table_session_one_open says it
# A hand, not an adjustment: only hands are numbered (第n局); an adjustment carries the number of the hand it
# follows (0 before the first) and comes after that hand, in the order it was recorded.
A_HAND = col(Hand.kind) != literal_column("'adjust'")  # as uq_hand_live_number says it
A_WIN = col(Hand.kind) == literal_column("'win'")
AN_ADJUSTMENT = col(Hand.kind) == literal_column("'adjust'")
IS_ADJUST = case((col(Hand.kind) == "adjust", 1), else_=0)
IN_ORDER = (col(Hand.number), IS_ADJUST, col(Hand.seq))  # the ledger's order of a session's live rows
NEWEST_FIRST = (col(Hand.number).desc(), IS_ADJUST.desc(), col(Hand.seq).desc())


def aware(moment: datetime) -> datetime:
    """SQLite gives datetimes back naive; the ledger stores UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


class Row(Protocol):
    """A table row with an integer primary key, None until it is flushed."""

    @property
    def id(self) -> int | None: ...


def row_id(row: Row) -> int:
    """The id of a flushed row."""
    value = row.id
    assert value is not None, "row has not been flushed"
    return int(value)


# ---- look-ups -------------------------------------------------------------------------------------------


_GROUP_OF_CHAT = select(ChatGroup).where(ChatGroup.chat_id == bindparam("chat"))
_OPEN_SESSION = select(TableSession).where(TableSession.group_id == bindparam("group"), LIVE_TABLE)
_OPEN_SESSION_LOCKED = _OPEN_SESSION.with_for_update().execution_options(populate_existing=True)


_GROUP_AND_TABLE = (
    select(ChatGroup, TableSession)
    .select_from(ChatGroup)  # told: the literal in the ON clause leaves the left side ambiguous
    .join(TableSession, and_(col(TableSession.group_id) == ChatGroup.id, LIVE_TABLE))
    .where(ChatGroup.chat_id == bindparam("chat"))
)
_GROUP_AND_TABLE_LOCKED = _GROUP_AND_TABLE.with_for_update(of=TableSession).execution_options(
    populate_existing=True  # the locked row as it is now, over an object this transaction read before
)


def group_and_table(s: Session, chat_id: int, *, lock: bool) -> tuple[ChatGroup | None, TableSession | None]:
    """The chat's group and its open session in one statement (the session locked for update when
    `lock`); the group alone (a second statement) when it has no open session, (None, None) without it."""
    found = s.execute(_GROUP_AND_TABLE_LOCKED if lock else _GROUP_AND_TABLE, {"chat": chat_id}).first()
    if found is not None:
        return found[0], found[1]
    return group_row(s, chat_id), None


def group_row(s: Session, chat_id: int) -> ChatGroup | None:
    """The group of a chat, or None."""
    return s.scalars(_GROUP_OF_CHAT, {"chat": chat_id}).first()


def open_session_row(s: Session, group_id: int, *, lock: bool) -> TableSession | None:
    """The group's open session (locked for update when `lock`), or None."""
    return s.scalars(_OPEN_SESSION_LOCKED if lock else _OPEN_SESSION, {"group": group_id}).first()


def session_row(s: Session, session_id: int, *, lock: bool = False) -> TableSession:
    """A session by id (NotFound)."""
    query = select(TableSession).where(TableSession.id == session_id)
    if lock:  # the locked row as it is now, over an object this transaction read before
        query = query.with_for_update().execution_options(populate_existing=True)
    ts = s.scalars(query).first()
    if ts is None:
        raise errors.NotFound(f"no session {session_id}", what="session", id=session_id)
    return ts


_PENDING_BY_ID = select_columns(PENDING).where(PENDING.c.id == bindparam("id"))
_PENDING_BY_ID_LOCKED = _PENDING_BY_ID.with_for_update()


def pending_row(s: Session, pending_id: str, *, lock: bool = False) -> Any:
    """A pending entry's row of columns (no ORM object; locked for update when `lock`), or None."""
    query = _PENDING_BY_ID_LOCKED if lock else _PENDING_BY_ID
    return s.connection().execute(query, {"id": pending_id}).first()


def player_row(s: Session, player_id: int) -> Player:
    """A player by id (UnknownPlayer)."""
    player = s.get(Player, player_id)
    if player is None:
        raise errors.UnknownPlayer(f"no player {player_id}", ref=str(player_id))
    return player


def chat_of(s: Session, group_id: int) -> int:
    """The chat id of a group row."""
    group = s.get(ChatGroup, group_id)
    assert group is not None
    return group.chat_id


_SEATED = (
    select_columns(SEAT.c.seat, *PLAYER.c)
    .join(PLAYER, PLAYER.c.id == SEAT.c.player_id)
    .where(SEAT.c.session_id == bindparam("session"), SEAT.c.active == true())
)


def seats(s: Session, session_id: int) -> dict[SeatLetter, Any]:
    """Seat -> the player sitting there now, in seat order: read-only rows with the `Player` columns (id,
    telegram_id, username, display_name, guest_key ...), one prepared statement and no ORM objects."""
    found = {row.seat: row for row in s.connection().execute(_SEATED, {"session": session_id})}
    return {seat: found[seat] for seat in SEATS if seat in found}


def last_live_hand(s: Session, session_id: int) -> Hand | None:
    """The session's last live row, or None."""
    return s.scalars(
        select(Hand).where(Hand.session_id == session_id, LIVE).order_by(*NEWEST_FIRST).limit(1)
    ).first()
