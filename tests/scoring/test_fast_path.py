"""The one-pass reader of the common request shape agrees with the full reader, on valid and broken input."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import score_request
from scoring.decompose import plain_decompositions, plain_shape_facts, reading_facts
from scoring.errors import ScoringError
from scoring.request import _parse_common, _parse_full, score_parsed
from scoring.tiles import tile_name

SEATS = ["E", "S", "W", "N"]
SUZHOU_FLOWERS = [
    "中",
    "发",
    "白",
    "百搭",
    "春",
    "夏",
    "秋",
    "冬",
    "梅",
    "兰",
    "竹",
    "菊",
    "老鼠",
    "财神",
    "猫",
    "聚宝盆",
]
ANHUI_FLOWERS = ["中", "发", "白", "春", "夏", "秋", "冬", "梅", "兰", "竹", "菊", "东", "南", "西", "北"]
PLAYING = list(range(31))
# Values that a broken request may carry in any field.
ODD_VALUES = [
    None,
    True,
    False,
    0,
    1,
    -1,
    2.0,
    "",
    " ",
    "E",
    "e",
    "东",
    "X",
    "5z",
    "1m",
    "win",
    "draw",
    "suzhou",
    "苏州",
    [],
    {},
    ["中"],
    {"a": 1},
]


POOLS = [
    PLAYING,
    PLAYING,
    list(range(9)),
    list(range(9, 18)),
    [*range(18, 27), 27, 28, 29, 30],
    [*range(9), 28, 30],
    [27, 28, 29, 30, 4, 13, 22],
]
"""Tiles a hand is drawn from: any, one suit (清一色), one suit and winds (混一色), wind-heavy."""


@st.composite
def winning_tiles(draw: st.DrawFn) -> list[int]:
    """Four sets and a pair, or seven pairs, of 万筒条 and winds; at most 4 copies of a tile."""
    pool = draw(st.sampled_from(POOLS))
    if draw(st.integers(0, 6)) == 0 and len(pool) >= 7:
        pairs = draw(st.lists(st.sampled_from(pool), min_size=7, max_size=7, unique=True))
        return sorted(pairs * 2)
    starts = [t for t in pool if t < 27 and t % 9 <= 6 and t + 2 in pool]
    while True:
        counts = [0] * 34
        tiles = [draw(st.sampled_from(pool))] * 2
        for _ in range(4):
            tile = draw(st.sampled_from(pool))
            if starts and draw(st.booleans()):
                start = draw(st.sampled_from(starts))
                tiles += [start, start + 1, start + 2]
            else:
                tiles += [tile] * 3
        for t in tiles:
            counts[t] += 1
        if max(counts) <= 4:
            return sorted(tiles)


@st.composite
def common_requests(draw: st.DrawFn) -> dict[str, Any]:
    """A request of the common shape: one hand-object win, default options, plain ASCII tiles."""
    rules = draw(st.sampled_from(["suzhou", "suzhou", "suzhou-anhui"]))
    tiles = (
        draw(winning_tiles())
        if draw(st.integers(0, 4))
        else sorted(draw(st.lists(st.sampled_from(PLAYING), min_size=14, max_size=14)))
    )
    winner, discarder = draw(st.permutations(SEATS))[:2]
    self_draw = draw(st.booleans())
    pool = SUZHOU_FLOWERS if rules == "suzhou" else ANHUI_FLOWERS
    hand = {
        "concealed": "".join(tile_name(t) for t in tiles),
        "winning_tile": tile_name(draw(st.sampled_from(tiles))),
        "flowers": draw(st.lists(st.sampled_from(pool), max_size=6, unique=True)),
    }
    if draw(st.booleans()):
        hand["concealed"] = (
            _render_grouped(tiles) if draw(st.booleans()) else " ".join(tile_name(t) for t in tiles)
        )
    request: dict[str, Any] = {
        "rules": rules,
        "wins": [{"winner": winner, "type": "self_draw" if self_draw else "discard", "hand": hand}],
    }
    for key, values in (
        ("stake", st.integers(1, 20)),
        ("dealer", st.sampled_from(SEATS)),
        ("round_wind", st.sampled_from(SEATS)),
        ("event", st.just("win")),
    ):
        if draw(st.booleans()):
            request[key] = draw(values)
    if not self_draw:
        request["discarder"] = discarder
    if draw(st.booleans()):  # key order must not matter
        request = dict(reversed(list(request.items())))
    return request


def _render_grouped(tiles: list[int]) -> str:
    out, last = "", ""
    for t in tiles:
        name = tile_name(t)
        if last and last != name[1]:
            out += last
        out += name[0]
        last = name[1]
    return out + last


def _win0(req: dict[str, Any]) -> dict[str, Any] | None:
    wins = req.get("wins")
    return wins[0] if isinstance(wins, list) and wins and isinstance(wins[0], dict) else None


def _hand0(req: dict[str, Any]) -> dict[str, Any] | None:
    win = _win0(req)
    hand = None if win is None else win.get("hand")
    return hand if isinstance(hand, dict) else None


def _value(specific: list[Any]) -> st.SearchStrategy[Any]:
    """Half the time a value meant for the field, else any odd value."""
    return (
        st.one_of(st.sampled_from(specific), st.sampled_from(ODD_VALUES))
        if specific
        else st.sampled_from(ODD_VALUES)
    )


# Mutations: each takes the request and a draw function and breaks or bends one thing in place.
def _set_top(key: str) -> Any:
    def mutate(req: dict[str, Any], draw: st.DrawFn) -> None:
        req[key] = draw(_value(_TOP_EXTRA[key]))

    return mutate


_TOP_EXTRA: dict[str, list[Any]] = {
    "rules": ["suzhou-anhui", "宿州", "SUZHOU", "suzhou "],
    "stake": [0, -1, 1, 3, 10**6, True, 1.5, "2"],
    "dealer": [*SEATS, "s", "南", " W"],
    "round_wind": [*SEATS, "n", "北", "W "],
    "discarder": [*SEATS, "w", "西"],
    "event": ["escape", "Win"],
    "options": [{}, {"threshold": "2/3"}, {"extended": True}, {"multi_win": False}, {"bad": 1}],
    "baozi": [True, False],
    "diling": [True, False],
    "streak": [0, 2, -1],
    "hand_number": [1, 5, 0],
    "first_dealer": SEATS,
    "escaper": SEATS,
}


def _set_win(key: str) -> Any:
    extra: dict[str, list[Any]] = {
        "winner": [*SEATS, "s", "北"],
        "type": ["self_draw", "discard", "rob_kong", "Discard"],
        "flags": [
            {},
            {"after_kong": True},
            {"last_tile": True},
            {"after_flower": True},
            {"bad": 1},
            {"heavenly": True},
            {"shangpai": True},
        ],
        "wild": ["2p", "5z", "1z", "bad"],
        "declared": [{"hard_flowers": 3}],
    }

    def mutate(req: dict[str, Any], draw: st.DrawFn) -> None:
        win = _win0(req)
        if win is not None:
            win[key] = draw(_value(extra.get(key, [])))

    return mutate


def _set_hand(key: str) -> Any:
    extra: dict[str, list[Any]] = {
        "concealed": [
            "123m456p789s11z22z",
            "123m456p789s11z2z",
            "1111m123p456s789s1z",
            "11122233344455m",
            "11111m234p456s11z",
            "123m456p789s11z5z",
            "123m456p789s11z8z",
            "0123m456p789s11z",
            "123M456P789S11Z",
            "123m456p789s11zz",
            "一二三万456p789s11z",
            "123m456p789s1z1z",
            "123m456p789s11z\n",
            "123m456p789s 11z",
            "123m456p789s[11z]",
        ],
        "winning_tile": ["1m", "9s", "1z", "4z", "5z", "8z", "0m", "E", "东", "一万", "1m2m", " 1m", "1M"],
        "flowers": [
            ["中", "中"],
            ["春", "春"],
            ["中"] * 5,
            ["發"],
            ["东"],
            ["南"],
            ["百搭"],
            ["老鼠"],
            ["bad"],
            [1],
            [["中"]],
            "中",
            ["中", "发", "白", "春", "夏", "秋", "冬", "梅"],
            None,
            [],
        ],
        "melds": [[], [{"type": "pung", "tiles": "555p", "exposed": True}]],
    }

    def mutate(req: dict[str, Any], draw: st.DrawFn) -> None:
        hand = _hand0(req)
        if hand is not None:
            hand[key] = draw(_value(extra[key]))

    return mutate


def _drop(path: tuple[str, ...]) -> Any:
    def mutate(req: dict[str, Any], draw: st.DrawFn) -> None:
        obj: Any = req
        for step in path[:-1]:
            obj = obj.get(step) if isinstance(obj, dict) else None
            if isinstance(obj, list):
                obj = obj[0] if obj else None
        if isinstance(obj, dict):
            obj.pop(path[-1], None)

    return mutate


def _tile_edit(req: dict[str, Any], draw: st.DrawFn) -> None:
    """Add, drop or change tiles of the concealed string (wrong counts, fifth copies, dragons)."""
    hand = _hand0(req)
    text = None if hand is None else hand.get("concealed")
    if hand is None or not isinstance(text, str) or " " in text or len(text) != 28:
        return
    names = [text[i : i + 2] for i in range(0, len(text), 2)]
    how = draw(st.sampled_from(["add", "drop", "change", "copy"]))
    any_tile = st.sampled_from([tile_name(t) for t in range(34)])
    if how == "add":
        names.append(draw(any_tile))
    elif how == "drop":
        names.pop(draw(st.integers(0, len(names) - 1)))
    elif how == "change":
        names[draw(st.integers(0, len(names) - 1))] = draw(any_tile)
    else:  # the same tile over and over: a fifth copy
        names = [names[0]] * 5 + names[5:]
    hand["concealed"] = "".join(names)


def _flower_copies(req: dict[str, Any], draw: st.DrawFn) -> None:
    """Repeat a flower: fine for 中 (four copies), too many for 春 or for five 中."""
    hand = _hand0(req)
    flowers = None if hand is None else hand.get("flowers")
    if hand is not None and isinstance(flowers, list):
        name = draw(st.sampled_from([*flowers, "春", "中", "东", "百搭"]))
        hand["flowers"] = flowers + [name] * draw(st.integers(1, 5))


def _wins_shape(req: dict[str, Any], draw: st.DrawFn) -> None:
    wins = req.get("wins")
    win = _win0(req)
    hand = _hand0(req)
    if not isinstance(wins, list) or win is None:
        return
    how = draw(st.sampled_from(["empty", "twice", "not_list", "not_dict", "hand_string", "hand_list"]))
    if how == "empty":
        req["wins"] = []
    elif how == "twice":
        second = copy.deepcopy(wins[0])
        second["winner"] = draw(st.sampled_from(SEATS))
        wins.append(second)
    elif how == "not_list":
        req["wins"] = tuple(wins)
    elif how == "not_dict":
        wins[0] = list(win.items())
    elif how == "hand_string":
        if hand is not None:
            win["hand"] = hand.get("concealed")
    else:
        win["hand"] = [win.get("hand")]


def _extra_key(req: dict[str, Any], draw: st.DrawFn) -> None:
    where = draw(st.sampled_from(["top", "win", "hand"]))
    target = req if where == "top" else _win0(req) if where == "win" else _hand0(req)
    if target is not None:
        key = draw(st.sampled_from(["bogus", "Rules", "flags", "melds", "wild", "options", "streak"]))
        target[key] = None


def _seat_spelling(req: dict[str, Any], draw: st.DrawFn) -> None:
    """Another spelling of a seat (the full reader accepts some: lower case, Chinese, spaces)."""
    spelling = draw(st.sampled_from(["e", "s", "w", "n", "东", "南", "西", "北", "東", " E", "S ", "X", ""]))
    where = draw(st.sampled_from(["dealer", "round_wind", "discarder", "winner", "first_dealer"]))
    win = _win0(req)
    if where != "winner":
        req[where] = spelling
    elif win is not None:
        win["winner"] = spelling


# Kinds of mutation, each drawn as often as the others; a kind is a list of mutations.
MUTATIONS = [
    [_set_top(key) for key in _TOP_EXTRA],
    [_set_win(key) for key in ("winner", "type", "flags", "wild", "declared", "hand")],
    [_set_hand(key) for key in ("concealed", "winning_tile", "flowers", "melds")],
    [
        _drop(path)
        for path in (
            ("rules",),
            ("wins",),
            ("discarder",),
            ("wins", "winner"),
            ("wins", "type"),
            ("wins", "hand"),
            ("wins", "hand", "concealed"),
            ("wins", "hand", "winning_tile"),
            ("wins", "hand", "flowers"),
        )
    ],
    [_tile_edit],
    [_flower_copies],
    [_seat_spelling],
    [_wins_shape],
    [_extra_key],
]


@st.composite
def near_common_requests(draw: st.DrawFn) -> dict[str, Any]:
    """A common-shape request, as is (a third of the time) or with one to three things broken or bent."""
    request = draw(common_requests())
    if draw(st.integers(0, 2)):
        for _ in range(draw(st.integers(1, 3))):
            draw(st.sampled_from(draw(st.sampled_from(MUTATIONS))))(request, draw)
    return request


def _outcome(call: Any, request: Any) -> tuple[str, Any]:
    try:
        return "ok", call(request)
    except ScoringError as error:
        return "error", str(error)


def _full_only(request: Any) -> dict[str, Any]:
    """score_request with the common-shape reader bypassed."""
    return score_parsed(_parse_full(request))


@settings(max_examples=200, deadline=None)
@given(near_common_requests())
def test_fast_reader_agrees_with_full_reader(request: dict[str, Any]) -> None:
    before = copy.deepcopy(request)
    fast = _parse_common(request)
    assert request == before  # the fast reader never changes its input
    full = _outcome(_parse_full, request)
    if fast is not None:
        assert full == ("ok", fast)
    assert _outcome(score_request, request) == _outcome(_full_only, request)
    assert request == before


@settings(max_examples=100, deadline=None)
@given(common_requests())
def test_common_shape_takes_the_fast_path(request: dict[str, Any]) -> None:
    # Every valid 苏州 common-shape request (a complete or an incomplete hand) is read by the fast reader
    # (宿州 hands holding a wind above the 令风 may go the full way); the full reader then agrees with it.
    fast = _parse_common(request)
    if fast is None:
        assert request["rules"] == "suzhou-anhui" or _outcome(_parse_full, request)[0] == "error"
    else:
        assert _parse_full(request) == fast


BASES: list[dict[str, Any]] = [
    {
        "rules": "suzhou",
        "stake": 2,
        "dealer": "E",
        "event": "win",
        "wins": [
            {
                "winner": "S",
                "type": "self_draw",
                "hand": {
                    "concealed": "123m456p789s111z22z",
                    "winning_tile": "2z",
                    "flowers": ["中", "春", "梅"],
                },
            }
        ],
    },
    {
        "rules": "suzhou",
        "dealer": "S",
        "round_wind": "W",
        "discarder": "W",
        "wins": [
            {
                "winner": "N",
                "type": "discard",
                "hand": {
                    "concealed": "11223355778899p",
                    "winning_tile": "9p",
                    "flowers": ["中", "发", "白", "百搭", "老鼠"],
                },
            }
        ],
    },
    {
        "rules": "suzhou-anhui",
        "round_wind": "S",
        "discarder": "E",
        "wins": [
            {
                "winner": "W",
                "type": "discard",
                "hand": {"concealed": "111222333m456s11z", "winning_tile": "1z", "flowers": ["南", "春"]},
            }
        ],
    },
    {
        "rules": "suzhou-anhui",
        "dealer": "N",
        "stake": 3,
        "wins": [
            {
                "winner": "N",
                "type": "self_draw",
                "hand": {"concealed": "234m234m789p33999s", "winning_tile": "3s", "flowers": []},
            }
        ],
    },
]
# (path, values): every value is tried alone at the path of every base request; "-" deletes the key.
SINGLE_CHANGES: list[tuple[tuple[Any, ...], list[Any]]] = [
    (("rules",), ["suzhou", "suzhou-anhui", "苏州", "宿州", "SUZHOU", "bad", None, 1, "-"]),
    (("stake",), [0, -1, 1, 7, 10**6, True, False, 1.5, "2", None, "-"]),
    (("dealer",), ["E", "S", "W", "N", "e", "南", " W", "X", "", None, 1, "-"]),
    (("round_wind",), ["E", "S", "W", "N", "s", "北", "N ", "X", None, 0, "-"]),
    (("discarder",), ["E", "S", "W", "N", "w", "西", " E", "X", None, 2, "-"]),
    (("event",), ["win", "draw", "escape", "Win", None, 1, "-"]),
    (("escaper",), ["E", None]),
    (
        ("options",),
        [None, {}, {"threshold": "2/3"}, {"extended": True}, {"multi_win": False}, {"bad": 1}, []],
    ),
    (("baozi",), [None, False, True, 1]),
    (("diling",), [None, False, True]),
    (("streak",), [None, 0, 3, -1]),
    (("hand_number",), [None, 1, 4, 0]),
    (("first_dealer",), [None, "E", "N", "x"]),
    (("bogus",), [None, 1]),
    (("wins",), [[], None, "x", {}, "-"]),
    (("wins", 0), [None, "x", [], "-"]),
    (("wins", 0, "winner"), ["E", "S", "W", "N", "s", "北", " N", "X", None, 3, "-"]),
    (("wins", 0, "type"), ["self_draw", "discard", "rob_kong", "Discard", None, "-"]),
    (
        ("wins", 0, "flags"),
        [
            None,
            {},
            {"after_kong": True},
            {"after_flower": True},
            {"last_tile": True},
            {"heavenly": True},
            {"earthly": True},
            {"shangpai": True},
            {"kong_fed_by": "E"},
            {"bad": 1},
            [],
        ],
    ),
    (("wins", 0, "wild"), [None, "2p", "5z", "1z", "x", 3]),
    (("wins", 0, "declared"), [None, {"hard_flowers": 3}, {}]),
    (("wins", 0, "bogus"), [None, 1]),
    (("wins", 0, "hand"), [None, "123m456p789s111z22z", "11223355778899p 中发白", [], "-"]),
    (
        ("wins", 0, "hand", "concealed"),
        [
            "123m456p789s111z2z",
            "123m456p789s111z222z",
            "1111m123p456s789s1z",
            "11111m234p456s111z",
            "123m456p789s111z55z",
            "123m456p789s111z88z",
            "0123m456p789s111z",
            "123M456P789S111Z22Z",
            "一二三万456p789s111z22z",
            "123m456p789s 111z 22z",
            "123m456p789s[111z]22z",
            "1m2m3m4p5p6p7s8s9s1z1z1z2z2z",
            "123m456p789s111z22z\n",
            "EEE123m456p789sSS",
            "🀇🀈🀉456p789s111z22z",
            "",
            None,
            1,
            ["1m"],
            "-",
        ],
    ),
    (
        ("wins", 0, "hand", "winning_tile"),
        [
            "1m",
            "9s",
            "1z",
            "2z",
            "4z",
            "5z",
            "8z",
            "0m",
            "E",
            "南",
            "一万",
            "1m2m",
            " 1m",
            "1M",
            "",
            None,
            5,
            [],
            "-",
        ],
    ),
    (
        ("wins", 0, "hand", "flowers"),
        [
            [],
            None,
            ["中", "中"],
            ["春", "春"],
            ["中"] * 5,
            ["發"],
            ["东"],
            ["南"],
            ["西"],
            ["百搭"],
            ["老鼠"],
            ["bad"],
            [1],
            [["中"]],
            "中",
            ("中",),
            {},
            ["中", "发", "白", "春", "夏", "秋", "冬", "梅", "兰", "竹"],
            "-",
        ],
    ),
    (("wins", 0, "hand", "melds"), [None, [], [{"type": "pung", "tiles": "555p", "exposed": True}], "x"]),
    (("wins", 0, "hand", "bogus"), [None, 1]),
]


def _changed(base: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any] | None:
    request = copy.deepcopy(base)
    obj: Any = request
    for step in path[:-1]:
        inside = step in obj if isinstance(obj, dict) else isinstance(obj, list) and bool(obj)
        if inside:
            obj = obj[step]
        else:
            return None
    if isinstance(obj, list):
        if value == "-":
            obj.pop(path[-1])
        else:
            obj[path[-1]] = value
    elif value == "-":
        obj.pop(path[-1], None)
    else:
        obj[path[-1]] = value
    return request


def test_every_single_change_agrees() -> None:
    # Each listed change alone, on each base request: the fast reader accepts exactly what the full reader
    # reads the same way, and score_request answers (or fails) the same either way.
    taken = 0
    for base in BASES:
        assert _parse_common(base) is not None
        for path, values in SINGLE_CHANGES:
            for value in values:
                request = _changed(base, path, value)
                if request is None:
                    continue
                fast = _parse_common(request)
                full = _outcome(_parse_full, request)
                if fast is not None:
                    taken += 1
                    assert full == ("ok", fast), (path, value)
                assert _outcome(score_request, request) == _outcome(_full_only, request), (path, value)
    assert taken > 100  # the valid changes do keep the fast path


@settings(max_examples=200, deadline=None)
@given(st.one_of(winning_tiles(), st.lists(st.sampled_from(range(34)), min_size=14, max_size=14).map(sorted)))
def test_shape_facts_are_those_of_the_decompositions(tiles: list[int]) -> None:
    # plain_shape_facts reads the facts of each decomposition without building it: the same list, in order.
    if max(tiles.count(t) for t in tiles) > 4:
        return
    concealed = tuple(tiles)
    splits = plain_decompositions(concealed, True)
    shape = plain_shape_facts(concealed)
    if shape is not None:  # None: some suit reads several ways (the caller then uses the decompositions)
        suits = len({t // 9 for t in tiles if t < 27})
        assert shape == (suits, tiles[-1] >= 27, [reading_facts(d) for d in splits])
