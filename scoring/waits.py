"""Waits (听牌): the tiles that would complete a waiting hand, and /ting's request: what each would score.

>>> from scoring.tiles import parse_tiles, tile_name
>>> [tile_name(t) for t in waiting_tiles(parse_tiles("1112345678999m"))]
['1m', '2m', '3m', '4m', '5m', '6m', '7m', '8m', '9m']
>>> [tile_name(t) for t in waiting_tiles(parse_tiles("1122335577889p"))]
['6p', '9p']
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from scoring.complete import is_complete_counts, suit_needs
from scoring.decompose import wait_readings
from scoring.errors import ScoringError
from scoring.hand import Hand, Meld, parse_hand
from scoring.hand_json import hand_from_json
from scoring.items import check_hand_tiles, check_wild, is_playing_tile
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
from scoring.score import WinScore, score_hand_ways
from scoring.seats import seats_after
from scoring.tiles import ALL_TILES, Tile, counts34, tile_name


def waiting_tiles(
    concealed: Sequence[Tile],
    melds: Sequence[Meld] = (),
    *,
    wild: Tile | None = None,
    seven_pairs: bool = True,
    candidates: Iterable[Tile] | None = None,
) -> list[Tile]:
    """The tiles that complete 3k+1 concealed tiles, in tile order.

    A tile whose four copies are all in the hand already (concealed or melded) is skipped. `candidates`
    limits the tiles tried (for example to the playing tiles of a rule set); by default all 34.

    >>> from scoring.tiles import parse_tiles, tile_name
    >>> [tile_name(t) for t in waiting_tiles(parse_tiles("1111m"))]
    []
    >>> [tile_name(t) for t in waiting_tiles(parse_tiles("1111m"), (Meld("pung", 9, True),))]
    []
    >>> [tile_name(t) for t in waiting_tiles(parse_tiles("1112m"))]
    ['2m', '3m']
    """
    if len(concealed) % 3 != 1:
        raise ScoringError(
            f"a waiting hand has 3k+1 concealed tiles (13, 10, 7, 4 or 1), not {len(concealed)}"
        )
    held = [0] * 34
    for t in concealed:
        if not isinstance(t, int) or not 0 <= t < 34:
            raise ScoringError(f"not a tile: {t!r}")
        held[t] += 1
    for m in melds:
        held[m.tile] += m.size
    tried = [t for t in sorted(set(ALL_TILES if candidates is None else candidates)) if held[t] < 4]
    return completing_tiles(concealed, tried, wild=wild, seven_pairs=seven_pairs)


def completing_tiles(concealed: Sequence[Tile], candidates: Sequence[Tile], *, wild: Tile | None = None,
                     seven_pairs: bool = True) -> list[Tile]:
    """The tiles t among `candidates` for which `is_complete(concealed + [t])` holds, in the given order.

    A tile changes one suit's counts: each suit's needs, alone and with each tile added, are read once
    (`suit_needs`), and a candidate's check is a sum over the four suits.
    """
    if len(concealed) % 3 != 1:
        return []
    counts = counts34(concealed)
    w0 = 0
    if wild is not None:
        w0 = counts[wild]
        counts[wild] = 0
    seven = seven_pairs and len(concealed) == 13
    odd = sum(c & 1 for c in counts)
    needs = [suit_needs(counts, b) for b in (0, 9, 18, 27)]
    sets = sum(n[0] for n in needs)
    pair = min(2, *(n[1] for n in needs))
    # the fewest extra wilds for the pair outside each suit
    pair_else = [min(2, *(m[1] for j, m in enumerate(needs) if j != i)) for i in range(4)]
    out: list[Tile] = []
    for t in candidates:
        w = w0 + (t == wild)
        if not w:  # no wild tile in the hand: the plain check
            counts[t] += 1
            if is_complete_counts(counts, seven_pairs=seven_pairs):
                out.append(t)
            counts[t] -= 1
            continue
        if t == wild:
            if (seven and odd <= w) or sets + pair <= w:
                out.append(t)
            continue
        if seven and odd + (1 if counts[t] % 2 == 0 else -1) <= w:
            out.append(t)
            continue
        suit = 3 if t >= 27 else t // 9
        n = needs[suit]
        i = 2 * (t - 9 * suit) + 2
        if sets - n[0] + n[i] + min(pair_else[suit], n[i + 1]) <= w:
            out.append(t)
    return out


_TING_KEYS = frozenset({"rules", "options", "stake", "dealer", "round_wind", "baozi", "diling", "seat",
                        "hand", "wild", "streak", "hand_number", "first_dealer"})


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
    tiles = [tile for tile in waiting_tiles(hand.concealed, hand.melds, wild=wild, seven_pairs=True)
             if is_playing_tile(base.rule.id, tile, base.round_wind)]
    splits = wait_readings(hand.concealed, tiles, wild=wild)  # a suit's readings once for all its waits
    waits: list[dict[str, Any]] = []
    for tile, tile_splits in zip(tiles, splits, strict=True):
        won = Hand(tuple(sorted((*hand.concealed, tile))), hand.melds, hand.flowers, tile)
        # Each reading of the tiles is read once for both ways of winning.
        scores = score_hand_ways(base.table, won, ("self_draw", "discard"), flags=NO_FLAGS,
                                 is_dealer=seat == base.dealer, wild=wild, round_wind=base.round_wind,
                                 field="hand", splits=tile_splits)
        waits.append(_wait_entry(base, seat, tile, won, wild, scores))
    return {"tenpai": bool(waits), "waits": waits}


def _waiting_hand(raw: Any, base: ScoreRequest) -> Hand:
    hand = parse_hand(raw, tiles=13, field="hand") if isinstance(raw, str) else hand_from_json(
        raw, tiles=13, field="hand")
    check_hand_tiles(base.rule.id, hand, base.round_wind, field="hand")
    return hand


_WAYS: tuple[tuple[WinType, int | None], ...] = (("self_draw", None), ("discard", 2))
"""The two ways a wait can win: a self-draw, and the discard of the waiting seat's 上家 (third after it)."""


def _wait_entry(base: ScoreRequest, seat: str, tile: Tile, won: Hand, wild: Tile | None,
                scores: list[WinScore]) -> dict[str, Any]:
    """One wait's response entry: each way of winning on `tile` settled as the waiting seat's win."""
    entry: dict[str, Any] = {"tile": tile_name(tile)}
    for (win_type, after), score in zip(_WAYS, scores, strict=True):
        by = None if after is None else seats_after(seat)[after]
        win = WinEntry(seat, win_type, won, None, NO_FLAGS, wild, "hand")
        payments = {"E": 0, "S": 0, "W": 0, "N": 0}
        summary = settled_json(base.with_wins("win", by, (win,)), win, score, payments)
        summary.pop("winner")
        summary["receives"] = payments[seat]
        if by is not None:
            summary["discarder"] = by
        entry[win_type] = summary
    return entry
