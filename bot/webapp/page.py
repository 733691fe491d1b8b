"""What the picker page needs to know of a table: rule set, seats, round wind, flower tiles, 混子."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.handlers.flow import wild_choices
from bot.ledger import SEATS, SessionInfo
from scoring.entry import FLAG_NAMES
from scoring.items import flower_copies, is_playing_tile
from scoring.rules import SUZHOU_ANHUI
from scoring.tiles import ALL_TILES, TILE_BY_NAME

NAME_BY_TILE = {tile: name for name, tile in TILE_BY_NAME.items()}
HOWS = ("self_draw", "discard", "rob_kong", "bao")


def rules_view(rules: str, round_wind: str) -> dict[str, Any]:
    """The tiles of a rule set in a round: playing tiles (宿州: the 令风 is a flower) and flowers with their
    number of copies, in the order of the rules."""
    flowers = flower_copies(rules, round_wind)
    playing = [NAME_BY_TILE[tile] for tile in ALL_TILES if is_playing_tile(rules, tile, round_wind)]
    return {
        "rules": rules,
        "round_wind": round_wind,
        "tiles": playing,
        "flowers": [{"name": name, "copies": copies} for name, copies in flowers.items()],
        "flags": [flag for flag in FLAG_NAMES if flag != "shangpai" or rules == SUZHOU_ANHUI],
    }


def hows(options: Mapping[str, object]) -> list[str]:
    """The ways of winning the page offers: 送杠 only where the table's `songgang` option is `any`."""
    return [*HOWS, *(["songgang"] if options.get("songgang") == "any" else [])]


def table_view(session: SessionInfo | None, user_id: int) -> dict[str, Any]:
    """The page's view of the open table (None: opened from inline mode, both rule sets, no seats)."""
    if session is None:
        return {
            "table": False,
            "rule_sets": [rules_view(rules, "E") for rules in ("suzhou", "suzhou-anhui")],
            "seats": [{"seat": seat, "name": None, "me": seat == "S"} for seat in SEATS],
            "dealer": "E",
            "hows": hows({}),
            "wild": list(wild_choices_for("suzhou-anhui", "E")),
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
    return {
        "table": True,
        "rule_sets": [rules_view(session.rules, state.round_wind)],
        "seats": seats,
        "dealer": state.dealer,
        "stake": session.stake,
        "hows": hows(session.options),
        "wild": list(wild_choices(session)),
    }


def wild_choices_for(rules: str, round_wind: str) -> tuple[str, ...]:
    """宿州's possible 混子 without a table: every playing tile of the round."""
    if rules != "suzhou-anhui":
        return ()
    return tuple(NAME_BY_TILE[t] for t in ALL_TILES if is_playing_tile(rules, t, round_wind))
