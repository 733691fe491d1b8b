"""Waits (听牌): the tiles that would complete a waiting hand (/ting's request: `scoring.ting`).

>>> from scoring.tiles import parse_tiles, tile_name
>>> [tile_name(t) for t in waiting_tiles(parse_tiles("1112345678999m"))]
['1m', '2m', '3m', '4m', '5m', '6m', '7m', '8m', '9m']
>>> [tile_name(t) for t in waiting_tiles(parse_tiles("1122335577889p"))]
['6p', '9p']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from scoring.complete import is_complete_counts, suit_needs
from scoring.errors import ScoringError
from scoring.hand import Meld
from scoring.tiles import ALL_TILES, Tile, counts34


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
