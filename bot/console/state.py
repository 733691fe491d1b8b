"""In-memory Telegram Bot API for group chats: the state behind the in-process transport and test server.

The pieces live in their own modules, one way round: `model` (data types) ← `params` (request fields) ←
`chats` (users, chats, messages, update queue) ← `methods` (the Bot API methods) ← here, where
`BotAPIState` puts the chats and the methods together. Import these names from here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.console.chats import ChatServer, stable_user_id
from bot.console.methods import HANDLERS
from bot.console.model import JSON, BotAPIError, Call, ChatState, UploadedFile, bad_request
from bot.console.params import decode_params

__all__ = [
    "JSON",
    "BotAPIError",
    "BotAPIState",
    "Call",
    "ChatState",
    "UploadedFile",
    "bad_request",
    "decode_params",
    "stable_user_id",
]


class BotAPIState(ChatServer):
    """Chats, users, messages, uploads and the update queue of a fake Telegram server (see ChatServer),
    and a log of calls. `handle(method, params, files)` answers one Bot API request with (HTTP status,
    JSON body); `params` are the string-valued form fields PTB sends (JSON-encoded for non-strings),
    decoded here exactly as an HTTP server would. Incoming traffic is built with `message()` and `press()`.

    >>> api = BotAPIState()
    >>> chat = api.add_group(title="牌桌")
    >>> update = api.message(chat, "ann", "/newgame 苏州 5")
    >>> update["message"]["entities"][0]["type"], update["message"]["from"]["username"]
    ('bot_command', 'ann')
    """

    def handle(
        self,
        method: str,
        params: Mapping[str, Any],
        files: Mapping[str, UploadedFile] | None = None,
    ) -> tuple[int, JSON]:
        """Answers one Bot API request: (HTTP status, JSON body {"ok": ..., "result" | "description": ...}).

        `method` is matched case-insensitively as Telegram does; `params` may hold raw form strings.
        getUpdates here never waits (the transports do the long poll around `take_updates`).
        """
        decoded = decode_params(params)
        with self.lock:
            call = Call(index=len(self.calls), method=method, params=decoded, files=dict(files or {}))
            handler = HANDLERS.get(method.lower())
            try:
                if handler is None:
                    raise bad_request(f"method {method!r} is not implemented by the in-memory Bot API")
                self.refuse_migrated(decoded.get("chat_id"))
                call.result = handler(self, decoded, call.files)
            except BotAPIError as exc:
                call.status, call.description, call.parameters = exc.status, exc.description, exc.parameters
            self.calls.append(call)
            self._emit("call", call)
            if call.ok:
                return 200, {"ok": True, "result": call.result}
            body: JSON = {"ok": False, "error_code": call.status, "description": call.description}
            if call.parameters:
                body["parameters"] = call.parameters
            return call.status, body
