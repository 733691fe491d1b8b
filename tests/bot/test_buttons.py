"""Buttons carry short string data, read as untrusted input: a button acts only in its own chat.

A press in group B carrying the data of group A's Confirm, Cancel, Join, /hu flow or /rules button changes
nothing anywhere and is answered "这个按钮不属于这个群。"."""

from __future__ import annotations

from typing import Any

import pytest
from harness import Table, ledger
from reads import open_pending

from bot.buttons import EndPress, HuFlow, JoinPress, PendingPress, RulesPress, Win
from bot.ledger.play import books, groups

OTHER_GROUP = -1001000000002
FOREIGN = "这个按钮不属于这个群。"
CONFIRM, CANCEL = "✅ 确认", "✖ 取消"


def hands(table: Table, chat_id: int | None = None) -> list[Any]:
    session = groups.chat_state(ledger(table), chat_id or table.chat_id).session
    return ledger(table).read(books.hands, session.id) if session else []


def data_of(table: Table, label: str) -> str:
    """The callback data of the newest button with this label in the table's chat."""
    _message_id, button = table.state.find_button(table.chat_id, label)
    return str(button["callback_data"])


@pytest.fixture
async def other(seated_table: Table) -> Table:
    """Group B on the same bot, with an open table and its lobby (a message with a button to press); eve is
    an admin there, so a forged press passes B's permission check and meets the chat check."""
    seated_table.transport.add_group(OTHER_GROUP, "另一桌", creator="zoe")
    group = Table(seated_table.app, seated_table.transport, OTHER_GROUP)
    group.set_admins("eve")
    await group.say("eve", "/newgame")
    return group


async def press_with(table: Table, name: str, data: str) -> Any:
    """`name` presses the lobby's Join button in `table`'s chat, its data replaced by `data`."""
    update = table.state.press(table.chat_id, name, None, "入座")
    update["callback_query"]["data"] = data
    return await table._run(update)


async def test_a_confirm_of_another_group_changes_nothing(seated_table: Table, other: Table) -> None:
    await seated_table.say("bob", "/hu 南 自摸 5花 清一色")
    data = data_of(seated_table, CONFIRM)
    turn = await press_with(other, "eve", data)
    assert turn.answers == [FOREIGN]
    assert not turn.of("sendMessage", "editMessageText")
    assert hands(seated_table) == [] and len(open_pending(ledger(seated_table), seated_table.chat_id)) == 1
    done = await seated_table.press("cat", CONFIRM)  # the entry still commits in its own group
    assert done.edits[0].text.startswith("第1局 南 自摸")  # the preview became the result


async def test_a_cancel_of_another_group_changes_nothing(seated_table: Table, other: Table) -> None:
    await seated_table.say("bob", "/hu 南 自摸 5花 清一色")
    turn = await press_with(other, "eve", data_of(seated_table, CANCEL))
    assert turn.answers == [FOREIGN]
    assert len(open_pending(ledger(seated_table), seated_table.chat_id)) == 1


async def test_a_confirm_under_another_message_changes_nothing(seated_table: Table) -> None:
    await seated_table.say("bob", "/hu 南 自摸 5花 清一色")
    data = data_of(seated_table, CONFIRM)
    await seated_table.say("cat", "/hu")  # another message with buttons in the same group
    update = seated_table.state.press(seated_table.chat_id, "cat", None, "取消")
    update["callback_query"]["data"] = data
    turn = await seated_table._run(update)
    assert turn.answers == [FOREIGN] and hands(seated_table) == []


async def test_join_flow_and_rules_of_another_group_change_nothing(seated_table: Table, other: Table) -> None:
    session = groups.chat_state(ledger(seated_table), seated_table.chat_id).session
    forged = (
        JoinPress(session.id).data,
        HuFlow(session.id, "how", winner="S").data,
        HuFlow(session.id, "done", (Win("S", 5),), "self_draw").data,
        EndPress(session.id).data,
        EndPress(session.id, record=True).data,
        RulesPress(session.id, "instant", 1).data,
    )
    for data in forged:
        turn = await press_with(other, "eve", data)
        assert turn.answers == [FOREIGN], data
        assert not turn.of("sendMessage", "editMessageText"), data
    assert groups.chat_state(ledger(other), OTHER_GROUP).session.seats == {}
    assert groups.chat_state(ledger(other), seated_table.chat_id).group.instant is False
    assert hands(seated_table) == []


@pytest.mark.slow
async def test_a_button_of_an_ended_table_of_the_same_group_has_expired(table: Table) -> None:
    await table.say("ann", "/newgame")
    old = groups.chat_state(ledger(table), table.chat_id).session
    await table.say("ann", "/join")
    await table.say("ann", "/end")
    await table.press("ann", "✅ 结束并结算")
    await table.say("ann", "/newgame")
    update = table.state.press(table.chat_id, "bob", None, "入座")
    update["callback_query"]["data"] = JoinPress(old.id).data  # forged: the new lobby does not carry it
    turn = await table._run(update)
    assert turn.answers == [FOREIGN]
    assert groups.chat_state(ledger(table), table.chat_id).session.seats == {}
    old_press = table.state.press(table.chat_id, "bob", None, "入座")  # the data of a real old button,
    old_press["callback_query"]["data"] = JoinPress(old.id).data  # under a message that carries it
    old_press["callback_query"]["message"]["reply_markup"] = {
        "inline_keyboard": [[{"text": "入座", "callback_data": JoinPress(old.id).data}]]
    }
    turn = await table._run(old_press)
    assert turn.answers == ["这个按钮已经过期了，请重新发 /hu。"]
    assert groups.chat_state(ledger(table), table.chat_id).session.seats == {}


def test_every_press_reads_back() -> None:  # the flow's states: tests/bot/handlers/test_flow_buttons.py
    for press in (PendingPress("a" * 32, "confirm"), PendingPress("0" * 32, "cancel")):
        assert PendingPress.parse(press.data) == press
    assert RulesPress.parse(RulesPress(0, "threshold", 1).data) == RulesPress(0, "threshold", 1)


@pytest.mark.parametrize(
    "data",
    [
        "f:7:hSsN:0:0",  # a discarder on a self-draw
        "f:7:pS--:3:0",  # patterns before the way of winning
        "f:7:fSdS:0:0",  # the winner discarding to himself
        "f:7:wS--:0:0",  # a winner chosen before the winner step
        "f:7:pSs-:16:0",  # 16 hua: not offered
        "f:7:pSs-:3:fffff",  # bits past the pattern list
        "f:0:w---:0:0",
        "f:7:w---:0:0 ",
        "pc:" + "A" * 32,
        "pc:" + "a" * 31,
        "j:-1",
        "e:0",
        "ek:x",
        "r:1:Threshold:0",
        "x" * 80,
    ],
)
def test_malformed_data_is_refused(data: str) -> None:
    assert HuFlow.parse(data) is None and PendingPress.parse(data) is None
    assert JoinPress.parse(data) is None and RulesPress.parse(data) is None and EndPress.parse(data) is None


async def test_a_payload_acts_only_under_its_own_kind_of_message(seated_table: Table) -> None:
    """Issue 18, problem 13: a real `ek:<session>` (Keep playing) pressed under a preview leaves its
    Confirm; a real flow step pressed under a result line does not turn it into a question."""
    session = groups.chat_state(ledger(seated_table), seated_table.chat_id).session
    preview = (await seated_table.say("bob", "/hu 南 自摸 5花")).sent[-1]
    update = seated_table.state.press(seated_table.chat_id, "cat", preview.message_id, CONFIRM)
    update["callback_query"]["data"] = EndPress(session.id, False).data
    turn = await seated_table._run(update)
    assert turn.answers == [FOREIGN] and not turn.of("editMessageText")
    assert CONFIRM in seated_table.message(preview.message_id).buttons
    later = seated_table.state.press(seated_table.chat_id, "cat", preview.message_id, CONFIRM)
    done = await seated_table.press("cat", CONFIRM)
    result = done.edits[0]  # the preview is now the hand's result line, with no buttons
    chat = seated_table.chat_id
    later["callback_query"]["message"] = seated_table.state.stored_message(chat, result.message_id)
    later["callback_query"]["data"] = HuFlow(session.id, "how", winner="S").data
    turn = await seated_table._run(later)
    assert turn.answers == ["这个按钮已经过期了，请重新发 /hu。"] and not turn.of("editMessageText")
    assert seated_table.message(result.message_id).text == result.text
