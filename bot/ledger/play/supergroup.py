"""A group chat that Telegram turned into a supergroup: its ledger follows it to the new chat id, once.

Every row of a group hangs off its `chat_group` row (players, sessions and so hands, seats, entries,
transfers, due summaries; the settings, the weekly and reminder state are its columns), so the move is one
change of `chat_group.chat_id`. What names a message of the old chat (the pinned card, the /hu flow, the
summaries, the previews, a due summary's forum topic) is forgotten: the new chat has other message ids,
and the bot posts a new card there.

The move is keyed `migrate:<old chat id>` in `applied_key`, written with it: the two service messages
(`migrate_to_chat_id` in the old chat, `migrate_from_chat_id` in the new one), in any order and delivered
again, and a send refused with the new id, move it once; an old-chat update arriving late cannot pull a
new empty group row over the moved one."""

from __future__ import annotations

import logging
from datetime import datetime

from sqlalchemy import delete, func, update
from sqlmodel import Session, col, select

from bot.ledger.claims import summaries
from bot.ledger.storage.models import AppliedKey, ChatGroup, GroupTotal, PendingEntry, Player, TableSession
from bot.ledger.storage.rows import group_row, row_id

log = logging.getLogger(__name__)


def migrate(s: Session, old_chat_id: int, new_chat_id: int, now: datetime) -> bool:
    """Move the group of `old_chat_id` to `new_chat_id`: True when this call moved it; False when it was
    moved before, the old chat has no group, or the new chat already has sessions of its own (never
    merged: logged). A group row the new chat got meanwhile without a session (someone spoke there first)
    gives way, with its players."""
    key = f"migrate:{old_chat_id}"
    old = s.scalars(select(ChatGroup).where(ChatGroup.chat_id == old_chat_id).with_for_update()).first()
    if old is None or old_chat_id == new_chat_id or s.get(AppliedKey, key) is not None:
        return False
    new = group_row(s, new_chat_id)
    if new is not None:
        played = s.scalar(
            select(func.count()).select_from(TableSession).where(TableSession.group_id == row_id(new))
        )
        if played:
            log.warning(
                "chat %s moved to %s, which has %s sessions of its own: its ledger stays under %s",
                old_chat_id,
                new_chat_id,
                played,
                old_chat_id,
            )
            return False
        s.execute(delete(GroupTotal).where(col(GroupTotal.group_id) == row_id(new)))
        s.execute(delete(Player).where(col(Player.group_id) == row_id(new)))
        s.delete(new)
        s.flush()
    old.chat_id = new_chat_id
    s.add(old)
    sessions = list(s.scalars(select(TableSession.id).where(TableSession.group_id == row_id(old))))
    s.execute(
        update(TableSession)
        .where(col(TableSession.group_id) == row_id(old))
        .values(card_message_id=None, flow_message_id=None, summary_message_id=None, pin_refused=False)
    )
    if sessions:
        s.execute(
            update(PendingEntry).where(col(PendingEntry.session_id).in_(sessions)).values(message_id=None)
        )
    summaries.forget_messages(s, sessions)
    s.add(AppliedKey(key=key, applied_at=now))
    s.flush()
    log.info("chat %s became %s: its ledger moved with it", old_chat_id, new_chat_id)
    return True
