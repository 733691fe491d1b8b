"""听牌: which tiles complete a waiting hand, with melds, seven pairs, four copies in hand and 混子."""

from __future__ import annotations

import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.complete import is_complete
from scoring.errors import ScoringError
from scoring.hand import Meld, parse_hand
from scoring.tiles import parse_tiles, tile_from_name, tile_name
from scoring.waits import waiting_tiles

T = tile_from_name


def waits(text: str, **kw: object) -> str:
    hand = parse_hand(text, tiles=13)
    return " ".join(tile_name(t) for t in waiting_tiles(hand.concealed, hand.melds, **kw))  # type: ignore[arg-type]


def test_nine_gates_waits_on_every_tile_of_its_suit() -> None:
    assert waits("1112345678999m") == "1m 2m 3m 4m 5m 6m 7m 8m 9m"


def test_two_sided_wait() -> None:
    assert waits("123m456m789s23p99s") == "1p 4p"


def test_closed_and_edge_waits() -> None:
    assert waits("123m456m789s13p99s") == "2p"
    assert waits("123m456m789s12p99s") == "3p"


def test_seven_pairs_waits_on_the_lone_tile() -> None:
    assert waits("11m55m99m44p88p22s7p") == "7p"
    assert waits("11m55m99m44p88p22s7p", seven_pairs=False) == ""


def test_single_wait_after_four_melds_is_the_dadiaoche_shape() -> None:
    assert waits("5s [111m] [222p] [3333s] [EEE]") == "5s"


def test_a_tile_whose_four_copies_are_in_the_hand_is_no_wait() -> None:
    # 1111m held: 1m would complete 11123m… but there is no fifth 1m.
    assert waits("1111m23m456p789s5p") == "5p"
    # The kong holds all four 1m, the pung only three.
    assert waits("23m456p789s5p5p [1111m]") == "4m"
    assert waits("23m456p789s5p5p [111m]") == "1m 4m"
    assert waiting_tiles(parse_tiles("2m"), [Meld("kong", T("2m"), False)]) == []


def test_winds_wait_only_as_pair_or_pung() -> None:
    assert waits("123m456m789m11z22z") == "1z 2z"


def test_a_hand_that_is_not_waiting_has_no_waits() -> None:
    assert waits("1m 4m 7m 2p 5p 8p 3s 6s 9s 1z 2z 3z 4z") == ""


def test_a_lone_wild_waits_on_every_tile() -> None:
    # 2s is wild: four sets and the wild, which pairs with whatever comes.
    got = waits("123m456m789m123p2s", wild=T("2s"))
    assert got.split() == [tile_name(t) for t in range(34)]


def test_a_wild_widens_the_wait() -> None:
    # 55p and 1z + the wild: 5p makes 555p with 1z+wild the pair, 1z makes 1z1z+wild, a second 2s both.
    assert waits("123m456m789m55p1z2s", wild=T("2s")) == "5p 2s 1z"
    assert waits("123m456m789m55p1z2s") == ""


def test_candidates_limit_the_tiles_tried() -> None:
    hand = parse_hand("123m456m789m123p2s", tiles=13)
    playing = range(31)  # no dragons: they are flowers in both rule sets
    assert waiting_tiles(hand.concealed, wild=T("2s"), candidates=playing) == list(range(31))


def test_waits_need_3k_plus_1_tiles() -> None:
    with pytest.raises(ScoringError, match="3k\\+1 concealed tiles"):
        waiting_tiles(parse_tiles("11223355778899p"))
    with pytest.raises(ScoringError, match="not a tile"):
        waiting_tiles([40])


@settings(max_examples=examples(150))
@given(st.lists(st.integers(0, 17), min_size=13, max_size=13).filter(lambda ts: max(map(ts.count, ts)) <= 4))
def test_a_wait_completes_the_hand_and_every_other_tile_does_not(tiles: list[int]) -> None:
    got = waiting_tiles(tiles)
    for t in range(34):
        expected = tiles.count(t) < 4 and is_complete([*tiles, t])
        assert (t in got) == expected
