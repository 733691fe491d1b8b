"""The chat side of the in-memory Bot API: users, group chats, their messages and the update queue."""

from __future__ import annotations

import copy
import itertools
import random
import re
import threading
import time
import zlib
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from bot.console.markup import incoming_entities
from bot.console.model import JSON, BotAPIError, Call, ChatState, UploadedFile, bad_request


def _username_from(name: str) -> str | None:
    """The name as a Telegram username when it can be one (ASCII); a Chinese name has no username."""
    return name if re.fullmatch(r"[A-Za-z][A-Za-z0-9_]{2,31}", name) else None


def stable_user_id(name: str) -> int:
    """A user id derived from the name, the same in every run (the console keeps its ledger across runs)."""
    return 100_000 + zlib.crc32(name.lower().encode()) % 900_000_000


class ChatServer:
    """What a fake Telegram server holds: chats, users, messages, uploads, the update queue, a log of calls.

    Thread-safe: one lock guards everything, so an HTTP server thread and the test thread can share it.
    Stored messages change only by replacing top-level keys (never nested values in place), so a shallow
    copy is a faithful snapshot: each Call's result keeps showing the message as it was answered.
    Incoming traffic is built with `message()` and `press()`; `bot.console.methods` answers the bot's
    requests on this state and `BotAPIState` (bot.console.state) dispatches them.
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

    def refuse_migrated(self, chat_id: object) -> None:
        """Telegram's answer to any call naming a group that became a supergroup: 400 with the new id in
        `parameters.migrate_to_chat_id` (python-telegram-bot raises ChatMigrated)."""
        try:
            chat = self.chats.get(int(str(chat_id)))
        except ValueError:
            return
        if chat is not None and chat.migrated_to is not None:
            raise BotAPIError(
                400,
                "Bad Request: group chat was upgraded to a supergroup chat",
                {"migrate_to_chat_id": chat.migrated_to},
            )

    def migrate(
        self, chat_id: int, new_chat_id: int, by: str | Mapping[str, Any] = "zoe"
    ) -> tuple[JSON, JSON]:
        """The group becomes the supergroup `new_chat_id` (its title, members, admins and creator; none of
        its messages or pins), as Telegram does when a group is upgraded: every later call to the old id
        is refused with the new one. Returns the two service-message Updates Telegram sends, not queued:
        `migrate_to_chat_id` in the old chat, then `migrate_from_chat_id` in the new one."""
        with self.lock:
            old = self.chat(chat_id)
            new = ChatState(
                id=new_chat_id,
                title=old.title,
                type="supergroup",
                creator=old.creator,
                admins=set(old.admins),
                bot_is_admin=old.bot_is_admin,
                can_pin=old.can_pin,
                members=set(old.members),
            )
            self.chats[new_chat_id] = new
            sender = self.user(by)
            gone = self.new_message(old, sender, migrate_to_chat_id=new_chat_id)
            old.migrated_to = new_chat_id
            came = self.new_message(new, sender, migrate_from_chat_id=chat_id)
            return self._update({"message": dict(gone)}, False), self._update({"message": dict(came)}, False)

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

    def new_message(self, chat: ChatState, sender: JSON, **fields: Any) -> JSON:
        """Stores a new message from `sender` in the chat (next message id, now); None fields are left out."""
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
            reply = self.live_message(chat, reply_to) if reply_to is not None else None
            message = self.new_message(
                chat, sender, text=text, entities=entities or None, reply_to_message=shallow_message(reply)
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
                message = self.live_message(chat, message_id)
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

    def inline_query(self, user: str | Mapping[str, Any], query: str, *, enqueue: bool = False) -> JSON:
        """An inline_query Update: `user` typed `@bot <query>` in some chat (answerable once)."""
        with self.lock:
            sender = self.user(user)
            query_id = f"{next(self._query_ids)}{self.random.randrange(10**8):08d}"
            inline: JSON = {"id": query_id, "from": sender, "query": query, "offset": ""}
            inline["chat_type"] = "private"
            self.open_queries[query_id] = inline
            return self._update({"inline_query": inline}, enqueue)

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

    # ------------------------------------------------------- stored messages

    def live_message(self, chat: ChatState, message_id: Any) -> JSON:
        """The stored message itself (not a copy); 400 "message not found" if missing or deleted."""
        try:
            mid = int(message_id)
        except (TypeError, ValueError):
            raise bad_request("message_id is invalid") from None
        if mid in chat.deleted or mid not in chat.messages:
            raise bad_request("message not found")
        return chat.messages[mid]

    def new_file_id(self, kind: str) -> str:
        """A fresh file_id for an upload of this kind ("photo", "document")."""
        return f"F{next(self._file_ids):06d}-{kind}"


def shallow_message(message: JSON | None) -> JSON | None:
    """The message without its own reply_to_message, as Telegram nests a replied-to message."""
    if message is None:
        return None
    return {k: v for k, v in message.items() if k != "reply_to_message"}


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
