"""A season's figures, read from its ended sessions (its nights): each person's money (the figure of
`nights.by_session`, what /score all-time sums), nights played and in profit, the trend night by night; who
fed whom (放冲, 抢杠, 包饺子) by count and money, the money between any two people, the hands' statistics,
the records. Pure reads; no Telegram type.

A night is an ended session of the group with at least one live row. The current season is the ended
sessions no closed season carries (`TableSession.season_id` None); a closed one, those it carries."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import NamedTuple

from sqlalchemy import select as select_columns
from sqlmodel import Session, col, select

from bot.ledger.money import nights as money
from bot.ledger.play import groups
from bot.ledger.seasons.hands import Fed, SeasonHands
from bot.ledger.seasons.skill import skills
from bot.ledger.storage.models import Player, SessionTotal, TableSession
from bot.ledger.storage.rows import aware
from scoring.rules import RuleSetId, as_rule_set_id

WEEK = timedelta(days=7)


@dataclass(frozen=True, slots=True)
class Person:
    """Someone in the season: their player id, display name and `twin` number (0 when the name is unique
    in the group), and whether they are the 台 (the 台费 / 抽水 account)."""

    id: int
    name: str
    twin: int = 0
    table: bool = False


@dataclass(frozen=True, slots=True)
class Night:
    """One night of the season: its index (1, 2, ...), the session's number, when it ended, its stake and
    rule set, and each person's money (player id → amount)."""

    index: int
    session_id: int
    session: int
    ended_at: datetime
    stake: int
    rules: RuleSetId
    money: Mapping[int, int]


@dataclass(frozen=True, slots=True)
class Line:
    """A person's season: money, nights played, nights in profit, money of the nights of the last 7 days,
    and their counts (hands, wins, self-draws, 放冲)."""

    person: Person
    net: int
    nights: int
    profit_nights: int
    week: int
    hands: int = 0
    wins: int = 0
    self_draws: int = 0
    dealt_in: int = 0

    @property
    def per_night(self) -> int | None:
        """Money per night played, rounded toward zero (None for no night)."""
        return int(self.net / self.nights) if self.nights else None


@dataclass(frozen=True, slots=True)
class Record:
    """A record of the season: its key (catalog `season.record.<key>`), who holds it, the figure, and
    where it was set (night index, hand number; 0 when it is the season's as a whole)."""

    key: str
    person: int
    value: int
    night: int = 0
    hand: int = 0


@dataclass(frozen=True)
class SeasonFigures:
    """Everything the season page and card show."""

    nights: tuple[Night, ...]
    people: Mapping[int, Person]
    lines: tuple[Line, ...]  # best first (money, then id)
    fed: Mapping[tuple[int, int], Fed]  # (feeder, winner) → wins and money
    between: Mapping[tuple[int, int], tuple[int, int]]  # (a, b) with a < b → (nights together, b paid a)
    hands: Mapping[str, int]  # season-wide counts: hands, wins, self_draws, discards, dealer_wins, ...
    hua: Mapping[int, tuple[int, int]] = field(default_factory=dict)  # person → (wins, 花 of them)
    patterns: Mapping[int, Mapping[str, int]] = field(default_factory=dict)  # person → pattern id → wins
    records: tuple[Record, ...] = ()
    skill: Mapping[int, float] = field(default_factory=dict)  # person → rating, once shown (`skill`)


def season_nights(s: Session, group_id: int, season_id: int | None) -> list[TableSession]:
    """The nights of a season (None: the current one), in the order they ended."""
    query = select(TableSession).where(
        TableSession.group_id == group_id,
        col(TableSession.status) == "ended",
        col(TableSession.live_rows) > 0,
        col(TableSession.season_id).is_(None) if season_id is None else TableSession.season_id == season_id,
    )
    return list(s.scalars(query.order_by(col(TableSession.ended_at), col(TableSession.number))))


def figures(s: Session, group_id: int, season_id: int | None, now: datetime) -> SeasonFigures:
    """The figures of a season (None: the current one) as of `now` (for the change of the last week)."""
    rows = season_nights(s, group_id, season_id)
    ids = [row.id for row in rows if row.id is not None]
    paid = money.by_session(s, ids)
    nights = tuple(
        Night(
            index=i,
            session_id=sid,
            session=row.number,
            ended_at=aware(row.ended_at or row.opened_at),
            stake=row.stake,
            rules=as_rule_set_id(row.rules),
            money=paid.get(sid, {}),
        )
        for i, (sid, row) in enumerate(zip(ids, rows, strict=True), start=1)
    )
    totals = _totals(s, ids)
    people = _people(s, group_id, {pid for night in nights for pid in night.money} | set(totals))
    hands = SeasonHands.read(s, ids)
    lines = _lines(nights, people, totals, now)
    return SeasonFigures(
        nights=nights,
        people=people,
        lines=lines,
        fed=dict(hands.fed),
        between=_between(hands.flows, totals, nights),
        hands=dict(hands.counts),
        hua={pid: (wins, hua) for pid, (wins, hua) in hands.hua.items()},
        patterns={pid: dict(found) for pid, found in hands.patterns.items()},
        records=tuple(_records(nights, lines, totals, hands)),
        skill=skills(
            (night.money, [pid for pid, by in totals.items() if night.session_id in by]) for night in nights
        ),
    )


class Played(NamedTuple):
    """One person's counts of one night, from its running totals."""

    hands: int
    wins: int
    self_draws: int
    dealt_in: int
    longest_streak: int


Totals = dict[int, dict[int, Played]]  # player id → session id → that night's counts


def _totals(s: Session, ids: list[int]) -> Totals:
    out: Totals = defaultdict(dict)
    if ids:
        query = select_columns(
            col(SessionTotal.session_id),
            col(SessionTotal.player_id),
            col(SessionTotal.hands),
            col(SessionTotal.wins),
            col(SessionTotal.self_draws),
            col(SessionTotal.dealt_in),
            col(SessionTotal.longest_streak),
        ).where(col(SessionTotal.session_id).in_(ids), col(SessionTotal.hands) > 0)
        for session_id, player_id, *counts in s.execute(query):
            out[player_id][session_id] = Played(*counts)
    return dict(out)


def _people(s: Session, group_id: int, ids: set[int]) -> dict[int, Person]:
    if not ids:
        return {}
    twin = groups.twins(s, group_id)
    table = groups.TABLE_ACCOUNT.casefold()  # the 台's guest key
    query = select(Player.id, Player.display_name, Player.guest_key, Player.telegram_id)
    return {
        pid: Person(pid, name, twin.get(pid, 0), table=key == table and tid is None)
        for pid, name, key, tid in s.execute(query.where(col(Player.id).in_(ids)))
        if pid is not None
    }


def _lines(
    nights: tuple[Night, ...], people: Mapping[int, Person], totals: Totals, now: datetime
) -> tuple[Line, ...]:
    net: Counter[int] = Counter()
    profit: Counter[int] = Counter()
    week: Counter[int] = Counter()
    for night in nights:
        for pid, amount in night.money.items():
            net[pid] += amount
            if amount > 0 and night.session_id in totals.get(pid, {}):
                profit[pid] += 1
            if now - night.ended_at <= WEEK:
                week[pid] += amount
    lines = []
    for pid, person in people.items():
        played = totals.get(pid, {}).values()
        lines.append(
            Line(
                person=person,
                net=net[pid],
                nights=len(played),
                profit_nights=profit[pid],
                week=week[pid],
                hands=sum(t.hands for t in played),
                wins=sum(t.wins for t in played),
                self_draws=sum(t.self_draws for t in played),
                dealt_in=sum(t.dealt_in for t in played),
            )
        )
    return tuple(sorted(lines, key=lambda line: (-line.net, line.person.id)))


def _between(
    paid: Mapping[tuple[int, int], int], totals: Totals, nights: Iterable[Night]
) -> dict[tuple[int, int], tuple[int, int]]:
    """Each two people who played a night together: (a, b) with a < b → (nights together, money b paid a
    over the hands, net)."""
    out: dict[tuple[int, int], tuple[int, int]] = {}
    played = {pid: set(by_night) for pid, by_night in totals.items()}
    people = sorted(played)
    for i, a in enumerate(people):
        for b in people[i + 1 :]:
            together = len(played[a] & played[b])
            if together:
                out[(a, b)] = (together, paid.get((b, a), 0) - paid.get((a, b), 0))
    return out


def _records(
    nights: tuple[Night, ...], lines: tuple[Line, ...], totals: Totals, hands: SeasonHands
) -> list[Record]:
    """The season's records, each held by one person (ties to the best placed in the standings)."""
    found: list[Record] = []
    players = [line for line in lines if line.nights and not line.person.table]
    if not players:
        return found
    if players[0].net > 0:
        found.append(Record("top", players[0].person.id, players[0].net))
    big = hands.biggest
    if big is not None:
        night_of = {night.session_id: night.index for night in nights}
        found.append(Record("biggest_hand", big.person, big.money, night_of.get(big.session_id, 0), big.hand))
    streak = max(
        ((t.longest_streak, pid, sid) for pid, by in totals.items() for sid, t in by.items()),
        key=lambda x: x[0],
        default=(0, 0, 0),
    )
    night_of = {night.session_id: night.index for night in nights}
    if streak[0] > 0:
        found.append(Record("longest_streak", streak[1], streak[0], night_of.get(streak[2], 0)))
    most = max(players, key=lambda line: line.dealt_in)
    if most.dealt_in:
        found.append(Record("most_fed", most.person.id, most.dealt_in))
    regular = [line for line in players if line.hands and line.nights * 2 >= len(nights)]
    if regular:
        safest = min(regular, key=lambda line: line.dealt_in / line.hands)
        found.append(Record("safest", safest.person.id, round(1000 * safest.dealt_in / safest.hands)))
    run = max(
        ((_profit_run(line.person.id, nights, totals), line.person.id) for line in players),
        key=lambda x: x[0],
    )
    if run[0] > 0:
        found.append(Record("profit_run", run[1], run[0]))
    found += [
        Record("attendance", line.person.id, line.nights) for line in players if line.nights == len(nights)
    ]
    return found


def _profit_run(pid: int, nights: Iterable[Night], totals: Totals) -> int:
    """The longest run of nights played in profit, one after another among the nights the person played."""
    best = run = 0
    for night in nights:
        if night.session_id not in totals.get(pid, {}):
            continue
        run = run + 1 if night.money.get(pid, 0) > 0 else 0
        best = max(best, run)
    return best
