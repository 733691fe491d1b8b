"""Bot state in the ledger: the pinned card and weekly post as columns, per-player aggregates, BIGINT money.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01

- table_session: `card_message_id` and `pin_refused` (the pinned card of the session; they were chat_data).
- chat_group: the weekly post's `weekly_day`, `weekly_time`, `weekly_last_post_at` (the due time is data:
  the weekly sweep claims a post with a compare-and-set on `weekly_last_post_at`) and the group `timezone`.
- session_total, group_total: `biggest_win`, `biggest_hua`, `longest_streak` (and `sessions` on
  group_total), kept like the running totals so `/stats` never scans hands; backfilled from the hands.
- applied_key: the idempotency keys of writes that make no hand (/end, /newgame, /join, /dealer, /rules,
  /lang, /schedule): a redelivered command finds its key and changes nothing.
- Money (`net`, `payment.amount`, `biggest_win`) as BIGINT on PostgreSQL (SQLite's INTEGER is 64-bit).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

LIVE_WIN = "h.voided = false AND h.kind = 'win' AND p.amount > 0"


def upgrade() -> None:
    """Apply this revision. Plain ADD COLUMN (SQLite has it): a batch copy of the tables would drop tables
    that others reference, which SQLite refuses with its foreign keys on."""
    op.add_column("table_session", sa.Column("card_message_id", sa.BigInteger(), nullable=True))
    op.add_column(
        "table_session", sa.Column("pin_refused", sa.Boolean(), nullable=False, server_default=sa.false())
    )
    op.add_column(
        "chat_group", sa.Column("weekly_day", sa.String(length=3), nullable=False, server_default="sun")
    )
    op.add_column(
        "chat_group", sa.Column("weekly_time", sa.String(length=5), nullable=False, server_default="20:00")
    )
    op.add_column("chat_group", sa.Column("weekly_last_post_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column(
        "chat_group",
        sa.Column("timezone", sa.String(length=64), nullable=False, server_default="Asia/Shanghai"),
    )
    for table in ("session_total", "group_total"):
        op.add_column(table, sa.Column("biggest_win", sa.BigInteger(), nullable=False, server_default="0"))
        op.add_column(table, sa.Column("biggest_hua", sa.Integer(), nullable=False, server_default="0"))
        op.add_column(table, sa.Column("longest_streak", sa.Integer(), nullable=False, server_default="0"))
    op.add_column("group_total", sa.Column("sessions", sa.Integer(), nullable=False, server_default="0"))
    if op.get_bind().dialect.name == "postgresql":
        for table in ("session_total", "group_total"):
            op.alter_column(table, "net", type_=sa.BigInteger(), existing_type=sa.Integer())
        op.alter_column("payment", "amount", type_=sa.BigInteger(), existing_type=sa.Integer())
    op.create_table(
        "applied_key",
        sa.Column("key", sa.String(length=128), nullable=False),
        sa.Column("applied_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("key", name="pk_applied_key"),
    )
    _backfill()


def _backfill() -> None:
    """The new aggregates of a database that already has hands, from the live hands."""
    op.execute(
        f"""UPDATE session_total SET
        biggest_win = COALESCE((SELECT MAX(p.amount) FROM payment p JOIN hand h ON h.id = p.hand_id
            WHERE h.session_id = session_total.session_id AND p.player_id = session_total.player_id
            AND {LIVE_WIN}), 0),
        biggest_hua = COALESCE((SELECT MAX(p.hua) FROM payment p JOIN hand h ON h.id = p.hand_id
            WHERE h.session_id = session_total.session_id AND p.player_id = session_total.player_id
            AND {LIVE_WIN}), 0),
        longest_streak = COALESCE((SELECT MAX(h.streak_after) FROM hand h
            WHERE h.session_id = session_total.session_id
            AND h.dealer_after_player_id = session_total.player_id AND h.voided = false), 0)"""
    )
    op.execute(
        """UPDATE group_total SET
        biggest_win = COALESCE((SELECT MAX(t.biggest_win) FROM session_total t
            JOIN table_session s ON s.id = t.session_id
            WHERE s.group_id = group_total.group_id AND t.player_id = group_total.player_id), 0),
        biggest_hua = COALESCE((SELECT MAX(t.biggest_hua) FROM session_total t
            JOIN table_session s ON s.id = t.session_id
            WHERE s.group_id = group_total.group_id AND t.player_id = group_total.player_id), 0),
        longest_streak = COALESCE((SELECT MAX(t.longest_streak) FROM session_total t
            JOIN table_session s ON s.id = t.session_id
            WHERE s.group_id = group_total.group_id AND t.player_id = group_total.player_id), 0),
        sessions = (SELECT COUNT(*) FROM session_total t JOIN table_session s ON s.id = t.session_id
            WHERE s.group_id = group_total.group_id AND t.player_id = group_total.player_id
            AND t.hands > 0)"""
    )


def downgrade() -> None:
    """Revert this revision."""
    op.drop_table("applied_key")
    for table in ("session_total", "group_total"):
        with op.batch_alter_table(table) as batch:
            for column in ("biggest_win", "biggest_hua", "longest_streak"):
                batch.drop_column(column)
            if table == "group_total":
                batch.drop_column("sessions")
    with op.batch_alter_table("chat_group") as batch:
        for column in ("weekly_day", "weekly_time", "weekly_last_post_at", "timezone"):
            batch.drop_column(column)
    with op.batch_alter_table("table_session") as batch:
        batch.drop_column("card_message_id")
        batch.drop_column("pin_refused")
