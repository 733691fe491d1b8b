"""Scheduling the bot's persistent jobs: pending-entry expiry, idle session end, the weekly leaderboard.

Every persistent job has a fixed id (`expire:<pending>`, `idle-end:<chat>`, `weekly:<chat>`) and is added
with `replace_existing`, so scheduling again moves the job instead of duplicating it, and a restart finds
exactly the jobs that were scheduled. Jobs missed while the bot was down still run when it is back
(`misfire_grace_time`), once (`coalesce`).
"""

from __future__ import annotations

import datetime as dtm
import logging
from dataclasses import dataclass
from typing import Any
from zoneinfo import ZoneInfo

from apscheduler.jobstores.base import JobLookupError
from apscheduler.triggers.cron import CronTrigger
from telegram.ext import Application, Job, JobQueue

from bot.jobs.store import JOBSTORE, DatabaseJobStore

log = logging.getLogger(__name__)

App = Application[Any, Any, Any, Any, Any, Any]

DEFAULT_IDLE_END_HOURS = 6.0
DEFAULT_TIMEZONE = "Asia/Shanghai"  # Suzhou; a `timezone` setting overrides it
WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
DEFAULT_WEEKDAY = "sun"
DEFAULT_WEEKLY_TIME = dtm.time(20, 0)

# None = no limit: an expiry or idle end missed during downtime runs as soon as the bot is back.
EXPIRY_GRACE: int | None = None
IDLE_GRACE: int | None = None
WEEKLY_GRACE = 24 * 3600  # a leaderboard more than a day late is skipped; next week's comes anyway


def expiry_job_id(pending_id: str) -> str:
    """The fixed job id of a pending entry's expiry."""
    return f"expire:{pending_id}"


def idle_job_id(chat_id: int) -> str:
    """The fixed job id of a group's idle auto-end (one open session per group)."""
    return f"idle-end:{chat_id}"


def weekly_job_id(chat_id: int) -> str:
    """The fixed job id of a group's weekly leaderboard."""
    return f"weekly:{chat_id}"


def _job_queue(application: App) -> JobQueue[Any]:
    job_queue = application.job_queue
    if job_queue is None:
        raise RuntimeError("the application has no JobQueue: install python-telegram-bot[job-queue]")
    if JOBSTORE not in job_queue.scheduler._jobstores:
        raise RuntimeError("persistent jobs are not set up: call bot.jobs.setup_jobs(application) first")
    return job_queue


def _persistent_kwargs(job_id: str, grace: int | None) -> dict[str, Any]:
    return {
        "id": job_id,
        "replace_existing": True,
        "jobstore": JOBSTORE,
        "misfire_grace_time": grace,
        "coalesce": True,
        "max_instances": 1,
    }


def _aware(value: dtm.datetime) -> dtm.datetime:
    """Datetimes from SQLite come back naive; the ledger stores UTC."""
    return value if value.tzinfo is not None else value.replace(tzinfo=dtm.UTC)


def utcnow() -> dtm.datetime:
    """The current time, aware, in UTC."""
    return dtm.datetime.now(dtm.UTC)


def idle_hours(application: App) -> float:
    """The `idle_end_hours` setting (default 6)."""
    settings = application.bot_data.get("settings")
    hours = getattr(settings, "idle_end_hours", None)
    return float(hours) if hours else DEFAULT_IDLE_END_HOURS


def timezone_of(application: App) -> ZoneInfo:
    """The time zone weekly posts are scheduled in: the `timezone` setting, else Asia/Shanghai."""
    name = getattr(application.bot_data.get("settings"), "timezone", None) or DEFAULT_TIMEZONE
    return ZoneInfo(str(name))


def get_persistent_job(application: App, job_id: str) -> Job[Any] | None:
    """The scheduled persistent job with this id, rebuilt from the database, or None."""
    aps_job = _job_queue(application).scheduler.get_job(job_id, jobstore=JOBSTORE)
    return Job.from_aps_job(aps_job) if aps_job is not None else None


def _remove(application: App, job_id: str) -> bool:
    scheduler = _job_queue(application).scheduler
    if scheduler.get_job(job_id, jobstore=JOBSTORE) is None:
        return False
    try:
        scheduler.remove_job(job_id, jobstore=JOBSTORE)
    except JobLookupError:  # removed by another process in between
        return False
    return True


# --- pending-entry expiry --------------------------------------------------------------------------------


def schedule_expiry(application: App, chat_id: int, pending_id: str, expires_at: dtm.datetime) -> Job[Any]:
    """Expire pending entry `pending_id` at `expires_at` (the ledger's `PendingInfo.expires_at`): the
    ledger marks it expired and its preview message is edited to say so, without buttons.

    Call it after `create_pending` + `set_pending_message`. Confirm/cancel need not remove it (the job
    does nothing for an entry that is no longer pending), but `cancel_expiry` keeps the table small.
    """
    from bot.jobs.tasks import expire_pending_job

    return _job_queue(application).run_once(
        expire_pending_job,
        when=_aware(expires_at),
        chat_id=chat_id,
        name=expiry_job_id(pending_id),
        data={"pending_id": pending_id},
        job_kwargs=_persistent_kwargs(expiry_job_id(pending_id), EXPIRY_GRACE),
    )


def cancel_expiry(application: App, pending_id: str) -> bool:
    """Drop the expiry job of a confirmed or cancelled entry; False if there was none."""
    return _remove(application, expiry_job_id(pending_id))


# --- idle session end ------------------------------------------------------------------------------------


def touch_session(
    application: App,
    chat_id: int,
    session_id: int,
    *,
    last_activity: dtm.datetime | None = None,
    hours: float | None = None,
) -> Job[Any]:
    """(Re)schedule the idle auto-end of the group's open session `hours` (setting `idle_end_hours`)
    after `last_activity` (default now).

    Calling it when a session opens is enough: when the job fires it reads the session's last activity
    from the ledger and moves itself if a hand was recorded since. Calling it after each hand is cheap:
    without `last_activity`, an existing job for the same session is kept as it is (one read, no write).
    """
    from bot.jobs.tasks import idle_end_job

    hours = idle_hours(application) if hours is None else hours
    if hours <= 0:
        raise ValueError(f"idle_end_hours must be positive, not {hours}")
    if last_activity is None:
        existing = get_persistent_job(application, idle_job_id(chat_id))
        if existing is not None and existing.data == {"session_id": session_id, "hours": hours}:
            return existing
    due = _aware(last_activity or utcnow()) + dtm.timedelta(hours=hours)
    return _job_queue(application).run_once(
        idle_end_job,
        when=due,
        chat_id=chat_id,
        name=idle_job_id(chat_id),
        data={"session_id": session_id, "hours": hours},
        job_kwargs=_persistent_kwargs(idle_job_id(chat_id), IDLE_GRACE),
    )


def cancel_idle_end(application: App, chat_id: int) -> bool:
    """Drop the group's idle auto-end (after /end); False if there was none. Optional: the job does
    nothing for a session that has already ended."""
    return _remove(application, idle_job_id(chat_id))


# --- weekly leaderboard ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class WeeklySchedule:
    """When a group's leaderboard is posted: weekday (mon … sun), time of day, zone, and the next run."""

    weekday: str
    at: dtm.time
    timezone: str
    next_run: dtm.datetime | None


def weekly_schedule(application: App, chat_id: int) -> WeeklySchedule | None:
    """The group's weekly post as scheduled, or None when it is off."""
    aps_job = _job_queue(application).scheduler.get_job(weekly_job_id(chat_id), jobstore=JOBSTORE)
    if aps_job is None:
        return None
    fields = {f.name: str(f) for f in aps_job.trigger.fields}
    return WeeklySchedule(
        weekday=fields["day_of_week"],
        at=dtm.time(int(fields["hour"]), int(fields["minute"])),
        timezone=str(aps_job.trigger.timezone),
        next_run=getattr(aps_job, "next_run_time", None),
    )


def set_weekly(
    application: App,
    chat_id: int,
    *,
    enabled: bool,
    weekday: str = DEFAULT_WEEKDAY,
    at: dtm.time = DEFAULT_WEEKLY_TIME,
    timezone: str | None = None,
) -> WeeklySchedule | None:
    """Turn the group's weekly leaderboard on (every `weekday` at `at`, in the bot's time zone) or off.

    Only schedules; the caller stores the group flag (`LedgerService.update_group(weekly_schedule=...)`)
    so that a restart can tell groups that want the post (`handle_schedule` does both).
    """
    from bot.jobs.tasks import weekly_board_job

    job_id = weekly_job_id(chat_id)
    if not enabled:
        _remove(application, job_id)
        return None
    if weekday not in WEEKDAYS:
        raise ValueError(f"weekday must be one of {', '.join(WEEKDAYS)}, not {weekday!r}")
    zone = ZoneInfo(timezone) if timezone else timezone_of(application)
    trigger = CronTrigger(day_of_week=weekday, hour=at.hour, minute=at.minute, second=0, timezone=zone)
    _job_queue(application).run_custom(
        weekly_board_job,
        chat_id=chat_id,
        name=job_id,
        data={},
        job_kwargs={"trigger": trigger, **_persistent_kwargs(job_id, WEEKLY_GRACE)},
    )
    return WeeklySchedule(
        weekday=weekday, at=at, timezone=str(zone), next_run=trigger.get_next_fire_time(None, utcnow())
    )


def store_of(application: App) -> DatabaseJobStore:
    """The persistent job store added by `setup_jobs`."""
    store = _job_queue(application).scheduler._jobstores[JOBSTORE]
    assert isinstance(store, DatabaseJobStore)
    return store
