"""Reading the books: standings and stats (from the running totals), history, the ledger's rows with
running totals, the fewest transfers that settle a session, and what the pinned card shows."""

from __future__ import annotations

from dataclasses import replace

from sqlalchemy import and_, bindparam, func, literal, or_
from sqlalchemy import select as select_columns  # sqlmodel's select types at most 4 columns
from sqlmodel import Session, col, select
from sqlmodel.sql.expression import Select

from bot.ledger import errors
from bot.ledger.money import nights, settling
from bot.ledger.money.transfers import minimal_transfers
from bot.ledger.play import groups
from bot.ledger.play.sessions import summary
from bot.ledger.storage.mappers import hand_records, player_info, session_info
from bot.ledger.storage.models import ChatGroup, GroupTotal, Hand, Player, SessionTotal, TableSession
from bot.ledger.storage.rows import (
    HAND,
    IN_ORDER,
    LIVE,
    NEWEST_FIRST,
    PLAYER,
    SEAT,
    SESSION_TOTAL,
    SETTLE_TRANSFER,
    group_row,
    open_session_row,
    player_row,
    row_id,
    session_row,
)
from bot.ledger.values import (
    SEATS,
    CardView,
    HandRecord,
    LedgerRow,
    PlayerInfo,
    PlayerStats,
    SessionInfo,
    SessionSummary,
    Standing,
    StandingsReport,
    Transfer,
)
from scoring.rules import RuleSetId, as_rule_set_id
from scoring.seats import Seat

CARD_HANDS = 12  # rows shown on the pinned card; /ledger shows them all


def hands(s: Session, session_id: int, *, include_voided: bool = False) -> list[HandRecord]:
    """The session's rows in ledger order (by number, then seq); voided rows only when asked."""
    session_row(s, session_id)
    query = select(Hand).where(Hand.session_id == session_id)
    if not include_voided:
        query = query.where(LIVE)
    return hand_records(s.scalars(query.order_by(*IN_ORDER)))


def ledger_rows(s: Session, session_id: int, last: int | None = None) -> list[LedgerRow]:
    """Live rows with every seat's running total after each: all of them, or only the `last` newest (their
    running totals counted back from the session's totals, so a page costs the same at any length)."""
    if last is None:
        running: dict[Seat, int] = dict.fromkeys(SEATS, 0)
        rows: list[LedgerRow] = []
        for record in hands(s, session_id):
            for seat, amount in record.payments.items():
                running[seat] = running.get(seat, 0) + amount
            rows.append(LedgerRow(hand=record, running=dict(running)))
        return rows
    ts = session_row(s, session_id)
    view = card_view(s, ts, limit=last)
    after = dict(view.totals)
    paged: list[LedgerRow] = []
    for record in reversed(view.recent):
        paged.append(LedgerRow(hand=record, running=dict(after)))
        for seat, amount in record.payments.items():
            after[seat] = after.get(seat, 0) - amount
    return paged[::-1]


_NEWEST = (
    select_columns(HAND)
    .where(HAND.c.session_id == bindparam("session"), LIVE)
    .order_by(*NEWEST_FIRST)
    .limit(bindparam("limit"))
)


_OWING = (
    select_columns(literal(1))
    .where(SETTLE_TRANSFER.c.group_id == bindparam("group"))
    .where(or_(*(SETTLE_TRANSFER.c.status == status for status in settling.OPEN)))  # no expanding IN
    .limit(1)
)


def _owing(s: Session, group_id: int) -> bool:
    """Whether anyone in the group still owes from an earlier session (one indexed look, no ORM): most
    tables' cards have no 上次欠的 to read."""
    return s.connection().execute(_OWING, {"group": group_id}).first() is not None


def card_view(
    s: Session,
    ts: TableSession,
    info: SessionInfo | None = None,
    *,
    limit: int = CARD_HANDS,
) -> CardView:
    """The card's data: the newest `limit` live rows (one statement), each seat's net (running totals),
    the row count."""
    info = info or session_info(s, ts)
    newest = hand_records(s.connection().execute(_NEWEST, {"session": row_id(ts), "limit": limit}))
    people = session_people(s, ts, info.chat_id)
    totals = dict.fromkeys(SEATS, 0)
    for person in people:  # a seat's total is that of everyone who sat there (/sub)
        if person.seat is not None:
            totals[person.seat] += person.net
    recent = tuple(newest[::-1])
    owed, kept = settling.carried_on(s, ts) if _owing(s, ts.group_id) else ((), ())
    return CardView(
        session=info,
        recent=recent,
        totals=totals,
        rows=ts.live_rows,
        people=people,
        owed=owed,
        owed_kept=kept,
    )


def session_card(s: Session, session_id: int) -> CardView:
    """What the session's card shows (`card_view`), by the session's id."""
    return card_view(s, session_row(s, session_id))


def _standing(total: SessionTotal | GroupTotal, player: Player, chat_id: int, seat: Seat | None) -> Standing:
    return Standing(
        player=player_info(player, chat_id),
        seat=seat,
        net=total.net,
        hands=total.hands,
        wins=total.wins,
        self_draws=total.self_draws,
        dealt_in=total.dealt_in,
    )


_PEOPLE = (
    select_columns(
        PLAYER.c.id,
        PLAYER.c.display_name,
        PLAYER.c.telegram_id,
        PLAYER.c.username,
        SEAT.c.seat,
        SESSION_TOTAL.c.net,
        SESSION_TOTAL.c.hands,
        SESSION_TOTAL.c.wins,
        SESSION_TOTAL.c.self_draws,
        SESSION_TOTAL.c.dealt_in,
    )
    .join(PLAYER, PLAYER.c.id == SESSION_TOTAL.c.player_id)
    .outerjoin(SEAT, and_(SEAT.c.session_id == SESSION_TOTAL.c.session_id, SEAT.c.player_id == PLAYER.c.id))
    .where(SESSION_TOTAL.c.session_id == bindparam("session"))
)


def session_people(s: Session, ts: TableSession, chat_id: int) -> tuple[Standing, ...]:
    """Everyone who played in a session, by seat (a seat's later player after its earlier one), each with
    the seat they sit at or sat at before someone took it over (/sub), and their `twin` number where
    another of the group shares their display name: one prepared statement."""
    twin = groups.twins(s, ts.group_id)
    rows = [
        Standing(
            player=PlayerInfo(
                id=pid,
                chat_id=chat_id,
                display_name=name,
                telegram_id=tid,
                username=username,
                twin=twin.get(pid, 0),
            ),
            seat=seat,
            net=net,
            hands=played,
            wins=wins,
            self_draws=self_draws,
            dealt_in=dealt_in,
        )
        for pid, name, tid, username, seat, net, played, wins, self_draws, dealt_in in s.connection().execute(
            _PEOPLE, {"session": row_id(ts)}
        )
    ]
    rows.sort(key=lambda r: (SEATS.index(r.seat) if r.seat else 9, r.player.id))
    return tuple(rows)


def standings(s: Session, chat_id: int, session_id: int | None = None) -> StandingsReport:
    """Session standings (the open session, or `session_id`) and the group's all-time standings."""
    group = group_row(s, chat_id)
    if group is None:
        return StandingsReport(session=None, session_rows=(), alltime_rows=())
    ts = (
        session_row(s, session_id)
        if session_id is not None
        else open_session_row(s, row_id(group), lock=False)
    )
    info = session_info(s, ts, chat_id) if ts is not None else None
    session_rows: tuple[Standing, ...] = ()
    if ts is not None:
        session_rows = session_people(s, ts, chat_id)
    return StandingsReport(session=info, session_rows=session_rows, alltime_rows=_alltime(s, group, chat_id))


def _alltime(s: Session, group: ChatGroup, chat_id: int) -> tuple[Standing, ...]:
    """The group's all-time standings: each person's money over the ended sessions (`money`), best first,
    with their all-time counts; everyone an ended session settled (the 台 too)."""
    paid = nights.group_money(s, row_id(group))
    query = select(GroupTotal, Player).join(Player, col(Player.id) == GroupTotal.player_id)
    rows: dict[int, Standing] = {}
    for total, player in s.execute(query.where(GroupTotal.group_id == group.id)):
        if row_id(player) in paid:  # played an ended session (or took the 台's money)
            standing = _standing(total, player, chat_id, None)
            rows[row_id(player)] = replace(standing, net=paid.get(row_id(player), 0))
    for pid in set(paid) - set(rows):  # the 台: money, no hands
        rows[pid] = Standing(player_info(player_row(s, pid), chat_id), None, paid[pid], 0, 0, 0, 0)
    return tuple(sorted(rows.values(), key=lambda r: (-r.net, r.player.id)))


def player_stats(
    s: Session, chat_id: int, *, session_id: int | None = None, player_id: int | None = None
) -> list[PlayerStats]:
    """Per-player stats of one session or the group's history, from the running aggregates (flat in the
    number of hands); one player with `player_id`. Players who never played are left out unless named."""
    group = group_row(s, chat_id)
    if group is None:
        return []
    model: type[SessionTotal] | type[GroupTotal]
    paid: dict[int, int] | None = None
    query: Select[SessionTotal, Player] | Select[GroupTotal, Player]
    if session_id is not None:
        session_row(s, session_id)
        model = SessionTotal
        query = select(SessionTotal, Player).where(SessionTotal.session_id == session_id)
    else:  # all-time: the money of the ended sessions, not their points
        model = GroupTotal
        query = select(GroupTotal, Player).where(GroupTotal.group_id == group.id)
        paid = nights.group_money(s, row_id(group))
    query = query.join(Player, col(Player.id) == model.player_id)
    if player_id is not None:
        query = query.where(model.player_id == player_id)
    biggest: dict[int, tuple[tuple[RuleSetId, int], ...]]
    if session_id is not None:
        rules = as_rule_set_id(session_row(s, session_id).rules)
        biggest = {pid: ((rules, hua),) for pid, hua in _session_biggest(s, session_id)}
    else:
        biggest = _biggest_by_rules(s, row_id(group))
    stats = [
        PlayerStats(
            player=player_info(player, chat_id),
            sessions=(1 if total.hands else 0) if isinstance(total, SessionTotal) else total.sessions,
            hands=total.hands,
            wins=total.wins,
            self_draws=total.self_draws,
            dealt_in=total.dealt_in,
            biggest_win=total.biggest_win,
            biggest_hua=total.biggest_hua,
            longest_streak=total.longest_streak,
            net=total.net if paid is None else paid.get(row_id(player), 0),
            biggest=biggest.get(row_id(player), ()),
        )
        for total, player in s.execute(query)
        if total.hands or total.net or player_id is not None
    ]
    stats.sort(key=lambda st: (-st.net, st.player.id))
    return stats


def _session_biggest(s: Session, session_id: int) -> list[tuple[int, int]]:
    """(player, most 花 of one win) of each player who won in the session."""
    query = select(SessionTotal.player_id, SessionTotal.biggest_hua).where(
        SessionTotal.session_id == session_id, SessionTotal.wins > 0
    )
    return [(pid, hua) for pid, hua in s.execute(query)]


def _biggest_by_rules(s: Session, group_id: int) -> dict[int, tuple[tuple[RuleSetId, int], ...]]:
    """Each player's most 花 of one win per rule set they won in (苏州 first), from the session totals."""
    query = (
        select(col(SessionTotal.player_id), col(TableSession.rules), func.max(SessionTotal.biggest_hua))
        .join(TableSession, col(TableSession.id) == SessionTotal.session_id)
        .where(TableSession.group_id == group_id, SessionTotal.wins > 0)
        .group_by(col(SessionTotal.player_id), col(TableSession.rules))
        .order_by(col(SessionTotal.player_id), col(TableSession.rules))
    )
    found: dict[int, tuple[tuple[RuleSetId, int], ...]] = {}
    for pid, rules, hua in s.execute(query):
        found[pid] = (*found.get(pid, ()), (as_rule_set_id(rules), hua or 0))
    return found


def history(s: Session, chat_id: int, limit: int = 20) -> list[SessionSummary]:
    """The group's sessions, newest first, with each person's money in an ended one (what it settled
    them, `money`), their net in the open one; a session that ended with no row is left out (nothing
    happened in it)."""
    group = group_row(s, chat_id)
    if group is None:
        return []
    rows = s.scalars(
        select(TableSession)
        .where(TableSession.group_id == group.id)
        .where(or_(col(TableSession.status) == "open", col(TableSession.live_rows) > 0))
        .order_by(col(TableSession.number).desc())
        .limit(limit)
    )
    found = [summary(s, ts, chat_id) for ts in rows]
    paid = nights.settled(s, [x.session.id for x in found if x.session.status == "ended"])
    return [replace(x, totals=paid[x.session.id]) if x.session.id in paid else x for x in found]


def transfers(s: Session, session_id: int) -> list[Transfer]:
    """The transfers that settle a session: as stored when it ended (with their state), else the fewest
    payments that settle its totals now (exact for up to 8 players, greedy beyond)."""
    ts = session_row(s, session_id)
    stored = settling.stored_transfers(s, ts)
    if stored is not None:
        return stored
    info = session_info(s, ts)
    rows = s.execute(
        select(SessionTotal, Player)
        .join(Player, col(Player.id) == SessionTotal.player_id)
        .where(SessionTotal.session_id == session_id)
        .order_by(col(Player.id))
    )
    players, balances = {}, {}
    for total, player in rows:
        players[row_id(player)] = player_info(player, info.chat_id)
        balances[row_id(player)] = total.net
    if sum(balances.values()) != 0:
        raise errors.ZeroSumViolation(
            f"session totals sum to {sum(balances.values())}", total=sum(balances.values())
        )
    return [Transfer(players[a], players[b], amount) for a, b, amount in minimal_transfers(balances)]
