"""Ledger benchmark: commit throughput and the reads a table makes (/score, /stats, /history, /ledger, /end)
with 100, 10,000 and 100,000 hands recorded; and settling up: /balance and the end-of-session summary with
100 and 10,000 ended sessions, beside the peer that recomputes every balance by scanning every session.

Usage: python bench/ledger.py [--sizes 100,10000,100000] [--backends sqlite,postgresql] [--commits 40]
       [--sessions 100,10000] [--only hands|settle]

Each size gets a fresh database. The history is bulk-loaded with direct inserts (copies of real hands
committed through the service, with their payments and the running totals they imply), then the bench
times real `recording.commit` calls and the calls behind /score (`standings`), /stats (`player_stats`),
/history (`history`), /ledger (what its handler does: the newest LEDGER_PAGE rows and the one message
they fit) and /end (`end_session`). Each reads running totals or a bounded page, so its 100,000-hand time
must stay within 1.5x of the 100-hand time. Then /end's summary (report, card, chart, CSV: what
`post_summary` builds) is built in a thread of the bot's process, as the handlers do, while another table
commits hands; that table's commit latency alone and meanwhile are printed side by side.
PostgreSQL is used when reachable (BENCH_DATABASE_URL, else TEST_DATABASE_URL, else postgresql+psycopg://postgres@127.0.0.1:5432/test);
each run creates and drops its own databases there.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import secrets
import statistics
import sys
import tempfile
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from datetime import UTC
from pathlib import Path
from typing import Any

# bench/bot.py would shadow the `bot` package when this file runs as a script: import from the project root.
_HERE = str(Path(__file__).resolve().parent)
sys.path[:] = [p for p in sys.path if str(Path(p or ".").resolve()) != _HERE]
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlalchemy import create_engine, func, select, text, update  # noqa: E402
from sqlalchemy.engine import make_url  # noqa: E402
from sqlmodel import Session  # noqa: E402

from bot.handlers.views import LEDGER_PAGE  # noqa: E402
from bot.ledger import Ledger, UserRef  # noqa: E402
from bot.ledger.money import settling  # noqa: E402
from bot.ledger.play import books, recording, seating, sessions  # noqa: E402
from bot.ledger.storage.db import open_database  # noqa: E402
from bot.ledger.storage.models import (  # noqa: E402
    GroupTotal,
    Hand,
    Payment,
    SessionTotal,
    SettleLine,
    SettleTransfer,
    TableSession,
)
from bot.render import ledger_page  # noqa: E402
from bot.summary.card import chart_data, render_card  # noqa: E402
from bot.summary.chart import render_chart  # noqa: E402
from bot.summary.csvfile import ledger_csv  # noqa: E402
from bot.summary.tally import build_report  # noqa: E402

CHAT = -42
OTHER = -43  # another group's table, recording while CHAT's summary is built
OTHER_KEYS = itertools.count()  # its hands' source keys, unique over the whole run
BATCH = 5000
DEFAULT_PG = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
TEMPLATES: list[dict[str, Any]] = [
    {
        "event": "win",
        "wins": [
            {
                "winner": "S",
                "type": "self_draw",
                "declared": {"hard_flowers": 5, "patterns": ["清一色", "七对"]},
            }
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
    {"event": "escape", "escaper": "N"},
    {
        "event": "win",
        "discarder": "E",
        "wins": [{"winner": "N", "type": "discard", "declared": {"hard_flowers": 6, "patterns": ["混一色"]}}],
    },
]


def seat_table(ledger: Ledger, chat_id: int = CHAT) -> int:
    """Open a session with four seated players and 东 dealing; returns the session id."""
    sessions.open_session(ledger, chat_id, stake=5, by=UserRef(1, "Ann", "ann"))
    for i, name in enumerate(["Ann", "Bob", "Cat"], start=1):
        seating.join(ledger, chat_id, UserRef(i, name, name.lower()))
    session_id = seating.join(ledger, chat_id, guest_name="Dan").session.id
    sessions.set_dealer(ledger, chat_id, "E")
    return session_id


def bulk_load(ledger: Ledger, session_id: int, hands: int, chat_id: int = CHAT) -> None:
    """Record `hands` hands: the templates through the service, the rest as direct copies of them (also
    used by tests/bot/test_long_session.py, for a 10,000-hand session in the real bot)."""
    for k in range(min(hands, len(TEMPLATES))):
        recording.commit(ledger, chat_id, TEMPLATES[k], source_key=f"seed-{session_id}-{k}")
    extra = hands - len(TEMPLATES)
    if extra <= 0:
        return
    engine = ledger.engine
    with Session(engine) as s:
        seeds = list(s.scalars(select(Hand).where(Hand.session_id == session_id).order_by(Hand.seq)))
        seed_payments: dict[int, list[tuple[int, int, int]]] = defaultdict(list)
        for pay in s.scalars(select(Payment).where(Payment.hand_id.in_([h.id for h in seeds]))):  # type: ignore[union-attr]
            seed_payments[pay.hand_id].append((pay.player_id, pay.amount, pay.hua))
        ts = s.get(TableSession, session_id)
        assert ts is not None
        group_id, last_seq = ts.group_id, ts.last_seq
        next_hand_id = (s.scalar(select(func.max(Hand.id))) or 0) + 1
        next_payment_id = (s.scalar(select(func.max(Payment.id))) or 0) + 1
    # Rows go in through the driver directly (executemany on SQLite, COPY on PostgreSQL): JSON is serialized
    # once per seed hand, so loading 100,000 hands takes seconds, not minutes.
    dialect = engine.dialect.name
    stamp = seeds[0].recorded_at.astimezone(UTC)
    recorded = stamp.strftime("%Y-%m-%d %H:%M:%S.%f") if dialect == "sqlite" else stamp
    false: Any = 0 if dialect == "sqlite" else False
    seed_rows = {
        _id(seed): (
            seed.kind,
            json.dumps(seed.entry),
            json.dumps(seed.request),
            json.dumps(seed.response),
            json.dumps(seed.seat_players),
            seed.dealer_after_player_id,
            seed.streak_after,
        )
        for seed in seeds
    }
    number = ts.state["hand_number"] - 1  # the templates are hands: a copy's number is the next one

    def numbered(state: dict[str, Any], hand_number: int) -> str:
        return json.dumps({**state, "hand_number": hand_number})

    delta: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    hand_rows: list[tuple[Any, ...]] = []
    payment_rows: list[tuple[Any, ...]] = []
    for i in range(extra):
        seed = seeds[i % len(seeds)]
        seq = last_seq + i + 1
        kind, entry, request, response, seat_players, dealer_after, streak = seed_rows[_id(seed)]
        number += 1  # each copy keeps the number its dealer state gives it, as a recorded hand does
        before, after = numbered(seed.state_before, number), numbered(seed.state_after, number + 1)
        hand_rows.append(
            (
                next_hand_id,
                session_id,
                seq,
                number,
                kind,
                entry,
                request,
                response,
                before,
                after,
                seat_players,
                dealer_after,
                streak,
                recorded,
                f"bulk-{session_id}-{seq}",
                false,
            )
        )
        for player_id, amount, hua in seed_payments[_id(seed)]:
            payment_rows.append((next_payment_id, next_hand_id, player_id, amount, hua))
            next_payment_id += 1
            delta[player_id][0] += amount
        for player_id in {int(p) for p in seed.seat_players.values()}:
            delta[player_id][1] += 1
        next_hand_id += 1
    hand_columns = (
        "id, session_id, seq, number, kind, entry, request, response, state_before, state_after, "
        "seat_players, dealer_after_player_id, streak_after, recorded_at, source_key, voided"
    )
    payment_columns = "id, hand_id, player_id, amount, hua"
    with engine.begin() as connection:
        raw = connection.connection.driver_connection
        assert raw is not None
        cursor = raw.cursor()
        if dialect == "sqlite":
            cursor.executemany(f"INSERT INTO hand ({hand_columns}) VALUES ({', '.join('?' * 16)})", hand_rows)
            cursor.executemany(
                f"INSERT INTO payment ({payment_columns}) VALUES (?, ?, ?, ?, ?)", payment_rows
            )
        else:
            with cursor.copy(f"COPY hand ({hand_columns}) FROM STDIN") as copy:
                for row in hand_rows:
                    copy.write_row(row)
            with cursor.copy(f"COPY payment ({payment_columns}) FROM STDIN") as copy:
                for row in payment_rows:
                    copy.write_row(row)
        cursor.close()
        # the running totals and the session counters the copies imply
        for player_id, (net, count) in delta.items():
            for table, key in (
                (SessionTotal, SessionTotal.session_id == session_id),
                (GroupTotal, GroupTotal.group_id == group_id),
            ):
                connection.execute(
                    update(table)
                    .where(key, table.player_id == player_id)
                    .values(net=table.net + net, hands=table.hands + count)
                )
        connection.execute(
            update(TableSession)
            .where(TableSession.id == session_id)
            .values(
                last_seq=last_seq + extra,
                live_rows=TableSession.live_rows + extra,
                state={**seeds[(extra - 1) % len(seeds)].state_after, "hand_number": number + 1},
                hands_played=TableSession.hands_played + extra,
            )
        )
        if connection.dialect.name == "postgresql":
            for name in ("hand", "payment"):
                connection.execute(
                    text(
                        f"SELECT setval(pg_get_serial_sequence('{name}', 'id'), (SELECT max(id) FROM {name}))"
                    )
                )
        if connection.dialect.name == "postgresql":
            connection.execute(text("ANALYZE"))
    if engine.dialect.name == "sqlite":
        with engine.connect() as connection:
            connection.exec_driver_sql("ANALYZE")


def _id(row: Any) -> int:
    assert row.id is not None
    return int(row.id)


def timed(fn: Callable[[], object], repeat: int) -> list[float]:
    """Wall-clock seconds of each of `repeat` calls."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return times


@contextmanager
def sqlite_database() -> Iterator[str]:
    with tempfile.TemporaryDirectory(prefix="ledger-bench-") as directory:
        yield f"sqlite:///{Path(directory) / 'bench.db'}"


@contextmanager
def pg_database(server: str) -> Iterator[str]:
    base = make_url(server)
    name = f"mjbench_{secrets.token_hex(5)}"
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield base.set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def pg_server() -> str | None:
    """The PostgreSQL server URL if it answers, else None (with the reason printed)."""
    url = os.environ.get("BENCH_DATABASE_URL") or os.environ.get("TEST_DATABASE_URL") or DEFAULT_PG
    try:
        engine = create_engine(url, connect_args={"connect_timeout": 3})
        with engine.connect() as connection:
            connection.execute(text("SELECT 1"))
        engine.dispose()
        return url
    except Exception as exc:
        print(
            f"postgresql: skipped, server not reachable at {make_url(url).render_as_string()}: "
            f"{str(exc).splitlines()[0]}"
        )
        return None


def run_backend(
    factory: Callable[[], Any], sizes: list[int], commits: int, reads: int
) -> dict[int, dict[str, float]]:
    """Build one database per size, then time standings in interleaved rounds (every size sees the same
    machine load, which matters on a shared machine), then time commits on each."""
    results: dict[int, dict[str, float]] = {size: {} for size in sizes}
    with ExitStack() as stack:
        ledgers: dict[int, Ledger] = {}
        for size in sizes:
            url = stack.enter_context(factory())
            engine = open_database(url)
            stack.callback(engine.dispose)  # runs before the database is dropped
            ledger = Ledger(engine)
            session_id = seat_table(ledger)
            start = time.perf_counter()
            bulk_load(ledger, session_id, size)
            results[size]["load_s"] = time.perf_counter() - start
            ledger.read(books.standings, CHAT)  # warm the connection and statement caches
            ledgers[size] = ledger
        read_times: dict[str, dict[int, list[float]]] = {name: {size: [] for size in sizes} for name in READS}
        for _round in range(reads):
            for name, call in READS.items():
                for size in sizes:
                    once = timed(lambda ledger=ledgers[size], call=call: call(ledger), 1)
                    read_times[name][size].extend(once)
        for size in sizes:
            ledger = ledgers[size]
            keys = itertools.count()
            commit_times = timed(
                lambda ledger=ledger, keys=keys: recording.commit(
                    ledger,  # type: ignore[misc]
                    CHAT,
                    TEMPLATES[(k := next(keys)) % len(TEMPLATES)],
                    source_key=f"bench-{k}",
                ),
                commits,
            )
            totals = ledger.read(books.standings, CHAT)
            assert sum(r.net for r in totals.session_rows) == 0
            assert totals.session is not None and totals.session.hands_played == size + commits
            results[size]["commit_hps"] = commits / sum(commit_times)
            results[size]["commit_ms"] = statistics.median(commit_times) * 1000
            for name in READS:
                results[size][f"{name}_ms"] = statistics.median(read_times[name][size]) * 1000
        for size in sizes:
            ledger = ledgers[size]
            session_id = _session_id(ledger)
            seat_table(ledger, OTHER)
            summary(ledger, session_id)  # matplotlib imported, as after a first /end
            alone, during, took = meanwhile(ledger, session_id, commits, summary)
            results[size].update({"alone_ms": alone, "during_ms": during, "summary_ms": took})
            end = timed(lambda ledger=ledger: sessions.end_session(ledger, CHAT), 1)
            results[size]["end_ms"] = end[0] * 1000
    return results


def _session_id(ledger: Ledger) -> int:
    return sessions.require_session(ledger, CHAT).id


# What each table command reads, by the command's name.
READS: dict[str, Callable[[Ledger], object]] = {
    "score": lambda ledger: ledger.read(books.standings, CHAT),
    "stats": lambda ledger: ledger.read(books.player_stats, CHAT),
    "history": lambda ledger: ledger.read(books.history, CHAT),
    "ledger": lambda ledger: ledger_answer(ledger),
}


def ledger_answer(ledger: Ledger) -> str:
    """What /ledger does: the newest LEDGER_PAGE rows, then the one message they fit (bot.handlers.views)."""
    session = sessions.require_session(ledger, CHAT)
    rows = ledger.read(books.ledger_rows, session.id, last=LEDGER_PAGE)
    return ledger_page("zh-Hans", session, rows, complete=len(rows) < LEDGER_PAGE)[0]


def summary(ledger: Ledger, session_id: int) -> None:
    """What /end's summary builds (bot.summary.post.post_summary): the report, the card, the chart and the
    CSV; only the Bot API sends are left out."""
    report = build_report(ledger, session_id)
    render_card(report, "zh-Hans")
    render_chart(chart_data(report, "zh-Hans"))
    ledger_csv(report, "zh-Hans", timezone="Asia/Shanghai")


def meanwhile(
    ledger: Ledger, session_id: int, commits: int, build: Callable[[Ledger, int], None]
) -> tuple[float, float, float]:
    """Commit latency at another table (ms, median) alone, and while this table's summary is built by
    `build` in another thread; and the summary's own time (ms)."""

    def commit() -> None:
        k = next(OTHER_KEYS)  # a new key each time: a repeated one would be an idempotent no-op
        recording.commit(ledger, OTHER, TEMPLATES[k % len(TEMPLATES)], source_key=f"other-{k}")

    alone = statistics.median(timed(commit, commits))
    done = threading.Event()
    took: list[float] = []

    def run() -> None:
        start = time.perf_counter()
        build(ledger, session_id)
        took.append(time.perf_counter() - start)
        done.set()

    thread = threading.Thread(target=run)
    thread.start()
    during: list[float] = []
    while not done.is_set() or not during:
        during.extend(timed(commit, 1))
    thread.join()
    return alone * 1000, statistics.median(during) * 1000, took[0] * 1000


# ---- settling up: /balance and the summary with 100 and 10,000 ended sessions ------------------------


def _copies(rows: list[Any], ids: list[int], **fixed: Any) -> list[dict[str, Any]]:
    """Each row's columns (but its own id) once per session id, with `fixed` values."""
    out = []
    for session_id in ids:
        for row in rows:
            values = {c.name: getattr(row, c.name) for c in row.__table__.columns if c.name != "id"}
            out.append({**values, "session_id": session_id, **fixed})
    return out


def load_sessions(ledger: Ledger, count: int) -> int:
    """`count` ended sessions: the newest played and ended through the service (its transfers open), the
    `count - 1` before it bulk-inserted as copies of it with their transfers settled. Returns its id."""
    session_id = seat_table(ledger)
    for entry in TEMPLATES[:2]:
        recording.commit(ledger, CHAT, entry)
    sessions.end_session(ledger, CHAT)
    with Session(ledger.engine) as s:
        last = s.get(TableSession, session_id)
        assert last is not None
        kept = {
            model: list(s.scalars(select(model).where(model.session_id == session_id)))
            for model in (SessionTotal, SettleLine, SettleTransfer)
        }
        base = {c.name: getattr(last, c.name) for c in TableSession.__table__.columns}  # type: ignore[attr-defined]
        top = s.scalar(select(func.max(TableSession.id))) or 0
        copies = [
            {
                **base,
                "id": top + i,
                "number": last.number + i,
                "card_message_id": None,
                "summary_message_id": None,
            }
            for i in range(1, count)
        ]
        for start in range(0, len(copies), BATCH):
            chunk = copies[start : start + BATCH]
            ids = [row["id"] for row in chunk]
            s.execute(TableSession.__table__.insert(), chunk)  # type: ignore[attr-defined]
            s.execute(SessionTotal.__table__.insert(), _copies(kept[SessionTotal], ids))  # type: ignore[attr-defined]
            s.execute(SettleLine.__table__.insert(), _copies(kept[SettleLine], ids))  # type: ignore[attr-defined]
            settled = [
                {**row, "paid": row["amount"], "status": "settled", "closed_at": row["created_at"]}
                for row in _copies(kept[SettleTransfer], ids)
            ]
            s.execute(SettleTransfer.__table__.insert(), settled)  # type: ignore[attr-defined]
        newest = update(TableSession).where(TableSession.id == session_id)  # the played one is the newest
        s.execute(newest.values(number=last.number + count))
        s.commit()
    return session_id


def balance_by_scan(ledger: Ledger) -> dict[int, int]:
    """The named peer: every session's settle figures summed, less what was paid (no open-transfer state)."""
    with Session(ledger.engine) as s:
        owed: dict[int, int] = defaultdict(int)
        for pid, rounded in s.execute(select(SettleLine.player_id, SettleLine.rounded)):
            owed[pid] += rounded
        for payer, payee, paid in s.execute(
            select(SettleTransfer.payer_id, SettleTransfer.payee_id, SettleTransfer.paid)
        ):
            owed[payer] += paid
            owed[payee] -= paid
        return {pid: v for pid, v in owed.items() if v}


SETTLE_READS: dict[str, Callable[[Ledger, int], object]] = {
    "balance": lambda ledger, _sid: ledger.read(settling.balance, CHAT),
    "summary": lambda ledger, sid: render_card(build_report(ledger, sid), "zh-Hans"),
    "scan(peer)": lambda ledger, _sid: balance_by_scan(ledger),
}


def run_settle(factory: Callable[[], Any], sizes: list[int], reads: int) -> dict[int, dict[str, float]]:
    """Time /balance, the summary and the scan peer at each size, in interleaved rounds."""
    results: dict[int, dict[str, float]] = {size: {} for size in sizes}
    with ExitStack() as stack:
        built: dict[int, tuple[Ledger, int]] = {}
        for size in sizes:
            engine = open_database(stack.enter_context(factory()))
            stack.callback(engine.dispose)
            ledger = Ledger(engine)
            start = time.perf_counter()
            built[size] = (ledger, load_sessions(ledger, size))
            results[size]["load_s"] = time.perf_counter() - start
            assert ledger.read(settling.balance, CHAT).totals == balance_by_scan(ledger)  # the two agree
        times: dict[str, dict[int, list[float]]] = {n: {size: [] for size in sizes} for n in SETTLE_READS}
        for _round in range(reads):
            for name, call in SETTLE_READS.items():
                for size, (ledger, sid) in built.items():
                    times[name][size] += timed(lambda c=call, lg=ledger, i=sid: c(lg, i), 1)
        for size in sizes:
            for name in SETTLE_READS:
                results[size][name] = statistics.median(times[name][size]) * 1000
    return results


def print_settle(backend: str, results: dict[int, dict[str, float]]) -> bool:
    names = list(SETTLE_READS)
    print(f"\n{backend}: {'sessions':>9} {'load s':>8} " + " ".join(f"{n + ' ms':>16}" for n in names))
    for size, r in results.items():
        figures = " ".join(f"{r[n]:>16.2f}" for n in names)
        print(f"{'':{len(backend) + 1}} {size:>9} {r['load_s']:>8.1f} {figures}")
    small, large = min(results), max(results)
    ok = True
    for name in names:
        ratio = results[large][name] / results[small][name]
        flat = name == "scan(peer)" or ratio <= 1.5
        ok = ok and flat
        verdict = "peer" if name == "scan(peer)" else ("ok" if flat else "TOO SLOW")
        print(f"{backend}: {name} {large}/{small} sessions ratio = {ratio:.2f} ({verdict})")
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100,10000,100000")
    parser.add_argument("--backends", default="sqlite,postgresql")
    parser.add_argument("--commits", type=int, default=40)
    parser.add_argument("--reads", type=int, default=60)
    parser.add_argument("--sessions", default="100,10000", help="ended sessions for /balance and the summary")
    parser.add_argument("--only", choices=("hands", "settle"), help="run one of the two benches")
    args = parser.parse_args(argv)
    sizes = [int(x) for x in args.sizes.split(",")]
    sessions = [int(x) for x in args.sessions.split(",")]
    ok = True
    for backend in args.backends.split(","):
        if backend == "sqlite":
            factory: Callable[[], Any] = sqlite_database
        elif backend == "postgresql":
            server = pg_server()
            if server is None:
                continue
            factory = lambda server=server: pg_database(server)  # noqa: E731
        else:
            print(f"unknown backend {backend!r}", file=sys.stderr)
            return 2
        if args.only != "hands":
            ok = print_settle(backend, run_settle(factory, sessions, max(5, args.reads // 3))) and ok
        if args.only == "settle":
            continue
        results = run_backend(factory, sizes, args.commits, args.reads)
        names = [*READS, "end"]
        print(
            f"\n{backend}: {'hands':>8} {'load s':>8} {'commit hands/s':>15} {'commit ms':>10} "
            + " ".join(f"{'/' + n + ' ms':>11}" for n in names)
        )
        for size, r in results.items():
            print(
                f"{'':{len(backend) + 1}} {size:>8} {r['load_s']:>8.1f} {r['commit_hps']:>15.1f} "
                f"{r['commit_ms']:>10.2f} " + " ".join(f"{r[n + '_ms']:>11.2f}" for n in names),
                flush=True,
            )
        print(
            f"{backend}: another table's commit while this one's summary (report, card, chart, CSV) is "
            "built in a thread of the bot's process (as the handlers do):"
        )
        print(
            f"{'':{len(backend) + 1}} {'hands':>8} {'summary ms':>11} {'alone ms':>9} "
            f"{'meanwhile ms':>13} {'ratio':>6}"
        )
        for size, r in results.items():
            ratio = r["during_ms"] / r["alone_ms"]
            print(
                f"{'':{len(backend) + 1}} {size:>8} {r['summary_ms']:>11.0f} "
                f"{r['alone_ms']:>9.2f} {r['during_ms']:>13.2f} {ratio:>6.2f}",
                flush=True,
            )
        if max(sizes) != min(sizes):
            for name in names:
                ratio = results[max(sizes)][f"{name}_ms"] / results[min(sizes)][f"{name}_ms"]
                limit = 1.5 if name in READS else 3.0  # /end is one sample: a looser bound
                verdict = "ok" if ratio <= limit else "TOO SLOW"
                ok = ok and ratio <= limit
                print(
                    f"{backend}: /{name} {max(sizes)}/{min(sizes)} hands ratio = {ratio:.2f} "
                    f"(limit {limit}: {verdict})"
                )
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
