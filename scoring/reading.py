"""The validated request (`ScoreRequest`, one `WinEntry` per win) and the readers of its fields: each problem
is a ScoringError naming the field (docs/rules.md §4)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from scoring.errors import ScoringError
from scoring.hand import Hand
from scoring.patterns import Flags, WinType, find_pattern
from scoring.rules import OptionValue, RuleSet
from scoring.score import Declared, Table
from scoring.seats import Seat, parse_seat
from scoring.tiles import parse_tiles

Event = Literal["win", "draw", "escape"]


@dataclass(slots=True)
class WinEntry:
    """One claimed win of a request, validated (read-only by convention; built once per request)."""

    winner: Seat
    type: WinType
    hand: Hand | None
    declared: Declared | None
    flags: Flags
    wild: int | None
    field: str


@dataclass(slots=True)
class ScoreRequest:
    """A validated request: the table, the hand's event and its wins (read-only by convention).

    The table state is kept as its fields (`scoring.dealer.StateFields`); `table` is the rule set with
    the options applied.
    """

    rule: RuleSet
    options: Mapping[str, OptionValue]
    stake: int
    dealer: Seat
    streak: int
    diling: bool
    round_wind: Seat
    hand_number: int
    first_dealer: Seat
    baozi: bool
    event: Event
    discarder: Seat | None
    escaper: Seat | None
    wins: tuple[WinEntry, ...]
    table: Table

    def with_wins(self, event: Event, discarder: Seat | None, wins: tuple[WinEntry, ...]) -> ScoreRequest:
        """The same table with other wins."""
        return ScoreRequest(
            self.rule,
            self.options,
            self.stake,
            self.dealer,
            self.streak,
            self.diling,
            self.round_wind,
            self.hand_number,
            self.first_dealer,
            self.baozi,
            event,
            discarder,
            None,
            wins,
            self.table,
        )


# ---------------------------------------------------------------- field readers


def check_keys(obj: Mapping[str, Any], allowed: frozenset[str], field: str) -> None:
    """ScoringError naming the first key of `obj` not `allowed`."""
    if allowed.issuperset(obj):
        return
    extra = sorted(str(key) for key in obj if key not in allowed)
    if extra:
        where = f"{field}: " if field else ""
        raise ScoringError(f"{where}unknown key '{extra[0]}' (known: {', '.join(sorted(allowed))})")


def read_seat(value: Any, field: str) -> Seat:
    """The seat letter a value names (E, 东, "s" …); ScoringError otherwise."""
    seat = parse_seat(value) if isinstance(value, str) else None
    if seat is not None:
        return seat
    raise ScoringError(f"{field}: bad seat {value!r} (use E, S, W or N)")


def read_bool(obj: Mapping[str, Any], key: str, field: str) -> bool:
    value = obj.get(key, False)
    if value is None or value is False:
        return False
    if value is not True:
        raise ScoringError(f"{field}{key}: expected true or false, got {value!r}")
    return value


def read_int(
    obj: Mapping[str, Any], key: str, field: str, default: int, minimum: int, maximum: int | None = None
) -> int:
    value = obj.get(key, default)
    if type(value) is int and value >= minimum and (maximum is None or value <= maximum):
        return value
    if value is None:
        value = default
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScoringError(f"{field}{key}: expected a whole number, got {value!r}")
    if value < minimum or (maximum is not None and value > maximum):
        bound = f"at least {minimum}" if maximum is None else f"{minimum}..{maximum}"
        raise ScoringError(
            f"{field}{key}: {value} is out of range ({bound})",
            code="out_of_range",
            field=key,
            value=value,
            low=minimum,
            high=maximum,
        )
    return value


def read_patterns(raw: Mapping[str, Any], field: str) -> list[str]:
    """The pattern ids of a declared win's `patterns` (names in any language the registry knows), in the
    order given; an unknown name is an `unknown_pattern` error naming it."""
    words = raw.get("patterns")
    if words is None:
        words = []
    if not isinstance(words, list):
        raise ScoringError(f"{field}.patterns: expected a list of pattern names")
    ids: list[str] = []
    for index, word in enumerate(words):
        pattern = find_pattern(word) if isinstance(word, str) else None
        if pattern is None:
            raise ScoringError(
                f"{field}.patterns[{index}]: unknown pattern {word!r}",
                code="unknown_pattern",
                pattern=str(word),
            )
        ids.append(pattern.id)
    return ids


def read_one_tile(value: Any, field: str) -> int:
    """Exactly one tile, in any accepted form ("2p", "五筒")."""
    if not isinstance(value, str):
        raise ScoringError(f"{field}: expected one tile such as '2p', got {value!r}")
    tiles = parse_tiles(value, field=field)
    if len(tiles) != 1:
        raise ScoringError(f"{field}: expected exactly one tile, got {value!r}")
    return tiles[0]


def opt_seat(value: Any, field: str) -> Seat | None:
    """The seat a value names, or None for None."""
    return None if value is None else read_seat(value, field)


__all__ = [
    "Event",
    "ScoreRequest",
    "WinEntry",
    "check_keys",
    "opt_seat",
    "read_bool",
    "read_int",
    "read_one_tile",
    "read_seat",
]
