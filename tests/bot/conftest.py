"""Fixtures for bot tests: settings on a temporary SQLite file, the in-process Bot API, the real bot."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from harness import GROUP_ID, PLAYERS, Table

from bot.console.transport import InProcessBotAPI


def _build_application() -> Callable[..., Any]:
    try:
        from bot.app import build_application
    except ModuleNotFoundError as exc:  # only while bot/app.py is being written
        if exc.name != "bot.app":
            raise
        pytest.skip("bot.app.build_application does not exist yet")
    return build_application


@pytest.fixture
def bot_settings(tmp_path: Path) -> Any:
    """Settings of a test bot: fake token, no .env, SQLite in tmp_path, data files in tmp_path."""
    from bot.settings import Settings

    return Settings(
        _env_file=None,  # type: ignore[call-arg]
        telegram_bot_token="123:TEST",
        data_dir=tmp_path,
        database_url=f"sqlite:///{tmp_path / 'bot.db'}",
        telegram_base_url=None,
    )


@pytest.fixture
def transport() -> InProcessBotAPI:
    """The in-memory Bot API (dice seeded)."""
    return InProcessBotAPI(seed=0)


@pytest.fixture
async def table(bot_settings: Any, transport: InProcessBotAPI) -> AsyncIterator[Table]:
    """The real bot (bot.app.build_application) in the group GROUP_ID, started; nobody seated yet."""
    build_application = _build_application()
    app = build_application(bot_settings, request=transport, get_updates_request=transport)
    table = await Table.start(app, transport, chat_id=GROUP_ID)
    try:
        yield table
    finally:
        await table.stop()


@pytest.fixture
async def seated_table(table: Table) -> Table:
    """A session opened by ann with /newgame 苏州 1 and ann, bob, cat, dan seated E, S, W, N."""
    await table.say("ann", "/newgame 苏州 1")
    for name in PLAYERS:
        await table.say(name, "/join")
    session = table.app.bot_data["ledger"].current_session(table.chat_id)
    assert session is not None, f"/newgame opened no session: {table.last_text()!r}"
    seated = {seat: player.username for seat, player in session.seats.items()}
    assert seated == dict(zip("ESWN", PLAYERS, strict=True)), f"seating went wrong: {seated}"
    return table
