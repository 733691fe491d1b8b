"""One suit's readings: every way to read the counts of one suit (or the honours) as sets and at most one
pair, with some wild tiles (宿州 混子) filling the gaps. `scoring.decompose` combines the suits of a hand.

A suit is its base tile (0 万, 9 筒, 18 条, 27 the honours) and its counts (9 entries, 7 for the honours,
which never form chows). What a suit reads as is remembered (`functools.lru_cache`, bounded), since the
same suit shapes come back from hand to hand. The scorer reads a suit `distinct`: only the first reading
of each `kind`, the readings a hand's facts can tell apart.

>>> [(pair, sets, wilds) for pair, sets, wilds, *_ in suit_readings(0, (1, 1, 1, 0, 0, 0, 0, 2, 0), 0)]
[(7, (('chow', 0),), ())]
>>> [(pair, sets, wilds) for pair, sets, wilds, *_ in suit_readings(0, (1, 0, 1, 0, 0, 0, 0, 0, 0), 1)]
[(None, (('chow', 0),), (1,))]
"""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

from scoring.tiles import Tile

SetKind = Literal["pung", "chow"]
TileSet = tuple[SetKind, Tile]

SuitReading = tuple[Tile | None, tuple[TileSet, ...], tuple[Tile, ...], bool, bool, int]
"""One suit's reading: pair, sets (a chow by its lowest tile), what the wilds stood for (sorted), has a
chow, 一条龙, concealed wind pungs."""

WaitReadings = tuple[tuple[tuple[SuitReading, ...], ...], tuple[SuitReading, ...], tuple[SuitReading, ...]]
"""`suit_readings_around`: the readings with one more t for each tile t, alone (w wilds), with w + 1."""

__all__ = [
    "Kind",
    "SetKind",
    "SuitReading",
    "TileSet",
    "WaitReadings",
    "kind",
    "plus_one",
    "suit_readings",
    "suit_readings_around",
]

_CACHE_SIZE = 1 << 16
"""Entries per cache: real hands reach a few thousand suit shapes, so this only caps abuse."""

_KINDS: tuple[SetKind, SetKind] = ("chow", "pung")


@lru_cache(maxsize=_CACHE_SIZE)
def suit_readings(
    base: Tile, key: tuple[int, ...], w: int, distinct: bool = False
) -> tuple[SuitReading, ...]:
    """The readings of one suit's counts `key` with at most `w` wilds: every set and the pair hold at
    least one real tile; the gaps are wilds. In the order of their shapes (pair, then sets by tile).

    With `distinct` (the scorer's reads), only the first reading of each `kind`: readings of one kind
    give a hand the same facts (`scoring.decompose.Facts`), so the scorer would skip all but the first.
    """
    walk = _SuitWalk(base, key, w, joker=False, distinct=distinct)
    walk.run()
    return tuple(walk.alone.readings)


@lru_cache(maxsize=_CACHE_SIZE)
def suit_readings_around(base: Tile, key: tuple[int, ...], w: int, distinct: bool = False) -> WaitReadings:
    """From one walk (/ting reads a suit for each of its waits): for each tile t of the suit,
    `suit_readings` of `key` with one more t; then `suit_readings` of `key` with w wilds, and with w + 1
    (each `distinct` or not).

    The one more tile is walked as one more wild that may stand anywhere: a shape is a reading of
    `key` + t for each t a wild stands for in it (t real there, so the wilds are one fewer), checked
    with t real. Every list is in the order of the shapes, the order a direct read gives.
    """
    walk = _SuitWalk(base, key, w, joker=True, distinct=distinct)
    walk.run()
    return tuple(tuple(p.readings) for p in walk.plus), tuple(walk.alone.readings), tuple(walk.more.readings)


Kind = tuple[bool, bool, object, bool, bool, int]


def kind(base: Tile, pair: Tile | None, stood: tuple[Tile, ...], chow: bool, ytl: bool, anke: int) -> Kind:
    """What a hand's facts can tell of one suit's reading: whether it holds the pair (and a wind pair),
    how many wilds it takes (in the honours which tiles they stand for, as some may be flowers), a chow,
    一条龙, the concealed wind pungs. Readings of one kind differ only in which sets (which tiles the
    wilds stand for), and tests/scoring/test_decompose.py checks that they score alike."""
    return (
        pair is None,
        pair is not None and 27 <= pair <= 30,
        stood if base >= 27 else len(stood),
        chow,
        ytl,
        anke,
    )


_ANY: Kind = (False, False, None, False, False, 0)  # the kind of every reading a walk keeps all of


class _Kept:
    """The readings a walk keeps for one list, and (distinct: only the first of each kind) their kinds."""

    __slots__ = ("distinct", "kinds", "readings")

    def __init__(self, distinct: bool) -> None:
        self.readings: list[SuitReading] = []
        self.kinds: set[Kind] = set()
        self.distinct = distinct

    def wants(self, of: Kind) -> bool:
        """Whether a reading of kind `of` is one to keep: always, or (distinct) the first of its kind."""
        return not self.distinct or of not in self.kinds

    def add(self, of: Kind, reading: SuitReading) -> None:
        self.readings.append(reading)
        if self.distinct:
            self.kinds.add(of)


def plus_one(key: tuple[int, ...], t: int) -> tuple[int, ...]:
    """The counts `key` with one more copy of its tile t."""
    return (*key[:t], key[t] + 1, *key[t + 1 :])


class _SuitWalk:
    """Every shape of one suit's counts, each built once: its pair, then its sets in (tile, kind) order.

    A set never starts above the lowest real tile still uncovered, and the copies beyond the real ones
    (the wilds) never exceed `w` (w + 1 with the `joker`, one more tile standing anywhere). A shape is
    kept if its real tiles can be handed out one to each set and the pair (`_assignable`).
    """

    def __init__(self, base: Tile, key: tuple[int, ...], w: int, *, joker: bool, distinct: bool) -> None:
        self.base, self.key, self.w, self.joker, self.distinct = base, key, w, joker, distinct
        self.n = n = len(key)
        self.chows = base < 27
        # each set a shape may take: (its tile, 0 chow / 1 pung, the set)
        self.cands = [
            (a, kind, (_KINDS[kind], base + a))
            for a in range(n)
            for kind in ((0, 1) if self.chows and a <= n - 3 else (1,))
            if joker or key[a] or (kind == 0 and (key[a + 1] or key[a + 2]))
        ]
        # the candidates a set may be while u is the lowest tile still uncovered: cands[:stop[u]]
        self.stop = [sum(1 for c in self.cands if c[0] <= u) for u in range(n + 1)]
        self.rem = list(key)  # real copies not yet covered by the shape (negative: copies the wilds give)
        self.shape: list[tuple[int, int]] = []  # (tile, 0 chow / 1 pung) of each set so far
        self.sets: list[TileSet] = []
        self.subs: list[Tile] = []  # what the wilds stand for, in the order the shape took them
        self.alone = _Kept(distinct)  # readings of `key` with at most w wilds
        self.more = _Kept(distinct)  # ... w + 1 wilds (joker)
        self.plus = [_Kept(distinct) for _ in range(n)]  # readings of `key` + t (joker)

    def run(self) -> None:
        """Walk the shapes without a pair, then with the pair on each tile in turn."""
        key, base = self.key, self.base
        most = self.w + self.joker
        total = sum(key)
        self.walk(0, None, most, total, 0, 0)
        for p in range(self.n):
            r = key[p]
            if (r or self.joker) and 2 - min(r, 2) <= most:
                self.rem[p] = r - 2
                self.subs.extend((base + p,) * (2 - min(r, 2)))
                self.walk(0, p, most - 2 + min(r, 2), total - min(r, 2), 0, 0)
                self.subs.clear()
                self.rem[p] = r

    def walk(self, start: int, pair: int | None, w: int, real: int, starts: int, anke: int) -> None:
        """Add sets from candidate `start` on, with `w` wilds left and `real` real copies uncovered.

        Sets of three cover the real copies with at least (-real) % 3 wilds, and once all are covered
        each further set is three wilds. `starts` has a bit for each tile a chow starts at; `anke`
        counts the concealed wind pungs.
        """
        if not real:
            self.emit(pair, starts, anke)
            if w < 3:
                return
            u = self.n
        elif (-real) % 3 > w:
            return
        else:
            rem = self.rem
            u = 0
            while rem[u] <= 0:
                u += 1
        cands = self.cands
        for index in range(start, self.stop[u]):
            a, kind, tileset = cands[index]
            if kind:
                self.pung(index, a, tileset, pair, w, real, starts, anke)
            else:
                self.chow(index, a, tileset, pair, w, real, starts, anke)

    def pung(
        self,
        index: int,
        a: int,
        tileset: TileSet,
        pair: int | None,
        w: int,
        real: int,
        starts: int,
        anke: int,
    ) -> None:
        """Walk on with a pung of tile `a` (candidate `index`), if the wilds it needs are left."""
        rem = self.rem
        r = rem[a]
        cost = 3 - (r if 0 < r < 3 else 3 if r >= 3 else 0)
        if cost > w:
            return
        rem[a] = r - 3
        self.shape.append((a, 1))
        self.sets.append(tileset)
        self.subs.extend((self.base + a,) * cost)
        self.walk(index, pair, w - cost, real - 3 + cost, starts, anke + (not self.chows and a <= 3))
        if cost:
            del self.subs[-cost:]
        self.sets.pop()
        self.shape.pop()
        rem[a] = r

    def chow(
        self,
        index: int,
        a: int,
        tileset: TileSet,
        pair: int | None,
        w: int,
        real: int,
        starts: int,
        anke: int,
    ) -> None:
        """Walk on with a chow from tile `a` (candidate `index`), if the wilds it needs are left."""
        rem = self.rem
        r0, r1, r2 = rem[a], rem[a + 1], rem[a + 2]
        cost = (r0 <= 0) + (r1 <= 0) + (r2 <= 0)
        if cost > w:
            return
        rem[a], rem[a + 1], rem[a + 2] = r0 - 1, r1 - 1, r2 - 1
        self.shape.append((a, 0))
        self.sets.append(tileset)
        if cost:
            base = self.base
            self.subs.extend([base + x for x, r in ((a, r0), (a + 1, r1), (a + 2, r2)) if r <= 0])
        self.walk(index, pair, w - cost, real - 3 + cost, starts | 1 << a, anke)
        if cost:
            del self.subs[-cost:]
        self.sets.pop()
        self.shape.pop()
        rem[a], rem[a + 1], rem[a + 2] = r0, r1, r2

    def emit(self, pair: int | None, starts: int, anke: int) -> None:
        """Keep the finished shape: as a reading of `key` if its real tiles fit, and (joker) as a reading
        of `key` + t for each t a wild stands for in it; with `distinct`, where its kind is new there."""
        base = self.base
        chow, ytl = starts != 0, starts & 0b1001001 == 0b1001001
        q = None if pair is None else base + pair
        stood = tuple(sorted(self.subs))
        of = kind(base, q, stood, chow, ytl, anke) if self.distinct else _ANY
        alone = len(stood) <= self.w and self.alone.wants(of)
        more = self.joker and self.more.wants(of)
        plus = self._plus_wanted(q, stood, chow, ytl, anke) if self.joker else []
        if not (alone or more or plus):
            return
        done = tuple(self.sets)
        own = (alone or more) and _assignable(pair, self.shape, list(self.key))
        if own:  # a reading of `key` itself
            if alone:
                self.alone.add(of, (q, done, stood, chow, ytl, anke))
            if more:
                self.more.add(of, (q, done, stood, chow, ytl, anke))
        for t, fewer, plus_kind in plus:  # t real: one wild fewer
            if not own:  # do the real tiles fit with one more t?
                left = list(self.key)
                left[t] += 1
                if not _assignable(pair, self.shape, left):
                    continue
            self.plus[t].add(plus_kind, (q, done, fewer, chow, ytl, anke))

    def _plus_wanted(
        self, q: Tile | None, stood: tuple[Tile, ...], chow: bool, ytl: bool, anke: int
    ) -> list[tuple[int, tuple[Tile, ...], Kind]]:
        """Each tile t a wild stands for in the shape (once), with what the wilds stand for when t is
        real and the kind of that reading of `key` + t, where it is one to keep."""
        out = []
        last = -1
        for i, x in enumerate(stood):  # stood is sorted
            if x != last:
                last = x
                fewer = stood[:i] + stood[i + 1 :]
                of = kind(self.base, q, fewer, chow, ytl, anke) if self.distinct else _ANY
                if self.plus[x - self.base].wants(of):
                    out.append((x - self.base, fewer, of))
        return out


def _assignable(pair: int | None, shape: list[tuple[int, int]], left: list[int]) -> bool:
    """Can the pair and each set of `shape` ((start, 0) a chow, (tile, 1) a pung) take one real tile
    among their own (`left`: the real copies, used up)?

    The pair and the pungs have one tile each; the chows (in order of their lowest tile) then take the
    lowest copy left in their span: for spans of one length in that order the greedy choice finds a
    tile for every chow whenever any assignment does.
    """
    if pair is not None:
        if not left[pair]:
            return False
        left[pair] -= 1
    chows: list[int] = []
    for a, kind in shape:
        if kind:
            if not left[a]:
                return False
            left[a] -= 1
        else:
            chows.append(a)
    for a in chows:
        if left[a]:
            left[a] -= 1
        elif left[a + 1]:
            left[a + 1] -= 1
        elif left[a + 2]:
            left[a + 2] -= 1
        else:
            return False
    return True
