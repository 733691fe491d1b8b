"""Database engine and schema: SQLite (WAL) or PostgreSQL by URL, Alembic migrations applied on open.

Durability on SQLite: WAL mode with `synchronous=NORMAL` by default. A commit appends the transaction to the
WAL file with write() before it returns, so a committed hand survives the process being killed (SIGKILL, a
crash, an OOM kill, `docker kill`): the operating system still holds the written pages and the next open
reads them (tests/bot/ledger/test_reliability.py kills a real process right after a commit and checks the hand
is there). What NORMAL gives up is the fsync of the WAL on every commit: after a power cut or a kernel crash
the transactions committed since the last checkpoint may be rolled back (the database stays consistent,
never half a hand). `synchronous=FULL` closes that window at the cost of one fsync per commit (2-5 ms on
this kind of disk, more than the whole rest of recording a hand); set `SQLITE_SYNCHRONOUS=FULL` (or pass
`synchronous="FULL"`) where a power cut must not lose the last hands. PostgreSQL keeps its own settings.

When storage fails (a full or read-only filesystem, an unreadable file, PostgreSQL down) a ledger call raises
and its transaction rolls back whole; `storage_failure` tells such an error from a bug by SQLite's result
code or PostgreSQL's SQLSTATE (a missing table or column is a bug, not a storage failure), and the bot
answers it with "try again" (bot.handlers.errors), a bug with "something went wrong" and a traceback.
SQLite never maps the database file into memory (`mmap_size=0`): a read of a mapped page that the disk
cannot deliver kills the process with SIGBUS, where a plain read() returns an error. WAL's shared-memory
index (`-shm`) is mapped by SQLite whatever the settings, so that file must stay where the database is and
never be truncated or replaced under a running bot. A database that cannot be written is still opened
when its schema is current (`migrate` writes nothing then), and the bot keeps answering what it can read.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
from collections.abc import Iterator
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, create_engine, event, exc, text
from sqlalchemy.dialects import registry
from sqlalchemy.dialects.sqlite.pysqlite import SQLiteDialect_pysqlite
from sqlalchemy.engine import make_url
from sqlalchemy.pool import PoolProxiedConnection

log = logging.getLogger(__name__)

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
DEFAULT_DATA_DIR = Path("data")
DEFAULT_FILE = "mahjong.db"
# Write transactions on SQLite take the write lock up front (BEGIN IMMEDIATE, in `immediate()`), so a
# read-then-write never fails with a stale snapshot; readers use a plain deferred BEGIN and never block on
# writers (WAL).
_BEGIN: ContextVar[str] = ContextVar("sqlite_begin", default="BEGIN")
SYNCHRONOUS_MODES = ("OFF", "NORMAL", "FULL", "EXTRA")
DEFAULT_SYNCHRONOUS = "NORMAL"  # see the module docstring
PG_CONNECT_TIMEOUT = 10  # seconds: a PostgreSQL host that drops packets fails a call instead of hanging it
# What storage_failure counts as "the database cannot be reached, read or written now" rather than a bug.
# SQLite, by primary result code (https://www.sqlite.org/rescode.html; an error carries the extended code,
# whose low byte is the primary one): IOERR (the OS failed a read, write, fsync or lock), FULL (the disk,
# or the temporary-file disk), NOLFS (the file outgrew what the filesystem can hold), READONLY (a
# read-only file or filesystem, a read-only WAL that cannot be recovered), CANTOPEN (the file, its
# directory or its -wal/-shm cannot be opened), PERM (the OS refused the access mode), BUSY (another
# connection held the lock past busy_timeout), PROTOCOL (WAL's lock race lost for seconds on end),
# CORRUPT and NOTADB (the file is damaged or replaced by something that is not a database). Not counted:
# ERROR (no such table or column, a syntax error: a bug, e.g. code ahead of its migration), LOCKED (a
# conflict inside one connection or its shared cache, which this engine never uses: a bug, not another
# process), CONSTRAINT, MISUSE, RANGE, TOOBIG, SCHEMA, AUTH, INTERRUPT, ABORT; NOMEM arrives as MemoryError.
SQLITE_STORAGE_CODES = frozenset(
    {
        sqlite3.SQLITE_IOERR,
        sqlite3.SQLITE_FULL,
        sqlite3.SQLITE_NOLFS,
        sqlite3.SQLITE_READONLY,
        sqlite3.SQLITE_CANTOPEN,
        sqlite3.SQLITE_PERM,
        sqlite3.SQLITE_BUSY,
        sqlite3.SQLITE_PROTOCOL,
        sqlite3.SQLITE_CORRUPT,
        sqlite3.SQLITE_NOTADB,
    }
)
# PostgreSQL, by SQLSTATE (https://www.postgresql.org/docs/current/errcodes-appendix.html): the classes 08
# (connection exception) and 53 (insufficient resources: disk full, out of memory, too many connections),
# the subclass 57P (the server shut down, crashed, is starting, dropped the database or ended an idle
# session), 25006 (read-only transaction: a standby), 58030 (I/O error) and XX001/XX002 (data or index
# corrupted). Not counted: 42 (syntax error, undefined table or column: a bug), 57014 (a query cancelled:
# no statement timeout is set), every other class. An error without a SQLSTATE is one the server never
# answered: an OperationalError or InterfaceError of the driver (refused, timed out, closed) counts.
PG_STORAGE_CLASSES = ("08", "53", "57P")
PG_STORAGE_SQLSTATES = frozenset({"25006", "58030", "XX001", "XX002"})


def default_url(data_dir: Path | str | None = None) -> str:
    """`DATABASE_URL` from the environment, else a SQLite file in the data directory."""
    url = os.environ.get("DATABASE_URL", "").strip()
    if url:
        return url
    directory = Path(data_dir) if data_dir is not None else DEFAULT_DATA_DIR
    return f"sqlite:///{directory / DEFAULT_FILE}"


def sqlite_synchronous(value: str | None = None) -> str:
    """The SQLite `synchronous` mode: `value`, else `SQLITE_SYNCHRONOUS` from the environment, else NORMAL."""
    mode = (value or os.environ.get("SQLITE_SYNCHRONOUS", "") or DEFAULT_SYNCHRONOUS).strip().upper()
    if mode not in SYNCHRONOUS_MODES:
        choices = ", ".join(SYNCHRONOUS_MODES)
        raise ValueError(f"SQLite synchronous mode must be one of {choices}, got {mode!r}")
    return mode


def create_db_engine(
    url: str,
    *,
    synchronous: str | None = None,
    busy_timeout_ms: int = 30000,
    **kwargs: Any,
) -> Engine:
    """An engine for `url` with the ledger's connection settings, without touching the schema.
    `synchronous` and `busy_timeout_ms` (how long a writer waits for another's write lock), SQLite only:
    see `sqlite_synchronous` and the module docstring."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        database = parsed.database or ""
        if database and database != ":memory:" and not database.startswith("file:"):
            Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)
        connect_args = {"timeout": busy_timeout_ms / 1000, "check_same_thread": False}
        connect_args.update(kwargs.pop("connect_args", {}))
        engine = create_engine(parsed.set(drivername=LEDGER_SQLITE), connect_args=connect_args, **kwargs)
        mode = sqlite_synchronous(synchronous)
        _sqlite_events(engine, mode, busy_timeout_ms)
        return engine
    kwargs.setdefault("pool_pre_ping", True)
    if parsed.get_backend_name() == "postgresql":
        kwargs["connect_args"] = {"connect_timeout": PG_CONNECT_TIMEOUT, **kwargs.get("connect_args", {})}
    return create_engine(parsed, **kwargs)


class LedgerSQLiteDialect(SQLiteDialect_pysqlite):
    """pysqlite with the ledger's transactions: the driver's own transaction handling is off (it begins
    too lazily: not before a SELECT), and each transaction SQLAlchemy begins issues BEGIN itself, deferred,
    or BEGIN IMMEDIATE inside `immediate()`. In the dialect rather than SQLAlchemy's pysqlite recipe (a
    "begin" event): an engine with any connection event listener dispatches events around every statement
    it runs, 7.5% of a recorded hand's instructions. A BEGIN that fails ("database is locked") arrives as
    SQLAlchemy's OperationalError, which the ledger's write loop retries."""

    supports_statement_cache = True

    def do_begin(self, dbapi_connection: PoolProxiedConnection) -> None:
        dbapi_connection.driver_connection.execute(_BEGIN.get())  # type: ignore[union-attr]


LEDGER_SQLITE = "sqlite+ledger"  # the URL's driver name for `LedgerSQLiteDialect`
registry.register("sqlite.ledger", __name__, LedgerSQLiteDialect.__name__)


@contextlib.contextmanager
def immediate() -> Iterator[None]:
    """SQLite transactions begun in this block, in this thread, on an engine of `create_db_engine` take
    the write lock up front (BEGIN IMMEDIATE); elsewhere, and on PostgreSQL, nothing changes."""
    token = _BEGIN.set("BEGIN IMMEDIATE")
    try:
        yield
    finally:
        _BEGIN.reset(token)


def _sqlite_events(engine: Engine, synchronous: str, busy_timeout_ms: int = 30000) -> None:
    """The pragmas of each new pooled connection (a pool event: statements run without event dispatch)."""

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # transactions begun by the dialect (`LedgerSQLiteDialect`)
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA mmap_size=0")  # reads by read(): an I/O error is an error, not SIGBUS
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
        cursor.execute(f"PRAGMA synchronous={synchronous}")
        cursor.close()


def sqlite_code(error: object) -> int | None:
    """The primary SQLite result code of a driver error (SQLITE_BUSY for SQLITE_BUSY_SNAPSHOT), or None
    for an error SQLite did not report (raised by the sqlite3 module itself, or another driver's)."""
    code = getattr(error, "sqlite_errorcode", None) if isinstance(error, sqlite3.Error) else None
    return code & 0xFF if isinstance(code, int) else None


def lock_busy(error: exc.DBAPIError) -> bool:
    """SQLite's "database is locked" (SQLITE_BUSY): another connection holds the lock; nothing was done."""
    return sqlite_code(error.orig) == sqlite3.SQLITE_BUSY


def storage_failure(error: BaseException) -> bool:
    """Whether `error` means the database could not be reached, read or written (SQLite: disk I/O error,
    read-only or full, cannot open the file, locked by another connection; PostgreSQL: connection refused
    or lost, a read-only standby, disk full), as opposed to a bug (no such table or column, a syntax
    error): the call's transaction rolled back, and trying again later may work. Decided on SQLite's
    result code and PostgreSQL's SQLSTATE (`SQLITE_STORAGE_CODES`, `PG_STORAGE_CLASSES`), never on the
    exception class alone: both drivers raise OperationalError for bugs too."""
    if isinstance(error, (exc.DisconnectionError, exc.TimeoutError)):  # the pool: no connection to use
        return True
    if not isinstance(error, exc.DBAPIError):
        return False
    orig = error.orig
    if isinstance(orig, sqlite3.Error):
        return sqlite_code(orig) in SQLITE_STORAGE_CODES
    if error.connection_invalidated:
        return True
    sqlstate = getattr(orig, "sqlstate", None) or getattr(getattr(orig, "diag", None), "sqlstate", None)
    if sqlstate is None:
        return isinstance(error, (exc.OperationalError, exc.InterfaceError))
    return str(sqlstate).startswith(PG_STORAGE_CLASSES) or sqlstate in PG_STORAGE_SQLSTATES


def is_sqlite(engine: Engine) -> bool:
    """True for a SQLite engine."""
    return engine.dialect.name == "sqlite"


def schema_current(engine: Engine, config: Config) -> bool:
    """Whether the database is at the migrations' head (a read: also on a database that cannot be written)."""
    with engine.connect() as connection:
        stored = set(MigrationContext.configure(connection).get_current_heads())
    return stored == set(ScriptDirectory.from_config(config).get_heads())


def migrate(engine: Engine, revision: str = "head") -> None:
    """Apply the Alembic migrations up to `revision` (idempotent; safe when several processes start). A
    schema already at the head is left alone without a write transaction."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("path_separator", "os")
    if revision == "head" and schema_current(engine, config):
        return
    if is_sqlite(engine):
        with immediate(), engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, revision)
        return
    with engine.begin() as connection:
        # Two processes starting together must not both create the schema.
        connection.execute(text("SELECT pg_advisory_xact_lock(727001)"))
        config.attributes["connection"] = connection
        command.upgrade(config, revision)


def read_only_fallback(url: str) -> str | None:
    """For a SQLite file in a directory this process cannot write (a read-only filesystem) and closed
    cleanly (no -wal file: every commit is in the file itself), the URL that opens it read-only without
    the -wal and -shm files SQLite could not create there (`immutable=1`); else None. Closed uncleanly,
    the committed hands in its -wal can only be read with that file's -shm, which SQLite then uses."""
    parsed = make_url(url)
    database = parsed.database or ""
    if parsed.get_backend_name() != "sqlite" or database in ("", ":memory:") or database.startswith("file:"):
        return None
    path = Path(database).expanduser().resolve()
    if not path.exists() or os.access(path.parent, os.W_OK) or Path(f"{path}-wal").exists():
        return None
    return f"sqlite:///file:{path}?immutable=1&uri=true"


def open_database(
    url: str | None = None,
    *,
    data_dir: Path | str | None = None,
    synchronous: str | None = None,
    **kwargs: Any,
) -> Engine:
    """Engine for `url` (default `default_url(data_dir)`) with the schema migrated to the latest revision;
    a SQLite file on a read-only disk is opened read-only (`read_only_fallback`): reads are served and
    every write fails as a storage failure."""
    url = url or default_url(data_dir)
    fallback = read_only_fallback(url)
    if fallback is not None:
        log.warning("the directory of %s cannot be written: the ledger is opened read-only", url)
        url = fallback
    engine = create_db_engine(url, synchronous=synchronous, **kwargs)
    migrate(engine)
    return engine
