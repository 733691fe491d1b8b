"""A long session's summary is read, drawn and written in the worker process (`bot.summary.offload`), not in
the bot's threads: the same card, chart and CSV go out, each once. (How much the other tables gain is
bench/stall.py's to measure.)"""

from __future__ import annotations

import pytest
from harness import END, Table, seat_four

from bot.summary import offload
from bot.summary import post as post_module


@pytest.mark.slow
async def test_a_long_sessions_summary_is_built_in_the_worker_process(
    db_table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = await seat_four(db_table)
    built_here: list[int] = []
    real = post_module.read_report

    async def counted(ledger: object, session_id: int) -> object:
        built_here.append(session_id)
        return await real(ledger, session_id)  # type: ignore[arg-type]

    monkeypatch.setattr(post_module, "read_report", counted)
    monkeypatch.setattr(post_module, "OFFLOAD_HANDS", 2)  # "long": two hands, to keep the test short
    await table.say("ann", "/rules instant on")
    await table.say("bob", "/hu 南 自摸 5花 清一色")
    await table.say("ann", "/hu 东 自摸 5花")
    await table.say("bob", "/end")
    await table.press("cat", END)
    parts = [r.kind for r in table.replies() if r.text.startswith(("🀄 第1场结束", "第1场各家", "第1场账本"))]
    assert parts == ["text", "photo", "document"], parts
    assert built_here == [] and offload._POOL is not None  # read in the worker process, not here
    card = next(r for r in table.replies() if r.text.startswith("🀄 第1场结束"))
    assert "南 Bob" in card.text
    # A short session stays in the bot's own threads.
    await seat_four(table)
    await table.say("bob", "/hu 南 自摸 5花 清一色")
    await table.say("bob", "/end")
    await table.press("cat", END)
    assert len(built_here) == 1
