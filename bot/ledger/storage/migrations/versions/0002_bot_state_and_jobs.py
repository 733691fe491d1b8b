"""Bot state and jobs: button callback data, chat_data (bot.persistence) and scheduled_jobs (bot.jobs.store).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30

`scheduled_jobs` used to be created by the job store itself; a database made by 0001 plus the store
already has it (same columns and index), so every table and index here is created only when missing.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def _tables() -> set[str]:
    return set(sa.inspect(op.get_bind()).get_table_names())


def _indexes(table: str) -> set[str]:
    return {name for index in sa.inspect(op.get_bind()).get_indexes(table) if (name := index.get("name"))}


def upgrade() -> None:
    """Apply this revision (idempotent for tables that already exist)."""
    tables = _tables()
    if "scheduled_jobs" not in tables:
        # Exactly bot/jobs/store.py's table: APScheduler's job store layout, job_state as JSON text.
        op.create_table(
            "scheduled_jobs",
            sa.Column("id", sa.Unicode(length=191), nullable=False),
            sa.Column("next_run_time", sa.Float(precision=25), nullable=True),
            sa.Column("job_state", sa.Text(), nullable=False),
            sa.PrimaryKeyConstraint("id", name="pk_scheduled_jobs"),
        )
    if "ix_scheduled_jobs_next_run_time" not in _indexes("scheduled_jobs"):
        op.create_index("ix_scheduled_jobs_next_run_time", "scheduled_jobs", ["next_run_time"])
    if "bot_callback_data" not in tables:
        op.create_table(
            "bot_callback_data",
            sa.Column("keyboard_uuid", sa.String(length=32), nullable=False),
            sa.Column("access_time", sa.Float(), nullable=False),
            sa.Column("buttons", sa.Text(), nullable=False),
            sa.PrimaryKeyConstraint("keyboard_uuid", name="pk_bot_callback_data"),
        )
        op.create_index("ix_bot_callback_data_access_time", "bot_callback_data", ["access_time"])
    if "bot_chat_data" not in tables:
        op.create_table(
            "bot_chat_data",
            sa.Column("chat_id", sa.BigInteger(), autoincrement=False, nullable=False),
            sa.Column("key", sa.String(length=64), nullable=False),
            sa.Column("value", sa.Text(), nullable=False),
            sa.PrimaryKeyConstraint("chat_id", "key", name="pk_bot_chat_data"),
        )


def downgrade() -> None:
    """Revert this revision (the job table goes too: 0001 alone never had it)."""
    op.drop_table("bot_chat_data")
    op.drop_index("ix_bot_callback_data_access_time", table_name="bot_callback_data")
    op.drop_table("bot_callback_data")
    op.drop_index("ix_scheduled_jobs_next_run_time", table_name="scheduled_jobs")
    op.drop_table("scheduled_jobs")
