"""苏州麻将: every 花 item, pattern, threshold exemption, settlement path, multiplier, option, by example."""

import pytest
from scoring_helpers import items, one, score, win

# A plain hand: one exposed 碰 (so no 门清), three suits (no 一色), no wind triplet.
PLAIN = "[555p] 123m456m789m5s+5s"
EXTENDED = {"extended": True}


# ---------------------------------------------------------------- 花 items


def test_base_and_hard_flowers_self_draw() -> None:
    # 底 5 + 硬花 3 = 8; each of the other three pays 8.
    r = score(win("S", "self_draw", PLAIN + " 中发春"))
    assert items(r) == {"di": 5, "yinghua": 3}
    assert r["payments"] == {"E": -8, "S": 24, "W": -8, "N": -8}


@pytest.mark.parametrize(
    ("hand", "item", "hua"),
    [
        ("[7777s] [555p] 123m456m5s+5s 中发白", "minggang", 1),  # suited 明杠 (直杠)
        ("[7777s:added] [555p] 123m456m5s+5s 中发白", "minggang", 1),  # 补杠 counts the same
        ("(7777s) [555p] 123m456m5s+5s 中发白", "angang", 2),  # suited 暗杠
        ("[111z] 123m456m789m5s+5s 中发白", "fengpeng", 1),  # 风碰
        ("[555p] 222z 123m456m5s+5s 中发白", "feng_anke", 2),  # 风暗刻
        ("[3333z] [555p] 123m456m5s+5s 中发白", "feng_minggang", 3),  # 风明杠
        ("(4444z) [555p] 123m456m5s+5s 中发白", "feng_angang", 4),  # 风暗杠
    ],
)
def test_meld_items(hand: str, item: str, hua: int) -> None:
    r = score(win("S", "self_draw", hand))
    assert items(r) == {"di": 5, "yinghua": 3, item: hua}
    assert one(r)["hua"] == 8 + hua


def test_wind_triplet_completed_by_the_winning_discard_is_concealed() -> None:
    # 风暗刻 also when the winning discard completes it: 底 5 + 硬花 4 + 风暗刻 2 = 11, W pays.
    r = score(win("S", "discard", "[555p] 123m456m5s5s22z+2z 中发白春"), discarder="W")
    assert items(r) == {"di": 5, "yinghua": 4, "feng_anke": 2}
    assert r["payments"]["W"] == -11


def test_two_kongs_add_up() -> None:
    r = score(win("S", "self_draw", "(7777s) (1111m) [555p] 234m9p+9p 中发白"))
    assert items(r)["angang"] == 4


# ---------------------------------------------------------------- patterns


def test_da_menqing() -> None:
    # No melds, no flowers, no wind triplet: 大门清 10 + 底 5 = 15 (exempt from the threshold).
    r = score(win("S", "self_draw", "123m456m789m234p5s+5s"))
    assert items(r) == {"da_menqing": 10, "di": 5}
    assert r["payments"]["S"] == 45


def test_da_menqing_with_menqing_stack() -> None:
    r = score(win("S", "self_draw", "123m456m789m234p5s+5s"), options={"menqing_stack": True})
    assert items(r) == {"da_menqing": 10, "xiao_menqing": 5, "di": 5}


def test_xiao_menqing_with_a_flower_on_a_discard() -> None:
    # One 硬花 on a discard would be below 4, but 小门清 is exempt: 5 + 5 + 1 = 11.
    r = score(win("S", "discard", "123m456m789m234p5s+5s 中"), discarder="N")
    assert items(r) == {"xiao_menqing": 5, "di": 5, "yinghua": 1}
    assert r["payments"] == {"E": 0, "S": 11, "W": 0, "N": -11}


def test_xiao_menqing_allows_a_concealed_kong() -> None:
    r = score(win("S", "self_draw", "(7777s) 123m456m789m5s+5s"))
    assert items(r) == {"xiao_menqing": 5, "di": 5, "angang": 2}


def test_concealed_wind_triplet_is_not_da_menqing() -> None:
    r = score(win("S", "self_draw", "111z 123m456m789m5s+5s"))
    assert items(r) == {"xiao_menqing": 5, "di": 5, "feng_anke": 2}


def test_no_menqing_with_an_exposed_kong() -> None:
    r = score(win("S", "self_draw", "[7777s] 123m456m789m5s+5s 中发白"))
    assert "xiao_menqing" not in items(r) and "da_menqing" not in items(r)


def test_hunyise() -> None:
    # One suit plus winds, on a discard with no flowers: exempt. 混一色 5 + 底 5 = 10.
    r = score(win("S", "discard", "[555p] 123p456p789p1z+1z"), discarder="E")
    assert items(r) == {"hunyise": 5, "di": 5}
    assert r["payments"]["E"] == -10


def test_qingyise() -> None:
    r = score(win("S", "discard", "[555p] 123p456p789p1p+1p"), discarder="E")
    assert items(r) == {"qingyise": 10, "di": 5}


def test_duiduihu() -> None:
    r = score(win("S", "discard", "[555p] [777s] 222m999m1s+1s"), discarder="E")
    assert items(r) == {"duiduihu": 5, "di": 5}


def test_qidui_counts_hard_flowers_twice() -> None:
    # 七对 15 + 底 5 + 硬花 2×2 = 24; never also 门清.
    r = score(win("S", "discard", "1122m3344p5566s1z+1z 春夏"), discarder="W")
    assert items(r) == {"qidui": 15, "di": 5, "yinghua": 4}
    assert r["payments"]["W"] == -24


def test_qidui_option_10_counts_flowers_once() -> None:
    r = score(win("S", "discard", "1122m3344p5566s1z+1z 春夏"), discarder="W", options={"qidui": "10"})
    assert items(r) == {"qidui": 10, "di": 5, "yinghua": 2}


def test_best_decomposition_wins() -> None:
    # 111222333m: three pungs or three chows. The pung reading adds 对对胡.
    r = score(win("S", "discard", "[555p] 111222333m1s+1s"), discarder="E")
    assert items(r) == {"duiduihu": 5, "di": 5}


def test_gangkai() -> None:
    # Replacement tile after a kong; exempt with no flowers: 杠开 5 + 底 5 + 明杠 1 = 11.
    r = score(win("S", "self_draw", "[7777s] [555p] 123m456m5s+5s", after_kong=True))
    assert items(r) == {"gangkai": 5, "di": 5, "minggang": 1}
    assert r["payments"]["S"] == 33


def test_huakai() -> None:
    r = score(win("S", "self_draw", PLAIN + " 中", after_flower=True))
    assert items(r) == {"huakai": 5, "di": 5, "yinghua": 1}


def test_gangkai_and_huakai_score_once() -> None:
    r = score(win("S", "self_draw", "[7777s] [555p] 123m456m5s+5s 中", after_kong=True, after_flower=True))
    assert "gangkai" in items(r) and "huakai" not in items(r)


def test_dadiaoche() -> None:
    # Four melds and a single wait on the pair: 大吊车 5 + 对对胡 5 + 底 5 = 15.
    r = score(win("S", "discard", "[111p] [222s] [333m] [777s] 5s+5s"), discarder="E")
    assert items(r) == {"duiduihu": 5, "dadiaoche": 5, "di": 5}


def test_dadiaoche_option_x2() -> None:
    # No 5 花 for 大吊车, the settlement doubled: (5 + 5) × 2 = 20.
    r = score(
        win("S", "discard", "[111p] [222s] [333m] [777s] 5s+5s"), discarder="E", options={"dadiaoche": "x2"}
    )
    assert one(r)["hua"] == 10 and one(r)["multiplier"] == 2
    assert items(r)["dadiaoche"] == 0
    assert r["payments"]["E"] == -20


def test_tianhu() -> None:
    r = score(win("E", "self_draw", "123m456m789m234p55s", heavenly=True), dealer="E")
    assert items(r) == {"da_menqing": 10, "tianhu": 50, "di": 5}
    assert r["payments"]["E"] == 195


def test_tianhu_without_winning_tile() -> None:
    hand = {"concealed": "123m456m789m234p55s"}
    r = score(win("E", "self_draw", hand, heavenly=True), dealer="E")
    assert items(r)["tianhu"] == 50


def test_dihu() -> None:
    r = score(win("S", "self_draw", "123m456m789m234p5s+5s 春", earthly=True), dealer="E")
    assert items(r) == {"xiao_menqing": 5, "dihu": 50, "di": 5, "yinghua": 1}


def test_haidi() -> None:
    r = score(win("S", "self_draw", PLAIN + " 中发白", last_tile=True))
    assert items(r) == {"haidi": 5, "di": 5, "yinghua": 3}


def test_haidi_is_not_exempt() -> None:
    r = score(win("S", "self_draw", PLAIN + " 中发", last_tile=True))
    assert one(r)["allowed"] is False and one(r)["reason"] == "below_threshold"


def test_last_tile_on_a_discard_is_not_haidi() -> None:
    r = score(win("S", "discard", PLAIN + " 中发白春", last_tile=True), discarder="E")
    assert "haidi" not in items(r)


# ---------------------------------------------------------------- extended patterns


def test_extended_patterns_are_off_by_default() -> None:
    r = score(win("S", "self_draw", PLAIN + " 中发白"))
    assert "yitiaolong" not in items(r)


def test_yitiaolong() -> None:
    r = score(win("S", "self_draw", PLAIN + " 中发白"), options={"extended": True})
    assert items(r) == {"yitiaolong": 10, "di": 5, "yinghua": 3}


def test_xiaosanfeng() -> None:
    # Two wind triplets and a wind pair: 小三风 6 + 混一色 5 + 风碰 2 + 底 5 = 18.
    r = score(win("S", "discard", "[111z] [222z] 123m456m3z+3z"), discarder="E", options={"extended": True})
    assert items(r) == {"hunyise": 5, "xiaosanfeng": 6, "di": 5, "fengpeng": 2}


def test_sanfengke() -> None:
    r = score(win("S", "discard", "[111z] [222z] [333z] 123m5m+5m"), discarder="E", options=EXTENDED)
    assert items(r) == {"hunyise": 5, "sanfengke": 12, "di": 5, "fengpeng": 3}


def test_xiaosixi_replaces_sanfengke() -> None:
    r = score(win("S", "discard", "[111z] [222z] [333z] 123m4z+4z"), discarder="E", options=EXTENDED)
    assert items(r) == {"hunyise": 5, "xiaosixi": 48, "di": 5, "fengpeng": 3}


def test_dasixi() -> None:
    # docs/rules.md: "大四喜 (four wind triplets) 64, and a 大四喜 scores no 对对胡 ("不算碰碰和")".
    r = score(
        win("S", "discard", "[111z] [222z] [333z] [444z] 5m+5m"), discarder="E", options={"extended": True}
    )
    assert items(r) == {"hunyise": 5, "dadiaoche": 5, "dasixi": 64, "di": 5, "fengpeng": 4}
    assert one(r)["hua"] == 83


def test_haohua_qidui_with_one_four_scores_as_qidui() -> None:
    # The rules: "豪七对 … With one (单豪) it scores as a plain 七对: the source names it without a value."
    hand = "1111m3344p5566s1z+1z 春"
    assert items(score(win("S", "self_draw", hand))) == {"qidui": 15, "di": 5, "yinghua": 2}
    r = score(win("S", "self_draw", hand), options={"extended": True})
    assert items(r) == {"haohua_qidui": 15, "di": 5, "yinghua": 2}
    assert one(r)["multiplier"] == 1


# ---------------------------------------------------------------- who may win


# What would have let a hand below the threshold win anyway: the exempt patterns (docs/rules.md §5), in order.
EXEMPT = [
    "da_menqing",
    "xiao_menqing",
    "hunyise",
    "qingyise",
    "duiduihu",
    "qidui",
    "gangkai",
    "huakai",
    "dadiaoche",
    "tianhu",
    "dihu",
]


def test_discard_needs_four_hard_flowers() -> None:
    r = score(win("S", "discard", PLAIN + " 中发白"), discarder="W", stake=5)
    assert one(r) == {
        "winner": "S",
        "allowed": False,
        "reason": "below_threshold",
        "hua": 0,
        "items": [],
        "multiplier": 1,
        "threshold": {"have": 3, "need": 4, "exempt": EXEMPT},
    }
    assert r["payments"] == {"E": 0, "S": 0, "W": 0, "N": 0}
    r = score(win("S", "discard", PLAIN + " 中发白春"), discarder="W", stake=5)
    assert one(r)["allowed"] and r["payments"]["W"] == -45


def test_self_draw_needs_three_hard_flowers() -> None:
    r = score(win("S", "self_draw", PLAIN + " 中发"))
    assert {k: one(r)["threshold"][k] for k in ("have", "need")} == {"have": 2, "need": 3}


def test_threshold_two_three() -> None:
    opts = {"threshold": "2/3"}
    assert one(score(win("S", "self_draw", PLAIN + " 中发"), options=opts))["allowed"]
    assert one(score(win("S", "discard", PLAIN + " 中发白"), discarder="E", options=opts))["allowed"]
    assert not one(score(win("S", "discard", PLAIN + " 中发"), discarder="E", options=opts))["allowed"]


def test_threshold_counts_soft() -> None:
    # 2 硬花 + 明杠 1: enough for a self-draw only when the meld 花 count.
    hand = "[7777s] [555p] 123m456m5s+5s 中发"
    assert not one(score(win("S", "self_draw", hand)))["allowed"]
    r = score(win("S", "self_draw", hand), options={"threshold_counts_soft": True})
    assert one(r)["allowed"] and one(r)["hua"] == 8


@pytest.mark.parametrize(
    ("hand", "flags", "pattern"),
    [
        ("123m456m789m234p5s+5s", {}, "da_menqing"),
        ("123m456m789m234p5s+5s 中", {}, "xiao_menqing"),
        ("[555p] 123p456p789p1z+1z", {}, "hunyise"),
        ("[555p] 123p456p789p1p+1p", {}, "qingyise"),
        ("[555p] [777s] 222m999m1s+1s", {}, "duiduihu"),
        ("1122m3344p5566s1z+1z", {}, "qidui"),
        ("[111p] [222s] [333m] [777s] 5s+5s", {}, "dadiaoche"),
    ],
)
def test_exempt_patterns_win_on_a_discard_without_flowers(
    hand: str, flags: dict[str, bool], pattern: str
) -> None:
    r = score(win("S", "discard", hand, **flags), discarder="W")
    assert one(r)["allowed"] and pattern in items(r)


@pytest.mark.parametrize("pattern", ["gangkai", "huakai", "tianhu", "dihu", "qidui", "dadiaoche"])
def test_exempt_patterns_declared(pattern: str) -> None:
    flags = {
        "gangkai": {"after_kong": True},
        "huakai": {"after_flower": True},
        "tianhu": {"heavenly": True},
        "dihu": {"earthly": True},
    }.get(pattern, {})
    winner = "E" if pattern == "tianhu" else "S"
    r = score(win(winner, "self_draw", hard=0, patterns=() if flags else (pattern,), **flags), dealer="E")
    assert one(r)["allowed"] and pattern in items(r)


def test_robbing_a_kong_needs_the_self_draw_threshold() -> None:
    assert not one(score(win("S", "rob_kong", PLAIN + " 中发"), discarder="W"))["allowed"]
    assert one(score(win("S", "rob_kong", PLAIN + " 中发白"), discarder="W"))["allowed"]


# ---------------------------------------------------------------- settlement


def test_one_discard_several_winners() -> None:
    # 一炮多响: W pays each winner that winner's T; the next hand is 滴零; N deals (first from W's next seat).
    r = score(
        win("S", "discard", PLAIN + " 中发白春"),
        win("N", "discard", "123m456m789m234p5s+5s"),
        discarder="W",
        dealer="E",
    )
    assert [w["hua"] for w in r["wins"]] == [9, 15]
    assert r["payments"] == {"E": 0, "S": 9, "W": -24, "N": 15}
    assert r["next_diling"] is True and r["next_dealer"] == "N"


def test_one_discard_several_winners_one_not_allowed() -> None:
    r = score(
        win("S", "discard", PLAIN + " 中"),
        win("N", "discard", "123m456m789m234p5s+5s"),
        discarder="W",
        dealer="E",
    )
    assert [w["allowed"] for w in r["wins"]] == [False, True]
    assert r["payments"] == {"E": 0, "S": 0, "W": -15, "N": 15}
    assert r["next_diling"] is False and r["next_dealer"] == "N"


def test_baojiaozi() -> None:
    # W's discard was 直杠'd by S, who wins on the replacement: W alone pays 3T; also 杠开.
    hand = "[7777s:direct:W] [555p] 123m456m5s+5s"
    r = score(win("S", "self_draw", hand, after_kong=True, kong_fed_by="W"), stake=2)
    assert items(r) == {"gangkai": 5, "di": 5, "minggang": 1, "baojiaozi": 0}
    assert one(r)["hua"] == 11 and one(r)["multiplier"] == 3
    assert r["payments"] == {"E": 0, "S": 66, "W": -66, "N": 0}


def test_qianggang() -> None:
    # S robs W's 补杠: W pays 3T = 3 × (底 5 + 硬花 3).
    r = score(win("S", "rob_kong", PLAIN + " 中发白"), discarder="W")
    assert items(r) == {"di": 5, "yinghua": 3, "qianggang": 0}
    assert r["payments"] == {"E": 0, "S": 24, "W": -24, "N": 0}


def test_qianggang_by_two_robbers() -> None:
    r = score(
        win("S", "rob_kong", PLAIN + " 中发白"), win("N", "rob_kong", "123m456m789m234p5s+5s"), discarder="W"
    )
    assert r["payments"] == {"E": 0, "S": 24, "W": -69, "N": 45}


def test_exhaustive_draw() -> None:
    r = score(event="draw", dealer="E")
    assert r["wins"] == [] and r["payments"] == {"E": 0, "S": 0, "W": 0, "N": 0}
    assert r["next_dealer"] == "S" and r["next_diling"] is True


def test_escape() -> None:
    # The leaver pays stake × 120 花, 40 to each of the other three.
    r = score(event="escape", escaper="W", stake=5)
    assert r["payments"] == {"E": 200, "S": 200, "W": -600, "N": 200}


# ---------------------------------------------------------------- multipliers


def test_baozi_doubles_and_makes_next_hand_diling() -> None:
    r = score(win("S", "self_draw", PLAIN + " 中发白"), baozi=True)
    assert one(r)["multiplier"] == 2 and r["payments"]["E"] == -16 and r["next_diling"] is True


def test_diling_doubles() -> None:
    r = score(win("S", "self_draw", PLAIN + " 中发白"), diling=True)
    assert one(r)["multiplier"] == 2 and r["payments"]["E"] == -16 and r["next_diling"] is False


def test_baozi_and_diling_double_once() -> None:
    r = score(win("S", "self_draw", PLAIN + " 中发白"), baozi=True, diling=True)
    assert one(r)["multiplier"] == 2


def test_doubling_stack() -> None:
    r = score(
        win("S", "self_draw", PLAIN + " 中发白"), baozi=True, diling=True, options={"doubling_stack": True}
    )
    assert one(r)["multiplier"] == 4 and r["payments"]["E"] == -32


def test_order_doubling_then_tripling() -> None:
    # T 8 → ×2 (豹子) → ×3 (抢杠) = 48 from the robbed player.
    r = score(win("S", "rob_kong", PLAIN + " 中发白"), discarder="W", baozi=True)
    assert one(r)["multiplier"] == 6 and r["payments"]["W"] == -48


def test_stake_multiplies() -> None:
    assert score(win("S", "self_draw", PLAIN + " 中发白"), stake=10)["payments"]["S"] == 240


def test_doubling_terms_are_listed_for_a_preview() -> None:
    r = score(win("S", "self_draw", PLAIN + " 中发白"), baozi=True, diling=True)
    assert items(r) == {"di": 5, "yinghua": 3, "baozi": 0, "diling": 0}
    assert one(r)["hua"] == 8


def test_kong_fed_by_alone_is_an_ordinary_self_draw() -> None:
    # W's discard was 直杠'd by S, but S won later on an ordinary draw (after_kong false): only the immediate
    # replacement win is 包饺子. Here it is 底 5 + 明杠 1 + 硬花 3 = 9 per payer, all three pay, no 杠开.
    hand = "[7777s:direct:W] [555p] 123m456m5s+5s 中发白"
    r = score(win("S", "self_draw", hand, kong_fed_by="W"), stake=2)
    assert items(r) == {"di": 5, "yinghua": 3, "minggang": 1}
    assert one(r)["hua"] == 9 and one(r)["multiplier"] == 1
    assert r["payments"] == {"E": -18, "S": 54, "W": -18, "N": -18}
    # The same hand on the replacement tile: W alone pays 3 × (9 + 杠开 5) × 2.
    r = score(win("S", "self_draw", hand, after_kong=True, kong_fed_by="W"), stake=2)
    assert one(r)["hua"] == 14 and one(r)["multiplier"] == 3
    assert r["payments"] == {"E": 0, "S": 84, "W": -84, "N": 0}
    # The quick entry reads it alike.
    r = score(win("S", "self_draw", hard=3, kong_fed_by="W"))
    assert "baojiaozi" not in items(r) and r["payments"]["W"] == -8
