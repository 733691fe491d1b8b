"""The sweeps on PTB's JobQueue, over ledger state: overdue previews expire, idle sessions end, weekly
boards post; each exactly once across two workers on one database, and after a restart.

A "worker" is an Application with its own Ledger on the shared database (SQLite always,
PostgreSQL with TEST_DATABASE_URL). The ledgers run on a test clock; the registered jobs are run by hand
(`Job.run`), the scheduler is never started, so nothing waits for real time.
"""

from __future__ import annotations

import asyncio
import datetime as dtm
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from jobs_game import CHAT, HANDS, PLAYERS, build_app, play, win

from bot.console.state import Call
from bot.console.transport import InProcessBotAPI
from bot.jobs import post_weekly_boards, setup_jobs, weekly_text
from bot.jobs.schedule import (
    EXPIRE_SECONDS,
    IDLE_SECONDS,
    REMIND_SECONDS,
    SUMMARY_SECONDS,
    WEEKLY_SECONDS,
)
from bot.ledger import Ledger, PendingInfo
from bot.ledger.play import groups, pending, recording, sessions
from bot.settings import Settings
from bot.weekly import WEEKDAYS

START = dtm.datetime(2024, 6, 12, 4, 0, tzinfo=dtm.UTC)  # a Wednesday, noon in Suzhou
EXPIRED_LINE = "这条记录已过期，没有记入。"


class Clock:
    """The ledgers' time: set by the test, shared by both workers."""

    def __init__(self, now: dtm.datetime = START) -> None:
        self.now = now

    def __call__(self) -> dtm.datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += dtm.timedelta(**delta)


def bot_api() -> InProcessBotAPI:
    """One Telegram for the workers of a test (the in-process Bot API), with the game's groups."""
    api = InProcessBotAPI()
    for chat in (CHAT, CHAT - 1, CHAT - 2):
        api.add_group(chat)
    return api


class Worker:
    """One bot process: an Application with the sweeps, on its own ledger service, talking to the test's
    Bot API; `calls` are the Bot API calls it made while it ran."""

    def __init__(self, db_url: str, clock: Clock, api: InProcessBotAPI, *, idle_end_hours: float = 6) -> None:
        self.api = api
        self.ledger = Ledger.from_url(db_url, clock=clock)
        settings = Settings(_env_file=None, idle_end_hours=idle_end_hours)  # type: ignore[call-arg]
        self.app: Any = build_app(api, ledger=self.ledger, settings=settings)
        self.errors: list[BaseException] = []
        self.app.add_error_handler(self._error)
        setup_jobs(self.app)
        self._span = (0, 0)

    async def _error(self, _update: object, context: Any) -> None:
        self.errors.append(context.error)

    async def __aenter__(self) -> Worker:
        self._span = (len(self.api.calls), -1)
        await self.app.initialize()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.app.shutdown()
        self._span = (self._span[0], len(self.api.calls))
        self.ledger.engine.dispose()

    @property
    def calls(self) -> list[Call]:
        """The calls made while this worker ran (for one worker at a time; two at once share them)."""
        start, end = self._span
        return self.api.calls[start : None if end < 0 else end]

    async def preview(self, chat_id: int) -> int:
        """A preview message in the chat (what /hu sends before it stores the entry): its message id."""
        message = await self.app.bot.send_message(chat_id, "📝 预览")
        return int(message.message_id)

    async def sweep(self, name: str) -> None:
        """Run the registered job `name` once, as the JobQueue would."""
        [job] = self.app.job_queue.get_jobs_by_name(name)
        await job.run(self.app)
        await asyncio.sleep(0)  # let a failing job's error handler task run
        assert not self.errors, self.errors

    def sent(self, *methods: str) -> list[Call]:
        """Successful calls of these methods made by this worker."""
        return [c for c in self.calls if c.ok and c.method in methods]


def pending_hand(ledger: Ledger, chat_id: int, message_id: int, seconds: int = 60) -> PendingInfo:
    """What /hu does: score from the table's snapshot, send the preview (message `message_id`), store."""
    entry = win("N", "self_draw", ["清一色"])
    session = groups.chat_state(ledger, chat_id).session
    assert session is not None
    return recording.create_pending(
        ledger,
        chat_id,
        "hand",
        entry,
        preview=recording.preview(ledger, chat_id, entry, session=session),
        base_version=session.version,
        message_id=message_id,
        text="/hu 北 自摸 5花 清一色",
        source_key=f"test:preview:{chat_id}:{message_id}",
        timeout_seconds=seconds,
    )


def slot_before(now: dtm.datetime, minutes: int) -> tuple[str, str]:
    """The weekday and HH:MM (Suzhou time) `minutes` before `now`."""
    local = (now - dtm.timedelta(minutes=minutes)).astimezone(ZoneInfo("Asia/Shanghai"))
    return WEEKDAYS[local.weekday()], f"{local:%H:%M}"


def real_now() -> dtm.datetime:
    return dtm.datetime.now(dtm.UTC)


def test_setup_adds_the_sweeps_and_no_job_store() -> None:
    app: Any = build_app(bot_api())
    setup_jobs(app)
    setup_jobs(app)  # again: nothing more
    jobs = {job.name: job.job.trigger for job in app.job_queue.jobs()}
    assert set(jobs) == {
        "jobs:expire",
        "jobs:idle-end",
        "jobs:summaries",
        "jobs:weekly",
        "jobs:remind",
        "jobs:heartbeat",
        "jobs:heartbeat-start",
    }
    assert jobs["jobs:expire"].interval == dtm.timedelta(seconds=EXPIRE_SECONDS)
    assert jobs["jobs:idle-end"].interval == dtm.timedelta(seconds=IDLE_SECONDS)
    assert jobs["jobs:summaries"].interval == dtm.timedelta(seconds=SUMMARY_SECONDS)
    assert jobs["jobs:weekly"].interval == dtm.timedelta(seconds=WEEKLY_SECONDS)
    assert jobs["jobs:remind"].interval == dtm.timedelta(seconds=REMIND_SECONDS)
    # no job store of ours (APScheduler adds its in-memory default on start): the due times are ledger data
    assert set(app.job_queue.scheduler._jobstores) <= {"default"}


async def test_overdue_preview_expires_and_its_message_is_edited(db_url: str) -> None:
    clock = Clock()
    async with Worker(db_url, clock, bot_api()) as bot:
        play(bot.ledger, hands=HANDS[:1], adjust=False)
        shown = await bot.preview(CHAT)
        entry = pending_hand(bot.ledger, CHAT, shown, seconds=60)
        clock.advance(seconds=59)
        await bot.sweep("jobs:expire")
        assert (
            not bot.sent("editMessageText")
            and bot.ledger.read(pending.get_pending, entry.id).status == "pending"
        )
        clock.advance(seconds=2)
        await bot.sweep("jobs:expire")
        [edit] = bot.sent("editMessageText")
        assert (edit.params["chat_id"], edit.params["message_id"]) == (CHAT, shown)
        assert "reply_markup" not in edit.params  # the Confirm/Cancel buttons are gone
        text = edit.params["text"]
        assert text.startswith("📝 预览 · 第2局") and text.endswith("\n" + EXPIRED_LINE)
        assert "入座玩家点“确认”" not in text  # the preview as it was, without the Confirm hint
        assert bot.ledger.read(pending.get_pending, entry.id).status == "expired"
        await bot.sweep("jobs:expire")
        assert len(bot.sent("editMessageText")) == 1


async def test_confirmed_entry_is_left_alone(db_url: str) -> None:
    clock = Clock()
    async with Worker(db_url, clock, bot_api()) as bot:
        play(bot.ledger, hands=[], adjust=False)
        shown = await bot.preview(CHAT)
        entry = pending_hand(bot.ledger, CHAT, shown)
        recording.confirm_pending(bot.ledger, entry.id, chat_id=CHAT, message_id=shown, by=PLAYERS[0])
        clock.advance(minutes=5)
        await bot.sweep("jobs:expire")
        assert not bot.sent("editMessageText")
        assert bot.ledger.read(pending.get_pending, entry.id).status == "committed"


async def test_preview_expires_after_a_restart(db_url: str) -> None:
    clock = Clock()
    api = bot_api()
    async with Worker(db_url, clock, api) as first:
        play(first.ledger, hands=HANDS[:1], adjust=False)
        shown = await first.preview(CHAT)
        waiting = pending_hand(first.ledger, CHAT, shown, seconds=60)
    clock.advance(minutes=10)  # the bot was down while the entry's time ran out
    async with Worker(db_url, clock, api) as second:
        await second.sweep("jobs:expire")
        [edit] = second.sent("editMessageText")
        assert edit.params["message_id"] == shown and edit.params["text"].endswith(EXPIRED_LINE)
        assert second.ledger.read(pending.get_pending, waiting.id).status == "expired"
    assert not first.sent("editMessageText")


@pytest.mark.slow
async def test_idle_session_ends_after_a_restart_and_posts_the_summary(db_url: str) -> None:
    clock = Clock()
    api = bot_api()
    async with Worker(db_url, clock, api) as first:
        table = play(first.ledger)
        clock.advance(hours=5, minutes=59)
        await first.sweep("jobs:idle-end")
        assert first.ledger.read(sessions.get_session, table.session_id).is_open
        assert [c.method for c in first.calls] == ["getMe"]
    clock.advance(hours=2)  # down when the six hours ran out
    async with Worker(db_url, clock, api) as second:
        await second.sweep("jobs:idle-end")
        session = second.ledger.read(sessions.get_session, table.session_id)
        assert session.status == "ended" and session.end_reason == "idle"
        sends = second.sent("sendMessage", "sendPhoto", "sendDocument")
        assert [c.method for c in sends] == ["sendMessage", "sendPhoto", "sendDocument"]
        card = sends[0].params["text"]
        assert card.startswith("⏰ 6小时没有新的一局") and "第1场自动结束" in card
        await second.sweep("jobs:idle-end")
        assert len(second.sent("sendMessage", "sendPhoto", "sendDocument")) == 3


@pytest.mark.slow
async def test_idle_end_waits_for_the_last_hand(db_url: str) -> None:
    clock = Clock()
    async with Worker(db_url, clock, bot_api()) as bot:
        table = play(bot.ledger, hands=HANDS[:1], adjust=False)
        clock.advance(hours=5)
        recording.commit(
            bot.ledger, table.chat_id, HANDS[1], source_key="late-hand"
        )  # activity: the idle time restarts
        clock.advance(hours=2)
        await bot.sweep("jobs:idle-end")
        assert bot.ledger.read(sessions.get_session, table.session_id).is_open and not bot.sent("sendMessage")
        clock.advance(hours=4, minutes=1)
        await bot.sweep("jobs:idle-end")
        assert not bot.ledger.read(sessions.get_session, table.session_id).is_open
        assert len(bot.sent("sendMessage")) == 1


async def test_session_ended_by_hand_is_not_ended_twice(db_url: str) -> None:
    clock = Clock()
    async with Worker(db_url, clock, bot_api()) as bot:
        table = play(bot.ledger, hands=HANDS[:2], adjust=False)
        sessions.end_session(bot.ledger, table.chat_id, session_id=table.session_id)  # /end came first
        clock.advance(hours=7)
        await bot.sweep("jobs:idle-end")
        assert not bot.sent("sendMessage", "sendPhoto", "sendDocument")
        assert bot.ledger.read(sessions.get_session, table.session_id).end_reason == "manual"


async def test_weekly_board_posts_once_also_after_a_restart(db_url: str) -> None:
    now = real_now()
    day, at = slot_before(now, 10)  # the group's slot came ten minutes ago
    clock = Clock(now - dtm.timedelta(hours=3))
    api = bot_api()
    async with Worker(db_url, clock, api) as first:
        table = play(first.ledger)
        sessions.end_session(first.ledger, table.chat_id, session_id=table.session_id)
        groups.update_group(first.ledger, CHAT, weekly_schedule=True, weekly_day=day, weekly_time=at)
    clock.now = now
    async with Worker(db_url, clock, api) as second:  # the bot was down at the slot
        await second.sweep("jobs:weekly")
        [post] = second.sent("sendMessage")
        assert post.params["chat_id"] == CHAT
        due = now.replace(second=0, microsecond=0) - dtm.timedelta(minutes=10)
        assert post.params["text"] == weekly_text(second.ledger, CHAT, "zh-Hans", now=due)
        week = post.params["text"].split("\n\n")[0]
        assert week.splitlines()[1] == "1. 李四 +850"  # 南's net of the session that ended this week
        await second.sweep("jobs:weekly")
        assert len(second.sent("sendMessage")) == 1
        last = groups.chat_state(second.ledger, CHAT).group.weekly_last_post_at
        assert last is not None and last.replace(tzinfo=dtm.UTC) >= due


async def test_weekly_board_is_skipped_when_a_day_late_or_just_turned_on(db_url: str) -> None:
    now = real_now()
    clock = Clock(now - dtm.timedelta(days=3))
    async with Worker(db_url, clock, bot_api()) as bot:
        table = play(bot.ledger)
        sessions.end_session(bot.ledger, table.chat_id, session_id=table.session_id)
        day, at = slot_before(now, 25 * 60)  # more than a day ago: next week's comes instead
        groups.update_group(bot.ledger, CHAT, weekly_schedule=True, weekly_day=day, weekly_time=at)
        await bot.sweep("jobs:weekly")
        day, at = slot_before(now, 10)  # what /schedule stores: the last post is the moment it was turned on
        groups.update_group(bot.ledger, CHAT, weekly_day=day, weekly_time=at, weekly_last_post_at=now)
        await bot.sweep("jobs:weekly")
        assert not bot.sent("sendMessage")
        # a week later the slot comes round
        assert await post_weekly_boards(bot.app.bot, bot.ledger, now=now + dtm.timedelta(days=7)) == 1
        assert len(bot.sent("sendMessage")) == 1


@pytest.mark.slow
async def test_each_job_runs_once_across_two_workers(db_url: str) -> None:
    rounds = 3  # each worker sweeps three times at once
    clock = Clock()
    api = bot_api()
    async with Worker(db_url, clock, api) as one, Worker(db_url, clock, api) as two:
        chats = [CHAT - i for i in range(3)]
        pendings, shown = [], []
        for chat in chats:
            play(one.ledger, chat, hands=HANDS[:1], adjust=False)
            shown.append(await one.preview(chat))
            pendings.append(pending_hand(one.ledger, chat, shown[-1], seconds=60))
        day, at = slot_before(real_now(), 10)
        for chat in chats:
            groups.update_group(one.ledger, chat, weekly_schedule=True, weekly_day=day, weekly_time=at)
        clock.advance(hours=7)  # every preview overdue, every session idle
        for name in ("jobs:expire", "jobs:idle-end", "jobs:weekly"):
            await asyncio.gather(*(worker.sweep(name) for _ in range(rounds) for worker in (one, two)))
        # both workers talk to one Bot API: its calls are what the two did together
        edits = [c for c in api.calls_of("editMessageText") if c.ok]
        edited = sorted((c.params["chat_id"], c.params["message_id"]) for c in edits)
        assert edited == sorted(zip(chats, shown, strict=True))
        sends = [c for c in api.calls_of("sendMessage") if c.ok]
        cards = [c for c in sends if c.params["text"].startswith("⏰")]
        assert sorted(c.params["chat_id"] for c in cards) == sorted(chats)
        boards = [c for c in sends if c.params["text"].startswith("📊")]
        assert sorted(c.params["chat_id"] for c in boards) == sorted(chats)
        assert {one.ledger.read(pending.get_pending, p.id).status for p in pendings} == {"expired"}


@pytest.mark.slow
async def test_due_summaries_post_once_across_two_workers(db_url: str) -> None:
    """Three sessions ended in the ledger whose summaries nobody posted (their worker stopped): two workers
    sweeping three times at once post each summary's card, chart and CSV exactly once."""
    clock = Clock()
    api = bot_api()
    async with Worker(db_url, clock, api) as one, Worker(db_url, clock, api) as two:
        chats = [CHAT - i for i in range(3)]
        for chat in chats:
            table = play(one.ledger, chat, hands=HANDS[:1], adjust=False)
            sessions.end_session(one.ledger, chat, session_id=table.session_id)
        clock.advance(seconds=61)  # past the minute the sweep leaves a summary to its ender
        await asyncio.gather(*(worker.sweep("jobs:summaries") for _ in range(3) for worker in (one, two)))
        sent = [c for c in api.calls if c.ok and c.method in ("sendMessage", "sendPhoto", "sendDocument")]
        cards = [c for c in sent if c.method == "sendMessage" and "第1场结束" in c.params["text"]]
        assert sorted(c.params["chat_id"] for c in cards) == sorted(chats)
        for method in ("sendPhoto", "sendDocument"):
            assert sorted(c.params["chat_id"] for c in sent if c.method == method) == sorted(chats)
