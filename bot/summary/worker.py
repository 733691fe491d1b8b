"""The summary's heavy work in a worker process: reading every row of a session, the card, the chart, the CSV.

A worker thread keeps that work off the event loop but not off the GIL: while a long session's summary was
built in a thread, another table's hand committed about 2-4 times slower. In a process of its own it runs
beside the bot instead of inside it, and matplotlib stays out of the bot's memory.

One process (`spawn`: never a fork of a process with threads), started on first use and stopped after
`IDLE_SECONDS` without work; the next summary starts it again. The process reads the ledger from the same
database URL (its own engine, never migrating) and returns only what a post needs: texts and bytes.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import threading
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import ParamSpec, TypeVar

from sqlalchemy.engine import Engine

from bot.ledger import LedgerService, Transfer
from bot.ledger.db import create_db_engine
from bot.summary import chart as charts
from bot.summary.card import chart_data, render_card
from bot.summary.csvfile import csv_filename, ledger_csv, local_day
from bot.summary.tally import SessionReport, build_report
from bot.weekly import DEFAULT_TIMEZONE

log = logging.getLogger(__name__)

IDLE_SECONDS = 600.0  # the process stops after this long without a summary (it holds ~100 MB)
TIMEOUT_SECONDS = 300.0  # a summary not built by then is left due (the summary sweep tries again)
ENGINES_KEPT = 4  # databases the process keeps an engine for (one in production; tests use many)

P = ParamSpec("P")
R = TypeVar("R")


@dataclass(frozen=True, slots=True)
class SummaryFiles:
    """What posting or editing an end-of-session summary needs, built in the worker process."""

    chat_id: int
    number: int  # 第n场
    card: str
    transfers: tuple[Transfer, ...]
    summary_message_id: int | None
    ended_idle: bool
    has_rows: bool
    chart: bytes | None  # None: not asked for, no row, or it could not be drawn
    chart_name: str
    csv: bytes | None  # None: not asked for (a session without a row: the header alone)
    csv_name: str


# ---- in the worker process -------------------------------------------------------------------------------


def chart_png(report: SessionReport, lang: str | None) -> bytes:
    """The session chart as PNG bytes (imports matplotlib on first use)."""
    return charts.render_chart(chart_data(report, lang))


def chart_filename(report: SessionReport, timezone: str = DEFAULT_TIMEZONE) -> str:
    """`mahjong-session-<n>-<yyyymmdd>.png` (the local date the session opened)."""
    return f"mahjong-session-{report.session.number}-{local_day(report, timezone)}.png"


_engines: OrderedDict[str, Engine] = OrderedDict()


def _ledger(url: str) -> LedgerService:
    engine = _engines.pop(url, None) or create_db_engine(url)
    _engines[url] = engine
    while len(_engines) > ENGINES_KEPT:
        _engines.popitem(last=False)[1].dispose()
    return LedgerService(engine)


def build_files(
    url: str,
    session_id: int,
    lang: str,
    timezone: str,
    *,
    idle_hours: float | None = None,
    chart: bool = True,
    csv: bool = True,
) -> SummaryFiles:
    """Read the session from the database at `url` and build its card, and its chart and CSV as asked.
    Runs in the worker process (any process can call it: the tests of the parts do)."""
    report = build_report(_ledger(url), session_id)
    session = report.session
    png: bytes | None = None
    if chart and report.rows:
        try:
            png = chart_png(report, lang)
        except (OSError, ValueError, RuntimeError):
            log.exception("could not draw the chart of session %s", session_id)
    idle = idle_hours if session.end_reason == "idle" else None
    return SummaryFiles(
        chat_id=session.chat_id,
        number=session.number,
        card=render_card(report, lang, idle_hours=idle),
        transfers=report.transfers,
        summary_message_id=session.summary_message_id,
        ended_idle=session.end_reason == "idle",
        has_rows=bool(report.rows),
        chart=png,
        chart_name=chart_filename(report, timezone),
        csv=ledger_csv(report, lang, timezone=timezone) if csv else None,
        csv_name=csv_filename(report, timezone),
    )


# ---- in the bot ----------------------------------------------------------------------------------------

_lock = threading.Lock()
_pool: ProcessPoolExecutor | None = None
_busy = 0  # jobs submitted and not finished
_idle: threading.Timer | None = None


def _start() -> ProcessPoolExecutor:
    """The process for one more job (started first if it is not running); the idle timer is off."""
    global _pool, _busy, _idle
    with _lock:
        if _idle is not None:
            _idle.cancel()
            _idle = None
        if _pool is None:
            _pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
        _busy += 1
        return _pool


def _done() -> None:
    """After a job: with no other job running, stop the process unless one starts within IDLE_SECONDS."""
    global _busy, _idle
    with _lock:
        _busy -= 1
        if _busy == 0 and _pool is not None:
            timer = threading.Timer(IDLE_SECONDS, _rest)
            timer.daemon = True
            _idle = timer
            timer.start()


def _rest() -> None:
    """The idle timer: stop the process if it is still idle (a job that started meanwhile keeps it)."""
    global _pool, _idle
    with _lock:
        if _busy or _idle is None or _idle is not threading.current_thread():
            return
        pool, _pool, _idle = _pool, None, None
    if pool is not None:
        pool.shutdown(wait=False)


def stop(pool: ProcessPoolExecutor | None = None, *, kill: bool = False) -> None:
    """Stop the worker process (`pool`: only if that is still the one running); the next job starts a new
    one. `kill`: at once, the jobs in it lost."""
    global _pool
    with _lock:
        if pool is not None and pool is not _pool:
            return
        pool, _pool = _pool, None
    if pool is None:
        return
    if kill:
        terminate = getattr(pool, "terminate_workers", None)  # Python 3.14; before, the pool's processes
        if terminate is not None:
            terminate()
        else:
            for process in list(getattr(pool, "_processes", {}).values()):
                process.kill()
    pool.shutdown(wait=False, cancel_futures=True)


async def run(fn: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """`fn(*args, **kwargs)` in the worker process (a module-level function, picklable arguments and
    result). A process that died (killed, out of memory) is replaced once; a job that takes longer than
    TIMEOUT_SECONDS is killed with its process (TimeoutError), so it never holds up the jobs after it."""
    for attempt in (1, 2):
        pool = _start()
        try:
            future = pool.submit(_call, fn, args, dict(kwargs))
            return await asyncio.wait_for(asyncio.wrap_future(future), TIMEOUT_SECONDS)
        except BrokenProcessPool:
            stop(pool)
            if attempt == 2:
                raise
            log.warning("the summary worker process died; starting a new one")
        except TimeoutError:
            log.error("a summary job ran over %s s; its process is stopped", TIMEOUT_SECONDS)
            stop(pool, kill=True)
            raise
        finally:
            _done()
    raise AssertionError("unreachable")


def _call(fn: Callable[..., R], args: tuple[object, ...], kwargs: dict[str, object]) -> R:
    return fn(*args, **kwargs)


def database_url(ledger: LedgerService) -> str:
    """The URL the worker process opens the ledger's database with (password included)."""
    return ledger.engine.url.render_as_string(hide_password=False)
