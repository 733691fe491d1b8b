"""Seasons: a group's seasons as ledger state, the final standings and titles of each closed one kept.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-07

- season: one row per season an admin asked to close (`closed_at` NULL until the Confirm), with its
  number in the group, name, and the final standings and titles (JSON) once closed.
- table_session.season_id: the closed season an ended session belongs to (NULL: the current season).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this revision."""
    op.create_table(
        "season",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=True),
        sa.Column("asked_by", sa.Integer(), nullable=True),
        sa.Column("asked_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("closed_by", sa.Integer(), nullable=True),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("final", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["group_id"], ["chat_group.id"], name="fk_season_group_id_chat_group"),
        sa.ForeignKeyConstraint(["asked_by"], ["player.id"], name="fk_season_asked_by_player"),
        sa.ForeignKeyConstraint(["closed_by"], ["player.id"], name="fk_season_closed_by_player"),
        sa.PrimaryKeyConstraint("id", name="pk_season"),
        sa.UniqueConstraint("group_id", "number", name="uq_season_group_id_number"),
    )
    # ADD COLUMN on both backends (no batch copy of the table: its partial indexes stay as they are);
    # SQLite takes the reference in the column's definition, PostgreSQL as a named constraint.
    if op.get_bind().dialect.name == "sqlite":
        op.execute("ALTER TABLE table_session ADD COLUMN season_id INTEGER REFERENCES season (id)")
        return
    op.add_column("table_session", sa.Column("season_id", sa.Integer(), nullable=True))
    op.create_foreign_key(
        "fk_table_session_season_id_season", "table_session", "season", ["season_id"], ["id"]
    )


def downgrade() -> None:
    """Revert this revision."""
    if op.get_bind().dialect.name != "sqlite":
        op.drop_constraint("fk_table_session_season_id_season", "table_session", type_="foreignkey")
    op.drop_column("table_session", "season_id")
    op.drop_table("season")
