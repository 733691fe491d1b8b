"""/rules through the bot: the options shown with buttons, changes by text or button, who may change them."""

from __future__ import annotations

from typing import Any

from harness import Table


def current(table: Table) -> Any:
    return table.app.bot_data["ledger"].current_session(table.chat_id)


async def test_rules_lists_every_option_with_a_button(seated_table: Table) -> None:
    turn = await seated_table.say("eve", "/rules")
    message = turn.sent[0]
    assert message.text.startswith("规则：苏州麻将 · 底注 1\nmenqing_stack（大门清同时计小门清（10+5））：关")
    assert "threshold（起胡硬花数：自摸/放冲）：3/4" in message.text
    assert "即时记账（不预览）：关" in message.text
    assert "确认时限（timeout）：120 秒" in message.text
    assert "threshold → 2/3" in message.buttons and "instant → 开" in message.buttons


async def test_threshold_change_by_text_lets_a_two_flower_hand_win(seated_table: Table) -> None:
    turn = await seated_table.say("bob", "/hu 南 自摸 2花")
    assert turn.text.startswith("这手不能和")
    turn = await seated_table.say("ann", "/rules threshold 2/3")  # ann opened the table
    assert turn.text == "threshold 已改为 2/3。"
    assert current(seated_table).options["threshold"] == "2/3"
    turn = await seated_table.say("bob", "/hu 南 自摸 2花")
    assert turn.sent[0].text.startswith("📝 预览 · 第 1 局\n南 Bob 自摸 · 7 花")


async def test_a_button_changes_the_option_and_redraws_the_message(seated_table: Table) -> None:
    message = (await seated_table.say("ann", "/rules")).sent[0]
    turn = await seated_table.press("ann", "menqing_stack → 开")
    assert turn.answers == ["menqing_stack 已改为 开。"]
    assert "menqing_stack（大门清同时计小门清（10+5））：开" in seated_table.message(message.message_id).text
    assert current(seated_table).options["menqing_stack"] is True


async def test_only_admins_and_the_opener_change_rules(seated_table: Table) -> None:
    turn = await seated_table.say("bob", "/rules threshold 2/3")
    assert turn.text == "只有群管理员或开局的人可以修改规则。"
    await seated_table.say("bob", "/rules")  # reading is for everyone
    turn = await seated_table.press("bob", "threshold → 2/3")
    assert turn.answers == ["只有群管理员或开局的人可以修改规则。"]
    assert current(seated_table).options["threshold"] == "3/4"
    turn = await seated_table.say("zoe", "/rules threshold 2/3")
    assert turn.text == "threshold 已改为 2/3。"


async def test_unknown_option_and_bad_value(seated_table: Table) -> None:
    turn = await seated_table.say("ann", "/rules speed fast")
    assert turn.text.startswith("没有“speed”这个选项。可以用：menqing_stack, qidui")
    assert "用法：/rules" in turn.text
    turn = await seated_table.say("ann", "/rules threshold 5/6")
    assert turn.text == "选项 threshold 不能取“5/6”。可以取：3/4, 2/3"
    turn = await seated_table.say("ann", "/rules instant maybe")
    assert turn.text == "选项 instant 不能取“maybe”。可以取：on, off"


async def test_anhui_table_has_its_own_options(table: Table) -> None:
    await table.say("ann", "/newgame 宿州 2")
    turn = await table.say("ann", "/rules")
    assert turn.text.startswith("规则：宿州麻将 · 底注 2\nmulti_win")
    turn = await table.say("ann", "/rules self_draw_only on")
    assert turn.text == "self_draw_only 已改为 开。"


async def test_rules_name_sets_the_default_for_the_next_table(table: Table) -> None:
    turn = await table.say("zoe", "/rules 宿州")
    assert turn.text == "本群以后开局默认用宿州麻将。"
    await table.say("ann", "/newgame 3")
    assert current(table).rules == "suzhou-anhui"
