"""The database fails while the bot runs: PostgreSQL down, a read-only or full disk, an I/O error half-way
through a write. Every command and press still gets a short "try again", nothing is half-written, and the
bot goes on as soon as the database is back."""

from __future__ import annotations

import json
import logging
import os
import shutil
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psycopg
import pytest
from harness import GROUP_ID, Table, Turn, make_settings
from sqlalchemy import Engine, event
from sqlmodel import SQLModel

from bot.console.transport import InProcessBotAPI
from bot.health import heartbeat_path, write_heartbeat
from bot.ledger import Ledger
from bot.ledger.play import books, groups
from bot.ledger.storage.db import create_db_engine, storage_failure

TRY_AGAIN = "账本暂时存取不了，请稍后再试。"
INTERNAL = "出错了，已记录。请稍后再试。"
TRY_AGAIN_EN = "The ledger cannot be reached right now. Please try again in a moment."


def left(table: Table, turn: Turn) -> list[str]:
    """The texts of the messages a turn sent that are still in the chat: a /hu's preview goes out before
    its entry is stored, and is deleted again when that fails."""
    there = {reply.message_id for reply in table.replies()}
    return [reply.text for reply in turn.sent if reply.message_id in there]


def ledger(table: Table) -> Ledger:
    book = table.app.bot_data["ledger"]
    assert isinstance(book, Ledger)
    return book


def rows(engine: Engine) -> dict[str, list[str]]:
    """Every row of every ledger table, to compare the database before and after."""
    with engine.connect() as connection:
        return {
            t.name: sorted(repr(tuple(row)) for row in connection.execute(t.select()))
            for t in SQLModel.metadata.sorted_tables
        }


def refused(engine: Engine) -> Exception:
    """What the driver raises when the database cannot be opened or reached: SQLite's own error for a file
    whose directory is gone (SQLITE_CANTOPEN), psycopg's for a server that refuses the connection."""
    if engine.dialect.name == "sqlite":
        try:
            sqlite3.connect(Path(engine.url.database or "").parent / "gone" / "ledger.db")
        except sqlite3.OperationalError as error:
            return error
        raise AssertionError("a file in a missing directory opened")
    return psycopg.OperationalError('connection to server at "127.0.0.1" failed: Connection refused')


def disk_io_error() -> sqlite3.OperationalError:
    """What SQLite raises when the disk fails a write: "disk I/O error", SQLITE_IOERR_WRITE."""
    error = sqlite3.OperationalError("disk I/O error")
    error.sqlite_errorcode, error.sqlite_errorname = sqlite3.SQLITE_IOERR_WRITE, "SQLITE_IOERR_WRITE"
    return error


@contextmanager
def database_down(engine: Engine) -> Iterator[None]:
    """No connection can be opened (the server is down, the file gone), and the pooled ones are dropped."""

    def refuse(*_args: Any) -> None:
        raise refused(engine)

    event.listen(engine, "do_connect", refuse)
    engine.dispose()
    try:
        yield
    finally:
        event.remove(engine, "do_connect", refuse)


@contextmanager
def database_read_only(engine: Engine) -> Iterator[None]:
    """Connections open, reads work, every write is refused (a read-only file or filesystem; a standby)."""

    def read_only(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        if engine.dialect.name == "sqlite":
            cursor.execute("PRAGMA query_only=ON")
        else:
            cursor.execute("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY")
            dbapi_connection.commit()
        cursor.close()

    event.listen(engine, "connect", read_only)
    engine.dispose()
    try:
        yield
    finally:
        event.remove(engine, "connect", read_only)
        engine.dispose()


@contextmanager
def fails_inserting_a_hand(engine: Engine) -> Iterator[None]:
    """The disk fails in the middle of a write transaction: at its INSERT of the hand row, after the
    statements before it (the idempotency key, the entry's state) have run."""

    def fail(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if statement.lstrip().upper().startswith("INSERT INTO HAND "):
            if engine.dialect.name == "sqlite":
                raise disk_io_error()
            raise psycopg.errors.DiskFull("could not extend file: No space left on device")

    event.listen(engine, "before_cursor_execute", fail)
    try:
        yield
    finally:
        event.remove(engine, "before_cursor_execute", fail)


async def preview(table: Table) -> int:
    """bob's /hu 南 自摸 5花 waiting for Confirm: its message id."""
    await table.say("ann", "/dealer 东")
    turn = await table.say("bob", "/hu 南 自摸 5花")
    assert turn.sent[-1].buttons == ("✅ 确认", "✖ 取消"), turn.texts
    return turn.sent[-1].message_id


async def test_with_the_database_down_every_command_and_press_says_try_again(db_seated: Table) -> None:
    """/hu, /score, /join and a Confirm press while the database is down: each gets the short "try again"
    (the press on its button), nothing is recorded; once it is back the same Confirm records the hand."""
    table = db_seated
    table.strict = False  # the storage errors reach the error handler, as in production
    engine = ledger(table).engine
    shown = await preview(table)
    before = rows(engine)
    with database_down(engine):
        for text in ("/hu 西 自摸 8花", "/score", "/join", "/end"):
            turn = await table.say("cat", text)
            assert turn.texts == [TRY_AGAIN], text
        pressed = await table.press("cat", "确认", message_id=shown)
        assert pressed.answers == [TRY_AGAIN] and not pressed.sent and not pressed.edits
    assert table.handler_errors and all(storage_failure(e) for e in table.handler_errors)
    assert rows(engine) == before  # nothing written while it was down
    done = await table.press("cat", "确认", message_id=shown)
    assert done.answers and done.answers[0] != TRY_AGAIN
    session = groups.chat_state(ledger(table), table.chat_id).session
    assert session is not None
    assert [h.number for h in ledger(table).read(books.hands, session.id)] == [1]
    score = await table.say("cat", "/score")
    assert score.texts and TRY_AGAIN not in score.texts


async def test_a_read_only_database_still_answers_what_it_can_read(
    db_seated: Table, caplog: pytest.LogCaptureFixture
) -> None:
    """Writes refused (a read-only file, filesystem or standby): /score and /seat still answer from the
    ledger, /hu and Confirm get "try again" and change nothing, logged as a one-line warning (no
    traceback: not a bug); writable again, Confirm records."""
    table = db_seated
    table.strict = False
    engine = ledger(table).engine
    shown = await preview(table)
    before = rows(engine)
    with database_read_only(engine), caplog.at_level(logging.WARNING):
        score = await table.say("cat", "/score")
        assert score.texts and TRY_AGAIN not in score.texts
        assert left(table, await table.say("cat", "/hu 西 自摸 8花")) == [TRY_AGAIN]
        assert (await table.press("cat", "确认", message_id=shown)).answers == [TRY_AGAIN]
    logged = [r for r in caplog.records if r.name == "bot.handlers.errors"]
    assert len(logged) == 2 and all(r.levelno == logging.WARNING for r in logged)
    assert all(r.getMessage().startswith("storage unavailable: ") for r in logged)
    assert not any("Traceback" in r.getMessage() for r in logged)
    assert rows(engine) == before
    assert (await table.press("cat", "确认", message_id=shown)).answers[0] != TRY_AGAIN
    session = groups.chat_state(ledger(table), table.chat_id).session
    assert session is not None and len(ledger(table).read(books.hands, session.id)) == 1


async def test_a_write_failing_half_way_leaves_nothing_behind(db_seated: Table) -> None:
    """The disk fails at the hand's INSERT inside Confirm's transaction: the press says "try again" and
    every table is exactly as before (no idempotency key, the entry still waiting, no totals); the next
    Confirm records the hand once."""
    table = db_seated
    table.strict = False
    engine = ledger(table).engine
    shown = await preview(table)
    before = rows(engine)
    with fails_inserting_a_hand(engine):
        pressed = await table.press("cat", "确认", message_id=shown)
    assert pressed.answers == [TRY_AGAIN] and not pressed.edits
    assert rows(engine) == before
    done = await table.press("dan", "确认", message_id=shown)
    assert done.answers[0] != TRY_AGAIN and done.edits
    session = groups.chat_state(ledger(table), table.chat_id).session
    assert session is not None and [h.number for h in ledger(table).read(books.hands, session.id)] == [1]


@contextmanager
def renamed(engine: Engine, what: str) -> Iterator[str]:
    """The pending entries' table (or its `payload` column) renamed under the running bot, as after a deploy
    whose code is ahead of its migration; renamed back after. Yields the name the error names."""
    sql = {
        "table": (
            "ALTER TABLE pending_entry RENAME TO pending_entry_gone",
            "ALTER TABLE pending_entry_gone RENAME TO pending_entry",
        ),
        "column": (
            "ALTER TABLE pending_entry RENAME COLUMN payload TO payload_gone",
            "ALTER TABLE pending_entry RENAME COLUMN payload_gone TO payload",
        ),
    }[what]
    engine.dispose()  # no pooled connection keeps a prepared statement on the old schema
    with engine.begin() as connection:
        connection.exec_driver_sql(sql[0])
    try:
        yield "pending_entry" if what == "table" else "payload"
    finally:
        engine.dispose()
        with engine.begin() as connection:
            connection.exec_driver_sql(sql[1])


@pytest.mark.parametrize("what", ["table", "column"])
async def test_a_missing_table_or_column_is_a_bug_not_a_storage_failure(
    db_seated: Table, caplog: pytest.LogCaptureFixture, what: str
) -> None:
    """The schema lacks a table or column the code reads (a migration not applied): the database works, so
    /hu and a Confirm press get "something went wrong" (not "try again"), the traceback naming what is
    missing is logged as an error, and nothing is written."""
    table = db_seated
    table.strict = False
    engine = ledger(table).engine
    shown = await preview(table)
    before = rows(engine)
    with renamed(engine, what) as missing, caplog.at_level(logging.WARNING):
        assert left(table, await table.say("cat", "/hu 西 自摸 8花")) == [INTERNAL]
        assert (await table.press("cat", "确认", message_id=shown)).answers == [INTERNAL]
    assert table.handler_errors and not any(storage_failure(e) for e in table.handler_errors)
    logged = [r for r in caplog.records if r.name == "bot.handlers.errors"]
    assert logged and all(r.levelno == logging.ERROR for r in logged), [r.getMessage() for r in logged]
    assert all("Traceback (most recent call last)" in r.getMessage() for r in logged)
    assert all(missing in r.getMessage() for r in logged)
    assert rows(engine) == before
    assert (await table.press("cat", "确认", message_id=shown)).answers[0] not in (INTERNAL, TRY_AGAIN)


async def test_try_again_is_in_the_groups_language_without_reading_it(seated_table: Table) -> None:
    """The group's language comes from what the bot last read, not from the database that is down."""
    table = seated_table
    table.strict = False
    await table.say("ann", "/lang en")
    with database_down(ledger(table).engine):
        assert (await table.say("bob", "/score")).texts == [TRY_AGAIN_EN]


async def test_postgresql_refusing_connections_gets_every_update_answered(tmp_path: Path) -> None:
    """Issue 18 #15: a bot whose PostgreSQL refuses connections (nothing listens on the port). Commands get
    "try again" in the chat, a press gets it on its button, and the bot keeps answering."""
    url = "postgresql+psycopg://postgres@127.0.0.1:1/mahjong"
    transport = InProcessBotAPI(seed=0)
    book = Ledger(create_db_engine(url))
    from bot.app import build_application

    settings = make_settings(url, tmp_path)
    app = build_application(settings, request=transport, get_updates_request=transport, ledger=book)
    table = await Table.start(app, transport, strict=False)
    try:
        for text in ("/newgame 苏州 1", "/hu 南 自摸 5花", "/score"):
            assert (await table.say("ann", text)).texts == [TRY_AGAIN], text
        chat = table.state.chat(GROUP_ID)
        confirm = {"text": "✅ 确认", "callback_data": "pc:" + "0" * 32}
        markup = {"inline_keyboard": [[confirm]]}
        with table.state.lock:
            shown = table.state.new_message(chat, table.state.bot_user, text="预览", reply_markup=markup)
        pressed = await table.press("bob", "✅ 确认", message_id=shown["message_id"])
        assert pressed.answers == [TRY_AGAIN] and not pressed.sent
        assert table.handler_errors and all(storage_failure(e) for e in table.handler_errors)
    finally:
        await table.stop()
        book.engine.dispose()


async def test_a_press_whose_handler_breaks_is_still_answered(seated_table: Table) -> None:
    """Not a storage failure but a bug: the press gets "something went wrong" on its button, not a spinner."""
    from telegram.ext import CallbackQueryHandler

    table = seated_table
    table.strict = False
    shown = await preview(table)

    async def broken(_update: Any, _context: Any) -> None:
        raise RuntimeError("a bug")

    table.app.add_handler(CallbackQueryHandler(broken), group=-2)
    pressed = await table.press("cat", "确认", message_id=shown)
    assert pressed.answers[0] == INTERNAL


# ---- a read-only SQLite database, in a process of its own ----------------------------------------------

READ_ONLY_BOT = """
import asyncio, json, sys
from pathlib import Path
from harness import GROUP_ID, Table, make_settings
from bot.app import build_application
from bot.console.transport import InProcessBotAPI

async def main(url: str, data_dir: str, message_id: int, data: str) -> None:
    transport = InProcessBotAPI(seed=0)
    settings = make_settings(url, Path(data_dir))
    app = build_application(settings, request=transport, get_updates_request=transport)
    table = await Table.start(app, transport, strict=False)
    out = {}
    try:
        for text in ("/score", "/hu 西 自摸 8花", "/seat"):  # what each left in the chat
            turn = await table.say("bob", text)
            there = {reply.message_id for reply in table.replies()}
            out[text] = [reply.text for reply in turn.sent if reply.message_id in there]
        chat = table.state.chat(GROUP_ID)
        with table.state.lock:  # the preview as the bot showed it before the disk went read-only
            chat.next_message_id = message_id
            table.state.new_message(chat, table.state.bot_user, text="preview",
                reply_markup={"inline_keyboard": [[{"text": "✅ 确认", "callback_data": data}]]})
        out["confirm"] = (await table.press("cat", "✅ 确认", message_id=message_id)).answers
    finally:
        await table.stop()
    print(json.dumps(out, ensure_ascii=False))

asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]))
"""


@contextmanager
def unwritable_copy(engine: Engine, how: str, where: Path) -> Iterator[str]:
    """The URL of the database made unwritable: opened `mode=ro`, or copied with its -wal and -shm onto a
    tmpfs then remounted read-only or filled up, or checkpointed and copied alone (as a bot leaves it when
    it stops) onto a read-only tmpfs (those need root and mount; skipped without)."""
    database = Path(engine.url.database or "")
    if how == "mode=ro":
        yield f"sqlite:///file:{database}?mode=ro&uri=true"
        return
    where.mkdir()
    mount = ["mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", str(where)]
    if subprocess.run(mount, capture_output=True).returncode:
        pytest.skip("cannot mount a tmpfs here (not root, or no CAP_SYS_ADMIN)")
    try:
        if how == "closed cleanly":
            with engine.connect() as connection:
                connection.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
        for suffix in ("",) if how == "closed cleanly" else ("", "-wal", "-shm"):
            if Path(f"{database}{suffix}").exists():
                shutil.copyfile(f"{database}{suffix}", where / f"{database.name}{suffix}")
        if how != "full filesystem":
            subprocess.run(["mount", "-o", "remount,ro", str(where)], check=True)
        else:  # full: a file takes every free byte
            with open(where / "filler", "wb") as filler:
                try:
                    while True:
                        filler.write(b"\0" * 65536)
                        filler.flush()
                except OSError:
                    pass
        yield f"sqlite:///{where / database.name}"
    finally:
        subprocess.run(["umount", str(where)], check=False)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("how", "unhealthy"),
    [
        ("mode=ro", "cannot be written: OperationalError: (sqlite3.OperationalError) attempt to write a"),
        ("read-only filesystem", "cannot be written: a read-only filesystem, or not writable by this user"),
        ("full filesystem", "ledger.db is full ("),
        ("closed cleanly", "cannot be written: a read-only filesystem"),
    ],
)
async def test_an_unwritable_sqlite_file_keeps_the_bot_alive_and_the_health_check_says_so(
    seated_table: Table, tmp_path: Path, how: str, unhealthy: str
) -> None:
    """Issue 18 #16: the bot on a SQLite file it cannot write (read-only: its -wal and -shm too; or a full
    disk) starts, reads /score and /seat, answers /hu and a Confirm with "try again" and keeps running
    (it had died by SIGBUS, exit 135); `python -m bot.health` exits 1 naming the reason."""
    table = seated_table
    shown = await preview(table)
    data = table.message(shown).raw["reply_markup"]["inline_keyboard"][0][0]["callback_data"]
    with unwritable_copy(ledger(table).engine, how, tmp_path / "disk") as url:
        root = Path(__file__).resolve().parents[2]
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root), str(root / "tests" / "bot")])}
        run = subprocess.run(
            [sys.executable, "-c", READ_ONLY_BOT, url, str(tmp_path), str(shown), data],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert run.returncode == 0, (run.returncode, run.stderr[-3000:])  # -7 would be SIGBUS
        answers = json.loads(run.stdout.strip().splitlines()[-1])
        assert answers["/hu 西 自摸 8花"] == [TRY_AGAIN]
        assert answers["confirm"] == [TRY_AGAIN]
        for read in ("/score", "/seat"):
            assert answers[read] and TRY_AGAIN not in answers[read], answers
        write_heartbeat(heartbeat_path(tmp_path), now=time.time())
        health = subprocess.run(
            [sys.executable, "-m", "bot.health"],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=60,
            env={**env, "DATABASE_URL": url, "DATA_DIR": str(tmp_path)},
        )
    assert health.returncode == 1, health
    assert unhealthy in health.stderr, health.stderr
    session = groups.chat_state(ledger(table), table.chat_id).session
    assert session is not None and ledger(table).read(books.hands, session.id) == []
