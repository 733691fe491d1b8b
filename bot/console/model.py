"""The Bot API's data as the in-memory server keeps it: errors, uploads, recorded calls, group chats."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

JSON = dict[str, Any]


class BotAPIError(Exception):
    """A Bot API error answer: HTTP status plus Telegram's description."""

    def __init__(self, status: int, description: str, parameters: JSON | None = None) -> None:
        super().__init__(description)
        self.status = status
        self.description = description
        self.parameters = parameters  # ResponseParameters: migrate_to_chat_id, retry_after


def bad_request(description: str) -> BotAPIError:
    """A 400 answer with Telegram's "Bad Request: ..." description."""
    return BotAPIError(400, f"Bad Request: {description}")


@dataclass(frozen=True, slots=True)
class UploadedFile:
    """A file the bot uploaded (multipart part), kept with its bytes."""

    filename: str
    content: bytes
    mime_type: str | None
    file_id: str = ""

    @property
    def size(self) -> int:
        return len(self.content)


@dataclass(slots=True)
class Call:
    """One Bot API request the bot made: method, decoded parameters, uploads, and the answer given."""

    index: int
    method: str
    params: JSON
    files: dict[str, UploadedFile]
    status: int = 200
    result: Any = None
    description: str | None = None
    parameters: JSON | None = None
    at: float = field(default_factory=time.time)

    @property
    def ok(self) -> bool:
        return self.status == 200


@dataclass(slots=True)
class ChatState:
    """One group chat as Telegram's server sees it."""

    id: int
    title: str
    type: str = "supergroup"
    creator: int | None = None
    admins: set[int] = field(default_factory=set)
    bot_is_admin: bool = True
    can_pin: bool = True
    next_message_id: int = 1
    messages: dict[int, JSON] = field(default_factory=dict)
    deleted: set[int] = field(default_factory=set)
    pinned: list[int] = field(default_factory=list)
    members: set[int] = field(default_factory=set)
    migrated_to: int | None = None  # a group turned into this supergroup: every call to it is refused

    def as_chat(self) -> JSON:
        return {"id": self.id, "type": self.type, "title": self.title}
