"""Fixtures for bot tests: settings on a temporary SQLite file, the in-process Bot API, the real bot."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from harness import BASIC_GROUP_ID, GROUP_ID, Clock, Table, make_settings, seat_four

from bot.app import build_application  # a renamed or broken module fails every test here, never skips
from bot.console.transport import InProcessBotAPI
from bot.ledger import Ledger


@pytest.fixture
def bot_settings(sqlite_url: str, tmp_path: Path) -> Any:
    """Settings on a fresh SQLite file (tests/conftest.py's sqlite_url), data files in tmp_path."""
    return make_settings(sqlite_url, tmp_path)


@pytest.fixture
def transport() -> InProcessBotAPI:
    """The in-memory Bot API (dice seeded)."""
    return InProcessBotAPI(seed=0)


async def _running_table(settings: Any, transport: InProcessBotAPI) -> AsyncIterator[Table]:
    app = build_application(settings, request=transport, get_updates_request=transport)
    table = await Table.start(app, transport, chat_id=GROUP_ID)
    try:
        yield table
    finally:
        await table.stop()


@pytest.fixture
async def table(bot_settings: Any, transport: InProcessBotAPI) -> AsyncIterator[Table]:
    """The real bot (bot.app.build_application) in the group GROUP_ID, started; nobody seated yet."""
    async for running in _running_table(bot_settings, transport):
        yield running


@pytest.fixture
async def pg_table(pg_url: str, tmp_path: Path, transport: InProcessBotAPI) -> AsyncIterator[Table]:
    """`table` on this run's PostgreSQL database (skips without TEST_DATABASE_URL)."""
    async for running in _running_table(make_settings(pg_url, tmp_path), transport):
        yield running


@pytest.fixture
async def seated_table(table: Table) -> Table:
    """A session opened by ann with /newgame 苏州 1, ann, bob, cat, dan seated E, S, W, N, 东 the first
    dealer (ann: /dealer 东)."""
    return await seat_four(table)


@pytest.fixture
async def undealt_table(table: Table) -> Table:
    """`seated_table` before anyone chose the first dealer."""
    return await seat_four(table, dealer=None)


@pytest.fixture
async def db_table(db_url: str, tmp_path: Path, transport: InProcessBotAPI) -> AsyncIterator[Table]:
    """`table` on each backend of `db_url`: SQLite always, PostgreSQL when TEST_DATABASE_URL is set."""
    async for running in _running_table(make_settings(db_url, tmp_path), transport):
        yield running


@pytest.fixture
async def db_seated(db_table: Table) -> Table:
    """`seated_table` on each backend."""
    return await seat_four(db_table)


async def _clocked_table(
    db_url: str, tmp_path: Path, transport: InProcessBotAPI, chat_id: int
) -> AsyncIterator[tuple[Table, Clock]]:
    clock = Clock()
    book = Ledger.from_url(db_url, clock=clock)
    app = build_application(
        make_settings(db_url, tmp_path), request=transport, get_updates_request=transport, ledger=book
    )
    table = await Table.start(app, transport, chat_id=chat_id)
    try:
        yield table, clock
    finally:
        await table.stop()
        book.engine.dispose()


@pytest.fixture
async def clocked(
    db_url: str, tmp_path: Path, transport: InProcessBotAPI
) -> AsyncIterator[tuple[Table, Clock]]:
    """`db_table` with its ledger on a test clock (harness.Clock), nobody seated yet: the sweeps are run by
    hand (`Table.run_jobs`) after moving the clock."""
    async for running in _clocked_table(db_url, tmp_path, transport, GROUP_ID):
        yield running


@pytest.fixture
async def clocked_group(
    db_url: str, tmp_path: Path, transport: InProcessBotAPI
) -> AsyncIterator[tuple[Table, Clock]]:
    """`clocked` in a basic group (BASIC_GROUP_ID, type "group"): one Telegram can turn into a supergroup
    (`Table.migrate`)."""
    transport.add_group(BASIC_GROUP_ID, "周五麻将", creator="zoe", type="group")
    async for running in _clocked_table(db_url, tmp_path, transport, BASIC_GROUP_ID):
        yield running
