"""/paid racing an /end on another worker that carries the debt: the
payment is recorded on what the end left, never refused with "no open debt". PostgreSQL, two workers: the
bot's own ledger and a second Ledger; the interleaving is forced with a row lock held by the test."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import pytest
from harness import END, Table, seat_four
from sqlalchemy import create_engine, text

from bot.ledger import Ledger
from bot.ledger.money import settling
from bot.ledger.play import sessions


def waiting(url: str) -> int:
    """Backends of this database waiting for a lock."""
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            query = (
                "SELECT count(*) FROM pg_stat_activity"
                " WHERE datname = current_database() AND wait_event_type = 'Lock'"
            )
            return int(conn.execute(text(query)).scalar_one())
    finally:
        engine.dispose()


async def until(url: str, count: int) -> None:
    deadline = time.monotonic() + 20
    while waiting(url) < count:
        assert time.monotonic() < deadline, "the workers never queued on the lock"
        await asyncio.sleep(0.05)


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["postgresql"])
async def test_paid_racing_an_end_that_carries_the_debt_is_recorded(pg_table: Table, backend: str) -> None:
    """Night one: Ann (东) self-draws 4 花, T = 9: Dan → Ann 9, Cat → Ann 9, Bob → Ann 9.
    Night two: /adjust 南 北 5 (Bob pays Dan 5). Its end carries all three (everyone at the table):
        Ann +27, Bob −9 − 5 = −14, Cat −9, Dan −9 + 5 = −4; transfers Bob → Ann 14, Cat → Ann 9, Dan → Ann 4.
    Cat's "/paid @ann" waits behind that end; it then claims Cat's 9 on night two's transfer."""
    table = await seat_four(pg_table)
    await table.say("ann", "/rules instant on")
    await table.say("ann", "/hu 东 自摸 4花")
    await table.say("ann", "/end")
    await table.press("ann", END)
    await table.say("ann", "/newgame 苏州 1")
    for name in ("ann", "bob", "cat", "dan"):
        await table.say(name, "/join")
    await table.say("ann", "/dealer 东")
    await table.say("ann", "/adjust 南 北 5")

    url = table.app.bot_data["settings"].database_url
    other = Ledger.from_url(url)  # the second worker
    lock = create_engine(url)
    conn = lock.connect()
    tx = conn.begin()
    # Cat's transfer only: the end locks the others and queues on it first, the payment behind the end.
    cats = [
        tr.id
        for tr in other.read(settling.balance, table.chat_id).transfers
        if tr.payer.display_name == "Cat"
    ]
    conn.execute(text("SELECT id FROM settle_transfer WHERE id = :id FOR UPDATE"), {"id": cats[0]})
    ended: list[Any] = []
    worker = threading.Thread(target=lambda: ended.append(sessions.end_session(other, table.chat_id)))
    try:
        worker.start()
        await until(url, 1)  # the end waits for the transfers
        paying = asyncio.create_task(table.say("cat", "/paid @ann"))
        await until(url, 2)  # and the payment behind it
        tx.rollback()
        await asyncio.to_thread(worker.join, 20)
        turn = await paying
    finally:
        conn.close()
        lock.dispose()
        other.engine.dispose()
    assert ended, "the other worker's end did not finish"
    assert turn.texts[0].startswith("Cat 说已付给 Ann 9，等 Ann 点“已收到”确认。\n第2场 "), turn.texts
    report = table.app.bot_data["ledger"].read(settling.balance, table.chat_id)
    names = {tr.payer.id: tr.payer.display_name for tr in report.transfers}
    names |= {tr.payee.id: tr.payee.display_name for tr in report.transfers}
    assert {names[p]: v for p, v in report.totals.items()} == {"Ann": 27, "Bob": -14, "Cat": -9, "Dan": -4}
    assert [(tr.payer.display_name, tr.claimed) for tr in report.transfers if tr.claimed] == [("Cat", 9)]
