"""What the picker page needs to know of a table: rule set, seats, round wind, flower tiles, 混子, the flags
and the ways of winning it offers (混子 and ways asked of `scoring.rules`, as the button flow asks them)."""

from __future__ import annotations

from typing import Any

from bot.ledger import SEATS, SessionInfo
from scoring.entry import FLAG_NAMES
from scoring.items import flower_copies
from scoring.rules import (
    RULESETS,
    SUZHOU_ANHUI,
    RuleSetId,
    has_shangpai,
    is_playing_tile,
    ways_to_win,
    wild_choices,
)
from scoring.seats import Seat
from scoring.tiles import ALL_TILES, TILE_BY_NAME

NAME_BY_TILE = {tile: name for name, tile in TILE_BY_NAME.items()}


def rules_view(rules: RuleSetId, round_wind: Seat, options: dict[str, Any] | None = None) -> dict[str, Any]:
    """The tiles of a rule set in a round: playing tiles (宿州: the 令风 is a flower) and flowers with their
    number of copies, in the order of the rules; the flags and the ways of winning it offers (`options`:
    the table's, None without a table)."""
    flowers = flower_copies(rules, round_wind)
    playing = [NAME_BY_TILE[tile] for tile in ALL_TILES if is_playing_tile(rules, tile, round_wind)]
    return {
        "rules": rules,
        "round_wind": round_wind,
        "tiles": playing,
        "flowers": [{"name": name, "copies": copies} for name, copies in flowers.items()],
        "flags": [flag for flag in FLAG_NAMES if flag != "shangpai" or has_shangpai(rules)],
        "hows": list(ways_to_win(rules, options or {})),
        "wild": list(wild_choices(rules, round_wind)),
    }


def table_view(session: SessionInfo | None, user_id: int) -> dict[str, Any]:
    """The page's view of the open table (None: opened from inline mode, both rule sets, no seats)."""
    if session is None:
        rule_sets = [rules_view(rules, "E") for rules in RULESETS]
        return {
            "table": False,
            "rule_sets": rule_sets,
            "seats": [{"seat": seat, "name": None, "me": seat == "S"} for seat in SEATS],
            "dealer": "E",
            "hows": rule_sets[0]["hows"],
            "wild": list(wild_choices(SUZHOU_ANHUI, "E")),
        }
    state = session.state
    seats = [
        {
            "seat": seat,
            "name": session.seats[seat].name if seat in session.seats else None,
            "me": seat in session.seats and session.seats[seat].telegram_id == user_id,
        }
        for seat in SEATS
    ]
    view = rules_view(session.rules, state.round_wind, dict(session.options))
    return {
        "table": True,
        "rule_sets": [view],
        "seats": seats,
        "dealer": state.dealer,
        "stake": session.stake,
        "hows": view["hows"],
        "wild": view["wild"],
    }
