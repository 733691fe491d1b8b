"""/end with a hand still waiting for its Confirm: the question says so and asks what to do with it:
record it, then end (as the presser's own Confirm would, under the same rules), or end and drop it with a
word on its preview; a later press on that preview says the table ended. Through the real
Application, on SQLite and PostgreSQL; every person's money checked by hand."""

from __future__ import annotations

import pytest
from harness import END, Table, money

from bot.ledger.play import sessions

RECORD = "📝 记入再结束"
CONFIRM = "✅ 确认"


@pytest.mark.slow
async def test_end_with_a_preview_waiting_says_so_and_drops_it_visibly(db_seated: Table) -> None:
    """Hand 1, confirmed: Ann (东, dealer) self-draws 5 花, T = 5 + 5 = 10: Ann +30, Bob/Cat/Dan −10.
    Hand 2, shown but never confirmed: Bob (南) self-draws 3 花 (it would be Bob +24, the others −8).
    /end asks and says one entry waits; ending drops it. The money is hand 1's alone:
        Ann +30, Bob −10, Cat −10, Dan −10."""
    table = db_seated
    first = await table.say("ann", "/hu 东 自摸 5花")
    await table.press("bob", CONFIRM, message_id=first.sent[0].message_id)
    second = await table.say("ann", "/hu 南 自摸 3花")
    preview_id = second.sent[0].message_id
    turn = await table.say("ann", "/end")
    assert turn.texts[0].startswith("结束第1场（已打1局）？")
    assert (
        "还有 1 条记录没确认：点“记入再结束”先把它们记入账本再结算；点“结束并结算”的话它们作废，不记入。"
        in turn.texts[0]
    )
    assert turn.sent[0].buttons == (RECORD, END, "继续打")
    await table.press("ann", END)
    dropped = table.message(preview_id)
    assert dropped.text.endswith("✖ 作废：第1场已结束，这条没有记入。") and dropped.buttons == ()
    assert money(table) == {"Ann": 30, "Bob": -10, "Cat": -10, "Dan": -10}


async def test_end_can_record_the_waiting_entries_first(db_seated: Table) -> None:
    """Hand 1, confirmed: Ann (东, dealer) self-draws 5 花, T = 10: Ann +30, Bob/Cat/Dan −10.
    Hand 2, shown but not confirmed: Bob (南) self-draws 3 花, T = 3 + 5 = 8: Bob +24, the others −8.
    Cat presses "记入再结束": hand 2 is recorded as Cat's Confirm (its preview turns into its result),
    then the session ends with both hands. The money: Ann +30 − 8 = +22, Bob −10 + 24 = +14,
    Cat −10 − 8 = −18, Dan −18."""
    table = db_seated
    first = await table.say("ann", "/hu 东 自摸 5花")
    await table.press("bob", CONFIRM, message_id=first.sent[0].message_id)
    second = await table.say("ann", "/hu 南 自摸 3花")
    preview_id = second.sent[0].message_id
    question = (await table.say("ann", "/end")).sent[0]
    await table.press("cat", RECORD, message_id=question.message_id)
    result = table.message(preview_id)
    assert result.text.startswith("第2局 南 自摸 8花") and result.buttons == ()
    assert result.text.endswith("✅ Cat 已确认，记入账本。")
    assert table.message(question.message_id).text.endswith("✅ Cat 记入 1 条没确认的记录，确认结束。")
    [card] = [r for r in table.replies() if r.text.startswith("🀄 第1场结束")]
    assert card.text.startswith("🀄 第1场结束 · 苏州麻将 · 每花 1 · 共2局")
    assert money(table) == {"Ann": 22, "Bob": 14, "Cat": -18, "Dan": -18}


async def test_an_entry_the_first_recorded_one_made_stale_is_dropped_and_said_so(db_seated: Table) -> None:
    """Two previews wait for the same next hand: Bob (南) self-draws 3 花 (T = 3 + 5 = 8: Bob +24, the
    others −8) and Cat (西) self-draws 4 花. Dan presses "记入再结束": the first is recorded; the second
    was shown for a table that has changed since, so it is dropped, its preview says so, and the question
    counts one entry recorded. The money: Bob +24, Ann, Cat, Dan −8."""
    table = db_seated
    bob = (await table.say("ann", "/hu 南 自摸 3花")).sent[0]
    cat = (await table.say("ann", "/hu 西 自摸 4花")).sent[0]
    question = (await table.say("ann", "/end")).sent[0]
    assert "还有 2 条记录没确认" in question.text
    await table.press("dan", RECORD, message_id=question.message_id)
    assert table.message(bob.message_id).text.endswith("✅ Dan 已确认，记入账本。")
    dropped = table.message(cat.message_id)
    assert dropped.text.endswith("✖ 作废：第1场已结束，这条没有记入。") and dropped.buttons == ()
    assert table.message(question.message_id).text.endswith("✅ Dan 记入 1 条没确认的记录，确认结束。")
    assert money(table) == {"Bob": 24, "Ann": -8, "Cat": -8, "Dan": -8}


async def test_recording_at_the_end_keeps_the_confirm_rules(db_seated: Table) -> None:
    """Under confirm_by other, Ann may not record at the end the entry she typed: the press is refused
    and the table stays open (nothing recorded, nothing ended); Dan's press records it and ends.
    The hand: Bob (南) self-draws 3 花 (Ann is the dealer), T = 3 + 5 = 8: Bob +24, Ann, Cat, Dan −8."""
    table = db_seated
    await table.say("ann", "/rules confirm_by other")
    shown = await table.say("ann", "/hu 南 自摸 3花")
    question = (await table.say("ann", "/end")).sent[0]
    turn = await table.press("ann", RECORD, message_id=question.message_id)
    assert turn.answers[-1] == "这条是你记的，要由别人确认（本群设置：确认人为记录人以外的人）。", (
        turn.answers
    )
    assert not [r for r in table.replies() if r.text.startswith("🀄 第1场结束")]  # not ended
    assert table.message(question.message_id).buttons == (RECORD, END, "继续打")
    assert table.message(shown.sent[0].message_id).buttons != ()  # still waiting
    assert money(table) == {}
    await table.press("dan", RECORD, message_id=question.message_id)
    assert table.message(shown.sent[0].message_id).text.endswith("✅ Dan 已确认，记入账本。")
    assert money(table) == {"Bob": 24, "Ann": -8, "Cat": -8, "Dan": -8}


async def test_a_press_on_the_preview_of_an_ended_table_says_it_ended(db_seated: Table) -> None:
    """The preview's Confirm pressed after the end (the message kept its buttons, e.g. an edit that
    failed): "这一场已经结束了。", not a refusal of the seated player, and nothing recorded: nobody owes."""
    table = db_seated
    shown = await table.say("ann", "/hu 东 自摸 5花")
    preview_id = shown.sent[0].message_id
    ledger = table.app.bot_data["ledger"]
    sessions.end_session(
        ledger, table.chat_id
    )  # ended elsewhere (another worker, the idle sweep): the buttons stay
    turn = await table.press("bob", CONFIRM, message_id=preview_id)
    assert turn.answers[-1] == "这一场已经结束了。", turn.answers
    assert money(table) == {}


@pytest.mark.slow
async def test_an_undone_hands_result_message_is_marked_void(db_seated: Table) -> None:
    """Hand 1: Ann (东) self-draws 5 花, T = 10: Ann +30, the others −10. Hand 2: Bob (南)
    self-draws 3 花, T = 8: Bob +24, the others −8; /undo voids hand 2 and its result line says so.
    An /edit of hand 1 to Cat (西) self-drawing 5 花 marks hand 1's old line void too. The money:
    Cat +30, Ann, Bob, Dan −10 each."""
    table = db_seated
    await table.say("ann", "/rules instant on")
    first = (await table.say("ann", "/hu 东 自摸 5花")).sent[0]
    second = (await table.say("ann", "/hu 南 自摸 3花")).sent[0]
    assert second.text.startswith("第2局 南 自摸 8花")
    await table.say("ann", "/undo")
    await table.press("bob", "撤销")
    assert table.message(second.message_id).text == second.text + "\n✖ 作废：这一局已撤销。"
    assert table.message(first.message_id).text == first.text  # still standing
    await table.say("ann", "/edit 1 西 自摸 5花")
    shown = table.message(first.message_id).text
    assert shown.startswith("第1局 东 自摸 10花") and shown.endswith("✖ 作废：第1局已修改，以修改后的为准。")
    await table.say("ann", "/end")
    await table.press("ann", END)
    assert money(table) == {"Cat": 30, "Ann": -10, "Bob": -10, "Dan": -10}
