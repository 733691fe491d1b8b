"""Shared database fixtures: a fresh SQLite file per test, plus PostgreSQL when TEST_DATABASE_URL is set.

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
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine, create_engine, text
from sqlalchemy.engine import make_url

from bot.ledger.db import open_database
from bot.ledger.service import LedgerService

BACKENDS = ["sqlite", "postgresql"]


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
    except Exception as exc:  # the server is configured but unusable: say so instead of skipping quietly
        admin.dispose()
        raise RuntimeError(f"TEST_DATABASE_URL is set but CREATE DATABASE failed: {exc}") from exc
    url = base.set(database=name).render_as_string(hide_password=False)
    open_database(url).dispose()  # migrate once per run
    try:
        yield url
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def _empty_pg(url: str) -> None:
    engine = create_engine(url)
    try:
        with engine.begin() as connection:
            tables = [
                row[0]
                for row in connection.execute(
                    text(
                        "SELECT tablename FROM pg_tables"
                        " WHERE schemaname = 'public' AND tablename <> 'alembic_version'"
                    )
                )
            ]
            if tables:
                names = ", ".join(f'"{t}"' for t in tables)
                connection.execute(text(f"TRUNCATE {names} RESTART IDENTITY CASCADE"))
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
def ledger(engine: Engine) -> LedgerService:
    """A LedgerService on a fresh database (runs once per backend)."""
    return LedgerService(engine)


@pytest.fixture
def sqlite_ledger(sqlite_url: str) -> Iterator[LedgerService]:
    """A LedgerService on a fresh SQLite file only (for tests that need no second backend)."""
    eng = open_database(sqlite_url)
    yield LedgerService(eng)
    eng.dispose()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the PostgreSQL variants `postgres` so `-m "not postgres"` deselects them."""
    for item in items:
        callspec = getattr(item, "callspec", None)
        if callspec is not None and callspec.params.get("db_url") == "postgresql":
            item.add_marker(pytest.mark.postgres)
