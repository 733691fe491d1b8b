"""Reading the ledger through the bot: /score, /ledger, /history, /stats (anyone in the group may read)."""

from __future__ import annotations

from harness import Table


async def play(table: Table) -> None:
    """Two hands and a side payment, recorded at once (instant mode)."""
    await table.say("ann", "/rules instant on")
    await table.say("bob", "/hu 南 自摸 5花 清一色 七对")  # S +120, others −40
    await table.say("cat", "/hu 西 冲 东 5花 清一色")  # W +20, E −20
    await table.say("dan", "/adjust 北 南 10 茶水")


async def test_score_shows_the_session_and_all_time_totals(seated_table: Table) -> None:
    await play(seated_table)
    turn = await seated_table.say("eve", "/score")
    assert turn.text == ("本局积分（苏州麻将，底注 1）：\n东 Ann −60\n南 Bob +130\n西 Cat −20\n北 Dan −50\n"
                         "本群历史总分：\nBob +130\nCat −20\nDan −50\nAnn −60")


async def test_score_of_one_player(seated_table: Table) -> None:
    await play(seated_table)
    turn = await seated_table.say("eve", "/score @cat")
    assert turn.text == "Cat：本局 −20，历史 −20"
    turn = await seated_table.say("eve", "/score 南")
    assert turn.text == "Bob：本局 +130，历史 +130"
    turn = await seated_table.say("eve", "/score nobody")
    assert turn.text.startswith("找不到玩家“nobody”")


async def test_score_before_anything_was_played(table: Table) -> None:
    turn = await table.say("eve", "/score")
    assert turn.text == "本群历史总分：\n没有记录。"


async def test_ledger_lists_every_row_with_totals(seated_table: Table) -> None:
    await play(seated_table)
    turn = await seated_table.say("eve", "/ledger")
    assert turn.text.splitlines() == [
        "📒 账本 · 苏州麻将 · 底注 1",
        "局 | 东Ann 南Bob 西Cat 北Dan",
        "1 南 自摸 40花 | −40 +120 −40 −40",
        "2 西 冲 东 20花 | −20 0 +20 0",
        "调 北→南 10 | 0 +10 0 −10",
        "合计 | −60 +130 −20 −50",
    ]


async def test_ledger_needs_a_session(table: Table) -> None:
    turn = await table.say("eve", "/ledger")
    assert turn.text == "本群没有进行中的牌局。先开一局，例如：/newgame 苏州 5"


async def test_history_and_stats_after_a_session(seated_table: Table) -> None:
    await play(seated_table)
    await seated_table.say("ann", "/end")
    turn = await seated_table.say("eve", "/history")
    lines = turn.text.splitlines()
    assert lines[0] == "历史牌局："
    assert lines[1].startswith("1. ")
    assert "苏州麻将 · 2 局 · Bob +130 · Cat −20 · Dan −50 · Ann −60" in lines[1]
    turn = await seated_table.say("eve", "/stats bob")
    assert turn.text == ("Bob 的统计：\n"
                         "1 场 · 2 局 · 和 1 · 自摸 1 · 放冲 0 · 最大 40 花 · 最长连庄 0 · 净 +130")
    turn = await seated_table.say("eve", "/stats")
    assert turn.text.count("的统计：") == 4


async def test_history_when_nothing_was_played(table: Table) -> None:
    turn = await table.say("eve", "/history")
    assert turn.text == "还没有结束的牌局。"
