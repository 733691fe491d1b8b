"""Malformed requests: every one is a ScoringError that names the field or token, never a traceback."""

import copy
from typing import Any

import pytest
from scoring_helpers import one, score, win

from scoring import ScoringError, score_request

PLAIN = "[555p] 123m456m789m5s+5s 中发白春"
HAND_OBJ = {
    "concealed": "123m456m789m55s",
    "winning_tile": "5s",
    "melds": [{"type": "pung", "tiles": "555p", "exposed": True, "from": "N"}],
    "flowers": ["中", "发", "白", "春"],
}


def _request(**changes: Any) -> dict[str, Any]:
    request: dict[str, Any] = {
        "rules": "suzhou",
        "stake": 5,
        "dealer": "E",
        "round_wind": "E",
        "baozi": False,
        "diling": False,
        "event": "win",
        "discarder": "W",
        "wins": [
            {
                "winner": "S",
                "type": "discard",
                "hand": HAND_OBJ,
                "flags": {
                    "after_kong": False,
                    "after_flower": False,
                    "kong_fed_by": None,
                    "last_tile": False,
                    "heavenly": False,
                    "earthly": False,
                    "shangpai": False,
                },
                "wild": None,
            }
        ],
    }
    request.update(changes)
    return request


def test_full_section_3_request_shape() -> None:
    r = score_request(_request())
    assert set(r) == {
        "wins",
        "payments",
        "next_dealer",
        "next_diling",
        "next_round_wind",
        "next_streak",
        "next_hand_number",
    }
    assert set(one(r)) == {"winner", "allowed", "reason", "hua", "items", "multiplier"}
    assert all(set(item) == {"id", "name", "hua"} for item in one(r)["items"])
    assert r["payments"] == {"E": 0, "S": 45, "W": -45, "N": 0}


def test_hand_object_and_shorthand_agree() -> None:
    assert score_request(_request()) == score(win("S", "discard", PLAIN), stake=5, discarder="W")


def _bad(match: str, **changes: Any) -> None:
    with pytest.raises(ScoringError, match=match):
        score_request(_request(**changes))


def _win_with(**changes: Any) -> list[dict[str, Any]]:
    entry = dict(_request()["wins"][0])
    entry.update(changes)
    return [entry]


def _hand_with(**changes: Any) -> list[dict[str, Any]]:
    return _win_with(hand={**HAND_OBJ, **changes})


@pytest.mark.parametrize(
    ("match", "changes"),
    [
        ("rules: unknown rule set 'mahjong'", {"rules": "mahjong"}),
        ("options: unknown option 'multi_win'", {"options": {"multi_win": False}}),
        ("options.threshold: invalid value '5/6'", {"options": {"threshold": "5/6"}}),
        ("options: expected an object", {"options": ["threshold"]}),
        ("dealer: bad seat 'X'", {"dealer": "X"}),
        ("round_wind: bad seat", {"round_wind": 1}),
        ("stake: expected a whole number", {"stake": 2.5}),
        ("stake: expected a whole number", {"stake": True}),
        ("stake: 0 is out of range", {"stake": 0}),
        ("baozi: expected true or false", {"baozi": "yes"}),
        ("event: expected win, draw or escape", {"event": "lose"}),
        ("unknown key 'discader'", {"discader": "W"}),
        ("discarder: a discard win needs the discarder", {"discarder": None}),
        ("discarder: S is also the winner", {"discarder": "S"}),
        ("discarder: bad seat 'Q'", {"discarder": "Q"}),
        ("wins: a win needs at least one entry", {"wins": []}),
        ("wins: a draw has no wins", {"event": "draw"}),
        ("escaper: an escape needs", {"event": "escape", "wins": []}),
        ("streak: -1 is out of range", {"streak": -1}),
    ],
)
def test_bad_table(match: str, changes: dict[str, Any]) -> None:
    _bad(match, **changes)


@pytest.mark.parametrize(
    ("match", "wins"),
    [
        (r"wins\[0\].winner: bad seat", _win_with(winner="Z")),
        (r"wins\[0\].type: expected self_draw, discard or rob_kong", _win_with(type="zimo")),
        (r"wins\[0\]: give exactly one of 'hand'", _win_with(declared={"hard_flowers": 1})),
        (r"wins\[0\]: unknown key 'flowers'", _win_with(flowers=[])),
        (r"wins\[0\].flags: unknown key 'kong'", _win_with(flags={"kong": True})),
        (r"wins\[0\].flags.after_kong: expected true or false", _win_with(flags={"after_kong": 1})),
        (r"wins\[0\].wild: .*has no wild tile", _win_with(wild="2p")),
        (r"wins\[0\].hand.concealed: '55' at position 13", _hand_with(concealed="123m456m789m55x")),
        (r"wins\[0\].hand: wrong tile count", _hand_with(concealed="123m456m789m5s")),
        (r"wins\[0\].hand: winning tile 9p is not among", _hand_with(winning_tile="9p")),
        (r"5 copies of 5p", _hand_with(concealed="123m456m789m55p", winning_tile="5p")),
        (
            r"wins\[0\].hand.concealed: tile 7z \(中\) is a flower",
            _hand_with(concealed="123m456m789m77z", winning_tile="7z"),
        ),
        (r"wins\[0\].hand.flowers: 东 is not a flower tile of suzhou", _hand_with(flowers=["东"])),
        (r"wins\[0\].hand: not a complete hand", _hand_with(concealed="123m456m789m59s")),
        (r"wins\[0\].hand.winning_tile: missing", _hand_with(winning_tile=None)),
    ],
)
def test_bad_win(match: str, wins: list[dict[str, Any]]) -> None:
    _bad(match, wins=wins)


@pytest.mark.parametrize(
    ("match", "entry", "table"),
    [
        (
            "flags: a win on a replacement tile",
            win("S", "discard", PLAIN, after_kong=True),
            {"discarder": "W"},
        ),
        ("after_kong: the hand has no kong", win("S", "self_draw", PLAIN, after_kong=True), {}),
        (
            "kong_fed_by: the hand has no exposed 直杠 from W",
            win("S", "self_draw", "[7777s:direct:N] 123m456m789m5s+5s", after_kong=True, kong_fed_by="W"),
            {},
        ),
        ("kong_fed_by: S cannot feed their own kong", win("S", "self_draw", hard=0, kong_fed_by="S"), {}),
        ("heavenly: 天胡 is the dealer's", win("S", "self_draw", PLAIN, heavenly=True), {"dealer": "E"}),
        ("earthly: 地胡 is a non-dealer's", win("E", "self_draw", PLAIN, earthly=True), {"dealer": "E"}),
        ("shangpai: 上牌 is a 宿州 rule", win("S", "self_draw", PLAIN, shangpai=True), {}),
        ("discarder: wins\\[0\\] is a self-draw", win("S", "self_draw", PLAIN), {"discarder": "W"}),
        (r"patterns\[1\]: unknown pattern 'xyz'", win("S", "self_draw", hard=3, patterns=("qys", "xyz")), {}),
        ("豪七对 needs option extended", win("S", "self_draw", hard=3, patterns=("豪华七对",)), {}),
        ("清一色 with 混一色", win("S", "self_draw", hard=3, patterns=("清一色", "混一色")), {}),
        ("大门清 needs no 硬花", win("S", "self_draw", hard=3, patterns=("大门清",)), {}),
        ("大门清 and 小门清 stack only", win("S", "self_draw", hard=0, patterns=("dmq", "xmq")), {}),
        ("海底捞月 is a self-draw", win("S", "discard", hard=4, patterns=("海底捞月",)), {"discarder": "W"}),
        ("replacement tile", win("S", "discard", hard=4, patterns=("杠开",)), {"discarder": "W"}),
        ("hard_flowers: 29 is out of range", win("S", "self_draw", hard=29), {}),
    ],
)
def test_bad_combinations(match: str, entry: dict[str, Any], table: dict[str, Any]) -> None:
    with pytest.raises(ScoringError, match=match):
        score(entry, **table)


def test_several_winners_must_share_one_discard() -> None:
    with pytest.raises(ScoringError, match="several winners"):
        score(win("S", "self_draw", PLAIN), win("N", "self_draw", PLAIN))
    with pytest.raises(ScoringError, match="several winners"):
        score(win("S", "discard", PLAIN), win("N", "rob_kong", PLAIN), discarder="W")
    with pytest.raises(ScoringError, match="same winner twice"):
        score(win("S", "discard", PLAIN), win("S", "discard", PLAIN), discarder="W")


def test_request_must_be_an_object() -> None:
    with pytest.raises(ScoringError, match="request: expected a JSON object"):
        score_request([])  # type: ignore[arg-type]


def test_rules_by_chinese_name_and_seats_in_chinese() -> None:
    r = score(win("南", "discard", PLAIN), rules="蘇州", discarder="西")
    assert r["payments"] == {"E": 0, "S": 9, "W": -9, "N": 0}


def test_declared_patterns_by_any_name() -> None:
    for names in (("qingyise", "qidui"), ("清一色", "七對"), ("qys", "Seven pairs")):
        r = score(win("S", "self_draw", hard=5, patterns=names), stake=5)
        assert one(r)["hua"] == 40


def test_declared_soft_flowers() -> None:
    # 2 硬花 + 3 meld 花: below the self-draw threshold unless the meld 花 count.
    r = score(win("S", "self_draw", hard=2, soft=3))
    threshold = one(r)["threshold"]
    assert one(r)["allowed"] is False and (threshold["have"], threshold["need"]) == (2, 3)
    r = score(win("S", "self_draw", hard=2, soft=3), options={"threshold_counts_soft": True})
    assert one(r)["items"] == [
        {"id": "di", "name": "底", "hua": 5},
        {"id": "yinghua", "name": "硬花", "hua": 2},
        {"id": "ruanhua", "name": "软花", "hua": 3},
    ]
    assert one(r)["allowed"] is True and one(r)["hua"] == 10


def test_declared_menqing_stack_adds_xiao_menqing() -> None:
    r = score(win("S", "self_draw", hard=0, patterns=("大门清",)), options={"menqing_stack": "true"})
    assert [item["id"] for item in one(r)["items"]] == ["da_menqing", "xiao_menqing", "di"]


def test_declared_baojiaozi() -> None:
    r = score(win("S", "self_draw", hard=0, after_kong=True, kong_fed_by="N"))
    assert one(r)["allowed"] and one(r)["multiplier"] == 3
    assert r["payments"] == {"E": 0, "S": 30, "W": 0, "N": -30}


def _bot_request(**flags: Any) -> dict[str, Any]:
    """A request as the bot's ledger sends it: every table key, the full options, a flags object, melds."""
    from scoring.rules import default_options

    return {
        "rules": "suzhou",
        "options": default_options("suzhou"),
        "stake": 2,
        "dealer": "E",
        "round_wind": "E",
        "baozi": False,
        "diling": False,
        "streak": 0,
        "hand_number": 3,
        "first_dealer": "E",
        "event": "win",
        "discarder": "W",
        "escaper": None,
        "wins": [
            {
                "winner": "S",
                "type": "discard",
                "hand": {
                    "concealed": "123m789s11122z",
                    "winning_tile": "2z",
                    "melds": [{"type": "pung", "tiles": "555p", "exposed": True}],
                    "flowers": ["中", "春", "梅", "兰"],
                },
                "flags": {
                    "after_kong": False,
                    "after_flower": False,
                    "kong_fed_by": None,
                    "last_tile": False,
                    "heavenly": False,
                    "earthly": False,
                    "shangpai": False,
                    **flags,
                },
                "wild": None,
            }
        ],
    }


def test_score_request_never_changes_its_input() -> None:
    request = _bot_request()
    before = copy.deepcopy(request)
    first = score_request(request)
    assert request == before
    assert score_request(request) == first  # read again (the options, flags and melds from their tables)
    # 风暗刻 2 + 底 5 + 硬花 4: W alone pays.
    assert first["wins"][0]["hua"] == 11 and first["payments"] == {"E": 0, "S": 22, "W": -22, "N": 0}


@pytest.mark.parametrize("value", [1, 0, 1.0, "true"])
def test_remembered_objects_still_check_value_types(value: Any) -> None:
    score_request(_bot_request(last_tile=False))  # the flags object with false, remembered
    with pytest.raises(ScoringError, match=r"flags\.last_tile: expected true or false"):
        score_request(_bot_request(last_tile=value))
    request = _bot_request()
    request["wins"][0]["hand"]["melds"][0]["exposed"] = value
    with pytest.raises(ScoringError, match="exposed: expected true or false"):
        score_request(request)
    request = _bot_request()
    request["options"] = {**request["options"], "extended": 1.5 if value == 1.0 else [value]}
    with pytest.raises(ScoringError, match=r"options\.extended: invalid value"):
        score_request(request)
