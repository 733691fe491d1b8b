"""The persistent job store across real restarts: a job scheduled by one Application is rebuilt and run by
the next one on the same database (SQLite, and PostgreSQL with TEST_DATABASE_URL)."""

from __future__ import annotations

import asyncio
import datetime as dtm
import json
from typing import Any

import pytest
from apscheduler.triggers.cron import CronTrigger
from jobs_fakebot import RecordingRequest, build_app
from sqlalchemy import create_engine, select, text
from telegram.ext import CallbackContext

from bot.jobs import JOBSTORE, persistent, setup_jobs
from bot.jobs.scheduling import _persistent_kwargs
from bot.jobs.store import TABLE, DatabaseJobStore, trigger_from_json, trigger_to_json

RUNS: list[tuple[int | None, Any]] = []


@persistent("test.record")
async def record(context: CallbackContext[Any, Any, Any, Any]) -> None:
    """A job that remembers it ran and says so in its chat."""
    assert context.job is not None
    RUNS.append((context.job.chat_id, context.job.data))
    await context.bot.send_message(context.job.chat_id, f"ran {context.job.name}")


async def not_registered(context: CallbackContext[Any, Any, Any, Any]) -> None:
    """A callback nobody registered with @persistent."""


@pytest.fixture(autouse=True)
def _clear_runs() -> None:
    RUNS.clear()


def now() -> dtm.datetime:
    return dtm.datetime.now(dtm.UTC)


async def start(url: str, request: RecordingRequest | None = None) -> Any:
    app = build_app(request or RecordingRequest())
    setup_jobs(app, database_url=url)
    await app.initialize()
    await app.start()
    return app


async def stop(app: Any) -> None:
    await app.stop()
    await app.shutdown()


def rows(url: str) -> list[dict[str, Any]]:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            result = conn.execute(text(f"SELECT job_state FROM {TABLE} ORDER BY id"))
            return [json.loads(r[0]) for r in result]
    finally:
        engine.dispose()


async def wait_for(predicate: Any, timeout: float = 5.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not predicate():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError("timed out waiting for the job")
        await asyncio.sleep(0.05)


async def test_job_survives_restart_and_runs_after_it(db_url: str) -> None:
    app = await start(db_url)
    app.job_queue.run_once(
        record,
        when=now() + dtm.timedelta(hours=1),
        chat_id=-100,
        name="later",
        data={"table": "苏州", "stake": 5},
        job_kwargs=_persistent_kwargs("t:later", None),
    )
    await stop(app)
    [stored] = rows(db_url)
    # Stored as readable JSON naming the callback, not as a pickle of the PTB job.
    assert stored["callback"] == "test.record"
    assert stored["chat_id"] == -100 and stored["data"] == {"table": "苏州", "stake": 5}

    request = RecordingRequest()
    app = await start(db_url, request)
    try:
        [job] = [j for j in app.job_queue.jobs() if j.name == "later"]
        assert job.callback is record and job.chat_id == -100 and job.data == {"table": "苏州", "stake": 5}
        assert job.next_t is not None and job.next_t > now() + dtm.timedelta(minutes=59)
        # Bring it forward: the rebuilt job runs in the new application, with the new bot.
        job.job.modify(next_run_time=now())
        await wait_for(lambda: RUNS)
        assert RUNS == [(-100, {"table": "苏州", "stake": 5})]
        await wait_for(lambda: request.of("sendMessage"))
        assert request.of("sendMessage")[0].params["text"] == "ran later"
        await wait_for(lambda: not rows(db_url))  # a one-off job is gone once it ran
    finally:
        await stop(app)


async def test_job_missed_during_downtime_runs_on_start(db_url: str) -> None:
    app = await start(db_url)
    app.job_queue.run_once(
        record,
        when=now() + dtm.timedelta(seconds=0.6),
        chat_id=1,
        name="missed",
        data={"n": 1},
        job_kwargs=_persistent_kwargs("t:missed", None),
    )
    # Grace of one second: this one is too late to run after the downtime below.
    app.job_queue.run_once(
        record,
        when=now() + dtm.timedelta(seconds=0.6),
        chat_id=2,
        name="stale",
        data={"n": 2},
        job_kwargs=_persistent_kwargs("t:stale", 1),
    )
    app.job_queue.scheduler.pause()  # however slow the shutdown, nothing runs in this process
    await stop(app)  # the bot is down when both were due
    await asyncio.sleep(2.2)
    assert len(rows(db_url)) == 2

    app = await start(db_url)
    try:
        await wait_for(lambda: RUNS)
        await wait_for(lambda: not rows(db_url))
        assert RUNS == [(1, {"n": 1})]  # the misfired job ran once; the stale one was skipped
    finally:
        await stop(app)


async def test_fixed_id_replaces_instead_of_duplicating(db_url: str) -> None:
    app = await start(db_url)
    try:
        for minutes in (10, 20, 30):
            when = now() + dtm.timedelta(minutes=minutes)
            app.job_queue.run_once(
                record,
                when=when,
                chat_id=5,
                name="idle",
                data={"m": minutes},
                job_kwargs=_persistent_kwargs("t:one", None),
            )
    finally:
        await stop(app)
    [stored] = rows(db_url)
    assert stored["data"] == {"m": 30}


async def test_two_processes_claim_each_due_job_once(db_url: str) -> None:
    app = await start(db_url)
    for i in range(5):
        app.job_queue.run_once(
            record,
            when=now() + dtm.timedelta(seconds=30),
            chat_id=i,
            name=f"j{i}",
            data={"i": i},
            job_kwargs=_persistent_kwargs(f"t:j{i}", None),
        )
    await stop(app)
    # Two workers' stores on one database read the due jobs before either has run or removed them:
    # only the first claims them; the second sees them again only once the lease ran out (its owner died).
    workers = [build_app(RecordingRequest()) for _ in range(2)]
    stores = [DatabaseJobStore(w.job_queue, url=db_url, lease_seconds=30) for w in workers]
    for worker, store in zip(workers, stores, strict=True):
        store.start(worker.job_queue.scheduler, JOBSTORE)
    try:
        due_at = now() + dtm.timedelta(seconds=40)
        seen_by_second = stores[1].due_rows(due_at.timestamp())  # read, then the first worker is faster
        first = stores[0].get_due_jobs(due_at)
        assert sorted(j.id for j in first) == [f"t:j{i}" for i in range(5)]
        assert len(seen_by_second) == 5
        assert not any(stores[1].claim(r.id, r.next_run_time, due_at.timestamp()) for r in seen_by_second)
        assert stores[1].get_due_jobs(due_at) == []
        assert stores[1].get_due_jobs(due_at + dtm.timedelta(seconds=31))  # lease expired: taken over
        # The claimed jobs are whole PTB jobs bound to the claiming worker's queue.
        assert first[0].args[0] is workers[0].job_queue and first[0].args[1].callback is record
    finally:
        for store in stores:
            store.shutdown()


async def test_unregistered_callback_is_refused(db_url: str) -> None:
    app = await start(db_url)
    try:
        with pytest.raises(ValueError, match="not registered with @persistent"):
            app.job_queue.run_once(not_registered, when=60, job_kwargs=_persistent_kwargs("t:bad", None))
        # A job in the default (memory) store needs no registration.
        app.job_queue.run_once(not_registered, when=60)
    finally:
        await stop(app)


async def test_unknown_stored_callback_is_skipped_and_kept(db_url: str) -> None:
    app = await start(db_url)
    app.job_queue.run_once(
        record,
        when=now() + dtm.timedelta(hours=1),
        chat_id=3,
        name="renamed",
        job_kwargs=_persistent_kwargs("t:renamed", None),
    )
    await stop(app)
    engine = create_engine(db_url)
    with engine.begin() as conn:
        state = json.loads(conn.execute(select(text("job_state")).select_from(text(TABLE))).scalar_one())
        state["callback"] = "gone.after.rename"
        conn.execute(text(f"UPDATE {TABLE} SET job_state = :s"), {"s": json.dumps(state)})
    engine.dispose()
    app = await start(db_url)
    try:
        assert [j for j in app.job_queue.jobs() if j.name == "renamed"] == []
    finally:
        await stop(app)
    assert rows(db_url)[0]["callback"] == "gone.after.rename"  # left for a human, not deleted


def test_cron_trigger_round_trips_through_json() -> None:
    from zoneinfo import ZoneInfo

    trigger = CronTrigger(day_of_week="sun", hour=20, minute=0, second=0, timezone=ZoneInfo("Asia/Shanghai"))
    again = trigger_from_json(json.loads(json.dumps(trigger_to_json(trigger))))
    start_at = dtm.datetime(2026, 11, 30, tzinfo=dtm.UTC)
    first = trigger.get_next_fire_time(None, start_at)
    assert again.get_next_fire_time(None, start_at) == first
    assert first == dtm.datetime(2026, 12, 6, 20, 0, tzinfo=ZoneInfo("Asia/Shanghai"))


def test_store_needs_a_database() -> None:
    from telegram.ext import JobQueue

    with pytest.raises(ValueError, match="database url or an engine"):
        DatabaseJobStore(JobQueue())
    assert JOBSTORE == "persistent"


@pytest.mark.slow
async def test_two_worker_processes_run_each_job_once(db_url: str) -> None:
    """Two real bot processes on one database, both running when 12 jobs fall due: each runs once."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    import jobs_worker

    engine = create_engine(db_url)
    jobs_worker.RUNS.create(engine, checkfirst=True)
    app = await start(db_url)
    due = now() + dtm.timedelta(seconds=6)  # both workers are up by then and wake together
    for i in range(12):
        app.job_queue.run_once(
            jobs_worker.count_run, when=due, name=f"job{i}", job_kwargs=_persistent_kwargs(f"t:job{i}", None)
        )
    app.job_queue.scheduler.pause()
    await stop(app)
    script = Path(jobs_worker.__file__)
    env = {**os.environ, "PYTHONPATH": str(script.parents[2])}
    stop_at = str(due.timestamp() + 3)
    workers = [
        subprocess.Popen(
            [sys.executable, str(script), db_url, name, stop_at],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for name in ("w1", "w2")
    ]
    results = [await asyncio.to_thread(w.communicate, timeout=120) for w in workers]
    for worker, (out, err) in zip(workers, results, strict=True):
        assert worker.returncode == 0, err
        assert "started" in out
    with engine.connect() as conn:
        runs = conn.execute(select(jobs_worker.RUNS.c.job, jobs_worker.RUNS.c.worker)).all()
    engine.dispose()
    assert sorted(job for job, _ in runs) == sorted(f"job{i}" for i in range(12))  # each exactly once
    assert not rows(db_url)
