"""Times in the group's time zone: `/rules timezone`, used by /history, /schedule and the CSV."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from harness import Table

from bot.handlers.views import local_dates
from bot.ledger.play import books, groups
from bot.render import history_text


async def test_rules_timezone_sets_and_validates_the_zone(seated_table: Table) -> None:
    turn = await seated_table.say("ann", "/rules timezone Asia/Tokyo")
    assert turn.text == "时区 已改为 Asia/Tokyo。"
    ledger = seated_table.app.bot_data["ledger"]
    assert groups.chat_state(ledger, seated_table.chat_id).group.timezone == "Asia/Tokyo"
    turn = await seated_table.say("ann", "/rules 时区 Mars/Base")
    assert turn.text.startswith("时区不能是“Mars/Base”。") and "例如 /rules 时区 北京" in turn.text
    turn = await seated_table.say("ann", "/rules 时区 台北")
    assert turn.text == "时区 已改为 Asia/Taipei。"
    turn = await seated_table.say("eve", "/rules timezone UTC")
    assert turn.text == "只有群管理员或开这场的人可以修改规则。"
    turn = await seated_table.say("ann", "/rules")
    assert "时区：台北时间" in turn.text.splitlines()


async def test_schedule_speaks_in_the_group_zone(seated_table: Table) -> None:
    await seated_table.say("zoe", "/rules timezone Europe/London")
    turn = await seated_table.say("zoe", "/schedule weekly 日 20:00")
    assert turn.text == "好的：每周日 20:00（伦敦时间）发一次本群排行榜。"
    turn = await seated_table.say("zoe", "/schedule")
    assert "（伦敦时间）" in turn.text and turn.text.endswith(" 20:00。")


async def test_history_dates_are_local(seated_table: Table) -> None:
    await seated_table.say("bob", "/hu 南 自摸 5花 清一色")
    await seated_table.press("cat", "✅ 确认")
    ledger = seated_table.app.bot_data["ledger"]
    late = datetime(2024, 1, 1, 23, 30, tzinfo=UTC)  # 07:30 the next morning in Shanghai
    summaries = [
        replace(s, session=replace(s.session, opened_at=late))
        for s in ledger.read(books.history, seated_table.chat_id)
    ]
    names = {pid: "x" for s in summaries for pid in s.totals}
    assert "2024-01-02" in history_text("zh-Hans", local_dates(summaries, "Asia/Shanghai"), names)
    assert "2024-01-01" in history_text("zh-Hans", local_dates(summaries, "America/New_York"), names)
