"""The webhook with the right secret still answers only what is an update: a body that is JSON but no update
(a list, a string, nesting deeper than the parser goes, fields Telegram's types cannot read) gets a 400 with
the security headers, never a 500 with a traceback; a body past the bound is refused (413) before it is
read; a connection whose request header does not come in time is closed."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

import httpx
import pytest
from harness import GROUP_ID, OTHERS, PLAYERS
from pydantic import SecretStr

from bot.app import build_application
from bot.console.transport import InProcessBotAPI
from bot.settings import Settings
from bot.webapp import limits
from bot.webapp.server import LocalServer, build_web, run

SECRET = {"X-Telegram-Bot-Api-Secret-Token": "s3cret"}
pytestmark = pytest.mark.slow  # a real server on a port


@pytest.fixture
async def base(bot_settings: Settings, transport: InProcessBotAPI) -> AsyncIterator[str]:
    settings = bot_settings.model_copy(
        update={
            "mode": "webhook",
            "webhook_url": "https://bot.example.org/tg",
            "webhook_path": "tg",
            "webhook_secret": SecretStr("s3cret"),
        }
    )
    for name, user_id in {**PLAYERS, **OTHERS}.items():
        transport.add_user(name, user_id=user_id)
    transport.add_group(GROUP_ID, "周五麻将", creator="zoe")
    app = build_application(settings, request=transport, get_updates_request=transport)
    server = LocalServer(build_web(app, settings))
    task = asyncio.create_task(run(app, settings, server))
    while not server.started and not task.done():
        await asyncio.sleep(0.02)
    try:
        yield server.url.removesuffix("/app/")
    finally:
        server.should_exit = True
        await task


def deep(levels: int) -> bytes:
    return b"[" * levels + b"]" * levels


async def test_a_body_that_is_no_update_gets_a_400_with_the_headers(
    base: str, transport: InProcessBotAPI
) -> None:
    bodies = [
        b"[1, 2, 3]",
        b'"an update"',
        b"42",
        b"not json at all",
        deep(50_000),
        b'{"update_id": ' + deep(50_000) + b"}",
        b'{"update_id": "seven"}',
        b'{"update_id": 7, "message": 5}',
        b'{"update_id": 7, "message": {"chat": []}}',
    ]
    async with httpx.AsyncClient(base_url=base) as http:
        for body in bodies:
            answer = await http.post(
                "/tg", content=body, headers={**SECRET, "Content-Type": "application/json"}
            )
            assert answer.status_code == 400, (body[:40], answer.status_code, answer.text[:200])
            assert "content-security-policy" in answer.headers and "Traceback" not in answer.text
        update = transport.state.message(GROUP_ID, "ann", "/help")
        assert (await http.post("/tg", json=update, headers=SECRET)).status_code == 200


async def test_a_body_past_the_bound_is_refused_before_it_is_read(base: str) -> None:
    async with httpx.AsyncClient(base_url=base) as http:
        big = await http.post("/tg", content=b"{" + b" " * (20 * 1024 * 1024) + b"}", headers=SECRET)
        assert big.status_code == 413 and "content-security-policy" in big.headers

        async def chunks() -> AsyncIterator[bytes]:  # no Content-Length: counted as it comes
            for _ in range(40):
                yield b" " * 64 * 1024

        streamed = await http.post("/tg", content=chunks(), headers=SECRET)
        assert streamed.status_code == 413 and "content-security-policy" in streamed.headers


async def test_an_incomplete_header_does_not_hold_its_connection(
    base: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(limits.BoundedH11, "header_seconds", 0.5)
    host, port = base.removeprefix("http://").split(":")
    reader, writer = await asyncio.open_connection(host, int(port))
    began = time.monotonic()
    writer.write(b"POST /tg HTTP/1.1\r\nHost: bot\r\n")  # and never the blank line
    await writer.drain()
    for _ in range(10):  # a byte now and then: no idle timeout would ever fire
        await asyncio.sleep(0.1)
        if reader.at_eof():
            break
        writer.write(b"X")
        await writer.drain()
    closed = await asyncio.wait_for(reader.read(), 3)
    assert closed == b"" and time.monotonic() - began < 2.0
    writer.close()
