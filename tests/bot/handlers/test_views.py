"""Reading the ledger through the bot: /score, /ledger, /history, /stats (anyone in the group may read),
and the all-time chart /history and /stats send after their text."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from harness import Table, Turn, seat_four
from telegram import Update

import bot.summary.chart as chart_module
from bot.console.driver import settle
from bot.summary.chart import PNG_SIGNATURE, ChartData
from tests.bot.summary.pictures import png_size


@pytest.fixture
def charts(monkeypatch: pytest.MonkeyPatch) -> list[ChartData]:
    """What every rendered chart showed (the real renderer still draws the PNG)."""
    drawn: list[ChartData] = []
    render = chart_module.render_chart

    def recording(data: ChartData, **kwargs: Any) -> bytes:
        drawn.append(data)
        return render(data, **kwargs)

    monkeypatch.setattr(chart_module, "render_chart", recording)
    return drawn


def photo_of(turn: Turn) -> tuple[bytes, str]:
    """The one PNG the bot sent in this turn, and its caption."""
    photos = turn.of("sendPhoto")
    assert len(photos) == 1, [c.method for c in turn.calls]
    png = photos[0].files["photo"].content
    assert png[:8] == PNG_SIGNATURE and png_size(png)[0] > 100
    return png, str(photos[0].params.get("caption"))


def lines_of(data: ChartData) -> dict[str, tuple[int, ...]]:
    return {series.name: series.totals for series in data.series}


async def play(table: Table) -> None:
    """Two hands and a side payment, recorded at once (instant mode)."""
    await table.say("ann", "/rules instant on")
    await table.say("bob", "/hu 南 自摸 5花 清一色 七对")  # S +120, others −40
    await table.say("cat", "/hu 西 冲 东 5花 清一色")  # W +20, E −20
    await table.say("dan", "/adjust 北 南 10 茶水")


async def test_score_shows_the_session_and_all_time_totals(seated_table: Table) -> None:
    await play(seated_table)
    turn = await seated_table.say("eve", "/score")
    assert turn.text == (
        "本场积分（苏州麻将，每花 1）：\n东 Ann −60\n南 Bob +130\n西 Cat −20\n北 Dan −50\n"
        # this session's money is known at its end
        "本群历史输赢（已结束的各场，按实际结算的钱）：\n没有记录。"
    )


async def test_score_of_one_player(seated_table: Table) -> None:
    await play(seated_table)
    turn = await seated_table.say("eve", "/score @cat")
    assert turn.text == "Cat：本场积分 −20，已结束各场实付 0"
    turn = await seated_table.say("eve", "/score 南")
    assert turn.text == "Bob：本场积分 +130，已结束各场实付 0"
    turn = await seated_table.say("eve", "/score nobody")
    assert turn.text == "nobody 在本群还没有打过牌，没有记录。"


async def test_score_before_anything_was_played(table: Table) -> None:
    turn = await table.say("eve", "/score")
    assert turn.text == "本群历史输赢（已结束的各场，按实际结算的钱）：\n没有记录。"


async def test_ledger_lists_every_row_with_totals(seated_table: Table) -> None:
    await play(seated_table)
    turn = await seated_table.say("eve", "/ledger")
    assert turn.text.splitlines() == [
        "📒 账本 · 苏州麻将 · 每花 1",
        "局 | 东Ann 南Bob 西Cat 北Dan",
        "1 南 自摸 40花 | −40 +120 −40 −40",
        "2 东 放冲，西 胡 20花 | −20 0 +20 0",
        "调 北→南 10 | 0 +10 0 −10",
        "合计 | −60 +130 −20 −50",
    ]


async def test_ledger_needs_a_session(table: Table) -> None:
    turn = await table.say("eve", "/ledger")
    assert turn.text == "本群现在没有在打的牌。先开一场，例如：/newgame 苏州 5"


@pytest.mark.slow
async def test_history_and_stats_after_a_session(seated_table: Table, charts: list[ChartData]) -> None:
    await play(seated_table)
    await seated_table.say("ann", "/end")
    await seated_table.press("ann", "✅ 结束并结算")
    charts.clear()  # /end drew the session's own chart
    turn = await seated_table.say("eve", "/history")
    assert [r.kind for r in turn.sent] == ["photo"]  # one message: the chart with the list as its caption
    _, caption = photo_of(turn)
    assert lines_of(charts[-1]) == {"Ann": (-60,), "Bob": (130,), "Cat": (-20,), "Dan": (-50,)}
    assert charts[-1].title == "本群历史累计输赢（按场，实付）"
    lines = caption.splitlines()
    assert lines[0] == "以往各场（已结束的按实际结算的钱）："
    assert lines[1].startswith("1. ")
    assert "苏州麻将 · 2局 · Bob +130 · Cat −20 · Dan −50 · Ann −60" in lines[1]
    turn = await seated_table.say("eve", "/stats bob")
    _, caption = photo_of(turn)
    assert [r.kind for r in turn.sent] == ["photo"]
    assert caption == (
        "Bob 的统计：\n1场 · 2局 · 胡 1 · 自摸 1 · 放冲 0 · 最大一手 苏州麻将 40花 · 最长连庄 0 · 实付 +130"
    )
    assert lines_of(charts[-1]) == {"Bob": (130,)}  # that player's line only
    assert charts[-1].title == "Bob 的历史累计输赢（按场，实付）"  # titled for them, not for the group
    turn = await seated_table.say("eve", "/stats")
    _, caption = photo_of(turn)
    assert caption.count("的统计：") == 4
    assert set(lines_of(charts[-1])) == {"Ann", "Bob", "Cat", "Dan"}


async def test_history_when_nothing_was_played(table: Table) -> None:
    turn = await table.say("eve", "/history")
    assert turn.text == "还没有打完的一场。"
    assert turn.of("sendPhoto") == []
    turn = await table.say("eve", "/stats")
    assert turn.text == "还没有人有记录。"
    assert turn.of("sendPhoto") == []


async def test_no_chart_while_the_only_session_is_still_open(
    seated_table: Table, charts: list[ChartData]
) -> None:
    await play(seated_table)
    turn = await seated_table.say("eve", "/history")
    assert "苏州麻将 · 2局" in turn.text and [r.kind for r in turn.sent] == ["text"]
    turn = await seated_table.say("eve", "/stats bob")
    assert turn.text.startswith("Bob 的统计：") and turn.of("sendPhoto") == []
    assert charts == []


@pytest.mark.slow
async def test_the_chart_runs_on_across_sessions(seated_table: Table, charts: list[ChartData]) -> None:
    await play(seated_table)
    await seated_table.say("ann", "/end")
    await seated_table.press("ann", "✅ 结束并结算")
    await seat_four(seated_table)
    await play(seated_table)
    await seated_table.say("ann", "/end")
    await seated_table.press("ann", "✅ 结束并结算")
    await seat_four(seated_table)  # a third table, still open: its standing so far is the last point
    await seated_table.say("bob", "/hu 南 自摸 5花 清一色 七对")
    charts.clear()
    turn = await seated_table.say("eve", "/history")
    photo_of(turn)
    assert charts[-1].hands == ("1", "2", "3") and lines_of(charts[-1])["Bob"] == (130, 260, 380)
    turn = await seated_table.say("eve", "/stats 西")  # a player named by seat
    _, caption = photo_of(turn)
    assert caption.startswith("Cat 的统计：") and lines_of(charts[-1]) == {"Cat": (-20, -40, -80)}


@pytest.mark.slow
async def test_history_chart_in_english(seated_table: Table) -> None:
    await play(seated_table)
    await seated_table.say("ann", "/end")
    await seated_table.press("ann", "✅ 结束并结算")
    await seated_table.say("ann", "/lang en")
    turn = await seated_table.say("eve", "/stats dan")
    assert photo_of(turn)[1].startswith("Stats of Dan:")
    turn = await seated_table.say("eve", "/history")
    assert photo_of(turn)[1].startswith("Past sessions")


@pytest.mark.slow
async def test_a_chart_that_cannot_be_drawn_leaves_the_text_alone(
    seated_table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    await play(seated_table)
    await seated_table.say("ann", "/end")
    await seated_table.press("ann", "✅ 结束并结算")

    def broken(data: ChartData, **kwargs: Any) -> bytes:
        raise RuntimeError("no font")

    monkeypatch.setattr(chart_module, "render_chart", broken)
    turn = await seated_table.say("eve", "/history")  # the harness fails on any handler error
    assert turn.text.startswith("以往各场（已结束的按实际结算的钱）：\n1. ") and len(turn.sent) == 1
    assert turn.of("sendPhoto") == []


@pytest.mark.slow
async def test_the_chart_is_drawn_off_the_event_loop(
    seated_table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    await play(seated_table)
    await seated_table.say("ann", "/end")
    await seated_table.press("ann", "✅ 结束并结算")
    release = threading.Event()
    render = chart_module.render_chart

    def slow(data: ChartData, **kwargs: Any) -> bytes:  # a first matplotlib import takes this long
        assert release.wait(10)
        return render(data, **kwargs)

    monkeypatch.setattr(chart_module, "render_chart", slow)
    app, state = seated_table.app, seated_table.state
    start = len(state.calls)
    await app.process_update(Update.de_json(state.message(seated_table.chat_id, "eve", "/history"), app.bot))
    # The handler is done while the chart is still being drawn in a worker thread; the answer then goes
    # out as one message, the chart with the list as its caption.
    assert [c.method for c in state.calls[start:]] == []
    release.set()
    await settle(app)
    assert [c.method for c in state.calls[start:]] == ["sendPhoto"]
