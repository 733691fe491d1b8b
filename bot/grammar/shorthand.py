"""Tile shorthand inside the grammar: the shorthand's letters in their own case, and the docs/rules.md §4
`hand` object of a typed hand, validated by the scoring core's parser."""

from __future__ import annotations

import re

from bot.grammar.errors import GrammarError
from bot.grammar.lexer import Token
from scoring import ScoringError, parse_hand
from scoring.entry import HandJSON, hand_json
from scoring.tiles import is_wind, scan

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


def hand_object(parts: list[Token]) -> HandJSON:
    """The docs/rules.md §4 `hand` object of typed tile shorthand (validated by scoring.parse_hand)."""

    if not parts:
        raise GrammarError("hand_error", reason="no tiles", token="", position=0, index=0)
    text = " ".join(
        f"| {part.text}" if n and _wind_flowers_first(part.text) else part.text
        for n, part in enumerate(parts)
    )
    first = parts[0]
    try:
        return hand_json(parse_hand(lower_suits(text)))
    except ScoringError as exc:
        lingfeng = _trailing_wind_flowers(text)
        if lingfeng is not None:
            try:
                return hand_json(parse_hand(lower_suits(lingfeng)))
            except ScoringError:
                pass
        raise GrammarError(
            "hand_error", reason=str(exc), token=text, position=first.position, index=first.index
        ) from exc


_TRAILING_WINDS = re.compile(r"^(.*?)\s*((?:[东東南西北])+)$")


def _trailing_wind_flowers(text: str) -> str | None:
    """The hand with its last winds read as flowers (宿州's 令风 typed after the tiles: `…99p 东`,
    `…99p东东`), for a hand that does not parse as typed; None when it ends in no wind of one kind."""
    match = _TRAILING_WINDS.match(text)
    if match is None or not match.group(1) or "|" in text:
        return None
    winds = match.group(2).replace("東", "东")
    if len(set(winds)) != 1:
        return None
    return f"{match.group(1)} | {match.group(2)}"


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
