"""A 一炮多响 row lists only the winners who were paid (issue 30, problem 8): a refused winner is no winner on
the card or in /ledger. Through the real Application, on SQLite and PostgreSQL; the money by hand."""

from __future__ import annotations

from harness import Table

END = "✅ 结束并结算"


async def test_a_refused_winner_of_a_multi_win_is_not_listed_as_a_winner(db_seated: Table) -> None:
    """/hu 东 8花 西 2花 冲 北: 东 (Ann) wins 底 5 + 8 = 13 from 北 (Dan); 西 (Cat) has 2 硬花 where a
    discard win needs 4: refused, paid nothing. Ann +13, Dan −13, Bob and Cat 0."""
    table = db_seated
    await table.say("ann", "/rules instant on")
    turn = await table.say("ann", "/hu 东 8花 西 2花 冲 北")
    assert turn.texts[0].startswith("第1局 北 点炮，东 胡 13花 → 东 +13 · 北 −13"), turn.texts
    card = table.pinned()
    assert card is not None
    row = card.text.split("—\n")[1]
    assert row == "1 北 点炮，东 胡 13花 | +13 0 0 −13", row
    assert "西" not in row and "0花" not in row
    ledger_text = (await table.say("ann", "/ledger")).texts[0]
    assert "1 北 点炮，东 胡 13花 | +13 0 0 −13" in ledger_text
    await table.say("ann", "/end")
    await table.press("ann", END)
    report = table.app.bot_data["ledger"].balance(table.chat_id)
    names = {tr.payer.id: tr.payer.display_name for tr in report.transfers}
    names |= {tr.payee.id: tr.payee.display_name for tr in report.transfers}
    assert {names[pid]: amount for pid, amount in report.totals.items()} == {"Ann": 13, "Dan": -13}
