"""Season page benchmark: the time the season page's data takes (the ledger's read of the current season,
`seasons.state.page_data`, and the JSON the page gets, `webapp.season.page_json`) for a group of 100
nights at two tables of 60 hands each (6,000 hands, eight people), beside /score all-time's read of the
same group (`books.standings`). The nights are recorded through `recording.commit` and ended with
`sessions.end_session` (their settling stored), on SQLite (or `--url`, an empty database).

Usage: python bench/season.py [--nights 100] [--hands 60] [--reads 40] [--url postgresql+psycopg://…]
Prints p50 and p95 in ms of each; the issue asks p95 ≤ 300 ms for 100 nights and 6,000 hands.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

# bench/bot.py would shadow the `bot` package when this file runs as a script: import from the project root.
_HERE = str(Path(__file__).resolve().parent)
sys.path[:] = [p for p in sys.path if str(Path(p or ".").resolve()) != _HERE]
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.ledger import Ledger, UserRef  # noqa: E402
from bot.ledger.play import books, recording, seating, sessions  # noqa: E402
from bot.ledger.seasons import state  # noqa: E402
from bot.webapp.season import page_json  # noqa: E402

CHAT = -42
PEOPLE = [
    UserRef(i, name, name.lower())
    for i, name in enumerate(["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"], 1)
]
TABLES = (PEOPLE[:4], PEOPLE[4:])  # the two tables' regulars; every fifth night they mix
HANDS: list[dict[str, Any]] = [
    {
        "event": "win",
        "wins": [
            {"winner": "S", "type": "self_draw", "declared": {"hard_flowers": 5, "patterns": ["清一色"]}}
        ],
    },
    {
        "event": "win",
        "discarder": "N",
        "wins": [{"winner": "W", "type": "discard", "declared": {"hard_flowers": 4, "patterns": []}}],
    },
    {"event": "draw"},
    {
        "event": "win",
        "wins": [
            {"winner": "E", "type": "self_draw", "declared": {"hard_flowers": 3, "patterns": ["对对胡"]}}
        ],
    },
    {
        "event": "win",
        "discarder": "E",
        "wins": [{"winner": "N", "type": "discard", "declared": {"hard_flowers": 6, "patterns": ["混一色"]}}],
    },
    {
        "event": "win",
        "discarder": "W",
        "wins": [{"winner": "S", "type": "discard", "declared": {"hard_flowers": 7, "patterns": []}}],
    },
]


def record(ledger: Ledger, nights: int, hands: int) -> None:
    """`nights` nights of `hands` hands, each ended (its settling stored), alternating the two tables."""
    for night in range(nights):
        table = TABLES[night % 2] if night % 5 else [TABLES[0][0], TABLES[1][1], TABLES[0][2], TABLES[1][3]]
        sessions.open_session(ledger, CHAT, stake=5, by=table[0])
        for person in table:
            seating.join(ledger, CHAT, person)
        sessions.set_dealer(ledger, CHAT, "E")
        for k in range(hands):
            recording.commit(ledger, CHAT, HANDS[(k + night) % len(HANDS)], source_key=f"n{night}h{k}")
        sessions.end_session(ledger, CHAT, by=table[0])


def timed(fn: Callable[[], object], repeat: int) -> tuple[list[float], list[float]]:
    """Wall and CPU milliseconds of `repeat` calls (SQLite runs in this process: its time is CPU here too;
    on a machine other work shares, the CPU time is the steadier figure)."""
    fn()  # warm: the first read of a process compiles its statements
    wall, cpu = [], []
    for _ in range(repeat):
        started, used = time.perf_counter(), time.process_time()
        fn()
        wall.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - used) * 1000)
    return wall, cpu


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20, method="inclusive")[-1] if len(values) > 1 else values[0]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nights", type=int, default=100)
    parser.add_argument("--hands", type=int, default=60)
    parser.add_argument("--reads", type=int, default=40)
    parser.add_argument("--url", help="a database URL (default: a SQLite file of its own)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        ledger = Ledger.from_url(args.url or f"sqlite:///{folder}/bench.db")
        backend = ledger.engine.dialect.name
        started = time.perf_counter()
        record(ledger, args.nights, args.hands)
        loaded = time.perf_counter() - started

        def season() -> object:
            data = ledger.read(state.page_data, CHAT, ledger.now())
            return page_json(data.language or "zh-Hans", data.number, data.figures, data.timezone or "UTC")

        page = timed(season, args.reads)
        score = timed(lambda: ledger.read(books.standings, CHAT), args.reads)
        ledger.engine.dispose()
    hands = args.nights * args.hands
    print(f"{args.nights} nights, 2 tables, {hands} hands (recorded in {loaded:.1f} s), {backend}")
    print(f"{'read':<40} {'p50 ms':>8} {'p95 ms':>8} {'CPU p50':>8} {'CPU p95':>8}")
    for name, (wall, cpu) in (
        ("season page data (read + JSON)", page),
        ("/score all-time (standings), the peer", score),
    ):
        figures = (statistics.median(wall), p95(wall), statistics.median(cpu), p95(cpu))
        print(f"{name:<40} " + " ".join(f"{x:8.1f}" for x in figures))
    print(f"ratio season / /score p50: {statistics.median(page[0]) / statistics.median(score[0]):.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
