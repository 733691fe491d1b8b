"""The "🀄 选牌" link: the table card (once the table is full) and bare /hu carry a URL button to the
direct-link Mini App, `https://t.me/<bot>/<app>?startapp=<token>&mode=compact`, whose token names this
table; without WEBAPP_SHORT_NAME there is no button."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from conftest import make_settings
from harness import Table, seat_four

from bot.app import build_application
from bot.console.transport import InProcessBotAPI
from bot.webauth import read_table_token


@pytest.fixture
async def linked_table(sqlite_url: str, tmp_path: Path, transport: InProcessBotAPI) -> AsyncIterator[Table]:
    settings = make_settings(sqlite_url, tmp_path).model_copy(update={"webapp_short_name": "pick"})
    app = build_application(settings, request=transport, get_updates_request=transport)
    table = await Table.start(app, transport)
    try:
        yield await seat_four(table)
    finally:
        await table.stop()


def picker_url(table: Table, message_id: int) -> str:
    markup = table.message(message_id).raw["reply_markup"]["inline_keyboard"]
    [url] = [b["url"] for row in markup for b in row if b["text"] == "🀄 选牌"]
    return str(url)


def check_link(table: Table, url: str) -> None:
    parts = urlsplit(url)
    assert (parts.scheme, parts.netloc) == ("https", "t.me")
    assert parts.path == f"/{table.app.bot.username}/pick"
    query = parse_qs(parts.query)
    assert query["mode"] == ["compact"]
    session = table.app.bot_data["ledger"].current_session(table.chat_id)
    assert read_table_token(table.app.bot.token, query["startapp"][0]) == (table.chat_id, session.id)


async def test_the_full_tables_card_carries_the_picker(linked_table: Table) -> None:
    session = linked_table.app.bot_data["ledger"].current_session(linked_table.chat_id)
    check_link(linked_table, picker_url(linked_table, session.card_message_id))


async def test_bare_hu_offers_the_picker_above_the_questions(linked_table: Table) -> None:
    await linked_table.say("bob", "/hu")
    flow = linked_table.last_reply()
    assert flow.rows[0] == ["🀄 选牌"] and "东 Ann" in flow.rows[1][0]
    check_link(linked_table, picker_url(linked_table, flow.message_id))


async def test_no_short_name_no_button(seated_table: Table) -> None:
    await seated_table.say("bob", "/hu")
    assert "🀄 选牌" not in seated_table.last_reply().buttons
