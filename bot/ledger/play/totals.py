"""Running totals per player, per session and all-time in the group, kept in the same transaction as
the hands: net, hands, wins, 自摸, 放冲 and the aggregates /stats shows (biggest win, its 花, longest 连庄,
sessions played). Standings and stats read these rows and never scan the hands. A hand adds to them in
two set-based statements (an upsert per scope), whatever the players."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Table, bindparam, case, func, literal_column, update
from sqlmodel import Session, col, select

from bot.ledger.storage.mappers import payments_of
from bot.ledger.storage.models import Hand, Payment, SessionTotal, TableSession
from bot.ledger.storage.rows import A_WIN, GROUP_TOTAL, INSERTS, LIVE, SESSION_TOTAL
from bot.ledger.values import wins_of


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
        said = request.get("wins", [])
        types = {str(w.get("winner")): str(w.get("type")) for w in said}
        fed = {str(w.get("winner")): (w.get("flags") or {}).get("kong_fed_by") for w in said}
        payments = payments_of(hand.response)
        dealt = False
        feeder = None
        for win in wins_of(hand.response):
            seat = win["winner"]
            if not win["allowed"] or seat not in seat_players:
                continue
            delta = deltas[seat_players[seat]]
            delta.wins += 1
            delta.win_amount = max(0, payments.get(seat, 0))
            delta.hua = win["hua"]
            if types.get(seat) == "self_draw":
                delta.self_draws += 1
                feeder = fed.get(seat) or feeder  # 包饺子 / 送杠: the one who fed the kong pays it all
            elif types.get(seat) in ("discard", "rob_kong"):
                dealt = True
        discarder = request.get("discarder")
        if dealt and discarder in seat_players:
            deltas[seat_players[discarder]].dealt_in += 1
        if feeder in seat_players:  # counted as 放冲, as the player robbed by 抢杠 is
            deltas[seat_players[feeder]].dealt_in += 1
    return dict(deltas)


# What a row's counts add up in (`COUNTS`), and the maxima kept beside them.
MAXIMA = ("biggest_win", "biggest_hua", "longest_streak")


SUMMED = (*COUNTS, "sessions")


def _upsert(insert: Callable[[Table], Any], table: Table, scope: str, returning: bool) -> Any:
    """Add the rows given (one dict of deltas per player) into `table`'s rows of this scope in one
    statement, creating the missing rows: the counts summed, the maxima kept (SQLite and PostgreSQL both
    say INSERT … ON CONFLICT DO UPDATE)."""
    statement = insert(table)
    new, old = statement.excluded, table.c
    changes: dict[str, Any] = {name: old[name] + new[name] for name in SUMMED if name in table.c}
    changes.update({name: case((new[name] > old[name], new[name]), else_=old[name]) for name in MAXIMA})
    upsert = statement.on_conflict_do_update(index_elements=[scope, "player_id"], set_=changes)
    return upsert.returning(table.c.player_id, table.c.hands) if returning else upsert


# The two upserts of a hand, built once per database like the module's other statements: building one
# (its `excluded` columns, its CASEs) cost about 1.4 ms, twice a hand; SQLAlchemy caches the compiling only.
_ADD_TO_SESSION = {
    name: _upsert(insert, SESSION_TOTAL, "session_id", True) for name, insert in INSERTS.items()
}
_ADD_TO_GROUP = {name: _upsert(insert, GROUP_TOTAL, "group_id", False) for name, insert in INSERTS.items()}


def _values(deltas: dict[int, Delta], scope: str, scope_id: int) -> list[dict[str, Any]]:
    return [
        {
            scope: scope_id,
            "player_id": pid,
            **{name: getattr(d, name) for name in COUNTS},
            "biggest_win": d.win_amount,
            "biggest_hua": d.hua,
            "longest_streak": d.streak,
        }
        for pid, d in sorted(deltas.items())  # the same lock order in every transaction
    ]


def add(s: Session, ts: TableSession, hand: Hand) -> None:
    """Add a new live row to its session's and group's totals: two statements, whatever the players."""
    deltas = row_deltas(hand)
    if not deltas:
        return
    conn, dialect = s.connection(), s.get_bind().dialect.name
    played = conn.execute(_ADD_TO_SESSION[dialect], _values(deltas, "session_id", hand.session_id))
    first = {pid for pid, hands in played if hands and hands == deltas[pid].hands}  # their first hand here
    alltime = _values(deltas, "group_id", ts.group_id)
    for row in alltime:
        row["sessions"] = 1 if row["player_id"] in first else 0
    conn.execute(_ADD_TO_GROUP[dialect], alltime)


def _by_player(deltas: dict[int, Delta], name: str) -> Any:
    """`CASE player_id WHEN … THEN <the delta's name> … END`: each player's own delta in one statement."""
    return case({pid: getattr(d, name) for pid, d in deltas.items()}, value=literal_column("player_id"))


def take_back(s: Session, ts: TableSession, hand: Hand) -> None:
    """Take a row just voided out of the totals: the counts by subtraction, the maxima recounted from the
    session's live rows (a void is rare; the session's rows are few)."""
    deltas = row_deltas(hand)
    players = sorted(deltas)
    if not players:
        return
    conn = s.connection()
    counts = {name: SESSION_TOTAL.c[name] - _by_player(deltas, name) for name in COUNTS}
    left = conn.execute(
        update(SESSION_TOTAL)
        .where(SESSION_TOTAL.c.session_id == hand.session_id, SESSION_TOTAL.c.player_id.in_(players))
        .values(counts)
        .returning(SESSION_TOTAL.c.player_id, SESSION_TOTAL.c.hands)
    )
    gone = {pid for pid, hands in left if deltas[pid].hands and not hands}  # no hand here any more
    changes = {name: GROUP_TOTAL.c[name] - _by_player(deltas, name) for name in COUNTS}
    if gone:
        changes["sessions"] = GROUP_TOTAL.c.sessions - case(
            {pid: 1 for pid in gone}, value=literal_column("player_id"), else_=0
        )
    conn.execute(
        update(GROUP_TOTAL)
        .where(GROUP_TOTAL.c.group_id == ts.group_id, GROUP_TOTAL.c.player_id.in_(players))
        .values(changes)
    )
    _recount_maxima(s, ts, players)


def _recount_maxima(s: Session, ts: TableSession, players: list[int]) -> None:
    conn = s.connection()
    wins = dict.fromkeys(players, (0, 0))
    for pid, amount, hua in conn.execute(
        select(col(Payment.player_id), func.max(Payment.amount), func.max(Payment.hua))
        .join(Hand, col(Hand.id) == Payment.hand_id)
        .where(Hand.session_id == ts.id, LIVE, A_WIN, Payment.amount > 0)
        .where(col(Payment.player_id).in_(players))
        .group_by(col(Payment.player_id))
    ):
        wins[pid] = (amount or 0, hua or 0)
    streaks = dict.fromkeys(players, 0)
    for dealer, streak in conn.execute(
        select(col(Hand.dealer_after_player_id), func.max(Hand.streak_after))
        .where(Hand.session_id == ts.id, LIVE)
        .where(col(Hand.dealer_after_player_id).in_(players))
        .group_by(col(Hand.dealer_after_player_id))
    ):
        if dealer is not None:
            streaks[dealer] = streak or 0
    conn.execute(
        _set_maxima(SESSION_TOTAL, "session_id"),
        [
            {"scope": ts.id, "pid": pid, "win": wins[pid][0], "hua": wins[pid][1], "streak": streaks[pid]}
            for pid in players
        ],
    )
    alltime = [
        {"scope": ts.group_id, "pid": pid, "win": amount or 0, "hua": hua or 0, "streak": streak or 0}
        for pid, amount, hua, streak in conn.execute(
            select(
                col(SessionTotal.player_id),
                func.max(SessionTotal.biggest_win),
                func.max(SessionTotal.biggest_hua),
                func.max(SessionTotal.longest_streak),
            )
            .join(TableSession, col(TableSession.id) == SessionTotal.session_id)
            .where(TableSession.group_id == ts.group_id)
            .where(col(SessionTotal.player_id).in_(players))
            .group_by(col(SessionTotal.player_id))
        )
    ]
    if alltime:
        conn.execute(_set_maxima(GROUP_TOTAL, "group_id"), alltime)


def _set_maxima(table: Table, scope: str) -> Any:
    """One player's maxima set (executed for many players at once)."""
    where = (table.c[scope] == bindparam("scope"), table.c.player_id == bindparam("pid"))
    maxima = {"biggest_win": "win", "biggest_hua": "hua", "longest_streak": "streak"}
    return update(table).where(*where).values({name: bindparam(key) for name, key in maxima.items()})
