"""Hands recorded per second through the whole bot, next to python-telegram-bot's bare reply_text rate."""

from __future__ import annotations

import argparse
import asyncio
import logging
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # `python bench/bot.py` from a checkout
    sys.path.insert(0, str(ROOT))

from telegram import Update  # noqa: E402
from telegram.ext import ApplicationBuilder, ContextTypes, MessageHandler, filters  # noqa: E402

from bot.console.driver import AnyApplication, deliver, start_application, stop_application  # noqa: E402
from bot.console.transport import InProcessBotAPI  # noqa: E402

CHAT = -1001000000001
PLAYERS = ("ann", "bob", "cat", "dan")
# A table's evening: quick-form and tile-form wins, a discard with several payers, a draw.
HANDS = (
    "/hu 南 自摸 5花",
    "/hu 东 冲 西 8花",
    "/hu @cat zimo 11223355778899p 中发春梅",
    "/hu 北 冲 南 6花 清一色",
    "/hu 西 自摸 对对胡 4花",
    "/draw",
    "/hu 东 自摸 123456789m11p555s",
    "/hu 南 冲 东 3花 七对",
)
RESULT_LINE = re.compile(r"^(第\d+局|Hand \d+) ")  # `第7局 南 自摸 40花 → …`, the reply after a commit
HANDS_PER_SESSION = 16  # a real evening; the pinned card and the ledger grow with the session
MEASURING = [False]  # True while a hand is being timed (the breakdown counts only those calls)


def real_application(database_url: str, data_dir: Path, transport: InProcessBotAPI) -> AnyApplication:
    from bot.app import build_application
    from bot.settings import Settings

    settings = Settings(  # type: ignore[call-arg]
        _env_file=None, telegram_bot_token="123:BENCH", database_url=database_url, data_dir=data_dir
    )
    app = build_application(settings, request=transport, get_updates_request=transport)
    # Telegram's flood limits (20 messages a minute in a group) are not the bot's cost.
    app.bot._rate_limiter = None  # type: ignore[attr-defined]
    return app


async def echo(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.message is not None and update.message.text is not None
    await update.message.reply_text(update.message.text)


def echo_application(transport: InProcessBotAPI) -> AnyApplication:
    app = ApplicationBuilder().token("123:BENCH").request(transport).get_updates_request(transport).build()
    app.add_handler(MessageHandler(filters.TEXT, echo))
    return app


def new_transport() -> InProcessBotAPI:
    transport = InProcessBotAPI(seed=0)
    for index, name in enumerate(PLAYERS):
        transport.add_user(name, user_id=1001 + index)
    transport.add_group(CHAT, "bench", creator="ann")
    return transport


async def say(app: AnyApplication, transport: InProcessBotAPI, name: str, text: str) -> list[Any]:
    start = len(transport.calls)
    await deliver(app, transport.message(CHAT, name, text))
    return transport.calls[start:]


async def open_table(app: AnyApplication, transport: InProcessBotAPI, *, instant: bool) -> None:
    """A new session with four seated players and a dealer (not timed)."""
    await say(app, transport, "ann", "/newgame 苏州 1")
    for name in PLAYERS:
        await say(app, transport, name, "/join")
    await say(app, transport, "ann", "/dealer 东")
    if instant:
        await say(app, transport, "ann", "/rules instant on")


async def record_hand(app: AnyApplication, transport: InProcessBotAPI, text: str, *, instant: bool) -> bool:
    """One hand, end to end: the /hu update, and a Confirm press unless the group is instant.
    True if the bot posted the one-line result (the hand was committed)."""
    calls = await say(app, transport, "ann", text)
    if not instant:
        previews = [c for c in calls if c.ok and c.method == "sendMessage" and c.result.get("reply_markup")]
        if not previews:
            return False
        message_id = previews[-1].result["message_id"]
        start = len(transport.calls)
        await deliver(app, transport.press(CHAT, "bob", message_id, 0))
        calls = transport.calls[start:]
    return any(c.ok and c.method == "sendMessage" and RESULT_LINE.match(c.result.get("text", ""))
               for c in calls)


async def bench_bot(hands: int, *, instant: bool, workdir: Path) -> tuple[float, int]:
    """Seconds spent recording `hands` hands (setup excluded) and how many were committed."""
    transport = new_transport()
    database = workdir / ("instant.db" if instant else "confirm.db")
    app = real_application(f"sqlite:///{database}", workdir, transport)
    await start_application(app)
    elapsed, committed = 0.0, 0
    try:
        for index in range(hands):
            if index % HANDS_PER_SESSION == 0:
                if index:
                    await say(app, transport, "ann", "/end")
                await open_table(app, transport, instant=instant)
            text = HANDS[index % len(HANDS)]
            start = time.perf_counter()
            MEASURING[0] = True
            try:
                ok = await record_hand(app, transport, text, instant=instant)
            finally:
                MEASURING[0] = False
            elapsed += time.perf_counter() - start
            if not ok:
                last = [c.result.get("text") for c in transport.calls[-3:]
                        if c.ok and isinstance(c.result, dict)]
                raise SystemExit(f"hand {index + 1} {text!r} was not committed; the bot said {last}")
            committed += 1
    finally:
        await stop_application(app)
    return elapsed, committed


async def bench_echo(messages: int) -> float:
    """Seconds PTB needs to answer `messages` updates with a bare reply_text, same transport and driver."""
    transport = new_transport()
    app = echo_application(transport)
    await start_application(app)
    try:
        start = time.perf_counter()
        for index in range(messages):
            await deliver(app, transport.message(CHAT, PLAYERS[index % 4], HANDS[index % len(HANDS)]))
        return time.perf_counter() - start
    finally:
        await stop_application(app)


def install_breakdown() -> dict[str, list[float]]:
    """Times every public LedgerService method, the persistence and job-store writes, every Bot API call
    through the in-process transport, the renderers and the grammar (name → [calls, s])."""
    import functools
    import inspect

    from telegram.ext import BasePersistence

    import bot.handlers.recording
    import bot.handlers.table
    from bot.ledger.service import LedgerService

    spent: dict[str, list[float]] = {}

    def note(name: str, start: float) -> None:
        if not MEASURING[0]:
            return
        entry = spent.setdefault(name, [0, 0.0])
        entry[0] += 1
        entry[1] += time.perf_counter() - start

    def timed(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        if inspect.iscoroutinefunction(fn):

            @functools.wraps(fn)
            async def awrapper(*args: Any, **kwargs: Any) -> Any:
                start = time.perf_counter()
                try:
                    return await fn(*args, **kwargs)
                finally:
                    note(name, start)

            return awrapper

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                note(name, start)

        return wrapper

    for name, fn in list(vars(LedgerService).items()):
        if (not name.startswith("_") or name in ("_score", "_record")) and callable(fn):
            setattr(LedgerService, name, timed(f"ledger.{name}", fn))
    for module, name in ((bot.handlers.table, "table_card"), (bot.handlers.recording, "result_line"),
                         (bot.handlers.recording, "preview_text"), (bot.handlers.recording, "parse_hu")):
        if hasattr(module, name):
            label = f"{module.__name__.rsplit('.', 1)[-1]}.{name}"
            setattr(module, name, timed(label, getattr(module, name)))
    for persistence in BasePersistence.__subclasses__():
        for name, fn in list(vars(persistence).items()):
            if name.startswith(("update_", "refresh_", "flush")) and inspect.iscoroutinefunction(fn):
                setattr(persistence, name, timed(f"persistence.{name}", fn))
    original_request = InProcessBotAPI.do_request

    async def request(self: InProcessBotAPI, url: str, *args: Any, **kwargs: Any) -> tuple[int, bytes]:
        start = time.perf_counter()
        try:
            return await original_request(self, url, *args, **kwargs)
        finally:
            note(f"api.{url.rstrip('/').rsplit('/', 1)[-1]}", start)

    InProcessBotAPI.do_request = request  # type: ignore[method-assign]
    try:
        from apscheduler.jobstores.base import BaseJobStore
    except ImportError:
        return spent
    for store in BaseJobStore.__subclasses__():
        for name in ("add_job", "update_job", "remove_job"):
            if name in vars(store):
                setattr(store, name, timed(f"jobstore.{name}", vars(store)[name]))
    return spent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=96, help="hands per measured run (default 96)")
    parser.add_argument("--echo", type=int, default=500, help="updates for the reply_text peer (default 500)")
    parser.add_argument("--runs", type=int, default=5,
                        help="runs: the peer around each of the instant and the confirm bot (default 5)")
    parser.add_argument("--breakdown", nargs="?", const="instant", choices=("instant", "confirm"),
                        help="also time one run (instant, or confirm) by ledger method, persistence and "
                             "job-store write, Bot API call and renderer")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    logging.getLogger("bot").setLevel(logging.ERROR)

    with tempfile.TemporaryDirectory(prefix="bench-bot-") as tmp:
        workdir = Path(tmp)
        # Warm-up: imports, migrations, PTB's first update.
        asyncio.run(bench_bot(4, instant=True, workdir=workdir / "warm"))
        asyncio.run(bench_echo(50))

        def bot_rate(instant: bool, run: int) -> float:
            folder = workdir / f"{'instant' if instant else 'confirm'}-{run}"
            folder.mkdir(parents=True, exist_ok=True)
            elapsed, committed = asyncio.run(bench_bot(args.hands, instant=instant, workdir=folder))
            return committed / elapsed

        def echo_rate() -> float:
            return args.echo / asyncio.run(bench_echo(args.echo))

        # The machine's load changes from second to second (other processes): the peer is timed right before
        # and right after each bot measurement, and that measurement's ratio uses the mean of the two.
        rows: list[tuple[float, float, float, float]] = []  # (instant, its peer, confirm, its peer) per run
        for run in range(args.runs):
            first = echo_rate()
            instant = bot_rate(True, run)
            second = echo_rate()
            confirm = bot_rate(False, run)
            rows.append((instant, (first + second) / 2, confirm, (second + echo_rate()) / 2))

    ratios = sorted(instant / peer for instant, peer, _confirm, _peer in rows)
    confirm_ratios = sorted(confirm / peer for _instant, _peer, confirm, peer in rows)
    print(f"bot, instant group (1 update a hand):       {max(r[0] for r in rows):8.1f} hands/s (best run)")
    print(f"bot, preview + Confirm (2 updates a hand):  {max(r[2] for r in rows):8.1f} hands/s")
    print(f"python-telegram-bot bare reply_text:         {max(r[1] for r in rows):8.1f} replies/s")
    spread = f"median of {len(rows)} runs, range {ratios[0]:.3f}-{ratios[-1]:.3f}"
    median = statistics.median(ratios)
    print(f"ratio instant / reply_text:                  {median:8.3f}  (target >= 0.3; {spread})")
    print(f"ratio confirm / reply_text:                  {statistics.median(confirm_ratios):8.3f}")
    if args.breakdown:
        spent = install_breakdown()
        instant = args.breakdown == "instant"
        with tempfile.TemporaryDirectory(prefix="bench-bot-") as tmp:
            (Path(tmp) / "b").mkdir()
            elapsed, committed = asyncio.run(bench_bot(args.hands, instant=instant, workdir=Path(tmp) / "b"))
        per_hand = elapsed / committed * 1000
        print(f"\nwhere {'an instant' if instant else 'a preview + Confirm'} hand's {per_hand:.1f} ms go "
              "(ms a hand; timed hands only, nested calls in their callers too):")
        for name, (calls, seconds) in sorted(spent.items(), key=lambda kv: -kv[1][1])[:20]:
            print(f"  {name:32s} {seconds / committed * 1000:7.2f}   ({int(calls)} calls)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
