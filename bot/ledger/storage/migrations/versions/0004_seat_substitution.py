"""Seat substitution (/sub), who confirms (`confirm_by`), the table's open /hu button flow.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01

- seat: `active` (the player sits there now) and `left_after` (how many live rows the table had when they
  left). One active player per seat is a partial unique index instead of the unique (session, seat);
  a player still has one seat row per session.
- chat_group: `confirm_by`: "any" (any seated player or admin confirms an entry) or "other" (someone other
  than the one who recorded it: the table's sign-off).
- table_session: `flow_message_id`, the message of the table's open /hu button flow (one at a time).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this revision (the seat table is copied on SQLite; no table refers to it)."""
    with op.batch_alter_table("seat", recreate="always") as batch:
        batch.add_column(sa.Column("active", sa.Boolean(), nullable=False, server_default=sa.true()))
        batch.add_column(sa.Column("left_after", sa.Integer(), nullable=True))
        batch.drop_constraint("uq_seat_session_id_seat", type_="unique")
    op.add_column("table_session", sa.Column("flow_message_id", sa.BigInteger(), nullable=True))
    op.add_column(
        "chat_group", sa.Column("confirm_by", sa.String(length=8), nullable=False, server_default="any")
    )
    op.create_index(
        "uq_seat_one_active",
        "seat",
        ["session_id", "seat"],
        unique=True,
        sqlite_where=sa.text("active = 1"),
        postgresql_where=sa.text("active = true"),
    )


def downgrade() -> None:
    """Revert this revision (only possible while no seat was substituted)."""
    op.drop_index("uq_seat_one_active", table_name="seat")
    with op.batch_alter_table("chat_group") as batch:
        batch.drop_column("confirm_by")
    with op.batch_alter_table("table_session") as batch:
        batch.drop_column("flow_message_id")
    with op.batch_alter_table("seat", recreate="always") as batch:
        batch.create_unique_constraint("uq_seat_session_id_seat", ["session_id", "seat"])
        batch.drop_column("left_after")
        batch.drop_column("active")
