"""宿州麻将: flower count f, 令风 and 混子, the 庄/闲 settlement table, 上牌, multi_win, self_draw_only."""

import pytest
from scoring_helpers import items, one, score, win

from scoring import ScoringError

AH = "suzhou-anhui"
PLAIN = "123m456m789m234p5s+5s"  # f = 0 from the tiles alone


# ---------------------------------------------------------------- the flower count f


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        (PLAIN + " 春夏秋", {"yinghua": 3}),  # each flower tile 1
        (PLAIN + " 中发白", {"yinghua": 3}),  # 中发白 are flowers in 宿州
        (PLAIN + " | 东东", {"yinghua": 2}),  # 令风 of the 东 round
        ("[222z] 123m456m789m5s+5s", {"fengpeng": 1}),  # 风碰 1
        ("[7777s] 123m456m789m5s+5s", {"minggang": 2}),  # 明杠 2
        ("[3333z] 123m456m789m5s+5s", {"minggang": 2}),  # a wind 明杠 is a 明杠
        ("(7777s) 123m456m789m5s+5s", {"angang": 4}),  # 暗杠 4
        ("(3333z) 123m456m789m5s+5s", {"angang": 4}),
        ("333z 123m456m789m5s+5s", {"feng_anke": 1}),  # 风暗刻 1
        ("[555p] 123m456m789m5s+5s", {}),  # a suited 碰 adds nothing
    ],
)
def test_flower_count(hand: str, expected: dict[str, int]) -> None:
    r = score(win("S", "self_draw", hand), rules=AH)
    assert items(r) == expected
    assert one(r)["hua"] == sum(expected.values())


def test_qidui_and_dadiaoche_win_but_add_nothing() -> None:
    r = score(win("S", "self_draw", "1122m3344p5566s2z+2z 春"), rules=AH, dealer="E")
    assert items(r) == {"qidui": 0, "yinghua": 1}
    # 闲 self-draw with f = 1: the other two 闲 pay 2·1+2 = 4, the 庄 pays 2·1+4 = 6.
    assert r["payments"] == {"E": -6, "S": 14, "W": -4, "N": -4}
    r = score(win("S", "discard", "[111p] [222s] [333m] [777s] 5s+5s"), rules=AH, discarder="W")
    assert items(r) == {"dadiaoche": 0} and one(r)["allowed"]


def test_no_threshold() -> None:
    r = score(win("S", "discard", "[555p] 123m456m789m5s+5s"), rules=AH, discarder="W")
    assert one(r)["allowed"] and one(r)["hua"] == 0
    assert r["payments"] == {"E": 0, "S": 1, "W": -1, "N": 0}


def test_round_wind_is_a_flower_and_moves() -> None:
    # In the 南 round the 南 tiles are flowers and 东 is a playing tile.
    r = score(win("S", "self_draw", "111z 123m456m789m5s+5s | 南南"), rules=AH, round_wind="S")
    assert items(r) == {"yinghua": 2, "feng_anke": 1}
    with pytest.raises(ScoringError, match="2z"):
        score(win("S", "self_draw", "222z 123m456m789m5s+5s"), rules=AH, round_wind="S")
    with pytest.raises(ScoringError, match="令风"):
        score(win("S", "self_draw", PLAIN + " | 东"), rules=AH, round_wind="S")


def test_dragons_are_not_playing_tiles() -> None:
    with pytest.raises(ScoringError, match="7z"):
        score(win("S", "self_draw", "777z 123m456m789m5s+5s"), rules=AH)


def test_suzhou_only_flowers_are_rejected() -> None:
    with pytest.raises(ScoringError, match="百搭"):
        score(win("S", "self_draw", PLAIN + " 百搭"), rules=AH)


def test_wild_tile() -> None:
    # 混子 2p stands for 8s: 79s + wild is a chow. Without the wild the hand is not complete.
    hand = "123m456m789m79s55s2p 春"
    r = score(win("S", "self_draw", hand, wild="2p"), rules=AH, dealer="E")
    assert one(r)["allowed"] and one(r)["hua"] == 1
    with pytest.raises(ScoringError, match="not a complete hand"):
        score(win("S", "self_draw", hand), rules=AH)


def test_wild_must_be_a_playing_tile() -> None:
    with pytest.raises(ScoringError, match="wild"):
        score(win("S", "self_draw", PLAIN, wild="1z"), rules=AH, round_wind="E")


# ---------------------------------------------------------------- settlement table


def test_dealer_self_draw() -> None:
    r = score(win("E", "self_draw", hard=2), rules=AH, dealer="E", stake=3)
    assert r["payments"] == {"E": 72, "S": -24, "W": -24, "N": -24}  # 3·(2·2+4)


def test_idle_self_draw() -> None:
    r = score(win("W", "self_draw", hard=2), rules=AH, dealer="E")
    assert r["payments"] == {"E": -8, "S": -6, "W": 20, "N": -6}


def test_dealer_discard_win() -> None:
    r = score(win("E", "discard", hard=2), rules=AH, dealer="E", discarder="N")
    assert r["payments"] == {"E": 6, "S": 0, "W": 0, "N": -6}


def test_idle_discard_win_from_idle() -> None:
    r = score(win("W", "discard", hard=2), rules=AH, dealer="E", discarder="S")
    assert r["payments"] == {"E": 0, "S": -5, "W": 5, "N": 0}


def test_idle_discard_win_from_dealer() -> None:
    r = score(win("W", "discard", hard=2), rules=AH, dealer="E", discarder="E")
    assert r["payments"] == {"E": -6, "S": 0, "W": 6, "N": 0}


def test_gangkai_settles_as_self_draw() -> None:
    r = score(win("S", "self_draw", "[7777s] 123m456m789m5s+5s", after_kong=True), rules=AH, dealer="E")
    assert items(r) == {"gangkai": 0, "minggang": 2}
    assert r["payments"] == {"E": -8, "S": 20, "W": -6, "N": -6}


def test_fed_kong_is_an_ordinary_gangkai_in_anhui() -> None:
    r = score(
        win("S", "self_draw", "[7777s:direct:W] 123m456m789m5s+5s", after_kong=True, kong_fed_by="W"),
        rules=AH,
        dealer="E",
    )
    assert r["payments"] == {"E": -8, "S": 20, "W": -6, "N": -6}


def test_qianggang_settles_as_discard_by_the_robbed_player() -> None:
    r = score(win("S", "rob_kong", hard=1), rules=AH, dealer="E", discarder="N")
    assert r["payments"] == {"E": 0, "S": 3, "W": 0, "N": -3}
    assert "qianggang" in items(r)


def test_shangpai_doubles_every_payer() -> None:
    r = score(win("S", "self_draw", hard=3, shangpai=True), rules=AH, dealer="E")
    assert one(r)["multiplier"] == 2 and "shangpai" in items(r)
    assert r["payments"] == {"E": -20, "S": 52, "W": -16, "N": -16}  # 2·(2·3+4), 2·(2·3+2)


def test_multi_win_pays_each() -> None:
    r = score(win("S", "discard", hard=1), win("W", "discard", hard=2), rules=AH, dealer="E", discarder="N")
    assert r["payments"] == {"E": 0, "S": 3, "W": 5, "N": -8}


def test_multi_win_off_pays_the_first_from_the_discarder() -> None:
    # N discards: the seats after N are E, S, W, so S counts and W does not.
    r = score(
        win("W", "discard", hard=2),
        win("S", "discard", hard=1),
        rules=AH,
        dealer="E",
        discarder="N",
        options={"multi_win": False},
    )
    assert [(w["winner"], w["allowed"], w["reason"]) for w in r["wins"]] == [
        ("W", False, "multi_win_off"),
        ("S", True, None),
    ]
    assert r["payments"] == {"E": 0, "S": 3, "W": 0, "N": -3}


def test_self_draw_only() -> None:
    r = score(win("S", "discard", hard=2), rules=AH, discarder="W", options={"self_draw_only": True})
    assert one(r)["allowed"] is False and one(r)["reason"] == "self_draw_only"
    assert r["payments"] == {"E": 0, "S": 0, "W": 0, "N": 0}
    assert one(score(win("S", "self_draw", hard=2), rules=AH, options={"self_draw_only": True}))["allowed"]


def test_draw_pays_nothing_and_dealer_stays() -> None:
    r = score(event="draw", rules=AH, dealer="W", streak=2)
    assert r["payments"] == {"E": 0, "S": 0, "W": 0, "N": 0}
    assert (r["next_dealer"], r["next_streak"], r["next_diling"]) == ("W", 3, False)


def test_baozi_and_diling_do_not_apply() -> None:
    r = score(win("E", "self_draw", hard=3), rules=AH, dealer="E", baozi=True, diling=True)
    assert one(r)["multiplier"] == 1 and r["payments"]["E"] == 30 and r["next_diling"] is False


def test_declared_patterns_that_do_not_score_in_anhui() -> None:
    with pytest.raises(ScoringError, match="清一色"):
        score(win("S", "self_draw", hard=1, patterns=("清一色",)), rules=AH)
