"""Tile shorthand inside the grammar: the shorthand's letters in their own case, and the docs/rules.md §4
`hand` object of a typed hand, validated by the scoring core's parser."""

from __future__ import annotations

import re
from typing import Any

from bot.grammar.errors import GrammarError
from bot.grammar.lexer import Token
from scoring import ScoringError, parse_hand
from scoring.tiles import is_wind, render_tiles, scan, tile_name

_UPPER_SUIT = re.compile(r"(?<=\d)[MPSZ]")
_QUALIFIER = re.compile(r":([A-Za-z]+)")


def lower_suits(text: str) -> str:
    """The shorthand's letters in its own case: suits 123M → 123m, meld qualifiers [555p:n] → [555p:N],
    [7777s:Direct] → [7777s:direct]; E S W N typed as tiles stay winds."""
    text = _UPPER_SUIT.sub(lambda m: m.group(0).lower(), text)
    return _QUALIFIER.sub(_qualifier_case, text)


def _qualifier_case(match: re.Match[str]) -> str:
    word = match.group(1)
    return ":" + (word.upper() if len(word) == 1 else word.lower())


def hand_object(parts: list[Token]) -> dict[str, Any]:
    """The docs/rules.md §4 `hand` object of typed tile shorthand (validated by scoring.parse_hand)."""

    if not parts:
        raise GrammarError("hand_error", reason="no tiles", token="", position=0, index=0)
    text = " ".join(
        f"| {part.text}" if n and _wind_flowers_first(part.text) else part.text
        for n, part in enumerate(parts)
    )
    first = parts[0]
    try:
        hand = _hand_object(text)
    except ScoringError as exc:
        raise GrammarError(
            "hand_error", reason=str(exc), token=text, position=first.position, index=first.index
        ) from exc
    return _copy_dict(hand)


def _wind_flowers_first(text: str) -> bool:
    """A word of flowers that starts with its 令风 (宿州): 东东春, 南中发. Typed after the tiles, it is the
    flowers in any order; read as it is, its winds would be two more tiles (`东东春` → 16 tiles)."""
    try:
        tokens = scan(lower_suits(text))
    except ScoringError:
        return False
    return (
        bool(tokens)
        and tokens[0].kind == "tile"
        and any(tok.kind == "flower" for tok in tokens)
        and all(tok.kind == "flower" or (tok.kind == "tile" and is_wind(int(tok.value))) for tok in tokens)
    )


def _hand_object(text: str) -> dict[str, Any]:
    """hand_object of the joined shorthand (a ScoringError when it is not a hand); shared: copy it."""

    hand = parse_hand(lower_suits(text))
    melds: list[dict[str, Any]] = []
    for meld in hand.melds:
        size = 4 if meld.kind == "kong" else 3
        obj: dict[str, Any] = {
            "type": meld.kind,
            "tiles": render_tiles([meld.tile] * size),
            "exposed": meld.exposed,
        }
        if meld.kong_kind is not None:
            obj["kind"] = meld.kong_kind
        if meld.source is not None:
            obj["from"] = meld.source
        melds.append(obj)
    return {
        "concealed": render_tiles(hand.concealed),
        "winning_tile": tile_name(hand.winning_tile) if hand.winning_tile is not None else None,
        "melds": melds,
        "flowers": list(hand.flowers),
    }


def _copy_dict(value: dict[str, Any]) -> dict[str, Any]:
    return {k: _copy_json(v) for k, v in value.items()}


def _copy_json(value: Any) -> Any:
    """A deep copy of nested dicts and lists (the leaves, str int bool None and the like, are shared)."""
    if type(value) is dict:
        return {k: _copy_json(v) for k, v in value.items()}
    if type(value) is list:
        return [_copy_json(v) for v in value]
    return value
