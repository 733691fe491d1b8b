"""Is a hand complete: the yes/no check of a win (is it 4 sets and a pair, or seven pairs?), and for the
waits of /ting how many wild tiles (宿州 混子) each suit needs to be sets.

Each suit (9 counts; the honours 7, which never form chows) is judged on its own and the answer remembered
(`functools.lru_cache`, bounded); a hand combines its four suits. `scoring.decompose` lists the readings
themselves, for the scorer.

>>> from scoring.tiles import parse_tiles
>>> is_complete(parse_tiles("11223355778899p"))
True
>>> is_complete(parse_tiles("123m456p789s1z1z2z2z5p"))
False
>>> is_complete(parse_tiles("123m456p789s1z1z2z2z5p"), wild=27)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from scoring.suits import plus_one
from scoring.tiles import Tile, counts34

__all__ = ["is_complete", "is_complete_counts", "suit_needs"]

_CACHE_SIZE = 1 << 16
"""Entries per cache: real hands reach a few thousand suit shapes, so this only caps abuse."""


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
    counts = counts34(concealed)
    if wild is None or not counts[wild]:
        return is_complete_counts(counts, seven_pairs=seven_pairs)
    w = counts[wild]
    counts[wild] = 0
    return _complete_with_wilds(counts, w, seven_pairs and len(concealed) == 14)


def _complete_with_wilds(counts: list[int], w: int, seven_pairs: bool) -> bool:
    if seven_pairs and sum(c & 1 for c in counts) <= w:
        return True
    needs = [suit_needs(counts, b) for b in (0, 9, 18, 27)]
    return sum(n[0] for n in needs) + min(2, *(n[1] for n in needs)) <= w


def suit_needs(counts: list[int], b: int) -> tuple[int, ...]:
    """The wilds one suit of `counts` needs to be sets, and how many more with the pair among them
    (2 for a suit without tiles: a pair of two wilds); then the same two for the suit with one more
    tile, for each of its tiles in order."""
    return _needs_of(tuple(counts[b : b + 9]) if b < 27 else tuple(counts[27:]))


@lru_cache(maxsize=_CACHE_SIZE)
def _needs_of(key: tuple[int, ...]) -> tuple[int, ...]:
    """`suit_needs` of one suit's counts (9 a suit, 7 the honours)."""
    chows = len(key) == 9
    out: list[int] = []
    for t in (None, *range(len(key))):
        plus = key if t is None else plus_one(key, t)
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
    """`_need` of a span (its first count not zero, and so the lowest real tile): split at a gap of two
    empty tiles, else the best set (or the pair) holding the lowest tile."""
    gap = _gap(span) if chows else None
    if gap is not None:
        return _need_apart(span[:gap], span[gap + 2 :], pair)
    best = _need_from_group(span, pair, chows)
    return min(best, _need_from_chow(span, pair)) if chows else best


def _gap(span: tuple[int, ...]) -> int | None:
    """Where two empty tiles split a suit's span into two that share no set, if they do."""
    for g in range(1, len(span) - 2):
        if not span[g] and not span[g + 1]:
            return g
    return None


def _need_apart(left: tuple[int, ...], right: tuple[int, ...], pair: bool) -> int:
    """`_need` of two spans that share no set: each on its own, the pair in one of them (or of wilds)."""
    free = _need(left, False, True) + _need(right, False, True)
    if not pair:
        return free
    return min(
        _need(left, True, True) + _need(right, False, True),
        _need(left, False, True) + _need(right, True, True),
        free + 2,
    )


def _need_from_group(span: tuple[int, ...], pair: bool, chows: bool) -> int:
    """The fewest wilds with the lowest tile in the pair or a pung, as many of its copies real as there
    are (1-2 of the pair, 1-3 of the pung), the gaps wilds."""
    r, rest = span[0], span[1:]
    best = 99
    if pair:
        for real in (2, 1):
            if r >= real:
                best = min(best, 2 - real + _need((r - real, *rest), False, chows))
    for real in (3, 2, 1):
        if r >= real:
            best = min(best, 3 - real + _need((r - real, *rest), pair, chows))
    return best


def _need_from_chow(span: tuple[int, ...], pair: bool) -> int:
    """The fewest wilds with the lowest tile in a chow. A chow holding the lowest tile starts there (one
    starting lower moves up at the same cost), taking a real tile where there is one (a wild in its place
    never needs fewer wilds overall); past the span its tiles are wilds."""
    r1 = span[1] if len(span) > 1 else 0
    r2 = span[2] if len(span) > 2 else 0
    left = (span[0] - 1, *(max(r1 - 1, 0), max(r2 - 1, 0))[: len(span) - 1], *span[3:])
    return (not r1) + (not r2) + _need(left, pair, True)
