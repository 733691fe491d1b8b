"""The seat vocabulary: the four seats in turn order and every word that names one.

>>> parse_seat("東家"), parse_seat(" south "), parse_seat("x")
('E', 'S', None)
>>> next_seat("N"), seats_after("S")
('E', ('W', 'N', 'E'))
"""

from __future__ import annotations

from collections.abc import Mapping

SEATS: tuple[str, str, str, str] = ("E", "S", "W", "N")
"""The seats of a table in turn order (东南西北)."""

_WORDS: dict[str, tuple[str, ...]] = {
    "E": ("E", "east", "东", "東", "东家", "東家", "东风", "東風"),
    "S": ("S", "south", "南", "南家", "南风", "南風"),
    "W": ("W", "west", "西", "西家", "西风", "西風"),
    "N": ("N", "north", "北", "北家", "北风", "北風"),
}

SEAT_WORDS: Mapping[str, str] = {word.casefold(): seat for seat, words in _WORDS.items() for word in words}
"""Every seat word, casefolded, to its seat: E/e/east/东/東/东家/東家/东风/東風 and the like for S W N."""

_EXACT: dict[str, str] = {**SEAT_WORDS, **{seat: seat for seat in SEATS}}  # also the upper-case letters

SEATS_AFTER: Mapping[str, tuple[str, str, str]] = {
    seat: (SEATS[(i + 1) % 4], SEATS[(i + 2) % 4], SEATS[(i + 3) % 4]) for i, seat in enumerate(SEATS)
}
"""The other three seats of each seat in turn order, from the next one."""


def parse_seat(word: str) -> str | None:
    """The seat a word names (any case, surrounding spaces ignored), else None."""
    seat = _EXACT.get(word)
    if seat is None and isinstance(word, str):
        seat = SEAT_WORDS.get(word.strip().casefold())
    return seat


def next_seat(seat: str) -> str:
    """The seat after `seat` in turn order E → S → W → N → E."""
    return SEATS_AFTER[seat][0]


def seats_after(seat: str) -> tuple[str, str, str]:
    """The other three seats in turn order, starting from the seat after `seat`."""
    return SEATS_AFTER[seat]
