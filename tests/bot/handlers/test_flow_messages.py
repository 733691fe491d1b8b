"""One bot message per hand: the preview becomes the result on Confirm, Cancel edits it, an `instant`
group gets the one result message; `/rules confirm_by other` keeps the recorder from confirming."""

from __future__ import annotations

from typing import Any

from harness import Table

from bot.ledger.play import books, groups

CONFIRM, CANCEL = "✅ 确认", "✖ 取消"


def hands(table: Table) -> list[Any]:
    ledger = table.app.bot_data["ledger"]
    return ledger.read(books.hands, groups.chat_state(ledger, table.chat_id).session.id)


async def test_a_confirmed_hand_leaves_one_bot_message(seated_table: Table) -> None:
    before = len(seated_table.replies())
    shown = (await seated_table.say("bob", "/hu 南 自摸 5花")).sent
    await seated_table.press("cat", CONFIRM)
    after = seated_table.replies()
    assert len(after) == before + 1 and after[-1].message_id == shown[0].message_id
    assert after[-1].text.startswith("第1局 南 自摸 10花 → ") and after[-1].buttons == ()


async def test_cancel_edits_the_same_message(seated_table: Table) -> None:
    shown = (await seated_table.say("bob", "/hu 南 自摸 5花 清一色")).sent[0]
    turn = await seated_table.press("dan", CANCEL)
    assert turn.sent == [] and turn.edits[0].message_id == shown.message_id
    assert seated_table.message(shown.message_id).text.endswith("已取消，没有记入。")


async def test_instant_sends_the_one_result_message(seated_table: Table) -> None:
    await seated_table.say("ann", "/rules instant on")
    turn = await seated_table.say("bob", "/hu 南 自摸 5花")
    assert turn.texts == ["第1局 南 自摸 10花 → 南 +30 · 东 −10 · 西 −10 · 北 −10 · 下局庄 南"]
    assert [c.method for c in turn.calls] == ["sendMessage", "editMessageText"]  # the result, the card


async def test_confirm_by_other_refuses_the_recorder(seated_table: Table) -> None:
    turn = await seated_table.say("ann", "/rules confirm_by other")
    assert turn.text == "确认人 已改为 记录人以外的人确认。"
    await seated_table.say("bob", "/hu 南 自摸 5花 清一色")
    turn = await seated_table.press("bob", CONFIRM)
    assert turn.answers == ["这条是你记的，要由别人确认（本群设置：确认人为记录人以外的人）。"]
    assert hands(seated_table) == [] and seated_table.buttons() == [CONFIRM, CANCEL]
    await seated_table.press("bob", CANCEL)  # the recorder may still take it back
    assert hands(seated_table) == []
    await seated_table.say("bob", "/hu 南 自摸 5花 清一色")
    turn = await seated_table.press("cat", CONFIRM)
    assert turn.edits[0].text.startswith("第1局 南 自摸 20花")
    assert len(hands(seated_table)) == 1


async def test_confirm_by_any_is_the_default_and_can_be_set_back(seated_table: Table) -> None:
    await seated_table.say("ann", "/rules confirm_by other")
    turn = await seated_table.say("ann", "/rules confirm_by any")
    assert turn.text == "确认人 已改为 入座玩家或管理员都可以确认。"
    await seated_table.say("bob", "/hu 南 自摸 5花 清一色")
    await seated_table.press("bob", CONFIRM)
    assert len(hands(seated_table)) == 1
    turn = await seated_table.say("ann", "/rules confirm_by everyone")
    assert turn.text.startswith("选项 确认人 不能取“everyone”")
