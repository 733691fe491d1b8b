"""When a group's weekly leaderboard is due: pure time arithmetic on the group row's `weekly_day`
("mon" … "sun"), `weekly_time` ("HH:MM", wall clock in the group's `timezone`) and `weekly_last_post_at`.

No Telegram and no database: the weekly sweep (bot.jobs) and /schedule (bot.handlers.schedule) both ask
these functions, so the time a post is due and the time /schedule announces are the same.
"""

from __future__ import annotations

import datetime as dtm
from zoneinfo import ZoneInfo

from bot.ledger.play.groups import WEEKDAYS
from bot.ledger.storage.rows import aware

__all__ = [  # WEEKDAYS and aware are the ledger's own, re-exported for the sweep and /schedule
    "DEFAULT_TIMEZONE",
    "DEFAULT_WEEKDAY",
    "DEFAULT_WEEKLY_TIME",
    "GRACE",
    "WEEKDAYS",
    "aware",
    "due_post",
    "latest_due",
    "next_due",
    "time_of_day",
]
DEFAULT_WEEKDAY = "sun"
DEFAULT_WEEKLY_TIME = "20:00"
DEFAULT_TIMEZONE = "Asia/Shanghai"  # Suzhou
GRACE = dtm.timedelta(hours=24)  # a post more than a day late is skipped; next week's comes anyway


def time_of_day(text: str) -> dtm.time:
    """The time of day of a stored "HH:MM"; ValueError for anything else."""
    hour, _, minute = text.partition(":")
    return dtm.time(int(hour), int(minute))


def _slot(day: dtm.date, at: dtm.time, zone: ZoneInfo) -> dtm.datetime:
    return dtm.datetime.combine(day, at, tzinfo=zone).astimezone(dtm.UTC)


def latest_due(weekday: str, at: str, timezone: str, now: dtm.datetime) -> dtm.datetime:
    """The last slot (`weekday` at `at`, local time in `timezone`) at or before `now`, in UTC."""
    zone, when = ZoneInfo(timezone), time_of_day(at)
    local = aware(now).astimezone(zone)
    day = local.date() - dtm.timedelta(days=(local.weekday() - WEEKDAYS.index(weekday)) % 7)
    slot = _slot(day, when, zone)
    if slot > aware(now):
        slot = _slot(day - dtm.timedelta(days=7), when, zone)
    return slot


def next_due(weekday: str, at: str, timezone: str, now: dtm.datetime) -> dtm.datetime:
    """The first slot after `now`, in UTC (what /schedule shows as the next post)."""
    last = latest_due(weekday, at, timezone, now).astimezone(ZoneInfo(timezone))
    return _slot(last.date() + dtm.timedelta(days=7), time_of_day(at), ZoneInfo(timezone))


def due_post(
    weekday: str,
    at: str,
    timezone: str,
    last_post_at: dtm.datetime | None,
    now: dtm.datetime,
    *,
    grace: dtm.timedelta = GRACE,
) -> dtm.datetime | None:
    """The slot whose post is owed at `now`, or None: the latest slot, unless it was posted already (a post
    at or after it) or is more than `grace` late (the bot was down through it)."""
    due = latest_due(weekday, at, timezone, now)
    if aware(now) - due > grace:
        return None
    if last_post_at is not None and aware(last_post_at) >= due:
        return None
    return due
