"""A reminder that could not be sent is sent later the same day.
Through the real Application's bot and ledger, on SQLite and PostgreSQL; the money it reminds of by hand."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from harness import END, Table
from telegram.error import NetworkError

from bot.jobs import sweeps
from bot.ledger.money import settling

SHANGHAI = ZoneInfo("Asia/Shanghai")


def _local_noon_after(hours: float) -> datetime:
    earliest = datetime.now(UTC) + timedelta(hours=hours)
    noon = earliest.astimezone(SHANGHAI).replace(hour=12, minute=0, second=0, microsecond=0)
    return (noon if noon >= earliest else noon + timedelta(days=1)).astimezone(UTC)


@pytest.mark.slow
async def test_a_reminder_whose_send_failed_is_sent_later_that_day(
    db_seated: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ann (东) self-draws 4 花, T = 9: Dan, Cat and Bob owe Ann 9 each (Ann +27). The first reminder's send
    fails (502); an hour later the same three transfers are reminded, once."""
    table = db_seated
    await table.say("zoe", "/schedule remind 24h")
    await table.say("ann", "/rules instant on")
    await table.say("ann", "/hu 东 自摸 4花")
    await table.say("ann", "/end")
    await table.press("ann", END)
    bot, ledger = table.app.bot, table.app.bot_data["ledger"]
    sent = sweeps._send_text
    calls: list[str] = []

    async def bad_gateway(*args: Any, **kwargs: Any) -> Any:
        calls.append("502")
        raise NetworkError("Bad Gateway")

    monkeypatch.setattr(sweeps, "_send_text", bad_gateway)
    due = _local_noon_after(25)
    before = len(table.replies())
    assert await sweeps.post_reminders(bot, ledger, due) == 0 and calls == ["502"]
    monkeypatch.setattr(sweeps, "_send_text", sent)
    assert await sweeps.post_reminders(bot, ledger, due + timedelta(hours=1)) == 1
    reminders = [r.text for r in table.replies()[before:]]
    assert reminders == [
        "⏰ 提醒：这些账还没结清——\n第1场 1. Dan → Ann 9\n第1场 2. Cat → Ann 9\n第1场 3. Bob → Ann 9\n"
        "付了请点结算消息下面的“我已付”或发 /paid，收款人点“已收到”。"
    ]
    assert await sweeps.post_reminders(bot, ledger, due + timedelta(hours=2)) == 0  # once a day
    assert sorted(ledger.read(settling.balance, table.chat_id).totals.values()) == [-9, -9, -9, 27]
