"""`setup_jobs(application)`: the persistent job store on the bot's database, added to PTB's JobQueue."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from sqlalchemy.engine import Engine
from telegram.ext import Application

from bot.jobs.store import JOBSTORE, DatabaseJobStore
from bot.ledger.db import is_sqlite

log = logging.getLogger(__name__)

WAKEUP_SECONDS = 60.0
RECONCILE_SECONDS = 600.0
CHECKPOINT_SECONDS = 5.0


async def _heartbeat_job(context: Any) -> None:
    """Touch `<data_dir>/heartbeat` for the container health check (`python -m bot.health`)."""
    from bot.health import heartbeat_path, write_heartbeat

    settings = context.bot_data.get("settings")
    data_dir = getattr(settings, "data_dir", None)
    if data_dir is None:
        return
    try:
        await asyncio.to_thread(write_heartbeat, heartbeat_path(data_dir))
    except OSError as exc:
        log.warning("cannot write the heartbeat in %s: %s", data_dir, exc)


async def _checkpoint_job(context: Any) -> None:
    """SQLite: copy the WAL into the database file in a worker thread, so that the hands committed on the
    event loop never pay for it (`LedgerService.checkpoint`, `bot.ledger.db.LOOP_AUTOCHECKPOINT_PAGES`)."""
    ledger = context.bot_data.get("ledger")
    if ledger is None:
        return
    try:
        await asyncio.to_thread(ledger.checkpoint)
    except Exception as exc:  # e.g. the disk is full: the next run tries again, the WAL keeps everything
        log.warning("WAL checkpoint failed: %s", exc)


async def _wakeup_job(context: Any) -> None:
    """Wake the scheduler so jobs added by another process sharing the database are seen within a minute.

    APScheduler sleeps until the next run time it knows of; a job another worker added for an earlier
    time would otherwise wait until then.
    """
    context.job_queue.scheduler.wakeup()


def setup_jobs(
    application: Application[Any, Any, Any, Any, Any, Any],
    *,
    database_url: str | None = None,
    engine: Engine | None = None,
) -> DatabaseJobStore:
    """Add the persistent job store (table `scheduled_jobs` in the ledger's database: the engine of
    `bot_data["ledger"]`, else `database_url` / `settings.database_url`) to the application's JobQueue.
    Called by `build_application`, before the application starts.

    Jobs stored by an earlier run come back by themselves when the scheduler starts (those missed while
    the bot was down run then). A start-up job, repeated every 10 minutes, schedules what the ledger says
    is missing: an idle end for each open session, the weekly post of groups that asked for it. A heartbeat
    file in the data directory, every 30 seconds, feeds the health check. On SQLite, a checkpoint every 5
    seconds moves the WAL into the database file off the event loop. In webhook mode a wake-up every
    minute lets several workers see each other's jobs.
    """
    from bot.jobs import tasks  # registers the persistent callbacks before any job is loaded

    job_queue = application.job_queue
    if job_queue is None:
        raise RuntimeError("the application has no JobQueue: install python-telegram-bot[job-queue]")
    scheduler = job_queue.scheduler
    existing = scheduler._jobstores.get(JOBSTORE)
    if isinstance(existing, DatabaseJobStore):
        return existing
    settings = application.bot_data.get("settings")
    owns_engine = False
    ledger_engine = getattr(application.bot_data.get("ledger"), "engine", None)
    if engine is None and database_url is None and isinstance(ledger_engine, Engine):
        engine = ledger_engine  # the ledger's own database and connection pool
    if engine is None:
        from bot.ledger.db import create_db_engine

        url = database_url or getattr(settings, "database_url", None)
        if not url:
            raise ValueError("setup_jobs needs the database url (settings.database_url or database_url=)")
        engine = create_db_engine(url)
        owns_engine = True
    store = DatabaseJobStore(job_queue, engine=engine, owns_engine=owns_engine)
    scheduler.add_jobstore(store, alias=JOBSTORE)
    # No misfire limit: the first run is due at once, however long the application takes to start.
    loose = {"misfire_grace_time": None, "coalesce": True}
    # A date trigger keeps a past run time (an interval trigger would skip to its next interval).
    job_queue.run_once(tasks.reconcile_job, when=0, name="jobs:reconcile-start", job_kwargs=loose)
    job_queue.run_repeating(
        tasks.reconcile_job,
        interval=RECONCILE_SECONDS,
        first=RECONCILE_SECONDS,
        name="jobs:reconcile",
        job_kwargs=loose,
    )
    from bot.health import HEARTBEAT_SECONDS

    job_queue.run_once(_heartbeat_job, when=0, name="jobs:heartbeat-start", job_kwargs=loose)
    job_queue.run_repeating(
        _heartbeat_job,
        interval=HEARTBEAT_SECONDS,
        first=HEARTBEAT_SECONDS,
        name="jobs:heartbeat",
        job_kwargs=loose,
    )
    if is_sqlite(engine):
        job_queue.run_repeating(
            _checkpoint_job,
            interval=CHECKPOINT_SECONDS,
            first=CHECKPOINT_SECONDS,
            name="jobs:checkpoint",
            job_kwargs=loose,
        )
    if getattr(settings, "mode", "polling") == "webhook":
        job_queue.run_repeating(
            _wakeup_job, interval=WAKEUP_SECONDS, first=WAKEUP_SECONDS, name="jobs:wakeup", job_kwargs=loose
        )
    log.info("persistent jobs stored in %r", store)
    return store
