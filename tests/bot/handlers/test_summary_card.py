"""The summary built in the bot's own process: /end's card goes out as soon as the session's numbers are
read, the chart is drawn after it in a thread (the one path every chart takes: a patch of
`bot.summary.chart.render_chart` is what draws it), then the CSV; a payment edits only the card's
transfer lines, under the head built when it was posted (after a restart: built once, then kept)."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest
from harness import END, TINY_PNG, Reply, Table

import bot.summary.post as post_module
from bot.console.driver import deliver
from bot.ledger.play import books
from bot.services import ledger_in
from bot.summary import build_report, render_card
from bot.summary.chart import ChartData
from bot.summary.post import CardHeads
from bot.summary.tally import SessionReport


async def night(table: Table) -> None:
    """Ann (东) self-draws 5 花, Bob (南) wins 6 花 on Cat's (西) discard, recorded at once; /end asked."""
    await table.say("ann", "/rules instant on")
    await table.say("ann", "/hu 东 自摸 5花")
    await table.say("ann", "/hu 南 冲 西 6花")
    await table.say("ann", "/end")


def card(table: Table) -> Reply:
    [found] = [r for r in table.replies() if r.text.startswith("🀄 第1场结束")]
    return found


def summary_sends(table: Table, start: int) -> list[str]:
    return [c.method for c in table.state.calls[start:] if c.ok and c.method.startswith("send")]


async def test_the_card_is_in_the_chat_while_the_chart_is_still_being_drawn(
    seated_table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = seated_table
    await night(table)
    drawing, drawn = threading.Event(), threading.Event()
    threads: list[threading.Thread] = []

    def render_chart(data: ChartData, **_options: Any) -> bytes:
        threads.append(threading.current_thread())
        drawing.set()
        assert drawn.wait(60)  # held until the test has looked at the chat
        return TINY_PNG

    monkeypatch.setattr("bot.summary.chart.render_chart", render_chart)
    start = len(table.state.calls)
    ending = asyncio.create_task(deliver(table.app, table.state.press(table.chat_id, "ann", None, END)))
    assert await asyncio.to_thread(drawing.wait, 60)
    assert summary_sends(table, start) == ["sendMessage"]  # the card, nothing else yet
    assert "南 Bob +1" in card(table).text and not ending.done()
    drawn.set()
    await ending
    assert summary_sends(table, start) == ["sendMessage", "sendPhoto", "sendDocument"]
    [photo] = [c for c in table.state.calls[start:] if c.method == "sendPhoto"]
    assert photo.files["photo"].content == TINY_PNG  # the patched chart went out: the path is this one
    assert threads and threads[0] is not threading.main_thread()  # drawn beside the event loop


def counted_reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The sessions whose every row is read for their summary, listed as they are."""
    real, read = post_module.build_report, []

    def build(ledger: Any, session_id: int) -> SessionReport:
        read.append(session_id)
        return real(ledger, session_id)

    monkeypatch.setattr(post_module, "build_report", build)
    return read


@pytest.mark.slow
async def test_a_payment_edits_the_transfer_lines_without_reading_the_session_again(
    seated_table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = seated_table
    await night(table)
    await table.press("ann", END)
    posted = card(table)
    read = counted_reads(monkeypatch)
    await table.press("cat", "1 我已付", message_id=posted.message_id)
    await table.say("dan", "/paid @ann 5")
    assert read == []  # the head kept from the post; only the transfers were read
    edited = card(table)
    assert "1. Cat → Ann 21 · 待确认 21" in edited.text and "2. Dan → Ann 9 · 待确认 5" in edited.text
    ledger = ledger_in(table.app.bot_data)
    session_id = ledger.read(books.history, table.chat_id, limit=1)[0].session.id
    assert edited.text == render_card(build_report(ledger, session_id), "zh-Hans")  # as if built whole
    assert edited.text.split("\n\n")[:3] == posted.text.split("\n\n")[:3]  # title, players, biggest hand


async def test_after_a_restart_the_first_payment_builds_the_head_once(
    seated_table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = seated_table
    await night(table)
    await table.press("ann", END)
    posted = card(table)
    monkeypatch.setattr(post_module, "HEADS", CardHeads())  # a new process: no head kept
    read = counted_reads(monkeypatch)
    await table.press("cat", "1 我已付", message_id=posted.message_id)
    await table.press("ann", "1 已收到", message_id=posted.message_id)
    assert len(read) == 1  # the first payment read the session once; the second used its head
    edited = card(table)
    assert "1. Cat → Ann 21 ✅ 已结清" in edited.text
    ledger = ledger_in(table.app.bot_data)
    assert edited.text == render_card(build_report(ledger, read[0]), "zh-Hans")
