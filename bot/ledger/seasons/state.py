"""A group's seasons as ledger state: the current one (from the group's first night, or from the last
close), an admin's request to close it (`ask_close`, a row with `closed_at` None until the Confirm), the
close itself (`close`: the final standings and records kept in the row, the season's ended sessions marked
as its own, once), and the hall of fame (`past`). Money owed stays owed: a close changes no transfer.

Plain functions over a SQLModel `Session`, each called inside one transaction of the store
(`Ledger.read` / `Ledger.write_once`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, update
from sqlmodel import Session, col, select

from bot.ledger import errors
from bot.ledger.play import groups
from bot.ledger.seasons.figures import SeasonFigures, figures
from bot.ledger.storage.models import Season, TableSession
from bot.ledger.storage.rows import aware, group_row, row_id
from bot.ledger.values import UserRef

NAME_LIMIT = 32  # characters of a season's name


@dataclass(frozen=True, slots=True)
class Standing:
    """One person's final line of a closed season, as it was at the close."""

    name: str
    twin: int
    net: int
    nights: int


@dataclass(frozen=True, slots=True)
class Title:
    """A record of a closed season and who held it at the close (catalog `season.record.<key>`)."""

    key: str
    name: str
    twin: int
    value: int


@dataclass(frozen=True, slots=True)
class PastSeason:
    """A closed season of the hall of fame."""

    number: int
    name: str | None
    closed_at: datetime
    nights: int
    standings: tuple[Standing, ...]
    titles: tuple[Title, ...]


@dataclass(frozen=True, slots=True)
class Current:
    """The current season: its number, its figures so far, and the closed seasons before it (newest
    first)."""

    number: int
    figures: SeasonFigures
    past: tuple[PastSeason, ...]


@dataclass(frozen=True, slots=True)
class Asked:
    """An admin's request to close the current season, waiting for its Confirm."""

    season_id: int
    number: int
    name: str | None
    nights: int


def _closed(group_id: int) -> Any:
    return select(Season).where(Season.group_id == group_id, col(Season.closed_at).is_not(None))


def current_number(s: Session, group_id: int) -> int:
    """The number of the group's current season: one more than its closed seasons."""
    query = select(func.count()).select_from(Season)
    query = query.where(Season.group_id == group_id, col(Season.closed_at).is_not(None))
    return int(s.execute(query).scalar_one()) + 1


def current(s: Session, chat_id: int, now: datetime) -> Current:
    """The group's current season and its hall of fame."""
    group = group_row(s, chat_id)
    if group is None:
        return Current(1, figures(s, 0, None, now), ())
    gid = row_id(group)
    return Current(current_number(s, gid), figures(s, gid, None, now), tuple(past(s, chat_id)))


@dataclass(frozen=True, slots=True)
class PageData:
    """What the season page reads in one transaction: the group's language and time zone (None: no group
    yet), the current season's number and figures."""

    language: str | None
    timezone: str | None
    number: int
    figures: SeasonFigures


def page_data(s: Session, chat_id: int, now: datetime) -> PageData:
    """The current season of a chat, for its page."""
    group = group_row(s, chat_id)
    if group is None:
        return PageData(None, None, 1, figures(s, 0, None, now))
    gid = row_id(group)
    return PageData(group.language, group.timezone, current_number(s, gid), figures(s, gid, None, now))


def ask_close(s: Session, chat_id: int, by: UserRef | None, name: str | None, now: datetime) -> Asked:
    """Ask to close the current season under `name` (None: by its number): the one waiting request of the
    group, new or renamed. A season with no night cannot be closed (NoSeasonNight)."""
    group = group_row(s, chat_id)
    number = current_number(s, row_id(group)) if group is not None else 1
    nights = len(figures(s, row_id(group), None, now).nights) if group is not None else 0
    if group is None or not nights:
        raise errors.NoSeasonNight("the season has no ended night", number=number)
    name = (name or "").strip()[:NAME_LIMIT] or None  # the handler refuses a longer one
    asker = row_id(groups.ensure_player(s, group, by, now)) if by is not None else None
    row = s.scalars(
        select(Season).where(Season.group_id == group.id, col(Season.closed_at).is_(None))
    ).first()
    if row is None:
        row = Season(group_id=row_id(group), number=number, name=name, asked_by=asker, asked_at=now)
    else:
        row.name, row.asked_by, row.asked_at, row.number = name, asker, now, number
    s.add(row)
    s.flush()
    return Asked(row_id(row), number, name, nights)


def close(s: Session, chat_id: int, season_id: int, by: UserRef | None, now: datetime) -> PastSeason | None:
    """Close the season the request `season_id` names, once: its final standings and records kept, its
    ended sessions marked as its own, the next season begun. None when the request is not this group's
    waiting one (closed already, or another group's)."""
    group = group_row(s, chat_id)
    row = s.get(Season, season_id)
    if group is None or row is None or row.group_id != group.id or row.closed_at is not None:
        return None
    gid = row_id(group)
    untagged = select(TableSession.id).where(
        TableSession.group_id == gid,
        col(TableSession.status) == "ended",
        col(TableSession.season_id).is_(None),
    )
    ids = {sid for (sid,) in s.execute(untagged) if sid is not None}
    seen = figures(s, gid, None, now)
    if not seen.nights:
        raise errors.NoSeasonNight("the season has no ended night", number=row.number)
    ids |= {night.session_id for night in seen.nights}
    row.number = current_number(s, gid)
    row.closed_at = now
    row.closed_by = row_id(groups.ensure_player(s, group, by, now)) if by is not None else None
    row.final = final_json(seen)
    s.add(row)
    s.flush()
    s.execute(update(TableSession).where(col(TableSession.id).in_(ids)).values(season_id=row_id(row)))
    return _past(row)


def final_json(seen: SeasonFigures) -> dict[str, Any]:
    """What a closed season keeps: its nights, first and last, the standings and the records, names as
    they were."""
    people = seen.people
    return {
        "nights": len(seen.nights),
        "from": seen.nights[0].ended_at.isoformat() if seen.nights else None,
        "to": seen.nights[-1].ended_at.isoformat() if seen.nights else None,
        "standings": [
            {
                "id": ln.person.id,
                "name": ln.person.name,
                "twin": ln.person.twin,
                "net": ln.net,
                "nights": ln.nights,
            }
            for ln in seen.lines
        ],
        "records": [
            {
                "key": r.key,
                "id": r.person,
                "name": people[r.person].name,
                "twin": people[r.person].twin,
                "value": r.value,
                "night": r.night,
                "hand": r.hand,
            }
            for r in seen.records
            if r.person in people
        ],
    }


def past(s: Session, chat_id: int) -> list[PastSeason]:
    """The group's closed seasons, newest first (the hall of fame)."""
    group = group_row(s, chat_id)
    if group is None:
        return []
    rows = s.scalars(_closed(row_id(group)).order_by(col(Season.number).desc()))
    return [_past(row) for row in rows]


def _past(row: Season) -> PastSeason:
    final = row.final or {}
    assert row.closed_at is not None
    return PastSeason(
        number=row.number,
        name=row.name,
        closed_at=aware(row.closed_at),
        nights=int(final.get("nights", 0)),
        standings=tuple(
            Standing(str(x["name"]), int(x.get("twin", 0)), int(x["net"]), int(x["nights"]))
            for x in final.get("standings", ())
        ),
        titles=tuple(
            Title(str(x["key"]), str(x["name"]), int(x.get("twin", 0)), int(x["value"]))
            for x in final.get("records", ())
        ),
    )
