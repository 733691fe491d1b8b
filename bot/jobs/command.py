"""The /schedule command: `/schedule weekly [day] [HH:MM]` turns the group's weekly leaderboard on,
`/schedule off` turns it off, `/schedule` shows it. Group admins only for changes."""

from __future__ import annotations

import datetime as dtm
import re
from zoneinfo import ZoneInfo

from bot.handlers.common import Refusal, Turn, command
from bot.jobs.scheduling import (
    DEFAULT_WEEKDAY,
    DEFAULT_WEEKLY_TIME,
    WEEKDAYS,
    WeeklySchedule,
    set_weekly,
    weekly_schedule,
)

_DAY_WORDS: dict[str, str] = {}
for _index, _day in enumerate(WEEKDAYS):
    _zh = "一二三四五六日"[_index]
    for _word in (_day, _zh, f"周{_zh}", f"週{_zh}", f"星期{_zh}", f"礼拜{_zh}", f"禮拜{_zh}"):
        _DAY_WORDS[_word] = _day
for _word in ("天", "周天", "週天", "星期天", "礼拜天", "禮拜天"):
    _DAY_WORDS[_word] = "sun"
_ENGLISH = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
for _index, _name in enumerate(_ENGLISH):
    _DAY_WORDS[_name] = WEEKDAYS[_index]

_TIME = re.compile(r"^(\d{1,2})(?:[:：.](\d{2}))?$")
ON_WORDS = {"weekly", "on", "每周", "每週", "开", "開"}
OFF_WORDS = {"off", "stop", "关", "關", "关闭", "關閉"}


def parse_weekday(word: str) -> str | None:
    """`日`, `周日`, `星期天`, `sun`, `Sunday` → "sun"; None for anything else."""
    return _DAY_WORDS.get(word.strip().lower())


def parse_time(word: str) -> dtm.time | None:
    """`20:00`, `20：00`, `8`, `20.30` → a time of day; None when malformed or out of range."""
    match = _TIME.match(word.strip())
    if not match:
        return None
    hour, minute = int(match.group(1)), int(match.group(2) or 0)
    if hour > 23 or minute > 59:
        return None
    return dtm.time(hour, minute)


def describe(turn: Turn, plan: WeeklySchedule | None) -> str:
    """The status line of the weekly post."""
    if plan is None:
        return turn.t("jobs.schedule_status_off")
    nxt = plan.next_run.astimezone(ZoneInfo(plan.timezone)) if plan.next_run else None
    return turn.t(
        "jobs.schedule_status_on",
        day=turn.t(f"jobs.weekday_{plan.weekday}"),
        time=f"{plan.at:%H:%M}",
        tz=plan.timezone,
        next=f"{nxt:%Y-%m-%d %H:%M}" if nxt else "-",
    )


@command("schedule")
async def schedule(turn: Turn) -> None:
    """Show, turn on (with an optional day and time) or turn off the weekly leaderboard of this group."""
    words = turn.text.split()
    application = turn.context.application
    if not words:
        await turn.say(describe(turn, weekly_schedule(application, turn.chat_id)))
        return
    head = words[0].lower()
    if head not in ON_WORDS | OFF_WORDS:
        raise Refusal("jobs.schedule_usage")
    if not await turn.is_admin():
        raise Refusal("jobs.schedule_admins_only")
    if head in OFF_WORDS:
        # The flag first: the periodic reconcile job re-adds a weekly job for a group still flagged.
        await turn.run(turn.ledger.update_group, turn.chat_id, weekly_schedule=False)
        set_weekly(application, turn.chat_id, enabled=False)
        await turn.reply("jobs.schedule_off")
        return
    weekday, at = DEFAULT_WEEKDAY, DEFAULT_WEEKLY_TIME
    for word in words[1:]:
        day = parse_weekday(word)
        if day is not None:
            weekday = day
            continue
        time_of_day = parse_time(word)
        if time_of_day is not None:
            at = time_of_day
            continue
        if any(ch.isdigit() for ch in word):
            raise Refusal("jobs.schedule_bad_time", value=word)
        raise Refusal("jobs.schedule_bad_day", value=word)
    await turn.run(turn.ledger.update_group, turn.chat_id, weekly_schedule=True)
    plan = set_weekly(application, turn.chat_id, enabled=True, weekday=weekday, at=at)
    assert plan is not None
    await turn.reply(
        "jobs.schedule_on",
        day=turn.t(f"jobs.weekday_{plan.weekday}"),
        time=f"{plan.at:%H:%M}",
        tz=plan.timezone,
    )
