"""Win decomposition: every split of the concealed tiles into sets and a pair, seven pairs, 混子 wilds.

`decompositions` lists every split (`scoring.complete` answers only yes/no). A hand's splits combine one
reading of each suit (`scoring.suits`, which remembers what it read).

Wild tiles (宿州 混子): every copy of the wild tile may stand for any playing tile, itself included. In a
decomposition, `wilds` says what each copy stood for. A set or pair made of wild tiles alone is reported as
the wild tile itself (three wilds = a pung of the wild tile, as they lie on the table).

>>> from scoring.tiles import parse_tiles
>>> for d in decompositions(parse_tiles("111222333m789s55p")):
...     print(d.pair, d.sets)
13 (('chow', 0), ('chow', 0), ('chow', 0), ('chow', 24))
13 (('pung', 0), ('pung', 1), ('pung', 2), ('chow', 24))
>>> [(d.pair, d.pairs) for d in decompositions(parse_tiles("11223355778899p"))][-1]
(None, (9, 10, 11, 13, 15, 16, 17))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scoring.errors import ScoringError
from scoring.suits import SuitReading, TileSet, WaitReadings, plus_one, suit_readings, suit_readings_around
from scoring.tiles import Tile, counts34

__all__ = ["Decomposition", "Facts", "Reading", "decompositions", "readings", "wait_readings"]


@dataclass(frozen=True, slots=True)
class Decomposition:
    """One way to read concealed tiles as a winning shape.

    `pair` is the pair's tile (None for seven pairs); `sets` the concealed sets, a chow by its lowest tile;
    `pairs` the 7 pair tiles of seven pairs (a four of a kind gives its tile twice); `wilds` what each wild
    tile stood for.
    """

    pair: Tile | None
    sets: tuple[TileSet, ...]
    pairs: tuple[Tile, ...] = ()
    wilds: tuple[Tile, ...] = ()

    def tiles(self) -> list[Tile]:
        """Every tile the shape uses, wild tiles as what they stood for."""
        if self.pair is None:
            return sorted(t for t in self.pairs for _ in range(2))
        out = [self.pair, self.pair]
        for kind, t in self.sets:
            out.extend((t, t + 1, t + 2) if kind == "chow" else (t, t, t))
        return sorted(out)


Facts = tuple[bool, int, bool, bool, int, bool]
"""What the patterns can tell apart in one reading: seven pairs, the suits (bits 1 m, 2 p, 4 s, 8 honours),
a chow, 一条龙 in one suit, concealed wind pungs, a wind pair (seven pairs: a four of a kind instead of the
chow, and the number of four-of-a-kinds instead of the wind pungs). The other facts predicates read come
from the hand (melds, flowers, tile count); two readings of one hand with equal facts score alike
(tests/scoring/test_decompose.py checks it)."""

Reading = tuple[Tile | None, tuple[TileSet, ...], tuple[Tile, ...], tuple[Tile, ...], Facts]
"""One reading as the scorer walks it: pair, sets, pairs (seven pairs), wilds (`Decomposition`), facts."""


def decompositions(
    concealed: Sequence[Tile], *, wild: Tile | None = None, seven_pairs: bool = True
) -> list[Decomposition]:
    """Every decomposition of 3k+2 concealed tiles into k sets and a pair, plus seven pairs for 14 tiles.

    Other tile counts have none. Winds and dragons never form chows.

    >>> from scoring.tiles import parse_tiles
    >>> decompositions(parse_tiles("1122m"))  # 4 tiles: not 3k+2
    []
    >>> [(x.pair, x.sets, x.wilds) for x in decompositions(parse_tiles("13m5p5p5s"), wild=22)]
    [(13, (('chow', 0),), (1,))]
    """
    return [
        Decomposition(p, s, ps, ws)
        for p, s, ps, ws, _ in readings(concealed, wild=wild, seven_pairs=seven_pairs)
    ]


def readings(
    concealed: Sequence[Tile], *, wild: Tile | None = None, seven_pairs: bool = True, distinct: bool = False
) -> list[Reading]:
    """`decompositions` as tuples with their facts, in the same order: by pair, then sets (kind, tile),
    then wilds; seven pairs last.

    Each suit's (and the honours') counts are read once per shape and number of wilds and remembered
    (`suit_readings`); a hand's readings combine one reading of each suit, at most one of them holding
    the pair; wilds left over stand for the wild tile itself (its pair, its pungs). With `distinct` (the
    scorer), of a suit's readings of one kind only the first (`scoring.suits.kind`): a hand's readings
    that differ only there have the same facts, and the scorer reads the first of those.
    """
    counts = counts34(concealed)
    if len(concealed) % 3 != 2:
        return []
    w = _take_wilds(counts, wild)
    groups = [
        (base, suit_readings(base, tuple(counts[base:end]), w, distinct))
        for base, end in _SUITS
        if any(counts[base:end])
    ]
    return _hand_readings(counts, w, wild, groups, seven_pairs and len(concealed) == 14)


def wait_readings(
    concealed: Sequence[Tile],
    waits: Sequence[Tile],
    *,
    wild: Tile | None = None,
    seven_pairs: bool = True,
    distinct: bool = False,
) -> list[list[Reading]]:
    """`readings(concealed + [t], distinct=distinct)` for each t in `waits` (/ting), in the order of `waits`.

    A wait changes only its own suit's counts (the wild tile: the number of wilds). A suit read at least
    twice over the waits, once with a wait in it, is walked once for all its reads (`suit_readings_around`)
    instead of once per read.
    """
    counts = counts34(concealed)
    if len(concealed) % 3 != 1:
        return [[] for _ in waits]
    w = _take_wilds(counts, wild)
    suits = [_WaitSuit(base, tuple(counts[base:end]), w, waits, wild, distinct) for base, end in _SUITS]
    seven = seven_pairs and len(concealed) == 13
    out: list[list[Reading]] = []
    for t in waits:
        if t == wild:
            groups = [(s.base, s.more()) for s in suits if any(s.key)]
            out.append(_hand_readings(counts, w + 1, wild, groups, seven))
            continue
        groups = [
            (s.base, s.plus(t - s.base) if s.base <= t < s.end else s.alone())
            for s in suits
            if any(s.key) or s.base <= t < s.end
        ]
        counts[t] += 1
        out.append(_hand_readings(counts, w, wild, groups, seven))
        counts[t] -= 1
    return out


class _WaitSuit:
    """One suit of a waiting hand: its readings alone (w wilds), with the wild tile as the wait (w + 1),
    and with one more t, each from `suit_readings_around` when the waits read the suit more than once."""

    def __init__(
        self,
        base: Tile,
        key: tuple[int, ...],
        w: int,
        waits: Sequence[Tile],
        wild: Tile | None,
        distinct: bool,
    ) -> None:
        self.base, self.key, self.w, self.distinct = base, key, w, distinct
        self.end = base + len(key)
        inside = len({t for t in waits if base <= t < self.end and t != wild})
        reads = (
            inside
            + (any(key) and any(not base <= t < self.end and t != wild for t in waits))
            + (any(key) and wild in waits)
        )
        self.once = inside > 0 and reads >= 2

    def _around(self) -> WaitReadings:
        return suit_readings_around(self.base, self.key, self.w, self.distinct)

    def alone(self) -> tuple[SuitReading, ...]:
        return self._around()[1] if self.once else suit_readings(self.base, self.key, self.w, self.distinct)

    def more(self) -> tuple[SuitReading, ...]:
        if self.once:
            return self._around()[2]
        return suit_readings(self.base, self.key, self.w + 1, self.distinct)

    def plus(self, t: int) -> tuple[SuitReading, ...]:
        if self.once:
            return self._around()[0][t]
        return suit_readings(self.base, plus_one(self.key, t), self.w, self.distinct)


_SUITS = ((0, 9), (9, 18), (18, 27), (27, 34))


def _take_wilds(counts: list[int], wild: Tile | None) -> int:
    """How many wild tiles `counts` holds; they leave `counts` (their count becomes 0)."""
    if wild is None:
        return 0
    if not 0 <= wild < 34:
        raise ScoringError(f"wild: not a tile: {wild!r}")
    w = counts[wild]
    counts[wild] = 0
    return w


def _hand_readings(
    counts: list[int],
    w: int,
    wild: Tile | None,
    groups: list[tuple[Tile, tuple[SuitReading, ...]]],
    seven_pairs: bool,
) -> list[Reading]:
    """The readings of a hand (`counts` without its `w` wilds) from its suits' readings, then seven pairs
    when `seven_pairs` (14 tiles)."""
    out = _combine(groups, w, wild)
    if seven_pairs:
        seven = _seven_pairs(counts, w, wild)
        if seven is not None:
            out.append(seven)
    return out


def _seven_pairs(counts: list[int], w: int, wild: Tile | None) -> Reading | None:
    """The seven-pairs reading of 14 tiles (`counts` without its `w` wilds), if any: at most 7 distinct
    real tiles (the wild tile itself is none of them), an odd count each taking one wild, spare wilds in
    pairs of the wild tile."""
    real = [t for t in range(34) if counts[t]]
    if len(real) > 7:
        return None
    odd = [t for t in real if counts[t] % 2]
    if len(odd) > w:
        return None
    assert wild is not None or not odd
    spare = (w - len(odd)) // 2
    pairs = [t for t in real for _ in range((counts[t] + 1) // 2)]
    subs = odd
    if wild is not None:
        pairs += [wild] * spare
        subs = odd + [wild] * (2 * spare)
    pairs.sort()
    suits = 0
    for t in pairs:
        suits |= _SUIT_BIT[t]
    fours = len(pairs) - len(set(pairs))  # 豪七对 goes by this count (docs/rules.md §1)
    return (None, (), tuple(pairs), tuple(sorted(subs)), (True, suits, fours > 0, False, fours, False))


_SUIT_BIT = [1] * 9 + [2] * 9 + [4] * 9 + [8] * 7
_Combo = tuple[Tile | None, tuple[TileSet, ...], tuple[Tile, ...], int, bool, bool, int]


def _set_key(s: TileSet) -> tuple[int, str]:
    return (s[1], s[0])


def _combine(groups: list[tuple[Tile, tuple[SuitReading, ...]]], w: int, wild: Tile | None) -> list[Reading]:
    """The hand's readings: one reading of each suit, at most one holding the pair and no more than `w`
    wilds among them (`_with_spare_wilds` places the rest), by pair, sets and wilds."""
    combos: list[_Combo] = [(None, (), (), 0, False, False, 0)]
    for base, group in groups:
        bit = _SUIT_BIT[base]
        combos = [
            (q if p is None else p, sets + more, subs + extra, suits | bit, chow or c, ytl or y, anke + a)
            for p, sets, subs, suits, chow, ytl, anke in combos
            for q, more, extra, c, y, a in group
            if (p is None or q is None) and len(subs) + len(extra) <= w
        ]
        if not combos:
            return []
    out = [
        reading for reading in (_with_spare_wilds(combo, w, wild) for combo in combos) if reading is not None
    ]
    if len(out) > 1:
        # By pair, sets, wilds: the readings' own order (`pairs` is empty here, and the facts follow
        # from the pair and the sets, so two readings never tie on these and differ after).
        out.sort()
    return out


def _with_spare_wilds(combo: _Combo, w: int, wild: Tile | None) -> Reading | None:
    """One combination of suit readings as a hand's reading: the wilds no suit used stand for the wild
    tile itself (its pair if there is none yet, then its pungs); None if they cannot, or there is no pair."""
    pair, sets, subs, suits, chow, ytl, anke = combo
    left = w - len(subs)
    if wild is not None and left:
        if pair is None:
            pair = wild
            left -= 2
        if left < 0 or left % 3:
            return None
        if left:
            sets = tuple(sorted((*sets, *(("pung", wild),) * (left // 3)), key=_set_key))
            anke += left // 3 if 27 <= wild <= 30 else 0
        suits |= _SUIT_BIT[wild]
        subs = tuple(sorted((*subs, *(wild,) * (w - len(subs)))))
    elif pair is None:
        return None
    return (pair, sets, (), subs, (False, suits, chow, ytl, anke, 27 <= pair <= 30))
