"""After a /sub every figure is labelled for whom it is (issue 30, problem 4): the card's seat line is the
sitter's own net, the seat's total is called the seat's, and /ledger heads the seat's column with everyone
who sat there. Through the real Application, on SQLite and PostgreSQL; each person's money by hand."""

from __future__ import annotations

from harness import Table

END = "✅ 结束并结算"


def money(table: Table) -> dict[str, int]:
    report = table.app.bot_data["ledger"].balance(table.chat_id)
    names = {tr.payer.id: tr.payer.display_name for tr in report.transfers}
    names |= {tr.payee.id: tr.payee.display_name for tr in report.transfers}
    return {names[pid]: amount for pid, amount in report.totals.items()}


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
    assert "南 Eve  −11\n  Bob −10 → Eve −11 · 座位合计 −21" in card.text
    assert "东 Ann  +19" in card.text and "西 Cat 🀄庄  +23" in card.text and "北 Dan  −21" in card.text
    turn = await table.say("ann", "/ledger")
    text = turn.texts[0]
    assert "局 | 东Ann 南Bob/Eve 西Cat 北Dan" in text
    assert text.endswith("合计 | +19 −21 +23 −21\n南 Bob −10 → Eve −11"), text
    await table.say("ann", "/end")
    await table.press("ann", END)
    assert money(table) == {"Ann": 19, "Bob": -10, "Eve": -11, "Cat": 23, "Dan": -21}
