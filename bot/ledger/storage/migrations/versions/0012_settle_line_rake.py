"""抽水 apart from 台费 in a session's settling: each person's 抽水 in its own column, so the summary shows
the two figures (a person can check the 抽水 of their wins).

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-07

- settle_line.rake: the 抽水 the person paid (the 台's line: minus what it took); 0 for lines from before,
  whose `fee` holds 台费 and 抽水 together.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this revision."""
    op.add_column("settle_line", sa.Column("rake", sa.BigInteger(), nullable=False, server_default="0"))


def downgrade() -> None:
    """Revert this revision."""
    with op.batch_alter_table("settle_line") as batch:
        batch.drop_column("rake")
