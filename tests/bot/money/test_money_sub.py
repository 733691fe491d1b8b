"""After a /sub every figure is labelled for whom it is: the card's seat line is the
sitter's own net, the seat's total is called the seat's, and /ledger heads the seat's column with everyone
who sat there. Through the real Application, on SQLite and PostgreSQL; each person's money by hand."""

from __future__ import annotations

import pytest
from harness import END, Table, money


@pytest.mark.slow
async def test_after_a_sub_the_card_and_the_ledger_show_each_person_their_own(db_seated: Table) -> None:
    """Hand 1: Ann (东, dealer) self-draws 5 花, T = 10: Ann +30, Bob −10, Cat −10, Dan −10.
    /sub 南 @eve. Hand 2: Cat (西) self-draws 6 花, T = 11: Cat +33, Ann −11, Eve −11, Dan −11.
    By hand: Ann +19, Bob −10, Eve −11, Cat +23, Dan −21 (sum 0); the 南 seat's total is −21."""
    table = db_seated
    await table.say("ann", "/rules instant on")
    await table.say("ann", "/hu 东 自摸 5花")
    await table.say("eve", "/score")  # the bot knows Eve now
    await table.say("ann", "/sub 南 @eve")
    await table.say("ann", "/hu 西 自摸 6花")
    card = table.pinned()
    assert card is not None
    assert "南 Eve  −11\n  南位先后：Bob −10、Eve −11 · 座位合计 −21" in card.text
    assert "东 Ann  +19" in card.text and "西 Cat 🀄庄  +23" in card.text and "北 Dan  −21" in card.text
    turn = await table.say("ann", "/ledger")
    text = turn.texts[0]
    assert "局 | 东Ann 南Bob/Eve 西Cat 北Dan" in text
    assert text.endswith("合计 | +19 −21 +23 −21\n南位先后：Bob −10、Eve −11"), text
    await table.say("ann", "/end")
    await table.press("ann", END)
    assert money(table) == {"Ann": 19, "Bob": -10, "Eve": -11, "Cat": 23, "Dan": -21}


@pytest.mark.slow
async def test_sub_refuses_what_join_refuses_and_says_when_it_seats_a_guest(db_seated: Table) -> None:
    """`/sub 北 自摸` (清一色, 5花, 冲, zimo) is refused as /join refuses it: 北 is still Dan, so
    /hu 北 自摸 5花 is Dan's self-draw, T = 10: Dan +30, Ann/Bob/Cat −10 each.
    `/sub 西 Eve` when the bot knows no Eve asks first (and says how the member sits down herself); the
    press seats the guest, and the reply says it is one.
    Hand 2: 西 (the guest Eve) self-draws 4 花, T = 9 from each other seat:
    Eve +27, Ann −19, Bob −19, Cat −10 (hand 1 only), Dan +21."""
    table = db_seated
    await table.say("ann", "/rules instant on")
    for word in ("自摸", "清一色", "5花", "冲", "zimo"):
        turn = await table.say("ann", f"/sub 北 {word}")
        assert turn.texts == [f"“{word}”是记分用语（/hu 里的词），不能当客人名字。例如：/join 路人甲"]
    turn = await table.say("ann", "/hu 北 自摸 5花")
    assert turn.texts[0].startswith("第1局 北 自摸 10花 → 北 +30"), turn.texts
    turn = await table.say("ann", "/sub 西 Eve")
    assert turn.texts == ["本群不认识叫“Eve”的成员。按客人 Eve 接西位吗？若是群里的人，请他自己发 /sub 西。"]
    assert turn.sent[0].buttons == ("按客人 Eve 入座", "取消")
    turn = await table.press("ann", "按客人 Eve 入座")
    assert turn.texts[0] == (
        "西位：Cat 离开，客人 Eve 从下一局起接着打（本群不认识叫这个名字的成员，按客人记；"
        "若是群里的人，请他自己发 /sub 西）。各人的分数分开记。"
    )
    await table.say("ann", "/hu 西 自摸 4花")
    await table.say("ann", "/end")
    await table.press("ann", END)
    assert money(table) == {"Eve": 27, "Ann": -19, "Bob": -19, "Cat": -10, "Dan": 21}
