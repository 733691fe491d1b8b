"""The one error type of the scoring core, with a stable code and parameters for the bot's catalogs."""

from __future__ import annotations

from typing import Any

# Every code a ScoringError may carry (the bot shows the catalog text `scoring.<code>` with the params);
# "invalid" is a malformed request only a program can send (the bot's own requests never are).
CODES = frozenset(
    {
        "invalid",  # field
        "tile_count",  # concealed, melds, total, expected
        "too_many_copies",  # tile, count
        "unknown_token",  # token, position
        "no_suit",  # token, position
        "bad_meld",  # meld
        "bad_marker",  # position: the winning-tile marker '+'
        "no_tiles",
        "after_flowers",  # token, position: a tile or meld typed after the flowers
        "flower_in_hand",  # tile
        "unknown_flower",  # flower
        "not_flower",  # flower, rules
        "not_wind_flower",  # flower, wind: a wind that is not this round's 令风
        "too_many_flowers",  # flower, count, copies
        "not_complete",  # the tiles make no winning hand
        # flag (after_kong after_flower kong_fed_by heavenly earthly shangpai), needs (self_draw other_feeder
        # dealer_self_draw player_self_draw suzhou_anhui kong exposed_kong no_melds)
        "flag_needs",
        "flag_conflict",  # flag, other
        "pattern_conflict",  # pattern (its Chinese name), other (a pattern's name, or self_draw, or hua)
        "pattern_rules",  # pattern, and option (extended, menqing_stack) or rules: it does not score here
        "unknown_pattern",  # pattern
        "out_of_range",  # field, value, low, high
        "no_wild",  # rules
        "wild_is_flower",  # tile
        "bad_option",  # option (its id), value, choices (the allowed values, comma-separated)
        "unknown_option",  # option, known (the rule set's option ids, comma-separated)
    }
)


class ScoringError(ValueError):
    """Malformed scoring input; the message (English, for the library and the CLI) names the offending field
    or token and its position; `code` (one of CODES) and `params` say the same for a translated reply.

    >>> e = ScoringError("hand: 5 copies of 9p", code="too_many_copies", tile="9p", count=5)
    >>> e.code, e.params["tile"], str(e)
    ('too_many_copies', '9p', 'hand: 5 copies of 9p')
    """

    def __init__(self, message: str, /, code: str = "invalid", **params: Any) -> None:
        super().__init__(message)
        assert code in CODES, code
        self.code = code
        self.params: dict[str, Any] = params
