"""The extended 苏州 list as corrected (docs/rules.md §1, "The extended patterns"), and
宿州's discarded 混子 (docs/rules.md §2). Each test quotes its source line."""

import pytest
from scoring_helpers import items, one, score, win

from scoring import ScoringError

EXTENDED = {"extended": True}
SHUANGHAO = "1111m3333p5566s1z+1z 春"  # two four-of-a-kinds among the pairs, 1 硬花
SANHAO = "1111m3333p5555s1z+1z 春"  # three


def test_dasixi_scores_no_duiduihu() -> None:
    # "大四喜 (four wind triplets) 64, and a 大四喜 scores no 对对胡 ("不算碰碰和")".
    r = score(win("S", "self_draw", "[111z] [222z] [333z] 444z5m+5m 中发白"), options=EXTENDED)
    assert "duiduihu" not in items(r) and items(r)["dasixi"] == 64
    # Declared with it (every 大四喜 is all pungs), 对对胡 is dropped as the tile form drops it.
    r = score(win("S", "self_draw", hard=3, patterns=("大四喜", "对对胡")), options=EXTENDED)
    assert "duiduihu" not in items(r) and items(r)["dasixi"] == 64


def test_shuanghao_qidui_scores_30_and_triples_t() -> None:
    # "双豪七对 (two): 30 in place of 七对's 15, and T ×3 … 硬花 are still counted twice."
    # T = 30 + 底 5 + 硬花 1×2 = 37; each of three pays 37 × 3 = 111.
    r = score(win("S", "self_draw", SHUANGHAO), options=EXTENDED)
    assert items(r) == {"shuanghao_qidui": 30, "di": 5, "yinghua": 2}
    assert one(r)["items"][0]["times"] == 3
    assert one(r)["hua"] == 37 and one(r)["multiplier"] == 3
    assert r["payments"] == {"E": -111, "S": 333, "W": -111, "N": -111}


def test_sanhao_qidui_scores_50_and_six_times_t() -> None:
    # "三豪七对 (three): 50 in place of 15, and T ×6." T = 50 + 5 + 2 = 57; won on W's discard: W pays 342.
    r = score(win("S", "discard", SANHAO + "梅夏秋"), discarder="W", options=EXTENDED)
    assert items(r) == {"sanhao_qidui": 50, "di": 5, "yinghua": 8}
    assert one(r)["multiplier"] == 6
    assert r["payments"] == {"E": 0, "S": 63 * 6, "W": -63 * 6, "N": 0}


@pytest.mark.parametrize(("hand", "factor"), [(SHUANGHAO, 4), (SANHAO, 8)])
def test_haoqidui_4_8(hand: str, factor: int) -> None:
    # "Option `haoqidui`: "3/6" default, "4/8" (×4 and ×8)."
    r = score(win("S", "self_draw", hand), options={"extended": True, "haoqidui": "4/8"})
    assert one(r)["multiplier"] == factor


def test_single_haoqidui_follows_the_qidui_option() -> None:
    # "With one (单豪) it scores as a plain 七对": under qidui "10" that is 10, 硬花 once.
    r = score(win("S", "self_draw", "1111m3344p5566s1z+1z 春"), options={"extended": True, "qidui": "10"})
    assert items(r) == {"haohua_qidui": 10, "di": 5, "yinghua": 1}


def test_haoqidui_is_exempt_from_the_threshold() -> None:
    # 七对 is exempt; so is a 七对 with four-of-a-kinds (no 硬花 at all here, on a discard).
    r = score(win("S", "discard", "1111m3333p5566s1z+1z"), discarder="W", options=EXTENDED)
    assert one(r)["allowed"] is True


@pytest.mark.parametrize(("value", "hua"), [("12", 12), ("16", 16)])
def test_sanfengke_value(value: str, hua: int) -> None:
    # "三风刻 (three wind triplets) 12 (option `sanfengke`: "12" default, "16")".
    r = score(
        win("S", "discard", "[111z] [222z] [333z] 123m5m+5m"),
        discarder="E",
        options={"extended": True, "sanfengke": value},
    )
    assert items(r) == {"hunyise": 5, "sanfengke": hua, "di": 5, "fengpeng": 3}


def test_hua_dasanyuan() -> None:
    # "three or more each of 中, 发 and 白 is 花中大三元 +24 … These tiles also count as 硬花 as usual."
    r = score(win("S", "self_draw", "[555p] 123m456m678m5s+5s 中中中发发发白白白"), options=EXTENDED)
    assert items(r) == {"hua_dasanyuan": 24, "di": 5, "yinghua": 9}


def test_hua_xiaosanyuan() -> None:
    # "three or more each of two of them and two of the third is 花中小三元 +16".
    r = score(win("S", "self_draw", "[555p] 123m456m678m5s+5s 中中中发发发白白"), options=EXTENDED)
    assert items(r) == {"hua_xiaosanyuan": 16, "di": 5, "yinghua": 8}
    # Two of two of them: neither.
    r = score(win("S", "self_draw", "[555p] 123m456m678m5s+5s 中中中发发白白"), options=EXTENDED)
    assert items(r) == {"di": 5, "yinghua": 7}


def test_hua_sanyuan_declared_needs_the_flowers() -> None:
    with pytest.raises(ScoringError, match="花中大三元 needs at least 9 硬花"):
        score(win("S", "self_draw", hard=8, patterns=("花中大三元",)), options=EXTENDED)
    r = score(win("S", "self_draw", hard=9, patterns=("花中大三元",)), options=EXTENDED)
    assert one(r)["hua"] == 24 + 5 + 9


def test_the_order_of_multipliers() -> None:
    # "Pattern multipliers … multiply T before the 豹子/滴零 ×2 and the 包饺子/抢杠 ×3": the items list them
    # in that order. 清一色 x2 on a 豹子 hand won on a fed kong's replacement tile: T ×2 ×2 ×3 = ×12.
    hand = "[7777s:direct:W] [555s] 123s456s9s+9s 中发白"
    r = score(
        win("S", "self_draw", hand, after_kong=True, kong_fed_by="W"), baozi=True, options={"qingyise": "x2"}
    )
    assert [(item["id"], item.get("times", 1)) for item in one(r)["items"]] == [
        ("qingyise", 2),
        ("gangkai", 1),
        ("di", 1),
        ("yinghua", 1),
        ("minggang", 1),
        ("baozi", 2),
        ("baojiaozi", 3),
    ]
    assert one(r)["hua"] == 14 and one(r)["multiplier"] == 12
    assert r["payments"] == {"E": 0, "S": 168, "W": -168, "N": 0}


# ---------------------------------------------------------------- 宿州: a discarded 混子

AH = "suzhou-anhui"
WILD_LAST = "123m456m789m79s55s2p 春"  # the 混子 2p completes 79s as the last tile


def test_a_discarded_wild_cannot_be_won_on() -> None:
    # docs/rules.md §2: "A discarded 混子 cannot be won on ("如果打混子，混子是不会冲的"): a discard win whose
    # winning tile is the wild tile itself is refused with that reason."
    r = score(win("S", "discard", WILD_LAST, wild="2p"), rules=AH, discarder="W")
    assert one(r)["allowed"] is False and one(r)["reason"] == "wild_discard"
    assert r["payments"] == {"E": 0, "S": 0, "W": 0, "N": 0}
    assert r["next_dealer"] == "E"  # nothing settled: the dealer stays


def test_a_self_drawn_wild_wins() -> None:
    # "A player may discard a 混子, and wins on other discards stand": the 混子 drawn by the winner wins.
    r = score(win("S", "self_draw", WILD_LAST, wild="2p"), rules=AH)
    assert one(r)["allowed"] is True


def test_a_hand_holding_a_wild_wins_on_another_discard() -> None:
    r = score(win("S", "discard", "123m456m789m2p9s55s7s", wild="2p"), rules=AH, discarder="W")
    assert one(r)["allowed"] is True and r["payments"]["W"] == -1  # b·(2f+1), f = 0


def test_a_discarded_wild_beside_another_winner() -> None:
    # 一炮多响 on a 混子: each winner's winning tile is that 混子, so neither may win.
    other = win("N", "discard", "123p456p789p79s55s2p", wild="2p")
    r = score(win("S", "discard", WILD_LAST, wild="2p"), other, rules=AH, discarder="W")
    assert [w["reason"] for w in r["wins"]] == ["wild_discard", "wild_discard"]


def test_ting_shows_the_wild_wait_as_not_on_a_discard() -> None:
    from scoring import ting_request

    waits = ting_request({"rules": AH, "hand": "123m456m789m79s55s 春", "wild": "2p"})["waits"]
    wild = next(w for w in waits if w["tile"] == "2p")
    assert wild["self_draw"]["allowed"] is True
    assert wild["discard"]["allowed"] is False and wild["discard"]["reason"] == "wild_discard"


def test_which_flowers_not_only_how_many() -> None:
    # Nine 硬花 either way; only three each of 中 发 白 is 花中大三元, also on a table that has just scored
    # the other (what a table remembers is keyed by the flowers once 花中三元 is on).
    hand = "[555p] 123m456m678m5s+5s "
    cases = [("中中中发发发白白白", True), ("中中中发发发春夏秋", False), ("中中中发发发白白白", True)]
    for flowers, dragons in cases:
        r = score(win("S", "self_draw", hand + flowers), options=EXTENDED)
        assert ("hua_dasanyuan" in items(r)) is dragons


def test_a_discarded_wild_in_the_quick_entry() -> None:
    # The quick entry names the winning tile only when it matters: the 混子 itself, on a discard.
    declared = win("S", "discard", hard=2, wild="2p")
    declared["declared"]["winning_tile"] = "2p"
    r = score(declared, rules=AH, discarder="W")
    assert one(r)["allowed"] is False and one(r)["reason"] == "wild_discard"
    declared["declared"]["winning_tile"] = "3p"
    assert one(score(declared, rules=AH, discarder="W"))["allowed"] is True
