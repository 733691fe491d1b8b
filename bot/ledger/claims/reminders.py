"""Reminders of what is still owed: which groups are due one, each due reminder claimed by exactly one
worker (the transfers' `reminded_at`, locked), and a claim given back when its message could not be sent."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from sqlmodel import Session, col, select

from bot.ledger.money.settling import OPEN, open_rows, options_of, transfer_of
from bot.ledger.storage.mappers import group_info
from bot.ledger.storage.models import ChatGroup, SettleTransfer
from bot.ledger.storage.rows import aware, group_row, row_id
from bot.ledger.values import GroupInfo, Transfer

REMIND_EVERY = timedelta(days=1)  # a group is reminded at most once a day


def reminder_groups(s: Session) -> list[GroupInfo]:
    """The groups that have open transfers and reminders on (option `remind`, hours)."""
    query = select(SettleTransfer.group_id).where(col(SettleTransfer.status).in_(OPEN)).distinct()
    found = [s.get(ChatGroup, group_id) for group_id in sorted(s.scalars(query))]
    return [group_info(g) for g in found if g is not None and options_of(g)["remind"]]


def claim_reminder(s: Session, chat_id: int, now: datetime) -> list[Transfer]:
    """The group's open transfers due a reminder now, claimed (reminded_at set, the rows locked: exactly one
    worker gets them): open for the group's `remind` hours, not reminded in the last day, and the group not
    reminded of anything in the last day. Empty when nothing is due."""
    group = group_row(s, chat_id)
    hours = options_of(group)["remind"] if group is not None else 0
    if group is None or not hours:
        return []
    rows = open_rows(s, select(SettleTransfer).where(SettleTransfer.group_id == group.id))
    last = max((aware(r.reminded_at) for r in rows if r.reminded_at is not None), default=None)
    if last is not None and now - last < REMIND_EVERY:
        return []
    due = [r for r in rows if now - aware(r.created_at) >= timedelta(hours=hours)]
    for row in due:
        row.reminded_at = now
    s.flush()
    return [transfer_of(s, row) for row in due]


def release_reminder(s: Session, chat_id: int, transfer_ids: Iterable[int], claimed_at: datetime) -> int:
    """A reminder claimed at `claimed_at` could not be sent: its transfers are due again (their
    `reminded_at` cleared, only where it is still this claim's). How many."""
    group = group_row(s, chat_id)
    if group is None:
        return 0
    ids = set(transfer_ids)
    rows = open_rows(s, select(SettleTransfer).where(SettleTransfer.group_id == group.id))
    released = 0
    for row in rows:
        if row_id(row) in ids and row.reminded_at is not None and aware(row.reminded_at) == claimed_at:
            row.reminded_at, released = None, released + 1
    s.flush()
    return released
