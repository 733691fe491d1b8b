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


def completing_tiles(
    concealed: Sequence[Tile],
    candidates: Sequence[Tile],
    *,
    wild: Tile | None = None,
    seven_pairs: bool = True,
) -> list[Tile]:
    """The tiles t among `candidates` for which `is_complete(concealed + [t])` holds, in the given order.

    Without a wild tile in the hand, each candidate is the plain check. With one, a tile changes one
    suit's counts: each suit's needs, alone and with each tile added, are read once (`_WildWaits`), and a
    candidate's check is a sum over the four suits.
    """
    if len(concealed) % 3 != 1:
        return []
    counts = counts34(concealed)
    w0 = 0
    if wild is not None:
        w0 = counts[wild]
        counts[wild] = 0
    wilds = _WildWaits(counts, seven_pairs and len(concealed) == 13)
    out: list[Tile] = []
    for t in candidates:
        w = w0 + (t == wild)
        if w:
            done = wilds.completes(t, w, t == wild)
        else:  # no wild tile in the hand: the plain check
            counts[t] += 1
            done = is_complete_counts(counts, seven_pairs=seven_pairs)
            counts[t] -= 1
        if done:
            out.append(t)
    return out


class _WildWaits:
    """A waiting hand's counts without its wilds, and what each suit needs (`suit_needs`): alone, and
    with each of its tiles added, read on the first candidate that asks."""

    def __init__(self, counts: list[int], seven: bool) -> None:
        self.counts, self.seven = counts, seven
        self.odd = sum(c & 1 for c in counts)
        self.needs: list[tuple[int, ...]] = []

    def _read(self) -> None:
        self.needs = needs = [suit_needs(self.counts, b) for b in (0, 9, 18, 27)]
        self.sets = sum(n[0] for n in needs)
        self.pair = min(2, *(n[1] for n in needs))
        # the fewest extra wilds for the pair outside each suit
        self.pair_else = [min(2, *(m[1] for j, m in enumerate(needs) if j != i)) for i in range(4)]

    def completes(self, t: Tile, w: int, is_wild: bool) -> bool:
        """Whether the hand with t completes with `w` wilds (t the wild tile: one of them)."""
        if is_wild and self.seven and self.odd <= w:
            return True
        if not is_wild and self.seven and self.odd + (1 if self.counts[t] % 2 == 0 else -1) <= w:
            return True
        if not self.needs:
            self._read()
        if is_wild:
            return self.sets + self.pair <= w
        suit = 3 if t >= 27 else t // 9
        n = self.needs[suit]
        i = 2 * (t - 9 * suit) + 2
        return self.sets - n[0] + n[i] + min(self.pair_else[suit], n[i + 1]) <= w
