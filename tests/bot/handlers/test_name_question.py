"""Issue 18, problem 3 (its question): a name in a typed /hu that fits more than one seated player (two
players shown as "Ann") is never guessed: the bot asks which one, a button per player it fits; the press
reads the entry again with that seat and it goes on to its preview (or to the next such question). The
buttons act only in their chat, on their own question, for the seats the name fitted; a repeat changes
nothing."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from harness import Table, ledger
from reads import open_pending

from bot.buttons import NamePress, PendingPress
from bot.ledger.play import books, groups

CONFIRM, CANCEL = "✅ 确认", "✖ 取消"
ASK = "“Ann”能指好几位玩家：是哪一位？点座位，这一局接着记。"
FOREIGN = "这个按钮不属于这个群。"


def hands(table: Table) -> list[Any]:
    return ledger(table).read(books.hands, groups.chat_state(ledger(table), table.chat_id).session.id)


@pytest.fixture
async def two_anns(db_table: Table) -> Table:
    """ann (东) and ann2 (南), both shown as "Ann", with cat (西) and dan (北); 东 deals (each backend)."""
    return await seat_two_anns(db_table)


async def seat_two_anns(table: Table, *, dealer: bool = True) -> Table:
    table.transport.add_user("ann2", user_id=1030, first_name="Ann")
    await table.say("ann", "/newgame 苏州 1")
    for name in ("ann", "ann2", "cat", "dan"):
        await table.say(name, "/join")
    if dealer:
        await table.say("ann", "/dealer 东")
    return table


async def test_the_player_pressed_is_the_one_recorded(two_anns: Table) -> None:
    table = two_anns
    question = (await table.say("cat", "/hu Ann 自摸 5花")).sent[0]
    assert question.text == ASK and question.buttons == ("东 Ann", "南 Ann")
    assert hands(table) == [] and [p.kind for p in open_pending(ledger(table), table.chat_id)] == ["name"]
    await table.press("dan", "南 Ann", message_id=question.message_id)
    preview = table.message(question.message_id)  # the question became the preview
    assert preview.text.startswith("📝 预览 · 第1局\n南 Ann 自摸") and preview.buttons == (CONFIRM, CANCEL)
    await table.press("dan", CONFIRM, message_id=question.message_id)
    [hand] = hands(table)
    assert hand.payments == {"E": -10, "S": 30, "W": -10, "N": -10} and hand.text == "南 自摸 5花"
    ann2 = groups.chat_state(ledger(table), table.chat_id).session.seats["S"]
    assert ann2.username == "ann2" and hand.player_payments[ann2.id] == 30


async def test_each_name_is_asked_about_in_turn(two_anns: Table) -> None:
    await two_anns.say("ann", "/rules instant on")
    question = (await two_anns.say("cat", "/hu Ann 冲 Ann 5花")).sent[0]
    await two_anns.press("cat", "东 Ann", message_id=question.message_id)
    again = two_anns.message(question.message_id)  # the same message asks about the second "Ann"
    assert again.text == ASK and again.buttons == ("东 Ann", "南 Ann") and hands(two_anns) == []
    await two_anns.press("cat", "南 Ann", message_id=question.message_id)
    [hand] = hands(two_anns)
    assert hand.payments == {"E": 10, "S": -10, "W": 0, "N": 0} and hand.text == "东 冲 南 5花"
    assert two_anns.message(question.message_id).text.startswith("第1局 南 放冲，东 胡")


async def test_only_players_and_admins_answer_and_only_with_a_seat_it_fitted(two_anns: Table) -> None:
    table = two_anns
    question = (await table.say("cat", "/hu Ann 自摸 5花")).sent[0]
    turn = await table.press("eve", "南 Ann", message_id=question.message_id)
    assert turn.answers == ["只有入座的玩家或群管理员可以这样做。"]
    [waiting] = open_pending(ledger(table), table.chat_id)
    forged = copy.deepcopy(table.state.press(table.chat_id, "cat", question.message_id, "南 Ann"))
    forged["callback_query"]["data"] = NamePress(waiting.id, "W").data  # 西 Cat is not an "Ann"
    forged["callback_query"]["message"]["reply_markup"]["inline_keyboard"][0].append(
        {"text": "西", "callback_data": NamePress(waiting.id, "W").data}
    )  # shown as if the question carried it: the ledger still refuses a seat the name did not fit
    turn = await table._run(forged)
    assert turn.answers == [FOREIGN] and not turn.of("editMessageText")
    confirm = table.state.press(table.chat_id, "cat", question.message_id, "南 Ann")
    confirm["callback_query"]["data"] = PendingPress(waiting.id, "confirm").data
    turn = await table._run(confirm)
    assert turn.answers == [FOREIGN]
    assert hands(table) == [] and table.message(question.message_id).buttons == ("东 Ann", "南 Ann")
    assert [p.status for p in open_pending(ledger(table), table.chat_id)] == ["pending"]


async def test_a_repeated_answer_changes_nothing(table: Table, bot_settings: Any, transport: Any) -> None:
    from bot.app import build_application

    await seat_two_anns(table)
    question = (await table.say("cat", "/hu Ann 自摸 5花")).sent[0]
    press = table.state.press(table.chat_id, "dan", question.message_id, "南 Ann")
    await table._run(press)
    preview = table.message(question.message_id)
    other = build_application(bot_settings, request=transport, get_updates_request=transport)
    restarted = await Table.start(other, transport, chat_id=table.chat_id)
    try:
        press["update_id"] += 10_000
        again = await restarted._run(press)
        assert again.answers == ["这条记录已经处理过了。"] and not again.of("sendMessage", "editMessageText")
        assert table.message(question.message_id) == preview
        assert len(open_pending(ledger(table), table.chat_id)) == 1
    finally:
        await restarted.stop()


async def test_before_the_first_dealer_the_name_then_the_dealer(table: Table) -> None:
    await seat_two_anns(table, dealer=False)
    question = (await table.say("cat", "/hu Ann 自摸 5花")).sent[0]
    await table.press("cat", "南 Ann", message_id=question.message_id)
    asked = table.message(question.message_id)  # the same message asks who deals now
    assert asked.text.startswith("还没定庄") and asked.buttons == ("东 Ann", "南 Ann", "西 Cat", "北 Dan")
    await table.press("cat", "西 Cat", message_id=question.message_id)
    await table.press("dan", CONFIRM, message_id=question.message_id)
    [hand] = hands(table)
    assert (hand.before.dealer, hand.text, hand.payments["S"]) == ("W", "南 自摸 5花", 30)
