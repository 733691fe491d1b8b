"""An /edit of an earlier hand while a later hand's preview waits for its Confirm: the waiting hand is scored
again from the corrected table (its dealer, 连庄 and amounts), says so, and its Confirm records it as shown;
the later hands' result lines the edit re-scored still count, and say so."""

from __future__ import annotations

from harness import PLAYERS, Table, ledger

from bot.ledger.play import groups

CONFIRM = "✅ 确认"


async def anhui_table(table: Table) -> Table:
    """`/newgame 宿州 2`, ann bob cat dan seated 东南西北, 东 dealing."""
    await table.say("ann", "/newgame 宿州 2")
    for name in PLAYERS:
        await table.say(name, "/join")
    await table.say("ann", "/dealer 东")
    return table


async def test_a_waiting_hand_is_rescored_by_an_edit_before_it_and_recorded_rescored(db_table: Table) -> None:
    table = await anhui_table(db_table)
    await table.say("ann", "/hu 南 自摸 3花")  # a 闲 wins: 南 deals the 2nd hand
    await table.press("bob", CONFIRM)
    waiting = (await table.say("cat", "/hu 西 自摸 1花")).sent[-1]
    # 南 deals: 南 pays 2×(2+4) = 12, 东 and 北 2×(2+2) = 8 each; 西 (a 闲) wins, 北 deals next
    assert "输赢：西 +28 · 东 −8 · 南 −12 · 北 −8" in waiting.text, waiting.text
    await table.say("ann", "/edit 1 东 自摸 3花")  # it was the dealer 东 who won: 东 keeps the deal
    await table.press("bob", CONFIRM)
    shown = table.message(waiting.message_id)
    # now 东 deals (连庄1): 东 pays 12, 南 and 北 8; 西 wins, 南 deals next
    assert "输赢：西 +28 · 东 −12 · 南 −8 · 北 −8" in shown.text, shown.text
    assert "第1局改过了" in shown.text and "下局庄 南" in shown.text, shown.text
    done = await table.press("dan", CONFIRM, message_id=waiting.message_id)
    assert done.edits[0].text.startswith("第2局 西 自摸 花数 1 → 西 +28 · 东 −12 · 南 −8 · 北 −8"), done.edits
    session = groups.chat_state(ledger(table), table.chat_id).session
    assert session is not None and session.hands_played == 2


async def test_later_hands_rescored_by_an_edit_still_count_in_their_result_lines(table: Table) -> None:
    await anhui_table(table)
    await table.say("ann", "/hu 南 自摸 3花")
    await table.press("bob", CONFIRM)
    later = (await table.say("cat", "/hu 西 自摸 1花")).sent[-1]
    await table.press("dan", CONFIRM)
    first_result = next(r for r in table.replies() if r.text.startswith("第1局"))
    await table.say("ann", "/edit 1 东 自摸 3花")
    await table.press("bob", CONFIRM)
    rescored = table.message(later.message_id).text
    assert "作废" not in rescored, rescored
    assert "第2局 西 自摸 花数 1 → 西 +28 · 东 −12 · 南 −8 · 北 −8" in rescored, rescored
    assert "作废" in table.message(first_result.message_id).text
