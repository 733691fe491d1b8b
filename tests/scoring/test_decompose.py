"""Win decomposition: worked readings of real hands, wild tiles (混子), and agreement with brute force."""

from __future__ import annotations

from collections import Counter
from itertools import combinations_with_replacement

import pytest
from budget import examples
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scoring.complete import is_complete, is_complete_counts
from scoring.decompose import Decomposition, decompositions
from scoring.errors import ScoringError
from scoring.tiles import counts34, parse_tiles, tile_from_name

T = tile_from_name
P = parse_tiles


def readings(text: str, **kw: object) -> list[tuple[int | None, tuple[tuple[str, int], ...]]]:
    return [(d.pair, d.sets) for d in decompositions(P(text), **kw)]  # type: ignore[arg-type]


def test_pure_straight_reads_two_ways() -> None:
    # 111222333m: three pungs or three identical chows.
    assert readings("111222333m789s55p") == [
        (T("5p"), (("chow", T("1m")),) * 3 + (("chow", T("7s")),)),
        (T("5p"), (("pung", T("1m")), ("pung", T("2m")), ("pung", T("3m")), ("chow", T("7s")))),
    ]


def test_a_run_of_pairs_reads_as_chows_or_pairs() -> None:
    assert readings("112233m456p789s99p") == [
        (T("9p"), (("chow", T("1m")), ("chow", T("1m")), ("chow", T("4p")), ("chow", T("7s")))),
    ]
    assert not is_complete(P("112233m456p789s9p1z"))


def test_seven_pairs_also_reads_as_sets_when_it_can() -> None:
    ds = decompositions(P("11223355778899p"))
    seven = [d for d in ds if d.pair is None]
    assert len(seven) == 1
    assert seven[0].pairs == tuple(P("1235789p"))
    assert any(d.pair is not None for d in ds)  # 123p 123p 55p 789p 789p
    assert not any(d.pair is None for d in decompositions(P("11223355778899p"), seven_pairs=False))


def test_four_of_a_kind_counts_as_two_pairs() -> None:
    (d,) = decompositions(P("1111m3355m7799p11z"))
    assert d.pair is None
    assert d.pairs == tuple(P("1135m79p1z"))


def test_winds_and_dragons_never_form_chows() -> None:
    assert not is_complete(P("123z123m456m789m5p5p"[:-2]))
    assert not is_complete(P("567z123m456m789m55p"))
    assert is_complete(P("111z555z777z123m55p"))
    assert readings("111z555z777z123m55p") == [
        (T("5p"), (("chow", T("1m")), ("pung", T("东")), ("pung", T("5z")), ("pung", T("7z")))),
    ]


def test_a_complete_hand_after_melds_has_fewer_tiles() -> None:
    assert is_complete(P("99p"))
    assert is_complete(P("123m99p"))
    assert readings("99p") == [(T("9p"), ())]
    assert not is_complete(P("12m99p"))


@pytest.mark.parametrize("n", [0, 1, 3, 4, 13, 15])
def test_other_tile_counts_are_never_complete(n: int) -> None:
    tiles = [t for t in range(9) for _ in range(2)][:n]
    assert not is_complete(tiles)
    assert decompositions(tiles) == []


def test_bad_tiles_raise() -> None:
    with pytest.raises(ScoringError, match="not a tile: 34"):
        is_complete([34, 0])
    with pytest.raises(ScoringError, match="not a tile: -1"):
        decompositions([-1, 0])


# ---------------------------------------------------------------------------------------------------------
# 混子: the wild tile may stand for any tile


def test_a_wild_fills_the_middle_of_a_chow() -> None:
    # 2s is wild; 1p 3p + wild = 123p.
    (d,) = decompositions(P("123m456m789m13p55s2s"), wild=T("2s"))
    assert d.pair == T("5s") and ("chow", T("1p")) in d.sets
    assert d.wilds == (T("2p"),)
    assert not is_complete(P("123m456m789m13p55s2s"))
    assert is_complete(P("123m456m789m13p55s2s"), wild=T("2s"))


def test_a_wild_pairs_with_a_lone_tile() -> None:
    ds = decompositions(P("123m456m789m123p9s1z"), wild=T("东"))
    assert [(d.pair, d.wilds) for d in ds] == [(T("9s"), (T("9s"),))]


def test_three_wilds_stand_for_themselves_as_a_pung() -> None:
    ds = decompositions(P("123m456m789m55p222s"), wild=T("2s"))
    assert any(("pung", T("2s")) in d.sets and d.wilds == (T("2s"),) * 3 for d in ds)


def test_wilds_complete_seven_pairs() -> None:
    (d,) = decompositions(P("11m55m99m44p88p22s7p1z"), wild=T("东"))
    assert d.pair is None and d.wilds == (T("7p"),)
    assert d.pairs == tuple(P("159m478p2s"))
    assert is_complete(P("11m55m99m44p88p22s7p1z"), wild=T("东"))
    assert not is_complete(P("11m55m99m44p88p22s7p1z"), wild=T("东"), seven_pairs=False)


def test_a_wild_may_stand_for_a_fifth_copy_in_any_suit() -> None:
    # docs/rules.md: a wild may stand for any playing tile; the plain check reads 5 copies as 3 + 2 for
    # honours as for suits, so substituting the wild agrees with reading it.
    assert is_complete([0, 1, 2, 3, 3, 3, 29, 29, 29, 29, 30], wild=3, seven_pairs=False)
    assert is_complete_counts(counts34([0, 1, 2, 29, 29, 29, 29, 29, 30, 30, 30]), seven_pairs=False)
    assert is_complete_counts(counts34([9, 10, 11, 0, 0, 0, 0, 0, 8, 8, 8]), seven_pairs=False)


def test_without_a_copy_of_the_wild_tile_nothing_changes() -> None:
    hand = P("123m456m789m13p55s9s")
    assert is_complete(hand, wild=T("北")) is False
    assert decompositions(hand, wild=T("北")) == []


# ---------------------------------------------------------------------------------------------------------
# Brute force, written independently: choose the pair, then any multiset of sets that uses every tile

SET_KINDS: list[tuple[str, int]] = sorted(
    [("pung", t) for t in range(34)] + [("chow", t) for t in range(27) if t % 9 <= 6],
    key=lambda s: (s[1], s[0]),
)


def set_tiles(kind: str, t: int) -> list[int]:
    return [t, t + 1, t + 2] if kind == "chow" else [t, t, t]


def brute_readings(tiles: list[int]) -> set[tuple[int, tuple[tuple[str, int], ...]]]:
    if len(tiles) % 3 != 2:
        return set()
    k = (len(tiles) - 2) // 3
    out: set[tuple[int, tuple[tuple[str, int], ...]]] = set()
    hand = Counter(tiles)
    for pair in sorted(t for t, c in hand.items() if c >= 2):
        rest = hand - Counter({pair: 2})
        candidates = [s for s in SET_KINDS if not Counter(set_tiles(*s)) - rest]
        for combo in combinations_with_replacement(candidates, k):
            used: Counter[int] = Counter()
            for s in combo:
                used.update(set_tiles(*s))
            if used == rest:
                out.add((pair, tuple(combo)))
    return out


def brute_seven_pairs(tiles: list[int]) -> bool:
    return len(tiles) == 14 and all(c % 2 == 0 for c in Counter(tiles).values())


@st.composite
def winning_shapes(draw: st.DrawFn) -> list[int]:
    """k sets and a pair (k = 0..4), copies limited to 4, drawn from a few suits to make overlaps likely."""
    left = [4] * 34
    pool = draw(st.sampled_from([list(range(9)), list(range(18)), list(range(27)), list(range(34))]))
    tiles: list[int] = []
    pair = draw(st.sampled_from(pool))
    left[pair] -= 2
    tiles += [pair, pair]
    for _ in range(draw(st.integers(0, 4))):
        options = [
            s
            for s in SET_KINDS
            if s[1] in pool and all(left[t] >= n for t, n in Counter(set_tiles(*s)).items())
        ]
        kind, t = draw(st.sampled_from(options))
        for x in set_tiles(kind, t):
            left[x] -= 1
        tiles += set_tiles(kind, t)
    return tiles


@st.composite
def any_hands(draw: st.DrawFn) -> list[int]:
    """Winning shapes, the same with one tile changed, and free 3k+2 hands (copies limited to 4)."""
    shape = draw(winning_shapes())
    how = draw(st.sampled_from(["win", "swap", "free"]))
    if how == "swap":
        i = draw(st.integers(0, len(shape) - 1))
        new = draw(st.integers(max(0, shape[i] - 3), min(33, shape[i] + 3)))
        if shape.count(new) < 4:
            shape[i] = new
    elif how == "free":
        n = len(shape)
        hi = draw(st.sampled_from([8, 17, 33]))
        shape = []
        while len(shape) < n:
            t = draw(st.integers(0, hi))
            if shape.count(t) < 4:
                shape.append(t)
    return sorted(shape)


@settings(max_examples=examples(150))
@given(any_hands())
def test_every_reading_agrees_with_brute_force(tiles: list[int]) -> None:
    ds = decompositions(tiles)
    mine = {(d.pair, d.sets) for d in ds if d.pair is not None}
    assert mine == brute_readings(tiles)
    assert len(mine) == len([d for d in ds if d.pair is not None])  # no duplicates
    assert any(d.pair is None for d in ds) == brute_seven_pairs(tiles)
    for d in ds:
        assert d.tiles() == tiles
        assert d.wilds == ()
    complete = bool(mine) or brute_seven_pairs(tiles)
    assert is_complete(tiles) == complete
    assert is_complete_counts(counts34(tiles)) == complete
    assert is_complete(tiles, seven_pairs=False) == bool(mine)


def substitutions_complete(tiles: list[int], wild: int, *, seven_pairs: bool) -> bool:
    """Brute force: try every tile for every copy of the wild tile."""
    real = [t for t in tiles if t != wild]
    w = len(tiles) - len(real)
    return any(
        is_complete_counts(counts34(real + list(subs)), seven_pairs=seven_pairs)
        for subs in combinations_with_replacement(range(34), w)
    )


@st.composite
def wild_hands(draw: st.DrawFn) -> tuple[list[int], int]:
    tiles = draw(any_hands())
    wild = draw(st.sampled_from([*sorted(set(tiles)), draw(st.integers(0, 33))]))
    # Turn a few tiles into copies of the wild tile, keeping the count; at most 3 wilds keeps the brute
    # force (every tile for every wild) quick.
    for _ in range(draw(st.integers(0, 3))):
        i = draw(st.integers(0, len(tiles) - 1))
        if tiles.count(wild) < 3:
            tiles[i] = wild
    assume(tiles.count(wild) <= 3)
    return sorted(tiles), wild


@settings(max_examples=examples(100))
@given(wild_hands(), st.booleans())
def test_wild_completeness_agrees_with_substituting_every_tile(case: tuple[list[int], int], sp: bool) -> None:
    tiles, wild = case
    expected = substitutions_complete(tiles, wild, seven_pairs=sp)
    assert is_complete(tiles, wild=wild, seven_pairs=sp) == expected
    ds = decompositions(tiles, wild=wild, seven_pairs=sp)
    assert bool(ds) == expected
    real = [t for t in tiles if t != wild]
    for d in ds:
        assert len(d.wilds) == len(tiles) - len(real)
        assert d.tiles() == sorted(real + list(d.wilds))
        assert _is_valid(d)


def _is_valid(d: Decomposition) -> bool:
    """The reading really is sets and a pair (or seven pairs) of its own tiles."""
    if d.pair is None:
        return len(d.pairs) == 7 and not d.sets
    return all(kind == "pung" or (t < 27 and t % 9 <= 6) for kind, t in d.sets)


@settings(max_examples=examples(150))
@given(wild_hands(), st.booleans(), st.sampled_from([(), ((27, True),), ((5, True), (28, False))]))
def test_readings_with_equal_facts_show_the_same_patterns(
    case: tuple[list[int], int], wild_on: bool, meld_spec: tuple[tuple[int, bool], ...]
) -> None:
    # The scorer reads only the first reading of each set of facts: every predicate (the extended list
    # included) and the 风暗刻 count must agree on all readings that share them.
    from scoring.decompose import readings as hand_readings
    from scoring.hand import Meld
    from scoring.patterns import NO_FLAGS, PATTERNS, WinContext

    tiles, wild = case
    melds = tuple(Meld("pung", t, exposed) if exposed else Meld("kong", t, False) for t, exposed in meld_spec)
    options = {"extended": True, "menqing_stack": False}
    first: dict[object, tuple[object, ...]] = {}
    for pair, sets, pairs, wilds, facts in hand_readings(tiles, wild=wild if wild_on else None):
        reading = Decomposition(pair, sets, pairs, wilds)
        ctx = WinContext("suzhou", options, "discard", False, melds, (), reading, NO_FLAGS)
        shown = (
            ctx.wind_anke,
            *(
                pid
                for pid, p in PATTERNS.items()
                if p.predicate is not None and not p.on_flags and p.predicate(ctx)
            ),
        )
        assert first.setdefault(facts, shown) == shown


@st.composite
def suit_counts(draw: st.DrawFn) -> tuple[int, tuple[int, ...], int]:
    """One suit's (or the honours') counts, up to 13 real tiles, and up to 3 wilds."""
    base = draw(st.sampled_from([0, 9, 18, 27]))
    n = 9 if base < 27 else 7
    key = [0] * n
    for _ in range(draw(st.integers(0, 13))):
        t = draw(st.integers(0, n - 1))
        if key[t] < 4:
            key[t] += 1
    return base, tuple(key), draw(st.integers(0, 3))


@settings(max_examples=examples(400))
@given(suit_counts())
def test_one_walk_for_every_wait_reads_as_reading_each_wait(case: tuple[int, tuple[int, ...], int]) -> None:
    # /ting walks a suit once with one more tile standing anywhere; each wait t's readings must be the
    # direct read of the counts with t added: the same readings, in the same order; so must the counts
    # alone with w and w + 1 wilds.
    from scoring.suits import plus_one, suit_readings, suit_readings_around

    base, key, w = case
    for distinct in (False, True):
        plus, alone, more = suit_readings_around(base, key, w, distinct)
        for t in range(len(key)):
            if key[t] < 4:
                assert plus[t] == suit_readings(base, plus_one(key, t), w, distinct)
        assert alone == suit_readings(base, key, w, distinct)
        assert more == suit_readings(base, key, w + 1, distinct)


@pytest.mark.slow
@settings(max_examples=examples(400))
@given(suit_counts())
def test_the_scorers_suit_readings_are_the_first_of_each_kind(case: tuple[int, tuple[int, ...], int]) -> None:
    # The scorer reads a suit's readings `distinct`: of those a hand's facts cannot tell apart (its pair,
    # the wilds it takes, a chow, 一条龙, the wind pungs) only the first, in the order of all of them.
    from scoring.suits import kind, suit_readings

    base, key, w = case
    first: dict[object, object] = {}
    for reading in suit_readings(base, key, w):
        first.setdefault(kind(base, reading[0], *reading[2:]), reading)
    assert suit_readings(base, key, w, True) == tuple(first.values())


@settings(max_examples=examples(300))
@given(wild_hands(), st.sampled_from(["E", "S"]))
def test_scoring_the_first_reading_of_each_kind_scores_as_every_reading(
    case: tuple[list[int], int], round_wind: str
) -> None:
    # 宿州 with its 混子: the best score of every reading of the hand (the tile form's answer) is the
    # best of the scorer's own reads, the first reading of each suit's kinds.
    from scoring.decompose import readings as hand_readings
    from scoring.hand import Hand
    from scoring.patterns import NO_FLAGS
    from scoring.rules import is_playing_tile
    from scoring.score import DEFAULT_TABLES, score_hand_ways

    tiles, wild = case
    assume(all(is_playing_tile("suzhou-anhui", t, round_wind) for t in (*tiles, wild)))
    hand = Hand(tuple(tiles), (), (), tiles[0])
    every = hand_readings(tiles, wild=wild)
    assume(every)
    table = DEFAULT_TABLES["suzhou-anhui"]
    ways = ("self_draw", "discard")

    def scored(splits: object) -> object:
        try:
            return score_hand_ways(
                table,
                hand,
                ways,
                flags=NO_FLAGS,
                is_dealer=False,
                wild=wild,
                round_wind=round_wind,
                field="hand",
                splits=splits,
            )  # type: ignore[arg-type]
        except ScoringError as error:
            return str(error)

    assert scored(every) == scored(None)


@settings(max_examples=examples(300))
@given(wild_hands(), st.booleans(), st.booleans())
def test_waits_from_a_whole_hand_are_read_as_each_hand(
    case: tuple[list[int], int], wild_on: bool, sp: bool
) -> None:
    # 13 tiles (drop one of the 14): the waits, and their readings read for all waits at once, are
    # those of each 14-tile hand read alone.
    from scoring.decompose import readings as hand_readings
    from scoring.decompose import wait_readings
    from scoring.waits import completing_tiles

    tiles, wild = case
    concealed = tiles[1:]
    w = wild if wild_on else None
    held = counts34(concealed)
    candidates = [t for t in range(34) if held[t] < 4]
    waits = completing_tiles(concealed, candidates, wild=w, seven_pairs=sp)
    assert waits == [t for t in candidates if is_complete(sorted([*concealed, t]), wild=w, seven_pairs=sp)]
    direct = [hand_readings(sorted([*concealed, t]), wild=w, seven_pairs=sp) for t in waits]
    assert wait_readings(concealed, waits, wild=w, seven_pairs=sp) == direct
