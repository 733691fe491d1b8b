"""Shared fixtures and settings: the Hypothesis profiles, and the databases: a fresh SQLite file per test,
plus PostgreSQL when TEST_DATABASE_URL is set.

Hypothesis runs the profile named by HYPOTHESIS_PROFILE: `dev` (the default: a fifth of the examples, new
ones each run, failures replayed from .hypothesis/) or `ci` (every test's full budget, derandomized so a run
is reproducible from its commit alone). tests/budget.py scales each test's count to the profile. Neither
profile has a deadline or the too-slow health check: how long an example takes on a shared machine is
no test's business.

`db_url` (and `engine`, `ledger` on top of it) runs a test once per backend: `sqlite` always, `postgresql`
when TEST_DATABASE_URL points at a server. Each pytest run creates its own randomly named PostgreSQL
database on that server (other runs may use the same server at the same time) and drops it at the end;
between tests its tables are emptied. `sqlite_url` / `sqlite_ledger` are SQLite only; `pg_url` skips
without a server.
"""

from __future__ import annotations

import os
import secrets
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from sqlalchemy import Engine, create_engine, text
from sqlalchemy.engine import make_url
from sqlmodel import SQLModel

from bot.ledger import Ledger
from bot.ledger.storage import models  # noqa: F401  (SQLModel.metadata: the sessions _empty_pg empties)
from bot.ledger.storage.db import open_database

BACKENDS = ["sqlite", "postgresql"]

# Cache bytecode even under PYTHONDONTWRITEBYTECODE (the Docker image and some shells set it): without the
# cache every run, and each of its xdist workers, compiles the project and rewrites every test module's
# asserts again, about ten seconds of a run here (collecting took 13 s instead of 2).
sys.dont_write_bytecode = False

_UNTIMED = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}
settings.register_profile("ci", max_examples=100, derandomize=True, database=None, **_UNTIMED)
settings.register_profile("dev", max_examples=20, **_UNTIMED)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


def _server_url() -> str | None:
    url = os.environ.get("TEST_DATABASE_URL", "").strip()
    return url or None


@pytest.fixture(scope="session")
def _pg_database() -> Iterator[str | None]:
    """The URL of this run's own PostgreSQL database (created now, dropped at the end), or None."""
    server = _server_url()
    if server is None:
        yield None
        return
    base = make_url(server)
    name = f"mjtest_{secrets.token_hex(6)}"
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            connection.execute(text(f'CREATE DATABASE "{name}"'))
            # A commit need not wait for the disk here: a test's database outlives no server crash, and the
            # wait is most of a PostgreSQL test's time (5 ms a commit against under 1).
            connection.execute(text(f'ALTER DATABASE "{name}" SET synchronous_commit = off'))
    except Exception as exc:  # the server is configured but unusable: say so instead of skipping quietly
        admin.dispose()
        raise RuntimeError(f"TEST_DATABASE_URL is set but CREATE DATABASE failed: {exc}") from exc
    url = base.set(database=name).render_as_string(hide_password=False)
    open_database(url).dispose()  # migrate once per run
    _check_tables_are_the_models(url)
    try:
        yield url
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def _check_tables_are_the_models(url: str) -> None:
    """_empty_pg deletes the models' tables: a migrated table without a model would keep its rows."""
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            migrated = set(
                connection.execute(
                    text(
                        "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
                        " AND tablename <> 'alembic_version'"
                    )
                ).scalars()
            )
    finally:
        engine.dispose()
    assert migrated == set(SQLModel.metadata.tables), migrated ^ set(SQLModel.metadata.tables)


def _empty_pg(url: str) -> None:
    """Every row deleted, children first, and the id sequences restarted (a DELETE of these few rows is
    several times faster than a TRUNCATE, which replaces every table's files)."""
    tables = [table.name for table in reversed(SQLModel.metadata.sorted_tables)]
    engine = create_engine(url)
    try:
        with engine.begin() as connection:
            for table in tables:
                connection.execute(text(f'DELETE FROM "{table}"'))
            sequences = connection.execute(
                text("SELECT sequencename FROM pg_sequences WHERE schemaname = 'public'")
            ).scalars()
            for sequence in sequences.all():
                connection.execute(text(f'ALTER SEQUENCE "{sequence}" RESTART'))
    finally:
        engine.dispose()


@pytest.fixture(scope="session")
def _sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A migrated SQLite file, made once per run; each test gets a copy (migrating is the slow part)."""
    path = tmp_path_factory.mktemp("template") / "ledger.db"
    open_database(f"sqlite:///{path}").dispose()  # the last connection closing checkpoints the WAL
    return path


def _fresh_sqlite(template: Path, tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("db") / "ledger.db"
    shutil.copyfile(template, path)
    return f"sqlite:///{path}"


@pytest.fixture
def sqlite_url(_sqlite_template: Path, tmp_path_factory: pytest.TempPathFactory) -> str:
    """A fresh, migrated, empty SQLite file database in a new temporary directory."""
    return _fresh_sqlite(_sqlite_template, tmp_path_factory)


@pytest.fixture
def pg_url(_pg_database: str | None) -> str:
    """This run's PostgreSQL database, emptied; skips when TEST_DATABASE_URL is not set."""
    if _pg_database is None:
        pytest.skip("TEST_DATABASE_URL not set: PostgreSQL tests skipped")
    _empty_pg(_pg_database)
    return _pg_database


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> str:
    """An empty database per test: SQLite always, PostgreSQL too when TEST_DATABASE_URL is set."""
    if request.param == "sqlite":
        return _fresh_sqlite(request.getfixturevalue("_sqlite_template"), tmp_path_factory)
    pg: str | None = request.getfixturevalue("_pg_database")
    if pg is None:
        pytest.skip("TEST_DATABASE_URL not set: PostgreSQL variant skipped")
    _empty_pg(pg)
    return pg


@pytest.fixture
def engine(db_url: str) -> Iterator[Engine]:
    """A migrated engine on `db_url`."""
    eng = open_database(db_url)
    yield eng
    eng.dispose()


@pytest.fixture
def ledger(engine: Engine) -> Ledger:
    """A Ledger on a fresh database (runs once per backend)."""
    return Ledger(engine)


@pytest.fixture
def sqlite_ledger(sqlite_url: str) -> Iterator[Ledger]:
    """A Ledger on a fresh SQLite file only (for tests that need no second backend)."""
    eng = open_database(sqlite_url)
    yield Ledger(eng)
    eng.dispose()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the PostgreSQL variants `postgres` so `-m "not postgres"` deselects them."""
    for item in items:
        callspec = getattr(item, "callspec", None)
        if callspec is not None and callspec.params.get("db_url") == "postgresql":
            item.add_marker(pytest.mark.postgres)
