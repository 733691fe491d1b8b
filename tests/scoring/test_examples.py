"""The worked examples of docs/rules.md §5, verbatim."""

from scoring_helpers import items, one, score, win

QINGYISE_QIDUI = "11223355778899p 中发春梅百搭"


def test_suzhou_qingyise_qidui_self_draw() -> None:
    # 清一色 10 + 七对 15 + 底 5 + 硬花 5×2 = 40 花 per payer; E, W, N each pay 200, S receives 600.
    r = score(win("S", "self_draw", QINGYISE_QIDUI), stake=5)
    assert one(r)["hua"] == 40
    assert items(r) == {"qingyise": 10, "qidui": 15, "di": 5, "yinghua": 10}
    assert r["payments"] == {"E": -200, "S": 600, "W": -200, "N": -200}
    assert r["next_dealer"] == "S" and r["next_diling"] is False and r["next_round_wind"] == "E"


def test_suzhou_qingyise_qidui_on_discard() -> None:
    # Won instead on W's discard: W alone pays 200.
    r = score(win("S", "discard", QINGYISE_QIDUI), stake=5, discarder="W")
    assert r["payments"] == {"E": 0, "S": 200, "W": -200, "N": 0}


def test_suzhou_qidui_option_10() -> None:
    # option qidui "10": 10 + 10 + 5 + 5 = 30 per payer.
    r = score(win("S", "self_draw", QINGYISE_QIDUI), stake=5, options={"qidui": "10"})
    assert items(r) == {"qingyise": 10, "qidui": 10, "di": 5, "yinghua": 5}
    assert one(r)["hua"] == 30
    assert r["payments"] == {"E": -150, "S": 450, "W": -150, "N": -150}


def test_anhui_dealer_self_draw() -> None:
    # dealer E self-draws with f = 3, b = 1: S, W, N each pay 2·3+4 = 10; E receives 30.
    r = score(win("E", "self_draw", hard=3), rules="suzhou-anhui", dealer="E")
    assert one(r)["hua"] == 3
    assert r["payments"] == {"E": 30, "S": -10, "W": -10, "N": -10}


def test_anhui_idle_wins_on_idle_discard() -> None:
    # 闲 S wins on 闲 N's discard with f = 3: N pays 2·3+1 = 7.
    r = score(win("S", "discard", hard=3), rules="suzhou-anhui", dealer="E", discarder="N")
    assert r["payments"] == {"E": 0, "S": 7, "W": 0, "N": -7}


def test_anhui_idle_wins_on_dealer_discard() -> None:
    # On the dealer E's discard: E pays 8.
    r = score(win("S", "discard", hard=3), rules="suzhou-anhui", dealer="E", discarder="E")
    assert r["payments"] == {"E": -8, "S": 8, "W": 0, "N": 0}


def test_anhui_example_with_tiles() -> None:
    # The same f = 3 from tiles: 春 夏 and an exposed 南 pung (风碰 1), round wind 东.
    r = score(win("E", "self_draw", "[222z] 123m456m789m5s+5s 春夏"), rules="宿州", dealer="E")
    assert items(r) == {"yinghua": 2, "fengpeng": 1}
    assert r["payments"] == {"E": 30, "S": -10, "W": -10, "N": -10}
