"""Who sits at the open table, each call one write: /join (a Telegram user or a named guest), /sub (someone
in a seat's place from the next hand on), /seat (a move before the first hand)."""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Session

from bot.ledger import errors
from bot.ledger.play import groups, sessions
from bot.ledger.storage.mappers import player_info, session_info
from bot.ledger.storage.models import ChatGroup, Player, TableSession
from bot.ledger.storage.rows import player_row
from bot.ledger.storage.store import Ledger
from bot.ledger.values import PlayerInfo, SeatChange, UserRef
from scoring.seats import Seat


def join(
    ledger: Ledger,
    chat_id: int,
    user: UserRef | None = None,
    *,
    guest_name: str | None = None,
    seat: Seat | None = None,
    by: UserRef | None = None,
    key: str | None = None,
) -> SeatChange:
    """Seat a Telegram user or a named guest at the next free seat (E, S, W, N order) or at `seat`, before
    the first hand (SeatsLocked); a guest's seat remembers who seated them (`by`). AlreadySeated,
    SeatTaken, TableFull, NoOpenSession."""
    if (user is None) == (guest_name is None):
        raise errors.InvalidValue("join needs either a Telegram user or a guest name", field="player")
    wanted = sessions.seat_of(seat) if seat is not None else None
    now = ledger.now()

    def op(s: Session) -> SeatChange:
        group, ts = sessions.open_table(s, chat_id)
        player = _newcomer(s, group, ts, user, guest_name, now)
        target = sessions.sit(s, group, ts, player, wanted, now)
        _mark_seater(s, group, ts, player, guest_name, by, now)
        return SeatChange(player_info(player, chat_id), target, session_info(s, ts, chat_id))

    return ledger.write_once(key, op)


def substitute(
    ledger: Ledger,
    chat_id: int,
    seat: Seat,
    user: UserRef | None = None,
    *,
    guest_name: str | None = None,
    by: UserRef | None = None,
    key: str | None = None,
) -> tuple[SeatChange, PlayerInfo]:
    """/sub: from the next hand on a Telegram user or a named guest sits at `seat` in place of its
    player, who keeps their own totals (and shows under the seat). (the change, who left).
    PlayerNotSeated (an empty seat), AlreadySeated, BadGuestName."""
    if (user is None) == (guest_name is None):
        raise errors.InvalidValue("a substitute is a Telegram user or a guest name", field="player")
    target = sessions.seat_of(seat)
    now = ledger.now()

    def op(s: Session) -> tuple[SeatChange, PlayerInfo]:
        group, ts = sessions.open_table(s, chat_id)
        player = _newcomer(s, group, ts, user, guest_name, now)
        gone = sessions.seat_instead(s, group, ts, target, player, now)
        _mark_seater(s, group, ts, player, guest_name, by, now)
        change = SeatChange(player_info(player, chat_id), target, session_info(s, ts, chat_id))
        return change, player_info(gone, chat_id)

    return ledger.write_once(key, op)


def move(ledger: Ledger, chat_id: int, player_id: int, seat: Seat, *, key: str | None = None) -> SeatChange:
    """Move a seated player to `seat` before the first hand; an occupant of that seat swaps places."""
    target = sessions.seat_of(seat)
    now = ledger.now()

    def op(s: Session) -> SeatChange:
        _group, ts = sessions.open_table(s, chat_id)
        player = player_row(s, player_id)
        sessions.move_seat(s, ts, player, target, now)
        return SeatChange(player_info(player, chat_id), target, session_info(s, ts, chat_id))

    return ledger.write_once(key, op)


def _newcomer(
    s: Session,
    group: ChatGroup,
    ts: TableSession,
    user: UserRef | None,
    guest_name: str | None,
    now: datetime,
) -> Player:
    """Who /join or /sub seats: the Telegram user, or the guest of that name (BadGuestName first: a name
    the ledger refuses, or one somebody at this table or in the group already holds)."""
    if user is not None:
        return groups.ensure_player(s, group, user, now)
    name = guest_name or ""
    groups.check_guest_name(name, groups.name_holders(s, group, ts))
    return groups.guest(s, group, name, now)


def _mark_seater(
    s: Session,
    group: ChatGroup,
    ts: TableSession,
    player: Player,
    guest_name: str | None,
    by: UserRef | None,
    now: datetime,
) -> None:
    """A guest remembers who seated them: that person may press 我已付 for the guest."""
    if guest_name is not None and by is not None:
        sessions.mark_seater(s, ts, player, groups.ensure_player(s, group, by, now))
