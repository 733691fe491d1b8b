"""The /schedule command: `/schedule weekly [day] [HH:MM]` turns the group's weekly leaderboard on,
`/schedule off` turns it off, `/schedule` shows it; `/schedule remind 24h` reminds the group of open
transfers (settling up), `/schedule remind off` stops that. Group admins only for changes.

The schedule is the group row (`weekly_schedule`, `weekly_day`, `weekly_time`, `timezone`); the weekly
sweep in bot.jobs reads it from there, so nothing else is scheduled here.
"""

from __future__ import annotations

import datetime as dtm
import re
from zoneinfo import ZoneInfo

from bot.grammar.errors import GrammarError
from bot.grammar.lexer import NUMBER_RE, parse_count, parse_number
from bot.handlers.callbacks import command
from bot.handlers.permissions import require
from bot.handlers.turn import Turn
from bot.ledger import GroupInfo
from bot.ledger.money import settling
from bot.ledger.options import BY_ID
from bot.ledger.play import groups
from bot.render.errors import Refusal
from bot.render.zones import zone_name
from bot.weekly import DEFAULT_WEEKDAY, DEFAULT_WEEKLY_TIME, WEEKDAYS, next_due

MAX_REMIND_HOURS = BY_ID["remind"].high
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

# An hour in any of the parser's numbers, minutes as two digits (7:5 is no time); ² ① ٣ are refused.
_TIME = re.compile(rf"^({NUMBER_RE})(?:[:：.]([0-9０-９]{{2}}))?$")
ON_WORDS = {"weekly", "on", "每周", "每週", "开", "開"}
REMIND_WORDS = {"remind", "提醒"}
_HOURS = re.compile(rf"^({NUMBER_RE})(h|小时|小時|个小时|個小時)?$|^({NUMBER_RE})(d|天)$")
OFF_WORDS = {"off", "stop", "关", "關", "关闭", "關閉"}


def parse_weekday(word: str) -> str | None:
    """`日`, `周日`, `星期天`, `sun`, `Sunday` → "sun"; None for anything else."""
    return _DAY_WORDS.get(word.strip().lower())


def parse_time(word: str) -> dtm.time | None:
    """`20:00`, `20：00`, `8`, `20.30` → a time of day; None when malformed or out of range."""
    match = _TIME.match(word.strip())
    if not match:
        return None
    try:
        hour = parse_number(match.group(1), low=0, high=23)
        minute = parse_number(match.group(2) or "0", low=0, high=59)
    except GrammarError:
        return None
    return dtm.time(hour, minute)


def describe(turn: Turn, group: GroupInfo, now: dtm.datetime) -> str:
    """The status line of the group's weekly post, with the next post time in the group's zone."""
    if not group.weekly_schedule:
        return turn.t("jobs.schedule_status_off")
    nxt = next_due(group.weekly_day, group.weekly_time, group.timezone, now)
    return turn.t(
        "jobs.schedule_status_on",
        day=turn.t(f"jobs.weekday_{group.weekly_day}"),
        time=group.weekly_time,
        tz=zone_name(turn.lang, group.timezone),
        next=f"{nxt.astimezone(ZoneInfo(group.timezone)):%Y-%m-%d %H:%M}",
    )


@command("schedule")
async def schedule(turn: Turn) -> None:
    """Show, turn on (with an optional day and time) or turn off the weekly leaderboard of this group."""
    words = turn.text.split()
    now = dtm.datetime.now(dtm.UTC)
    if not words:
        group = (await turn.run(groups.chat_state, turn.ledger, turn.chat_id)).group
        await turn.say(describe(turn, group, now))
        return
    head = words[0].lower()
    if head in REMIND_WORDS:
        await remind(turn, words[1:])
        return
    if head not in ON_WORDS | OFF_WORDS:
        raise Refusal("jobs.schedule_usage")
    await require(turn, "schedule", turn.session)
    if head in OFF_WORDS:
        await turn.run(
            groups.update_group, turn.ledger, turn.chat_id, weekly_schedule=False, key=turn.source_key
        )
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
            at = f"{time_of_day:%H:%M}"
            continue
        if any(ch.isdigit() for ch in word):
            raise Refusal("jobs.schedule_bad_time", value=word)
        raise Refusal("jobs.schedule_bad_day", value=word)
    # The last post is "now": a slot already past this week is not posted at once, the next one is.
    group = await turn.run(
        groups.update_group,
        turn.ledger,
        turn.chat_id,
        weekly_schedule=True,
        weekly_day=weekday,
        weekly_time=at,
        weekly_last_post_at=now,
        key=turn.source_key,
    )
    await turn.reply(
        "jobs.schedule_on",
        day=turn.t(f"jobs.weekday_{group.weekly_day}"),
        time=group.weekly_time,
        tz=zone_name(turn.lang, group.timezone),
    )


def parse_hours(word: str) -> int | None:
    """`24h`, `24`, `36小时`, `２４小时`, `两天`, `2d`, `1天` → hours (1–720); None otherwise."""
    match = _HOURS.match(word.strip().lower())
    if match is None:
        return None
    count = parse_count(match.group(1) or match.group(3))
    if count is None:
        return None
    hours = count if match.group(1) else count * 24
    return hours if 1 <= hours <= MAX_REMIND_HOURS else None


async def remind(turn: Turn, words: list[str]) -> None:
    """`/schedule remind 24h`: remind the group of open transfers after that long, at most once a day, by
    day; `/schedule remind off`; `/schedule remind`: the setting."""
    group = turn.state.group
    if not words:
        hours = group.settle["remind"]
        await turn.reply("jobs.remind_status_on" if hours else "jobs.remind_status_off", hours=hours)
        return
    await require(turn, "schedule", turn.session)
    word = words[0].lower()
    hours = 0 if word in OFF_WORDS else parse_hours(word)
    if hours is None or len(words) > 1:
        raise Refusal("jobs.remind_bad", value=" ".join(words), limit=MAX_REMIND_HOURS)
    await turn.run(settling.update_settle, turn.ledger, turn.chat_id, {"remind": hours}, key=turn.source_key)
    await turn.reply(
        "jobs.remind_on" if hours else "jobs.remind_off", hours=hours, tz=zone_name(turn.lang, group.timezone)
    )
