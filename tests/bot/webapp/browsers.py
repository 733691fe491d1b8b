"""What the Mini App's browser tests share: Debian's chromium driven by Playwright (a test module importing
this is skipped where chromium is missing, except in CI, which installs it), the `browser` fixture (imported
as `browser_fixture`), a page at 360 px that may reach nothing outside this machine, and where screenshots
go (SCREENS, else /work/screens on the team's machines, else a temp folder)."""

from __future__ import annotations

import os
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

CHROMIUM = Path("/usr/bin/chromium")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
TEAM_SCREENS = "/work/screens" if Path("/work").is_dir() else tempfile.gettempdir()
SCREENS = Path(os.environ.get("SCREENS") or TEAM_SCREENS)

if not CHROMIUM.exists():
    if os.environ.get("CI"):
        raise RuntimeError(".ci/run installs Debian's chromium: the browser test must run in CI")
    pytest.skip("Debian's chromium is not installed here (apt-get install chromium)", allow_module_level=True)
async_api = pytest.importorskip("playwright.async_api")


@pytest.fixture(name="browser")
async def browser_fixture() -> AsyncIterator[Any]:
    """Chromium, for one test (`browser`; a module using it imports this by this name)."""
    async with async_api.async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        try:
            yield launched
        finally:
            await launched.close()


async def open_page(browser: Any, url: str, *, height: int, dark: bool = False) -> Any:
    """`url` in a new 360 px wide page, once the page says it is ready (or refused)."""
    context = await browser.new_context(
        viewport={"width": 360, "height": height},
        color_scheme="dark" if dark else "light",
        device_scale_factor=2,
    )

    async def local_only(route: Any) -> None:  # the page must need nothing from outside this machine
        host = urlsplit(route.request.url).hostname
        await (route.continue_() if host == "127.0.0.1" else route.abort())

    await context.route("**/*", local_only)
    page = await context.new_page()
    await page.goto(url)
    await page.wait_for_selector("main[data-state=ready], main[data-state=refused]")
    return page
