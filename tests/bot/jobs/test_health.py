"""The container health check (`python -m bot.health`) and the heartbeat the running bot writes for it."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path
from types import SimpleNamespace

import pytest
from apscheduler.events import EVENT_JOB_ERROR, EVENT_JOB_EXECUTED, JobExecutionEvent
from jobs_game import build_app
from sqlalchemy import create_engine, text

from bot.console.transport import InProcessBotAPI
from bot.health import database_problem, heartbeat_path, heartbeat_problem, main, write_heartbeat
from bot.jobs import setup_jobs
from bot.settings import Settings


def sqlite_file(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'mahjong.db'}"
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE t (x INTEGER)"))
    engine.dispose()
    return url


def test_heartbeat_fresh_stale_missing(tmp_path: Path) -> None:
    path = heartbeat_path(tmp_path)
    assert "no heartbeat file" in (heartbeat_problem(path) or "")
    write_heartbeat(path)
    assert heartbeat_problem(path) is None
    assert "old (limit 120s)" in (heartbeat_problem(path, now=time.time() + 300) or "")


def test_database_check(tmp_path: Path) -> None:
    assert database_problem(sqlite_file(tmp_path)) is None
    assert "does not exist" in (database_problem(f"sqlite:///{tmp_path / 'nope.db'}") or "")
    problem = database_problem("postgresql+psycopg://bot:hunter2@127.0.0.1:1/mahjong", timeout=1) or ""
    assert "does not answer" in problem and "hunter2" not in problem


def test_database_check_finds_a_database_that_cannot_be_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A database that answers reads but takes no write is unhealthy (the bot would answer every hand
    with "try again"): a read-only SQLite file, a full filesystem."""
    url = sqlite_file(tmp_path)
    read_only = url.replace("sqlite:///", "sqlite:///file:") + "?mode=ro&uri=true"
    problem = database_problem(read_only) or ""
    assert "cannot be written" in problem and "attempt to write a readonly database" in problem, problem
    monkeypatch.setattr("bot.health.shutil.disk_usage", lambda _path: SimpleNamespace(free=4096))
    assert "is full (4096 bytes free)" in (database_problem(url) or "")


def test_database_check_finds_a_read_only_postgresql(pg_url: str) -> None:
    """A standby, or a server set `default_transaction_read_only`: unhealthy, and the password not shown."""
    assert database_problem(pg_url) is None
    read_only = pg_url + ("&" if "?" in pg_url else "?") + "options=-c%20default_transaction_read_only%3Don"
    problem = database_problem(read_only) or ""
    assert "cannot be written: the server is read-only" in problem, problem


def test_main_exit_status(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)  # no .env from the project directory
    monkeypatch.setenv("DATA_DIR", str(tmp_path))
    monkeypatch.setenv("DATABASE_URL", sqlite_file(tmp_path))
    assert main([]) == 1
    assert "no heartbeat file" in capsys.readouterr().err
    write_heartbeat(heartbeat_path(tmp_path))
    assert main([]) == 0
    assert capsys.readouterr().out.strip() == "healthy"
    old = time.time() - 600
    os.utime(heartbeat_path(tmp_path), (old, old))
    assert main(["--max-age", "60"]) == 1


async def test_running_bot_writes_the_heartbeat(tmp_path: Path) -> None:
    settings = Settings(  # type: ignore[call-arg]
        _env_file=None, data_dir=tmp_path / "data", database_url=f"sqlite:///{tmp_path / 'bot.db'}"
    )
    app = build_app(InProcessBotAPI(), settings=settings)
    setup_jobs(app)
    assert app.job_queue is not None
    [start] = app.job_queue.get_jobs_by_name("jobs:heartbeat-start")
    loop = asyncio.get_running_loop()
    ran = asyncio.Event()

    def done(event: JobExecutionEvent) -> None:  # the scheduler's own event, not a clock
        if event.job_id == start.job.id:
            loop.call_soon_threadsafe(ran.set)

    app.job_queue.scheduler.add_listener(done, EVENT_JOB_EXECUTED | EVENT_JOB_ERROR)
    await app.initialize()
    await app.start()
    try:
        await asyncio.wait_for(ran.wait(), 60)  # the minute only bounds a broken start
        assert heartbeat_problem(heartbeat_path(settings.data_dir)) is None
    finally:
        await app.stop()
        await app.shutdown()
