"""The seat vocabulary: the four seats in turn order and every word that names one.

>>> parse_seat("東家"), parse_seat(" south "), parse_seat("x")
('E', 'S', None)
>>> next_seat("N"), seats_after("S")
('E', ('W', 'N', 'E'))
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final, Literal, TypeGuard

Seat = Literal["E", "S", "W", "N"]
"""A seat letter: E S W N (东南西北). Untrusted text becomes one through `parse_seat` or `as_seat`."""

SEATS: Final[tuple[Seat, Seat, Seat, Seat]] = ("E", "S", "W", "N")
"""The seats of a table in turn order (东南西北)."""

_WORDS: dict[Seat, tuple[str, ...]] = {
    "E": ("E", "east", "东", "東", "东家", "東家", "东风", "東風"),
    "S": ("S", "south", "南", "南家", "南风", "南風"),
    "W": ("W", "west", "西", "西家", "西风", "西風"),
    "N": ("N", "north", "北", "北家", "北风", "北風"),
}

SEAT_WORDS: Mapping[str, Seat] = {word.casefold(): seat for seat, words in _WORDS.items() for word in words}
"""Every seat word, casefolded, to its seat: E/e/east/东/東/东家/東家/东风/東風 and the like for S W N."""

_EXACT: dict[str, Seat] = {**SEAT_WORDS, **{seat: seat for seat in SEATS}}  # also the upper-case letters

SEATS_AFTER: Mapping[Seat, tuple[Seat, Seat, Seat]] = {
    seat: (SEATS[(i + 1) % 4], SEATS[(i + 2) % 4], SEATS[(i + 3) % 4]) for i, seat in enumerate(SEATS)
}
"""The other three seats of each seat in turn order, from the next one."""


def parse_seat(word: str) -> Seat | None:
    """The seat a word names (any case, surrounding spaces ignored), else None."""
    seat = _EXACT.get(word)
    if seat is None and isinstance(word, str):
        seat = SEAT_WORDS.get(word.strip().casefold())
    return seat


def next_seat(seat: Seat) -> Seat:
    """The seat after `seat` in turn order E → S → W → N → E."""
    return SEATS_AFTER[seat][0]


def seats_after(seat: Seat) -> tuple[Seat, Seat, Seat]:
    """The other three seats in turn order, starting from the seat after `seat`."""
    return SEATS_AFTER[seat]


def is_seat(value: object) -> TypeGuard[Seat]:
    """Whether `value` is a seat letter exactly (E S W N), as stored and as sent in a button."""
    return value in _LETTERS


def as_seat(value: str) -> Seat:
    """A stored seat letter as a `Seat`; ValueError for anything else (the ledger wrote only these).

    >>> as_seat("N"), is_seat("东"), is_seat(None)
    ('N', False, False)
    >>> as_seat("east")
    Traceback (most recent call last):
    ValueError: not a seat letter: 'east'
    """
    if not is_seat(value):
        raise ValueError(f"not a seat letter: {value!r}")
    return value


_LETTERS: Final[frozenset[str]] = frozenset(SEATS)
