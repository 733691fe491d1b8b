"""`setup_jobs(application)`: the sweeps and the heartbeat as plain repeating jobs on PTB's JobQueue.

Nothing is stored by the scheduler: what is due is ledger data, so every worker runs the same sweeps and a
restarted bot simply sweeps again (bot/jobs/sweeps.py).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from telegram.ext import Application, CallbackContext

from bot.health import HEARTBEAT_SECONDS, heartbeat_path, write_heartbeat
from bot.jobs.sweeps import (
    end_idle_sessions,
    expire_previews,
    post_due_summaries,
    post_reminders,
    post_weekly_boards,
)
from bot.ledger import Ledger
from bot.services import LEDGER, SETTINGS
from bot.settings import Settings

log = logging.getLogger(__name__)

Context = CallbackContext[Any, Any, Any, Any]

EXPIRE_SECONDS = 5.0  # a preview's Confirm lasts minutes: its "expired" line comes at most this late
IDLE_SECONDS = 60.0
SUMMARY_SECONDS = 30.0  # a summary whose post failed, or whose poster stopped, is retried this soon at most
WEEKLY_SECONDS = 60.0
REMIND_SECONDS = 300.0  # reminders are daily: a few minutes late is on time


def _ledger(context: Context) -> Ledger | None:
    ledger = context.bot_data.get(LEDGER)
    return ledger if isinstance(ledger, Ledger) else None


async def expire_job(context: Context) -> None:
    """Overdue previews expire and lose their buttons."""
    if (ledger := _ledger(context)) is not None:
        await expire_previews(context.bot, ledger)


def _settings(context: Context) -> Settings | None:
    settings = context.bot_data.get(SETTINGS)
    return settings if isinstance(settings, Settings) else None


async def idle_job(context: Context) -> None:
    """Sessions idle for the `idle_end_hours` setting end and post their summary."""
    settings = _settings(context)
    if settings is not None and (ledger := _ledger(context)) is not None:
        await end_idle_sessions(context.bot, ledger, settings.idle_end_hours)


async def summary_job(context: Context) -> None:
    """Summaries due (a failed send's retry time came, or their poster stopped) are posted."""
    settings = _settings(context)
    if settings is not None and (ledger := _ledger(context)) is not None:
        await post_due_summaries(context.bot, ledger, settings.idle_end_hours)


async def weekly_job(context: Context) -> None:
    """Weekly leaderboards whose slot has come are posted."""
    if (ledger := _ledger(context)) is not None:
        await post_weekly_boards(context.bot, ledger)


async def remind_job(context: Context) -> None:
    """Open transfers due a reminder are posted to their groups (by day, at most once a day)."""
    if (ledger := _ledger(context)) is not None:
        await post_reminders(context.bot, ledger)


async def heartbeat_job(context: Context) -> None:
    """Touch `<data_dir>/heartbeat` for the container health check (`python -m bot.health`)."""
    settings = _settings(context)
    if settings is None:
        return
    data_dir = settings.data_dir
    try:
        await asyncio.to_thread(write_heartbeat, heartbeat_path(data_dir))
    except OSError as exc:
        log.warning("cannot write the heartbeat in %s: %s", data_dir, exc)


SWEEPS = (
    (expire_job, EXPIRE_SECONDS, "jobs:expire"),
    (idle_job, IDLE_SECONDS, "jobs:idle-end"),
    (summary_job, SUMMARY_SECONDS, "jobs:summaries"),
    (weekly_job, WEEKLY_SECONDS, "jobs:weekly"),
    (remind_job, REMIND_SECONDS, "jobs:remind"),
)


def setup_jobs(application: Application[Any, Any, Any, Any, Any, Any]) -> None:
    """Add the five sweeps and the heartbeat (at start, then every 30 s) to the application's JobQueue.
    Called by `build_application`, before the application starts; a second call adds nothing."""
    job_queue = application.job_queue
    if job_queue is None:
        raise RuntimeError("the application has no JobQueue: install python-telegram-bot[job-queue]")
    if job_queue.get_jobs_by_name("jobs:heartbeat"):
        return
    # A sweep still running when its next turn comes is not started twice (APScheduler's max_instances).
    once = {"max_instances": 1, "coalesce": True}
    for callback, seconds, name in SWEEPS:
        job_queue.run_repeating(callback, interval=seconds, name=name, job_kwargs=once)
    # The first heartbeat as the bot starts, however long it takes to start (no misfire limit).
    job_queue.run_once(
        heartbeat_job, when=0, name="jobs:heartbeat-start", job_kwargs={"misfire_grace_time": None}
    )
    job_queue.run_repeating(heartbeat_job, interval=HEARTBEAT_SECONDS, name="jobs:heartbeat", job_kwargs=once)
