"""What a recorded hand costs where users and Telegram's limits feel it, through the real Application.

Every figure comes from real inputs: typed /hu texts and button presses as Telegram delivers them, handed
to the real `Application` (`bot.app.build_application`) on a SQLite file, with the in-process Bot API of
the tests and the console (`bot.console.transport`) answering every call. Sections (`--only`):

  cpu      the bot's own CPU time per confirmed hand (/hu → preview → Confirm → result and card, one
           table, no delay), beside a bare PTB `Application` (the named peer: python-telegram-bot with
           no ledger, no scoring, no catalogs) making the same Bot API calls for the same updates through
           the same transport in the same run, `--cpu-pairs` (7) runs of each in turn: the medians, and
           the median of the pairs' ratios, is what the bot itself spends. With it, per
           hand: Bot API calls, new messages, SQL transactions (the engine's `begin` events) and SQL
           statements (its `before_cursor_execute` events, BEGIN included; by verb).
  flows    the same counts for the default flow, an `instant` group and the /hu button flow.
  burst    `--tables` (50) tables recording a hand at the same moment, every Bot API call taking
           `--api-ms` (50 ms) as a round trip to Telegram does: /hu → preview, Confirm (pressed as the
           preview shows) → result, and /hu → result, p50 and p99.
  paced    `--paced-tables` (1,000) tables at a hand each per 2 minutes: each table's one hand of a
           2-minute window starts at a random moment in it, so hands arrive at tables / 120 s (8.3 a
           second for 1,000). `--pace-seconds` below 120 compresses that window in time: the same hands
           arrive 120 / seconds times as fast (a harder load, stated in the output). p50, p99.
  limits   a table recording `--limit-hands` (8) hands back to back with the bot's rate limiter on (no
           delay otherwise), beside PTB's `AIORateLimiter`, which counts every request naming a chat
           against the group's 20 a minute: edits too, where Telegram counts new messages.
  summary  /end's Confirm → the summary card in the chat, at `--summary-hands` (100 and 10,000) hands:
           cold (the first summary of a freshly started bot process, as after a restart: measured in a
           child process started on the prepared database) and warm (the next one, in that process).
           The sessions are recorded by real /hu hands, then filled to size by `bench.ledger.bulk_load`.

`py-spy record -o out.txt --format raw -- python bench/bot.py --only cpu` shows where the CPU goes.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
# `python bench/bot.py` puts bench/ first on the path, where this file would shadow the `bot` package.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))

from sqlalchemy import event  # noqa: E402
from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Message, Update  # noqa: E402
from telegram.ext import (  # noqa: E402
    AIORateLimiter,
    Application,
    BaseRateLimiter,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
)

from bot.app import RATE_LIMIT_RETRIES, TelegramRateLimiter, build_application  # noqa: E402
from bot.console.driver import AnyApplication, settle, start_application, stop_application  # noqa: E402
from bot.console.transport import InProcessBotAPI  # noqa: E402
from bot.ledger.play import books, groups, sessions  # noqa: E402
from bot.settings import Settings  # noqa: E402

PLAYERS = ("ann", "bob", "cat", "dan")
FIRST_CHAT = -1001000000001
SEND = ("sendMessage", "sendPhoto", "sendDocument", "sendDice", "sendMediaGroup")
HANDS = (
    "/hu 南 自摸 5花",
    "/hu 东 冲 西 8花",
    "/hu @cat zimo 11223355778899p 中发春梅",
    "/hu 北 冲 南 6花 清一色",
)
# The /hu button flow's most common path, pressed by the one who started it (only they or an admin may):
# winner, how, 硬花 count, 完成 on the meld step (→ the preview); then someone Confirms.
FLOW_PRESSES = ("南 Bob", "自摸", "5", "完成")
CONFIRM = "✅ 确认"
END_CONFIRM = "✅ 结束并结算"
WINDOW = 120.0  # seconds: a table's hand every 2 minutes
CHATS_FILE = "chats.json"  # the prepared chats (messages, counters), for the summary's child process
SECTIONS = ("cpu", "flows", "burst", "paced", "limits", "summary")
VERBS = ("BEGIN", "SELECT", "INSERT", "UPDATE", "DELETE")


class SlowBotAPI(InProcessBotAPI):
    """The in-process Bot API, each call taking `delay` seconds as a round trip to Telegram would."""

    def __init__(self, delay: float, **options: Any) -> None:
        super().__init__(**options)
        self.delay = delay

    async def do_request(self, *args: Any, **kwargs: Any) -> tuple[int, bytes]:
        if self.delay:
            await asyncio.sleep(self.delay)
        return await super().do_request(*args, **kwargs)


class Bench:
    """The real bot on a SQLite file, `tables` groups with four players each; transactions and SQL
    statements of the ledger's engine counted unless `counted` is False (where CPU is measured)."""

    def __init__(
        self,
        workdir: Path,
        tables: int,
        delay: float = 0.0,
        first: int = FIRST_CHAT,
        seed: int = 0,
        *,
        counted: bool = True,
    ) -> None:
        self.transport = SlowBotAPI(delay, seed=seed)
        for index, name in enumerate(PLAYERS):
            self.transport.add_user(name, user_id=1001 + index)
        self.chats = [first - i for i in range(tables)]
        for chat in self.chats:
            self.transport.add_group(chat, f"table {chat}", creator="ann")
        settings = Settings(  # type: ignore[call-arg]
            _env_file=None,
            telegram_bot_token="123:BENCH",
            database_url=f"sqlite:///{workdir / 'bench.db'}",
            data_dir=workdir,
        )
        self.app: AnyApplication = build_application(
            settings, request=self.transport, get_updates_request=self.transport
        )
        self.app.bot._rate_limiter = None  # type: ignore[attr-defined]  # flood limits are Telegram's
        self.begins = 0
        self.statements: Counter[str] = Counter()
        if counted:  # not where CPU is measured: an engine that ever had a listener dispatches events on
            # every statement, also after `event.remove` (SQLAlchemy keeps its `_has_events` set)
            engine = self.app.bot_data["ledger"].engine
            event.listen(engine, "begin", self._begin)
            event.listen(engine, "before_cursor_execute", self._statement)

    def _begin(self, _connection: Any) -> None:
        self.begins += 1

    def _statement(self, _conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        verb = statement.lstrip().split(None, 1)[0].upper() if statement.strip() else "?"
        self.statements[verb if verb in VERBS else "other"] += 1

    async def deliver(self, update: dict[str, Any]) -> None:
        """One update through the application's update processor, as polling hands it over."""
        parsed = Update.de_json(update, self.app.bot)
        await self.app.update_processor.process_update(parsed, self.app.process_update(parsed))
        await settle(self.app)

    async def say(self, chat: int, name: str, text: str) -> None:
        await self.deliver(self.transport.message(chat, name, text))

    async def press(self, chat: int, name: str, label: str) -> None:
        await self.deliver(self.transport.press(chat, name, None, label))

    async def open_table(self, chat: int, *, instant: bool = False) -> None:
        await self.say(chat, "ann", "/newgame 苏州 1")
        for name in PLAYERS:
            await self.say(chat, name, "/join")
        await self.say(chat, "ann", "/dealer 东")
        if instant:
            await self.say(chat, "ann", "/rules instant on")

    async def open_tables(self, *, instant: bool = False) -> None:
        for chat in self.chats:
            await self.open_table(chat, instant=instant)

    async def hand(self, chat: int, flow: str, index: int, previewed: list[float] | None = None) -> None:
        """One recorded hand in `chat` by `flow`; AssertionError if no one-line result came. `previewed`
        gets the moment (perf_counter) the typed /hu's preview was shown."""
        start = len(self.transport.calls)
        if flow == "buttons":
            await self.say(chat, "ann", "/hu")
            for label in FLOW_PRESSES:
                await self.press(chat, "ann", label)
            await self.press(chat, "bob", CONFIRM)
        else:
            await self.say(chat, "ann", HANDS[index % len(HANDS)])
            if previewed is not None:
                previewed.append(time.perf_counter())
            if flow == "default":
                await self.press(chat, "bob", CONFIRM)
        texts = [
            str(c.result.get("text", ""))
            for c in self.transport.calls[start:]
            if c.ok and isinstance(c.result, dict) and c.method in ("sendMessage", "editMessageText")
        ]
        assert any(text.startswith("第") and "局 " in text and "→" in text for text in texts), texts


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def spread(spent: list[float]) -> str:
    return f"p50 {statistics.median(spent) * 1000:6.0f} ms   p99 {percentile(spent, 0.99) * 1000:6.0f} ms"


# ---- cpu and flows ---------------------------------------------------------------------------------------


async def costs(workdir: Path, flow: str, hands: int) -> dict[str, Any]:
    """Bot API calls, new messages, transactions and statements (by verb) per hand of `flow`, one table."""
    bench = Bench(workdir, 1)
    await start_application(bench.app)
    try:
        await bench.open_tables(instant=flow == "instant")
        await bench.hand(bench.chats[0], flow, 0)  # the first hand edits the lobby card: not a usual one
        calls, begins, statements = len(bench.transport.calls), bench.begins, Counter(bench.statements)
        for index in range(1, hands + 1):
            await bench.hand(bench.chats[0], flow, index)
        made = bench.transport.calls[calls:]
        verbs = bench.statements - statements
        return {
            "api": len(made) / hands,
            "methods": [c.method for c in made[: len(made) // hands]],
            "messages": sum(1 for c in made if c.ok and c.method in SEND) / hands,
            "transactions": (bench.begins - begins) / hands,
            "statements": sum(verbs.values()) / hands,
            "verbs": {verb: verbs[verb] / hands for verb in (*VERBS, "other") if verbs[verb]},
        }
    finally:
        await stop_application(bench.app)


async def bot_cpu(workdir: Path, hands: int) -> tuple[float, list[str]]:
    """CPU seconds per confirmed hand in the real bot, and the Bot API methods one hand calls."""
    bench = Bench(workdir, 1, counted=False)  # `costs` counts the statements
    await start_application(bench.app)
    try:
        await bench.open_tables()
        await bench.hand(bench.chats[0], "default", 0)  # warm: imports, first queries, caches
        start = len(bench.transport.calls)
        await bench.hand(bench.chats[0], "default", 1)
        methods = [c.method for c in bench.transport.calls[start:]]
        began = time.process_time()
        for index in range(hands):
            await bench.hand(bench.chats[0], "default", index)
        return (time.process_time() - began) / hands, methods
    finally:
        await stop_application(bench.app)


async def bare_cpu(hands: int, methods: list[str]) -> float:
    """CPU seconds per hand of a bare PTB Application answering the same updates with the same calls:
    a message with two buttons for the command, then, on the press, the bot's calls in the bot's order."""
    transport = SlowBotAPI(0.0, seed=0)
    for index, name in enumerate(PLAYERS):
        transport.add_user(name, user_id=1001 + index)
    transport.add_group(FIRST_CHAT, "bare", creator="ann")
    app = Application.builder().token("123:BARE").request(transport).get_updates_request(transport).build()
    on_press = methods[methods.index("sendMessage") + 1 :] if "sendMessage" in methods else []
    card: dict[str, int] = {}

    async def hu(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.effective_chat is not None
        chat = update.effective_chat.id
        if "card" not in card:
            card["card"] = (await context.bot.send_message(chat, "card")).message_id
        buttons = InlineKeyboardMarkup(
            [
                [
                    InlineKeyboardButton(CONFIRM, callback_data="c"),
                    InlineKeyboardButton("✖ 取消", callback_data="x"),
                ]
            ]
        )
        await context.bot.send_message(chat, "第1局 preview", reply_markup=buttons)

    async def press(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        assert query is not None and isinstance(query.message, Message) and update.effective_chat is not None
        chat, edits = update.effective_chat.id, 0
        for method in on_press:
            if method == "answerCallbackQuery":
                await query.answer("ok")
            elif method == "editMessageText":
                target = query.message.message_id if edits == 0 else card["card"]
                card["hands"] = card.get("hands", 0) + 1
                text = f"第{card['hands']}局 南 自摸 → {edits}"
                await context.bot.edit_message_text(text, chat_id=chat, message_id=target)
                edits += 1

    app.add_handler(CommandHandler("hu", hu))
    app.add_handler(CallbackQueryHandler(press))
    await start_application(app)

    async def deliver(update: dict[str, Any]) -> None:
        parsed = Update.de_json(update, app.bot)
        await app.update_processor.process_update(parsed, app.process_update(parsed))
        await settle(app)

    async def one() -> None:
        await deliver(transport.message(FIRST_CHAT, "ann", HANDS[0]))
        await deliver(transport.press(FIRST_CHAT, "bob", None, CONFIRM))

    try:
        await one()
        began = time.process_time()
        for _ in range(hands):
            await one()
        return (time.process_time() - began) / hands
    finally:
        await stop_application(app)


# ---- burst and paced -------------------------------------------------------------------------------------


async def timed_hand(
    bench: Bench, chat: int, index: int, spent: list[float], previews: list[float] | None = None
) -> None:
    """Seconds from a /hu to its result into `spent`; to its preview into `previews`, given."""
    start, shown = time.perf_counter(), []
    await bench.hand(chat, "default", index, shown)
    spent.append(time.perf_counter() - start)
    if previews is not None:
        previews.append(shown[0] - start)


async def burst(workdir: Path, tables: int, rounds: int, delay: float) -> tuple[list[float], list[float]]:
    """Seconds from each /hu to its preview, and to its result, while every table records a hand at the
    same moment."""
    bench = Bench(workdir, tables, delay)
    await start_application(bench.app)
    try:
        bench.transport.delay = 0.0
        await bench.open_tables()
        bench.transport.delay = delay
        spent: list[float] = []
        previews: list[float] = []
        for index in range(rounds):
            await asyncio.gather(*(timed_hand(bench, chat, index, spent, previews) for chat in bench.chats))
        return previews, spent
    finally:
        await stop_application(bench.app)


async def paced(workdir: Path, tables: int, seconds: float, delay: float) -> tuple[list[float], float]:
    """Seconds from each /hu to its result when each table's one hand starts at a random moment of a window
    of `seconds`; and the CPU share of one core the process used meanwhile."""
    bench = Bench(workdir, tables, delay)
    await start_application(bench.app)
    try:
        bench.transport.delay = 0.0
        await bench.open_tables()
        await asyncio.gather(*(bench.hand(chat, "default", 0) for chat in bench.chats))  # the lobby card
        bench.transport.delay = delay
        moments = random.Random(0)
        spent: list[float] = []

        async def later(chat: int, at: float) -> None:
            await asyncio.sleep(at)
            await timed_hand(bench, chat, 1, spent)

        began, cpu = time.perf_counter(), time.process_time()
        await asyncio.gather(*(later(chat, moments.uniform(0, seconds)) for chat in bench.chats))
        share = (time.process_time() - cpu) / (time.perf_counter() - began)
        return spent, share
    finally:
        await stop_application(bench.app)


# ---- limits ---------------------------------------------------------------------------------------------


async def back_to_back(workdir: Path, hands: int, limiter: BaseRateLimiter[Any]) -> list[float]:
    """Seconds of each /hu → result of a table recording `hands` hands back to back under `limiter`
    (the setup's messages before it, not counted)."""
    bench = Bench(workdir, 1)
    await start_application(bench.app)
    try:
        await bench.open_tables()
        bench.app.bot._rate_limiter = limiter  # type: ignore[attr-defined]
        spent: list[float] = []
        for index in range(hands):
            await timed_hand(bench, bench.chats[0], index, spent)
        return spent
    finally:
        await stop_application(bench.app)


# ---- summary ---------------------------------------------------------------------------------------------


async def prepare_summary(workdir: Path, hands: int) -> list[int]:
    """Two tables with `hands` live hands each (two by /hu and Confirm, the rest bulk-loaded), ended by
    nobody yet: the chats."""
    from bench.ledger import bulk_load

    bench = Bench(workdir, 2)
    await start_application(bench.app)
    try:
        ledger = bench.app.bot_data["ledger"]
        for chat in bench.chats:
            await bench.open_table(chat)
            typed = min(hands, 2)
            for index in range(typed):
                await bench.hand(chat, "default", index)
            session = groups.chat_state(ledger, chat).session
            if hands > typed:
                await asyncio.to_thread(bulk_load, ledger, session.id, hands - typed, chat)
            assert groups.chat_state(ledger, chat).session.hands_played >= hands, "the session was not filled"
        (workdir / CHATS_FILE).write_text(json.dumps(bench.transport.state.snapshot(), ensure_ascii=False))
        return bench.chats
    finally:
        await stop_application(bench.app)


async def end_to_card(bench: Bench, chat: int) -> float:
    """Seconds from /end's Confirm press to the summary card's sendMessage."""
    await bench.say(chat, "ann", "/end")
    update = bench.transport.press(chat, "ann", None, END_CONFIRM)
    start, first = time.time(), len(bench.transport.calls)
    await bench.deliver(update)
    summary_id = _summary_message(bench, chat)
    for call in bench.transport.calls[first:]:
        if call.ok and call.method == "sendMessage" and call.result.get("message_id") == summary_id:
            return call.at - start
    raise AssertionError(f"no summary card came in chat {chat}")


def _summary_message(bench: Bench, chat: int) -> int:
    ledger = bench.app.bot_data["ledger"]
    newest = ledger.read(books.history, chat, limit=1)[0]
    message = ledger.read(sessions.get_session, newest.session.id).summary_message_id
    assert message is not None, "the summary card was not marked sent"
    return int(message)


async def summary_child(workdir: Path, chats: list[int]) -> dict[str, float]:
    """In a fresh process: the first /end → card (cold), then the next (warm); and the process's peak
    memory (max RSS) once started, and once both summaries are wholly posted (card, chart, CSV)."""
    bench = Bench(workdir, len(chats), first=chats[0], seed=1)  # other callback query ids
    bench.transport.state.restore(json.loads((workdir / CHATS_FILE).read_text()))  # the chats as they are
    await start_application(bench.app)
    try:
        before = _peak_mb()
        cold = await end_to_card(bench, chats[0])
        warm = await end_to_card(bench, chats[1])
        await settle(bench.app)  # the charts and CSVs drawn and sent after the cards
        return {"cold": cold, "warm": warm, "peak_before": before, "peak_after": _peak_mb()}
    finally:
        await stop_application(bench.app)


def _peak_mb() -> float:
    """This process's peak resident memory so far, in MB (Linux reports ru_maxrss in KB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def summary_times(workdir: Path, hands: int) -> dict[str, float]:
    chats = asyncio.run(prepare_summary(workdir, hands))
    child = subprocess.run(
        [sys.executable, __file__, f"--summary-child={json.dumps([str(workdir), chats])}"],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
        timeout=900,
    )
    if child.returncode != 0:
        raise RuntimeError(child.stderr[-3000:])
    return dict(json.loads(child.stdout.strip().splitlines()[-1]))


# ---- main ------------------------------------------------------------------------------------------------


def print_counts(name: str, row: dict[str, Any]) -> None:
    verbs = " ".join(f"{verb} {count:g}" for verb, count in row["verbs"].items())
    print(
        f"  {name:28s} {row['api']:5.1f} {row['messages']:9.1f} {row['transactions']:13.1f}"
        f" {row['statements']:11.1f}   ({verbs})"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--only", default=",".join(SECTIONS), help=f"sections, of {','.join(SECTIONS)}")
    parser.add_argument("--hands", type=int, default=8, help="hands per flow for the counts (default 8)")
    parser.add_argument("--cpu-hands", type=int, default=200, help="hands timed for CPU (default 200)")
    parser.add_argument(
        "--cpu-pairs", type=int, default=7, help="bot and peer CPU runs in turn, medians taken (default 7)"
    )
    parser.add_argument("--tables", type=int, default=50, help="tables recording at once (default 50)")
    parser.add_argument("--rounds", type=int, default=4, help="hands per table in the burst (default 4)")
    parser.add_argument("--api-ms", type=float, default=50.0, help="time of one Bot API call (default 50)")
    parser.add_argument("--paced-tables", type=int, default=1000, help="tables at a hand per 2 minutes")
    parser.add_argument("--pace-seconds", type=float, default=WINDOW, help="the 2 minutes, compressed to")
    parser.add_argument("--limit-hands", type=int, default=8, help="hands back to back (default 8)")
    parser.add_argument("--summary-hands", default="100,10000", help="session sizes for /end → card")
    parser.add_argument("--cpu-only", action="store_true", help="--only cpu (for py-spy)")
    parser.add_argument("--summary-child", help=argparse.SUPPRESS)  # JSON [folder, chats]
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    logging.getLogger("bot").setLevel(logging.ERROR)
    if args.summary_child:
        folder, chats = json.loads(args.summary_child)
        times = asyncio.run(summary_child(Path(folder), [int(c) for c in chats]))
        print(json.dumps(times))
        return 0
    only = {"cpu"} if args.cpu_only else set(args.only.split(","))
    delay = args.api_ms / 1000
    with tempfile.TemporaryDirectory(prefix="bench-bot-") as tmp:

        def folder(name: str) -> Path:
            path = Path(tmp) / name
            path.mkdir()
            return path

        if "cpu" in only:
            # Pairs in turn, the bot then the peer, on a shared and noisy machine: the medians of each and
            # the median of the pairs' ratios (one pair's peer figure alone varies by half).
            bots, bares = [], []
            for pair in range(args.cpu_pairs):
                cpu, methods = asyncio.run(bot_cpu(folder(f"cpu{pair}"), args.cpu_hands))
                bots.append(cpu)
                bares.append(asyncio.run(bare_cpu(args.cpu_hands, methods)))
            ratios = sorted(b / p for b, p in zip(bots, bares, strict=True))
            cpu, bare = statistics.median(bots), statistics.median(bares)
            row = asyncio.run(costs(folder("counts"), "default", args.hands))
            print(
                f"per confirmed hand (/hu → preview → Confirm → result + card), {args.cpu_hands} hands, "
                f"{args.cpu_pairs} pairs (medians):"
            )
            print(
                f"  Bot API calls {row['api']:g} ({', '.join(row['methods'])}), new messages "
                f"{row['messages']:g}, SQL transactions {row['transactions']:g}, "
                f"SQL statements {row['statements']:g}"
            )
            print(f"  CPU: the bot                      {cpu * 1000:7.2f} ms")
            print(
                f"  CPU: bare PTB Application, same calls {bare * 1000:6.2f} ms   "
                f"ratio {statistics.median(ratios):5.1f}x (pairs {ratios[0]:.1f}x to {ratios[-1]:.1f}x)"
            )
        if "flows" in only:
            print("\nper recorded hand              calls  messages  transactions  statements")
            names = {"default": "preview + Confirm", "instant": "instant group", "buttons": "/hu button flow"}
            for flow, name in names.items():
                print_counts(name, asyncio.run(costs(folder(flow), flow, args.hands)))
        if "burst" in only:
            previews, spent = asyncio.run(burst(folder("burst"), args.tables, args.rounds, delay))
            pressed = [whole - shown for shown, whole in zip(previews, spent, strict=True)]  # pressed at once
            print(
                f"\n{args.tables} tables pressing at once, {args.api_ms:g} ms a Bot API call, "
                f"{len(spent)} hands:\n"
                f"  /hu → preview            {spread(previews)}\n"
                f"  Confirm → result         {spread(pressed)}\n"
                f"  /hu → Confirm → result   {spread(spent)}"
            )
        if "paced" in only:
            spent, share = asyncio.run(paced(folder("paced"), args.paced_tables, args.pace_seconds, delay))
            rate = args.paced_tables / args.pace_seconds
            squeezed = (
                ""
                if args.pace_seconds == WINDOW
                else f", compressed {WINDOW / args.pace_seconds:g}x in time (the 2 minutes in "
                f"{args.pace_seconds:g} s)"
            )
            print(
                f"\n{args.paced_tables} tables at a hand per 2 minutes ({rate:.1f} hands/s{squeezed}), "
                f"{args.api_ms:g} ms a Bot API call, {len(spent)} hands:\n"
                f"  {spread(spent)}   CPU {share:.0%} of one core"
            )
        if "limits" in only:
            print(f"\n{args.limit_hands} hands back to back in one group (/hu → preview → Confirm → result):")
            for name, limiter in (
                ("the bot's TelegramRateLimiter", TelegramRateLimiter(max_retries=RATE_LIMIT_RETRIES)),
                ("PTB's AIORateLimiter", AIORateLimiter(max_retries=RATE_LIMIT_RETRIES)),
            ):
                spent = asyncio.run(back_to_back(folder(name.split()[-1]), args.limit_hands, limiter))
                print(f"  {name:30s} all {sum(spent):6.1f} s   the last hand {spent[-1] * 1000:6.0f} ms")
        if "summary" in only:
            print(
                "\n/end's Confirm → the summary card     cold (first after a start)   warm"
                "   peak memory: started → both summaries posted"
            )
            for size in (int(s) for s in args.summary_hands.split(",")):
                times = summary_times(folder(f"summary-{size}"), size)
                print(
                    f"  {size:6d} hands {times['cold'] * 1000:24.0f} ms {times['warm'] * 1000:12.0f} ms"
                    f"   {times['peak_before']:6.0f} → {times['peak_after']:.0f} MB"
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
