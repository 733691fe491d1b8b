"""Win decomposition: every split of the concealed tiles into sets and a pair, seven pairs, 混子 wilds.

`decompositions` lists every split; `is_complete` answers only yes/no, from per-suit tables memoized on
first use (importing this module builds nothing).

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

from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from scoring.errors import ScoringError
from scoring.tiles import Tile

SetKind = Literal["pung", "chow"]
TileSet = tuple[SetKind, Tile]

__all__ = ["Decomposition", "decompositions", "is_complete", "is_complete_counts", "plain_decompositions"]


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
    counts = _counts(concealed)
    n = len(concealed)
    if n % 3 != 2:
        return []
    w = 0
    if wild is not None:
        if not 0 <= wild < 34:
            raise ScoringError(f"wild: not a tile: {wild!r}")
        w = counts[wild]
        counts[wild] = 0
    if not w:
        return _plain_decompositions(concealed, counts, seven_pairs and n == 14)
    assert wild is not None
    found = _wild_readings(counts, w, wild)
    if seven_pairs and n == 14:
        odd = [t for t in range(34) if counts[t] % 2]
        if len(odd) <= w:
            spare = (w - len(odd)) // 2
            assert wild is not None or spare == 0
            pairs = [t for t in range(34) for _ in range((counts[t] + 1) // 2)]
            pairs += [wild] * spare if wild is not None else []
            subs = odd + ([wild] * (2 * spare) if wild is not None else [])
            found.add(Decomposition(None, (), tuple(sorted(pairs)), tuple(sorted(subs))))
    return sorted(found, key=_order)


_SortKey = tuple[bool, int, tuple[TileSet, ...], tuple[int, ...], tuple[int, ...]]


def _order(d: Decomposition) -> _SortKey:
    return (d.pair is None, -1 if d.pair is None else d.pair, d.sets, d.pairs, d.wilds)


_Partial = tuple[Tile | None, tuple[TileSet, ...], tuple[Tile, ...]]  # pair, sets, what wilds stood for


def _set_key(s: TileSet) -> tuple[int, str]:
    return (s[1], s[0])


def _wild_readings(counts: list[int], w: int, wild: Tile) -> set[Decomposition]:
    """Every reading with `w` wilds: each suit's (and the honours') real tiles read with some of the wilds
    (`_group_wild_readings`, remembered per suit shape), one of them or the leftover wilds giving the pair;
    leftover wilds stand for the wild tile (a pair and pungs of it)."""
    partials: list[_Partial] = [(None, (), ())]
    for base, end in ((0, 9), (9, 18), (18, 27), (27, 34)):
        key = tuple(counts[base:end])
        if not any(key):
            continue
        memo_key = (base, key, w)
        readings = _GROUP_WILD.get(memo_key)
        if readings is None:
            readings = _group_wild_readings(base, key, w)
        partials = [(q if p is None else p, sets + more, subs + extra)
                    for p, sets, subs in partials
                    for q, more, extra in readings
                    if (p is None or q is None) and len(subs) + len(extra) <= w]
        if not partials:
            return set()
    out: set[Decomposition] = set()
    for pair, sets, subs in partials:
        left = w - len(subs)
        if pair is None:
            pair = wild
            left -= 2
        if left < 0 or left % 3:
            continue
        out.add(Decomposition(pair, tuple(sorted((*sets, *(("pung", wild),) * (left // 3)), key=_set_key)),
                              (), tuple(sorted((*subs, *(wild,) * (w - len(subs)))))))
    return out


def _group_wild_readings(base: Tile, key: tuple[int, ...], w: int) -> tuple[_Partial, ...]:
    """The readings of one suit's (base 0, 9, 18) or the honours' (base 27) counts with at most `w` wilds:
    every set and the pair (at most one) holds at least one real tile; gaps are wilds (`subs`). Each real
    tile in turn, lowest first, joins a pair, a pung or (in a suit) a chow; remembered (a bounded table)."""
    chows = base < 27
    counts = list(key)
    n = len(counts)
    memo: dict[tuple[int, tuple[int, ...], int, bool], frozenset[_Partial]] = {}

    def solve(i: int, w: int, pair_free: bool) -> frozenset[_Partial]:
        while i < n and counts[i] == 0:
            i += 1
        if i == n:
            return _DONE
        state = (i, tuple(counts[i:]), w, pair_free)
        got = memo.get(state)
        if got is not None:
            return got
        tile = base + i
        c = counts[i]
        # (is the pair, the set or None, real tiles taken besides one copy of i, wild substitutions)
        moves: list[tuple[bool, TileSet | None, list[int], list[Tile]]] = []
        if pair_free:
            if c >= 2:
                moves.append((True, None, [i], []))
            if w >= 1:
                moves.append((True, None, [], [tile]))
        for real in (3, 2, 1):
            if c >= real and w >= 3 - real:
                moves.append((False, ("pung", tile), [i] * (real - 1), [tile] * (3 - real)))
        if chows:
            for a in (i - 2, i - 1, i):
                if not 0 <= a <= 6:
                    continue
                lows = [base + k for k in range(a, i)]
                highs = list(range(i + 1, a + 3))
                for mask in range(1 << len(highs)):  # bit set: that slot is a wild
                    taken = [k for b, k in enumerate(highs) if not mask >> b & 1]
                    subs = lows + [base + k for b, k in enumerate(highs) if mask >> b & 1]
                    if len(subs) <= w and all(counts[k] > 0 for k in taken):
                        moves.append((False, ("chow", base + a), taken, subs))
        out: set[_Partial] = set()
        for is_pair, tile_set, taken, subs in moves:
            counts[i] -= 1
            for k in taken:
                counts[k] -= 1
            rest = solve(i, w - len(subs), pair_free and not is_pair)
            counts[i] += 1
            for k in taken:
                counts[k] += 1
            for pair, sets, more in rest:
                out.add((tile if is_pair else pair, sets if tile_set is None else (tile_set, *sets),
                         (*subs, *more)))
        frozen = frozenset(out)
        memo[state] = frozen
        return frozen

    readings = tuple({(pair, tuple(sorted(sets, key=_set_key)), tuple(sorted(subs)))
                      for pair, sets, subs in solve(0, w, True)})
    _bound(_GROUP_WILD)
    _GROUP_WILD[(base, key, w)] = readings
    return readings


_DONE: frozenset[_Partial] = frozenset({(None, (), ())})
# (suit base, its counts, wilds at most) -> the readings of `_group_wild_readings`
_GROUP_WILD: dict[tuple[Tile, tuple[int, ...], int], tuple[_Partial, ...]] = {}


_MEMO_LIMIT = 200_000  # entries per table; real hands reach a few thousand, so this only caps abuse


def _bound(memo: dict[Any, Any]) -> None:
    if len(memo) >= _MEMO_LIMIT:
        memo.clear()


_Reading = tuple[Tile | None, tuple[TileSet, ...]]
# A suit's (or the honours') sorted tiles -> its readings: what a hand's tiles of that suit can be.
_GROUP_READINGS: dict[tuple[Tile, ...], tuple[_Reading, ...]] = {}


def _plain_decompositions(concealed: Sequence[Tile], counts: list[int],
                          seven_pairs: bool) -> list[Decomposition]:
    """Without wilds, for checked tiles and their count array (see `plain_decompositions`)."""
    tiles = tuple(sorted(concealed))
    if seven_pairs and max(counts) > 4:  # not a real hand: seven pairs read from the counts as such
        out = plain_decompositions(tiles, False)
        if 1 not in counts and 3 not in counts:
            out.append(Decomposition(None, (), tuple(t for t in range(34) for _ in range(counts[t] // 2))))
        return out
    return plain_decompositions(tiles, seven_pairs)


def plain_decompositions(tiles: tuple[Tile, ...], seven_pairs: bool) -> list[Decomposition]:
    """`decompositions` without wilds, for sorted valid tiles (3k+2 of them; at most 4 copies of a tile).

    Each suit's tiles (and the honours) are read once per distinct shape and remembered; a hand's readings
    combine one reading of each suit, exactly one of them holding the pair. Seven pairs (when
    `seven_pairs`, for 14 tiles) comes last.
    """
    n = len(tiles)
    i1 = bisect_left(tiles, 9)
    i2 = bisect_left(tiles, 18, i1)
    i3 = bisect_left(tiles, 27, i2)
    groups = [tiles[lo:hi] for lo, hi in ((0, i1), (i1, i2), (i2, i3), (i3, n)) if lo != hi]
    memo = _GROUP_READINGS
    out: list[Decomposition] = []
    pair: Tile | None = None
    sets: tuple[TileSet, ...] = ()
    several: list[tuple[_Reading, ...]] = []
    for group in groups:
        readings = memo.get(group)
        if readings is None:
            readings = _group_readings(group)
        if len(readings) == 1:  # the common case: one way to read this suit
            q, more = readings[0]
            if q is not None:
                if pair is not None:  # two suits each want the pair: no reading
                    break
                pair = q
            sets += more
        elif readings:
            several.append(readings)
        else:  # this suit cannot be read as sets (and a pair): no reading at all
            break
    else:
        if not several:
            if pair is not None:
                out.append(Decomposition(pair, sets))
        else:
            combos: list[_Reading] = [(pair, sets)]
            for readings in several:
                combos = [
                    (q if p is None else p, done + more)
                    for p, done in combos
                    for q, more in readings
                    if p is None or q is None
                ]
            out = [Decomposition(p, tuple(sorted(done, key=_set_key))) for p, done in combos if p is not None]
            out.sort(key=_order)
    if seven_pairs and n == 14 and tiles[0] == tiles[1] and tiles[0::2] == tiles[1::2]:
        out.append(Decomposition(None, (), tiles[0::2]))
    return out


def _group_readings(group: tuple[Tile, ...]) -> tuple[_Reading, ...]:
    """The readings of one suit's or the honours' sorted tiles, remembered (a bounded table)."""
    first = group[0]
    if first >= 27:  # honours never form chows: every count is a pung (3) or the pair (2)
        counts = [group.count(t) for t in sorted(set(group))]
        pairs = counts.count(2)
        readings: tuple[_Reading, ...] = ()
        if pairs <= 1 and all(c in (2, 3) for c in counts):
            pair = next((t for t in sorted(set(group)) if group.count(t) == 2), None)
            readings = ((pair, tuple(("pung", t) for t in sorted(set(group)) if group.count(t) == 3)),)
    else:
        base = first - first % 9
        key = [0] * 9
        for t in group:
            key[t - base] += 1
        readings = _suit_readings(base, tuple(key))
    _bound(_GROUP_READINGS)
    _GROUP_READINGS[group] = readings
    return readings


def _suit_readings(base: Tile, key: tuple[int, ...]) -> tuple[_Reading, ...]:
    """Every reading of one suit's counts as sets (and a pair when it holds 3k+2 tiles), sorted."""
    found: set[_Reading] = set()
    sets: list[TileSet] = []

    def walk(c: list[int], i: int, need_pair: bool, pair: Tile | None) -> None:
        while i < 9 and c[i] == 0:
            i += 1
        if i == 9:
            if not need_pair:
                found.add((pair, tuple(sorted(sets, key=lambda s: (s[1], s[0])))))
            return
        if need_pair and c[i] >= 2:
            c[i] -= 2
            walk(c, i, False, base + i)
            c[i] += 2
        if c[i] >= 3:
            c[i] -= 3
            sets.append(("pung", base + i))
            walk(c, i, need_pair, pair)
            sets.pop()
            c[i] += 3
        if i <= 6 and c[i + 1] and c[i + 2]:
            c[i] -= 1
            c[i + 1] -= 1
            c[i + 2] -= 1
            sets.append(("chow", base + i))
            walk(c, i, need_pair, pair)
            sets.pop()
            c[i] += 1
            c[i + 1] += 1
            c[i + 2] += 1

    walk(list(key), 0, sum(key) % 3 == 2, None)
    return tuple(sorted(found, key=lambda r: (-1 if r[0] is None else r[0], r[1])))


# ---------------------------------------------------------------------------------------------------------
# Fast yes/no

_SUIT_OK: dict[tuple[int, ...], bool] = {}  # suit counts -> splits into sets (and one pair if 3k+2)
_SUIT_NEED: dict[tuple[tuple[int, ...], bool, bool], int] = {}  # (counts, pair, chows) -> wilds needed


def _suit_ok(key: tuple[int, ...]) -> bool:
    ok = _SUIT_OK.get(key)
    if ok is None:
        total = sum(key)
        ok = total % 3 != 1 and _split(list(key), total % 3 == 2)
        _bound(_SUIT_OK)
        _SUIT_OK[key] = ok
    return ok


def _split(c: list[int], need_pair: bool) -> bool:
    """Do the 9 counts split into sets (and one pair)? Plain recursion, results memoized by the caller."""
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
    get = _GROUP_CLASS.get
    pairs = 0
    for key in (t[0:9], t[9:18], t[18:27], t[27:34]):
        v = get(key)
        if v is None:
            v = _classify(key)
        if not v:
            return False
        pairs += v - 1
    return pairs == 1


_GROUP_CLASS: dict[tuple[int, ...], int] = {}


def _classify(key: tuple[int, ...]) -> int:
    """0, 1 or 2 for one suit (9 counts) or the honours (7 counts, which never form chows)."""
    total = sum(key)
    if total % 3 == 1:
        v = 0
    elif len(key) == 9:
        v = (1 + (total % 3 == 2)) if _suit_ok(key) else 0
    else:
        pairs = key.count(2)
        ok = all(c in (0, 2, 3) for c in key) and pairs <= 1
        v = (1 + pairs) if ok else 0
    _bound(_GROUP_CLASS)
    _GROUP_CLASS[key] = v
    return v


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
    base_cost = 0
    best_pair_extra = 2  # a pair of two wilds
    for b in (0, 9, 18, 27):
        key = tuple(counts[b : b + 9]) if b < 27 else tuple(counts[27:])
        if not any(key):
            continue
        chows = b < 27
        no_pair = _need(key, False, chows)
        with_pair = _need(key, True, chows)
        base_cost += no_pair
        best_pair_extra = min(best_pair_extra, with_pair - no_pair)
    return base_cost + best_pair_extra <= w


def _need(key: tuple[int, ...], pair: bool, chows: bool) -> int:
    """The fewest wilds that complete one suit's counts into sets (and one pair)."""
    memo_key = (key, pair, chows)
    got = _SUIT_NEED.get(memo_key)
    if got is None:
        got = _need_search(list(key), pair, chows)
        _bound(_SUIT_NEED)
        _SUIT_NEED[memo_key] = got
    return got


def _need_search(c: list[int], pair: bool, chows: bool) -> int:
    i = 0
    n = len(c)
    while i < n and c[i] == 0:
        i += 1
    if i == n:
        return 2 if pair else 0
    best = 99
    if pair:
        for real in (2, 1):
            if c[i] >= real:
                c[i] -= real
                best = min(best, 2 - real + _need(tuple(c), False, chows))
                c[i] += real
    for real in (3, 2, 1):
        if c[i] >= real:
            c[i] -= real
            best = min(best, 3 - real + _need(tuple(c), pair, chows))
            c[i] += real
    if chows:
        # i is the lowest real tile: a chow holding it starts at i-2, i-1 or i; lower slots are wilds.
        for a in (i - 2, i - 1, i):
            if not 0 <= a <= n - 3:
                continue
            slots = [a, a + 1, a + 2]
            cost = sum(1 for s in slots if s < i)
            c[i] -= 1
            highs = [s for s in slots if s > i]
            # Use a real tile where there is one (a wild in its place never needs fewer wilds overall).
            taken = [s for s in highs if c[s] > 0]
            for s in taken:
                c[s] -= 1
            cost += len(highs) - len(taken)
            best = min(best, cost + _need(tuple(c), pair, chows))
            for s in taken:
                c[s] += 1
            c[i] += 1
    return best
