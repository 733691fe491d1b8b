"""/ting's request: the waits of a 13-tile hand and what each would score, settled as the waiting seat's win.

>>> r = ting_request({"rules": "suzhou-anhui", "hand": "1112345678999m", "wild": "5p"})
>>> r["tenpai"], len(r["waits"]), sorted(r["waits"][0])
(True, 10, ['discard', 'self_draw', 'tile'])
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.decompose import wait_readings
from scoring.errors import ScoringError
from scoring.hand import Hand, parse_hand
from scoring.hand_json import hand_from_json
from scoring.items import check_hand_tiles, check_wild
from scoring.patterns import NO_FLAGS, WinType
from scoring.request import (
    ScoreRequest,
    WinEntry,
    check_keys,
    parse_request,
    read_one_tile,
    read_seat,
    settled_json,
)
from scoring.rules import is_playing_tile
from scoring.score import WinScore, score_hand_ways
from scoring.seats import Seat, seats_after
from scoring.tiles import Tile, tile_name
from scoring.waits import waiting_tiles

__all__ = ["ting_request"]

_TING_KEYS = frozenset(
    {
        "rules",
        "options",
        "stake",
        "dealer",
        "round_wind",
        "baozi",
        "diling",
        "seat",
        "hand",
        "wild",
        "streak",
        "hand_number",
        "first_dealer",
    }
)


def ting_request(request: Any) -> dict[str, Any]:
    """The waits of a 13-tile hand and what each would score, for /ting.

    Request: `hand` (13 tiles: shorthand string or hand object without winning tile), `seat` (the waiting
    player, default E), and the table keys of score_request (rules, options, stake, dealer, round_wind,
    baozi, diling, wild). Response::

        {"tenpai": true, "waits": [{"tile": "3p",
            "self_draw": {"allowed", "reason", "hua", "items", "multiplier", "receives"},
            "discard":   {"allowed", "reason", "hua", "items", "multiplier", "receives", "discarder"}}]}

    `receives` is what the waiting player would collect in stake units; the discard case assumes the
    player before `seat` (上家) discards.

    >>> [w["tile"] for w in ting_request({"hand": "1112345678999m"})["waits"]][:3]
    ['1m', '2m', '3m']
    """
    if not isinstance(request, Mapping):
        raise ScoringError("request: expected a JSON object")
    check_keys(request, _TING_KEYS, "")
    table = {key: request[key] for key in request if key not in ("seat", "hand", "wild")}
    base = parse_request({**table, "event": "draw"})
    seat = read_seat(request.get("seat", "E"), "seat")
    hand = _waiting_hand(request.get("hand"), base)
    wild = None if request.get("wild") is None else read_one_tile(request.get("wild"), "wild")
    check_wild(base.rule.id, wild, base.round_wind, field="wild")
    tiles = [
        tile
        for tile in waiting_tiles(hand.concealed, hand.melds, wild=wild, seven_pairs=True)
        if is_playing_tile(base.rule.id, tile, base.round_wind)
    ]
    # a suit's readings once for all its waits, and only those the scorer tells apart
    splits = wait_readings(hand.concealed, tiles, wild=wild, distinct=True)
    waits: list[dict[str, Any]] = []
    for tile, tile_splits in zip(tiles, splits, strict=True):
        won = Hand(tuple(sorted((*hand.concealed, tile))), hand.melds, hand.flowers, tile)
        # Each reading of the tiles is read once for both ways of winning.
        scores = score_hand_ways(
            base.table,
            won,
            ("self_draw", "discard"),
            flags=NO_FLAGS,
            is_dealer=seat == base.dealer,
            wild=wild,
            round_wind=base.round_wind,
            field="hand",
            splits=tile_splits,
        )
        waits.append(_wait_entry(base, seat, tile, won, wild, scores))
    return {"tenpai": bool(waits), "waits": waits}


def _waiting_hand(raw: Any, base: ScoreRequest) -> Hand:
    hand = (
        parse_hand(raw, tiles=13, field="hand")
        if isinstance(raw, str)
        else hand_from_json(raw, tiles=13, field="hand")
    )
    check_hand_tiles(base.rule.id, hand, base.round_wind, field="hand")
    return hand


_WAYS: tuple[tuple[WinType, int | None], ...] = (("self_draw", None), ("discard", 2))
"""The two ways a wait can win: a self-draw, and the discard of the waiting seat's 上家 (third after it)."""


def _wait_entry(
    base: ScoreRequest, seat: Seat, tile: Tile, won: Hand, wild: Tile | None, scores: list[WinScore]
) -> dict[str, Any]:
    """One wait's response entry: each way of winning on `tile` settled as the waiting seat's win."""
    entry: dict[str, Any] = {"tile": tile_name(tile)}
    for (win_type, after), score in zip(_WAYS, scores, strict=True):
        by = None if after is None else seats_after(seat)[after]
        win = WinEntry(seat, win_type, won, None, NO_FLAGS, wild, "hand")
        payments: dict[Seat, int] = {"E": 0, "S": 0, "W": 0, "N": 0}
        settled = settled_json(base.with_wins("win", by, (win,)), win, score, payments)
        summary: dict[str, Any] = {key: value for key, value in settled.items() if key != "winner"}
        summary["receives"] = payments[seat]
        if by is not None:
            summary["discarder"] = by
        entry[win_type] = summary
    return entry
