"""An instant hand is committed on the event loop when SQLite's write lock is free, and through a worker
thread (which waits for the lock) when another writer holds it: the hand is recorded either way, once."""

from __future__ import annotations

import sqlite3
import threading

from harness import Table


def totals(table: Table) -> dict[str, int]:
    ledger = table.app.bot_data["ledger"]
    rows = ledger.ledger(ledger.current_session(table.chat_id).id)
    return dict(rows[-1].running)


async def test_a_hand_waits_in_a_thread_while_another_writer_holds_the_lock(seated_table: Table) -> None:
    await seated_table.say("ann", "/dealer 东")
    await seated_table.say("ann", "/rules instant on")
    ledger = seated_table.app.bot_data["ledger"]
    assert ledger.nonblocking() is not None  # SQLite file, synchronous NORMAL: the quick road exists
    path = ledger.engine.url.database
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")  # e.g. another process writing
    release = threading.Timer(0.3, lambda: other.execute("ROLLBACK"))
    release.start()
    try:
        turn = await seated_table.say("bob", "/hu 南 自摸 5花")
    finally:
        release.join()
        other.close()
    assert turn.texts == ["第1局 南 自摸 10花 → 南 +30 · 东 −10 · 西 −10 · 北 −10 · 下局庄 南"]
    assert totals(seated_table) == {"E": -10, "S": 30, "W": -10, "N": -10}
    # The lock free again: the next hand goes the quick way.
    turn = await seated_table.say("cat", "/hu 西 自摸 5花")
    assert turn.texts[0].startswith("第2局 西 自摸")
    assert totals(seated_table) == {"E": -20, "S": 20, "W": 20, "N": -20}


async def test_a_preview_and_its_confirm_wait_in_a_thread_while_another_writer_holds_the_lock(
    seated_table: Table,
) -> None:
    """The pending entry's creation, its message id and the Confirm are quick ledger calls too: with the
    lock taken elsewhere each goes to a worker thread and the hand is still recorded once."""
    await seated_table.say("ann", "/dealer 东")
    ledger = seated_table.app.bot_data["ledger"]
    other = sqlite3.connect(ledger.engine.url.database, isolation_level=None, check_same_thread=False)
    try:
        for text, action in (("/hu 南 自摸 5花", None), (None, "✅ 确认")):
            other.execute("BEGIN IMMEDIATE")
            release = threading.Timer(0.3, lambda: other.execute("ROLLBACK"))
            release.start()
            try:
                if text is not None:
                    turn = await seated_table.say("bob", text)
                    assert "确认" in turn.sent[0].text  # the itemized preview with its buttons
                else:
                    turn = await seated_table.press("cat", action)
            finally:
                release.join()
    finally:
        other.close()
    assert turn.texts[0] == "第1局 南 自摸 10花 → 南 +30 · 东 −10 · 西 −10 · 北 −10 · 下局庄 南"
    assert totals(seated_table) == {"E": -10, "S": 30, "W": -10, "N": -10}
