"""One writer for SQLite (bot.ledger.storage.store.Writer): the writes of one process take turns in the
order they came, instead of racing for SQLite's lock; every engine on the same file shares the turn;
PostgreSQL has none (its row locks let tables write at once)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from ledger_helpers import seat_table
from sqlalchemy import create_engine

from bot.ledger import Ledger
from bot.ledger.play import recording, sessions
from bot.ledger.storage.db import open_database
from bot.ledger.storage.store import Writer, writer_for


def test_writers_take_turns_first_come_first_served() -> None:
    writer = Writer()
    order: list[int] = []

    def write(number: int) -> None:
        with writer.turn():
            order.append(number)

    threads = []
    with writer.turn():  # the first writer holds the turn while three more come, one after the other
        for number in (1, 2, 3):
            thread = threading.Thread(target=write, args=(number,))
            thread.start()
            threads.append(thread)
            while writer.queued < number:  # the next one comes once this one waits in the queue
                threading.Event().wait(0.001)
        order.append(0)
    for thread in threads:
        thread.join()
    assert order == [0, 1, 2, 3]


def test_a_write_inside_a_write_of_the_same_thread_goes_on() -> None:
    writer = Writer()
    with writer.turn(), writer.turn():
        done = True
    assert done and writer.queued == 0


def test_every_engine_on_one_file_shares_its_writer_and_postgresql_has_none(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/one.db"
    first, second = create_engine(url), create_engine(url)
    assert writer_for(first) is writer_for(second) is not None
    assert writer_for(create_engine(f"sqlite:///{tmp_path}/other.db")) is not writer_for(first)
    assert writer_for(create_engine("postgresql+psycopg://nobody@127.0.0.1/none")) is None


def test_tables_recording_at_once_never_meet_the_lock(
    sqlite_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Eight tables commit 10 hands each from eight threads on an engine that does not wait for SQLite's
    lock at all (busy_timeout 0: a write that met it would fail at once and be retried, logged): every
    hand is recorded once, and no write met the lock."""
    ledger = Ledger(open_database(sqlite_url, busy_timeout_ms=0))
    chats = [-100 - i for i in range(8)]
    for chat in chats:
        seat_table(ledger, chat)

    def record(chat: int) -> None:
        for n in range(10):
            recording.commit(ledger, chat, {"event": "draw"}, source_key=f"{chat}-{n}")

    threads = [threading.Thread(target=record, args=(chat,)) for chat in chats]
    with caplog.at_level("INFO", logger="bot.ledger.storage.store"):
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert all(sessions.require_session(ledger, chat).hands_played == 10 for chat in chats)
    assert "ledger write conflict" not in caplog.text
