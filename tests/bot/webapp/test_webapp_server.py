"""The one web server beside the Application (`bot.webapp.server.run`), in webhook mode: Telegram's
webhook with its secret, the picker's page and API on the same port; polling mode runs the Updater beside
the same server."""

from __future__ import annotations

import asyncio

import httpx
from harness import GROUP_ID, OTHERS, PLAYERS
from pydantic import SecretStr

from bot.app import build_application
from bot.console.transport import InProcessBotAPI
from bot.settings import Settings
from bot.webapp.server import LocalServer, build_web, run


async def wait_for(condition: object, seconds: float = 10.0) -> None:
    for _ in range(int(seconds / 0.05)):
        if condition():  # type: ignore[operator]
            return
        await asyncio.sleep(0.05)
    raise AssertionError("timed out")


async def serve(settings: object, transport: InProcessBotAPI) -> tuple[asyncio.Task[None], LocalServer, str]:
    for name, user_id in {**PLAYERS, **OTHERS}.items():
        transport.add_user(name, user_id=user_id)
    transport.add_group(GROUP_ID, "周五麻将", creator="zoe")
    app = build_application(settings, request=transport, get_updates_request=transport)  # type: ignore[arg-type]
    app.bot._rate_limiter = None  # type: ignore[attr-defined]
    server = LocalServer(build_web(app, settings))  # type: ignore[arg-type]
    task = asyncio.create_task(run(app, settings, server))  # type: ignore[arg-type]
    await wait_for(lambda: server.started or task.done())
    return task, server, server.url.removesuffix("/app/")


async def test_webhook_mode_serves_the_webhook_and_the_picker(
    bot_settings: Settings, transport: InProcessBotAPI
) -> None:
    settings = bot_settings.model_copy(
        update={
            "mode": "webhook",
            "webhook_url": "https://bot.example.org/tg",
            "webhook_path": "tg",
            "webhook_secret": SecretStr("s3cret"),
            "webapp_url": "https://bot.example.org/app/",
        }
    )
    task, server, base = await serve(settings, transport)
    try:
        assert transport.calls_of("setWebhook")[-1].params["url"] == "https://bot.example.org/tg"
        update = transport.state.message(GROUP_ID, "ann", "/help")
        async with httpx.AsyncClient(base_url=base) as http:
            refused = await http.post("/tg", json=update, headers={"X-Telegram-Bot-Api-Secret-Token": "no"})
            accepted = await http.post(
                "/tg", json=update, headers={"X-Telegram-Bot-Api-Secret-Token": "s3cret"}
            )
            page = await http.get("/app/")
            script = await http.get("/app/static/picker.js")
            api = await http.get("/api/table")
        assert (refused.status_code, accepted.status_code) == (403, 200)
        await wait_for(lambda: transport.calls_of("sendMessage"))
        assert transport.calls_of("sendMessage")[-1].params["chat_id"] == GROUP_ID
        assert (
            page.status_code == 200
            and "telegram-web-app.js" in page.text
            and 'data-action="submit"' in page.text
        )
        assert script.status_code == 200 and "switchInlineQuery" in script.text
        assert api.status_code == 401
    finally:
        server.should_exit = True
        await task


async def test_polling_mode_polls_beside_the_picker(
    bot_settings: Settings, transport: InProcessBotAPI
) -> None:
    settings = bot_settings.model_copy(update={"webapp_url": "https://bot.example.org/app/"})
    task, server, base = await serve(settings, transport)
    try:
        transport.state.message(GROUP_ID, "ann", "/help", enqueue=True)
        await wait_for(lambda: transport.calls_of("sendMessage"))
        async with httpx.AsyncClient(base_url=base) as http:
            assert (await http.get("/healthcheck")).json() == {"ok": True}
    finally:
        server.should_exit = True
        await task
