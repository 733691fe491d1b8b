"""A bot worker process for the multi-process job test: runs an Application with the persistent job store
on a database for a few seconds; its one job callback records each run in the table `job_runs`.

    python jobs_worker.py <database url> <worker name> <Unix time to stop at>
"""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path
from typing import Any

from sqlalchemy import Column, MetaData, Table, Text, create_engine
from telegram.ext import CallbackContext

sys.path.insert(0, str(Path(__file__).resolve().parent))
from jobs_fakebot import RecordingRequest, build_app

from bot.jobs import DatabaseJobStore, persistent, setup_jobs

RUNS = Table(
    "job_runs", MetaData(), Column("job", Text, nullable=False), Column("worker", Text, nullable=False)
)
WORKER = {"name": "test"}


@persistent("test.count")
async def count_run(context: CallbackContext[Any, Any, Any, Any]) -> None:
    """Record which worker ran which job."""
    assert context.job is not None
    engine = context.bot_data["runs_engine"]
    with engine.begin() as conn:
        conn.execute(RUNS.insert().values(job=context.job.name, worker=WORKER["name"]))


def slow_reads(store: DatabaseJobStore, delay: float) -> None:
    """Widen the race: a pause between reading the due rows and claiming them, as on a slow network."""
    read = store.due_rows

    def due_rows(timestamp: float) -> list[Any]:
        rows = read(timestamp)
        if rows:
            time.sleep(delay)
        return rows

    store.due_rows = due_rows  # type: ignore[method-assign]


async def run(url: str, stop_at: float) -> None:
    app = build_app(RecordingRequest(), runs_engine=create_engine(url))
    slow_reads(setup_jobs(app, database_url=url), 0.5)
    await app.initialize()
    await app.start()
    print("started", flush=True)
    await asyncio.sleep(max(0.0, stop_at - time.time()))
    await app.stop()
    await app.shutdown()


if __name__ == "__main__":
    WORKER["name"] = sys.argv[2]
    asyncio.run(run(sys.argv[1], float(sys.argv[3])))
