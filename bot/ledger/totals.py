"""Running totals per player, per session and all-time in the group, kept in the same transaction as
the hands: net, hands, wins, 自摸, 放冲 and the aggregates /stats shows (biggest win, its 花, longest 连庄,
sessions played). Standings and stats read these rows and never scan the hands."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func
from sqlmodel import Session, col, select

from bot.ledger.models import GroupTotal, Hand, Payment, SessionTotal, TableSession
from bot.ledger.rows import LIVE, payments_of


@dataclass(slots=True)
class Delta:
    """What one ledger row adds to one player's totals."""

    net: int = 0
    hands: int = 0
    wins: int = 0
    self_draws: int = 0
    dealt_in: int = 0
    win_amount: int = 0  # received in a win (for biggest_win)
    hua: int = 0  # 花 / f of that win
    streak: int = 0  # 连庄 as dealer after the row


COUNTS = ("net", "hands", "wins", "self_draws", "dealt_in")


def row_deltas(hand: Hand) -> dict[int, Delta]:
    """What a ledger row contributes to each seated player's totals."""
    seat_players = {seat: int(pid) for seat, pid in hand.seat_players.items()}
    deltas: dict[int, Delta] = defaultdict(Delta)
    for seat, amount in payments_of(hand.response).items():
        deltas[seat_players[seat]].net += amount
    if hand.kind == "adjust":
        return dict(deltas)
    for pid in seat_players.values():
        deltas[pid].hands += 1
    if hand.dealer_after_player_id is not None:
        deltas[hand.dealer_after_player_id].streak = hand.streak_after
    if hand.kind == "win":
        request: dict[str, Any] = hand.request
        types = {str(w.get("winner")): str(w.get("type")) for w in request.get("wins", [])}
        payments = payments_of(hand.response)
        dealt = False
        for win in hand.response.get("wins", []):
            seat = win.get("winner")
            if not win.get("allowed", True) or seat not in seat_players:
                continue
            delta = deltas[seat_players[seat]]
            delta.wins += 1
            delta.win_amount = max(0, payments.get(seat, 0))
            delta.hua = int(win.get("hua") or 0)
            if types.get(seat) == "self_draw":
                delta.self_draws += 1
            elif types.get(seat) in ("discard", "rob_kong"):
                dealt = True
        discarder = request.get("discarder")
        if dealt and discarder in seat_players:
            deltas[seat_players[discarder]].dealt_in += 1
    return dict(deltas)


def _rows(s: Session, model: type[Any], scope: str, scope_id: int, players: list[int]) -> dict[int, Any]:
    """The totals rows of these players (created when missing), by player id."""
    column = getattr(model, scope)
    found = {
        row.player_id: row
        for row in s.scalars(
            select(model).where(column == scope_id, model.player_id.in_(players)).order_by(model.player_id)
        )
    }
    for pid in players:
        if pid not in found:
            found[pid] = model(**{scope: scope_id, "player_id": pid})
            s.add(found[pid])
    return found


def add(s: Session, ts: TableSession, hand: Hand) -> None:
    """Add a new live row to its session's and group's totals."""
    deltas = row_deltas(hand)
    players = sorted(deltas)  # the same lock order in every transaction
    session_rows = _rows(s, SessionTotal, "session_id", hand.session_id, players)
    group_rows = _rows(s, GroupTotal, "group_id", ts.group_id, players)
    for pid in players:
        delta, mine, alltime = deltas[pid], session_rows[pid], group_rows[pid]
        if delta.hands and not mine.hands:
            alltime.sessions += 1
        for row in (mine, alltime):
            for name in COUNTS:
                setattr(row, name, getattr(row, name) + getattr(delta, name))
            if delta.win_amount > row.biggest_win:
                row.biggest_win = delta.win_amount
            row.biggest_hua = max(row.biggest_hua, delta.hua)
            row.longest_streak = max(row.longest_streak, delta.streak)
    s.flush()


def take_back(s: Session, ts: TableSession, hand: Hand) -> None:
    """Take a row just voided out of the totals: the counts by subtraction, the maxima recounted from the
    session's live rows (a void is rare; the session's rows are few)."""
    deltas = row_deltas(hand)
    players = sorted(deltas)
    session_rows = _rows(s, SessionTotal, "session_id", hand.session_id, players)
    group_rows = _rows(s, GroupTotal, "group_id", ts.group_id, players)
    for pid in players:
        delta, mine, alltime = deltas[pid], session_rows[pid], group_rows[pid]
        for row in (mine, alltime):
            for name in COUNTS:
                setattr(row, name, getattr(row, name) - getattr(delta, name))
        if delta.hands and not mine.hands:
            alltime.sessions -= 1
    s.flush()
    _recount_maxima(s, ts, players, session_rows, group_rows)


def _recount_maxima(
    s: Session, ts: TableSession, players: list[int], session_rows: dict[int, Any], group_rows: dict[int, Any]
) -> None:
    wins = dict.fromkeys(players, (0, 0))
    for pid, amount, hua in s.execute(
        select(Payment.player_id, func.max(Payment.amount), func.max(Payment.hua))
        .join(Hand, col(Hand.id) == Payment.hand_id)
        .where(Hand.session_id == ts.id, LIVE, Hand.kind == "win", Payment.amount > 0)
        .where(col(Payment.player_id).in_(players))
        .group_by(col(Payment.player_id))
    ):
        wins[pid] = (amount or 0, hua or 0)
    streaks = dict.fromkeys(players, 0)
    for pid, streak in s.execute(
        select(Hand.dealer_after_player_id, func.max(Hand.streak_after))
        .where(Hand.session_id == ts.id, LIVE)
        .where(col(Hand.dealer_after_player_id).in_(players))
        .group_by(col(Hand.dealer_after_player_id))
    ):
        streaks[pid] = streak or 0
    for pid in players:
        mine = session_rows[pid]
        mine.biggest_win, mine.biggest_hua = wins[pid]
        mine.longest_streak = streaks[pid]
    s.flush()
    for pid, amount, hua, streak in s.execute(
        select(
            SessionTotal.player_id,
            func.max(SessionTotal.biggest_win),
            func.max(SessionTotal.biggest_hua),
            func.max(SessionTotal.longest_streak),
        )
        .join(TableSession, col(TableSession.id) == SessionTotal.session_id)
        .where(TableSession.group_id == ts.group_id)
        .where(col(SessionTotal.player_id).in_(players))
        .group_by(col(SessionTotal.player_id))
    ):
        row = group_rows[pid]
        row.biggest_win, row.biggest_hua, row.longest_streak = amount or 0, hua or 0, streak or 0
    s.flush()
