"""Small builders for scoring requests, so that each test reads like a worked example."""

from __future__ import annotations

from typing import Any

from scoring import score_request


def win(
    winner: str = "S",
    how: str = "self_draw",
    hand: str | dict[str, Any] | None = None,
    *,
    hard: int | None = None,
    soft: int = 0,
    patterns: tuple[str, ...] = (),
    wild: str | None = None,
    **flags: Any,
) -> dict[str, Any]:
    """One entry of `wins`: a hand in shorthand (or §3 object), or the quick entry when `hard` is given."""
    entry: dict[str, Any] = {"winner": winner, "type": how}
    if hand is not None:
        entry["hand"] = hand
    else:
        entry["declared"] = {"hard_flowers": hard or 0, "soft_flowers": soft, "patterns": list(patterns)}
    if flags:
        entry["flags"] = flags
    if wild is not None:
        entry["wild"] = wild
    return entry


def score(*wins: dict[str, Any], rules: str = "suzhou", stake: int = 1, **table: Any) -> dict[str, Any]:
    """Score one hand with the given wins and table keys (dealer, discarder, options, baozi …)."""
    request: dict[str, Any] = {"rules": rules, "stake": stake, **table}
    if wins:
        request["wins"] = list(wins)
    return score_request(request)


def items(response: dict[str, Any], index: int = 0) -> dict[str, int]:
    """The 花 items of one win as {id: 花}."""
    return {item["id"]: item["hua"] for item in response["wins"][index]["items"]}


def one(response: dict[str, Any], index: int = 0) -> dict[str, Any]:
    return response["wins"][index]  # type: ignore[no-any-return]
