"""Posting the summary through the Bot API: the card (sendMessage), the chart (sendPhoto), the CSV
(sendDocument); and the chart alone for /history and /stats."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from jobs_game import CHAT, HANDS, Table, build_app, play
from telegram.ext import Application

from bot.console.transport import InProcessBotAPI
from bot.ledger import DueSummary, Ledger
from bot.ledger.claims import summaries
from bot.ledger.play import books, groups, sessions
from bot.summary import history_chart_data, post_summary, send_history_chart
from bot.summary.chart import PNG_SIGNATURE
from tests.bot.summary.pictures import png_size


def bot_app(api: InProcessBotAPI) -> Application[Any, Any, Any, Any, Any, Any]:
    """A bare PTB Application on the in-process Bot API, which knows the game's chats."""
    for chat in (CHAT, CHAT + 1):
        api.add_group(chat)
    return build_app(api)


def ended(table: Table) -> DueSummary:
    """End the table's session: its summary is due, claimed here."""
    sessions.end_session(table.ledger, table.chat_id, session_id=table.session_id)
    due = table.ledger.write(summaries.claim, table.session_id, now=table.ledger.now(), ender=True)
    assert due is not None and due.sent == 0
    return due


@pytest.mark.slow
async def test_post_summary_sends_card_chart_and_csv(table: Table) -> None:
    request = InProcessBotAPI()
    app = bot_app(request)
    await app.initialize()
    try:
        posted = await post_summary(app.bot, table.ledger, ended(table))
    finally:
        await app.shutdown()
    assert posted is not None and posted.card is not None
    assert [c.method for c in request.calls if c.ok and c.method != "getMe"] == [
        "sendMessage",
        "sendPhoto",
        "sendDocument",
    ]
    [message] = request.calls_of("sendMessage")
    assert message.params["chat_id"] == table.chat_id
    assert message.params["text"] == posted.card.text
    assert "第1场结束" in message.params["text"]  # the group's language: 简体 by default
    [photo] = request.calls_of("sendPhoto")
    png = photo.files["photo"].content
    assert png[:8] == PNG_SIGNATURE and png_size(png) == (960, 540)
    [document] = request.calls_of("sendDocument")
    data = document.files["document"].content
    assert data.startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))
    assert len(rows) == 1 + 4 * len(table.ledger.read(books.ledger_rows, table.session_id))
    assert posted.chart is not None and posted.document is not None


async def test_language_of_the_group_and_empty_session(ledger: Ledger) -> None:
    empty = play(ledger, hands=[], adjust=False)
    groups.update_group(ledger, empty.chat_id, language="en")
    request = InProcessBotAPI()
    app = bot_app(request)
    await app.initialize()
    try:
        posted = await post_summary(app.bot, ledger, ended(empty))
    finally:
        await app.shutdown()
    assert posted is not None and posted.card is not None
    assert posted.chart is None and posted.document is None
    assert [c.method for c in request.calls if c.ok and c.method != "getMe"] == ["sendMessage"]
    assert request.calls_of("sendMessage")[0].params["text"].startswith("🀄 Session 1 ended")


async def test_history_chart_over_sessions(ledger: Ledger) -> None:
    first = play(ledger)
    sessions.end_session(ledger, first.chat_id, session_id=first.session_id)
    second = play(ledger, hands=HANDS[:2], adjust=False)
    sessions.end_session(ledger, second.chat_id, session_id=second.session_id)
    summaries = ledger.read(books.history, CHAT)
    data = history_chart_data(summaries, "zh-Hans")
    assert data is not None and data.hands == ("1", "2")
    # each line ends at the player's all-time net, which the standings agree with
    alltime = {row.player.display_name: row.net for row in ledger.read(books.standings, CHAT).alltime_rows}
    assert {line.name: line.totals[-1] for line in data.series} == alltime
    lisi = ledger.read(groups.find_player, CHAT, "李四")[0]
    only = history_chart_data(summaries, "en", player_id=lisi.id)
    assert only is not None and [line.name for line in only.series] == ["李四"]

    request = InProcessBotAPI()
    app = bot_app(request)
    await app.initialize()
    try:
        message = await send_history_chart(app.bot, ledger, CHAT, player_id=lisi.id)
        nothing = await send_history_chart(app.bot, ledger, CHAT + 1)
    finally:
        await app.shutdown()
    assert message is not None and nothing is None
    [photo] = request.calls_of("sendPhoto")
    assert photo.files["photo"].content[:8] == PNG_SIGNATURE
    assert photo.params["caption"] == "本群各位的历史累计输赢（实付）"
