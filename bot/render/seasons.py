"""A group's seasons in words: the current season's standings (the card's caption), the hall of fame of
closed seasons, a season's close (final standings and titles), the question before it."""

from __future__ import annotations

from collections.abc import Iterable

from bot.i18n import t
from bot.ledger.seasons.figures import Person, SeasonFigures
from bot.ledger.seasons.state import PastSeason, Title
from bot.render.words import signed

SHOWN_PAST = 10  # closed seasons listed under /season
RECORD_KEYS = ("top", "biggest_hand", "longest_streak", "safest", "most_fed", "profit_run", "attendance")


def named(lang: str | None, name: str, twin: int) -> str:
    """A person's name where money is shown: "Fay（1）" when others of the group share it."""
    return t(lang, "summary.legend_twin", name=name, n=twin) if twin else name


def person(lang: str | None, who: Person) -> str:
    """A person of a season's figures by name."""
    return named(lang, who.name, who.twin)


def season_name(lang: str | None, number: int, name: str | None) -> str:
    """ "第2赛季「春」", or "第2赛季" without a name."""
    return t(lang, "season.named" if name else "season.number", n=number, name=name or "")


def current_text(lang: str | None, number: int, seen: SeasonFigures) -> str:
    """The current season's standings: money, nights, money per night (the card's caption)."""
    if not seen.nights:
        return t(lang, "season.empty", season=season_name(lang, number, None))
    lines = [t(lang, "season.header", season=season_name(lang, number, None), nights=len(seen.nights))]
    for place, line in enumerate(seen.lines, start=1):
        lines.append(
            t(
                lang,
                "season.line",
                place=place,
                name=person(lang, line.person),
                net=signed(line.net),
                nights=line.nights,
            )
        )
    return "\n".join(lines)


def title_line(lang: str | None, title: Title) -> str:
    """One title of a closed season: "💰 赌神：Cat +150"."""
    value = signed(title.value) if title.key in ("top", "biggest_hand") else str(title.value)
    if title.key == "safest":
        value = f"{title.value / 10:.1f}%"
    return t(lang, f"season.record.{title.key}", name=named(lang, title.name, title.twin), value=value)


def closed_text(lang: str | None, season: PastSeason) -> str:
    """A season's close: its final standings and titles; money still owed stays owed."""
    head = t(
        lang, "season.closed", season=season_name(lang, season.number, season.name), nights=season.nights
    )
    lines = [head]
    for place, line in enumerate(season.standings, start=1):
        lines.append(
            t(
                lang,
                "season.line",
                place=place,
                name=named(lang, line.name, line.twin),
                net=signed(line.net),
                nights=line.nights,
            )
        )
    if season.titles:
        lines.append(t(lang, "season.titles"))
        lines += [title_line(lang, title) for title in _ordered(season.titles)]
    lines.append(t(lang, "season.owed_stays", n=season.number + 1))
    return "\n".join(lines)


def _ordered(titles: Iterable[Title]) -> list[Title]:
    return sorted(titles, key=lambda x: RECORD_KEYS.index(x.key) if x.key in RECORD_KEYS else 99)


def hall_of_fame(lang: str | None, past: Iterable[PastSeason]) -> str:
    """The closed seasons, newest first: name, nights, the winner."""
    seasons = list(past)[:SHOWN_PAST]
    if not seasons:
        return ""
    lines = [t(lang, "season.past")]
    for season in seasons:
        top = season.standings[0] if season.standings else None
        lines.append(
            t(
                lang,
                "season.past_line",
                season=season_name(lang, season.number, season.name),
                nights=season.nights,
                name=named(lang, top.name, top.twin) if top else "—",
                net=signed(top.net) if top else "0",
            )
        )
    return "\n".join(lines)
