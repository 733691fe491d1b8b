"""Hand numbers: adjustments are not hands.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01

A hand's number is the one its preview showed (the dealer state's hand number); an adjustment carries the
number of the hand it follows (0 before the first) and is no longer counted as a hand. The unique index of
live numbers covers hands only, and every live row of the existing sessions is renumbered in its ledger
order (number, then seq): the hands 1, 2, 3 …, each adjustment the number of the hand before it.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

HAND = sa.table(
    "hand",
    sa.column("id", sa.Integer),
    sa.column("session_id", sa.Integer),
    sa.column("seq", sa.Integer),
    sa.column("number", sa.Integer),
    sa.column("kind", sa.String),
    sa.column("voided", sa.Boolean),
)


def _renumber(*, hands_only: bool) -> None:
    """Number the live rows of every session: hands 1, 2, …; an adjustment the hand before it (upgrade), or
    every row 1, 2, … in order (downgrade)."""
    bind = op.get_bind()
    rows = bind.execute(
        sa.select(HAND.c.id, HAND.c.session_id, HAND.c.kind)
        .where(HAND.c.voided == sa.false())
        .order_by(HAND.c.session_id, HAND.c.number, HAND.c.seq)
    ).all()
    counters: dict[int, int] = {}
    for row_id, session_id, kind in rows:
        count = counters.get(session_id, 0)
        if not hands_only or kind != "adjust":
            count += 1
        counters[session_id] = count
        bind.execute(sa.update(HAND).where(HAND.c.id == row_id).values(number=count))


def _index(where: str) -> None:
    op.create_index(
        "uq_hand_live_number",
        "hand",
        ["session_id", "number"],
        unique=True,
        sqlite_where=sa.text(where.replace("false", "0")),
        postgresql_where=sa.text(where),
    )


def upgrade() -> None:
    """Apply this revision."""
    op.drop_index("uq_hand_live_number", table_name="hand")
    _renumber(hands_only=True)
    _index("voided = false AND kind <> 'adjust'")


def downgrade() -> None:
    """Revert this revision: every live row numbered again."""
    op.drop_index("uq_hand_live_number", table_name="hand")
    _renumber(hands_only=False)
    _index("voided = false")
