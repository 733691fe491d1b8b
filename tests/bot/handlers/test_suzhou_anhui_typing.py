"""What a 宿州 table types: its 令风 after the tiles, alone or repeated, is a flower, not a second winner."""

from __future__ import annotations

import pytest
from harness import PLAYERS, Table


async def anhui_table(table: Table) -> Table:
    """`/newgame 宿州 2`, ann bob cat dan seated 东南西北, 东 dealing in the 东风圈."""
    await table.say("ann", "/newgame 宿州 2")
    for name in PLAYERS:
        await table.say(name, "/join")
    await table.say("ann", "/dealer 东")
    return table


@pytest.mark.parametrize(
    ("flowers", "amounts"),
    [
        # f = 1: the 庄 pays 2×(2+4) = 12, each 闲 2×(2+2) = 8
        (" 东", "南 +28 · 东 −12 · 西 −8 · 北 −8"),
        ("东", "南 +28 · 东 −12 · 西 −8 · 北 −8"),
        # f = 2: 2×(4+4) = 16, 2×(4+2) = 12
        (" 东东", "南 +40 · 东 −16 · 西 −12 · 北 −12"),
    ],
)
async def test_the_round_wind_typed_after_the_tiles_is_a_flower(
    table: Table, flowers: str, amounts: str
) -> None:
    await anhui_table(table)
    turn = await table.say("ann", f"/hu 南 自摸 123m456m789m123p99p{flowers}")
    assert f"输赢：{amounts}" in turn.text, turn.text


async def test_a_wind_before_the_word_for_dealing_in_still_names_the_discarder(table: Table) -> None:
    await anhui_table(table)
    turn = await table.say("ann", "/hu 南 123m456m789m123p99p 东 冲")
    assert "东 Ann 放冲，南 Bob 胡 · 花数 0" in turn.text, turn.text  # 闲 on the 庄: 2×(0+2)
    assert "输赢：南 +4 · 东 −4" in turn.text, turn.text


async def test_a_multiple_win_and_calc_show_each_winners_formula_and_the_wild(table: Table) -> None:
    """北 and 西 both win on the dealer 东's discard (f = 2 and 0): 东 pays 2×(2×2+2) = 12 and 2×(0+2) = 4,
    each shown as its own 算法 line, in the preview and in /calc; the 混子 is named."""
    await anhui_table(table)
    preview = (await table.say("ann", "/hu 西 北 冲 东 2花 混子 5p")).text
    assert "混子 五筒" in preview and "输赢：西 +4 · 北 +12 · 东 −16" in preview, preview
    assert "算法：庄付 2×（2×0+2）= 4" in preview and "算法：庄付 2×（2×2+2）= 12" in preview, preview
    calc = (await table.say("ann", "/calc 西 北 冲 东 2花 混子 5p")).text
    assert "算法：庄付 2×（2×0+2）= 4" in calc and "算法：庄付 2×（2×2+2）= 12" in calc, calc
    assert "混子 五筒" in calc and "底分 2：西 +4 · 北 +12 · 东 −16" in calc, calc


async def test_ting_says_waits_that_score_alike_once_in_suzhou_anhui_words(table: Table) -> None:
    """九莲: nine waits, all f = 0 at a 宿州 table: one line naming the nine tiles, 花数 0 (not 0花)."""
    await anhui_table(table)
    reply = (await table.say("ann", "/ting 1112345678999m")).text
    assert reply.splitlines() == [
        "听9张：",
        "一万、二万、三万、四万、五万、六万、七万、八万、九万：自摸 花数 0，冲胡 花数 0",
    ]
