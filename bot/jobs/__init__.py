"""Scheduled jobs on PTB's JobQueue, persisted in the bot's database so they survive a restart.

`setup_jobs(application)` adds the job store; then `schedule_expiry`, `touch_session` and `set_weekly`
schedule the three jobs (pending-entry expiry, idle session end, weekly leaderboard), and `schedule` is the
/schedule command handler.
"""

from bot.jobs.scheduling import (
    WeeklySchedule,
    cancel_expiry,
    cancel_idle_end,
    get_persistent_job,
    schedule_expiry,
    set_weekly,
    touch_session,
    weekly_schedule,
)
from bot.jobs.setup import setup_jobs
from bot.jobs.store import JOBSTORE, DatabaseJobStore, persistent

__all__ = [
    "JOBSTORE",
    "DatabaseJobStore",
    "WeeklySchedule",
    "cancel_expiry",
    "cancel_idle_end",
    "get_persistent_job",
    "persistent",
    "schedule_expiry",
    "set_weekly",
    "setup_jobs",
    "touch_session",
    "weekly_schedule",
]
