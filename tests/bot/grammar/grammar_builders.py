"""Builders of the entries the grammar tests expect, and the table the tests play at."""

from __future__ import annotations

from typing import Any

from bot.grammar import make_resolver

# The table: 东 @ann, 南 bob (Bob Chen), 西 老王, 北 @dan (阿丹); 小李 is a guest who is not seated.
SEATED = {"E": ["@ann", "Ann"], "S": ["@bob", "Bob Chen"], "W": ["老王"], "N": ["@dan", "阿丹"]}
resolve = make_resolver(SEATED)
resolve_with_guests = make_resolver(SEATED, {"小李": "guest:7", "@eve": "user:9"})

FLAG_KEYS = ("after_kong", "after_flower", "kong_fed_by", "last_tile", "heavenly", "earthly", "shangpai")


def flags(**on: Any) -> dict[str, Any]:
    """The §3 flags object with the given ones set."""
    unknown = set(on) - set(FLAG_KEYS)
    assert not unknown, unknown
    return {
        "after_kong": False,
        "after_flower": False,
        "kong_fed_by": None,
        "last_tile": False,
        "heavenly": False,
        "earthly": False,
        "shangpai": False,
        **on,
    }


def win(
    winner: str,
    how: str = "self_draw",
    *,
    hard: int = 0,
    soft: int = 0,
    patterns: tuple[str, ...] = (),
    hand: dict[str, Any] | None = None,
    wild: str | None = None,
    **flag_values: Any,
) -> dict[str, Any]:
    """One expected win: the declared form unless `hand` is given."""
    result: dict[str, Any] = {"winner": winner, "type": how}
    if hand is not None:
        result["hand"] = hand
    else:
        result["declared"] = {"hard_flowers": hard, "soft_flowers": soft, "patterns": list(patterns)}
    result["flags"] = flags(**flag_values)
    result["wild"] = wild
    return result


def entry(*wins: dict[str, Any], discarder: str | None = None) -> dict[str, Any]:
    """The expected entry of a win event."""
    return {"event": "win", "discarder": discarder, "escaper": None, "wins": list(wins)}


def hand(
    concealed: str, winning_tile: str | None, *melds: dict[str, Any], flowers: tuple[str, ...] = ()
) -> dict[str, Any]:
    """The expected §3 hand object."""
    return {
        "concealed": concealed,
        "winning_tile": winning_tile,
        "melds": list(melds),
        "flowers": list(flowers),
    }
