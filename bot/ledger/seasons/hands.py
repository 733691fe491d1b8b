"""A season's live rows summed up by the database: who fed whom (a win one person paid for alone: 放冲,
抢杠, 包饺子), who paid whom, the hands' counts (wins, 自摸, 冲胡, dealer wins, 荒庄, 豹子), each winner's
花, the patterns of the allowed wins, the biggest hand.

A season holds thousands of hands; reading each row into Python (its stored request and response decoded)
was most of the season page's time. So every figure is a grouped query over the `payment` rows (amount
and 花 per person, integers) and the hands, and the few things only the stored JSON says (豹子, each
win's patterns) are read by the database's own JSON functions: SQLite's json_extract and
json_each, PostgreSQL's ->> and json_array_elements.

Who paid whom in one row: one payer pays each who gained, or each who lost pays the one who gained (a row
with several on both sides, none the bot records, counts for no pair)."""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import BindParameter, TextClause, bindparam, text
from sqlmodel import Session

from scoring.patterns import PATTERNS


@dataclass(frozen=True, slots=True)
class Fed:
    """放冲 / 抢杠 / 包饺子 from one person to a winner: how many wins and the money they paid for them."""

    count: int = 0
    money: int = 0


@dataclass(frozen=True, slots=True)
class Biggest:
    """The biggest hand: who won it, the money it brought them, its session and the hand's number."""

    person: int
    money: int
    session_id: int
    hand: int


@dataclass
class SeasonHands:
    """The season's rows summed up (`read`)."""

    fed: dict[tuple[int, int], Fed] = field(default_factory=dict)  # (feeder, winner)
    flows: dict[tuple[int, int], int] = field(default_factory=dict)  # (payer, payee) → money
    counts: Counter[str] = field(default_factory=Counter)
    hua: dict[int, tuple[int, int]] = field(default_factory=dict)  # winner → (wins, 花 of them)
    patterns: dict[int, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    biggest: Biggest | None = None

    @classmethod
    def read(cls, s: Session, ids: list[int]) -> SeasonHands:
        """The live rows of the sessions `ids`: six grouped reads."""
        found = cls()
        if not ids:
            return found
        sql = _SQL[s.get_bind().dialect.name]
        params = {"ids": ids, "patterns": sorted(PATTERNS)}

        def run(name: str) -> list[tuple[Any, ...]]:
            return [tuple(row) for row in s.execute(sql[name], params)]

        for payer, payee, fed, wins, money in run("flows"):
            found.flows[(payer, payee)] = found.flows.get((payer, payee), 0) + int(money)
            if fed:
                found.fed[(payer, payee)] = Fed(wins, int(money))
                found.counts["fed_wins"] += wins
        for winner, wins, hua in run("winners"):
            found.counts["wins"] += wins
            found.hua[winner] = (wins, int(hua or 0))
        found.counts["self_draws"] = found.counts["wins"] - found.counts["fed_wins"]
        for kind, rows, baozi in run("kinds"):
            found.counts["hands"] += rows if kind != "adjust" else 0
            found.counts["draws"] += rows if kind == "draw" else 0
            found.counts["baozi"] += int(baozi or 0) if kind != "adjust" else 0
        found.counts["dealer_wins"] = int(s.execute(sql["dealer"], {"ids": ids}).scalar_one() or 0)
        for winner, pattern, wins in run("patterns"):
            if winner is not None:
                found.patterns[int(winner)][str(pattern)] += wins
        for top in run("biggest"):
            found.biggest = Biggest(top[0], int(top[1]), top[2], top[3])
        return found


def _statements(
    *, live: str, baozi: str, winner_of: str, unnest: str, allowed: str, item_id: str
) -> dict[str, TextClause]:
    """The six reads in one dialect: `live` says a hand is not voided, `baozi` 1 for a hand with 豹子,
    `unnest` each win `w` of h and its items `i`, `winner_of` the player of win w, `allowed` whether w
    counts, `item_id` the id of item i."""
    shape = (  # per hand: how many paid and gained, and the one payer and payee when there is one
        "WITH shape AS (SELECT p.hand_id, "
        "SUM(CASE WHEN p.amount < 0 THEN 1 ELSE 0 END) AS payers, "
        "SUM(CASE WHEN p.amount > 0 THEN 1 ELSE 0 END) AS payees, "
        "MIN(CASE WHEN p.amount < 0 THEN p.player_id END) AS payer, "
        "MIN(CASE WHEN p.amount > 0 THEN p.player_id END) AS payee, MIN(h.kind) AS kind "
        f"FROM payment p JOIN hand h ON h.id = p.hand_id WHERE h.session_id IN :ids AND {live} "
        "GROUP BY p.hand_id) "
    )
    statements = {
        # Who paid whom, and (`fed`) the wins one person paid for alone, by the pair: their count and money.
        "flows": shape + "SELECT CASE WHEN x.payers = 1 THEN x.payer ELSE p.player_id END AS a, "
        "CASE WHEN x.payers = 1 THEN p.player_id ELSE x.payee END AS b, "
        "CASE WHEN x.kind = 'win' AND x.payers = 1 THEN 1 ELSE 0 END AS fed, COUNT(*), SUM(ABS(p.amount)) "
        "FROM payment p JOIN shape x ON x.hand_id = p.hand_id "
        "WHERE (x.payers = 1 AND p.amount > 0) OR (x.payers <> 1 AND x.payees = 1 AND p.amount < 0) "
        "GROUP BY a, b, fed",
        "winners": "SELECT p.player_id, COUNT(*), SUM(p.hua) FROM payment p JOIN hand h ON h.id = p.hand_id "
        f"WHERE h.session_id IN :ids AND {live} AND h.kind = 'win' AND p.amount > 0 GROUP BY p.player_id",
        "kinds": f"SELECT h.kind, COUNT(*), SUM({baozi}) FROM hand h "
        f"WHERE h.session_id IN :ids AND {live} GROUP BY h.kind",
        # A win keeps the deal with its dealer, 连庄 +1, exactly when the dealer is among its winners
        # (scoring.dealer): a dealer's win is one the hand's next dealer won with a 连庄 after it.
        "dealer": "SELECT COUNT(*) FROM hand h JOIN payment p ON p.hand_id = h.id "
        f"WHERE h.session_id IN :ids AND {live} AND h.kind = 'win' AND p.amount > 0 "
        "AND p.player_id = h.dealer_after_player_id AND h.streak_after > 0",
        "patterns": f"SELECT {winner_of}, {item_id}, COUNT(*) FROM hand h {unnest} "
        f"WHERE h.session_id IN :ids AND {live} AND h.kind = 'win' AND {allowed} AND {item_id} IN :patterns "
        "GROUP BY 1, 2",
        "biggest": "SELECT p.player_id, p.amount, h.session_id, h.number FROM payment p "
        f"JOIN hand h ON h.id = p.hand_id WHERE h.session_id IN :ids AND {live} AND h.kind = 'win' "
        "AND p.amount > 0 ORDER BY p.amount DESC, h.session_id, h.number, h.seq LIMIT 1",
    }
    ids: BindParameter[list[int]] = bindparam("ids", expanding=True)
    names: BindParameter[list[str]] = bindparam("patterns", expanding=True)
    return {
        name: text(sql).bindparams(ids, names) if ":patterns" in sql else text(sql).bindparams(ids)
        for name, sql in statements.items()
    }


_SQL = {
    "sqlite": _statements(
        live="h.voided = 0",
        baozi="CASE WHEN json_extract(h.state_before, '$.baozi') THEN 1 ELSE 0 END",
        winner_of="json_extract(h.seat_players, '$.' || json_extract(w.value, '$.winner'))",
        unnest=", json_each(h.response, '$.wins') w, json_each(w.value, '$.items') i",
        allowed="json_extract(w.value, '$.allowed') = 1",
        item_id="json_extract(i.value, '$.id')",
    ),
    "postgresql": _statements(
        live="h.voided = false",
        baozi="CASE WHEN (h.state_before ->> 'baozi')::boolean THEN 1 ELSE 0 END",
        winner_of="h.seat_players ->> (w ->> 'winner')",
        unnest="CROSS JOIN LATERAL json_array_elements(h.response -> 'wins') w "
        "CROSS JOIN LATERAL json_array_elements(w -> 'items') i",
        allowed="(w ->> 'allowed')::boolean",
        item_id="(i ->> 'id')",
    ),
}
