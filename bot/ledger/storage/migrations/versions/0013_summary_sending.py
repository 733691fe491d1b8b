"""The summary part in flight: a poster marks the part it is about to send, so that the next poster
knows a part whose send never answered (the process stopped in between) may be in the chat already.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-08

- summary_post.sending: the part (1 the card, 2 the chart, 3 the CSV) whose send began, 0 for none; a
  part out is also in `sent`.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this revision."""
    op.add_column("summary_post", sa.Column("sending", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    """Revert this revision."""
    with op.batch_alter_table("summary_post") as batch:
        batch.drop_column("sending")
