"""The one-line hand shorthand and the JSON hand object: melds, flowers, the winning tile, validation."""

from __future__ import annotations

import re

import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.complete import is_complete
from scoring.decompose import decompositions
from scoring.errors import ScoringError
from scoring.hand import Hand, Meld, parse_hand, render_hand, render_meld
from scoring.hand_json import hand_from_json, hand_to_json
from scoring.tiles import (
    FLOWER_COPIES,
    FLOWER_NAMES,
    WIND_FLOWERS,
    parse_tiles,
    tile_from_name,
    tile_name,
    tile_name_zh,
    tile_unicode,
)
from scoring.waits import waiting_tiles

T = tile_from_name


def test_a_plain_self_drawn_hand_wins_on_the_last_tile_typed() -> None:
    h = parse_hand("11223355778899p 中发春梅百搭")
    assert h.concealed == tuple(parse_tiles("11223355778899p"))
    assert h.winning_tile == T("9p")
    assert h.melds == ()
    assert h.flowers == ("中", "发", "春", "梅", "百搭")


def test_plus_adds_the_winning_tile() -> None:
    h = parse_hand("123m456m789s123p9p+9p")
    assert len(h.concealed) == 14
    assert h.concealed.count(T("9p")) == 2
    assert h.winning_tile == T("9p")
    # The marked tile need not be typed last.
    assert parse_hand("+9s 123m456m789p78s55p").winning_tile == T("9s")


def test_melds_in_brackets() -> None:
    h = parse_hand("123m9p+9p [555p] (7777m) [3333z]")
    assert h.melds == (
        Meld("pung", T("5p"), exposed=True),
        Meld("kong", T("7m"), exposed=False),
        Meld("kong", T("西"), exposed=True),
    )
    assert h.concealed == tuple(parse_tiles("123m99p"))


def test_meld_qualifiers_say_which_kong_and_from_whom() -> None:
    h = parse_hand("123m456m9p+9p [555p:N] [7777s:added:W] ")
    assert h.melds == (Meld("pung", T("5p"), True, None, "N"), Meld("kong", T("7s"), True, "added", "W"))
    chinese = parse_hand("123m456m9p+9p 【五筒五筒五筒：北】 [🀖🀖🀖🀖:补:西]")
    assert chinese == h
    assert parse_hand("1m+1m [2222m:直:东] [333m] [4444m] [555m]").melds[0] == Meld(
        "kong", T("2m"), True, "direct", "E"
    )


def test_melds_may_sit_anywhere_among_the_tiles() -> None:
    a = parse_hand("[555p] 123m [777s] 456m 9p+9p")
    b = parse_hand("123m456m9p+9p [555p] [777s]")
    assert a == b


def test_flowers_by_name_glyph_and_traditional_form() -> None:
    h = parse_hand("123m456m789s123p9p+9p 發蘭財神貓聚寶盆🀄🀦")
    assert h.flowers == ("发", "兰", "财神", "猫", "聚宝盆", "中", "春")


def test_winds_after_the_first_flower_are_the_lingfeng_flowers() -> None:
    h = parse_hand("123m456m789s123p9p+9p 中东東")
    assert h.flowers == ("中", "东", "东")
    only_winds = parse_hand("123m456m789s123p9p+9p | 东南🀂")
    assert only_winds.flowers == ("东", "南", "西")
    # Without a flower name or '|', 东 is a tile: 15 tiles here.
    with pytest.raises(ScoringError, match="wrong tile count"):
        parse_hand("123m456m789s123p9p+9p 东")


def test_waiting_hand_has_thirteen_tiles_and_no_winning_tile() -> None:
    h = parse_hand("1122335577889p 春", tiles=13)
    assert len(h.concealed) == 13 and h.winning_tile is None
    assert render_hand(h) == "1122335577889p 春"
    assert parse_hand(render_hand(h), tiles=13) == h
    with pytest.raises(ScoringError, match="no winning tile"):
        parse_hand("112233557788p+9p", tiles=13)


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("9p 123m 456m 789s 123p 9p", "123456m1239p789s+9p"),
        ("123m456m789s99p [555p] 中春菊", "123456m9p789s+9p [555p] 中春菊"),
        ("(EEEE) 123m 456m 78s 99p 9s", "123456m99p78s+9s (1111z)"),
        ("一二三万 四五六万 七八九万 东东 南南+南", "123456789m1122z+2z"),
        (
            "1m+1m [2222p:added:S] [3333s:direct] (4444m) [555m]",
            "1m+1m [2222p:added:S] [3333s:direct] (4444m) [555m]",
        ),
        ("123m456m789s123p9p+9p | 东中", "123456m1239p789s+9p | 东中"),
    ],
)
def test_render_is_canonical(text: str, canonical: str) -> None:
    h = parse_hand(text)
    assert render_hand(h) == canonical
    assert parse_hand(canonical) == h


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("123m456m789s990p", "unknown tile '0p' at position 15: ranks run 1-9"),
        ("123m456m789s99p9x", "'9' at position 16 has no suit"),
        ("123m456m789s99p 龙", "unknown token '龙' at position 17"),
        ("11111m456m789s999p", "5 copies of 1m"),
        ("1m456m789s999p+1m [1111m]", "6 copies of 1m"),
        ("123m456m789s99p", "wrong tile count: 11 concealed + 0 meld(s) × 3 = 11, expected 14"),
        ("123m456m789s99p [5555p] [6666p]", "= 17, expected 14 (a kong counts as 3)"),
        ("123m456m789s99p+9p [555p", "malformed meld: '[' at position 20 is not closed"),
        ("123m456m789s99p+9p 555p]", "malformed meld: ']' at position 24 closes nothing"),
        ("123m456m789s99p+9p [555p)", "malformed meld: '[' at position 20 is not closed"),
        ("123m456m9p+9p [55p] [777s]", "malformed meld '55p': a meld is 3 (碰) or 4 (杠) equal tiles"),
        ("123m456m9p+9p [556p] [777s]", "malformed meld '556p'"),
        ("123m456m9p+9p [] [777s]", "malformed meld 'nothing'"),
        ("123m456m9p+9p (555p) [777s]", "'555p' is a concealed pung, not a meld"),
        ("123m456m9p+9p [555p:added] [777s]", "'added' applies only to an exposed kong"),
        ("123m456m9p+9p (5555p:N) [777s]", "a concealed kong comes from no other seat"),
        ("123m456m9p+9p [555p:X] [777s]", "unknown qualifier 'X' at position 21"),
        ("123m456m9p+9p [中中中] [777s]", "is a flower, not a playing tile"),
        ("123m456m789s99p 春 9p", "tile '9p' at position 19 comes after the flowers"),
        ("123m456m789s9p 春 [999p]", "meld at position 18 comes after the flowers"),
        ("123m456m789s99p+", "'+' at position 16 must be followed by a tile"),
        ("123m456m789s9p+ [999p]", "'+' at position 15 must be followed by a tile"),
        ("123m456m789s9p+9p+9p", "a second winning-tile marker '+' at position 18"),
        ("123m456m789s123p9p+9p 春春", "too many 春: the set has 1 copy"),
        ("123m456m789s123p9p+9p 中中中中中", "too many 中: the set has 4 copies"),
        ("", "no tiles"),
        ("11223355778899p?", "unexpected '?' at position 16 (only '+?' means it)"),
        ("11223355778899p+?+?", "a second winning-tile marker '+' at position 18"),
    ],
)
def test_bad_hands_say_what_is_wrong_and_where(text: str, message: str) -> None:
    with pytest.raises(ScoringError, match=re.escape(message)):
        parse_hand(text)


def test_every_message_starts_with_the_field() -> None:
    with pytest.raises(ScoringError, match=r"^wins\[0\]\.hand: "):
        parse_hand("123m", field="wins[0].hand")


# ---------------------------------------------------------------------------------------------------------
# The JSON hand object of docs/rules.md §4


def test_json_hand_with_every_kind_of_meld() -> None:
    h = hand_from_json(
        {
            "concealed": "123m99p",
            "winning_tile": "9p",
            "melds": [
                {"type": "pung", "tiles": "555p", "exposed": True, "from": "N"},
                {"type": "kong", "tiles": "7777m", "exposed": False},
                {"type": "kong", "tiles": "3333z", "exposed": True, "kind": "direct", "from": "S"},
            ],
            "flowers": ["中", "春", "菊"],
        }
    )
    assert h == parse_hand("123m9p+9p [555p:N] (7777m) [3333z:direct:S] 中春菊")


def test_json_hand_without_winning_tile_is_allowed_for_heavenly_hands() -> None:
    h = hand_from_json({"concealed": "11223355778899p", "flowers": ["中"]})
    assert h.winning_tile is None
    assert render_hand(h) == "11223355778899p+? 中"
    assert parse_hand("11223355778899p +? 中") == h
    assert parse_hand("(1111m) 22335577999p+？") == Hand(
        tuple(parse_tiles("22335577999p")), (Meld("kong", 0, False),), (), None
    )


def test_json_flowers_accept_traditional_and_run_together_names() -> None:
    h = hand_from_json({"concealed": "11223355778899p", "winning_tile": "9p", "flowers": ["發", "春梅百搭"]})
    assert h.flowers == ("发", "春", "梅", "百搭")


@pytest.mark.parametrize(
    ("obj", "message"),
    [
        ("123m", "hand: expected an object"),
        ({"concealed": 123}, "hand.concealed: expected a string of tiles"),
        ({"concealed": "123m456m789s990p"}, "hand.concealed: unknown tile '0p' at position 15"),
        (
            {
                "concealed": "123m456m789s99p",
                "winning_tile": "5s",
                "melds": [{"type": "pung", "tiles": "555p"}],
            },
            "winning tile 5s is not among the concealed tiles",
        ),
        (
            {"concealed": "123m456m789s99p", "winning_tile": "99p"},
            "hand.winning_tile: expected exactly one tile",
        ),
        (
            {"concealed": "123m456m789s99p", "melds": [{"type": "kong", "tiles": "555p"}]},
            "hand.melds[0]: type 'kong' but 3 tiles",
        ),
        (
            {"concealed": "123m456m789s99p", "melds": [{"type": "chow", "tiles": "555p"}]},
            "hand.melds[0].type: expected 'pung' or 'kong'",
        ),
        (
            {"concealed": "123m456m789s99p", "melds": [{"type": "pung", "tiles": "555p", "from": "X"}]},
            "hand.melds[0]: unknown seat 'X'",
        ),
        (
            {"concealed": "123m456m789s99p", "melds": [{"type": "kong", "tiles": "5555p", "kind": "twice"}]},
            "hand.melds[0]: unknown kong kind 'twice'",
        ),
        ({"concealed": "123m456m789s99p", "melds": "555p"}, "hand.melds: expected a list"),
        ({"concealed": "11223355778899p", "flowers": ["龙"]}, "hand.flowers: unknown flower '龙'"),
        ({"concealed": "11223355778899p", "flowers": "中"}, "hand.flowers: expected a list"),
        ({"concealed": "11223355778899p", "tiles": "x"}, "hand: unknown key 'tiles'"),
        (
            {"concealed": "123m456m789s99p", "melds": [{"type": "pung", "tiles": "555p", "exposed": "yes"}]},
            "hand.melds[0].exposed: expected true or false",
        ),
    ],
)
def test_bad_json_hands(obj: object, message: str) -> None:
    with pytest.raises(ScoringError, match=re.escape(message)):
        hand_from_json(obj)


# ---------------------------------------------------------------------------------------------------------
# Properties: any legal hand renders and parses back; any way of typing it parses to it; it never raises

SEAT_WORDS = {"E": ["E", "东"], "S": ["S", "南"], "W": ["W", "西"], "N": ["N", "北"]}
KONG_WORDS = {"direct": ["direct", "直"], "added": ["added", "补"]}
FLOWER_FORMS = {
    "中": ["中", "🀄", "红中"],
    "发": ["发", "發", "🀅"],
    "白": ["白", "🀆"],
    "百搭": ["百搭", "🀪"],
    "春": ["春", "🀦"],
    "兰": ["兰", "蘭", "🀣"],
    "财神": ["财神", "財神"],
    "猫": ["猫", "貓"],
    "聚宝盆": ["聚宝盆", "聚寶盆"],
    "东": ["东", "東", "🀀", "E", "1z"],
    "南": ["南", "🀁", "S"],
}


@st.composite
def legal_hands(draw: st.DrawFn, tiles: int = 14) -> Hand:
    left = [4] * 34
    melds: list[Meld] = []
    for _ in range(draw(st.integers(0, 4))):
        t = draw(st.sampled_from([t for t in range(34) if left[t] >= 3]))
        exposed = draw(st.booleans())
        kind = draw(st.sampled_from(["pung", "kong"] if exposed and left[t] >= 3 else ["kong"]))
        if kind == "kong" and left[t] < 4:
            kind = "pung"
            exposed = True
        kong_kind = draw(st.sampled_from([None, "direct", "added"])) if kind == "kong" and exposed else None
        source = draw(st.sampled_from([None, "E", "S", "W", "N"])) if exposed else None
        melds.append(Meld(kind, t, exposed, kong_kind, source))  # type: ignore[arg-type]
        left[t] -= 3 if kind == "pung" else 4
    concealed = []
    for _ in range(tiles - 3 * len(melds)):
        t = draw(st.sampled_from([t for t in range(34) if left[t] > 0]))
        left[t] -= 1
        concealed.append(t)
    winning = draw(st.sampled_from([*concealed, None])) if tiles == 14 else None
    flowers: list[str] = []
    for _ in range(draw(st.integers(0, 8))):
        name = draw(st.sampled_from([*FLOWER_NAMES, *WIND_FLOWERS]))
        if flowers.count(name) < FLOWER_COPIES[name]:
            flowers.append(name)
    return Hand(tuple(sorted(concealed)), tuple(melds), tuple(flowers), winning)


@settings(max_examples=examples(150))
@given(legal_hands())
def test_render_then_parse_gives_the_same_hand(hand: Hand) -> None:
    assert parse_hand(render_hand(hand)) == hand


@settings(max_examples=examples(50))
@given(legal_hands(tiles=13))
def test_waiting_hands_round_trip_too(hand: Hand) -> None:
    assert parse_hand(render_hand(hand), tiles=13) == hand
    assert hand_from_json(hand_to_json(hand), tiles=13) == hand
    waits = waiting_tiles(hand.concealed, hand.melds)  # a legal waiting hand never raises
    assert all(is_complete([*hand.concealed, t]) for t in waits)


@settings(max_examples=examples(100))
@given(legal_hands(), st.sampled_from([None, *range(34)]))
def test_a_legal_hand_never_raises(hand: Hand, wild: int | None) -> None:
    assert hand_from_json(hand_to_json(hand)) == hand
    readings = decompositions(hand.concealed, wild=wild)
    assert bool(readings) == is_complete(hand.concealed, wild=wild)


def _tile_form(draw: st.DrawFn, t: int) -> str:
    forms = [tile_name(t), tile_name_zh(t), tile_unicode(t)] if t < 31 else [tile_name(t)]
    return draw(st.sampled_from(forms))


@settings(max_examples=examples(80))
@given(legal_hands(), st.data())
def test_any_way_of_typing_a_legal_hand_parses_to_it(hand: Hand, data: st.DataObject) -> None:
    draw = data.draw
    rest = list(hand.concealed)
    if hand.winning_tile is not None:
        rest.remove(hand.winning_tile)
    rest = draw(st.permutations(rest))
    sep = draw(st.sampled_from(["", " "]))
    pieces = [_tile_form(draw, t) for t in rest]
    marked = hand.winning_tile is None or draw(st.booleans())
    if hand.winning_tile is None:
        pieces.insert(draw(st.integers(0, len(pieces))), "+?")
    elif marked:
        pieces.insert(draw(st.integers(0, len(pieces))), "+" + _tile_form(draw, hand.winning_tile))
    else:
        pieces.append(_tile_form(draw, hand.winning_tile))
    # Melds go anywhere before the last concealed tile when it is the (unmarked) winning tile, in order.
    slots = sorted(draw(st.integers(0, len(pieces) - (0 if marked else 1))) for _ in hand.melds)
    for k, (meld, at) in enumerate(zip(hand.melds, slots, strict=True)):
        body = "".join(_tile_form(draw, meld.tile) for _ in range(meld.size))
        quals = []
        if meld.kong_kind:
            quals.append(draw(st.sampled_from(KONG_WORDS[meld.kong_kind])))
        if meld.source:
            quals.append(draw(st.sampled_from(SEAT_WORDS[meld.source])))
        quals = draw(st.permutations(quals))
        text = body + "".join(":" + q for q in quals)
        pieces.insert(at + k, f"[{text}]" if meld.exposed else f"({text})")
    text = sep.join(pieces)
    if hand.flowers:
        forms = [draw(st.sampled_from(FLOWER_FORMS.get(f, [f]))) for f in hand.flowers]
        text += " " + ("| " if hand.flowers[0] in WIND_FLOWERS else "") + "".join(forms)
    assert parse_hand(text) == hand, text


def test_render_meld_forms() -> None:
    assert render_meld(Meld("pung", T("5p"), True)) == "[555p]"
    assert render_meld(Meld("kong", T("7s"), False)) == "(7777s)"
    assert render_meld(Meld("kong", T("北"), True, "direct", "W")) == "[4444z:direct:W]"
