"""Scoring core for 苏州麻将 and 宿州麻将: tiles, hands, patterns, settlement, dealer rotation (no I/O)."""

from __future__ import annotations

from scoring.errors import ScoringError
from scoring.hand import Hand, Meld, parse_hand, render_hand
from scoring.hand_json import hand_from_json
from scoring.patterns import PATTERNS, TERMS, Pattern, find_pattern, find_term
from scoring.request import score_request
from scoring.rules import RULESETS, OptionSpec, option_specs, resolve_rules, validate_options
from scoring.tiles import parse_tiles, render_tiles
from scoring.ting import ting_request

__all__ = [
    "PATTERNS",
    "RULESETS",
    "TERMS",
    "Hand",
    "Meld",
    "OptionSpec",
    "Pattern",
    "ScoringError",
    "find_pattern",
    "find_term",
    "hand_from_json",
    "option_specs",
    "parse_hand",
    "parse_tiles",
    "render_hand",
    "render_tiles",
    "resolve_rules",
    "score_request",
    "ting_request",
    "validate_options",
]
