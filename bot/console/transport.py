"""InProcessBotAPI: a python-telegram-bot request object that answers the Bot API from memory, no network."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Mapping
from typing import Any

from telegram._utils.defaultvalue import DEFAULT_NONE
from telegram._utils.types import ODVInput
from telegram.request import BaseRequest, RequestData

from bot.console.state import JSON, BotAPIState, Call, UploadedFile


def uploads_of(request_data: RequestData | None) -> dict[str, UploadedFile]:
    """The multipart parts of a PTB request (InputFile field tuples) as UploadedFile values."""
    files: dict[str, UploadedFile] = {}
    if request_data is None or not request_data.contains_files:
        return files
    for name, (filename, content, mime_type) in request_data.multipart_data.items():
        data = content if isinstance(content, bytes) else content.read()
        files[name] = UploadedFile(filename=filename or name, content=bytes(data), mime_type=mime_type)
    return files


class InProcessBotAPI(BaseRequest):
    """An in-memory Bot API for group chats, plugged into PTB as its request object.

    Give the same instance as `request` and `get_updates_request` to `ApplicationBuilder` (or to
    `bot.app.build_application`). Every call goes through `BotAPIState.handle` with the string-valued
    form fields an HTTP server would receive, so the bot cannot tell it from Telegram for the methods a
    group scorekeeper uses. getUpdates long-polls: it waits up to the request's `timeout` for `enqueue`.

    Tests drive the bot with `message()` / `press()` (Update dicts; PTB needs
    `app.bot.insert_callback_data(update)` before `process_update` for arbitrary callback data) and read
    what it did from `calls` / `sent()` / `state`.
    """

    __slots__ = ("_closed", "_loop_waiters", "state")

    def __init__(self, state: BotAPIState | None = None, **state_options: Any) -> None:
        self.state = state if state is not None else BotAPIState(**state_options)
        self._closed = False
        self._loop_waiters: list[asyncio.Event] = []

    # -- BaseRequest

    @property
    def read_timeout(self) -> float | None:
        return 5.0

    async def initialize(self) -> None:
        self._closed = False

    async def shutdown(self) -> None:
        self._closed = True
        with self.state.lock:
            self.state.updates_changed.notify_all()

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: ODVInput[float] = DEFAULT_NONE,
        write_timeout: ODVInput[float] = DEFAULT_NONE,
        connect_timeout: ODVInput[float] = DEFAULT_NONE,
        pool_timeout: ODVInput[float] = DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        api_method = url.rstrip("/").rsplit("/", 1)[-1]
        params = request_data.json_parameters if request_data is not None else {}
        files = uploads_of(request_data)
        if api_method.lower() == "getupdates":
            await self._long_poll(params)
        status, body = self.state.handle(api_method, params, files)
        return status, json.dumps(body, ensure_ascii=False).encode()

    async def _long_poll(self, params: Mapping[str, str]) -> None:
        """Waits until an update past `offset` is queued or `timeout` seconds pass."""
        timeout = float(params.get("timeout") or 0)
        offset = int(params["offset"]) if params.get("offset") else None
        with self.state.lock:
            self.state.polls_started += 1
        if timeout <= 0 or self.state.take_updates(offset, 1):
            return
        loop = asyncio.get_running_loop()
        arrived = asyncio.Event()

        def wake(kind: str, payload: Any) -> None:
            if kind == "update":
                loop.call_soon_threadsafe(arrived.set)

        unsubscribe = self.state.subscribe(wake)
        try:
            deadline = time.monotonic() + timeout
            while not self._closed and not self.state.take_updates(offset, 1):
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    break
                arrived.clear()
                try:
                    await asyncio.wait_for(arrived.wait(), remaining)
                except TimeoutError:
                    break
        finally:
            unsubscribe()

    # -- conveniences for tests and the console

    @property
    def calls(self) -> list[Call]:
        """Every Bot API call so far, oldest first."""
        return self.state.calls

    def calls_of(self, *methods: str) -> list[Call]:
        """Calls of the given methods, oldest first."""
        return self.state.calls_of(*methods)

    def add_group(self, chat_id: int | None = None, title: str = "麻将桌", **options: Any) -> int:
        """See BotAPIState.add_group."""
        return self.state.add_group(chat_id, title, **options)

    def add_user(self, name: str, **options: Any) -> JSON:
        """See BotAPIState.add_user."""
        return self.state.add_user(name, **options)

    def message(self, chat_id: int, user: str | Mapping[str, Any], text: str, **options: Any) -> JSON:
        """A user's message Update dict (see BotAPIState.message)."""
        return self.state.message(chat_id, user, text, **options)

    def press(
        self,
        chat_id: int,
        user: str | Mapping[str, Any],
        message_id: int | None,
        button: str | int | tuple[int, int],
        **options: Any,
    ) -> JSON:
        """A callback_query Update dict for tapping a button (see BotAPIState.press)."""
        return self.state.press(chat_id, user, message_id, button, **options)

    def sent(self, chat_id: int | None = None) -> list[Call]:
        """Successful calls that put a new message in a chat (sendMessage, sendPhoto, sendDice, ...)."""
        return [
            c
            for c in self.state.calls
            if c.ok
            and c.method.startswith("send")
            and c.method != "sendChatAction"
            and (chat_id is None or c.result["chat"]["id"] == chat_id)
        ]
