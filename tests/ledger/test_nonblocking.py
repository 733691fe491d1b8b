"""LedgerService.nonblocking(): the event loop's view of a SQLite ledger, which commits at once or raises
WouldBlock having written nothing (another connection holds the write lock); None where it cannot help."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from ledger_helpers import CHAT, row_counts, seat_table, self_draw

from bot.ledger import LedgerService
from bot.ledger.db import LOOP_AUTOCHECKPOINT_PAGES, open_database
from bot.ledger.errors import WouldBlock


def sqlite_file(url: str) -> str:
    return url.removeprefix("sqlite:///")


def test_the_view_commits_like_the_service(sqlite_ledger: LedgerService) -> None:
    table = seat_table(sqlite_ledger)
    view = sqlite_ledger.nonblocking()
    assert view is not None and sqlite_ledger.nonblocking() is view  # made once
    result = view.commit(CHAT, self_draw("S", 5), by=table.users[1], source_key="update:1")
    assert result.created and result.hand.number == 1 and result.hand.payments["S"] == 30
    # The same update again, through the service: the hand the view recorded.
    again = sqlite_ledger.commit(CHAT, self_draw("S", 5), by=table.users[1], source_key="update:1")
    assert not again.created and again.hand.id == result.hand.id
    rows = sqlite_ledger.standings(CHAT).session_rows
    assert {row.seat: row.net for row in rows} == {"E": -10, "S": 30, "W": -10, "N": -10}
    sqlite_ledger.close()


def test_a_taken_write_lock_raises_would_block_and_writes_nothing(sqlite_url: str) -> None:
    ledger = LedgerService(open_database(sqlite_url))
    table = seat_table(ledger)
    view = ledger.nonblocking()
    assert view is not None
    before = row_counts(ledger)
    other = sqlite3.connect(sqlite_file(sqlite_url), isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another writer: a worker thread, or another process
    try:
        with pytest.raises(WouldBlock):
            view.commit(CHAT, self_draw("S", 5), by=table.users[1], source_key="update:2")
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert row_counts(ledger) == before
    # The lock free again, the same call goes through (the bot makes it on the service, in a thread).
    assert view.commit(CHAT, self_draw("S", 5), by=table.users[1], source_key="update:2").created
    ledger.close()
    ledger.engine.dispose()


def test_no_view_where_a_commit_would_wait_anyway(tmp_path: Path) -> None:
    full = LedgerService(open_database(f"sqlite:///{tmp_path / 'full.db'}", synchronous="FULL"))
    assert full.nonblocking() is None  # every commit waits for the disk
    normal = LedgerService(open_database(f"sqlite:///{tmp_path / 'normal.db'}"))
    view = normal.nonblocking()
    assert view is not None and view.nonblocking() is None  # a view has no view of its own
    normal.close()


def test_no_view_on_postgresql(pg_url: str) -> None:
    ledger = LedgerService(open_database(pg_url))
    assert ledger.nonblocking() is None
    ledger.engine.dispose()


def test_the_open_table_lookup_is_prepared_once(sqlite_ledger: LedgerService) -> None:
    """`status = 'open'` is in the SQL text: a bound status would make SQLite prepare the hot lookup again
    at every execution, to check that the partial index uq_table_session_one_open still applies."""
    seat_table(sqlite_ledger)
    lookup = sqlite_ledger._hot.open_table_locked
    assert "status = 'open'" in lookup.sql and lookup.names == ["chat_id"]
    with sqlite_ledger.engine.connect() as conn:
        plan = conn.exec_driver_sql("EXPLAIN QUERY PLAN " + lookup.sql, (CHAT,)).fetchall()
        assert any("uq_table_session_one_open" in str(row[-1]) for row in plan)
        rows = lookup.rows(conn, {"chat_id": CHAT})
    assert len(rows) == 4  # the session's row once per seat
    sqlite_ledger.close()


def test_hands_on_the_view_leave_the_checkpoint_to_a_worker(sqlite_url: str) -> None:
    """The view's commits do not copy the WAL into the database file (SQLite's checkpoint at 1000 pages
    would, fsync included, inside a hand); `LedgerService.checkpoint` does, from the bot's worker thread."""
    ledger = LedgerService(open_database(sqlite_url))
    table = seat_table(ledger)
    assert ledger.checkpoint() is not None  # start from an empty WAL
    view = ledger.nonblocking()
    assert view is not None
    with view.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == LOOP_AUTOCHECKPOINT_PAGES
    for number in range(1, 121):  # well past 1000 pages of WAL
        view.commit(CHAT, self_draw("S", 5), by=table.users[1], source_key=f"update:{number}")
    wal, database = Path(sqlite_file(sqlite_url) + "-wal"), Path(sqlite_file(sqlite_url))
    assert wal.stat().st_size > 1000 * 4096  # nothing was checkpointed on the way
    before = database.stat().st_size
    result = ledger.checkpoint()
    assert result is not None
    in_wal, copied = result
    assert in_wal > 1000 and copied == in_wal  # every page reached the database file
    assert database.stat().st_size > before
    assert sum(row.net for row in ledger.standings(CHAT).session_rows) == 0
    ledger.close()


def test_no_checkpoint_without_a_wal(pg_url: str) -> None:
    """PostgreSQL and in-memory SQLite have no WAL file: `checkpoint` has nothing to do there."""
    for url in (pg_url, "sqlite://"):
        ledger = LedgerService(open_database(url))
        assert ledger.checkpoint() is None
        ledger.engine.dispose()


def test_a_busy_reader_in_the_view_would_block(sqlite_ledger: LedgerService) -> None:
    """A reader of the view that meets SQLite's "database is locked" (another connection recovering the
    WAL) raises WouldBlock like a writer, for the caller's thread road; other errors pass unchanged."""
    from sqlalchemy.exc import OperationalError

    seat_table(sqlite_ledger)
    view = sqlite_ledger.nonblocking()
    assert view is not None

    def locked(_conn: object) -> None:
        raise OperationalError("SELECT 1", {}, sqlite3.OperationalError("database is locked"))

    def broken(_conn: object) -> None:
        raise OperationalError("SELECT 1", {}, sqlite3.OperationalError("no such table: x"))

    with pytest.raises(WouldBlock):
        view._read_core(locked)
    with pytest.raises(WouldBlock):
        view._read(locked)
    with pytest.raises(OperationalError, match="no such table"):
        view._read_core(broken)
    with pytest.raises(OperationalError, match="database is locked"):
        sqlite_ledger._read_core(locked)  # the service itself: its caller waits, nothing to turn into
    assert view.current_session(CHAT) is not None  # and the view reads on
    sqlite_ledger.close()
