"""The summary's worker process (bot.summary.worker): the card, chart and CSV are built in another process
from the same database, exactly as they would be built here; a killed process is replaced; an idle one
stops."""

from __future__ import annotations

import asyncio
import os
import signal
import time

import pytest
from jobs_game import play

from bot.ledger import LedgerService
from bot.summary import worker
from bot.summary.chart import PNG_SIGNATURE


async def test_the_summary_is_built_in_another_process_and_reads_as_if_built_here(
    ledger: LedgerService,
) -> None:
    game = play(ledger)
    ledger.end_session(game.chat_id, session_id=game.session_id)
    url = worker.database_url(ledger)
    here = worker.build_files(url, game.session_id, "zh-Hans", "Asia/Shanghai")
    there = await worker.run(worker.build_files, url, game.session_id, "zh-Hans", "Asia/Shanghai")
    assert await worker.run(os.getpid) != os.getpid()
    assert there.card == here.card and there.card.startswith("🀄 第1场结束")
    assert there.csv == here.csv and there.csv is not None and there.csv.startswith(b"\xef\xbb\xbf")
    assert there.chart is not None and there.chart[:8] == PNG_SIGNATURE
    assert (there.chart_name, there.csv_name) == (here.chart_name, here.csv_name)
    assert there.transfers == here.transfers and there.transfers  # who pays whom, for the buttons
    edit = await worker.run(
        worker.build_files, url, game.session_id, "en", "Asia/Shanghai", chart=False, csv=False
    )
    assert edit.card.startswith("🀄 Session 1 ended") and edit.chart is None and edit.csv is None


async def test_a_killed_worker_is_replaced() -> None:
    first = await worker.run(os.getpid)
    os.kill(first, signal.SIGKILL)
    await asyncio.sleep(0.5)  # the pool notices its process is gone
    second = await worker.run(os.getpid)
    assert second not in (first, os.getpid())


async def test_an_idle_worker_stops_and_the_next_job_starts_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(worker, "IDLE_SECONDS", 0.2)
    first = await worker.run(os.getpid)
    for _ in range(50):
        if worker._pool is None:
            break
        await asyncio.sleep(0.1)
    assert worker._pool is None  # stopped: its memory is given back
    assert await worker.run(os.getpid) != first


async def test_a_job_over_its_time_is_stopped_and_the_next_one_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(worker, "TIMEOUT_SECONDS", 2.0)
    first = await worker.run(os.getpid)  # the process is up: the next job's time is its own
    with pytest.raises(TimeoutError):
        await worker.run(time.sleep, 30)
    started = time.monotonic()
    second = await worker.run(os.getpid)  # not queued behind the stuck job: its process was killed
    assert second != first and time.monotonic() - started < 20


async def test_the_idle_timer_never_stops_a_process_with_a_job(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(worker, "IDLE_SECONDS", 0.1)
    await worker.run(os.getpid)
    pids = await asyncio.gather(worker.run(time.sleep, 0.5), *(worker.run(os.getpid) for _ in range(3)))
    assert len(set(pids[1:])) == 1  # one process served them all, though the idle time passed meanwhile
