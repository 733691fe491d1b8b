"""A long session's summary built in a process of its own: reading 10,000 rows, drawing their chart and
writing their CSV take seconds of pure Python, and in a thread of the bot's process they hold the GIL
against every other table's hands. A session of at least `OFFLOAD_HANDS` hands (on a database another
process can open) is read, drawn and written by one worker process of the standard library's
`ProcessPoolExecutor`: spawned, so it shares no thread or connection with the bot, and at a lower
priority (`NICE`), so on busy cores the tables' hands come first. Only the card's pieces and the
finished bytes come back. A shorter session is built in the bot's own threads."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import partial
from typing import TypeVar

from bot.ledger import Ledger, SettleFigures, Transfer
from bot.summary.card import CardHead, card_head, chart_data, chart_filename
from bot.summary.chart import render_chart
from bot.summary.csvfile import csv_filename, ledger_csv
from bot.summary.tally import SessionReport, build_report

OFFLOAD_HANDS = 2_000  # a session this long is built in the worker process
NICE = 10  # the worker's scheduling priority below the bot's: on busy cores the tables' hands come first
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class CardParts:
    """What the card needs of a session's report, and the names its chart and CSV are sent under."""

    head: CardHead
    transfers: tuple[Transfer, ...]
    figures: tuple[SettleFigures, ...]
    has_rows: bool
    number: int
    chart_name: str
    csv_name: str


def card_parts(report: SessionReport, lang: str, idle_hours: float | None, zone: str) -> CardParts:
    return CardParts(
        card_head(report, lang, idle_hours=idle_hours),
        report.transfers,
        report.figures,
        bool(report.rows),
        report.session.number,
        chart_filename(report, zone),
        csv_filename(report, zone),
    )


def shareable_url(ledger: Ledger) -> str | None:
    """The ledger's URL as another process opens it; None for a database only this process sees (an
    in-memory SQLite)."""
    url = ledger.engine.url
    if url.get_backend_name() == "sqlite" and url.database in (None, "", ":memory:"):
        return None
    return url.render_as_string(hide_password=False)


# ---- in the worker process ---------------------------------------------------------------------------

_LEDGERS: dict[str, Ledger] = {}
_REPORT: dict[tuple[str, int], SessionReport] = {}  # the last report read: the card's, chart's, CSV's


def _report(url: str, session_id: int) -> SessionReport:
    key = (url, session_id)
    if key not in _REPORT:
        ledger = _LEDGERS.get(url) or _LEDGERS.setdefault(url, Ledger.from_url(url))
        _REPORT.clear()
        _REPORT[key] = build_report(ledger, session_id)
    return _REPORT[key]


def _card(url: str, session_id: int, lang: str, idle_hours: float | None, zone: str) -> CardParts:
    return card_parts(_report(url, session_id), lang, idle_hours, zone)


def _chart(url: str, session_id: int, lang: str) -> bytes:
    return render_chart(chart_data(_report(url, session_id), lang))


def _csv(url: str, session_id: int, lang: str, zone: str) -> bytes:
    return ledger_csv(_report(url, session_id), lang, timezone=zone)


# ---- in the bot's process ------------------------------------------------------------------------------

_POOL: ProcessPoolExecutor | None = None


def pool() -> ProcessPoolExecutor:
    """The one worker process, started on first use."""
    global _POOL
    if _POOL is None:
        spawn = multiprocessing.get_context("spawn")
        _POOL = ProcessPoolExecutor(max_workers=1, mp_context=spawn, initializer=os.nice, initargs=(NICE,))
    return _POOL


async def _run(fn: partial[T]) -> T:
    return await asyncio.get_running_loop().run_in_executor(pool(), fn)


class Offloaded:
    """One session's summary parts, built in the worker process from the database at `url`."""

    def __init__(self, url: str, session_id: int) -> None:
        self.url, self.session_id = url, session_id

    async def card(self, lang: str, idle_hours: float | None, zone: str) -> CardParts:
        return await _run(partial(_card, self.url, self.session_id, lang, idle_hours, zone))

    async def chart(self, lang: str) -> bytes:
        return await _run(partial(_chart, self.url, self.session_id, lang))

    async def csv(self, lang: str, zone: str) -> bytes:
        return await _run(partial(_csv, self.url, self.session_id, lang, zone))
