"""Settling up: transfers as ledger rows with a state, their payments, each person's settle figures.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01

- settle_transfer: the transfers an ended session leaves (payer, payee, amount, paid, claimed, status open
  | partly | settled | carried, carried_to, reminded_at), never deleted.
- settle_payment: each claimed / confirmed / voided payment on a transfer.
- settle_line: per session and person: net, carried in, 台费, balance before and after 抹零.
- chat_group.settle: the group's settling-up options (JSON); table_session.summary_message_id: the
  summary message, edited in place as its transfers are paid; player.paycode_file_id: the Telegram file id
  of the player's payment QR photo (/paycode), shown only to those who owe them.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def _money(name: str) -> sa.Column[int]:
    return sa.Column(name, sa.BigInteger(), nullable=False, server_default="0")


def upgrade() -> None:
    """Apply this revision."""
    op.add_column("chat_group", sa.Column("settle", sa.JSON(), nullable=False, server_default="{}"))
    op.add_column("table_session", sa.Column("summary_message_id", sa.BigInteger(), nullable=True))
    op.add_column("player", sa.Column("paycode_file_id", sa.String(length=256), nullable=True))
    op.create_table(
        "settle_transfer",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("session_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("payer_id", sa.Integer(), nullable=False),
        sa.Column("payee_id", sa.Integer(), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        _money("paid"),
        _money("claimed"),
        sa.Column("status", sa.String(length=8), nullable=False),
        sa.Column("carried_to", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("reminded_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["group_id"], ["chat_group.id"], name="fk_settle_transfer_group_id_chat_group"
        ),
        sa.ForeignKeyConstraint(
            ["session_id"], ["table_session.id"], name="fk_settle_transfer_session_id_table_session"
        ),
        sa.ForeignKeyConstraint(["payer_id"], ["player.id"], name="fk_settle_transfer_payer_id_player"),
        sa.ForeignKeyConstraint(["payee_id"], ["player.id"], name="fk_settle_transfer_payee_id_player"),
        sa.ForeignKeyConstraint(
            ["carried_to"], ["table_session.id"], name="fk_settle_transfer_carried_to_table_session"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_settle_transfer"),
        sa.UniqueConstraint("session_id", "number", name="uq_settle_transfer_session_id_number"),
    )
    op.create_index("ix_settle_transfer_group_id_status", "settle_transfer", ["group_id", "status"])
    op.create_table(
        "settle_payment",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("transfer_id", sa.Integer(), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("claimed_by", sa.Integer(), nullable=True),
        sa.Column("confirmed_by", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("confirmed_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["transfer_id"], ["settle_transfer.id"], name="fk_settle_payment_transfer_id_settle_transfer"
        ),
        sa.ForeignKeyConstraint(["claimed_by"], ["player.id"], name="fk_settle_payment_claimed_by_player"),
        sa.ForeignKeyConstraint(
            ["confirmed_by"], ["player.id"], name="fk_settle_payment_confirmed_by_player"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_settle_payment"),
    )
    op.create_index("ix_settle_payment_transfer_id", "settle_payment", ["transfer_id"])
    op.create_table(
        "settle_line",
        sa.Column("session_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        _money("net"),
        _money("carried"),
        _money("fee"),
        _money("raw"),
        _money("rounded"),
        sa.ForeignKeyConstraint(
            ["session_id"], ["table_session.id"], name="fk_settle_line_session_id_table_session"
        ),
        sa.ForeignKeyConstraint(["player_id"], ["player.id"], name="fk_settle_line_player_id_player"),
        sa.PrimaryKeyConstraint("session_id", "player_id", name="pk_settle_line"),
    )


def downgrade() -> None:
    """Revert this revision."""
    op.drop_table("settle_line")
    op.drop_index("ix_settle_payment_transfer_id", table_name="settle_payment")
    op.drop_table("settle_payment")
    op.drop_index("ix_settle_transfer_group_id_status", table_name="settle_transfer")
    op.drop_table("settle_transfer")
    with op.batch_alter_table("player") as batch:
        batch.drop_column("paycode_file_id")
    with op.batch_alter_table("table_session") as batch:
        batch.drop_column("summary_message_id")
    with op.batch_alter_table("chat_group") as batch:
        batch.drop_column("settle")
