"""Money stays with the person who played it: a correction after a /sub re-scores every row with
the seating it was played at, never the table as it sits now. Through the real Application, on SQLite and
PostgreSQL."""

from __future__ import annotations

from typing import Any

from harness import Table

from bot.ledger.play import books

CONFIRM = "✅ 确认"


def nets(table: Table) -> dict[str, int]:
    """Each person's net in the open session, by name (what /score shows)."""
    report = table.app.bot_data["ledger"].read(books.standings, table.chat_id)
    return {row.player.name: row.net for row in report.session_rows}


async def test_an_edit_after_a_sub_pays_who_played_the_hand(db_seated: Table) -> None:
    table = db_seated
    await table.say("ann", "/dealer 东")
    await table.say("ann", "/hu 东 自摸 5花")  # Ann (E, dealer) wins hand 1
    await table.press("bob", CONFIRM)
    await table.say("bob", "/adjust 南 东 7 夜宵")  # Bob pays Ann 7
    await table.press("cat", CONFIRM)
    assert nets(table) == {"Ann": 37, "Bob": -17, "Cat": -10, "Dan": -10}
    await table.say("zoe", "/sub 东")  # Zoe takes Ann's seat from the next hand on
    await table.say("bob", "/hu 南 自摸 5花")  # Bob wins with Zoe in the east
    await table.press("cat", CONFIRM)
    assert nets(table) == {"Ann": 37, "Zoe": -10, "Bob": 13, "Cat": -20, "Dan": -20}

    # Hand 1 was Ann's 6花, not 5花; the correction names her seat and her, and pays her.
    preview = await table.say("bob", "/edit 1 东 自摸 6花")
    assert "东 Ann 自摸" in preview.text and "Zoe" not in preview.text
    await table.press("cat", CONFIRM)
    assert nets(table) == {"Ann": 40, "Zoe": -10, "Bob": 12, "Cat": -21, "Dan": -21}
    score = (await table.say("eve", "/score")).text
    assert "东 Ann +40\n东 Zoe −10" in score

    # A correction that moves the deal re-scores the later hand with its own seating (Zoe in the east).
    await table.say("bob", "/edit 1 南 自摸 5花")  # now Bob won hand 1: the deal passes to him
    await table.press("cat", CONFIRM)
    money = nets(table)
    assert money["Ann"] == -10 + 7 and money["Zoe"] < 0 and sum(money.values()) == 0


async def test_a_name_in_an_edit_means_who_sat_there_then(db_seated: Table) -> None:
    table = db_seated
    await table.say("ann", "/dealer 东")
    await table.say("ann", "/rules instant on")
    await table.say("ann", "/hu 南 自摸 5花")
    await table.say("zoe", "/sub 东")
    # Ann has left the table, but she played hand 1: her name still names her seat there.
    turn = await table.say("bob", "/edit 1 Ann 自摸 5花")
    assert "第1局已修改" in turn.text
    money: dict[str, Any] = nets(table)
    assert money["Ann"] == 30 and money["Zoe"] == 0


async def test_adjustments_are_not_hands(db_seated: Table) -> None:
    """The number a preview shows is the number the hand keeps, and /edit and the card take it."""
    table = db_seated
    await table.say("ann", "/dealer 东")
    await table.say("ann", "/hu 南 自摸 5花")
    await table.press("bob", CONFIRM)
    await table.say("ann", "/adjust 南 东 7 夜宵")
    await table.press("bob", CONFIRM)
    preview = await table.say("ann", "/hu 西 自摸 5花")
    assert preview.texts[0].startswith("📝 预览 · 第2局")
    done = await table.press("bob", CONFIRM)
    assert done.edits[0].text.startswith("第2局 西 自摸")
    ledger = (await table.say("eve", "/ledger")).text
    assert "\n1 南 自摸" in ledger and "\n2 西 自摸" in ledger and "\n3 " not in ledger
    await table.say("ann", "/edit 2 西 自摸 6花")
    turn = await table.press("bob", CONFIRM)
    assert "第2局已修改" in turn.text or any("第2局已修改" in e.text for e in turn.edits)
    turn = await table.say("ann", "/undo")  # the last row is hand 2 (the adjustment came before it)
    assert turn.texts[0].startswith("撤销第2局")
    await table.press("bob", "撤销")
    turn = await table.say("ann", "/undo")  # now the adjustment
    assert turn.texts[0].startswith("撤销调账")
