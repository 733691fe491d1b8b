"""`DatabasePersistence`: PTB's button callback data and chat_data kept as JSON in the project's database."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import json
import logging
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, TypeVar

import orjson
from sqlalchemy import (
    BigInteger,
    Column,
    Float,
    MetaData,
    String,
    Table,
    Text,
    bindparam,
    cast,
    delete,
    select,
)
from sqlalchemy import Integer as SAInteger
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import OperationalError
from telegram.ext import BasePersistence, CallbackDataCache, PersistenceInput

from bot.ledger.db import lock_busy, nonblocking_engine

if TYPE_CHECKING:
    from telegram.ext._utils.types import CDCData, ConversationDict, ConversationKey

log = logging.getLogger(__name__)
T = TypeVar("T")

# The two tables, created by migration 0002 (bot/ledger/migrations/versions/0002_bot_state_and_jobs.py).
# They belong to the bot, not to the ledger's models: a MetaData of their own.
metadata = MetaData()
callback_data_table = Table(
    "bot_callback_data",
    metadata,
    Column("keyboard_uuid", String(32), primary_key=True),  # PTB's keyboard uuid (uuid4 hex)
    Column("access_time", Float, nullable=False, index=True),  # last use, UTC seconds
    Column("buttons", Text, nullable=False),  # JSON: {button uuid: encoded callback object}
)
chat_data_table = Table(
    "bot_chat_data",
    metadata,
    Column("chat_id", BigInteger, primary_key=True, autoincrement=False),
    Column("key", String(64), primary_key=True),
    Column("value", Text, nullable=False),  # JSON, encoded by `JsonCodec`
)

KEYBOARD_KEEP_SECONDS = 30 * 24 * 3600.0  # a keyboard unused this long is deleted (its buttons then expire)
TOUCH_SECONDS = 3600.0  # a used keyboard's stored access time is moved on only when this much older
PRUNE_EVERY_SECONDS = 3600.0
TAG = "__t"  # the key that marks a tagged value in the JSON form
VERSION_KEY = "__version"  # bot_chat_data row of a chat counting its writes (never deleted, never chat_data)


class CodecError(TypeError):
    """A value the JSON codec cannot store or read back (an unregistered type, a malformed document)."""


class JsonCodec:
    """Values as JSON, losslessly, and only of known types.

    JSON natives pass through: None, bool, int, float, str, lists, dicts with str keys (that do not use the
    key `__t`). Everything else is a tagged object `{"__t": tag, ...}`: `tuple`, `set`, `frozenset`, a dict
    with other keys (`{"__t": "dict", "items": [[k, v], ...]}`), and instances of the registered frozen
    dataclasses (`{"__t": "dataclass", "type": "module.QualName", "fields": {...}}`). Any other type, in
    either direction, raises `CodecError` naming it: nothing unknown is ever stored or instantiated.
    """

    def __init__(self, types: Iterable[type] = ()) -> None:
        self.types: dict[str, type] = {}
        for cls in types:
            self.register(cls)

    @staticmethod
    def type_name(cls: type) -> str:
        """The registry key of a class: its module-qualified name."""
        return f"{cls.__module__}.{cls.__qualname__}"

    def register(self, cls: type) -> type:
        """Allow instances of the dataclass `cls` (its fields must be codec values themselves)."""
        if not (isinstance(cls, type) and dataclasses.is_dataclass(cls)):
            raise CodecError(f"only dataclasses can be registered, not {cls!r}")
        name = self.type_name(cls)
        if self.types.get(name, cls) is not cls:
            raise CodecError(f"another class is already registered as {name!r}")
        self.types[name] = cls
        return cls

    # -- encoding --

    def encode(self, value: Any) -> Any:
        """`value` as a JSON-ready structure."""
        if value is None or isinstance(value, (bool, int, float, str)):
            return value
        if isinstance(value, list):
            return [self.encode(item) for item in value]
        if isinstance(value, dict):
            if all(isinstance(key, str) for key in value) and TAG not in value:
                return {key: self.encode(item) for key, item in value.items()}
            return {TAG: "dict", "items": [[self.encode(k), self.encode(v)] for k, v in value.items()]}
        if isinstance(value, tuple) and type(value) is tuple:
            return {TAG: "tuple", "items": [self.encode(item) for item in value]}
        if isinstance(value, (set, frozenset)):
            items = [self.encode(item) for item in value]
            items.sort(key=lambda item: json.dumps(item, sort_keys=True))  # a stable text for equal sets
            return {TAG: type(value).__name__, "items": items}
        cls = type(value)
        name = self.type_name(cls)
        if self.types.get(name) is cls:
            fields = {f.name: self.encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
            return {TAG: "dataclass", "type": name, "fields": fields}
        raise CodecError(
            f"cannot store a {name} as JSON: register the dataclass with the persistence "
            f"(bot/app.py CALLBACK_TYPES) or store plain values"
        )

    def dumps(self, value: Any) -> str:
        """`value` as JSON text (compact, keys sorted, so equal values give equal text)."""
        encoded = self.encode(value)
        try:  # orjson: the same text as json.dumps below, several times faster (this runs on every update)
            return orjson.dumps(encoded, option=orjson.OPT_SORT_KEYS).decode()
        except orjson.JSONEncodeError:  # e.g. an int beyond 64 bits
            return json.dumps(encoded, ensure_ascii=False, sort_keys=True, separators=(",", ":"))

    # -- decoding --

    def decode(self, obj: Any) -> Any:
        """Inverse of `encode`."""
        if obj is None or isinstance(obj, (bool, int, float, str)):
            return obj
        if isinstance(obj, list):
            return [self.decode(item) for item in obj]
        if not isinstance(obj, dict):
            raise CodecError(f"not a JSON value: {obj!r}")
        if TAG not in obj:
            return {key: self.decode(item) for key, item in obj.items()}
        tag = obj[TAG]
        if tag == "dict":
            return {self._key(self.decode(k)): self.decode(v) for k, v in obj["items"]}
        if tag == "tuple":
            return tuple(self.decode(item) for item in obj["items"])
        if tag == "set":
            return {self._key(self.decode(item)) for item in obj["items"]}
        if tag == "frozenset":
            return frozenset(self._key(self.decode(item)) for item in obj["items"])
        if tag == "dataclass":
            name = obj.get("type")
            cls = self.types.get(name) if isinstance(name, str) else None
            if cls is None:
                raise CodecError(f"stored object of unknown type {name!r}: not a registered dataclass")
            fields = obj.get("fields")
            expected = {f.name for f in dataclasses.fields(cls) if f.init}
            if not isinstance(fields, dict) or set(fields) != expected:
                got = sorted(fields) if isinstance(fields, dict) else fields
                raise CodecError(f"stored {name} has fields {got}, the class has {sorted(expected)}")
            return cls(**{key: self.decode(item) for key, item in fields.items()})
        raise CodecError(f"unknown tag {tag!r} in stored JSON")

    @staticmethod
    def _key(value: Any) -> Any:
        try:
            hash(value)
        except TypeError as exc:
            raise CodecError(f"stored dict key or set item {value!r} is not hashable") from exc
        return value

    def loads(self, text: str) -> Any:
        """Inverse of `dumps`."""
        try:
            obj = orjson.loads(text)
        except ValueError as exc:  # orjson.JSONDecodeError is one
            raise CodecError(f"stored value is not JSON: {exc}") from exc
        return self.decode(obj)


Keyboard = tuple[str, float, dict[str, object]]


def _upsert(
    conn: Connection, table: Table, rows: list[dict[str, Any]], keys: list[str], update: list[str]
) -> None:
    """INSERT … ON CONFLICT DO UPDATE (SQLite and PostgreSQL): safe for many processes; one statement,
    built once, executed for every row."""
    if rows:
        conn.execute(_upsert_statement(conn.dialect.name, table, tuple(keys), tuple(update)), rows)


@functools.cache
def _upsert_statement(dialect: str, table: Table, keys: tuple[str, ...], update: tuple[str, ...]) -> Any:
    insert_of = _INSERTS.get(dialect)
    if insert_of is None:
        raise RuntimeError(f"DatabasePersistence supports SQLite and PostgreSQL, not {dialect}")
    stmt = insert_of(table)
    changes = {name: stmt.excluded[name] for name in update}
    return stmt.on_conflict_do_update(index_elements=list(keys), set_=changes)


_INSERTS: dict[str, Callable[[Table], Any]] = {"postgresql": postgresql.insert, "sqlite": sqlite.insert}


class CountingCallbackDataCache(CallbackDataCache):
    """PTB's cache of inline-button data, counting the calls that may change what `persistence_data`
    returns: a new keyboard, a used one (its access time), a drop or a clear. `DatabasePersistence.save`
    runs after every update; with this count it skips listing the whole cache (up to 1024 keyboards of
    every group, about 0.6 ms when full) after the updates that touched no keyboard, most of them."""

    __slots__ = ("changes",)

    def __init__(self, bot: Any, maxsize: int = 1024, persistent_data: CDCData | None = None) -> None:
        self.changes = 0
        super().__init__(bot, maxsize=maxsize, persistent_data=persistent_data)

    def load_persistence_data(self, persistent_data: CDCData) -> None:
        self.changes += 1
        super().load_persistence_data(persistent_data)

    def process_keyboard(self, reply_markup: Any) -> Any:
        self.changes += 1
        return super().process_keyboard(reply_markup)

    def process_message(self, message: Any) -> None:
        if message.reply_markup:  # only a message with buttons can touch a keyboard
            self.changes += 1
        super().process_message(message)

    def process_callback_query(self, callback_query: Any) -> None:
        self.changes += 1
        super().process_callback_query(callback_query)

    def drop_data(self, callback_query: Any) -> None:
        self.changes += 1
        super().drop_data(callback_query)

    def clear_callback_data(self, time_cutoff: Any = None) -> None:
        self.changes += 1
        super().clear_callback_data(time_cutoff)


class DatabasePersistence(BasePersistence[dict[Any, Any], dict[Any, Any], dict[Any, Any]]):
    """PTB persistence of arbitrary callback data and chat_data in two tables of the bot's database.

    Several processes (webhook workers) may share the database:

    - **Callback data** is one row per keyboard (`bot_callback_data`), written by upsert when a keyboard
      is new (and its access time again when used an hour or more later), never by rewriting the whole
      cache, so workers do not overwrite each other. A
      worker that meets a button it does not know reloads that keyboard with `load_keyboard` (the stale
      button handler in bot/handlers/errors.py does). Keyboards unused for `keep_seconds` are deleted.
      PTB's map of callback query id → keyboard (only for `drop_callback_data`) stays in memory.
    - **chat_data** is one row per chat and key (`bot_chat_data`). `refresh_chat_data`, which PTB calls
      before each update and job of a chat, merges the rows into memory: a key another process changed
      since this one last read or wrote it takes the stored value; a key only changed here keeps the
      local value until `update_chat_data` writes it (only the changed keys, by upsert). Keys are
      written whole, so give each independent fact its own key.
      Every write of a chat (and `drop_chat_data`) also bumps the chat's version row (key `__version`,
      in the same transaction; the row is never deleted, so versions only grow). The refresh first reads
      that one row by primary key and loads and merges the chat's rows only when it moved since this
      process last saw it: on SQLite with a dedicated connection on the event loop (microseconds, no
      thread hop), elsewhere in a worker thread.

    Nothing is pickled: values go through `JsonCodec`, which knows only `callback_types`.
    bot_data, user_data and conversations are not stored.
    """

    def __init__(
        self,
        engine: Engine,
        *,
        callback_types: Iterable[type] = (),
        update_interval: float = 60,
        keep_seconds: float = KEYBOARD_KEEP_SECONDS,
    ) -> None:
        super().__init__(
            store_data=PersistenceInput(bot_data=False, chat_data=True, user_data=False, callback_data=True),
            update_interval=update_interval,
        )
        self.engine = engine
        self._write_engine = (
            engine.execution_options(sqlite_begin="IMMEDIATE") if engine.dialect.name == "sqlite" else engine
        )
        # SQLite: writes are made on the event loop through a connection that never waits for the write lock
        # (a write of a few rows costs less than the hop to a worker thread); a taken lock sends the write to
        # a thread like everywhere else (bot.ledger.db.nonblocking_engine).
        quick = nonblocking_engine(engine)
        self._quick_engine = quick.execution_options(sqlite_begin="IMMEDIATE") if quick is not None else None
        self.codec = JsonCodec(callback_types)
        self.keep_seconds = keep_seconds
        self._chat_base: dict[int, dict[str, str]] = {}  # chat → key → JSON as last read or written here
        self._chat_versions: dict[int, int] = {}  # chat → version row whose rows `_chat_base` reflects
        self._version_conn: Any = None  # SQLite: a DBAPI connection kept for the version check
        self._fast_version = engine.dialect.name == "sqlite"
        self._keyboards: dict[str, float] = {}  # keyboard uuid → access time as last read or written here
        self._refused: set[str] = set()  # keyboards whose data cannot be stored (logged once)
        self._pruned_at = 0.0
        self._lock = asyncio.Lock()  # one write at a time: `save` and PTB's periodic update_persistence
        self._saved_changes: int | None = None  # CountingCallbackDataCache.changes at the last `save`

    def set_bot(self, bot: Any) -> None:
        """PTB hands the bot over before loading the stored keyboards: its button cache becomes a
        `CountingCallbackDataCache` of the same size (ExtBot has no public setter; PTB is pinned)."""
        super().set_bot(bot)
        cache = getattr(bot, "callback_data_cache", None)
        if type(cache) is CallbackDataCache:
            bot._callback_data_cache = CountingCallbackDataCache(bot, maxsize=cache.maxsize)

    async def _write(self, fn: Callable[..., T], *args: Any) -> T:
        """`fn(engine, *args)`, a write transaction: on the event loop when SQLite's write lock is free at
        once (see __init__), else in a worker thread on the waiting engine."""
        if self._quick_engine is not None:
            try:
                return fn(self._quick_engine, *args)
            except OperationalError as exc:
                if not lock_busy(exc):
                    raise
        return await asyncio.to_thread(fn, self._write_engine, *args)

    async def save(self, application: Any, chat_id: int | None = None) -> None:
        """Write now, cheaply, what changed: new keyboards of the bot's cache and the chat's data.

        PTB's `Application.update_persistence` deep-copies the whole callback-data cache first (hundreds
        of milliseconds once it holds ~1000 keyboards); this reads the cache and the chat's dict in place,
        which is safe because both are encoded before the first await."""
        cache = getattr(application.bot, "callback_data_cache", None)
        counted = cache.changes if isinstance(cache, CountingCallbackDataCache) else None
        if cache is not None and (counted is None or counted != self._saved_changes):
            await self.update_callback_data(cache.persistence_data)
            self._saved_changes = counted
        if chat_id is not None:
            await self.update_chat_data(chat_id, application.chat_data[chat_id])

    def check_schema(self) -> None:
        """Raise a clear error when migration 0002 has not created the tables."""
        from sqlalchemy import inspect

        inspector = inspect(self.engine)
        missing = [t.name for t in (callback_data_table, chat_data_table) if not inspector.has_table(t.name)]
        if missing:
            raise RuntimeError(
                f"tables {missing} are missing: migrate the database "
                "(bot.ledger.db.open_database applies the Alembic migrations)"
            )

    # -- callback data --

    async def get_callback_data(self) -> CDCData | None:
        """The most recently used keyboards (as many as PTB's cache holds), oldest first."""
        cache = getattr(getattr(self, "bot", None), "callback_data_cache", None)
        maxsize = int(getattr(cache, "maxsize", 1024))
        rows = await asyncio.to_thread(self._read_keyboards, maxsize)
        keyboards: list[Keyboard] = []
        for uuid, access_time, text in reversed(rows):
            keyboard = self._decode_keyboard(uuid, access_time, text)
            if keyboard is not None:
                keyboards.append(keyboard)
        return keyboards, {}

    def _read_keyboards(self, limit: int) -> list[Any]:
        t = callback_data_table
        with self.engine.connect() as conn:
            return list(
                conn.execute(
                    select(t.c.keyboard_uuid, t.c.access_time, t.c.buttons)
                    .order_by(t.c.access_time.desc())
                    .limit(limit)
                ).all()
            )

    def _decode_keyboard(self, uuid: str, access_time: float, text: str) -> Keyboard | None:
        try:
            buttons = self.codec.loads(text)
        except CodecError as exc:
            # Left in place: a newer version of the bot may know the type. Its buttons answer "expired".
            log.error("cannot read the stored buttons of keyboard %s: %s", uuid, exc)
            return None
        if not isinstance(buttons, dict):
            log.error("stored buttons of keyboard %s are not an object", uuid)
            return None
        self._keyboards[uuid] = access_time
        return uuid, access_time, buttons

    async def load_keyboard(self, keyboard_uuid: str) -> Keyboard | None:
        """One keyboard read fresh from the database (another worker may have sent it), or None."""
        t = callback_data_table

        def read() -> Any:
            with self.engine.connect() as conn:
                return conn.execute(
                    select(t.c.access_time, t.c.buttons).where(t.c.keyboard_uuid == keyboard_uuid)
                ).first()

        row = await asyncio.to_thread(read)
        return self._decode_keyboard(keyboard_uuid, row.access_time, row.buttons) if row else None

    async def update_callback_data(self, data: CDCData) -> None:
        """Upsert the keyboards that are new or were used since the last call; prune old ones hourly."""
        async with self._lock:
            await self._update_callback_data(data)

    async def _update_callback_data(self, data: CDCData) -> None:
        keyboards, _queries = data
        rows: list[dict[str, Any]] = []
        refused: list[str] = []
        for uuid, access_time, buttons in keyboards:
            stored = self._keyboards.get(uuid)
            if uuid in self._refused or (stored is not None and access_time - stored < TOUCH_SECONDS):
                continue  # written already; a press only moves the stored time on hourly (for pruning)
            try:
                text = self.codec.dumps(buttons)
            except CodecError as exc:
                self._refused.add(uuid)
                refused.append(f"{uuid}: {exc}")
                continue
            rows.append({"keyboard_uuid": uuid, "access_time": access_time, "buttons": text})
        now = time.time()
        prune = now - self._pruned_at >= PRUNE_EVERY_SECONDS
        if rows or prune:
            await self._write(self._write_keyboards, rows, now - self.keep_seconds if prune else None)
            if prune:
                self._pruned_at = now
        current = {uuid for uuid, _, _ in keyboards}
        self._keyboards = {uuid: t for uuid, t in self._keyboards.items() if uuid in current}
        self._keyboards.update({row["keyboard_uuid"]: row["access_time"] for row in rows})
        self._refused &= current
        if refused:
            raise CodecError("button callback data not stored: " + "; ".join(refused))

    @staticmethod
    def _write_keyboards(engine: Engine, rows: list[dict[str, Any]], cutoff: float | None) -> None:
        t = callback_data_table
        with engine.begin() as conn:
            _upsert(conn, t, rows, ["keyboard_uuid"], ["access_time"])
            if cutoff is not None:
                conn.execute(delete(t).where(t.c.access_time < cutoff))

    # -- chat data --

    async def get_chat_data(self) -> dict[int, dict[Any, Any]]:
        """Every chat's stored data (read once at start; `refresh_chat_data` keeps it current)."""
        rows = await asyncio.to_thread(self._read_chat_rows, None)
        result: dict[int, dict[Any, Any]] = {}
        self._chat_versions = {chat_id: _version(text) for chat_id, key, text in rows if key == VERSION_KEY}
        for chat_id, key, text in rows:
            if key == VERSION_KEY:
                continue
            value = self._decode_chat_value(chat_id, key, text)
            if value is not _UNREADABLE:
                result.setdefault(chat_id, {})[key] = value
                self._chat_base.setdefault(chat_id, {})[key] = text
        return result

    def _read_chat_rows(self, chat_id: int | None) -> list[Any]:
        t = chat_data_table
        query = select(t.c.chat_id, t.c.key, t.c.value)
        if chat_id is not None:
            query = query.where(t.c.chat_id == chat_id)
        with self.engine.connect() as conn:
            return list(conn.execute(query).all())

    def _decode_chat_value(self, chat_id: int, key: str, text: str) -> Any:
        try:
            return self.codec.loads(text)
        except CodecError as exc:
            log.error("cannot read chat_data[%r] of chat %s: %s", key, chat_id, exc)
            return _UNREADABLE

    def _read_version_fast(self, chat_id: int) -> int | None:
        """The chat's stored version read on the calling thread (SQLite), or None when that failed.

        One primary-key lookup on a connection of its own in autocommit mode: WAL readers do not wait for
        writers, and a short busy timeout sends the rare wait (a checkpoint) to the threaded full read."""
        try:
            if self._version_conn is None:
                conn = self.engine.raw_connection()
                conn.driver_connection.execute("PRAGMA busy_timeout=20")
                self._version_conn = conn
            row = self._version_conn.driver_connection.execute(
                "SELECT value FROM bot_chat_data WHERE chat_id = ? AND key = ?", (chat_id, VERSION_KEY)
            ).fetchone()
        except Exception as exc:  # any failure: the full read decides
            log.debug("fast version read of chat %s failed: %s", chat_id, exc)
            self._close_version_conn()
            return None
        return _version(row[0]) if row else 0

    def _close_version_conn(self) -> None:
        conn, self._version_conn = self._version_conn, None
        if conn is not None:
            with contextlib.suppress(Exception):  # a broken connection is dropped either way
                conn.close()

    def _read_version(self, chat_id: int) -> int:
        t = chat_data_table
        with self.engine.connect() as conn:
            text = conn.execute(
                select(t.c.value).where(t.c.chat_id == chat_id, t.c.key == VERSION_KEY)
            ).scalar()
        return _version(text) if text is not None else 0

    async def refresh_chat_data(self, chat_id: int, chat_data: dict[Any, Any]) -> None:
        """Merge what other processes stored for this chat into `chat_data` (see the class docstring)."""
        known = self._chat_versions.get(chat_id)
        if known is not None:
            stored = self._read_version_fast(chat_id) if self._fast_version else None
            if stored is None and not self._fast_version:
                stored = await asyncio.to_thread(self._read_version, chat_id)
            if stored == known:
                return  # nobody wrote this chat since this process last read or wrote it
        rows = await asyncio.to_thread(self._read_chat_rows, chat_id)
        remote = {key: text for _, key, text in rows}
        version_text = remote.pop(VERSION_KEY, None)
        self._chat_versions[chat_id] = _version(version_text) if version_text is not None else 0
        base = self._chat_base.setdefault(chat_id, {})
        for key in set(remote) | set(base):
            stored, known = remote.get(key), base.get(key)
            if stored == known:
                continue  # nobody else wrote it: the local value (perhaps not saved yet) stands
            if stored is None:
                chat_data.pop(key, None)  # deleted elsewhere
                del base[key]
                continue
            value = self._decode_chat_value(chat_id, key, stored)
            if value is not _UNREADABLE:
                chat_data[key] = value
                base[key] = stored

    async def update_chat_data(self, chat_id: int, data: dict[Any, Any]) -> None:
        """Write the keys of this chat that changed since they were last read or written here."""
        async with self._lock:
            await self._update_chat_data(chat_id, data)

    async def _update_chat_data(self, chat_id: int, data: dict[Any, Any]) -> None:
        base = self._chat_base.get(chat_id, {})
        texts: dict[str, str] = {}
        for key, value in data.items():
            if not isinstance(key, str):
                raise CodecError(f"chat_data keys must be strings, not {key!r}")
            if key == VERSION_KEY:
                raise CodecError(f"the chat_data key {VERSION_KEY!r} is reserved for the persistence")
            texts[key] = self.codec.dumps(value)
        changed = [
            {"chat_id": chat_id, "key": key, "value": text}
            for key, text in texts.items()
            if base.get(key) != text
        ]
        gone = [key for key in base if key not in texts]
        if not changed and not gone:
            return
        version = await self._write(self._write_chat, chat_id, changed, gone)
        self._chat_base[chat_id] = texts
        self._note_write(chat_id, version)

    def _note_write(self, chat_id: int, version: int) -> None:
        """After this process's write made `version`: still current only if nobody wrote in between."""
        if self._chat_versions.get(chat_id) == version - 1:
            self._chat_versions[chat_id] = version
        else:
            self._chat_versions.pop(chat_id, None)  # the next refresh loads and merges the rows

    @staticmethod
    def _write_chat(engine: Engine, chat_id: int, rows: list[dict[str, Any]], gone: list[str]) -> int:
        t = chat_data_table
        with engine.begin() as conn:
            _upsert(conn, t, rows, ["chat_id", "key"], ["value"])
            if gone:
                conn.execute(delete(t).where(t.c.chat_id == chat_id, t.c.key.in_(gone)))
            return _bump_version(conn, chat_id)

    async def drop_chat_data(self, chat_id: int) -> None:
        """Delete every stored key of the chat."""
        t = chat_data_table

        def drop(engine: Engine) -> int:
            with engine.begin() as conn:
                conn.execute(delete(t).where(t.c.chat_id == chat_id, t.c.key != VERSION_KEY))
                return _bump_version(conn, chat_id)

        version = await self._write(drop)
        self._chat_base[chat_id] = {}
        self._note_write(chat_id, version)

    # -- not stored --

    async def get_user_data(self) -> dict[int, dict[Any, Any]]:
        """Not stored."""
        return {}

    async def get_bot_data(self) -> dict[Any, Any]:
        """Not stored (bot_data holds the ledger and settings of this process)."""
        return {}

    async def get_conversations(self, name: str) -> ConversationDict:
        """Not stored (the bot has no ConversationHandler)."""
        return {}

    async def update_conversation(self, name: str, key: ConversationKey, new_state: object | None) -> None:
        """Not stored."""

    async def update_user_data(self, user_id: int, data: dict[Any, Any]) -> None:
        """Not stored."""

    async def update_bot_data(self, data: dict[Any, Any]) -> None:
        """Not stored."""

    async def drop_user_data(self, user_id: int) -> None:
        """Not stored."""

    async def refresh_user_data(self, user_id: int, user_data: dict[Any, Any]) -> None:
        """Not stored."""

    async def refresh_bot_data(self, bot_data: dict[Any, Any]) -> None:
        """Not stored."""

    async def flush(self) -> None:
        """Every write is committed when made: only the connections of the event loop are closed (at
        shutdown)."""
        self._close_version_conn()
        if self._quick_engine is not None:
            self._quick_engine.dispose()


_UNREADABLE = object()


def _version(text: str) -> int:
    """The integer of a stored version row (-1 when unreadable)."""
    try:
        return int(text)
    except (TypeError, ValueError):
        return -1


def _bump_version(conn: Connection, chat_id: int) -> int:
    """Add one to the chat's version row (creating it at 1) in the caller's transaction; the new value."""
    stmt = _bump_statement(conn.dialect.name)
    return _version(conn.execute(stmt, {"chat_id": chat_id}).scalar_one())


@functools.cache
def _bump_statement(dialect: str) -> Any:
    t = chat_data_table
    insert_of = _INSERTS.get(dialect)
    if insert_of is None:
        raise RuntimeError(f"DatabasePersistence supports SQLite and PostgreSQL, not {dialect}")
    stmt = insert_of(t).values(chat_id=bindparam("chat_id"), key=VERSION_KEY, value="1")
    bumped = cast(cast(t.c.value, SAInteger) + 1, String)
    stmt = stmt.on_conflict_do_update(index_elements=["chat_id", "key"], set_={"value": bumped})
    return stmt.returning(t.c.value)


async def save_now(application: Any, chat_id: int | None = None) -> None:
    """Write the new keyboards and the chat's data now: `DatabasePersistence.save`, or PTB's full
    `update_persistence` under another persistence."""
    persistence = application.persistence
    if isinstance(persistence, DatabasePersistence):
        await persistence.save(application, chat_id)
    elif persistence is not None:
        if chat_id is not None:
            application.mark_data_for_update_persistence(chat_ids=chat_id)
        await application.update_persistence()
