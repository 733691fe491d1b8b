"""The bot's jobs across real restarts: pending-entry expiry, idle session end, weekly leaderboard.

Each test schedules in one Application, shuts it down (scheduler, job store, ledger engine), builds a new
Application and ledger service on the same database, and checks the job is restored and runs there, also
when it fell due while the bot was down. SQLite always, PostgreSQL with TEST_DATABASE_URL.
"""

from __future__ import annotations

import asyncio
import datetime as dtm
from types import SimpleNamespace
from typing import Any

from jobs_fakebot import RecordingRequest, build_app
from jobs_game import CHAT, HANDS, play, win

from bot.jobs import get_persistent_job, schedule_expiry, set_weekly, setup_jobs, touch_session
from bot.jobs.scheduling import expiry_job_id, idle_job_id, weekly_job_id, weekly_schedule
from bot.jobs.tasks import weekly_text
from bot.ledger import LedgerService


class Bot:
    """One run of the bot: an Application with its own ledger service on the shared database."""

    def __init__(self, db_url: str, *, idle_end_hours: float = 6) -> None:
        self.request = RecordingRequest()
        self.ledger = LedgerService.from_url(db_url)
        settings = SimpleNamespace(
            database_url=db_url,
            idle_end_hours=idle_end_hours,
            mode="polling",
            default_language="zh-Hans",
            timezone="Asia/Shanghai",
        )
        self.app: Any = build_app(self.request, ledger=self.ledger, settings=settings)
        setup_jobs(self.app)

    async def __aenter__(self) -> Bot:
        await self.app.initialize()
        await self.app.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.app.stop()
        await self.app.shutdown()
        self.ledger.engine.dispose()


def utcnow() -> dtm.datetime:
    return dtm.datetime.now(dtm.UTC)


async def eventually(check: Any, timeout: float = 8.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not check():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError("the job did not run in time")
        await asyncio.sleep(0.05)


async def test_pending_entry_expires_after_a_restart(db_url: str) -> None:
    async with Bot(db_url) as first:
        table = play(first.ledger, hands=HANDS[:1], adjust=False)
        pending = first.ledger.create_pending(
            table.chat_id,
            "hand",
            win("N", "self_draw", ["清一色"]),
            text="/hu 北 自摸 5花 清一色",
            timeout_seconds=1,
        )
        first.ledger.set_pending_message(pending.id, 555)
        schedule_expiry(first.app, table.chat_id, pending.id, pending.expires_at)
        assert get_persistent_job(first.app, expiry_job_id(pending.id)) is not None
        first.app.job_queue.scheduler.pause()  # the bot goes down before the entry expires
    # Down while the entry's two minutes (here one second) ran out.
    await asyncio.sleep(1.5)
    async with Bot(db_url) as second:
        await eventually(lambda: second.request.of("editMessageText"))
        [edit] = second.request.of("editMessageText")
        assert edit.params["message_id"] == 555 and edit.params["chat_id"] == table.chat_id
        assert "reply_markup" not in edit.params  # the Confirm/Cancel buttons are gone
        assert second.ledger.get_pending(pending.id).status == "expired"
        await eventually(lambda: get_persistent_job(second.app, expiry_job_id(pending.id)) is None)
    assert not first.request.of("editMessageText")


async def test_confirmed_entry_is_left_alone_by_its_expiry(db_url: str) -> None:
    async with Bot(db_url) as bot:
        table = play(bot.ledger, hands=[], adjust=False)
        pending = bot.ledger.create_pending(table.chat_id, "hand", HANDS[0], timeout_seconds=60)
        bot.ledger.set_pending_message(pending.id, 556)
        schedule_expiry(bot.app, table.chat_id, pending.id, utcnow() + dtm.timedelta(seconds=0.3))
        bot.ledger.confirm_pending(pending.id)
        await eventually(lambda: get_persistent_job(bot.app, expiry_job_id(pending.id)) is None)
        await asyncio.sleep(0.2)
        assert not bot.request.of("editMessageText")
        assert bot.ledger.get_pending(pending.id).status == "committed"


async def test_idle_session_ends_after_a_restart_and_posts_the_summary(db_url: str) -> None:
    hours = 1.0 / 3600  # one second instead of six hours
    async with Bot(db_url, idle_end_hours=hours) as first:
        table = play(first.ledger)
        job = touch_session(first.app, table.chat_id, table.session_id)
        assert job.data == {"session_id": table.session_id, "hours": hours}
        first.app.job_queue.scheduler.pause()
    await asyncio.sleep(1.5)  # idle while the bot is down
    async with Bot(db_url, idle_end_hours=hours) as second:
        await eventually(lambda: second.request.of("sendDocument"))
        session = second.ledger.get_session(table.session_id)
        assert session.status == "ended" and session.end_reason == "idle"
        card = second.request.of("sendMessage")[0].params["text"]
        assert card.startswith("⏰") and "第1场自动结束" in card
        assert [c.method for c in second.request.calls if c.method.startswith("send")] == [
            "sendMessage",
            "sendPhoto",
            "sendDocument",
        ]
        assert get_persistent_job(second.app, idle_job_id(table.chat_id)) is None


async def test_idle_end_waits_for_the_last_hand(db_url: str) -> None:
    hours = 1.2 / 3600
    async with Bot(db_url, idle_end_hours=hours) as bot:
        table = play(bot.ledger, hands=HANDS[:1], adjust=False)
        touch_session(bot.app, table.chat_id, table.session_id)
        await asyncio.sleep(0.6)
        bot.ledger.commit(table.chat_id, HANDS[1], source_key="late-hand")  # activity: the clock restarts
        last = bot.ledger.get_session(table.session_id).last_activity_at
        await asyncio.sleep(0.9)  # past the first deadline, before the second
        assert bot.ledger.get_session(table.session_id).is_open
        job = get_persistent_job(bot.app, idle_job_id(table.chat_id))
        assert job is not None and job.next_t is not None
        assert abs((job.next_t - (last + dtm.timedelta(hours=hours))).total_seconds()) < 0.01
        await eventually(lambda: not bot.ledger.get_session(table.session_id).is_open)
        await eventually(lambda: bot.request.of("sendDocument"))


async def test_session_ended_by_hand_is_not_ended_twice(db_url: str) -> None:
    async with Bot(db_url, idle_end_hours=0.5 / 3600) as bot:
        table = play(bot.ledger, hands=HANDS[:2], adjust=False)
        touch_session(bot.app, table.chat_id, table.session_id)
        bot.ledger.end_session(table.chat_id, session_id=table.session_id)  # /end came first
        await eventually(lambda: get_persistent_job(bot.app, idle_job_id(table.chat_id)) is None)
        await asyncio.sleep(0.2)
        assert not [c for c in bot.request.calls if c.method.startswith("send")]
        assert bot.ledger.get_session(table.session_id).end_reason == "manual"


async def test_open_session_without_a_job_gets_one_at_start(db_url: str) -> None:
    ledger = LedgerService.from_url(db_url)
    table = play(ledger, hands=HANDS[:1], adjust=False)  # opened with no job scheduled
    ledger.update_group(table.chat_id, weekly_schedule=True)
    ledger.engine.dispose()
    async with Bot(db_url) as bot:
        await eventually(lambda: get_persistent_job(bot.app, idle_job_id(table.chat_id)) is not None)
        await eventually(lambda: weekly_schedule(bot.app, table.chat_id) is not None)
        job = get_persistent_job(bot.app, idle_job_id(table.chat_id))
        assert job is not None and job.data["session_id"] == table.session_id
        last = bot.ledger.get_session(table.session_id).last_activity_at
        assert job.next_t is not None
        assert abs((job.next_t - last - dtm.timedelta(hours=6)).total_seconds()) < 1


async def test_weekly_leaderboard_survives_restart_and_runs_when_missed(db_url: str) -> None:
    async with Bot(db_url) as first:
        table = play(first.ledger)
        first.ledger.end_session(table.chat_id, session_id=table.session_id)
        first.ledger.update_group(table.chat_id, weekly_schedule=True)
        plan = set_weekly(first.app, table.chat_id, enabled=True, weekday="sun", at=dtm.time(20, 0))
        assert plan is not None and plan.next_run is not None
        stored = weekly_schedule(first.app, table.chat_id)
        assert stored is not None and (stored.weekday, stored.at, stored.timezone) == (
            "sun",
            dtm.time(20, 0),
            "Asia/Shanghai",
        )
        assert stored.next_run == plan.next_run
        local = plan.next_run.astimezone(dtm.timezone(dtm.timedelta(hours=8)))
        assert (local.weekday(), local.hour, local.minute) == (6, 20, 0)
        # Pretend Sunday 20:00 came ten minutes ago and the bot was down then.
        first.app.job_queue.scheduler.pause()
        get_persistent_job(first.app, weekly_job_id(table.chat_id)).job.modify(
            next_run_time=utcnow() - dtm.timedelta(minutes=10)
        )
    async with Bot(db_url) as second:
        await eventually(lambda: second.request.of("sendMessage"))
        [post] = second.request.of("sendMessage")
        assert post.params["chat_id"] == CHAT
        assert post.params["text"] == weekly_text(second.ledger, CHAT, "zh-Hans")
        week = post.params["text"].split("\n\n")[0]
        assert week.splitlines()[1] == "1. 李四 +850"  # 南's net of the session that ended this week
        # posted once, and the next post is next Sunday 20:00 again
        job = get_persistent_job(second.app, weekly_job_id(CHAT))
        assert job is not None and job.next_t is not None and job.next_t > utcnow()
        assert job.next_t == plan.next_run
        await asyncio.sleep(0.3)
        assert len(second.request.of("sendMessage")) == 1


async def test_weekly_off_removes_the_job(db_url: str) -> None:
    async with Bot(db_url) as bot:
        set_weekly(bot.app, CHAT, enabled=True)
        assert weekly_schedule(bot.app, CHAT) is not None
        set_weekly(bot.app, CHAT, enabled=False)
        assert weekly_schedule(bot.app, CHAT) is None


async def test_touch_after_each_hand_keeps_one_job(db_url: str) -> None:
    async with Bot(db_url) as bot:
        table = play(bot.ledger, hands=HANDS[:1], adjust=False)
        first = touch_session(bot.app, table.chat_id, table.session_id)
        again = touch_session(bot.app, table.chat_id, table.session_id)  # after the next hand: no write
        assert again.next_t == first.next_t
        # an explicit activity time, or another session, moves it
        later = utcnow() + dtm.timedelta(hours=1)
        moved = touch_session(bot.app, table.chat_id, table.session_id, last_activity=later)
        assert moved.next_t == later + dtm.timedelta(hours=6)
        assert [j.name for j in bot.app.job_queue.jobs() if j.name == idle_job_id(table.chat_id)] == [
            idle_job_id(table.chat_id)
        ]


async def test_sqlite_wal_is_checkpointed_by_a_job_off_the_event_loop(db_url: str) -> None:
    """On SQLite a repeating job moves the WAL into the database file in a worker thread (the hands
    committed on the event loop leave that to it); PostgreSQL needs no such job."""
    async with Bot(db_url) as bot:
        jobs = bot.app.job_queue.get_jobs_by_name("jobs:checkpoint")
        if not db_url.startswith("sqlite"):
            assert jobs == ()
            return
        assert len(jobs) == 1 and jobs[0].job.trigger.interval == dtm.timedelta(seconds=5)
        play(bot.ledger)
        copied: list[tuple[int, int] | None] = []
        original = bot.ledger.checkpoint

        def checkpoint() -> tuple[int, int] | None:
            copied.append(original())
            return copied[-1]

        bot.ledger.checkpoint = checkpoint  # type: ignore[method-assign]
        await jobs[0].run(bot.app)
        assert len(copied) == 1 and copied[0] is not None
        in_wal, done = copied[0]
        assert in_wal > 0 and done == in_wal
