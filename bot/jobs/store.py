"""An APScheduler job store in the project's own database that persists PTB jobs as JSON, not pickles.

python-telegram-bot's `Job` holds the callback and a weak reference to the application, so it cannot be
pickled the way `SQLAlchemyJobStore` stores jobs. This store keeps, per job, only what rebuilds it: the
callback's registered name (see `persistent`), chat id, user id, name, JSON data, the trigger (date or cron)
and the APScheduler options. On load the `telegram.ext.Job` is rebuilt around the registered callback and
bound to the running `JobQueue`. The table is created by the Alembic migration 0002, not by this store.

Several bot processes may share one database (webhook mode behind a load balancer). APScheduler 3 does not
coordinate schedulers, so `get_due_jobs` claims each due job with a compare-and-set on its
`next_run_time` column: only the process whose UPDATE changes the row runs that firing. The claim is a
lease: if the claiming process dies before it reschedules or removes the job, the row becomes due again
after `LEASE_SECONDS` and another process runs it.
"""

from __future__ import annotations

import datetime as dtm
import json
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

from apscheduler.job import Job as APSJob
from apscheduler.jobstores.base import BaseJobStore, ConflictingIdError
from apscheduler.triggers.cron import CronTrigger
from apscheduler.triggers.date import DateTrigger
from apscheduler.util import datetime_to_utc_timestamp, obj_to_ref, utc_timestamp_to_datetime
from sqlalchemy import Column, Float, MetaData, Table, Text, Unicode, create_engine, inspect, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from telegram.ext import CallbackContext, Job, JobQueue

if TYPE_CHECKING:
    from apscheduler.triggers.base import BaseTrigger

log = logging.getLogger(__name__)

JOBSTORE = "persistent"  # the alias every persistent job is added under
TABLE = "scheduled_jobs"
LEASE_SECONDS = 300.0
FORMAT_VERSION = 1

# What APScheduler calls for every PTB job: JobQueue.job_callback(job_queue, ptb_job).
_JOB_CALLBACK_REF = obj_to_ref(JobQueue.job_callback)

JobCallbackType = Callable[[CallbackContext[Any, Any, Any, Any]], Awaitable[object]]
REGISTRY: dict[str, JobCallbackType] = {}


def persistent(name: str) -> Callable[[JobCallbackType], JobCallbackType]:
    """Register a job callback under a stable `name`, the only thing of it stored in the database.

    Renaming the function is harmless; renaming the registered name orphans stored jobs.
    """

    def register(callback: JobCallbackType) -> JobCallbackType:
        if name in REGISTRY and REGISTRY[name] is not callback:
            raise ValueError(f"persistent job callback name {name!r} is already registered")
        REGISTRY[name] = callback
        return callback

    return register


def callback_name(callback: object) -> str:
    """The registered name of `callback`; a clear error for a callback that was never registered."""
    for name, registered in REGISTRY.items():
        if registered is callback:
            return name
    raise ValueError(
        f"job callback {getattr(callback, '__qualname__', callback)!r} is not registered with "
        "@persistent(name), so it cannot be stored in the database"
    )


# --- triggers as JSON ------------------------------------------------------------------------------------


def _tz_to_json(tz: dtm.tzinfo | None) -> str | float | None:
    if tz is None:
        return None
    key = getattr(tz, "key", None)
    if isinstance(key, str):
        return key
    offset = tz.utcoffset(None)
    if offset is None:
        raise ValueError(f"cannot store time zone {tz!r}: use a zoneinfo name or a fixed offset")
    return offset.total_seconds()


def _tz_from_json(value: str | float | None) -> dtm.tzinfo | None:
    if value is None:
        return None
    if isinstance(value, str):
        return ZoneInfo(value)
    return dtm.timezone(dtm.timedelta(seconds=value))


def _dt_to_json(value: dtm.datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _dt_from_json(value: str | None) -> dtm.datetime | None:
    return dtm.datetime.fromisoformat(value) if value is not None else None


def trigger_to_json(trigger: BaseTrigger) -> dict[str, Any]:
    """A date or cron trigger as a JSON object; other triggers are refused with a clear error."""
    if isinstance(trigger, DateTrigger):
        return {"type": "date", "run_date": _dt_to_json(trigger.run_date)}
    if isinstance(trigger, CronTrigger):
        return {
            "type": "cron",
            "fields": {field.name: str(field) for field in trigger.fields},
            "timezone": _tz_to_json(trigger.timezone),
            "start_date": _dt_to_json(trigger.start_date),
            "end_date": _dt_to_json(trigger.end_date),
            "jitter": trigger.jitter,
        }
    raise ValueError(f"persistent jobs support date and cron triggers, not {type(trigger).__name__}")


def trigger_from_json(obj: dict[str, Any]) -> BaseTrigger:
    """Inverse of `trigger_to_json`."""
    kind = obj.get("type")
    if kind == "date":
        run_date = _dt_from_json(obj["run_date"])
        return DateTrigger(run_date=run_date, timezone=run_date.tzinfo if run_date else None)
    if kind == "cron":
        return CronTrigger(
            **obj["fields"],
            timezone=_tz_from_json(obj["timezone"]),
            start_date=_dt_from_json(obj["start_date"]),
            end_date=_dt_from_json(obj["end_date"]),
            jitter=obj["jitter"],
        )
    raise ValueError(f"unknown stored trigger type {kind!r}")


# --- the store -------------------------------------------------------------------------------------------


class DatabaseJobStore(BaseJobStore):  # type: ignore[misc]
    """Persists `telegram.ext.Job`s of one `JobQueue` in the table `scheduled_jobs` as JSON."""

    def __init__(
        self,
        job_queue: JobQueue[Any],
        *,
        url: str | None = None,
        engine: Engine | None = None,
        owns_engine: bool = False,
        tablename: str = TABLE,
        lease_seconds: float = LEASE_SECONDS,
    ) -> None:
        super().__init__()
        if engine is None:
            if not url:
                raise ValueError("DatabaseJobStore needs a database url or an engine")
            engine = create_engine(url)
            owns_engine = True
        self._owns_engine = owns_engine  # dispose the engine when the scheduler shuts down
        self.engine = engine
        self.job_queue = job_queue
        self.lease_seconds = lease_seconds
        self.table = Table(
            tablename,
            MetaData(),
            Column("id", Unicode(191), primary_key=True),
            Column("next_run_time", Float(25), index=True),
            Column("job_state", Text, nullable=False),
        )

    # -- APScheduler interface --

    def start(self, scheduler: Any, alias: str) -> None:
        super().start(scheduler, alias)
        self.check_table()

    def check_table(self) -> None:
        """The table comes from the Alembic migrations (0002): applied here when the database has not
        been migrated yet (a job store opened on a bare URL); a clear error if it is still missing."""
        if inspect(self.engine).has_table(self.table.name):
            return
        from bot.ledger.db import migrate

        migrate(self.engine)
        if not inspect(self.engine).has_table(self.table.name):
            raise RuntimeError(f"the job table {self.table.name!r} does not exist after the migrations")

    def shutdown(self) -> None:
        if self._owns_engine:
            self.engine.dispose()

    def lookup_job(self, job_id: str) -> APSJob | None:
        with self.engine.begin() as conn:
            state = conn.execute(select(self.table.c.job_state).where(self.table.c.id == job_id)).scalar()
        return self._reconstitute(state) if state else None

    def get_due_jobs(self, now: dtm.datetime) -> list[APSJob]:
        timestamp = datetime_to_utc_timestamp(now)
        jobs = []
        for row in self.due_rows(timestamp):
            if not self.claim(row.id, row.next_run_time, timestamp):
                log.info("job %s is being run by another process", row.id)
                continue
            job = self._reconstitute_or_drop(row.id, row.job_state)
            if job is not None:
                jobs.append(job)
        return jobs

    def due_rows(self, timestamp: float) -> list[Any]:
        """The rows due at `timestamp` (UTC seconds): id, next_run_time, job_state."""
        t = self.table
        with self.engine.begin() as conn:
            return list(
                conn.execute(
                    select(t.c.id, t.c.next_run_time, t.c.job_state)
                    .where(t.c.next_run_time <= timestamp)
                    .order_by(t.c.next_run_time)
                ).all()
            )

    def claim(self, job_id: str, seen_run_time: float, timestamp: float) -> bool:
        """Take this firing of a due job: compare-and-set its next_run_time from the value read to a lease
        `lease_seconds` ahead. False when another process changed the row first."""
        t = self.table
        with self.engine.begin() as conn:
            claimed = conn.execute(
                t.update()
                .where(t.c.id == job_id, t.c.next_run_time == seen_run_time)
                .values(next_run_time=timestamp + self.lease_seconds)
            ).rowcount
        return bool(claimed == 1)

    def get_next_run_time(self) -> dtm.datetime | None:
        t = self.table
        with self.engine.begin() as conn:
            value = conn.execute(
                select(t.c.next_run_time)
                .where(t.c.next_run_time.is_not(None))
                .order_by(t.c.next_run_time)
                .limit(1)
            ).scalar()
        return utc_timestamp_to_datetime(value)  # type: ignore[no-any-return]

    def get_all_jobs(self) -> list[APSJob]:
        t = self.table
        with self.engine.begin() as conn:
            rows = conn.execute(select(t.c.id, t.c.job_state).order_by(t.c.next_run_time)).all()
        jobs = [job for row in rows if (job := self._reconstitute_or_drop(row.id, row.job_state))]
        self._fix_paused_jobs_sorting(jobs)
        return jobs

    def add_job(self, job: APSJob) -> None:
        values = self._row(job)
        with self.engine.begin() as conn:
            try:
                conn.execute(self.table.insert().values(id=job.id, **values))
            except IntegrityError as exc:
                raise ConflictingIdError(job.id) from exc

    def update_job(self, job: APSJob) -> None:
        values = self._row(job)
        with self.engine.begin() as conn:
            updated = conn.execute(self.table.update().where(self.table.c.id == job.id).values(**values))
        if updated.rowcount == 0:
            # Another process removed it (the session ended, the entry was confirmed): keep it removed.
            log.info("job %s vanished from the store while running; not recreating it", job.id)

    def remove_job(self, job_id: str) -> None:
        # Tolerant on purpose: the scheduler removes a date job after running it, and another process
        # (or the job's own callback) may have removed it already. Raising here would stop the scheduler.
        with self.engine.begin() as conn:
            conn.execute(self.table.delete().where(self.table.c.id == job_id))

    def remove_all_jobs(self) -> None:
        with self.engine.begin() as conn:
            conn.execute(self.table.delete())

    def __repr__(self) -> str:
        return f"<DatabaseJobStore {self.engine.url.render_as_string(hide_password=True)} {self.table.name}>"

    # -- serialization --

    def _row(self, job: APSJob) -> dict[str, Any]:
        return {
            "next_run_time": datetime_to_utc_timestamp(job.next_run_time),
            "job_state": json.dumps(self.dump(job), ensure_ascii=False, sort_keys=True),
        }

    @staticmethod
    def dump(job: APSJob) -> dict[str, Any]:
        """The JSON state of one APScheduler job that wraps a PTB job."""
        ptb_job = Job.from_aps_job(job)
        try:
            data = json.loads(json.dumps(ptb_job.data))
        except (TypeError, ValueError) as exc:
            raise ValueError(f"data of persistent job {job.id!r} must be JSON: {exc}") from exc
        return {
            "version": FORMAT_VERSION,
            "id": job.id,
            "callback": callback_name(ptb_job.callback),
            "name": ptb_job.name,
            "chat_id": ptb_job.chat_id,
            "user_id": ptb_job.user_id,
            "data": data,
            "trigger": trigger_to_json(job.trigger),
            "executor": job.executor,
            "misfire_grace_time": job.misfire_grace_time,
            "coalesce": job.coalesce,
            "max_instances": job.max_instances,
            "next_run_time": _dt_to_json(job.next_run_time),
        }

    def load(self, state: dict[str, Any]) -> APSJob:
        """Rebuild the APScheduler job and its PTB job from `dump`'s state."""
        if state.get("version") != FORMAT_VERSION:
            raise ValueError(
                f"stored job has format version {state.get('version')!r}, this code reads {FORMAT_VERSION}"
            )
        name = state["callback"]
        if name not in REGISTRY:
            raise ValueError(f"stored job {state['id']!r} names unknown callback {name!r}")
        ptb_job: Job[Any] = Job(
            callback=REGISTRY[name],
            data=state["data"],
            name=state["name"],
            chat_id=state["chat_id"],
            user_id=state["user_id"],
        )
        job = APSJob.__new__(APSJob)
        job.__setstate__(
            {
                "version": 1,
                "id": state["id"],
                "func": _JOB_CALLBACK_REF,
                "trigger": trigger_from_json(state["trigger"]),
                "executor": state["executor"],
                "args": (self.job_queue, ptb_job),
                "kwargs": {},
                "name": state["name"],
                "misfire_grace_time": state["misfire_grace_time"],
                "coalesce": state["coalesce"],
                "max_instances": state["max_instances"],
                "next_run_time": _dt_from_json(state["next_run_time"]),
            }
        )
        job._scheduler = self._scheduler
        job._jobstore_alias = self._alias
        ptb_job._job = job
        return job

    def _reconstitute(self, text: str) -> APSJob:
        return self.load(json.loads(text))

    def _reconstitute_or_drop(self, job_id: str, text: str) -> APSJob | None:
        try:
            return self._reconstitute(text)
        except Exception:
            # A row we cannot read (unknown callback after a rename, corrupt JSON) is logged and left in
            # place for a human: deleting it would lose the only record of what was scheduled.
            log.exception("cannot restore stored job %s; skipping it", job_id)
            return None
