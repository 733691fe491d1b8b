"""The one who fed a 包饺子 pays the whole hand alone, like a discarder: the stats count it as 放冲, as they
count the player robbed by 抢杠."""

from __future__ import annotations

from harness import END, Table, summary


async def test_feeding_a_bao_jiaozi_counts_as_dealing_in(seated_table: Table) -> None:
    table = seated_table
    await table.say("ann", "/rules instant on")
    said = (await table.say("ann", "/hu 南 包 西 8花")).text
    assert "西 −" in said and "东 −" not in said, said  # 西 fed the kong: 西 alone pays
    stats = (await table.say("cat", "/stats")).text
    assert "放冲 1" in stats, stats
    await table.say("ann", "/end")
    await table.press("ann", END)
    card = summary(table, 1).text
    assert "西 Cat −" in card and "自摸 0 · 放冲 1" in card, card
    assert "南 Bob +" in card and "自摸 1 · 放冲 0" in card, card
