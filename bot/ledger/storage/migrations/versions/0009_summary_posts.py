"""Summary posts: the end-of-session summary as ledger state.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-02

- summary_post: one row per session ended from now on, written in the transaction that ends it: the forum
  topic of the /end, how many parts are out (card, chart, CSV), the claim count, when it is due next (a
  poster's lease, or a retry after a failed send; NULL once posted or given up) and when it was posted.
  Sessions ended before this revision have no row: their summaries went out as they ended.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this revision."""
    op.create_table(
        "summary_post",
        sa.Column("session_id", sa.Integer(), nullable=False),
        sa.Column("thread_id", sa.BigInteger(), nullable=True),
        sa.Column("sent", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("attempts", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("due_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("posted_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["session_id"], ["table_session.id"], name="fk_summary_post_session_id_table_session"
        ),
        sa.PrimaryKeyConstraint("session_id", name="pk_summary_post"),
    )
    op.create_index("ix_summary_post_due_at", "summary_post", ["due_at"])


def downgrade() -> None:
    """Revert this revision."""
    op.drop_index("ix_summary_post_due_at", table_name="summary_post")
    op.drop_table("summary_post")
