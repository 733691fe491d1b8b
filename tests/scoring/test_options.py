"""The 苏州 options that the sources themselves offer (docs/rules.md §1, "Options of the patterns"), one
worked example per value. Each test quotes its source line."""

import pytest
from scoring_helpers import items, one, score, win

from scoring import ScoringError, option_specs

SUITED_PUNG = "[555p] 123m456m789s1s+1s"  # one suited 碰, no flowers, no wind


# ---------------------------------------------------------------- damenqing


def test_damenqing_strict_a_pung_breaks_damenqing() -> None:
    # 000 "没有风碰，杠，暗刻，没有硬花"; default "strict": no meld at all. Without 硬花 and without an
    # exempt pattern the hand may not win (3 硬花 needed on a self-draw).
    r = score(win("S", "self_draw", SUITED_PUNG))
    assert one(r)["allowed"] is False and one(r)["reason"] == "below_threshold"


def test_damenqing_pung_allows_a_suited_pung() -> None:
    # 002 "无花，可以碰过，但不可有风碰和杠": 大门清 10 + 底 5 = 15 per payer, all three pay.
    r = score(win("S", "self_draw", SUITED_PUNG), options={"damenqing": "pung"})
    assert items(r) == {"da_menqing": 10, "di": 5}
    assert r["payments"] == {"E": -15, "S": 45, "W": -15, "N": -15}


@pytest.mark.parametrize(
    "hand",
    [
        "[111z] 123m456m789s1s+1s",  # 风碰
        "[5555p] 123m456m789s1s+1s",  # a kong (明杠)
        "(5555p) 123m456m789s1s+1s",  # a kong (暗杠)
        "[555p] 123m456m222z1s+1s",  # 风暗刻
        "[555p] 123m456m789s1s+1s 春",  # 硬花
    ],
)
def test_damenqing_pung_still_no_wind_pung_kong_wind_triplet_or_flower(hand: str) -> None:
    # 002 "但不可有风碰和杠"; 000 "没有风碰，杠，暗刻，没有硬花".
    r = score(
        win("S", "self_draw", hand + (" 中发白" if "春" not in hand else " 中发")),
        options={"damenqing": "pung"},
    )
    assert "da_menqing" not in items(r)


# ---------------------------------------------------------------- xiaomenqing_kong

EXPOSED_KONG = "[7777m] 123p456p789s1s+1s 中发春"  # an exposed kong, 3 硬花


def test_xiaomenqing_kong_false_an_exposed_kong_breaks_xiaomenqing() -> None:
    # Default: 小门清 needs no 碰 and no 明杠. 底 5 + 明杠 1 + 硬花 3 = 9.
    r = score(win("S", "self_draw", EXPOSED_KONG))
    assert items(r) == {"di": 5, "yinghua": 3, "minggang": 1}


def test_xiaomenqing_kong_true_exposed_kongs_keep_xiaomenqing() -> None:
    # 002 "没有碰过，+5分（只有有明/补杠也算）": 小门清 5 + 底 5 + 明杠 1 + 硬花 3 = 14.
    r = score(win("S", "self_draw", EXPOSED_KONG), options={"xiaomenqing_kong": True})
    assert items(r) == {"xiao_menqing": 5, "di": 5, "yinghua": 3, "minggang": 1}
    assert one(r)["hua"] == 14


def test_xiaomenqing_kong_true_a_pung_still_breaks_it() -> None:
    # "(只有有明/补杠也算)" names kongs only: 没有碰过 still holds.
    hand = "[7777m] [555p] 123p789s1s+1s 中发春"
    r = score(win("S", "self_draw", hand), options={"xiaomenqing_kong": True})
    assert "xiao_menqing" not in items(r)


# ---------------------------------------------------------------- qidui_menqing

QIDUI_NO_FLOWER = "11223355778899p"


def test_qidui_menqing_false_a_qidui_never_scores_menqing() -> None:
    # docs/rules.md §1: "a 七对 never also scores 大门清/小门清". 清一色 10 + 七对 15 + 底 5 = 30.
    r = score(win("S", "self_draw", QIDUI_NO_FLOWER))
    assert items(r) == {"qingyise": 10, "qidui": 15, "di": 5}


def test_qidui_menqing_true_a_qidui_without_flowers_scores_damenqing() -> None:
    # 000 "七对成牌后不计门清，无花加一个大小门清": + 大门清 10 = 40.
    r = score(win("S", "self_draw", QIDUI_NO_FLOWER), options={"qidui_menqing": True})
    assert items(r) == {"da_menqing": 10, "qingyise": 10, "qidui": 15, "di": 5}
    # and 小门清 too under menqing_stack: 45
    r = score(win("S", "self_draw", QIDUI_NO_FLOWER), options={"qidui_menqing": True, "menqing_stack": True})
    assert one(r)["hua"] == 45 and items(r)["xiao_menqing"] == 5


def test_qidui_menqing_true_with_a_flower_still_none() -> None:
    # "无花" only: one 硬花 (counted twice in a 七对) and no 门清. 10 + 15 + 5 + 2 = 32.
    r = score(win("S", "self_draw", QIDUI_NO_FLOWER + " 春"), options={"qidui_menqing": True})
    assert items(r) == {"qingyise": 10, "qidui": 15, "di": 5, "yinghua": 2}


def test_qidui_menqing_in_the_quick_entry() -> None:
    declared = win("S", "self_draw", hard=0, patterns=("七对", "大门清"))
    with pytest.raises(ScoringError, match="a 七对 never also scores 大门清"):
        score(declared)
    r = score(declared, options={"qidui_menqing": True})
    assert items(r) == {"da_menqing": 10, "qidui": 15, "di": 5}
    with pytest.raises(ScoringError, match="大门清 needs no 硬花"):
        score(win("S", "self_draw", hard=1, patterns=("七对", "大门清")), options={"qidui_menqing": True})


# ---------------------------------------------------------------- songgang

FED_KONG = "[7777s:direct:W] [555p] 123m456m5s+5s 中发白"  # W's discard was 直杠'd by S


def test_songgang_replacement_a_later_self_draw_is_ordinary() -> None:
    # Default: "Only the immediate replacement win counts (a later self-draw is ordinary)".
    # 底 5 + 明杠 1 + 硬花 3 = 9, all three pay.
    r = score(win("S", "self_draw", FED_KONG, kong_fed_by="W"))
    assert r["payments"] == {"E": -9, "S": 27, "W": -9, "N": -9}


def test_songgang_any_the_feeder_pays_for_a_later_self_draw() -> None:
    # 000 "送杠：被对方杠牌后自摸，被杠牌方帮其他两家付钱": W alone pays 3T = 3 × 9 = 27; no 杠开.
    r = score(win("S", "self_draw", FED_KONG, kong_fed_by="W"), options={"songgang": "any"})
    assert items(r) == {"di": 5, "yinghua": 3, "minggang": 1, "songgang": 0}
    assert one(r)["items"][-1] == {"id": "songgang", "name": "送杠", "hua": 0, "times": 3}
    assert one(r)["multiplier"] == 3
    assert r["payments"] == {"E": 0, "S": 27, "W": -27, "N": 0}


def test_songgang_any_on_the_replacement_tile_is_baojiaozi() -> None:
    # "no 杠开 unless it was the replacement tile": on it, 包饺子 with 杠开: 3 × 14 = 42.
    r = score(win("S", "self_draw", FED_KONG, after_kong=True, kong_fed_by="W"), options={"songgang": "any"})
    assert items(r) == {"gangkai": 5, "di": 5, "yinghua": 3, "minggang": 1, "baojiaozi": 0}
    assert r["payments"] == {"E": 0, "S": 42, "W": -42, "N": 0}


def test_songgang_any_in_the_quick_entry() -> None:
    r = score(win("S", "self_draw", hard=3, kong_fed_by="W"), options={"songgang": "any"})
    assert r["payments"] == {"E": 0, "S": 24, "W": -24, "N": 0}


def test_songgang_any_needs_a_kong_fed_by_that_player() -> None:
    with pytest.raises(ScoringError, match="no exposed 直杠 from E"):
        score(win("S", "self_draw", FED_KONG, kong_fed_by="E"), options={"songgang": "any"})


# ---------------------------------------------------------------- duiduihu, hunyise, qingyise

ALL_PUNGS = "[555p] 111m222s999s3s+3s"
HALF_FLUSH = "123m456m789m111z2z+2z"
FULL_FLUSH = "123m456m789m111m2m+2m"


@pytest.mark.parametrize(("value", "hua"), [("5", 5), ("8", 8)])
def test_duiduihu_value(value: str, hua: int) -> None:
    # 002 "+5/8分（自己定加分）": 对对胡 + 底 5.
    r = score(win("S", "self_draw", ALL_PUNGS), options={"duiduihu": value})
    assert items(r) == {"duiduihu": hua, "di": 5}


@pytest.mark.parametrize(("value", "hua"), [("5", 5), ("6", 6), ("8", 8)])
def test_hunyise_value(value: str, hua: int) -> None:
    # 002 "+5/6/8分".
    r = score(win("S", "self_draw", HALF_FLUSH), options={"hunyise": value})
    assert items(r)["hunyise"] == hua


@pytest.mark.parametrize(("value", "hua"), [("10", 10), ("16", 16)])
def test_qingyise_value(value: str, hua: int) -> None:
    # 002 "+10/16分或*2倍": 清一色 + 大门清 10 + 底 5.
    r = score(win("S", "self_draw", FULL_FLUSH), options={"qingyise": value})
    assert items(r) == {"da_menqing": 10, "qingyise": hua, "di": 5}
    assert one(r)["multiplier"] == 1


def test_qingyise_x2_doubles_the_settlement() -> None:
    # 002 "或*2倍": no 10 花; T = 大门清 10 + 底 5 = 15, doubled: each of three pays 30.
    r = score(win("S", "self_draw", FULL_FLUSH), options={"qingyise": "x2"})
    assert one(r)["items"][1] == {"id": "qingyise", "name": "清一色", "hua": 0, "times": 2}
    assert one(r)["hua"] == 15 and one(r)["multiplier"] == 2
    assert r["payments"] == {"E": -30, "S": 90, "W": -30, "N": -30}


def test_pattern_multipliers_multiply_together() -> None:
    # "several multiply together": 清一色 x2 and 大吊车 x2 on one hand: T ×4.
    hand = "[111m] [222m] [333m] [444m] 5m+5m 中发白"
    r = score(win("S", "self_draw", hand), options={"qingyise": "x2", "dadiaoche": "x2"})
    assert one(r)["multiplier"] == 4
    assert one(r)["hua"] == 5 + 5 + 3  # 对对胡 5 + 底 5 + 硬花 3
    assert r["payments"]["E"] == -13 * 4


# ---------------------------------------------------------------- refused values


@pytest.mark.parametrize(
    ("option", "value", "choices"),
    [
        ("damenqing", "loose", "strict, pung"),
        ("songgang", "always", "replacement, any"),
        ("duiduihu", "6", "5, 8"),
        ("hunyise", "7", "5, 6, 8"),
        ("qingyise", "x3", "10, 16, x2"),
        ("sanfengke", "14", "12, 16"),
        ("haoqidui", "2/4", "3/6, 4/8"),
        ("xiaomenqing_kong", "maybe", "false, true"),
    ],
)
def test_a_value_outside_the_list_is_refused_with_the_option_and_its_values(
    option: str, value: str, choices: str
) -> None:
    # docs/rules.md §1: "Values outside a row's list are refused with the option's name and its values."
    with pytest.raises(ScoringError) as caught:
        score(win("S", "self_draw", hard=3), options={option: value})
    assert caught.value.code == "bad_option"
    assert caught.value.params == {"option": option, "value": value, "choices": choices}


def test_an_unknown_option_is_refused_with_the_known_ones() -> None:
    with pytest.raises(ScoringError) as caught:
        score(win("S", "self_draw", hard=3), options={"menqing": True})
    assert caught.value.code == "unknown_option" and caught.value.params["option"] == "menqing"
    assert "songgang" in caught.value.params["known"]


def test_defaults_keep_todays_scores() -> None:
    # Every new option at its default scores the docs/rules.md §5 example as before: 40 花 per payer.
    defaults = {spec.id: spec.default for spec in option_specs("suzhou")}
    r = score(win("S", "self_draw", "11223355778899p 中发春梅百搭"), stake=5, options=defaults)
    assert one(r)["hua"] == 40 and r["payments"]["S"] == 600
