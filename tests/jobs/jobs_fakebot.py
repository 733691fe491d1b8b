"""A minimal recording Bot API for the job and summary tests: answers valid JSON, remembers every call."""

from __future__ import annotations

import itertools
import json
import time
from dataclasses import dataclass, field
from typing import Any

from telegram.ext import Application, ApplicationBuilder
from telegram.request import BaseRequest, RequestData

BOT_ID = 4242


@dataclass
class Call:
    """One Bot API call: method name, parameters (JSON-decoded), uploaded files by field."""

    method: str
    params: dict[str, Any]
    files: dict[str, bytes] = field(default_factory=dict)


def _decode(value: str) -> Any:
    """Bot API parameters arrive as strings: numbers and JSON objects back to Python, text as it is."""
    if value[:1] in "[{-0123456789":
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


class RecordingRequest(BaseRequest):
    """Answers getMe, send*/edit* and a few others with well-formed results; records each call."""

    def __init__(self, calls: list[Call] | None = None) -> None:
        self.calls: list[Call] = calls if calls is not None else []
        self.members: set[int] = set()  # user ids answered as plain members; everyone else is an admin
        self._ids = itertools.count(100)

    @property
    def read_timeout(self) -> float | None:
        return 1.0

    async def initialize(self) -> None:
        return None

    async def shutdown(self) -> None:
        return None

    def of(self, method: str) -> list[Call]:
        """The calls of one method, in order."""
        return [c for c in self.calls if c.method == method]

    def _message(self, chat_id: int, **fields: Any) -> dict[str, Any]:
        return {
            "message_id": fields.pop("message_id", None) or next(self._ids),
            "date": int(time.time()),
            "chat": {"id": chat_id, "type": "group", "title": "table"},
            "from": {"id": BOT_ID, "is_bot": True, "first_name": "bot", "username": "mahjong_bot"},
            **fields,
        }

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: Any = None,
        write_timeout: Any = None,
        connect_timeout: Any = None,
        pool_timeout: Any = None,
    ) -> tuple[int, bytes]:
        name = url.rsplit("/", 1)[-1]
        params: dict[str, Any] = {}
        files: dict[str, bytes] = {}
        if request_data is not None:
            params = {k: _decode(v) for k, v in request_data.json_parameters.items()}
            for key, value in request_data.multipart_data.items():
                content = value[1] if isinstance(value, tuple) else value
                files[key] = content if isinstance(content, bytes) else content.read()
        self.calls.append(Call(name, params, files))
        chat_id = int(params.get("chat_id", 0) or 0)
        result: Any = True
        if name == "getMe":
            result = {
                "id": BOT_ID,
                "is_bot": True,
                "first_name": "bot",
                "username": "mahjong_bot",
                "can_join_groups": True,
                "can_read_all_group_messages": False,
                "supports_inline_queries": False,
            }
        elif name == "sendMessage" or name == "editMessageText":
            result = self._message(
                chat_id, text=params.get("text", ""), message_id=int(params.get("message_id", 0) or 0) or None
            )
        elif name == "sendPhoto":
            result = self._message(
                chat_id, photo=[{"file_id": "p1", "file_unique_id": "p1", "width": 960, "height": 540}]
            )
        elif name == "sendDocument":
            result = self._message(chat_id, document={"file_id": "d1", "file_unique_id": "d1"})
        elif name == "getChatMember" and int(params["user_id"]) in self.members:
            result = {
                "status": "member",
                "user": {"id": int(params["user_id"]), "is_bot": False, "first_name": "member"},
            }
        elif name == "getChatMember":
            result = {
                "status": "administrator",
                "user": {"id": int(params["user_id"]), "is_bot": False, "first_name": "admin"},
                "can_be_edited": False,
                "is_anonymous": False,
                "can_manage_chat": True,
                "can_delete_messages": True,
                "can_manage_video_chats": True,
                "can_restrict_members": True,
                "can_promote_members": True,
                "can_change_info": True,
                "can_invite_users": True,
                "can_post_stories": True,
                "can_edit_stories": True,
                "can_delete_stories": True,
            }
        return 200, json.dumps({"ok": True, "result": result}).encode()


def build_app(request: RecordingRequest, **bot_data: Any) -> Application[Any, Any, Any, Any, Any, Any]:
    """A PTB Application on the recording transport (no updater), with `bot_data` filled in."""
    app = (
        ApplicationBuilder()
        .token("123456:TEST")
        .request(request)
        .get_updates_request(RecordingRequest())
        .updater(None)
        .build()
    )
    app.bot_data.update(bot_data)
    return app
