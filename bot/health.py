"""Container health check: `python -m bot.health` exits 0 when the bot's heartbeat is fresh and its database
answers and can be written, 1 otherwise (one line per problem on stderr).

The running bot touches `<data_dir>/heartbeat` every 30 seconds from its JobQueue (`bot.jobs.setup_jobs`),
so a fresh file means the event loop and the scheduler are alive, in polling and in webhook mode alike.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from sqlalchemy import Connection, create_engine, text
from sqlalchemy.engine import make_url

from bot.settings import Settings

HEARTBEAT_FILE = "heartbeat"
HEARTBEAT_SECONDS = 30.0
MAX_AGE_SECONDS = 120.0
MIN_FREE_BYTES = 1 << 20  # below this the SQLite file's filesystem counts as full: a hand may not fit


def heartbeat_path(data_dir: Path | str) -> Path:
    """Where the bot writes its heartbeat."""
    return Path(data_dir) / HEARTBEAT_FILE


def write_heartbeat(path: Path, now: float | None = None) -> None:
    """Record that the bot is alive now (the file holds the Unix time, for people reading it)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    stamp = time.time() if now is None else now
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(f"{stamp:.0f}\n", encoding="ascii")
    tmp.replace(path)  # atomic: the checker never reads half a file


def heartbeat_problem(
    path: Path, *, max_age: float = MAX_AGE_SECONDS, now: float | None = None
) -> str | None:
    """None when the heartbeat is younger than `max_age` seconds, else what is wrong."""
    try:
        age = (time.time() if now is None else now) - path.stat().st_mtime
    except FileNotFoundError:
        return f"no heartbeat file at {path} (the bot has not started, or DATA_DIR differs)"
    if age > max_age:
        return (
            f"heartbeat at {path} is {age:.0f}s old (limit {max_age:.0f}s): the bot's loop is stuck or down"
        )
    return None


def database_problem(url: str, *, timeout: float = 5.0) -> str | None:
    """None when the database answers `SELECT 1`, can be written (`_write_probe`) and, on SQLite, its
    filesystem has room; else what is wrong (the URL's password is never shown)."""
    parsed = make_url(url)
    shown = parsed.render_as_string(hide_password=True)
    sqlite = parsed.get_backend_name() == "sqlite"
    database = parsed.database or ""
    plain_file = sqlite and database not in ("", ":memory:") and not database.startswith("file:")
    if sqlite:
        if plain_file and not Path(database).exists():
            return f"SQLite database {database} does not exist"
        if plain_file and not all(os.access(p, os.W_OK) for p in (database, Path(database).parent)):
            return f"database {shown} cannot be written: a read-only filesystem, or not writable by this user"
        connect_args: dict[str, object] = {"timeout": timeout}
    else:
        connect_args = {"connect_timeout": max(1, int(timeout))}
    engine = create_engine(parsed, connect_args=connect_args)
    step = "does not answer"
    try:
        with engine.connect() as connection:
            if sqlite:
                connection.exec_driver_sql("PRAGMA mmap_size=0")  # as the bot: reads by read(), no SIGBUS
            connection.execute(text("SELECT 1"))
            step = "cannot be written"
            read_only = _write_probe(connection, sqlite)
    except Exception as exc:  # any failure is "unhealthy"; say which
        return f"database {shown} {step}: {type(exc).__name__}: {str(exc).splitlines()[0]}"
    finally:
        engine.dispose()
    if read_only:
        return f"database {shown} cannot be written: {read_only}"
    if sqlite and database and database != ":memory:":
        path = Path(database.removeprefix("file:").split("?")[0])
        free = shutil.disk_usage(path.resolve().parent).free
        if free < MIN_FREE_BYTES:
            return f"the filesystem of SQLite database {database} is full ({free} bytes free)"
    return None


def _write_probe(connection: Connection, sqlite: bool) -> str | None:
    """SQLite: rewrite the file's `user_version` unchanged in a transaction rolled back (a read-only file or
    filesystem raises "attempt to write a readonly database"); PostgreSQL: a read-only server (a standby,
    `default_transaction_read_only`) says so. None when a write would be taken."""
    if sqlite:
        version = int(connection.exec_driver_sql("PRAGMA user_version").scalar() or 0)
        connection.exec_driver_sql("BEGIN IMMEDIATE")
        try:
            connection.exec_driver_sql(f"PRAGMA user_version = {version}")
        finally:
            connection.exec_driver_sql("ROLLBACK")
        return None
    if connection.execute(text("SHOW transaction_read_only")).scalar() == "on":
        return "the server is read-only (transaction_read_only = on)"
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """Check the heartbeat and the database of the configured bot; exit status 0 = healthy."""
    parser = argparse.ArgumentParser(prog="python -m bot.health", description=__doc__)
    parser.add_argument(
        "--max-age",
        type=float,
        default=MAX_AGE_SECONDS,
        help="oldest acceptable heartbeat in seconds (default %(default)s)",
    )
    parser.add_argument("--no-database", action="store_true", help="skip the database check")
    args = parser.parse_args(argv)

    settings = Settings()
    problems = [heartbeat_problem(heartbeat_path(settings.data_dir), max_age=args.max_age)]
    if not args.no_database:
        problems.append(database_problem(settings.database_url))
    found = [p for p in problems if p]
    for problem in found:
        print(f"unhealthy: {problem}", file=sys.stderr)
    if not found:
        print("healthy")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
