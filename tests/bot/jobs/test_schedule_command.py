"""/schedule through the real Application: show, turn on with a day and time, turn off, bad input, admins
only; the schedule is the group row in the ledger (day, time, zone, last post)."""

from __future__ import annotations

import datetime as dtm
import itertools
from pathlib import Path
from typing import Any

import pytest
from jobs_game import play
from telegram import Update
from telegram.ext import CommandHandler

from bot.console.transport import InProcessBotAPI
from bot.handlers.schedule import parse_time, parse_weekday, schedule
from bot.jobs import post_weekly_boards
from bot.ledger.play import groups, sessions
from bot.weekly import WEEKDAYS, next_due

CHAT = -100555
ADMIN, MEMBER = 11, 22
_updates = itertools.count(1)


@pytest.fixture
async def app(tmp_path: Path) -> Any:
    from bot.app import build_application
    from bot.settings import Settings

    settings = Settings(
        _env_file=None,
        telegram_bot_token="123:TEST",
        data_dir=tmp_path,  # type: ignore[call-arg]
        database_url=f"sqlite:///{tmp_path / 'bot.db'}",
    )
    request = InProcessBotAPI()
    admin = request.add_user("admin", user_id=ADMIN)
    member = request.add_user("member", user_id=MEMBER)
    request.add_group(CHAT, "table", admins=[admin])
    request.state.chat(CHAT).members.add(member["id"])
    application = build_application(settings, request=request, get_updates_request=request)
    if not any(
        isinstance(h, CommandHandler) and "schedule" in h.commands for h in application.handlers.get(0, [])
    ):
        application.add_handler(CommandHandler("schedule", schedule))
    application.bot_data["request"] = request
    await application.initialize()
    await application.start()
    yield application
    await application.stop()
    await application.shutdown()


async def say(app: Any, text: str, user: int = ADMIN) -> str:
    request: InProcessBotAPI = app.bot_data["request"]
    before = len(request.calls_of("sendMessage"))
    update = Update.de_json(
        {
            "update_id": next(_updates),
            "message": {
                "message_id": next(_updates) + 1000,
                "date": 0,
                "text": text,
                "chat": {"id": CHAT, "type": "supergroup", "title": "table"},
                "from": {"id": user, "is_bot": False, "first_name": f"u{user}"},
                "entities": [{"type": "bot_command", "offset": 0, "length": len(text.split()[0])}],
            },
        },
        app.bot,
    )
    await app.process_update(update)
    replies = request.calls_of("sendMessage")[before:]
    assert len(replies) == 1, replies
    return str(replies[0].params["text"])


async def test_weekly_on_status_off(app: Any) -> None:
    ledger = app.bot_data["ledger"]
    assert "关闭" in await say(app, "/schedule")
    before = dtm.datetime.now(dtm.UTC)
    reply = await say(app, "/schedule weekly 周五 21:30")
    assert reply == "好的：每周五 21:30（北京时间）发一次本群排行榜。"
    group = groups.chat_state(ledger, CHAT).group
    assert group.weekly_schedule and (group.weekly_day, group.weekly_time) == ("fri", "21:30")
    # turning it on counts as a post now: a slot already past this week is not posted at once
    assert group.weekly_last_post_at is not None
    assert group.weekly_last_post_at.replace(tzinfo=dtm.UTC) >= before.replace(microsecond=0)
    status = await say(app, "/schedule")
    nxt = next_due("fri", "21:30", "Asia/Shanghai", dtm.datetime.now(dtm.UTC))
    shown = nxt.astimezone(dtm.timezone(dtm.timedelta(hours=8)))
    assert status == f"每周排行榜：每周五 21:30（北京时间），下一次 {shown:%Y-%m-%d %H:%M}。"
    assert shown.weekday() == 4 and (shown.hour, shown.minute) == (21, 30)
    assert await say(app, "/schedule off") == "每周排行榜已关闭。"
    assert not groups.chat_state(ledger, CHAT).group.weekly_schedule
    assert "关闭" in await say(app, "/schedule")


async def test_defaults_bad_input_and_permissions(app: Any) -> None:
    ledger = app.bot_data["ledger"]
    assert "每周日 20:00" in await say(app, "/schedule weekly")
    assert "不认识的星期：周八" in await say(app, "/schedule weekly 周八")
    assert "时间格式不对：25:00" in await say(app, "/schedule weekly 25:00")
    assert "用法：/schedule weekly" in await say(app, "/schedule daily")
    assert "只有群管理员" in await say(app, "/schedule off", user=MEMBER)
    group = groups.chat_state(ledger, CHAT).group  # the refused commands changed nothing
    assert group.weekly_schedule and (group.weekly_day, group.weekly_time) == ("sun", "20:00")


async def test_turned_on_after_this_weeks_slot_it_posts_next_week(app: Any) -> None:
    ledger = app.bot_data["ledger"]
    table = play(ledger, CHAT)
    sessions.end_session(ledger, CHAT, session_id=table.session_id)
    now = dtm.datetime.now(dtm.UTC)
    slot = (now - dtm.timedelta(minutes=10)).astimezone(dtm.timezone(dtm.timedelta(hours=8)))
    day = WEEKDAYS[slot.weekday()]
    assert "发一次本群排行榜" in await say(app, f"/schedule weekly {day} {slot:%H:%M}")
    assert await post_weekly_boards(app.bot, ledger) == 0  # ten minutes late, but it was off then
    assert await post_weekly_boards(app.bot, ledger, now=now + dtm.timedelta(days=7)) == 1


def test_day_and_time_words() -> None:
    assert [parse_weekday(w) for w in ("日", "星期天", "週三", "Monday", "SAT", "周八")] == [
        "sun",
        "sun",
        "wed",
        "mon",
        "sat",
        None,
    ]
    assert [parse_time(w) for w in ("20:00", "8", "20：05", "24:00", "7:5")] == [
        dtm.time(20),
        dtm.time(8),
        dtm.time(20, 5),
        None,
        None,
    ]
