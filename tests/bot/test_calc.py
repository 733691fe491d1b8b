"""/calc and /ting through the bot: scoring without recording, in a group or a private chat."""

from __future__ import annotations

from harness import Table


async def test_calc_itemizes_the_hand(table: Table) -> None:
    turn = await table.say("eve", "/calc 11223355778899p 中发春梅百搭")
    assert turn.text == (
        "苏州麻将 · 自摸\n  清一色 10\n  七对 15\n  底 5\n  硬花 10\n"
        "合计 40 花；底注 1：南 +120 · 东 −40 · 西 −40 · 北 −40"
    )


async def test_calc_on_a_discard_uses_the_open_table_stake(seated_table: Table) -> None:
    await seated_table.say("ann", "/end")
    await seated_table.press("ann", "✅ 结束并结算")
    await seated_table.say("ann", "/newgame 苏州 5")
    turn = await seated_table.say("eve", "/calc 11223355778899p 中发春梅百搭 冲")
    assert turn.text.startswith("苏州麻将 · 放冲")
    assert turn.text.endswith("合计 40 花；底注 5：南 +200 · 北 −200")


async def test_calc_says_when_a_hand_may_not_win(table: Table) -> None:
    turn = await table.say("eve", "/calc 123m456m789m55s[555p]")
    assert turn.text.startswith("苏州麻将 · 自摸\n不能和：")


async def test_calc_refuses_a_bad_hand_and_records_nothing(table: Table) -> None:
    turn = await table.say("eve", "/calc 123m456m789m123p55s5s")
    assert "用法：/calc" in turn.text
    turn = await table.say("eve", "/calc")
    assert turn.text.startswith("/calc 需要一手完整的牌")


async def test_ting_lists_waits_with_their_flowers(table: Table) -> None:
    turn = await table.say("eve", "/ting 1112345678999m")
    lines = turn.text.splitlines()
    assert lines[0] == "听 9 张："
    assert [line.split("：")[0] for line in lines[1:]] == [f"{n}m" for n in range(1, 10)]
    assert lines[1] == "1m：自摸 25 花 · 放冲 25 花"  # 清一色 10 + 大门清 10 + 底 5


async def test_ting_not_waiting_and_bad_input(table: Table) -> None:
    turn = await table.say("eve", "/ting 1357m2468p1357s9m")
    assert turn.text == "没听牌。"
    turn = await table.say("eve", "/ting")
    assert turn.text == "缺少参数。\n用法：/ting 13张牌，例如 /ting 1112345678999m"
    turn = await table.say("eve", "/ting 11m")
    assert turn.text.startswith("算不了：")
