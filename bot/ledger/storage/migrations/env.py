"""Alembic environment of the ledger: runs on the connection handed over by
`bot.ledger.storage.db.migrate`."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection, create_engine
from sqlmodel import SQLModel

import bot.ledger.storage.models  # noqa: F401  (defines the tables on SQLModel.metadata)

target_metadata = SQLModel.metadata
config = context.config


def run_migrations() -> None:
    """Migrate on `config.attributes["connection"]`, or on `sqlalchemy.url` when run by the alembic CLI."""
    connection = config.attributes.get("connection")
    if connection is None:
        engine = create_engine(config.get_main_option("sqlalchemy.url") or "sqlite:///data/mahjong.db")
        with engine.begin() as connection:
            _run(connection)
        return
    _run(connection)


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=True,
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


run_migrations()
