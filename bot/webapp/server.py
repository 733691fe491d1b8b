"""The one web server beside the Application (the shape of PTB's `customwebhookbot` example, Starlette and
uvicorn), in every configuration that needs one: Telegram's webhook in webhook mode, the picker's page and
API when WEBAPP_URL is set (in polling mode the Updater polls beside it). Nothing is kept in memory between
requests: several workers can serve one database."""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import socket
from collections.abc import Callable, Coroutine, Iterator
from importlib.resources import files
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.datastructures import MutableHeaders
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from telegram import Update

from bot.app import AnyApplication
from bot.settings import Settings
from bot.webapp.api import ROUTES, ApiError, api_error_response, new_recent
from bot.webapp.limits import HEADER_BYTES, BodyLimit, BoundedH11
from bot.webapp.season import ROUTES as SEASON_ROUTES

log = logging.getLogger(__name__)

PAGE_PATH = "/app/"
SEASON_PATH = "/app/season/"  # the season page: the same Mini App, opened with a group token
# Telegram's script for Mini Apps: the page needs it inside Telegram; console mode has no Telegram.
TELEGRAM_SCRIPT = '<script src="https://telegram.org/js/telegram-web-app.js"></script>'
SCRIPT_SLOT = "<!-- telegram-web-app -->"


def page_html(*, inside_telegram: bool, name: str = "index.html") -> str:
    """A page's HTML (the picker's, or `season.html`), with Telegram's Mini App script unless the page runs
    outside Telegram."""
    html = (files("bot.webapp") / "static" / name).read_text(encoding="utf-8")
    return html.replace(SCRIPT_SLOT, TELEGRAM_SCRIPT if inside_telegram else "")


def build_web(application: AnyApplication, settings: Settings, *, console: bool = False) -> Starlette:
    """The Starlette app: /healthcheck; the picker (/app/, /app/static/*, /api/*) when it is configured
    (WEBAPP_URL) or in console mode; Telegram's webhook path in webhook mode."""
    html = page_html(inside_telegram=not console)
    season_html = page_html(inside_telegram=not console, name="season.html")

    async def page(_request: Request) -> HTMLResponse:
        return HTMLResponse(html, headers={"Cache-Control": "no-cache"})

    async def season_page(_request: Request) -> HTMLResponse:
        return HTMLResponse(season_html, headers={"Cache-Control": "no-cache"})

    async def favicon(_request: Request) -> RedirectResponse:  # browsers ask for it at the root
        return RedirectResponse("/app/static/favicon.svg", status_code=301)

    async def health(_request: Request) -> JSONResponse:
        return JSONResponse({"ok": True})

    routes: list[BaseRoute] = [Route("/healthcheck", health, methods=["GET"])]
    if settings.webapp_url or console:
        static = StaticFiles(directory=str(files("bot.webapp") / "static"))
        routes += [
            Route(PAGE_PATH, page, methods=["GET"]),
            Route(SEASON_PATH, season_page, methods=["GET"]),
            Mount("/app/static", static, name="static"),
            Route("/favicon.ico", favicon, methods=["GET"]),
            *ROUTES,
            *SEASON_ROUTES,
        ]
    if settings.mode == "webhook" and not console:
        routes.append(Route("/" + settings.webhook_path.lstrip("/"), webhook(settings), methods=["POST"]))
    middleware = [
        Middleware(GZipMiddleware, minimum_size=500),
        Middleware(SecurityHeaders),
        Middleware(BodyLimit),
    ]
    web = Starlette(routes=routes, exception_handlers={ApiError: api_error_response}, middleware=middleware)
    web.state.application = application
    web.state.recent = (
        new_recent()
    )  # the API's rate limits: (kind, user id) -> the times of their recent requests
    return web


# Scripts from the page itself and Telegram's Mini App script only; framed only by Telegram's web clients.
CSP = (
    "default-src 'self'; script-src 'self' https://telegram.org; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; "
    "frame-ancestors 'self' https://web.telegram.org https://*.telegram.org"
)
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
STATIC_CACHE = "public, max-age=3600"  # the page itself is no-cache: a new version is seen at once


class SecurityHeaders:
    """Every response of the web server with CSP, nosniff and Referrer-Policy; static files cacheable."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        static = str(scope.get("path", "")).startswith("/app/static/")

        started = False

        async def with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers = MutableHeaders(scope=message)
                for name, value in HEADERS.items():
                    headers[name] = value
                if static:
                    headers["Cache-Control"] = STATIC_CACHE
            await send(message)

        try:
            await self.app(scope, receive, with_headers)
        except Exception:
            if not started:  # the 500 with its headers and no traceback; the error is logged by uvicorn
                await Response("Internal Server Error", status_code=500)(scope, receive, with_headers)
            raise


def webhook(settings: Settings) -> Callable[[Request], Coroutine[Any, Any, Response]]:
    """The webhook route: Telegram's secret header checked, the update queued for the Application. A body
    that is no update (not JSON, nested past the parser's depth, a list or a string, no integer
    `update_id`, fields Telegram's types cannot read) is answered 400; the body's size and time are
    bounded by `limits.BodyLimit`."""
    secret = settings.webhook_secret.get_secret_value() if settings.webhook_secret else None

    async def receive(request: Request) -> Response:
        if secret is not None:
            given = request.headers.get("x-telegram-bot-api-secret-token", "")
            if not hmac.compare_digest(given.encode(), secret.encode()):
                return Response(status_code=403)
        application: AnyApplication = request.app.state.application
        try:
            data = json.loads(await request.body())
        except (ValueError, RecursionError):
            return Response(status_code=400)
        if not isinstance(data, dict) or type(data.get("update_id")) is not int:
            return Response(status_code=400)
        try:
            update = Update.de_json(data, application.bot)
        except Exception as exc:  # whatever Telegram's types make of a malformed update
            log.info("webhook body is no update: %s", type(exc).__name__)
            return Response(status_code=400)
        await application.update_queue.put(update)
        return Response()

    return receive


def web_server(web: Starlette, host: str, port: int) -> uvicorn.Server:
    """uvicorn serving `web` (`server_config`)."""
    return uvicorn.Server(server_config(web, host, port))


def server_config(web: Starlette, host: str, port: int) -> uvicorn.Config:
    """uvicorn's settings for `web`: quiet, the header bounded in time and size (`limits.BoundedH11`)."""
    return uvicorn.Config(
        web,
        host=host,
        port=port,
        log_level="warning",
        access_log=False,
        lifespan="off",
        http=BoundedH11,
        h11_max_incomplete_event_size=HEADER_BYTES,
    )


class LocalServer(uvicorn.Server):
    """uvicorn started and stopped by its owner (console mode, tests), with no signal handlers of its own,
    on 127.0.0.1; port 0 picks a free one. `url` is the picker page's address once started."""

    def __init__(self, web: Starlette, port: int = 0) -> None:
        super().__init__(server_config(web, "127.0.0.1", port))
        self._task: asyncio.Task[None] | None = None

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield

    async def start(self) -> str:
        """Serve in the background; the page's URL (OSError when the port is taken: bound here, so that
        uvicorn never exits the process over it)."""
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((self.config.host, self.config.port))
        except OSError:
            sock.close()
            raise
        self._task = asyncio.create_task(self.serve(sockets=[sock]))
        while not self.started:
            if self._task.done():
                self._task.result()  # raises what stopped it
                raise OSError(f"the picker's server did not start on port {self.config.port}")
            await asyncio.sleep(0.02)
        return self.url

    @property
    def url(self) -> str:
        port = self.servers[0].sockets[0].getsockname()[1] if self.servers else self.config.port
        return f"http://127.0.0.1:{port}{PAGE_PATH}"

    async def stop(self) -> None:
        """Stop serving and wait for it."""
        self.should_exit = True
        if self._task is not None:
            with contextlib.suppress(Exception):
                await self._task


async def run(application: AnyApplication, settings: Settings, server: uvicorn.Server | None = None) -> None:
    """Run the bot and its web server until SIGINT/SIGTERM (uvicorn's): polling beside it, or the
    webhook registered with Telegram and served by it. `server` replaces the one the settings describe
    (tests: a LocalServer, stopped by its owner)."""
    webhook_mode = settings.mode == "webhook"
    host = settings.webhook_listen if webhook_mode else settings.webapp_listen
    port = settings.webhook_port if webhook_mode else settings.webapp_port
    if server is None:
        server = web_server(build_web(application, settings), host, port)
    async with application:
        if application.post_init is not None:
            await application.post_init(application)
        if not webhook_mode:
            assert application.updater is not None
            await application.updater.start_polling(allowed_updates=Update.ALL_TYPES)
        await application.start()
        serving = asyncio.create_task(server.serve())
        while not server.started and not serving.done():  # listening before Telegram is told where
            await asyncio.sleep(0.01)
        if webhook_mode and not serving.done():
            assert settings.webhook_url is not None
            secret = settings.webhook_secret.get_secret_value() if settings.webhook_secret else None
            await application.bot.set_webhook(
                settings.webhook_url, allowed_updates=Update.ALL_TYPES, secret_token=secret
            )
        if settings.webapp_url:
            log.info("picker page at %s (listening on %s:%s)", settings.webapp_url, host, port)
        else:
            log.info("webhook at %s (listening on %s:%s)", settings.webhook_url, host, port)
        try:
            await serving
        finally:
            if application.updater is not None and application.updater.running:
                await application.updater.stop()
            await application.stop()


def serve(application: AnyApplication, settings: Settings) -> int:
    """`run` in a fresh event loop; the exit status."""
    asyncio.run(run(application, settings))
    return 0
