"""Alembic environment of the ledger: runs on the connection handed over by `bot.ledger.db.migrate`."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from bot.ledger import models

target_metadata = models.SQLModel.metadata
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


def _run(connection: object) -> None:
    context.configure(
        connection=connection,  # type: ignore[arg-type]
        target_metadata=target_metadata,
        render_as_batch=True,
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


run_migrations()
