"""台费 and 抽水 in the summary as two figures, and the order the money options apply in, said by /rules."""

from __future__ import annotations

from harness import END, Table, summary


async def test_the_summary_shows_fee_and_rake_as_separate_figures(seated_table: Table) -> None:
    """`/rules fee 20`, `/rules rake 10`; 南 self-draws 8 花 (T = 13: 南 +39, the others −13 each). 抽水 is
    10% of 39, rounded down: 3, Bob's alone; 台费 20 each; the 台 takes 3 + 80."""
    table = seated_table
    await table.say("zoe", "/rules fee 20")
    await table.say("zoe", "/rules rake 10")
    rules = (await table.say("ann", "/rules")).text
    assert "先乘结算倍数，再扣抽水" in rules and "最后抹零" in rules
    await table.say("ann", "/hu 南 自摸 8花")
    await table.press("bob", "✅ 确认")
    await table.say("ann", "/end")
    await table.press("ann", END)
    card = summary(table, 1).text
    assert "Bob：本场 +39 · 抽水 −3 · 台费 −20 · 应结 +16" in card, card
    assert "Ann：本场 −13 · 台费 −20 · 应结 −33" in card, card
    assert "台：本场 0 · 抽水 +3 · 台费 +80 · 应结 +83" in card, card
    assert "台费/抽水" not in card
