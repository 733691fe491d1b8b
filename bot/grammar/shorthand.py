"""Tile shorthand inside the grammar: the shorthand's letters in their own case, and the docs/rules.md §4
`hand` object of a typed hand, validated by the scoring core's parser."""

from __future__ import annotations

import re

from bot.grammar.errors import GrammarError
from bot.grammar.lexer import Token
from scoring import ScoringError, parse_hand
from scoring.entry import HandJSON, hand_json

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
    text = " ".join(part.text for part in parts)
    first = parts[0]
    try:
        return hand_json(parse_hand(lower_suits(text)))
    except ScoringError as exc:
        raise GrammarError(
            "hand_error", reason=str(exc), token=text, position=first.position, index=first.index
        ) from exc
