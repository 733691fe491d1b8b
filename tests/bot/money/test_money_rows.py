"""A 一炮多响 row lists only the winners who were paid: a refused winner is no winner on
the card or in /ledger. Through the real Application, on SQLite and PostgreSQL; the money by hand."""

from __future__ import annotations

import pytest
from harness import END, Table

from bot.ledger.money import settling
from bot.ledger.play import books, groups


async def test_a_refused_winner_of_a_multi_win_is_not_listed_as_a_winner(db_seated: Table) -> None:
    """/hu 东 8花 西 2花 冲 北: 东 (Ann) wins 底 5 + 8 = 13 from 北 (Dan); 西 (Cat) has 2 硬花 where a
    discard win needs 4: refused, paid nothing. Ann +13, Dan −13, Bob and Cat 0."""
    table = db_seated
    await table.say("ann", "/rules instant on")
    turn = await table.say("ann", "/hu 东 8花 西 2花 冲 北")
    assert turn.texts[0].startswith("第1局 北 放冲，东 胡 13花 → 东 +13 · 北 −13"), turn.texts
    card = table.pinned()
    assert card is not None
    row = card.text.split("—\n")[1]
    assert row == "1 北 放冲，东 胡 13花 | +13 0 0 −13", row
    assert "西" not in row and "0花" not in row
    ledger_text = (await table.say("ann", "/ledger")).texts[0]
    assert "1 北 放冲，东 胡 13花 | +13 0 0 −13" in ledger_text
    await table.say("ann", "/end")
    await table.press("ann", END)
    report = table.app.bot_data["ledger"].read(settling.balance, table.chat_id)
    names = {tr.payer.id: tr.payer.display_name for tr in report.transfers}
    names |= {tr.payee.id: tr.payee.display_name for tr in report.transfers}
    assert {names[pid]: amount for pid, amount in report.totals.items()} == {"Ann": 13, "Dan": -13}


def _entry_column(table: Table) -> list[str]:
    import csv
    import io

    from bot.summary.csvfile import ledger_csv
    from bot.summary.tally import build_report

    ledger = table.app.bot_data["ledger"]
    session = groups.chat_state(ledger, table.chat_id).session
    data = ledger_csv(build_report(ledger, session.id), "zh-Hans").decode("utf-8-sig")
    rows = list(csv.DictReader(io.StringIO(data)))
    return list(dict.fromkeys(row["记录"] for row in rows))


async def test_the_csv_entry_of_a_button_hand_retypes_to_the_same_money(db_seated: Table) -> None:
    """Bob (南) self-draws with 5 硬花 by the /hu buttons: T = 5 + 5 = 10, Bob +30, the others
    −10. The CSV's 记录 is "南 自摸 5花" (the 硬花, not T = 10): typed back into /edit it scores the same,
    Bob +30; "南 自摸 10花" would have made T = 15 and Bob +45."""
    from tests.bot.handlers.test_flow_buttons import walk

    table = db_seated
    flow = await walk(table, ["南 Bob", "自摸", "5", "完成"])
    await table.press("cat", "✅ 确认", message_id=flow)
    assert _entry_column(table) == ["南 自摸 5花"]
    await table.say("ann", "/rules instant on")
    await table.say("ann", "/edit 1 南 自摸 5花")
    await table.say("ann", "/end")
    await table.press("ann", END)
    report = table.app.bot_data["ledger"].read(settling.balance, table.chat_id)
    names = {tr.payer.id: tr.payer.display_name for tr in report.transfers}
    names |= {tr.payee.id: tr.payee.display_name for tr in report.transfers}
    assert {names[pid]: amount for pid, amount in report.totals.items()} == {
        "Bob": 30,
        "Ann": -10,
        "Cat": -10,
        "Dan": -10,
    }


@pytest.mark.slow
async def test_every_way_of_winning_by_buttons_has_a_csv_entry_that_reads_back(seated_table: Table) -> None:
    """Each way the /hu buttons record (self-draw, discard, 一炮多响, 抢杠, 包饺子, flags as patterns): the
    CSV's 记录 parses back to exactly the stored entry."""
    from bot.grammar import parse_hu
    from bot.handlers.turn import seat_resolver
    from tests.bot.handlers.test_flow_buttons import WAYS, walk

    table = seated_table
    ledger = table.app.bot_data["ledger"]
    for _name, presses, typed in WAYS:
        flow = await walk(table, presses)
        await table.press("cat", "✅ 确认", message_id=flow)
        session = groups.chat_state(ledger, table.chat_id).session
        stored = ledger.read(books.hands, session.id)[-1].entry
        written = [e for e in _entry_column(table) if parse_hu(e, seat_resolver(session)) == stored]
        assert written, (typed, _entry_column(table))
