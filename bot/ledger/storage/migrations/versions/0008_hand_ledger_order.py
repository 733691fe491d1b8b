"""The ledger order as an index: a session's rows by hand number.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-02

Every read of a session's newest rows (the next hand's dealer state on commit, /ledger's last page, /undo)
orders them by number, adjustments after their hand, then seq. Without an index on (session_id, number)
that is a sort of the whole session: a commit at a table with 10,000 hands took 37 ms instead of 9 ms.
The partial unique index of live hand numbers leaves adjustments out, so it cannot serve that order.
"""

from __future__ import annotations

from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this revision."""
    op.create_index("ix_hand_session_number", "hand", ["session_id", "number"])


def downgrade() -> None:
    """Revert this revision."""
    op.drop_index("ix_hand_session_number", table_name="hand")
