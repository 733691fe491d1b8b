"""What a recorded hand costs where users and Telegram's limits feel it, through the real Application.

Per hand, for the default flow (/hu → preview → Confirm), an `instant` group (/hu commits) and the /hu
button flow (winner → how → 花 → 完成 → Confirm): Bot API calls, new chat messages (Telegram allows a bot
about 20 a minute in a group), and SQL transactions (BEGINs on the ledger's engine). Then the latency of a
hand (from the /hu update to the one-line result) while 50 tables record at once, every Bot API call
taking `--api-ms` (default 50 ms) as a real round trip does, updates going through the application's own
update processor as when polling.

Then the bot's own CPU time per confirmed hand (/hu → preview → Confirm → result and card, one table, no
delay), beside a bare PTB `Application` (the named peer: python-telegram-bot with no ledger, no scoring,
no catalogs) making the same Bot API calls of the same hand through the same in-process transport: the
difference is what the bot itself spends. `py-spy record -o out.txt --format raw -- python bench/bot.py
--cpu-only` shows where it goes.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
# `python bench/bot.py` puts bench/ first on the path, where this file would shadow the `bot` package.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))

from sqlalchemy import event  # noqa: E402
from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Message, Update  # noqa: E402
from telegram.ext import Application, CallbackQueryHandler, CommandHandler, ContextTypes  # noqa: E402

from bot.app import build_application  # noqa: E402
from bot.console.driver import AnyApplication, settle, start_application, stop_application  # noqa: E402
from bot.console.transport import InProcessBotAPI  # noqa: E402
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
# Per hand on the code before "The table's flow" (issue 13, commit eed410a: preview + Confirm left the
# preview and a second, one-line result message; instant one message; the flow five presses and 2 messages).
BASELINE: dict[str, dict[str, float]] = {  # measured: this script at eed410a (the flow pressed by bob)
    "default": {"api": 5, "messages": 2, "transactions": 4},
    "instant": {"api": 2, "messages": 1, "transactions": 2},
    "buttons": {"api": 13, "messages": 2, "transactions": 8},
}


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
    """The real bot on a SQLite file, `tables` groups with four seated players each, BEGINs counted."""

    def __init__(self, workdir: Path, tables: int, delay: float = 0.0) -> None:
        self.transport = SlowBotAPI(delay, seed=0)
        for index, name in enumerate(PLAYERS):
            self.transport.add_user(name, user_id=1001 + index)
        self.chats = [FIRST_CHAT - i for i in range(tables)]
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
        event.listen(self.app.bot_data["ledger"].engine, "begin", self._begin)

    def _begin(self, _connection: Any) -> None:
        self.begins += 1

    async def deliver(self, update: dict[str, Any]) -> None:
        """One update through the application's update processor, as polling hands it over."""
        parsed = Update.de_json(update, self.app.bot)
        await self.app.update_processor.process_update(parsed, self.app.process_update(parsed))
        await settle(self.app)

    async def say(self, chat: int, name: str, text: str) -> None:
        await self.deliver(self.transport.message(chat, name, text))

    async def press(self, chat: int, name: str, label: str) -> None:
        await self.deliver(self.transport.press(chat, name, None, label))

    async def open_tables(self, *, instant: bool = False) -> None:
        for chat in self.chats:
            await self.say(chat, "ann", "/newgame 苏州 1")
            for name in PLAYERS:
                await self.say(chat, name, "/join")
            await self.say(chat, "ann", "/dealer 东")
            if instant:
                await self.say(chat, "ann", "/rules instant on")

    async def hand(self, chat: int, flow: str, index: int) -> None:
        """One recorded hand in `chat` by `flow`; AssertionError if no one-line result came."""
        start = len(self.transport.calls)
        if flow == "buttons":
            await self.say(chat, "ann", "/hu")
            for label in FLOW_PRESSES:
                await self.press(chat, "ann", label)
            await self.press(chat, "bob", CONFIRM)
        else:
            await self.say(chat, "ann", HANDS[index % len(HANDS)])
            if flow == "default":
                await self.press(chat, "bob", CONFIRM)
        texts = [
            str(c.result.get("text", ""))
            for c in self.transport.calls[start:]
            if c.ok and isinstance(c.result, dict) and c.method in ("sendMessage", "editMessageText")
        ]
        assert any(text.startswith("第") and "局 " in text and "→" in text for text in texts), texts


async def costs(workdir: Path, flow: str, hands: int) -> dict[str, float]:
    """Bot API calls, new messages and transactions per hand of `flow` on one table."""
    bench = Bench(workdir, 1)
    await start_application(bench.app)
    try:
        await bench.open_tables(instant=flow == "instant")
        calls, begins = len(bench.transport.calls), bench.begins
        for index in range(hands):
            await bench.hand(bench.chats[0], flow, index)
        made = bench.transport.calls[calls:]
        return {
            "api": len(made) / hands,
            "messages": sum(1 for c in made if c.ok and c.method in SEND) / hands,
            "transactions": (bench.begins - begins) / hands,
        }
    finally:
        await stop_application(bench.app)


async def latency(workdir: Path, tables: int, rounds: int, delay: float) -> list[float]:
    """Seconds from each /hu to its result while every table records a hand at the same moment."""
    bench = Bench(workdir, tables, delay)
    await start_application(bench.app)
    try:
        delay, bench.transport.delay = bench.transport.delay, 0.0
        await bench.open_tables()
        bench.transport.delay = delay
        spent: list[float] = []

        async def one(chat: int, index: int) -> None:
            start = time.perf_counter()
            await bench.hand(chat, "default", index)
            spent.append(time.perf_counter() - start)

        for index in range(rounds):
            await asyncio.gather(*(one(chat, index) for chat in bench.chats))
        return spent
    finally:
        await stop_application(bench.app)


async def bot_cpu(workdir: Path, hands: int) -> tuple[float, list[str]]:
    """CPU seconds per confirmed hand in the real bot, and the Bot API methods one hand calls."""
    bench = Bench(workdir, 1)
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
        buttons = InlineKeyboardMarkup([[InlineKeyboardButton(CONFIRM, callback_data="c"),
                                         InlineKeyboardButton("✖ 取消", callback_data="x")]])
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--hands", type=int, default=8, help="hands per flow for the counts (default 8)")
    parser.add_argument("--tables", type=int, default=50, help="tables recording at once (default 50)")
    parser.add_argument("--rounds", type=int, default=4, help="hands per table under load (default 4)")
    parser.add_argument("--api-ms", type=float, default=50.0, help="time of one Bot API call (default 50)")
    parser.add_argument("--cpu-hands", type=int, default=200, help="hands timed for CPU (default 200)")
    parser.add_argument("--cpu-only", action="store_true", help="only the CPU comparison (for py-spy)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    logging.getLogger("bot").setLevel(logging.ERROR)
    with tempfile.TemporaryDirectory(prefix="bench-bot-") as tmp:
        folder = Path(tmp) / "cpu"
        folder.mkdir()
        cpu, methods = asyncio.run(bot_cpu(folder, args.cpu_hands))
        bare = asyncio.run(bare_cpu(args.cpu_hands, methods))
        print(f"CPU per confirmed hand (/hu → preview → Confirm → result + card), {args.cpu_hands} hands:")
        print(f"  the bot                         {cpu * 1000:7.2f} ms   Bot API calls: {', '.join(methods)}")
        print(f"  bare PTB Application, same calls {bare * 1000:6.2f} ms   ratio {cpu / bare:5.1f}x")
        if args.cpu_only:
            return 0
        rows = {}
        for flow in ("default", "instant", "buttons"):
            folder = Path(tmp) / flow
            folder.mkdir()
            rows[flow] = asyncio.run(costs(folder, flow, args.hands))
        folder = Path(tmp) / "load"
        folder.mkdir()
        spent = sorted(asyncio.run(latency(folder, args.tables, args.rounds, args.api_ms / 1000)))
    print("per recorded hand                     Bot API calls   new messages   SQL transactions")
    names = {
        "default": "preview + Confirm",
        "instant": "instant group",
        "buttons": "/hu button flow + Confirm",
    }
    for flow, row in rows.items():
        print(f"{names[flow]:36s} {row['api']:10.1f} {row['messages']:14.1f} {row['transactions']:16.1f}")
    for flow, base in BASELINE.items():
        before = f"{base['api']:10.1f} {base['messages']:14.1f} {base['transactions']:16.1f}"
        print(f"{'  before: ' + names[flow]:36s} {before}")
    print(f"taps per hand, button flow's common path (自摸 with a 花 count): {len(FLOW_PRESSES) + 1}")
    p99 = spent[min(len(spent) - 1, round(0.99 * (len(spent) - 1)))]
    print(
        f"\nlatency of a hand (/hu → preview → Confirm → result), {args.tables} tables at once, "
        f"{args.api_ms:g} ms a Bot API call, {len(spent)} hands:"
        f"\n  p50 {statistics.median(spent) * 1000:7.0f} ms    p99 {p99 * 1000:7.0f} ms"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
