"""How the season page is reached: /season's "📈 赛季页" button (a direct-link Mini App whose start parameter
is the group's signed token, only with WEBAPP_SHORT_NAME), and console mode's `:season name`, the local
page's URL signed in as that person."""

from __future__ import annotations

import io
import json
import re
import time
import urllib.request
from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from harness import Table
from season_nights import two_nights

from bot.app import CONSOLE_TOKEN, build_application
from bot.console import run_console_async
from bot.console.transport import InProcessBotAPI
from bot.settings import Settings
from bot.webauth import check_init_data, read_group_token


@pytest.fixture
async def linked_table(bot_settings: Settings, transport: InProcessBotAPI) -> AsyncIterator[Table]:
    settings = bot_settings.model_copy(update={"webapp_short_name": "pick"})
    app = build_application(settings, request=transport, get_updates_request=transport)
    table = await Table.start(app, transport)
    try:
        yield table
    finally:
        await table.stop()


async def test_season_card_carries_the_page_button(linked_table: Table) -> None:
    await two_nights(linked_table)
    turn = await linked_table.say("eve", "/season")
    [photo] = turn.of("sendPhoto")
    markup = photo.params["reply_markup"]
    markup = json.loads(markup) if isinstance(markup, str) else markup
    [[button]] = markup["inline_keyboard"]
    assert button["text"] == "📈 赛季页"
    url = urlsplit(button["url"])
    assert url.netloc == "t.me" and url.path.endswith("/pick")
    token = parse_qs(url.query)["startapp"][0]
    assert read_group_token(linked_table.app.bot.token, token) == linked_table.chat_id


async def test_without_the_mini_app_no_button(table: Table) -> None:
    await two_nights(table)
    turn = await table.say("eve", "/season")
    [photo] = turn.of("sendPhoto")
    assert not photo.params.get("reply_markup")


@pytest.mark.slow
async def test_console_prints_a_season_url_signed_for_the_user(tmp_path: Path) -> None:
    settings = Settings(_env_file=None, data_dir=tmp_path, telegram_bot_token=None)  # type: ignore[call-arg]
    out, seen = io.StringIO(), {}
    url = re.compile(r"(http://127\.0\.0\.1:\d+/app/season/)#(\S+)")

    class Lines(io.StringIO):  # at the end of input, fetch the page while the console still serves it
        def readline(self, *args: object) -> str:
            line = super().readline()
            if not line:
                for _ in range(600):
                    match = url.search(out.getvalue())
                    if match is not None:
                        seen["fragment"] = match.group(2)
                        seen["page"] = urllib.request.urlopen(match.group(1), timeout=10).read().decode()
                        break
                    time.sleep(0.05)
            return line

    assert await run_console_async(settings, stdin=Lines("ann: hello\n:season ann\n"), stdout=out) == 0
    assert "📈 ann 的赛季页：http://127.0.0.1:" in out.getvalue()
    user = check_init_data(CONSOLE_TOKEN, parse_qs(seen["fragment"])["tgWebAppData"][0])
    assert user.username == "ann" and user.start_param is not None
    assert read_group_token(CONSOLE_TOKEN, user.start_param) < 0  # the console's group
    assert "data-standings" in seen["page"] and "telegram-web-app.js" not in seen["page"]
