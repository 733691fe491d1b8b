"""Tile shorthand: every way a player may type a tile, canonical rendering, and the errors."""

from __future__ import annotations

import re

import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.errors import ScoringError
from scoring.tiles import (
    DRAGONS,
    EAST,
    FLOWER_NAMES,
    NORTH,
    RED,
    SEAT_WIND,
    SOUTH,
    WEST,
    WHITE,
    WINDS,
    canonical_flower,
    is_wind,
    parse_tiles,
    rank,
    render_tiles,
    suit,
    tile_from_name,
    tile_name,
    tile_name_zh,
    tile_unicode,
)

T = tile_from_name


def test_tile_numbering_follows_the_contract() -> None:
    assert [tile_name(t) for t in (0, 8, 9, 17, 18, 26)] == ["1m", "9m", "1p", "9p", "1s", "9s"]
    assert [tile_name(t) for t in (*WINDS, *DRAGONS)] == ["1z", "2z", "3z", "4z", "5z", "6z", "7z"]
    assert (EAST, SOUTH, WEST, NORTH, WHITE, RED) == (27, 28, 29, 30, 31, 33)
    assert SEAT_WIND == {"E": 27, "S": 28, "W": 29, "N": 30}
    assert (suit(T("5p")), rank(T("5p")), suit(EAST), rank(RED)) == ("p", 5, None, 7)
    assert is_wind(NORTH) and not is_wind(WHITE)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("123m456p789s", "123m456p789s"),
        ("1z2z3z4z5z6z7z", "1234567z"),
        ("E S W N", "1234z"),
        ("ESWN", "1234z"),
        ("一万 九万 1万 123万 一二三萬", "111122339m"),
        ("一筒 二饼 3餅 五筒", "1235p"),
        ("一条 二索 3條", "123s"),
        ("东南西北 東", "11234z"),
        ("东风 南風", "12z"),
        ("🀇🀏 🀙🀡 🀐🀘 🀀🀁🀂🀃", "19m19p19s1234z"),
        ("1m, 2m，3m、4m", "1234m"),
        ("", ""),
    ],
)
def test_every_tile_form_parses(text: str, expected: str) -> None:
    assert render_tiles(parse_tiles(text)) == expected


def test_tiles_keep_the_order_typed() -> None:
    assert parse_tiles("9s 一万 东") == [26, 0, EAST]


def test_each_form_names_the_same_tile() -> None:
    for t in range(27):
        forms = {tile_name(t), tile_name_zh(t), tile_unicode(t)}
        assert {tile_from_name(f) for f in forms} == {t}
    for t in WINDS:
        assert tile_from_name(tile_name_zh(t)) == t == tile_from_name(tile_unicode(t))
    assert [tile_from_name(s) for s in ("E", "S", "W", "N")] == list(WINDS)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1234560m", "unknown tile '0m' at position 7: ranks run 1-9"),
        ("12m 8z", "unknown tile '8z' at position 5: honours run 1z-7z"),
        ("12m 0z", "unknown tile '0z' at position 5"),
        ("〇万", "unknown tile '〇万' at position 1"),
        ("123m 45", "'45' at position 6 has no suit"),
        ("123x", "'123' at position 1 has no suit"),
        ("12m foo", "unknown token 'foo' at position 5"),
        ("12m ☃", "unknown token '☃' at position 5"),
        ("12m 中", "'中' at position 5 is a flower, not a playing tile"),
        ("🀄", "'🀄' at position 1 is a flower"),
        ("12m [3m", "unexpected '[' at position 5"),
    ],
)
def test_bad_tiles_name_the_token_and_its_position(text: str, message: str) -> None:
    with pytest.raises(ScoringError, match="^tiles: .*" + _re(message)):
        parse_tiles(text)


def _re(s: str) -> str:
    return re.escape(s)


def _forms(t: int) -> list[str]:
    return [tile_name(t), tile_name_zh(t), tile_unicode(t)] if t < 31 else [tile_name(t)]


def test_field_name_appears_in_errors() -> None:
    with pytest.raises(ScoringError, match=r"^hand\.concealed: unknown tile '0p' at position 3"):
        parse_tiles("120p", field="hand.concealed")


def test_tile_from_name_wants_exactly_one_tile() -> None:
    with pytest.raises(ScoringError, match="exactly one tile"):
        tile_from_name("12m")
    with pytest.raises(ScoringError, match="exactly one tile"):
        tile_from_name("")


def test_render_sorts_and_groups_by_suit() -> None:
    assert render_tiles(parse_tiles("北 9s 1m 中"[:-1] + "7z 5p 1m")) == "11m5p9s47z"
    with pytest.raises(ScoringError):
        render_tiles([34])


@pytest.mark.parametrize(
    ("name", "canonical"),
    [
        ("中", "中"),
        ("发", "发"),
        ("發", "发"),
        ("白", "白"),
        ("百搭", "百搭"),
        ("春", "春"),
        ("夏", "夏"),
        ("秋", "秋"),
        ("冬", "冬"),
        ("梅", "梅"),
        ("兰", "兰"),
        ("蘭", "兰"),
        ("竹", "竹"),
        ("菊", "菊"),
        ("老鼠", "老鼠"),
        ("财神", "财神"),
        ("財神", "财神"),
        ("猫", "猫"),
        ("貓", "猫"),
        ("聚宝盆", "聚宝盆"),
        ("聚寶盆", "聚宝盆"),
        ("东", "东"),
        ("東", "东"),
        ("南", "南"),
        ("西", "西"),
        ("北", "北"),
        ("5p", None),
        ("龙", None),
        ("", None),
    ],
)
def test_every_flower_by_simplified_or_traditional_name(name: str, canonical: str | None) -> None:
    assert canonical_flower(name) == canonical


def test_flower_names_are_the_sixteen_of_the_rules() -> None:
    assert len(FLOWER_NAMES) == 16
    assert all(canonical_flower(n) == n for n in FLOWER_NAMES)


@settings(max_examples=examples(150))
@given(st.lists(st.integers(0, 33), max_size=20), st.data())
def test_any_form_round_trips_through_render(tiles: list[int], data: st.DataObject) -> None:
    # Dragons have no Chinese or Unicode tile form: those name the flowers 中 发 白.
    forms = [data.draw(st.sampled_from(_forms(t))) for t in tiles]
    sep = data.draw(st.sampled_from(["", " ", ","]))
    assert parse_tiles(sep.join(forms)) == tiles
    assert sorted(parse_tiles(render_tiles(tiles))) == sorted(tiles)


@settings(max_examples=examples(150))
@given(st.text(max_size=30))
def test_arbitrary_text_parses_or_raises_scoring_error(text: str) -> None:
    try:
        tiles = parse_tiles(text)
    except ScoringError as exc:
        assert "position" in str(exc) or "expected" in str(exc)
    else:
        assert all(0 <= t < 34 for t in tiles)
