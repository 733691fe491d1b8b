"""The database layer: URL defaults, SQLite pragmas, Alembic schema, constraints the DB enforces."""

from __future__ import annotations

import os
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import Engine, inspect, text
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError
from sqlmodel import Session

from bot.ledger.play import books
from bot.ledger.storage.db import default_url, open_database, read_only_fallback, storage_failure
from bot.ledger.storage.models import ChatGroup, TableSession


def test_default_url_is_a_sqlite_file_in_the_data_dir(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)
    assert default_url(tmp_path / "data") == f"sqlite:///{tmp_path / 'data' / 'mahjong.db'}"
    monkeypatch.setenv("DATABASE_URL", "postgresql+psycopg://u@h/db")
    assert default_url(tmp_path) == "postgresql+psycopg://u@h/db"


def test_a_sqlite_file_on_a_read_only_disk_opens_read_only(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Closed cleanly (no -wal) in a directory that cannot be written, the file opens `immutable`: reads
    work, a write is a storage failure. With a -wal left over (committed hands in it), SQLite's own
    read-only WAL mode reads it instead; a writable directory needs no fallback."""
    url = f"sqlite:///{tmp_path / 'ledger.db'}"
    open_database(url).dispose()  # the last connection closing removes the -wal and -shm
    assert read_only_fallback(url) is None  # writable
    real_access = os.access
    monkeypatch.setattr(  # the directory as a read-only filesystem shows it
        "bot.ledger.storage.db.os.access",
        lambda path, mode: Path(path) != tmp_path and real_access(path, mode),
    )
    assert read_only_fallback(url) == f"sqlite:///file:{tmp_path / 'ledger.db'}?immutable=1&uri=true"
    assert read_only_fallback("postgresql+psycopg://u@h/db") is None
    engine = open_database(url)
    with engine.connect() as connection:
        assert connection.exec_driver_sql("SELECT count(*) FROM chat_group").scalar() == 0
    with pytest.raises(Exception) as raised, engine.begin() as connection:
        connection.exec_driver_sql("INSERT INTO applied_key (key, applied_at) VALUES ('k', '2026-01-01')")
    assert storage_failure(raised.value) and "readonly" in str(raised.value)
    engine.dispose()
    (tmp_path / "ledger.db-wal").write_bytes(b"")
    assert read_only_fallback(url) is None


def _raised(engine: Engine, *statements: str) -> BaseException:
    """What running `statements` in one transaction raises."""
    with pytest.raises(DBAPIError) as raised, engine.begin() as connection:
        for statement in statements:
            connection.exec_driver_sql(statement)
    return raised.value


def test_a_schema_or_sql_bug_is_not_a_storage_failure_but_a_refused_write_is(engine: Engine) -> None:
    """A missing table or column and a syntax error are bugs (the database works), on both backends, though
    SQLite raises them as OperationalError; a write refused by a read-only connection is a storage failure."""
    for statement in ("SELECT * FROM no_such_table", "SELECT no_such_column FROM chat_group", "SELEC 1"):
        assert not storage_failure(_raised(engine, statement)), statement
    read_only = "PRAGMA query_only=ON" if engine.dialect.name == "sqlite" else "SET TRANSACTION READ ONLY"
    refused = _raised(engine, read_only, "DELETE FROM chat_group")
    assert storage_failure(refused), refused


def test_sqlite_storage_failures_go_by_result_code(tmp_path: Path) -> None:
    """SQLite's own errors for a file that cannot be opened (SQLITE_CANTOPEN) or is not a database
    (SQLITE_NOTADB) are storage failures; an error SQLite did not report (no result code) is not."""
    from bot.ledger.storage.db import create_db_engine

    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(b"not a database, " * 256)
    for url in (f"sqlite:///file:{tmp_path / 'gone.db'}?mode=ro&uri=true", f"sqlite:///{garbage}"):
        engine = create_db_engine(url)
        with pytest.raises(DBAPIError) as raised, engine.connect() as connection:
            connection.exec_driver_sql("SELECT count(*) FROM sqlite_master")
        engine.dispose()
        assert storage_failure(raised.value), raised.value
    unreported = OperationalError("SELECT 1", {}, sqlite3.OperationalError("disk I/O error"))
    assert not storage_failure(unreported)


def test_sqlite_file_is_created_in_wal_mode_with_foreign_keys(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("SQLITE_SYNCHRONOUS", raising=False)
    engine = open_database(f"sqlite:///{tmp_path / 'nested' / 'dir' / 'ledger.db'}")
    with engine.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        assert connection.exec_driver_sql("PRAGMA busy_timeout").scalar() == 30000
        # NORMAL (1): durable across a process kill (see test_reliability), no fsync per commit
        assert connection.exec_driver_sql("PRAGMA synchronous").scalar() == 1
        assert connection.exec_driver_sql("PRAGMA mmap_size").scalar() == 0  # read(), never SIGBUS
    engine.dispose()
    assert (tmp_path / "nested" / "dir" / "ledger.db").exists()


def test_sqlite_synchronous_full_on_request(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("SQLITE_SYNCHRONOUS", "full")
    engine = open_database(f"sqlite:///{tmp_path / 'env.db'}")
    with engine.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA synchronous").scalar() == 2
    engine.dispose()
    monkeypatch.delenv("SQLITE_SYNCHRONOUS")
    engine = open_database(f"sqlite:///{tmp_path / 'arg.db'}", synchronous="EXTRA")
    with engine.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA synchronous").scalar() == 3
    engine.dispose()
    with pytest.raises(ValueError, match=r"synchronous mode must be one of .* got 'SOMETIMES'"):
        open_database(f"sqlite:///{tmp_path / 'bad.db'}", synchronous="sometimes")


def test_a_locked_database_is_an_operational_error_the_ledger_retries(tmp_path: Path) -> None:
    """BEGIN IMMEDIATE goes straight to the driver; its failure still arrives as SQLAlchemy's
    OperationalError, which the ledger's write loop retries."""
    from bot.ledger.storage.db import create_db_engine, immediate
    from bot.ledger.storage.store import _retryable

    url = f"sqlite:///{tmp_path / 'locked.db'}"
    engine = open_database(url)
    holder = engine.connect()
    with immediate():
        holder.begin()  # holds the write lock
    busy = create_db_engine(url)
    with busy.connect() as connection:
        connection.connection.driver_connection.execute("PRAGMA busy_timeout=0")  # fail at once, no waiting
        with pytest.raises(OperationalError, match="database is locked") as caught, immediate():
            connection.begin()
    assert _retryable(caught.value)
    holder.rollback()
    holder.close()
    engine.dispose()
    busy.dispose()


def test_migrations_build_the_schema_and_rerun_harmlessly(engine: Engine, db_url: str) -> None:
    tables = set(inspect(engine).get_table_names())
    assert {
        "chat_group",
        "player",
        "table_session",
        "seat",
        "hand",
        "payment",
        "session_total",
        "group_total",
        "pending_entry",
        "alembic_version",
    } <= tables
    open_database(db_url).dispose()  # a second start-up finds the schema current
    with engine.connect() as connection:
        current = connection.execute(text("SELECT version_num FROM alembic_version")).scalar()
    assert current == _script_head()


def _script_head() -> str:
    """The newest revision among the migration scripts (every later migration moves it)."""
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    from bot.ledger.storage.db import MIGRATIONS

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("path_separator", "os")
    head = ScriptDirectory.from_config(config).get_current_head()
    assert head is not None
    return head


def test_database_allows_one_open_session_per_group(engine: Engine) -> None:
    now = datetime.now(UTC)
    with Session(engine) as s:
        group = ChatGroup(
            chat_id=1, language="en", rules="suzhou", confirm_timeout_seconds=120, created_at=now
        )
        s.add(group)
        s.commit()
        for number in (1, 2):
            s.add(
                TableSession(
                    group_id=group.id,
                    number=number,
                    rules="suzhou",
                    stake=1,
                    status="open",
                    opened_at=now,
                    last_activity_at=now,
                )
            )
        with pytest.raises(IntegrityError):
            s.commit()
        s.rollback()
        s.add(
            TableSession(
                group_id=group.id,
                number=1,
                rules="suzhou",
                stake=1,
                status="ended",
                opened_at=now,
                last_activity_at=now,
            )
        )
        s.add(
            TableSession(
                group_id=group.id,
                number=2,
                rules="suzhou",
                stake=1,
                status="open",
                opened_at=now,
                last_activity_at=now,
            )
        )
        s.commit()


def test_migration_0003_backfills_the_stats_aggregates_from_the_hands(tmp_path: Path) -> None:
    """A database of 0002 with a hand in it: after 0003, /stats shows the biggest win, its 花 and 连庄."""
    from bot.ledger import Ledger
    from bot.ledger.storage.db import create_db_engine, migrate

    engine = create_db_engine(f"sqlite:///{tmp_path / 'old.db'}")
    migrate(engine, "0002")
    now = "2026-11-30 20:00:00.000000"
    with engine.begin() as c:
        c.execute(
            text("INSERT INTO chat_group VALUES (1, -5, 'zh-Hans', 'suzhou', '{}', 0, 120, 0, :t)"),
            {"t": now},
        )
        for pid, name in enumerate(("Ann", "Bob", "Cat", "Dan"), start=1):
            c.execute(
                text(
                    "INSERT INTO player (id, group_id, display_name, guest_key, created_at) "
                    "VALUES (:id, 1, :n, :k, :t)"
                ),
                {"id": pid, "n": name, "k": name.lower(), "t": now},
            )
        c.execute(
            text(
                "INSERT INTO table_session (id, group_id, number, rules, options, stake, status, opened_at, "
                "last_activity_at, state, dealer_set, last_seq, live_rows, hands_played, version) "
                "VALUES (1, 1, 1, 'suzhou', '{}', 1, 'open', :t, :t, '{}', 0, 1, 1, 1, 1)"
            ),
            {"t": now},
        )
        c.execute(
            text(
                "INSERT INTO hand (id, session_id, seq, number, kind, entry, request, response, "
                "state_before, state_after, seat_players, dealer_after_player_id, streak_after, recorded_at, "
                "voided) VALUES (1, 1, 1, 1, 'win', '{}', '{}', '{}', '{}', '{}', '{}', 2, 3, :t, 0)"
            ),
            {"t": now},
        )
        for pid, amount, hua in ((1, -40, 0), (2, 120, 40), (3, -40, 0), (4, -40, 0)):
            c.execute(
                text("INSERT INTO payment (hand_id, player_id, amount, hua) VALUES (1, :p, :a, :h)"),
                {"p": pid, "a": amount, "h": hua},
            )
            for table, scope in (("session_total", "session_id"), ("group_total", "group_id")):
                c.execute(
                    text(
                        f"INSERT INTO {table} ({scope}, player_id, net, hands, wins, self_draws, "
                        "dealt_in) VALUES (1, :p, :a, 1, :w, :w, 0)"
                    ),
                    {"p": pid, "a": amount, "w": int(pid == 2)},
                )
    migrate(engine)
    stats = {s.player.display_name: s for s in Ledger(engine).read(books.player_stats, -5)}
    assert (stats["Bob"].biggest_win, stats["Bob"].biggest_hua, stats["Bob"].longest_streak) == (120, 40, 3)
    assert stats["Bob"].sessions == 1 and stats["Ann"].biggest_win == 0


def test_a_write_takes_the_lock_up_front_and_a_read_never_does(tmp_path: Path) -> None:
    """A ledger write holds SQLite's write lock from its first statement (BEGIN IMMEDIATE: a read-then-write
    never works on a stale snapshot); a read, and a transaction begun outside the ledger's writes, begins
    deferred and leaves the lock to others. Checked from another connection that asks for the lock and
    gives up at once."""
    from bot.ledger.storage.db import create_db_engine
    from bot.ledger.storage.models import AppliedKey
    from bot.ledger.storage.store import Ledger

    url = f"sqlite:///{tmp_path / 'modes.db'}"
    engine = open_database(url)
    other = create_db_engine(url)

    def lock_free() -> bool:
        with other.connect() as connection:
            driver = connection.connection.driver_connection
            assert driver is not None
            driver.execute("PRAGMA busy_timeout=0")
            try:
                driver.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError:
                return False
            driver.execute("ROLLBACK")
            return True

    store = Ledger(engine)
    assert store.write(lambda s: (s.get(AppliedKey, "nothing"), lock_free())[1]) is False
    assert store.read(lambda s: (s.get(AppliedKey, "nothing"), lock_free())[1]) is True
    with engine.begin() as connection:
        connection.exec_driver_sql("SELECT 1")
        assert lock_free()
    assert lock_free()  # and nothing is left holding it
    engine.dispose()
    other.dispose()
