"""Result messages and guests' seaters: the bot's one-line result message of each ledger row, so that an
/undo or /edit marks it void where it was said; who seated a guest, who may then say the guest paid.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-03

- hand.result_message_id: the message id of the row's result line (NULL for rows from before, or whose
  result could not be sent).
- seat.seated_by: for a guest's seat, the player who seated them (NULL for members and for seats from
  before).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this revision."""
    op.add_column("hand", sa.Column("result_message_id", sa.BigInteger(), nullable=True))
    op.add_column("seat", sa.Column("seated_by", sa.Integer(), nullable=True))


def downgrade() -> None:
    """Revert this revision."""
    with op.batch_alter_table("seat") as batch:
        batch.drop_column("seated_by")
    with op.batch_alter_table("hand") as batch:
        batch.drop_column("result_message_id")
