"""/schedule through the real Application: show, turn on with a day and time, turn off, bad input, admins
only; the group flag in the ledger and the persistent job follow."""

from __future__ import annotations

import datetime as dtm
import itertools
from pathlib import Path
from typing import Any

import pytest
from jobs_fakebot import RecordingRequest
from telegram import Update
from telegram.ext import CommandHandler

from bot.jobs.command import parse_time, parse_weekday, schedule
from bot.jobs.scheduling import weekly_schedule

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
    request = RecordingRequest()
    request.members.add(MEMBER)
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
    request: RecordingRequest = app.bot_data["request"]
    before = len(request.of("sendMessage"))
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
    replies = request.of("sendMessage")[before:]
    assert len(replies) == 1, replies
    return str(replies[0].params["text"])


async def test_weekly_on_status_off(app: Any) -> None:
    ledger = app.bot_data["ledger"]
    assert "关闭" in await say(app, "/schedule")
    reply = await say(app, "/schedule weekly 周五 21:30")
    assert reply == "好的：每周五 21:30（Asia/Shanghai）发一次本群排行榜。"
    assert ledger.get_group(CHAT).weekly_schedule
    plan = weekly_schedule(app, CHAT)
    assert plan is not None and (plan.weekday, plan.at) == ("fri", dtm.time(21, 30))
    status = await say(app, "/schedule")
    assert status.startswith("每周排行榜：每周五 21:30") and "下一次 20" in status
    assert await say(app, "/schedule off") == "每周排行榜已关闭。"
    assert weekly_schedule(app, CHAT) is None and not ledger.get_group(CHAT).weekly_schedule


async def test_defaults_bad_input_and_permissions(app: Any) -> None:
    assert "每周日 20:00" in await say(app, "/schedule weekly")
    assert "不认识的星期：周八" in await say(app, "/schedule weekly 周八")
    assert "时间格式不对：25:00" in await say(app, "/schedule weekly 25:00")
    assert "用法：/schedule weekly" in await say(app, "/schedule daily")
    assert "只有群管理员" in await say(app, "/schedule off", user=MEMBER)
    assert weekly_schedule(app, CHAT) is not None  # the member's /schedule off changed nothing


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
