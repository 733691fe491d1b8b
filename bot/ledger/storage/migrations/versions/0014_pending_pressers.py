"""Who may press an entry's Confirm, decided when it is made: the Telegram ids of the players seated then
and whether the group had someone other than the recorder confirm (`confirm_by other`), so that a press
checks the presser against data and no callback decides inside the write.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-08

- pending_entry.pressers: JSON list of Telegram ids (an entry stored before this revision has none: its
  presses are checked as an admin's, with Telegram).
- pending_entry.by_other: the entry's recorder may not confirm it.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this revision."""
    with op.batch_alter_table("pending_entry") as batch:
        batch.add_column(sa.Column("pressers", sa.JSON(), nullable=False, server_default="[]"))
        batch.add_column(sa.Column("by_other", sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    """Revert this revision."""
    with op.batch_alter_table("pending_entry") as batch:
        batch.drop_column("by_other")
        batch.drop_column("pressers")
