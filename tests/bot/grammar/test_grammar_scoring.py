"""The entries the grammar makes are requests the scoring core accepts: docs/rules.md §5 as /hu lines."""

from __future__ import annotations

from typing import Any

import pytest
from grammar_builders import resolve

from bot.grammar import parse_draw, parse_escape, parse_hu
from scoring import score_request


def score(entry: dict[str, Any], **table: Any) -> dict[str, Any]:
    """What the ledger does: the entry plus the table state, scored."""
    request = {"rules": "suzhou", "stake": 5, "dealer": "E", "round_wind": "E", **table, **entry}
    return score_request(request)


@pytest.mark.parametrize(
    "typed",
    [
        "南 自摸 11223355778899p 中发春梅百搭",  # the tile form
        "南 自摸 5花 清一色 七对",  # the quick form of the same hand
        "bob zimo 5h qys qd",
    ],
)
def test_worked_example_self_draw_40_hua(typed: str) -> None:
    result = score(parse_hu(typed, resolve))
    assert result["wins"][0]["hua"] == 40
    assert result["payments"] == {"E": -200, "S": 600, "W": -200, "N": -200}


@pytest.mark.parametrize("typed", ["南 冲 西 11223355778899p 中发春梅百搭", "南 西点炮 5花 清一色 七对"])
def test_worked_example_won_on_wests_discard(typed: str) -> None:
    assert score(parse_hu(typed, resolve))["payments"] == {"E": 0, "S": 200, "W": -200, "N": 0}


def test_worked_example_with_qidui_10() -> None:
    result = score(parse_hu("南 自摸 5花 清一色 七对", resolve), options={"qidui": "10"})
    assert result["wins"][0]["hua"] == 30


def test_one_discard_two_winners() -> None:
    result = score(parse_hu("东 8花 西 清一色 冲 北", resolve), options={"threshold": "2/3"}, stake=1)
    assert result["payments"]["N"] == -sum(v for seat, v in result["payments"].items() if seat != "N")
    assert result["payments"]["E"] > 0 and result["payments"]["W"] > 0
    assert result["payments"]["S"] == 0


def test_bao_jiaozi_the_feeder_pays_three_times() -> None:
    result = score(parse_hu("东 包 北 123m456m9p+9p [555p] [7777s:直:N] 中春菊", resolve), stake=1)
    hua = result["wins"][0]["hua"]
    assert result["payments"] == {"E": 3 * hua, "S": 0, "W": 0, "N": -3 * hua}


def test_gangkai_in_the_quick_form_scores_once() -> None:
    plain = score(parse_hu("南 自摸 4花 清一色", resolve))["wins"][0]["hua"]
    after_kong = score(parse_hu("南 自摸 4花 清一色 杠开", resolve))["wins"][0]["hua"]
    assert after_kong - plain == 5


def test_suzhou_anhui_wild_and_shangpai() -> None:
    entry = parse_hu("东 自摸 3花 混子 5p 上牌", resolve)
    result = score(entry, rules="suzhou-anhui", stake=1)
    assert result["wins"][0]["allowed"]
    # dealer self-draw with f = 3: each 闲 pays 2·3+4 = 10, doubled by 上牌
    assert result["payments"] == {"E": 60, "S": -20, "W": -20, "N": -20}


def test_draw_and_escape_entries() -> None:
    assert set(score(parse_draw("荒庄"))["payments"].values()) == {0}
    escape = score(parse_escape("北", resolve), stake=1)
    assert escape["payments"] == {"E": 40, "S": 40, "W": 40, "N": -120}
