"""A skill rating from each night's placements (openskill's Plackett-Luce model): the people of a night
placed by that night's money, ties sharing a place; shown as the rating's ordinal (μ − 3σ), and only for
someone with at least `SHOWN_AFTER` nights, always second to the money."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from openskill.models import PlackettLuceRating

SHOWN_AFTER = 5  # nights a person plays before their rating is shown


def skills(nights: Iterable[tuple[Mapping[int, int], Iterable[int]]]) -> dict[int, float]:
    """Each person's rating after the nights, in order: (each person's money that night, who played it).
    Only people with SHOWN_AFTER nights or more are in the answer, rounded to one decimal."""
    from openskill.models import PlackettLuce  # imported when a season is read: it is not needed before

    model = PlackettLuce()
    ratings: dict[int, PlackettLuceRating] = {}
    played: dict[int, int] = {}
    for money, people in nights:
        seated = sorted(set(people))
        if len(seated) < 2:
            continue
        order = sorted({money.get(pid, 0) for pid in seated}, reverse=True)
        teams = [[ratings.get(pid) or model.rating()] for pid in seated]
        ranks: list[float] = [order.index(money.get(pid, 0)) + 1.0 for pid in seated]
        for pid, (rated,) in zip(seated, model.rate(teams, ranks=ranks), strict=True):
            ratings[pid] = rated
            played[pid] = played.get(pid, 0) + 1
    return {
        pid: round(float(rating.ordinal()), 1)
        for pid, rating in ratings.items()
        if played[pid] >= SHOWN_AFTER
    }
