"""In-memory Telegram Bot API for group chats: the state behind the in-process transport and test server."""

from __future__ import annotations

import copy
import itertools
import json
import random
import re
import threading
import time
import zlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.console.markup import EntityParseError, incoming_entities, visible_text

JSON = dict[str, Any]

# Parameters that stay strings even when they look like JSON ("123", "true").
_STRING_PARAMS = frozenset(
    {
        "text",
        "caption",
        "emoji",
        "callback_query_id",
        "parse_mode",
        "url",
        "action",
        "language_code",
        "title",
        "description",
        "short_description",
        "name",
        "secret_token",
        "file_id",
        "business_connection_id",
        "inline_message_id",
        "message_effect_id",
        "custom_title",
    }
)
# Highest value of each animated dice emoji (https://core.telegram.org/bots/api#senddice).
DICE_FACES = {"🎲": 6, "🎯": 6, "🎳": 6, "🏀": 5, "⚽": 5, "🎰": 64}
MAX_TEXT = 4096
MAX_CAPTION = 1024


class BotAPIError(Exception):
    """A Bot API error answer: HTTP status plus Telegram's description."""

    def __init__(self, status: int, description: str) -> None:
        super().__init__(description)
        self.status = status
        self.description = description


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

    def as_chat(self) -> JSON:
        return {"id": self.id, "type": self.type, "title": self.title}


def _username_from(name: str) -> str | None:
    """The name as a Telegram username when it can be one (ASCII); a Chinese name has no username."""
    return name if re.fullmatch(r"[A-Za-z][A-Za-z0-9_]{2,31}", name) else None


def stable_user_id(name: str) -> int:
    """A user id derived from the name, the same in every run (the console keeps its ledger across runs)."""
    return 100_000 + zlib.crc32(name.lower().encode()) % 900_000_000


class BotAPIState:
    """Chats, users, messages, uploads and the update queue of a fake Telegram server, and a log of calls.

    Thread-safe: one lock guards everything, so an HTTP server thread and the test thread can share it.
    Stored messages change only by replacing top-level keys (never nested values in place), so a shallow
    copy is a faithful snapshot: each Call's result keeps showing the message as it was answered.
    `handle(method, params, files)` answers one Bot API request with (HTTP status, JSON body); `params` are
    the string-valued form fields PTB sends (JSON-encoded for non-strings), decoded here exactly as an
    HTTP server would. Incoming traffic is built with `message()` and `press()`.

    >>> api = BotAPIState()
    >>> chat = api.add_group(title="牌桌")
    >>> update = api.message(chat, "ann", "/newgame 苏州 5")
    >>> update["message"]["entities"][0]["type"], update["message"]["from"]["username"]
    ('bot_command', 'ann')
    """

    def __init__(
        self,
        *,
        bot_id: int = 7_000_000_001,
        bot_username: str = "suzhou_mahjong_bot",
        bot_name: str = "苏州麻将记分",
        seed: int | None = None,
        clock: Callable[[], float] = time.time,
        not_modified_errors: bool = True,
    ) -> None:
        self.bot_user: JSON = {
            "id": bot_id,
            "is_bot": True,
            "first_name": bot_name,
            "username": bot_username,
            "can_join_groups": True,
            "can_read_all_group_messages": True,
            "supports_inline_queries": False,
            "can_connect_to_business": False,
            "has_main_web_app": False,
        }
        self.clock = clock
        self.random = random.Random(seed)
        self.not_modified_errors = not_modified_errors
        self.lock = threading.RLock()
        self.updates_changed = threading.Condition(self.lock)
        self.users: dict[str, JSON] = {}
        self.users_by_id: dict[int, JSON] = {}
        self.chats: dict[int, ChatState] = {}
        self.calls: list[Call] = []
        self.files: dict[str, UploadedFile] = {}
        self.commands: dict[str, list[JSON]] = {}
        self.webhook_url = ""
        self.webhook_secret: str | None = None
        self.pending: list[JSON] = []
        self.polls_started = 0  # getUpdates requests received, counted when they arrive (before any wait)
        self.open_queries: dict[str, JSON] = {}
        self.answered_queries: dict[str, JSON] = {}
        self.forced_dice: list[int] = []
        self.next_update_id = 1
        self._query_ids = itertools.count(1)
        self._file_ids = itertools.count(1)
        self._listeners: list[Callable[[str, Any], None]] = []

    # ------------------------------------------------------------------ setup

    def add_user(
        self,
        name: str,
        *,
        user_id: int | None = None,
        username: str | None = None,
        first_name: str | None = None,
        last_name: str | None = None,
        language_code: str | None = None,
    ) -> JSON:
        """Registers a Telegram user under `name` (the handle tests and the console use). The username
        defaults to the name when it is ASCII (`ann`); a name like 小王 gets a first name and no username."""
        with self.lock:
            key = name.lower()
            user: JSON = {
                "id": user_id if user_id is not None else stable_user_id(key),
                "is_bot": False,
                "first_name": first_name or name[:1].upper() + name[1:],
                "username": username if username is not None else _username_from(name),
            }
            if not user["username"]:
                del user["username"]
            if last_name:
                user["last_name"] = last_name
            if language_code:
                user["language_code"] = language_code
            self.users[key] = user
            self.users_by_id[user["id"]] = user
            return user

    def user(self, name_or_user: str | Mapping[str, Any]) -> JSON:
        """The user registered under a name (created on first use), or the given user dict."""
        if not isinstance(name_or_user, str):
            return dict(name_or_user)
        with self.lock:
            return self.users.get(name_or_user.lower()) or self.add_user(name_or_user)

    def add_group(
        self,
        chat_id: int | None = None,
        title: str = "麻将桌",
        *,
        admins: Iterable[str | Mapping[str, Any]] = (),
        creator: str | Mapping[str, Any] | None = None,
        can_pin: bool = True,
        bot_is_admin: bool = True,
        type: str = "supergroup",
    ) -> int:
        """Creates a group chat, returns its id; `admins`/`creator` name users, `can_pin` lets the bot pin."""
        with self.lock:
            if chat_id is None:
                chat_id = -1_001_000_000_001 - len(self.chats)
            chat = ChatState(id=chat_id, title=title, type=type, can_pin=can_pin, bot_is_admin=bot_is_admin)
            if creator is not None:
                chat.creator = self.user(creator)["id"]
                chat.members.add(chat.creator)
            for admin in admins:
                uid = self.user(admin)["id"]
                chat.admins.add(uid)
                chat.members.add(uid)
            self.chats[chat_id] = chat
            return chat_id

    def chat(self, chat_id: int | str) -> ChatState:
        """The chat with this id; BotAPIError 400 "chat not found" otherwise."""
        with self.lock:
            try:
                return self.chats[int(chat_id)]
            except (KeyError, ValueError):
                raise bad_request("chat not found") from None

    def set_admins(self, chat_id: int, admins: Iterable[str | Mapping[str, Any]]) -> None:
        """Replaces the group's administrators (the creator stays)."""
        with self.lock:
            chat = self.chat(chat_id)
            chat.admins = {self.user(a)["id"] for a in admins}
            chat.members |= chat.admins

    def set_can_pin(self, chat_id: int, can_pin: bool) -> None:
        """Whether pinChatMessage succeeds in this chat (False answers "not enough rights")."""
        with self.lock:
            self.chat(chat_id).can_pin = can_pin

    def force_dice(self, *values: int) -> None:
        """The next sendDice calls answer these values, in order (then random again)."""
        with self.lock:
            self.forced_dice.extend(values)

    def subscribe(self, listener: Callable[[str, Any], None]) -> Callable[[], None]:
        """Calls `listener(kind, payload)` on each event: ("call", Call) after every request and
        ("update", dict) for every queued update. Returns the unsubscribe function. Runs under the lock."""
        with self.lock:
            self._listeners.append(listener)

        def unsubscribe() -> None:
            with self.lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)

        return unsubscribe

    def _emit(self, kind: str, payload: Any) -> None:
        for listener in list(self._listeners):
            listener(kind, payload)

    # --------------------------------------------------------------- incoming

    def _new_message(self, chat: ChatState, sender: JSON, **fields: Any) -> JSON:
        message: JSON = {
            "message_id": chat.next_message_id,
            "date": int(self.clock()),
            "chat": chat.as_chat(),
            "from": sender,
        }
        chat.next_message_id += 1
        message.update({k: v for k, v in fields.items() if v is not None})
        chat.messages[message["message_id"]] = message
        return message

    def message(
        self,
        chat_id: int,
        user: str | Mapping[str, Any],
        text: str,
        *,
        reply_to: int | None = None,
        enqueue: bool = False,
    ) -> JSON:
        """A user's text message in the group as an Update dict (entities for /commands and @mentions).

        `reply_to` makes it a reply to that message id; `enqueue` also queues it for getUpdates.
        """
        with self.lock:
            chat = self.chat(chat_id)
            sender = self.user(user)
            chat.members.add(sender["id"])
            entities = incoming_entities(text)
            reply = self._live(chat, reply_to) if reply_to is not None else None
            message = self._new_message(
                chat, sender, text=text, entities=entities or None, reply_to_message=_shallow(reply)
            )
            return self._update({"message": dict(message)}, enqueue)

    def find_button(self, chat_id: int, label: str) -> tuple[int, JSON]:
        """(message id, button) of the newest message whose inline keyboard has a button with this label.

        Exact label first, then a case-insensitive exact match, then a unique substring.
        """
        with self.lock:
            chat = self.chat(chat_id)
            for matcher in (
                lambda text: text == label,
                lambda text: text.casefold() == label.casefold(),
                lambda text: label.casefold() in text.casefold(),
            ):
                for message_id in sorted(chat.messages, reverse=True):
                    for button in _buttons(chat.messages[message_id]):
                        if matcher(button.get("text", "")):
                            return message_id, button
            raise KeyError(f"no button labelled {label!r} in chat {chat_id}")

    def press(
        self,
        chat_id: int,
        user: str | Mapping[str, Any],
        message_id: int | None,
        button: str | int | tuple[int, int],
        *,
        enqueue: bool = False,
    ) -> JSON:
        """A callback_query Update: `user` taps `button` (label, flat index, or (row, column)) of a message.

        With `message_id=None` the newest message having that label is used. The query carries the button's
        callback_data exactly as the bot sent it.
        """
        with self.lock:
            chat = self.chat(chat_id)
            sender = self.user(user)
            if message_id is None:
                if not isinstance(button, str):
                    raise ValueError("pressing by index needs a message_id")
                message_id, chosen = self.find_button(chat_id, button)
            else:
                message = self._live(chat, message_id)
                chosen = _pick_button(message, button)
            if "callback_data" not in chosen:
                raise ValueError(f"button {chosen.get('text')!r} has no callback_data ({sorted(chosen)})")
            query_id = f"{next(self._query_ids)}{self.random.randrange(10**8):08d}"
            query: JSON = {
                "id": query_id,
                "from": sender,
                "chat_instance": str(-chat.id),
                "data": chosen["callback_data"],
                "message": dict(chat.messages[message_id]),
            }
            self.open_queries[query_id] = query
            return self._update({"callback_query": query}, enqueue)

    def _update(self, body: JSON, enqueue: bool) -> JSON:
        update = {"update_id": self.next_update_id, **body}
        self.next_update_id += 1
        if enqueue:
            self.enqueue(update)
        return update

    def enqueue(self, update: JSON) -> None:
        """Queues an update for getUpdates and wakes long-polling readers."""
        with self.lock:
            self.pending.append(update)
            self._emit("update", update)
            self.updates_changed.notify_all()

    def acknowledge(self, update_id: int) -> None:
        """Forgets one delivered update (a webhook answered 200 for it)."""
        with self.lock:
            self.pending = [u for u in self.pending if u["update_id"] != update_id]

    def take_updates(self, offset: int | None = None, limit: int | None = None) -> list[JSON]:
        """getUpdates without waiting: drops updates below `offset`, returns up to `limit` (1-100) after."""
        with self.lock:
            if offset is not None and offset > 0:
                self.pending = [u for u in self.pending if u["update_id"] >= offset]
            elif offset is not None and offset < 0:
                self.pending = self.pending[offset:]
            count = 100 if not limit else max(1, min(int(limit), 100))
            return list(self.pending[:count])

    def wait_for_updates(self, offset: int | None, limit: int | None, timeout: float) -> list[JSON]:
        """getUpdates long poll for threads: blocks up to `timeout` seconds for an update."""
        deadline = time.monotonic() + max(0.0, timeout)
        with self.updates_changed:
            self.polls_started += 1
            while True:
                updates = self.take_updates(offset, limit)
                remaining = deadline - time.monotonic()
                if updates or remaining <= 0:
                    return updates
                self.updates_changed.wait(remaining)

    # ----------------------------------------------------------------- queries

    def calls_of(self, *methods: str) -> list[Call]:
        """Recorded calls of these methods (all calls without arguments), oldest first."""
        with self.lock:
            return [c for c in self.calls if not methods or c.method in methods]

    def bot_messages(self, chat_id: int) -> list[JSON]:
        """The bot's live messages in a chat, in message-id order, as they look now (after edits)."""
        with self.lock:
            chat = self.chat(chat_id)
            return [
                copy.deepcopy(m)
                for i, m in sorted(chat.messages.items())
                if m["from"]["id"] == self.bot_user["id"] and i not in chat.deleted
            ]

    def stored_message(self, chat_id: int, message_id: int) -> JSON:
        """One message as it looks now; KeyError if it never existed or was deleted."""
        with self.lock:
            chat = self.chat(chat_id)
            if message_id in chat.deleted or message_id not in chat.messages:
                raise KeyError(f"no message {message_id} in chat {chat_id}")
            return copy.deepcopy(chat.messages[message_id])

    def snapshot(self) -> JSON:
        """The chats, users and counters as JSON (the console keeps its group chat across runs)."""
        with self.lock:
            return {
                "users": self.users,
                "chats": [
                    {
                        "id": c.id,
                        "title": c.title,
                        "type": c.type,
                        "creator": c.creator,
                        "admins": sorted(c.admins),
                        "can_pin": c.can_pin,
                        "bot_is_admin": c.bot_is_admin,
                        "next_message_id": c.next_message_id,
                        "messages": [m for i, m in sorted(c.messages.items()) if i not in c.deleted],
                        "pinned": c.pinned,
                        "members": sorted(c.members),
                    }
                    for c in self.chats.values()
                ],
                "files": {
                    k: {"filename": f.filename, "mime_type": f.mime_type, "size": f.size}
                    for k, f in self.files.items()
                },
                "next_update_id": self.next_update_id,
            }

    def restore(self, data: Mapping[str, Any]) -> None:
        """Loads a snapshot() back (messages and pins; file contents are not kept)."""
        with self.lock:
            self.next_update_id = max(self.next_update_id, int(data.get("next_update_id", 1)))
            for key, user in data.get("users", {}).items():
                self.users[key] = user
                self.users_by_id[user["id"]] = user
            for c in data.get("chats", []):
                chat = ChatState(
                    id=c["id"],
                    title=c["title"],
                    type=c.get("type", "supergroup"),
                    creator=c.get("creator"),
                    admins=set(c.get("admins", [])),
                    can_pin=c.get("can_pin", True),
                    bot_is_admin=c.get("bot_is_admin", True),
                    next_message_id=c["next_message_id"],
                    messages={m["message_id"]: m for m in c.get("messages", [])},
                    pinned=list(c.get("pinned", [])),
                    members=set(c.get("members", [])),
                )
                self.chats[chat.id] = chat

    # ------------------------------------------------------------- Bot API

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
            handler = _HANDLERS.get(method.lower())
            try:
                if handler is None:
                    raise bad_request(f"method {method!r} is not implemented by the in-memory Bot API")
                call.result = handler(self, decoded, call.files)
            except BotAPIError as exc:
                call.status, call.description = exc.status, exc.description
            self.calls.append(call)
            self._emit("call", call)
            if call.ok:
                return 200, {"ok": True, "result": call.result}
            return call.status, {"ok": False, "error_code": call.status, "description": call.description}

    # -- helpers used by the method handlers

    def _live(self, chat: ChatState, message_id: Any) -> JSON:
        try:
            mid = int(message_id)
        except (TypeError, ValueError):
            raise bad_request("message_id is invalid") from None
        if mid in chat.deleted or mid not in chat.messages:
            raise bad_request("message not found")
        return chat.messages[mid]

    def _bot_says(self, params: JSON, **fields: Any) -> JSON:
        chat = self.chat(_required(params, "chat_id"))
        markup = _check_markup(params.get("reply_markup"))
        reply = None
        reply_parameters = params.get("reply_parameters")
        reply_id = (reply_parameters or {}).get("message_id") if isinstance(reply_parameters, dict) else None
        reply_id = reply_id or params.get("reply_to_message_id")
        if reply_id is not None:
            allow = isinstance(reply_parameters, dict) and reply_parameters.get("allow_sending_without_reply")
            try:
                reply = _shallow(self._live(chat, reply_id))
            except BotAPIError:
                if not (allow or params.get("allow_sending_without_reply")):
                    raise bad_request("message to be replied not found") from None
        message = self._new_message(
            chat,
            self.bot_user,
            reply_to_message=reply,
            reply_markup=markup if markup and "inline_keyboard" in markup else None,
            **fields,
        )
        return dict(message)

    def _store_upload(
        self, params: JSON, files: Mapping[str, UploadedFile], field_name: str, default_mime: str
    ) -> UploadedFile:
        value = params.get(field_name)
        if isinstance(value, str) and value.startswith("attach://"):
            upload = files.get(value.removeprefix("attach://"))
        elif isinstance(value, str) and value in self.files:
            return self.files[value]
        elif isinstance(value, str) and value:
            upload = UploadedFile(filename=value.rsplit("/", 1)[-1], content=b"", mime_type=None)
        else:
            upload = files.get(field_name)
        if upload is None:
            raise bad_request(f"there is no {field_name} in the request")
        if not upload.content and not isinstance(value, str):
            raise bad_request("file must be non-empty")
        file_id = f"F{next(self._file_ids):06d}-{field_name}"
        stored = UploadedFile(upload.filename, upload.content, upload.mime_type or default_mime, file_id)
        self.files[file_id] = stored
        return stored


def decode_params(params: Mapping[str, Any]) -> JSON:
    """Form fields as Telegram reads them: JSON values decoded, text fields kept as strings."""
    decoded: JSON = {}
    for key, value in params.items():
        if isinstance(value, str) and key not in _STRING_PARAMS:
            try:
                decoded[key] = json.loads(value)
            except ValueError:
                decoded[key] = value
        else:
            decoded[key] = value
    return decoded


def _shallow(message: JSON | None) -> JSON | None:
    if message is None:
        return None
    return {k: v for k, v in message.items() if k != "reply_to_message"}


def _required(params: JSON, name: str) -> Any:
    value = params.get(name)
    if value is None or value == "":
        raise bad_request(f"{name} is empty" if name != "chat_id" else "chat_id is empty")
    return value


def _buttons(message: JSON) -> list[JSON]:
    markup = message.get("reply_markup") or {}
    return [button for row in markup.get("inline_keyboard", []) for button in row]


def _pick_button(message: JSON, which: str | int | tuple[int, int]) -> JSON:
    markup = message.get("reply_markup") or {}
    rows = markup.get("inline_keyboard", [])
    buttons = [b for row in rows for b in row]
    if not buttons:
        raise KeyError(f"message {message['message_id']} has no inline keyboard")
    if isinstance(which, tuple):
        row, column = which
        return dict(rows[row][column])
    if isinstance(which, int):
        return dict(buttons[which])
    for exact in (True, False):
        for button in buttons:
            text = button.get("text", "")
            if text == which if exact else which.casefold() in text.casefold():
                return dict(button)
    labels = [b.get("text") for b in buttons]
    raise KeyError(f"message {message['message_id']} has no button {which!r}; buttons: {labels}")


def _check_markup(markup: Any) -> JSON | None:
    if markup is None:
        return None
    if not isinstance(markup, dict):
        raise bad_request("can't parse reply keyboard markup JSON object")
    if "inline_keyboard" in markup:
        rows = markup["inline_keyboard"]
        if not isinstance(rows, list) or not all(isinstance(r, list) for r in rows):
            raise bad_request('field "inline_keyboard" of InlineKeyboardMarkup must be an Array of Arrays')
        for row in rows:
            for button in row:
                if not button.get("text"):
                    raise bad_request("button text is empty")
                data = button.get("callback_data")
                if data is not None and not 1 <= len(str(data).encode()) <= 64:
                    raise bad_request("BUTTON_DATA_INVALID")
                kinds = {
                    "callback_data",
                    "url",
                    "switch_inline_query",
                    "switch_inline_query_current_chat",
                    "copy_text",
                    "web_app",
                    "login_url",
                    "pay",
                    "callback_game",
                    "switch_inline_query_chosen_chat",
                }
                if not kinds & set(button):
                    raise bad_request(
                        "can't parse inline keyboard button: "
                        "Text buttons are unallowed in the inline keyboard"
                    )
    return markup


def _text(params: JSON, name: str = "text", limit: int = MAX_TEXT, required: bool = True) -> str | None:
    raw = params.get(name)
    if raw is None or raw == "":
        if required:
            raise bad_request("message text is empty")
        return None
    try:
        shown = visible_text(str(raw), params.get("parse_mode"))
    except EntityParseError as exc:
        raise bad_request(f"can't parse entities: {exc}") from None
    if required and not shown.strip():
        raise bad_request("message text is empty")
    if len(shown) > limit:
        raise bad_request("message is too long" if name == "text" else "message caption is too long")
    return shown


# --------------------------------------------------------------- method handlers

Handler = Callable[[BotAPIState, JSON, dict[str, UploadedFile]], Any]
_HANDLERS: dict[str, Handler] = {}


def _method(*names: str) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        for name in names:
            _HANDLERS[name.lower()] = fn
        return fn

    return register


@_method("getMe")
def _get_me(api: BotAPIState, params: JSON, files: dict[str, UploadedFile]) -> JSON:
    return dict(api.bot_user)


@_method(
    "logOut",
    "close",
    "sendChatAction",
    "setMyDescription",
    "setMyShortDescription",
    "setMyName",
    "setChatMenuButton",
    "setMyDefaultAdministratorRights",
)
def _true(api: BotAPIState, params: JSON, files: dict[str, UploadedFile]) -> bool:
    if "chat_id" in params:
        api.chat(params["chat_id"])
    return True


@_method("getUpdates")
def _get_updates(api: BotAPIState, params: JSON, files: dict[str, UploadedFile]) -> list[JSON]:
    if api.webhook_url:
        raise BotAPIError(
            409,
            "Conflict: can't use getUpdates method while webhook is active; "
            "use deleteWebhook to delete the webhook first",
        )
    return api.take_updates(params.get("offset"), params.get("limit"))


@_method("deleteWebhook")
def _delete_webhook(api: BotAPIState, params: JSON, files: dict[str, UploadedFile]) -> bool:
    api.webhook_url = ""
    api.webhook_secret = None
    if params.get("drop_pending_updates"):
        api.pending.clear()
    return True


@_method("setWebhook")
def _set_webhook(api: BotAPIState, params: JSON, files: dict[str, UploadedFile]) -> bool:
    api.webhook_url = str(_required(params, "url"))
    api.webhook_secret = str(params["secret_token"]) if params.get("secret_token") else None
    if params.get("drop_pending_updates"):
        api.pending.clear()
    api.updates_changed.notify_all()
    return True


@_method("getWebhookInfo")
def _get_webhook_info(api: BotAPIState, params: JSON, files: dict[str, UploadedFile]) -> JSON:
    return {"url": api.webhook_url, "has_custom_certificate": False, "pending_update_count": len(api.pending)}


def _commands_key(params: JSON) -> str:
    scope = params.get("scope") or {"type": "default"}
    return json.dumps([scope, params.get("language_code") or ""], sort_keys=True)


@_method("setMyCommands")
def _set_my_commands(api: BotAPIState, params: JSON, files: dict[str, UploadedFile]) -> bool:
    commands = params.get("commands")
    if not isinstance(commands, list):
        raise bad_request("can't parse commands JSON object")
    if len(commands) > 100:
        raise bad_request("too many commands")
    for command in commands:
        name = str(command.get("command", "")).removeprefix("/")
        description = str(command.get("description", ""))
        if not (
            1 <= len(name) <= 32
            and all(c.isascii() and (c.islower() or c.isdigit() or c == "_") for c in name)
        ):
            raise bad_request("BOT_COMMAND_INVALID")
        if not 1 <= len(description) <= 256:
            raise bad_request("command description is empty" if not description else "BOT_COMMAND_INVALID")
    api.commands[_commands_key(params)] = [dict(c) for c in commands]
    return True


@_method("getMyCommands")
def _get_my_commands(api: BotAPIState, params: JSON, files: dict[str, UploadedFile]) -> list[JSON]:
    return list(api.commands.get(_commands_key(params), []))


@_method("deleteMyCommands")
def _delete_my_commands(api: BotAPIState, params: JSON, files: dict[str, UploadedFile]) -> bool:
    api.commands.pop(_commands_key(params), None)
    return True


@_method("sendMessage")
def _send_message(api: BotAPIState, params: JSON, files: dict[str, UploadedFile]) -> JSON:
    api.chat(_required(params, "chat_id"))
    text = _text(params)
    return api._bot_says(params, text=text)


@_method("sendDice")
def _send_dice(api: BotAPIState, params: JSON, files: dict[str, UploadedFile]) -> JSON:
    emoji = params.get("emoji") or "🎲"
    if emoji not in DICE_FACES:
        raise bad_request("emoji must be one of " + ", ".join(DICE_FACES))
    value = api.forced_dice.pop(0) if api.forced_dice else api.random.randint(1, DICE_FACES[emoji])
    return api._bot_says(params, dice={"emoji": emoji, "value": value})


@_method("sendPhoto")
def _send_photo(api: BotAPIState, params: JSON, files: dict[str, UploadedFile]) -> JSON:
    api.chat(_required(params, "chat_id"))
    caption = _text(params, "caption", MAX_CAPTION, required=False)
    upload = api._store_upload(params, files, "photo", "image/png")
    sizes = [
        {
            "file_id": f"{upload.file_id}-{w}",
            "file_unique_id": f"{upload.file_id}-{w}u",
            "width": w,
            "height": w * 3 // 4,
            "file_size": upload.size,
        }
        for w in (90, 320, 800)
    ]
    sizes[-1]["file_id"] = upload.file_id
    api.files.setdefault(upload.file_id, upload)
    return api._bot_says(params, photo=sizes, caption=caption)


@_method("sendDocument")
def _send_document(api: BotAPIState, params: JSON, files: dict[str, UploadedFile]) -> JSON:
    api.chat(_required(params, "chat_id"))
    caption = _text(params, "caption", MAX_CAPTION, required=False)
    upload = api._store_upload(params, files, "document", "application/octet-stream")
    document = {
        "file_id": upload.file_id,
        "file_unique_id": upload.file_id + "u",
        "file_name": upload.filename,
        "mime_type": upload.mime_type,
        "file_size": upload.size,
    }
    return api._bot_says(params, document=document, caption=caption)


def _editable(api: BotAPIState, params: JSON) -> tuple[ChatState, JSON]:
    if params.get("inline_message_id"):
        raise bad_request("inline messages are not supported by the in-memory Bot API")
    chat = api.chat(_required(params, "chat_id"))
    try:
        message = api._live(chat, _required(params, "message_id"))
    except BotAPIError:
        raise bad_request("message to edit not found") from None
    if message["from"]["id"] != api.bot_user["id"]:
        raise bad_request("message can't be edited")
    return chat, message


def _apply_edit(api: BotAPIState, message: JSON, changes: JSON) -> JSON:
    unchanged = all(message.get(k) == v for k, v in changes.items())
    if unchanged and api.not_modified_errors:
        raise bad_request(
            "message is not modified: specified new message content and reply markup are "
            "exactly the same as a current content and reply markup of the message"
        )
    for key, value in changes.items():
        if value is None:
            message.pop(key, None)
        else:
            message[key] = value
    message["edit_date"] = int(api.clock())
    return dict(message)


@_method("editMessageText")
def _edit_message_text(api: BotAPIState, params: JSON, files: dict[str, UploadedFile]) -> JSON:
    _, message = _editable(api, params)
    if "text" not in message:
        raise bad_request("there is no text in the message to edit")
    text = _text(params)
    markup = _check_markup(params.get("reply_markup"))
    return _apply_edit(api, message, {"text": text, "reply_markup": markup})


@_method("editMessageCaption")
def _edit_message_caption(api: BotAPIState, params: JSON, files: dict[str, UploadedFile]) -> JSON:
    _, message = _editable(api, params)
    if "text" in message:
        raise bad_request("there is no caption in the message to edit")
    caption = _text(params, "caption", MAX_CAPTION, required=False)
    markup = _check_markup(params.get("reply_markup"))
    return _apply_edit(api, message, {"caption": caption, "reply_markup": markup})


@_method("editMessageReplyMarkup")
def _edit_message_reply_markup(api: BotAPIState, params: JSON, files: dict[str, UploadedFile]) -> JSON:
    _, message = _editable(api, params)
    markup = _check_markup(params.get("reply_markup"))
    if markup is not None and not markup.get("inline_keyboard"):
        markup = None
    return _apply_edit(api, message, {"reply_markup": markup})


@_method("deleteMessage")
def _delete_message(api: BotAPIState, params: JSON, files: dict[str, UploadedFile]) -> bool:
    chat = api.chat(_required(params, "chat_id"))
    try:
        message = api._live(chat, _required(params, "message_id"))
    except BotAPIError:
        raise bad_request("message to delete not found") from None
    if message["from"]["id"] != api.bot_user["id"] and not chat.bot_is_admin:
        raise bad_request("message can't be deleted")
    chat.deleted.add(message["message_id"])
    if message["message_id"] in chat.pinned:
        chat.pinned.remove(message["message_id"])
    return True


def _pin_rights(chat: ChatState) -> None:
    if not (chat.can_pin and chat.bot_is_admin) and chat.type != "private":
        raise bad_request("not enough rights to manage pinned messages in the chat")


@_method("pinChatMessage")
def _pin_chat_message(api: BotAPIState, params: JSON, files: dict[str, UploadedFile]) -> bool:
    chat = api.chat(_required(params, "chat_id"))
    _pin_rights(chat)
    message = api._live(chat, _required(params, "message_id"))
    mid = message["message_id"]
    if mid in chat.pinned:
        chat.pinned.remove(mid)
    chat.pinned.append(mid)
    return True


@_method("unpinChatMessage")
def _unpin_chat_message(api: BotAPIState, params: JSON, files: dict[str, UploadedFile]) -> bool:
    chat = api.chat(_required(params, "chat_id"))
    _pin_rights(chat)
    mid = params.get("message_id")
    if mid is None:
        if chat.pinned:
            chat.pinned.pop()
        return True
    if int(mid) not in chat.pinned:
        raise bad_request("message is not pinned")
    chat.pinned.remove(int(mid))
    return True


@_method("unpinAllChatMessages")
def _unpin_all(api: BotAPIState, params: JSON, files: dict[str, UploadedFile]) -> bool:
    chat = api.chat(_required(params, "chat_id"))
    _pin_rights(chat)
    chat.pinned.clear()
    return True


@_method("getChat")
def _get_chat(api: BotAPIState, params: JSON, files: dict[str, UploadedFile]) -> JSON:
    chat = api.chat(_required(params, "chat_id"))
    info = {
        **chat.as_chat(),
        "accent_color_id": 0,
        "max_reaction_count": 11,
        "accepted_gift_types": {
            "unlimited_gifts": False,
            "limited_gifts": False,
            "unique_gifts": False,
            "premium_subscription": False,
            "gifts_from_channels": False,
        },
    }
    if chat.pinned:
        info["pinned_message"] = copy.deepcopy(chat.messages[chat.pinned[-1]])
    return info


_ADMIN_RIGHTS = {
    "can_be_edited": False,
    "is_anonymous": False,
    "can_manage_chat": True,
    "can_delete_messages": True,
    "can_manage_video_chats": True,
    "can_restrict_members": True,
    "can_promote_members": False,
    "can_change_info": True,
    "can_invite_users": True,
    "can_post_stories": False,
    "can_edit_stories": False,
    "can_delete_stories": False,
    "can_pin_messages": True,
    "can_manage_topics": False,
}


def _member(api: BotAPIState, chat: ChatState, user: JSON) -> JSON:
    uid = user["id"]
    if uid == api.bot_user["id"]:
        if chat.bot_is_admin:
            return {
                "status": "administrator",
                "user": user,
                **_ADMIN_RIGHTS,
                "can_pin_messages": chat.can_pin,
            }
        return {"status": "member", "user": user}
    if uid == chat.creator:
        return {"status": "creator", "user": user, "is_anonymous": False}
    if uid in chat.admins:
        return {"status": "administrator", "user": user, **_ADMIN_RIGHTS}
    if uid in chat.members:
        return {"status": "member", "user": user}
    return {"status": "left", "user": user}


@_method("getChatMember")
def _get_chat_member(api: BotAPIState, params: JSON, files: dict[str, UploadedFile]) -> JSON:
    chat = api.chat(_required(params, "chat_id"))
    uid = int(_required(params, "user_id"))
    user = api.bot_user if uid == api.bot_user["id"] else api.users_by_id.get(uid)
    if user is None:
        raise bad_request("user not found")
    return _member(api, chat, user)


@_method("getChatAdministrators")
def _get_chat_administrators(api: BotAPIState, params: JSON, files: dict[str, UploadedFile]) -> list[JSON]:
    chat = api.chat(_required(params, "chat_id"))
    ids = ([chat.creator] if chat.creator is not None else []) + sorted(chat.admins - {chat.creator})
    admins = [_member(api, chat, api.users_by_id[uid]) for uid in ids]
    if chat.bot_is_admin:
        admins.append(_member(api, chat, api.bot_user))
    return admins


@_method("getChatMemberCount")
def _get_chat_member_count(api: BotAPIState, params: JSON, files: dict[str, UploadedFile]) -> int:
    chat = api.chat(_required(params, "chat_id"))
    return len(chat.members | chat.admins) + 1


@_method("answerCallbackQuery")
def _answer_callback_query(api: BotAPIState, params: JSON, files: dict[str, UploadedFile]) -> bool:
    query_id = str(_required(params, "callback_query_id"))
    if query_id not in api.open_queries:
        raise bad_request("query is too old and response timeout expired or query ID is invalid")
    text = params.get("text")
    if text is not None and len(str(text)) > 200:
        raise bad_request("MESSAGE_TOO_LONG")
    api.answered_queries[query_id] = api.open_queries.pop(query_id)
    return True


@_method("getFile")
def _get_file(api: BotAPIState, params: JSON, files: dict[str, UploadedFile]) -> JSON:
    file_id = str(_required(params, "file_id"))
    stored = api.files.get(file_id)
    if stored is None:
        raise bad_request("invalid file_id")
    return {
        "file_id": file_id,
        "file_unique_id": file_id + "u",
        "file_size": stored.size,
        "file_path": f"documents/{stored.filename}",
    }
