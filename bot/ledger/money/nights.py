"""Money over the nights: what each ended session settled each person, the figure the all-time books show.

A session that ended with settling stored (`settle_line`) settled each person its balance after 收盘倍数,
台费, 抽水 and 抹零, less what was carried into it from earlier sessions (that was counted in the session it
came from): `rounded − carried`. A session that ended before settling was stored settled its net. Summed
over the group's ended sessions this is each person's money (the 台 included: what the table took); an open
session is not in it (its money is known when it ends). Stakes and rule sets add up as money does."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from sqlalchemy import func
from sqlmodel import Session, col, select

from bot.ledger.storage.models import SessionTotal, SettleLine, TableSession


def settled(s: Session, session_ids: Iterable[int]) -> dict[int, dict[int, int]]:
    """Each listed ended session's money per person, by session id (one read); sessions that stored no
    settling are left out (their net is their money)."""
    ids = list(session_ids)
    out: dict[int, dict[int, int]] = defaultdict(dict)
    if not ids:
        return {}
    query = select(SettleLine.session_id, SettleLine.player_id, SettleLine.rounded, SettleLine.carried)
    for session_id, player_id, rounded, carried in s.execute(
        query.where(col(SettleLine.session_id).in_(ids))
    ):
        out[session_id][player_id] = rounded - carried
    return dict(out)


def by_session(s: Session, session_ids: Iterable[int]) -> dict[int, dict[int, int]]:
    """Each listed ended session's money per person, by session id (two reads): what its settling stored
    (`settled`), else its net. `group_money` is the sum of these over the group's ended sessions."""
    ids = list(session_ids)
    out = settled(s, ids)
    rest = [sid for sid in ids if sid not in out]
    if rest:
        query = select(SessionTotal.session_id, SessionTotal.player_id, SessionTotal.net)
        for session_id, player_id, net in s.execute(query.where(col(SessionTotal.session_id).in_(rest))):
            if net:
                out.setdefault(session_id, {})[player_id] = net
    return out


def group_money(s: Session, group_id: int) -> dict[int, int]:
    """Each person's money over the group's ended sessions (two grouped reads)."""
    out: dict[int, int] = defaultdict(int)
    lines = (
        select(SettleLine.player_id, func.sum(SettleLine.rounded - SettleLine.carried))
        .join(TableSession, col(TableSession.id) == SettleLine.session_id)
        .where(TableSession.group_id == group_id)
        .group_by(col(SettleLine.player_id))
    )
    for player_id, amount in s.execute(lines):
        out[player_id] += int(amount or 0)
    stored = select(SettleLine.session_id).where(SettleLine.session_id == TableSession.id).exists()
    unsettled = (
        select(SessionTotal.player_id, func.sum(SessionTotal.net))
        .join(TableSession, col(TableSession.id) == SessionTotal.session_id)
        .where(TableSession.group_id == group_id, TableSession.status == "ended", ~stored)
        .group_by(col(SessionTotal.player_id))
    )
    for player_id, amount in s.execute(unsettled):
        out[player_id] += int(amount or 0)
    return {pid: amount for pid, amount in out.items()}
