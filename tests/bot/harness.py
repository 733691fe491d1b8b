"""A group chat around the real Application for tests: players speak and press buttons, tests read replies."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from telegram.ext import Application, ContextTypes

from bot.console.driver import AnyApplication, deliver, settle, start_application, stop_application
from bot.console.state import JSON, Call
from bot.console.transport import InProcessBotAPI
from bot.ledger import Ledger
from bot.ledger.money import settling
from bot.ledger.play import groups
from bot.services import ledger_in
from bot.settings import Settings

GROUP_ID = -1001000000001
BASIC_GROUP_ID = -4000000001  # a basic group (type "group"), before Telegram makes it a supergroup
# The four players of the default table, in join order (E, S, W, N), and two people who are not seated.
PLAYERS: dict[str, int] = {"ann": 1001, "bob": 1002, "cat": 1003, "dan": 1004}
OTHERS: dict[str, int] = {"zoe": 1009, "eve": 1010}  # zoe created the group (an admin); eve only watches
SEND_METHODS = ("sendMessage", "sendPhoto", "sendDocument", "sendDice", "sendMediaGroup")
EDIT_METHODS = ("editMessageText", "editMessageReplyMarkup", "editMessageCaption")

# A 1×1 PNG: what a patched `bot.summary.chart.render_chart` draws where the drawing is not what is tested
# (tests/bot/summary/test_chart.py tests it).
TINY_PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082"
)


def make_settings(database_url: str, data_dir: Path) -> Settings:
    """Settings of a test bot: fake token, no .env, this database, data files in data_dir."""
    return Settings(
        _env_file=None,  # type: ignore[call-arg]
        telegram_bot_token="123:TEST",
        data_dir=data_dir,
        database_url=database_url,
        telegram_base_url=None,
    )


class Clock:
    """A ledger's time for tests that wait (retries, leases, the idle end): an hour ahead of the real one,
    so the JobQueue (real time) never finds a sweep due by itself; moved by the test."""

    def __init__(self) -> None:
        self.now = datetime.now(UTC).replace(microsecond=0) + timedelta(hours=1)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


@dataclass(frozen=True)
class Reply:
    """One message the bot put in the chat, as it looks now (after any edits)."""

    message_id: int
    kind: str  # "text", "photo", "document", "dice"
    text: str  # the text, or the caption of a photo/document ("" if none)
    buttons: tuple[str, ...]
    raw: JSON = field(repr=False)

    @property
    def rows(self) -> list[list[str]]:
        """Button labels row by row."""
        markup = self.raw.get("reply_markup") or {}
        return [[b["text"] for b in row] for row in markup.get("inline_keyboard", [])]

    @property
    def dice(self) -> int | None:
        return self.raw["dice"]["value"] if "dice" in self.raw else None

    @property
    def edited(self) -> bool:
        return "edit_date" in self.raw

    @classmethod
    def of(cls, message: Mapping[str, Any]) -> Reply:
        kind = next((k for k in ("photo", "document", "dice") if k in message), "text")
        markup = message.get("reply_markup") or {}
        labels = tuple(b["text"] for row in markup.get("inline_keyboard", []) for b in row)
        text = message.get("text") or message.get("caption") or ""
        return cls(message["message_id"], kind, text, labels, dict(message))


@dataclass
class Turn:
    """What the bot did in answer to one message or button press: the Bot API calls, in order."""

    calls: list[Call]

    @property
    def sent(self) -> list[Reply]:
        """New messages, as sent."""
        return [Reply.of(c.result) for c in self.calls if c.ok and c.method in SEND_METHODS]

    @property
    def texts(self) -> list[str]:
        """Texts (or captions) of the new messages."""
        return [r.text for r in self.sent]

    @property
    def text(self) -> str:
        """All new message texts joined by newlines (handy for `in` checks)."""
        return "\n".join(self.texts)

    @property
    def edits(self) -> list[Reply]:
        """Messages as they looked right after each successful edit."""
        return [
            Reply.of(c.result)
            for c in self.calls
            if c.ok and c.method in EDIT_METHODS and isinstance(c.result, dict)
        ]

    @property
    def answers(self) -> list[str]:
        """Texts of the callback-query answers (button toasts); "" for a silent answer."""
        return [str(c.params.get("text") or "") for c in self.calls if c.method == "answerCallbackQuery"]

    @property
    def failed(self) -> list[Call]:
        """Calls Telegram refused (status != 200)."""
        return [c for c in self.calls if not c.ok]

    def of(self, *methods: str) -> list[Call]:
        return [c for c in self.calls if c.method in methods]


class HandlerError(AssertionError):
    """A handler raised; the harness fails the test instead of letting PTB log and carry on."""


class Table:
    """A Telegram group chat with the bot in it, driven in-process.

    In a test (fixtures in tests/bot/conftest.py: `table`, `seated_table`, `pg_table`, `transport`):

        async def test_self_draw(seated_table: Table) -> None:  # seated, 东 dealing (`seat_four`)
            turn = await seated_table.say("ann", "/hu 南 自摸 5花")   # what the bot did in answer
            assert turn.sent[-1].buttons == ("✅ 确认", "✖ 取消")
            done = await seated_table.press("bob", "确认")          # newest message with that label
            assert done.texts[-1].startswith("第1局 南 自摸")
            assert "南 Bob" in seated_table.pinned().text            # the pinned card, as edited

    Users are registered with ids and usernames (`PLAYERS` ann bob cat dan = 1001-1004, `OTHERS` zoe, the
    group's creator, and eve; any other name on first use). `set_admins`, `set_can_pin`, `force_dice`
    change the chat; `run_jobs` runs scheduled jobs now. Handler exceptions fail the call (`strict=True`)
    with the original exception chained.
    """

    def __init__(
        self, app: AnyApplication, transport: InProcessBotAPI, chat_id: int = GROUP_ID, *, strict: bool = True
    ) -> None:
        self.app = app
        self.transport = transport
        self.state = transport.state
        self.chat_id = chat_id
        self.strict = strict
        self.handler_errors: list[BaseException] = []

    @classmethod
    async def start(
        cls,
        app: AnyApplication,
        transport: InProcessBotAPI,
        *,
        chat_id: int = GROUP_ID,
        title: str = "周五麻将",
        users: Mapping[str, int] | None = None,
        admins: Iterable[str] = (),
        creator: str | None = "zoe",
        can_pin: bool = True,
        strict: bool = True,
        rate_limiter: bool = False,
    ) -> Table:
        """Registers users and the group, then initializes and starts `app` (post_init included).

        `rate_limiter=False` takes the bot's rate limiter (`bot.app.TelegramRateLimiter`) out: Telegram's 20
        messages a minute per group would otherwise make a long test wait for minutes. Flood limits are
        Telegram's, not the bot's.
        """
        for name, user_id in {**PLAYERS, **OTHERS, **(users or {})}.items():
            if name.lower() not in transport.state.users:
                transport.add_user(name, user_id=user_id)
        if chat_id not in transport.state.chats:
            transport.add_group(chat_id, title, admins=admins, creator=creator, can_pin=can_pin)
        if not rate_limiter:
            app.bot._rate_limiter = None  # type: ignore[attr-defined]
        table = cls(app, transport, chat_id, strict=strict)
        app.add_error_handler(table._record_error)
        await start_application(app)
        return table

    async def stop(self) -> None:
        await stop_application(self.app)

    async def _record_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        if context.error is not None:
            self.handler_errors.append(context.error)

    # ---------------------------------------------------------------- acting

    def user(self, name: str) -> JSON:
        """The Telegram user dict of a name (id, username, first_name)."""
        return self.state.user(name)

    async def _run(self, update: JSON) -> Turn:
        start = len(self.state.calls)
        errors_before = len(self.handler_errors)
        await deliver(self.app, update)
        turn = Turn(self.state.calls[start:])
        new_errors = self.handler_errors[errors_before:]
        if self.strict and new_errors:
            raise HandlerError(f"handler raised {new_errors[0]!r}") from new_errors[0]
        return turn

    async def deliver(self, update: JSON) -> Turn:
        """Hand the bot an Update dict made elsewhere (a service message, a redelivery)."""
        return await self._run(update)

    def migrate(self, new_chat_id: int, *, by: str = "zoe") -> tuple[Table, JSON, JSON]:
        """Telegram turns this group into the supergroup `new_chat_id` (calls to this chat are refused with
        the new id from now on): the new chat's Table on the same bot, and the two service messages, not
        delivered yet (`migrate_to_chat_id` here, `migrate_from_chat_id` there)."""
        gone, came = self.state.migrate(self.chat_id, new_chat_id, by)
        moved = Table(self.app, self.transport, new_chat_id, strict=self.strict)
        moved.handler_errors = self.handler_errors  # the one error handler of the app records for both
        return moved, gone, came

    async def say(self, name: str, text: str, *, reply_to: int | None = None) -> Turn:
        """`name` sends `text` to the group; returns what the bot did in answer."""
        return await self._run(self.state.message(self.chat_id, name, text, reply_to=reply_to))

    async def press(
        self, name: str, button: str | int | tuple[int, int], *, message_id: int | None = None
    ) -> Turn:
        """`name` taps a button: by label on the newest message that has it, or on `message_id`
        (label, flat index or (row, column))."""
        return await self._run(self.state.press(self.chat_id, name, message_id, button))

    async def seat_guest(self, name: str, text: str, guest: str | None = None) -> Turn:
        """`name` sends `text` (`/join 老王`, `/sub 北 老王`) naming someone the group does not know, and
        answers the question with its [按客人 … 入座] (guest: the name, by default the command's last word);
        returns what the press did."""
        asked = await self.say(name, text)
        label = f"按客人 {guest or text.split()[-1]} 入座"
        assert any(label in reply.buttons for reply in asked.sent), asked.texts
        return await self.press(name, label)

    async def run_jobs(self, name_contains: str | None = None) -> int:
        """Runs scheduled JobQueue jobs now (e.g. the confirmation expiry); returns how many ran.

        With `name_contains`, every scheduled job whose name contains it, whenever it is due; without,
        the jobs due by now. Paused jobs (no next run time) never run. (PTB 22 leaves `Job.enabled`
        False unless it is set, so it cannot tell scheduled jobs apart.)"""
        assert self.app.job_queue is not None, "the application has no JobQueue"
        now = datetime.now(UTC)
        jobs = [
            j
            for j in self.app.job_queue.jobs()
            if not j.removed
            and j.next_t is not None
            and (name_contains in (j.name or "") if name_contains is not None else j.next_t <= now)
        ]
        for job in jobs:
            await job.run(self.app)
        await settle(self.app)
        return len(jobs)

    def set_admins(self, *names: str) -> None:
        self.state.set_admins(self.chat_id, names)

    def set_can_pin(self, can_pin: bool) -> None:
        self.state.set_can_pin(self.chat_id, can_pin)

    def force_dice(self, *values: int) -> None:
        self.state.force_dice(*values)

    # --------------------------------------------------------------- reading

    def calls(self, *methods: str) -> list[Call]:
        """Every Bot API call the bot made (of these methods), oldest first."""
        return self.transport.calls_of(*methods)

    def replies(self) -> list[Reply]:
        """The bot's messages in this chat as they look now, oldest first (deleted ones left out)."""
        return [Reply.of(m) for m in self.state.bot_messages(self.chat_id)]

    def last_reply(self) -> Reply:
        replies = self.replies()
        assert replies, "the bot has not said anything in this chat"
        return replies[-1]

    def last_text(self) -> str:
        return self.last_reply().text

    def message(self, message_id: int) -> Reply:
        """One of the bot's messages as it looks now."""
        return Reply.of(self.state.stored_message(self.chat_id, message_id))

    def buttons(self, message_id: int | None = None) -> list[str]:
        """Button labels of a message, or of the newest bot message that has buttons."""
        if message_id is not None:
            return list(self.message(message_id).buttons)
        for reply in reversed(self.replies()):
            if reply.buttons:
                return list(reply.buttons)
        return []

    def edits(self) -> list[Reply]:
        """Each successful edit, as the message looked right after it."""
        return [Reply.of(c.result) for c in self.calls(*EDIT_METHODS) if c.ok and isinstance(c.result, dict)]

    def pins(self) -> list[int]:
        """Message ids pinned in the chat now, oldest pin first."""
        return list(self.state.chat(self.chat_id).pinned)

    def pinned(self) -> Reply | None:
        """The message shown at the top of the chat (latest pin), as it looks now."""
        pins = self.pins()
        return self.message(pins[-1]) if pins else None

    def failed(self) -> list[Call]:
        """Calls Telegram refused so far."""
        return [c for c in self.state.calls if not c.ok]

    def find(self, predicate: Callable[[Reply], bool]) -> list[Reply]:
        return [r for r in self.replies() if predicate(r)]


async def open_table(
    build: Callable[[InProcessBotAPI], Application[Any, Any, Any, Any, Any, Any]],
    transport: InProcessBotAPI | None = None,
    **options: Any,
) -> Table:
    """Builds an application on a transport (`build(transport)`) and starts a Table around it."""
    transport = transport or InProcessBotAPI(seed=0)
    return await Table.start(build(transport), transport, **options)


async def seat_four(table: Table, *, dealer: str | None = "东", rules: str = "苏州") -> Table:
    """Opens a session (ann: /newgame 苏州 1), seats ann, bob, cat, dan at E, S, W, N and sets the first
    dealer (ann: /dealer 东; `dealer=None` leaves the table without one, as a table that has not chosen)."""
    await table.say("ann", f"/newgame {rules} 1")
    for name in PLAYERS:
        await table.say(name, "/join")
    ledger = table.app.bot_data["ledger"]
    session = groups.chat_state(ledger, table.chat_id).session
    assert session is not None, f"/newgame opened no session: {table.last_text()!r}"
    seated = {seat: player.username for seat, player in session.seats.items()}
    assert seated == dict(zip("ESWN", PLAYERS, strict=True)), f"seating went wrong: {seated}"
    if dealer is not None:
        await table.say("ann", f"/dealer {dealer}")
        assert groups.chat_state(ledger, table.chat_id).session.dealer_set, (
            f"/dealer failed: {table.last_text()!r}"
        )
    return table


# ---------------------------------------------------------------- what the money tests read

END = "✅ 结束并结算"  # /end's Confirm button


def ledger(table: Table) -> Ledger:
    """The table's ledger service."""
    return ledger_in(table.app.bot_data)


def summary(table: Table, number: int) -> Reply:
    """The summary message of session `number`, as it looks now (exactly one)."""
    found = [r for r in table.replies() if r.text.startswith(f"🀄 第{number}场结束")]
    assert len(found) == 1, [r.text[:30] for r in table.replies()]
    return found[0]


def money(table: Table) -> dict[str, int]:
    """Each person's open balance across sessions (+: is owed), by display name."""
    report = ledger(table).read(settling.balance, table.chat_id)
    names = {tr.payer.id: tr.payer.display_name for tr in report.transfers}
    names |= {tr.payee.id: tr.payee.display_name for tr in report.transfers}
    return {names[pid]: amount for pid, amount in report.totals.items()}


def by_person(table: Table) -> dict[int, int]:
    """Each person's open balance across sessions (+: is owed), by Telegram id."""
    report = ledger(table).read(settling.balance, table.chat_id)
    ids = {tr.payer.id: tr.payer.telegram_id for tr in report.transfers}
    ids |= {tr.payee.id: tr.payee.telegram_id for tr in report.transfers}
    return {ids[pid]: amount for pid, amount in report.totals.items()}
