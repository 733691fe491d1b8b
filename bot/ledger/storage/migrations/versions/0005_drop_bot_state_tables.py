"""Drop the bot-state tables: buttons carry short string data, jobs are sweeps over ledger state.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01

`bot_callback_data` and `bot_chat_data` (bot.persistence) and `scheduled_jobs` (the custom APScheduler job
store) are gone with what wrote them: a button's data names the ledger row it acts on, the pinned card's
id lives on the session, and the due times of expiry, idle end and the weekly post are ledger columns.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

TABLES = ("bot_callback_data", "bot_chat_data", "scheduled_jobs")


def upgrade() -> None:
    """Apply this revision."""
    present = set(sa.inspect(op.get_bind()).get_table_names())
    for table in TABLES:
        if table in present:
            op.drop_table(table)


def downgrade() -> None:
    """Revert this revision: the empty tables of 0002."""
    op.create_table(
        "scheduled_jobs",
        sa.Column("id", sa.Unicode(length=191), nullable=False),
        sa.Column("next_run_time", sa.Float(precision=25), nullable=True),
        sa.Column("job_state", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_scheduled_jobs"),
    )
    op.create_index("ix_scheduled_jobs_next_run_time", "scheduled_jobs", ["next_run_time"])
    op.create_table(
        "bot_callback_data",
        sa.Column("keyboard_uuid", sa.String(length=32), nullable=False),
        sa.Column("access_time", sa.Float(), nullable=False),
        sa.Column("buttons", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("keyboard_uuid", name="pk_bot_callback_data"),
    )
    op.create_index("ix_bot_callback_data_access_time", "bot_callback_data", ["access_time"])
    op.create_table(
        "bot_chat_data",
        sa.Column("chat_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("chat_id", "key", name="pk_bot_chat_data"),
    )
