"""Win decomposition: every split of the concealed tiles into sets and a pair, seven pairs, 混子 wilds.

`decompositions` lists every split; `is_complete` answers only yes/no. Both read each suit on its own and
remember what they read (`functools.lru_cache`, bounded; importing this module builds nothing).

Wild tiles (宿州 混子): every copy of the wild tile may stand for any playing tile, itself included. In a
decomposition, `wilds` says what each copy stood for. A set or pair made of wild tiles alone is reported as
the wild tile itself (three wilds = a pung of the wild tile, as they lie on the table).

>>> from scoring.tiles import parse_tiles
>>> for d in decompositions(parse_tiles("111222333m789s55p")):
...     print(d.pair, d.sets)
13 (('chow', 0), ('chow', 0), ('chow', 0), ('chow', 24))
13 (('pung', 0), ('pung', 1), ('pung', 2), ('chow', 24))
>>> is_complete(parse_tiles("11223355778899p"))
True
>>> is_complete(parse_tiles("123m456p789s1z1z2z2z5p"))
False
>>> is_complete(parse_tiles("123m456p789s1z1z2z2z5p"), wild=27)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from scoring.errors import ScoringError
from scoring.tiles import Tile

SetKind = Literal["pung", "chow"]
TileSet = tuple[SetKind, Tile]

__all__ = ["Decomposition", "Facts", "Reading", "decompositions", "is_complete",
           "is_complete_counts", "readings", "wait_readings"]


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

    @property
    def is_seven_pairs(self) -> bool:
        """True for a 七对 reading."""
        return self.pair is None

    def tiles(self) -> list[Tile]:
        """Every tile the shape uses, wild tiles as what they stood for."""
        if self.pair is None:
            return sorted(t for t in self.pairs for _ in range(2))
        out = [self.pair, self.pair]
        for kind, t in self.sets:
            out.extend((t, t + 1, t + 2) if kind == "chow" else (t, t, t))
        return sorted(out)


def _counts(concealed: Sequence[Tile]) -> list[int]:
    counts = [0] * 34
    try:
        for t in concealed:
            counts[t] += 1
        if concealed and min(concealed) < 0:
            raise IndexError
    except (IndexError, TypeError):
        bad = next(t for t in concealed if not isinstance(t, int) or not 0 <= t < 34)
        raise ScoringError(f"not a tile: {bad!r}") from None
    return counts


# ---------------------------------------------------------------------------------------------------------
# Full enumeration

Facts = tuple[bool, int, bool, bool, int, bool]
"""What the patterns can tell apart in one reading: seven pairs, the suits (bits 1 m, 2 p, 4 s, 8 honours),
a chow, 一条龙 in one suit, concealed wind pungs, a wind pair (seven pairs: a four of a kind instead of the
chow). The other facts predicates read come from the hand (melds, flowers, tile count); two readings of one
hand with equal facts score alike (tests/scoring/test_decompose.py checks it)."""

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
    return [Decomposition(p, s, ps, ws) for p, s, ps, ws, _ in readings(concealed, wild=wild,
                                                                          seven_pairs=seven_pairs)]


def readings(concealed: Sequence[Tile], *, wild: Tile | None = None,
             seven_pairs: bool = True) -> list[Reading]:
    """`decompositions` as tuples with their facts, in the same order: by pair, then sets (kind, tile),
    then wilds; seven pairs last.

    Each suit's (and the honours') counts are read once per shape and number of wilds and remembered
    (`_group_readings`); a hand's readings combine one reading of each suit, at most one of them holding
    the pair; wilds left over stand for the wild tile itself (its pair, its pungs).
    """
    counts = _counts(concealed)
    if len(concealed) % 3 != 2:
        return []
    w = _take_wilds(counts, wild)
    groups = [(base, _group_readings(base, tuple(counts[base:end]), w)) for base, end in _SUITS
              if any(counts[base:end])]
    return _hand_readings(counts, w, wild, groups, seven_pairs and len(concealed) == 14)


def wait_readings(concealed: Sequence[Tile], waits: Sequence[Tile], *, wild: Tile | None = None,
                  seven_pairs: bool = True) -> list[list[Reading]]:
    """`readings(concealed + [t])` for each t in `waits` (/ting), in the same order as `waits`.

    A wait changes only its own suit's counts (the wild tile: the number of wilds). A suit read at least
    twice over the waits, once with a wait in it, is walked once for all its reads (`_walk_once`)
    instead of once per read.
    """
    counts = _counts(concealed)
    if len(concealed) % 3 != 1:
        return [[] for _ in waits]
    w = _take_wilds(counts, wild)
    suits = [_WaitSuit(base, tuple(counts[base:end]), w, waits, wild) for base, end in _SUITS]
    seven = seven_pairs and len(concealed) == 13
    out: list[list[Reading]] = []
    for t in waits:
        if t == wild:
            groups = [(s.base, s.more()) for s in suits if any(s.key)]
            out.append(_hand_readings(counts, w + 1, wild, groups, seven))
            continue
        groups = [(s.base, s.plus(t - s.base) if s.base <= t < s.end else s.alone())
                  for s in suits if any(s.key) or s.base <= t < s.end]
        counts[t] += 1
        out.append(_hand_readings(counts, w, wild, groups, seven))
        counts[t] -= 1
    return out


class _WaitSuit:
    """One suit of a waiting hand: its readings alone (w wilds), with the wild tile as the wait (w + 1),
    and with one more t, each from `_walk_once` when the waits read the suit more than once."""

    def __init__(self, base: Tile, key: tuple[int, ...], w: int, waits: Sequence[Tile],
                 wild: Tile | None) -> None:
        self.base, self.key, self.w = base, key, w
        self.end = base + len(key)
        inside = len({t for t in waits if base <= t < self.end and t != wild})
        reads = inside + (any(key) and any(not base <= t < self.end and t != wild for t in waits)) + (
            any(key) and wild in waits)
        self.once = inside > 0 and reads >= 2

    def alone(self) -> tuple[_Partial, ...]:
        return _walk_once(self.base, self.key, self.w)[1] if self.once else _group_readings(
            self.base, self.key, self.w)

    def more(self) -> tuple[_Partial, ...]:
        return _walk_once(self.base, self.key, self.w)[2] if self.once else _group_readings(
            self.base, self.key, self.w + 1)

    def plus(self, t: int) -> tuple[_Partial, ...]:
        if self.once:
            return _walk_once(self.base, self.key, self.w)[0][t]
        return _group_readings(self.base, _plus(self.key, t), self.w)


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


def _hand_readings(counts: list[int], w: int, wild: Tile | None,
                   groups: list[tuple[Tile, tuple[_Partial, ...]]], seven_pairs: bool) -> list[Reading]:
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
    luxury = len(set(pairs)) < len(pairs)
    return (None, (), tuple(pairs), tuple(sorted(subs)), (True, suits, luxury, False, 0, False))


_KINDS: tuple[SetKind, SetKind] = ("chow", "pung")
_SUIT_BIT = [1] * 9 + [2] * 9 + [4] * 9 + [8] * 7
_Partial = tuple[Tile | None, tuple[TileSet, ...], tuple[Tile, ...], bool, bool, int]
"""One suit's reading: pair, sets, what wilds stood for, has a chow, 一条龙, concealed wind pungs."""
_Combo = tuple[Tile | None, tuple[TileSet, ...], tuple[Tile, ...], int, bool, bool, int]


def _set_key(s: TileSet) -> tuple[int, str]:
    return (s[1], s[0])


def _combine(groups: list[tuple[Tile, tuple[_Partial, ...]]], w: int, wild: Tile | None) -> list[Reading]:
    # While every suit so far reads one way (the common case), the one combination is kept in locals.
    combos: list[_Combo] | None = None
    p: Tile | None = None
    sets: tuple[TileSet, ...] = ()
    subs: tuple[Tile, ...] = ()
    suits = 0
    chow = ytl = False
    anke = 0
    for base, group in groups:
        if not group:
            return []
        bit = _SUIT_BIT[base]
        if combos is None:
            if len(group) == 1:
                q, more, extra, c, y, a = group[0]
                # (Without wilds no reading stands a wild for anything: `extra` is empty.)
                if (p is not None and q is not None) or (w and len(subs) + len(extra) > w):
                    return []
                if q is not None:
                    p = q
                sets += more
                subs += extra
                suits |= bit
                chow = chow or c
                ytl = ytl or y
                anke += a
                continue
            combos = [(p, sets, subs, suits, chow, ytl, anke)]
        combos = [(q if p is None else p, sets + more, subs + extra, suits | bit, chow or c, ytl or y,
                   anke + a)
                  for p, sets, subs, suits, chow, ytl, anke in combos
                  for q, more, extra, c, y, a in group
                  if (p is None or q is None) and len(subs) + len(extra) <= w]
        if not combos:
            return []
    if combos is None:
        combos = [(p, sets, subs, suits, chow, ytl, anke)]
    out: list[Reading] = []
    for pair, sets, subs, suits, chow, ytl, anke in combos:
        left = w - len(subs)
        if wild is not None and left:
            if pair is None:
                pair = wild
                left -= 2
            if left < 0 or left % 3:
                continue
            if left:
                sets = tuple(sorted((*sets, *(("pung", wild),) * (left // 3)), key=_set_key))
                anke += left // 3 if 27 <= wild <= 30 else 0
            suits |= _SUIT_BIT[wild]
            subs = tuple(sorted((*subs, *(wild,) * (w - len(subs)))))
        elif pair is None:
            continue
        out.append((pair, sets, (), subs, (False, suits, chow, ytl, anke, 27 <= pair <= 30)))
    if len(out) > 1:
        # By pair, sets, wilds: the readings' own order (`pairs` is empty here, and the facts follow
        # from the pair and the sets, so two readings never tie on these and differ after).
        out.sort()
    return out


_CACHE_SIZE = 1 << 16
"""Entries per cache of per-suit results: real hands reach a few thousand, so this only caps abuse."""


@lru_cache(maxsize=_CACHE_SIZE)
def _group_readings(base: Tile, key: tuple[int, ...], w: int) -> tuple[_Partial, ...]:
    """The readings of one suit's (base 0, 9, 18) or the honours' (base 27) counts with at most `w` wilds:
    every set and the pair (at most one) holds at least one real tile; gaps are wilds (`subs`)."""
    return tuple(_walk(base, key, w, None)[None, w])


_Walked = tuple[tuple[tuple[_Partial, ...], ...], tuple[_Partial, ...], tuple[_Partial, ...]]


@lru_cache(maxsize=_CACHE_SIZE)
def _walk_once(base: Tile, key: tuple[int, ...], w: int) -> _Walked:
    """From one walk: for each tile t of the suit `_group_readings` of `key` with one more t; then
    `_group_readings` of `key` with w wilds, and with w + 1."""
    found = _walk(base, key, w, frozenset(range(len(key))))
    plus = tuple(tuple(found[t, w]) for t in range(len(key)))
    return plus, tuple(found[None, w]), tuple(found[None, w + 1])


def _plus(key: tuple[int, ...], t: int) -> tuple[int, ...]:
    return (*key[:t], key[t] + 1, *key[t + 1:])


def _walk(base: Tile, key: tuple[int, ...], w: int,
          extra: frozenset[int] | None) -> dict[tuple[int | None, int], list[_Partial]]:
    """Every reading of one suit's counts `key` with at most `w` wilds, under (None, w).

    With `extra` (tiles of the suit, 0-8 or 0-6) also: for each t in `extra`, every reading of `key`
    plus one real t with at most `w` wilds, under (t, w); and every reading of `key` with at most w + 1
    wilds, under (None, w + 1).

    Each shape is built once, as its pair and then its sets in (tile, kind) order: a set never starts
    above the lowest real tile still uncovered, and the copies beyond the real ones (the wilds) never
    exceed `w`. A shape is kept if its real tiles can be handed out one to each set and the pair. With
    `extra`, the one more tile is walked as one more wild that may stand anywhere; a shape then is a
    reading of `key` + t for each t it covers beyond `key` (t real there, so the wilds are one fewer),
    checked with t real. Every list is in the order of the shapes, the order a direct read gives.
    """
    n = len(key)
    chows = base < 27
    joker = extra is not None
    cands = [(a, kind, (_KINDS[kind], base + a)) for a in range(n)
             for kind in ((0, 1) if chows and a <= n - 3 else (1,))
             if joker or key[a] or (kind == 0 and (key[a + 1] or key[a + 2]))]
    # the candidates a set may be while u is the lowest tile still uncovered: cands[:stop[u]]
    stop = [sum(1 for c in cands if c[0] <= u) for u in range(n + 1)]
    rem = list(key)  # real copies not yet covered by the shape (negative: copies the wilds give)
    shape: list[tuple[int, int]] = []
    sets: list[TileSet] = []
    subs: list[Tile] = []  # what the wilds stand for, in the order the shape took them
    alone: list[_Partial] = []  # readings of `key` with at most w wilds
    more: list[_Partial] = []  # ... w + 1 wilds
    plus: list[list[_Partial]] = [[] for _ in range(n)]  # readings of `key` + t
    wanted = extra or frozenset()

    def emit(pair: int | None, starts: int, anke: int) -> None:
        # `starts`: a bit for each tile a chow starts at
        done = tuple(sets)
        chow, ytl = starts != 0, starts & 0b1001001 == 0b1001001
        q = None if pair is None else base + pair
        stood = tuple(sorted(subs))
        own = _assignable(pair, shape, list(key))
        if own:  # a reading of `key` itself
            reading = (q, done, stood, chow, ytl, anke)
            if len(stood) <= w:
                alone.append(reading)
            if joker:
                more.append(reading)
        if not joker:
            return
        last = -1
        for i, x in enumerate(stood):  # each tile a wild stands for (stood is sorted), once
            if x == last:
                continue
            last = x
            t = x - base
            if t not in wanted:
                continue
            if not own:
                left = list(key)
                left[t] += 1
                if not _assignable(pair, shape, left):
                    continue
            plus[t].append((q, done, stood[:i] + stood[i + 1:], chow, ytl, anke))  # t real: one wild fewer

    def walk(start: int, pair: int | None, w: int, real: int, starts: int, anke: int) -> None:
        # `real`: the real copies still uncovered; sets of three cover them with at least (-real) % 3
        # wilds, and once all are covered each further set is three wilds.
        if not real:
            emit(pair, starts, anke)
            if w < 3:
                return
            u = n
        elif (-real) % 3 > w:
            return
        else:
            u = 0
            while rem[u] <= 0:
                u += 1
        for index in range(start, stop[u]):
            a, kind, tileset = cands[index]
            if kind:
                r = rem[a]
                cost = 3 - (r if 0 < r < 3 else 3 if r >= 3 else 0)
                if cost <= w:
                    rem[a] = r - 3
                    shape.append((a, 1))
                    sets.append(tileset)
                    subs.extend((base + a,) * cost)
                    walk(index, pair, w - cost, real - 3 + cost, starts,
                         anke + (not chows and a <= 3))
                    if cost:
                        del subs[-cost:]
                    sets.pop()
                    shape.pop()
                    rem[a] = r
            else:
                r0, r1, r2 = rem[a], rem[a + 1], rem[a + 2]
                cost = (r0 <= 0) + (r1 <= 0) + (r2 <= 0)
                if cost <= w:
                    rem[a], rem[a + 1], rem[a + 2] = r0 - 1, r1 - 1, r2 - 1
                    shape.append((a, 0))
                    sets.append(tileset)
                    if cost:
                        subs.extend([base + x for x, r in ((a, r0), (a + 1, r1), (a + 2, r2)) if r <= 0])
                    walk(index, pair, w - cost, real - 3 + cost, starts | 1 << a, anke)
                    if cost:
                        del subs[-cost:]
                    sets.pop()
                    shape.pop()
                    rem[a], rem[a + 1], rem[a + 2] = r0, r1, r2

    most = w + joker
    total = sum(key)
    walk(0, None, most, total, 0, 0)
    for p in range(n):
        r = key[p]
        if (r or joker) and 2 - min(r, 2) <= most:
            rem[p] = r - 2
            subs.extend((base + p,) * (2 - min(r, 2)))
            walk(0, p, most - 2 + min(r, 2), total - min(r, 2), 0, 0)
            subs.clear()
            rem[p] = r
    found: dict[tuple[int | None, int], list[_Partial]] = {(None, w): alone, (None, w + 1): more}
    for t in wanted:
        found[t, w] = plus[t]
    return found


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


# ---------------------------------------------------------------------------------------------------------
# Fast yes/no

def _suit_ok(key: tuple[int, ...]) -> bool:
    """Do one suit's counts split into sets (and one pair if 3k+2)?"""
    total = sum(key)
    return total % 3 != 1 and _split(list(key), total % 3 == 2)


def _split(c: list[int], need_pair: bool) -> bool:
    """Do the 9 counts split into sets (and one pair)? Plain recursion (`_classify` remembers the answer)."""
    i = 0
    while i < 9 and c[i] == 0:
        i += 1
    if i == 9:
        return not need_pair
    if need_pair and c[i] >= 2:
        c[i] -= 2
        ok = _split(c, False)
        c[i] += 2
        if ok:
            return True
    if c[i] >= 3:
        c[i] -= 3
        ok = _split(c, need_pair)
        c[i] += 3
        if ok:
            return True
    if i <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        ok = _split(c, need_pair)
        c[i] += 1
        c[i + 1] += 1
        c[i + 2] += 1
        return ok
    return False


def is_complete_counts(counts: Sequence[int], *, seven_pairs: bool = True) -> bool:
    """`is_complete` on a 34-entry count array without wilds (the hot path of the win check).

    Each suit and the honours are looked up in a table filled on first sight: 0 = no split, 1 = sets
    only, 2 = sets and the pair.
    """
    t = tuple(counts)
    n = sum(t)
    if n % 3 != 2:
        return False
    if seven_pairs and n == 14 and 1 not in t and 3 not in t:
        return True
    pairs = 0
    for key in (t[0:9], t[9:18], t[18:27], t[27:34]):
        v = _classify(key)
        if not v:
            return False
        pairs += v - 1
    return pairs == 1


@lru_cache(maxsize=_CACHE_SIZE)
def _classify(key: tuple[int, ...]) -> int:
    """0, 1 or 2 for one suit (9 counts) or the honours (7 counts, which never form chows)."""
    total = sum(key)
    if total % 3 == 1:
        return 0
    if len(key) == 9:
        return (1 + (total % 3 == 2)) if _suit_ok(key) else 0
    # each count pungs, or pungs and the pair (a fifth copy, only a wild's, reads as 3 + 2 as in a suit)
    pairs = sum(1 for c in key if c % 3 == 2)
    ok = all(c % 3 != 1 for c in key) and pairs <= 1
    return (1 + pairs) if ok else 0


def is_complete(concealed: Sequence[Tile], *, wild: Tile | None = None, seven_pairs: bool = True) -> bool:
    """True when the concealed tiles (3k+2 of them) form k sets and a pair, or seven pairs (14 tiles).

    >>> from scoring.tiles import parse_tiles
    >>> is_complete(parse_tiles("123m456m789m13p55s9s"))
    False
    >>> is_complete(parse_tiles("123m456m789m13p55s9s"), wild=26)
    True
    """
    if len(concealed) % 3 != 2:
        return False
    counts = _counts(concealed)
    if wild is None or not counts[wild]:
        return is_complete_counts(counts, seven_pairs=seven_pairs)
    w = counts[wild]
    counts[wild] = 0
    return _complete_with_wilds(counts, w, seven_pairs and len(concealed) == 14)


def _complete_with_wilds(counts: list[int], w: int, seven_pairs: bool) -> bool:
    if seven_pairs and sum(c & 1 for c in counts) <= w:
        return True
    needs = [_suit_needs(counts, b) for b in (0, 9, 18, 27)]
    return sum(n[0] for n in needs) + min(2, *(n[1] for n in needs)) <= w


def _suit_needs(counts: list[int], b: int) -> tuple[int, ...]:
    """The wilds one suit of `counts` needs to be sets, and how many more with the pair among them
    (2 for a suit without tiles: a pair of two wilds); then the same two for the suit with one more
    tile, for each of its tiles in order."""
    return _needs_of(tuple(counts[b:b + 9]) if b < 27 else tuple(counts[27:]))


@lru_cache(maxsize=_CACHE_SIZE)
def _needs_of(key: tuple[int, ...]) -> tuple[int, ...]:
    """`_suit_needs` of one suit's counts (9 a suit, 7 the honours)."""
    chows = len(key) == 9
    out: list[int] = []
    for t in (None, *range(len(key))):
        plus = key if t is None else _plus(key, t)
        no_pair = _need(plus, False, chows)
        out += (no_pair, _need(plus, True, chows) - no_pair)
    return tuple(out)


def _need(key: tuple[int, ...], pair: bool, chows: bool) -> int:
    """The fewest wilds that complete one suit's counts into sets (and one pair).

    Only the span from the lowest to the highest tile matters (a chow that reaches past the span can
    be moved inside it at the same cost, or, for a span of one or two tiles, to either side), and
    spans apart by two empty tiles or more share no set: each is looked up on its own.
    """
    lo = 0
    n = len(key)
    while lo < n and not key[lo]:
        lo += 1
    if lo == n:
        return 2 if pair else 0
    hi = n
    while not key[hi - 1]:
        hi -= 1
    span = key[lo:hi] if chows else tuple(sorted(c for c in key if c))  # honours: no order
    return _need_span(span, pair, chows)


@lru_cache(maxsize=_CACHE_SIZE)
def _need_span(span: tuple[int, ...], pair: bool, chows: bool) -> int:
    """`_need` of a span (its first count not zero, and so the lowest real tile)."""
    c = list(span)
    n = len(c)
    if chows:
        for g in range(1, n - 2):
            if not c[g] and not c[g + 1]:  # two spans
                left, right = tuple(c[:g]), tuple(c[g + 2:])
                free = _need(left, False, True) + _need(right, False, True)
                if not pair:
                    return free
                return min(_need(left, True, True) + _need(right, False, True),
                           _need(left, False, True) + _need(right, True, True), free + 2)
    best = 99
    r = c[0]
    if pair:
        for real in (2, 1):
            if r >= real:
                c[0] = r - real
                best = min(best, 2 - real + _need(tuple(c), False, chows))
        c[0] = r
    for real in (3, 2, 1):
        if r >= real:
            c[0] = r - real
            best = min(best, 3 - real + _need(tuple(c), pair, chows))
    c[0] = r
    if chows:
        # A chow holding the lowest tile starts there (one starting lower moves up at the same cost),
        # taking a real tile where there is one (a wild in its place never needs fewer wilds overall);
        # past the span its tiles are wilds.
        c[0] = r - 1
        r1 = c[1] if n > 1 else 0
        r2 = c[2] if n > 2 else 0
        cost = (not r1) + (not r2)
        if r1:
            c[1] = r1 - 1
        if r2:
            c[2] = r2 - 1
        best = min(best, cost + _need(tuple(c), pair, chows))
        c[0] = r
        if r1:
            c[1] = r1
        if r2:
            c[2] = r2
    return best
