"""Other tables while one table's long session ends: each of `--tables` tables records a hand every
`--every` seconds (/hu → preview → Confirm → result and card, `--delay` seconds a Bot API call), first with
nothing else going on (the peer), then while one table's `--hands`-hand session ends and its summary (card,
chart, CSV) is built and posted in the same process. Prints each run's /hu → result p50 / p99 / max.

    python bench/stall.py                 # 10 tables, a 10,000-hand session
    python bench/stall.py --hands 300     # quicker
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))

from bench.bot import END_CONFIRM, Bench, percentile  # noqa: E402
from bench.ledger import bulk_load  # noqa: E402
from bot.console.driver import settle, start_application, stop_application  # noqa: E402
from bot.ledger.play import groups  # noqa: E402


async def run(workdir: Path, tables: int, hands: int, every: float, delay: float) -> dict[str, list[float]]:
    bench = Bench(workdir, tables + 1, delay=0.0, counted=False)
    await start_application(bench.app)
    try:
        big, others = bench.chats[0], bench.chats[1:]
        ledger = bench.app.bot_data["ledger"]
        for chat in bench.chats:
            await bench.open_table(chat)
        await bench.hand(big, "default", 0)
        session = groups.chat_state(ledger, big).session
        await asyncio.to_thread(bulk_load, ledger, session.id, hands - 1, big)
        for chat in others:  # each table's card posted and its first hand played
            await bench.hand(chat, "default", 0)
        bench.transport.delay = delay
        figures: dict[str, list[float]] = {}

        async def table(chat: int, until: asyncio.Event, spent: list[float], index: int = 1) -> None:
            while not until.is_set():
                began = time.perf_counter()
                await bench.hand(chat, "default", index)
                spent.append(time.perf_counter() - began)
                index += 1
                await asyncio.sleep(every)

        for run_name in ("alone", "summary"):
            done, spent = asyncio.Event(), []
            players = [asyncio.create_task(table(chat, done, spent)) for chat in others]
            if run_name == "alone":
                await asyncio.sleep(max(3.0, 6 * every))
            else:
                await bench.say(big, "ann", "/end")
                began = time.perf_counter()
                await bench.press(big, "ann", END_CONFIRM)  # the card, the chart and the CSV, posted
                await settle(bench.app)
                figures["summary_seconds"] = [time.perf_counter() - began]
            done.set()
            await asyncio.gather(*players)
            figures[run_name] = spent
        return figures
    finally:
        await stop_application(bench.app)


def main(argv: list[str] | None = None) -> int:
    formatter = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=formatter)
    parser.add_argument("--tables", type=int, default=10, help="other tables, each playing")
    parser.add_argument("--hands", type=int, default=10_000, help="hands of the session that ends")
    parser.add_argument("--every", type=float, default=0.2, help="seconds between a table's hands")
    parser.add_argument("--delay", type=float, default=0.02, help="seconds a Bot API call takes")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as workdir:
        figures = asyncio.run(run(Path(workdir), args.tables, args.hands, args.every, args.delay))
    print(f"{args.tables} tables, a hand each every {args.every}s, {args.delay * 1000:.0f} ms a Bot API call")
    print(f"the {args.hands}-hand summary took {figures['summary_seconds'][0]:.2f} s (card, chart, CSV)")
    for name, label in (("alone", "alone (the peer)"), ("summary", "while the summary builds")):
        spent = [s * 1000 for s in figures[name]]
        print(
            f"  /hu → result, {label}: n={len(spent)} p50 {percentile(spent, 0.5):.0f} ms, "
            f"p99 {percentile(spent, 0.99):.0f} ms, max {max(spent):.0f} ms"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
