"""Waits (听牌): the tiles that would complete a waiting hand, for /ting.

>>> from scoring.tiles import parse_tiles, tile_name
>>> [tile_name(t) for t in waiting_tiles(parse_tiles("1112345678999m"))]
['1m', '2m', '3m', '4m', '5m', '6m', '7m', '8m', '9m']
>>> [tile_name(t) for t in waiting_tiles(parse_tiles("1122335577889p"))]
['6p', '9p']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from scoring.decompose import completing_tiles
from scoring.errors import ScoringError
from scoring.hand import Meld
from scoring.tiles import ALL_TILES, Tile


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
