"""What one connection may cost the web server: its request header in so many seconds (uvicorn has no such
bound: an incomplete header would hold its connection for good) and at most so many bytes, a body of at
most so many bytes read in so many seconds, each refused with the server's own headers."""

from __future__ import annotations

import asyncio
from typing import Any

import h11
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol

HEADER_SECONDS = 10.0  # from the connection (or the end of the last response) to a request's whole header
HEADER_BYTES = 16 * 1024  # h11's bound on an incomplete header (`h11_max_incomplete_event_size`)
BODY_BYTES = 1024 * 1024  # a Telegram update, a picker submission: a few kilobytes
BODY_SECONDS = 10.0  # the whole body, once the header is in


class BoundedH11(H11Protocol):
    """uvicorn's h11 protocol with a header timeout: a connection whose request header is not complete
    `HEADER_SECONDS` after it opened (or after its last response) is closed. uvicorn's `timeout_keep_alive`
    only closes a connection that sends nothing; a byte at a time defeats it."""

    header_seconds = HEADER_SECONDS

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._header_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:  # the header is in (or the connection is done with)
            self._disarm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()  # the next request on this connection gets the same time for its header

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        self._header_timer = self.loop.call_later(self.header_seconds, self._too_slow)

    def _disarm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _too_slow(self) -> None:
        self._header_timer = None
        if not self.transport.is_closing() and self.conn.their_state is h11.IDLE:
            self.transport.close()


class BodyTooLarge(Exception):
    """A request body past `BODY_BYTES`."""


class BodyTooSlow(Exception):
    """A request body not in after `BODY_SECONDS`."""


class BodyLimit:
    """Every request body at most `BODY_BYTES` (a larger Content-Length is refused before a byte is
    read: 413) and read in `BODY_SECONDS` (408); inside `SecurityHeaders`, so the refusal has its headers."""

    def __init__(self, app: ASGIApp, max_bytes: int = BODY_BYTES, seconds: float = BODY_SECONDS) -> None:
        self.app, self.max_bytes, self.seconds = app, max_bytes, seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope.get("headers") or []).get(b"content-length", b"")
        if length.isdigit() and int(length) > self.max_bytes:
            await Response(status_code=413)(scope, receive, send)
            return
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.seconds
        seen = 0
        started = False

        async def bounded_receive() -> Message:
            nonlocal seen
            try:
                message = await asyncio.wait_for(receive(), max(0.0, deadline - loop.time()))
            except TimeoutError:
                raise BodyTooSlow from None
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:
                    raise BodyTooLarge
            return message

        async def noting_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, bounded_receive, noting_send)
        except (BodyTooLarge, BodyTooSlow) as exc:
            if started:
                raise
            status = 413 if isinstance(exc, BodyTooLarge) else 408
            await Response(status_code=status)(scope, receive, send)
