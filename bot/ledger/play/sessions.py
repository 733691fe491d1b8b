"""Table sessions: opening one, seats, the first dealer, 豹子, the pinned card, ending (by hand or idle)."""

from __future__ import annotations

import logging
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func
from sqlmodel import Session, col, select

from bot.ledger import errors
from bot.ledger.claims import summaries
from bot.ledger.money import settling
from bot.ledger.play.groups import actor, chat_state, ensure_group, resolve_rules, validate_options
from bot.ledger.storage.mappers import session_info
from bot.ledger.storage.models import (
    ChatGroup,
    GroupTotal,
    PendingEntry,
    Player,
    Seat,
    SessionTotal,
    TableSession,
)
from bot.ledger.storage.rows import (
    SITTING,
    aware,
    group_and_table,
    open_session_row,
    row_id,
    session_row,
)
from bot.ledger.storage.store import Defaults, Ledger
from bot.ledger.values import SEATS, DealerState, SessionInfo, SessionSummary, UserRef
from scoring.rules import RuleSetId, as_rule_set_id
from scoring.seats import Seat as SeatLetter  # the ORM row is `Seat`
from scoring.seats import parse_seat

log = logging.getLogger(__name__)

MAX_STAKE = 1_000_000
IDLE_RETRY = timedelta(minutes=1)  # a table whose idle end failed waits this long, doubling each time …
IDLE_RETRY_MAX = timedelta(hours=1)  # … up to this


def seat_of(word: object) -> SeatLetter:
    """E/S/W/N from a seat word (E, east, 东, 東, 东家 ...); InvalidSeat otherwise.

    >>> seat_of("東"), seat_of("w")
    ('E', 'W')
    """
    seat = parse_seat(word) if isinstance(word, str) else None
    if seat is None:
        raise errors.InvalidSeat(f"not a seat: {word!r} (use E S W N or 东南西北)", seat=str(word))
    return seat


def check_stake(stake: object) -> None:
    """A stake is a whole number from 1 to MAX_STAKE (InvalidValue)."""
    if isinstance(stake, bool) or not isinstance(stake, int) or not 1 <= stake <= MAX_STAKE:
        raise errors.InvalidValue(
            f"stake must be a whole number from 1 to {MAX_STAKE}, got {stake!r}", field="stake", value=stake
        )


def open_table(s: Session, chat_id: int, *, lock: bool = True) -> tuple[ChatGroup, TableSession]:
    """The group and its open session, to read or change: the ORM objects, the session locked for update
    when `lock` (NoOpenSession)."""
    group, ts = group_and_table(s, chat_id, lock=lock)
    if group is None or ts is None:
        raise errors.NoOpenSession("this group has no open table session", chat_id=chat_id)
    return group, ts


def moved_on(s: Session, ts: TableSession, now: datetime) -> None:
    """A row's write (a hand, an adjustment, its undo or edit) moved the table on (`touch`): its counters
    and dealer state, as `ts` holds them now, written by the flush (one UPDATE of what changed)."""
    touch(ts, now)
    s.add(ts)
    s.flush()


def touch(ts: TableSession, now: datetime) -> None:
    """The table changed: note the activity (idle end) and bump the version (open previews go stale)."""
    ts.last_activity_at = now
    ts.version += 1


def check_unlocked(ts: TableSession) -> None:
    """Seats are fixed once a row is recorded (SeatsLocked); the first dealer once a hand is (`change`)."""
    if ts.live_rows > 0:
        raise errors.SeatsLocked("seats are fixed once a row is recorded")


def open_session(
    ledger: Ledger,
    chat_id: int,
    *,
    by: UserRef | None = None,
    rules: RuleSetId | None = None,
    stake: int = 1,
    options: dict[str, Any] | None = None,
    key: str | None = None,
) -> SessionInfo:
    """Open a table session (rules default the group's; options snapshot; stake > 0).
    SessionAlreadyOpen if the group has one (also a unique index)."""
    now = ledger.now()

    def op(s: Session) -> SessionInfo:
        return start(
            s,
            chat_id,
            ledger.defaults,
            now,
            opened_by=lambda g: actor(s, g, by, now),
            rules=rules,
            stake=stake,
            options=options,
        )

    return ledger.write_once(key, op)


def require_session(ledger: Ledger, chat_id: int) -> SessionInfo:
    """The group's open session, or NoOpenSession."""
    info = chat_state(ledger, chat_id).session
    if info is None:
        raise errors.NoOpenSession("this group has no open table session", chat_id=chat_id)
    return info


def get_session(s: Session, session_id: int) -> SessionInfo:
    """A session by id, open or ended (NotFound)."""
    return session_info(s, session_row(s, session_id))


def start(
    s: Session,
    chat_id: int,
    defaults: Defaults,
    now: datetime,
    *,
    opened_by: Any,
    rules: RuleSetId | None,
    stake: int,
    options: dict[str, Any] | None,
) -> SessionInfo:
    """A new open session: the group's rules unless named, its options plus these (a snapshot)."""
    check_stake(stake)
    chosen = resolve_rules(rules) if rules is not None else None
    group = ensure_group(s, chat_id, defaults, now)
    existing = open_session_row(s, row_id(group), lock=False)
    if existing is not None:
        raise errors.SessionAlreadyOpen(
            f"session {existing.number} is still open",
            chat_id=chat_id,
            session_id=existing.id,
            number=existing.number,
        )
    session_rules = chosen or group.rules
    base = dict(group.options) if session_rules == group.rules else {}
    snapshot = validate_options(as_rule_set_id(session_rules), {**base, **(options or {})})
    number = (
        s.scalar(select(func.max(TableSession.number)).where(TableSession.group_id == group.id)) or 0
    ) + 1
    ts = TableSession(
        group_id=row_id(group),
        number=number,
        rules=session_rules,
        options=snapshot,
        stake=stake,
        status="open",
        opened_by=opened_by(group),
        opened_at=now,
        last_activity_at=now,
        state=DealerState().to_json(),
    )
    s.add(ts)
    s.flush()
    return session_info(s, ts, chat_id)


def change(s: Session, ts: TableSession, now: datetime, **changes: Any) -> SessionInfo:
    """Apply `options` (merged, validated), `stake`, `dealer` or `baozi` to the open session."""
    if "options" in changes:
        ts.options = validate_options(as_rule_set_id(ts.rules), {**ts.options, **changes["options"]})
    if "stake" in changes:
        check_stake(changes["stake"])
        ts.stake = changes["stake"]
    if "dealer" in changes:
        if ts.hands_played > 0:  # adjustments name no dealer: the first one may follow them
            raise errors.SeatsLocked("the first dealer is fixed once a hand is recorded")
        current = DealerState.from_json(ts.state)
        ts.state = DealerState(
            dealer=changes["dealer"], first_dealer=changes["dealer"], baozi=current.baozi
        ).to_json()
        ts.dealer_set = True
    if "baozi" in changes:
        ts.state = replace(DealerState.from_json(ts.state), baozi=bool(changes["baozi"])).to_json()
    touch(ts, now)
    s.add(ts)
    s.flush()
    return session_info(s, ts)


def _change(ledger: Ledger, chat_id: int, key: str | None, **changes: Any) -> SessionInfo:
    now = ledger.now()
    return ledger.write_once(key, lambda s: change(s, open_table(s, chat_id)[1], now, **changes))


def update_session(
    ledger: Ledger,
    chat_id: int,
    *,
    options: dict[str, Any] | None = None,
    stake: int | None = None,
    key: str | None = None,
) -> SessionInfo:
    """Change the open session's options (merged, validated) or stake; later hands only."""
    changes = {name: value for name, value in (("options", options), ("stake", stake)) if value is not None}
    if stake is not None:
        check_stake(stake)
    return _change(ledger, chat_id, key, **changes)


def set_dealer(ledger: Ledger, chat_id: int, seat: SeatLetter, *, key: str | None = None) -> SessionInfo:
    """Choose the first dealer (also the round's first dealer) before the first hand (SeatsLocked)."""
    return _change(ledger, chat_id, key, dealer=seat_of(seat))


def mark_baozi(ledger: Ledger, chat_id: int, baozi: bool = True, *, key: str | None = None) -> SessionInfo:
    """Mark (or clear) 豹子 for the coming hand: the dice of /roll showed a double."""
    return _change(ledger, chat_id, key, baozi=baozi)


def sit(
    s: Session, group: ChatGroup, ts: TableSession, player: Player, wanted: SeatLetter | None, now: datetime
) -> SeatLetter:
    """Seat a player at `wanted` or the next free seat (E S W N order); the seat taken."""
    taken = {row.seat: row for row in s.scalars(select(Seat).where(Seat.session_id == ts.id, SITTING))}
    for seat, row in taken.items():
        if row.player_id == player.id:
            raise errors.AlreadySeated(
                f"{player.display_name} already sits at {seat}", name=player.display_name, seat=seat
            )
    check_unlocked(ts)
    if wanted is not None:
        if wanted in taken:
            occupant = s.get(Player, taken[wanted].player_id)
            name = occupant.display_name if occupant else "?"
            raise errors.SeatTaken(f"seat {wanted} is taken by {name}", seat=wanted, name=name)
        target = wanted
    else:
        free = [seat for seat in SEATS if seat not in taken]
        if not free:
            raise errors.TableFull("all four seats are taken")
        target = free[0]
    s.add(Seat(session_id=row_id(ts), seat=target, player_id=row_id(player)))
    _seated(s, group, ts, player, now)
    return target


def _seated(s: Session, group: ChatGroup, ts: TableSession, player: Player, now: datetime) -> None:
    """A player now sits at the table: their running-totals rows exist, the table changed."""
    if s.get(SessionTotal, (ts.id, player.id)) is None:
        s.add(SessionTotal(session_id=row_id(ts), player_id=row_id(player)))
    if s.get(GroupTotal, (group.id, player.id)) is None:
        s.add(GroupTotal(group_id=row_id(group), player_id=row_id(player)))
    touch(ts, now)
    s.add(ts)
    s.flush()


def mark_seater(s: Session, ts: TableSession, guest: Player, seater: Player) -> None:
    """Remember who seated a guest at this table (they may say the guest paid, as an admin may)."""
    row = s.scalars(select(Seat).where(Seat.session_id == ts.id, Seat.player_id == guest.id)).first()
    if row is not None and seater.id != guest.id:
        row.seated_by = row_id(seater)
        s.add(row)
        s.flush()


def seat_instead(
    s: Session, group: ChatGroup, ts: TableSession, seat: SeatLetter, player: Player, now: datetime
) -> Player:
    """From the next hand on, `player` sits at `seat` in place of its player (who keeps their totals and
    their seat row, inactive); the player who left. PlayerNotSeated (an empty seat), AlreadySeated."""
    rows = list(s.scalars(select(Seat).where(Seat.session_id == ts.id)))
    leaving = next((row for row in rows if row.seat == seat and row.active), None)
    if leaving is None:
        raise errors.PlayerNotSeated(f"seat {seat} is empty", seat=seat, name=seat)
    mine = next((row for row in rows if row.player_id == player.id), None)
    if mine is not None and mine.active:
        raise errors.AlreadySeated(
            f"{player.display_name} already sits at {mine.seat}", name=player.display_name, seat=mine.seat
        )
    leaving.active, leaving.left_after = False, ts.live_rows
    s.add(leaving)
    s.flush()
    if mine is None:
        s.add(Seat(session_id=row_id(ts), seat=seat, player_id=row_id(player)))
    else:  # back at the table after leaving it: the same seat row, the same totals
        mine.seat, mine.active, mine.left_after = seat, True, None
        s.add(mine)
    _seated(s, group, ts, player, now)
    gone = s.get(Player, leaving.player_id)
    assert gone is not None
    return gone


def _seat_row(s: Session, ts: TableSession, player: Player) -> Seat:
    row = s.scalars(select(Seat).where(Seat.session_id == ts.id, Seat.player_id == player.id)).first()
    if row is None:
        raise errors.PlayerNotSeated(
            f"{player.display_name} has no seat at this table", name=player.display_name
        )
    return row


def move_seat(s: Session, ts: TableSession, player: Player, target: SeatLetter, now: datetime) -> None:
    """Move a seated player to `target` before the first hand; an occupant of that seat swaps places."""
    mine = _seat_row(s, ts, player)
    check_unlocked(ts)
    if mine.seat == target:
        return
    other = s.scalars(select(Seat).where(Seat.session_id == ts.id, Seat.seat == target)).first()
    origin, mine.seat = mine.seat, "-"  # free the unique (session, seat) slot during the swap
    s.add(mine)
    s.flush()
    if other is not None:
        other.seat = origin
        s.add(other)
        s.flush()
    mine.seat = target
    s.add(mine)
    touch(ts, now)
    s.add(ts)
    s.flush()


def summary(s: Session, ts: TableSession, chat_id: int | None = None) -> SessionSummary:
    """A session with each player's net and its hand count."""
    rows = s.execute(select(SessionTotal.player_id, SessionTotal.net).where(SessionTotal.session_id == ts.id))
    totals = {player_id: net for player_id, net in rows}
    return SessionSummary(session=session_info(s, ts, chat_id), totals=totals, hands_played=ts.hands_played)


def end_session(
    ledger: Ledger,
    chat_id: int,
    *,
    by: UserRef | None = None,
    session_id: int | None = None,
    reason: str = "manual",
    topic: int | None = None,
    key: str | None = None,
) -> SessionSummary:
    """End the open session (or exactly `session_id`, which must still be open: SessionNotOpen), e.g.
    reason "manual" or "idle". Its entries waiting for Confirm expire; its summary is due, for forum
    topic `topic` when given (`bot.ledger.claims.summaries.claim`). Returns its summary."""
    now = ledger.now()

    def op(s: Session) -> SessionSummary:
        if session_id is not None:
            ts = session_row(s, session_id, lock=True)
            group = s.get(ChatGroup, ts.group_id)
            assert group is not None
        else:
            group, ts = open_table(s, chat_id)
        actor(s, group, by, now)
        return end(s, ts, reason, now, topic)

    return ledger.write_once(key, op)


def end_idle(ledger: Ledger, idle_for: timedelta, *, now: datetime | None = None) -> list[SessionSummary]:
    """End every open session idle for `idle_for`, each by a compare-and-set (still open, still idle):
    the sessions this call ended, each ended by exactly one caller across workers. A table whose end
    fails is logged and left for later, tried again after a back-off (1 minute, doubling up to an
    hour: this worker's memory, `Ledger.idle_failures`); the other groups' tables end all the same."""
    moment = now or ledger.now()
    cutoff = moment - idle_for
    ended = []
    failing = ledger.idle_failures
    for session_id in ledger.read(idle_ids, cutoff):
        count, retry_at = failing.get(session_id, (0, moment))
        if moment < retry_at:
            continue
        try:
            done = ledger.write(end_if_idle, session_id, cutoff, moment)
        except errors.LedgerError:  # one table's failure never keeps the other groups' tables open
            wait = min(IDLE_RETRY * 2**count, IDLE_RETRY_MAX)
            failing[session_id] = (count + 1, moment + wait)
            log.exception("could not end idle session %s; tried again in %s", session_id, wait)
            continue
        failing.pop(session_id, None)
        if done is not None:
            ended.append(done)
    return ended


def set_card(s: Session, session_id: int, message_id: int) -> None:
    """Remember the message of the session's pinned card."""
    session_row(s, session_id).card_message_id = message_id


def set_flow(s: Session, session_id: int, message_id: int | None) -> None:
    """Remember (None: forget) the message of the table's open /hu button flow (one per table)."""
    session_row(s, session_id).flow_message_id = message_id


def refuse_pin(s: Session, session_id: int) -> bool:
    """Note that the bot may not pin in this session's chat: True the first time (say it once)."""
    ts = session_row(s, session_id, lock=True)
    first, ts.pin_refused = not ts.pin_refused, True
    return first


def end(
    s: Session, ts: TableSession, reason: str, now: datetime, thread_id: int | None = None
) -> SessionSummary:
    """End an open session: its entries still waiting for Confirm expire, its summary is due (to be posted
    in forum topic `thread_id`, when given)."""
    if ts.status != "open":
        raise errors.SessionNotOpen(
            f"session {ts.number} has already ended", session_id=ts.id, number=ts.number
        )
    ts.status, ts.ended_at, ts.end_reason = "ended", now, reason[:32]
    touch(ts, now)
    s.add(ts)
    settling.settle_session(s, ts, now)
    summaries.mark_due(s, ts, thread_id, now)
    for pending in s.scalars(
        select(PendingEntry).where(PendingEntry.session_id == ts.id, PendingEntry.status == "pending")
    ):
        pending.status, pending.consumed_at = "expired", now
        s.add(pending)
    s.flush()
    return summary(s, ts)


def idle_ids(s: Session, cutoff: datetime) -> list[int]:
    """Open sessions with no activity since `cutoff`."""
    return list(
        s.scalars(
            select(TableSession.id)
            .where(TableSession.status == "open", TableSession.last_activity_at < cutoff)
            .order_by(col(TableSession.id))
        )
    )


def end_if_idle(s: Session, session_id: int, cutoff: datetime, now: datetime) -> SessionSummary | None:
    """Compare-and-set of the idle end: the session, locked, is still open and still idle, else None."""
    ts = session_row(s, session_id, lock=True)
    if ts.status != "open" or aware(ts.last_activity_at) >= cutoff:
        return None
    return end(s, ts, "idle", now)
