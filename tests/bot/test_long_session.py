"""A 10,000-hand session through the real bot: /ledger is one message with the newest rows and a
button for the whole ledger as the CSV; /end's summary card is one message (then the chart and the CSV);
and while that summary is being put together, a hand at another table is recorded and answered."""

from __future__ import annotations

import asyncio
import csv
import io
import threading
from typing import Any

import pytest
from harness import PLAYERS, Table

import bot.summary.post as post_module
from bench.ledger import bulk_load
from bot.console.driver import deliver
from bot.ledger.play import sessions
from bot.services import ledger_in

HANDS = 10_000
OTHER_CHAT = -1001000000002
LIMIT = 4096


async def long_session(table: Table) -> int:
    ledger = ledger_in(table.app.bot_data)
    session = sessions.require_session(ledger, table.chat_id)
    await asyncio.to_thread(bulk_load, ledger, session.id, HANDS, table.chat_id)
    return session.id


@pytest.mark.slow
async def test_a_10000_hand_session_answers_in_one_message_each(
    seated_table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    await long_session(seated_table)  # one load for the three checks: 10,000 hands take a while to write

    # /ledger: one message, the newest rows, and a button for the whole as the CSV
    turn = await seated_table.say("eve", "/ledger")
    [page] = turn.sent
    assert len(page.text) <= LIMIT and page.buttons == ("📎 整场账本（CSV）",)
    lines = page.text.splitlines()
    assert lines[2].startswith("（只列出最近") and lines[-1].startswith("合计 | ")
    assert lines[-2].startswith(f"{HANDS} ")  # the newest hand is there, the oldest are not
    turn = await seated_table.press("eve", "📎 整场账本（CSV）")
    [document] = turn.of("sendDocument")
    rows = list(csv.reader(io.StringIO(document.files["document"].content.decode("utf-8-sig"))))
    assert len(rows) == 1 + 4 * HANDS  # every hand, the four seated at each

    # another table plays while this one's summary is being read (in the worker process, held there)
    seated_table.transport.add_group(OTHER_CHAT, "另一桌", creator="zoe")
    other = Table(seated_table.app, seated_table.transport, OTHER_CHAT)
    await other.say("ann", "/newgame 苏州 1")
    for name in PLAYERS:
        await other.say(name, "/join")
    await other.say("ann", "/dealer 东")
    held, release = threading.Event(), threading.Event()
    card = post_module.Offloaded.card  # a 10,000-hand session's summary is built in the worker process

    async def slow_card(self: Any, *args: Any, **kwargs: Any) -> Any:
        held.set()
        assert await asyncio.to_thread(release.wait, 60)
        return await card(self, *args, **kwargs)

    monkeypatch.setattr(post_module.Offloaded, "card", slow_card)
    await seated_table.say("ann", "/end")
    start = len(seated_table.state.calls)
    update = seated_table.state.press(seated_table.chat_id, "ann", None, "✅ 结束并结算")
    ending = asyncio.create_task(deliver(seated_table.app, update))
    assert await asyncio.to_thread(held.wait, 60)  # the summary is being built
    preview = await other.say("bob", "/hu 南 自摸 5花 清一色")
    assert preview.sent and preview.sent[-1].buttons == ("✅ 确认", "✖ 取消")
    result = await other.press("cat", "✅ 确认")
    assert result.edits[0].text.startswith("第1局 南 自摸 20花 →")
    assert not ending.done()  # the first table's summary is still on its way
    release.set()
    await ending

    # /end: the press answered first, then one card, the chart and the CSV
    calls = [
        c
        for c in seated_table.state.calls[start:]
        if c.params.get("chat_id", seated_table.chat_id) == seated_table.chat_id
    ]
    methods = [c.method for c in calls]
    assert methods.index("answerCallbackQuery") < methods.index("sendPhoto")
    sent = [c for c in calls if c.method in ("sendMessage", "sendPhoto", "sendDocument")]
    assert [c.method for c in sent] == ["sendMessage", "sendPhoto", "sendDocument"]
    card = str(sent[0].params["text"])
    assert card.startswith("🀄 第1场结束") and f"共{HANDS}局" in card and len(card) <= LIMIT
    assert "局一样大（全部见 CSV）" in card  # the tied biggest hands are counted, not listed
