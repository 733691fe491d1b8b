"""The "🀄 选牌" link: the table card (once the table is full) and bare /hu carry a URL button to the
direct-link Mini App, `https://t.me/<bot>/<app>?startapp=<token>&mode=compact`, whose token names this
table; without WEBAPP_SHORT_NAME there is no button."""

from __future__ import annotations

import io
import re
import time
import urllib.request
from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from harness import Table, seat_four

from bot.app import CONSOLE_TOKEN, build_application
from bot.console import run_console_async
from bot.console.transport import InProcessBotAPI
from bot.ledger.play import groups
from bot.settings import Settings
from bot.webauth import check_init_data, read_table_token


@pytest.fixture
async def linked_table(bot_settings: Settings, transport: InProcessBotAPI) -> AsyncIterator[Table]:
    settings = bot_settings.model_copy(update={"webapp_short_name": "pick"})
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
    session = groups.chat_state(table.app.bot_data["ledger"], table.chat_id).session
    assert read_table_token(table.app.bot.token, query["startapp"][0]) == (table.chat_id, session.id)


async def test_the_full_tables_card_carries_the_picker(linked_table: Table) -> None:
    session = groups.chat_state(linked_table.app.bot_data["ledger"], linked_table.chat_id).session
    check_link(linked_table, picker_url(linked_table, session.card_message_id))


async def test_bare_hu_offers_the_picker_above_the_questions(linked_table: Table) -> None:
    await linked_table.say("bob", "/hu")
    flow = linked_table.last_reply()
    assert flow.rows[0] == ["🀄 选牌"] and "东 Ann" in flow.rows[1][0]
    check_link(linked_table, picker_url(linked_table, flow.message_id))


async def test_no_short_name_no_button(seated_table: Table) -> None:
    await seated_table.say("bob", "/hu")
    assert "🀄 选牌" not in seated_table.last_reply().buttons


@pytest.mark.slow
async def test_console_prints_a_picker_url_signed_for_the_user_at_the_open_table(tmp_path: Path) -> None:
    """`:app bob` in console mode: the local page's URL with initData that the server accepts as bob's,
    naming the open table; the page is served while the console runs."""
    settings = Settings(_env_file=None, data_dir=tmp_path, telegram_bot_token=None)  # type: ignore[call-arg]
    out, seen = io.StringIO(), {}
    url = re.compile(r"(http://127\.0\.0\.1:\d+/app/)#(\S+)")

    class Lines(io.StringIO):  # at the end of input, fetch the page while the console still serves it
        def readline(self, *args: object) -> str:
            line = super().readline()
            if not line:
                for _ in range(600):  # 30 s at most for the bot to print the URL
                    match = url.search(out.getvalue())
                    if match is not None:
                        seen["fragment"] = match.group(2)
                        seen["page"] = urllib.request.urlopen(match.group(1), timeout=10).read().decode()
                        break
                    time.sleep(0.05)
            return line

    script = "ann: /newgame 苏州 1\nann: /join\nbob: /join\ncat: /join\ndan: /join\n:app bob\n"
    assert await run_console_async(settings, stdin=Lines(script), stdout=out) == 0
    assert "🀄 bob 的选牌页：http://127.0.0.1:" in out.getvalue()
    data = parse_qs(seen["fragment"])["tgWebAppData"][0]
    user = check_init_data(CONSOLE_TOKEN, data)
    assert user.username == "bob" and user.start_param
    assert 'data-action="submit"' in seen["page"] and "telegram-web-app.js" not in seen["page"]
