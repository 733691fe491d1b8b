"""/rules through the bot: options by name with values in words (three languages), changes by text or
button, who may change them."""

from __future__ import annotations

from typing import Any

import pytest
from harness import Table

from bot.handlers.rules import value_key
from bot.i18n import LANGUAGES, catalog
from bot.ledger.play import groups
from scoring import RULESETS, option_specs


def current(table: Table) -> Any:
    return groups.chat_state(table.app.bot_data["ledger"], table.chat_id).session


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_option_and_choice_has_a_name_and_words_in_every_language(lang: str) -> None:
    messages = catalog(lang)
    wanted = {
        f"option.{spec.id}.{part}"
        for rules in RULESETS
        for spec in option_specs(rules)
        for part in ("name", *(value_key(choice) for choice in spec.choices))
    }
    wanted |= {"option.instant.name", "option.timeout.name"}
    assert sorted(wanted - set(messages)) == []
    words = [messages[key] for key in wanted]
    assert all(text.strip() for text in words)
    if lang != "en":  # Chinese words, not ids
        assert all(not text.isascii() for text in words), [w for w in words if w.isascii()]


async def test_rules_lists_every_option_by_name_with_its_value_in_words(seated_table: Table) -> None:
    message = (await seated_table.say("eve", "/rules")).sent[0]
    assert message.text.splitlines() == [
        "规则：苏州麻将 · 每花 1",
        "大小门清：大门清只计10花",
        "七对：15花，硬花翻倍",
        "大吊车：加5花",
        "起胡门槛：自摸要3张硬花，冲胡要4张",
        "起胡计花：只计硬花",
        "豹子遇滴零：只翻一次（×2）",
        "荒庄后坐庄：下家坐庄",
        "扩展牌型：不用",
        "大门清条件：不能有任何碰杠",
        "小门清条件：有明杠、补杠就不算小门清",
        "七对计门清：七对不计大小门清",
        "送杠：包饺子只算杠后补的那张",
        "对对胡花数：加5花",
        "混一色花数：加5花",
        "清一色花数：加10花",
        "三风刻花数：加12花（扩展牌型）",
        "豪七对倍数：双豪七对 ×3，三豪七对 ×6（扩展牌型）",
        "即时记账（不预览）：关",
        "确认时限：120秒",
        "确认人：入座玩家或管理员都可以确认",
        "时区：北京时间",
        "结算：没结清的转入下一场 开 · 抹零 无 · 结算倍数 ×1 · 台费 无 · 抽水 无",
        "结算次序：先乘结算倍数，再扣抽水（每手赢的钱乘倍数后按比例抽，向下取整）和台费，最后抹零。",
        "点按钮修改：",
    ]
    assert message.buttons == (
        "大小门清 → 大门清另加小门清",
        "七对 → 10花，硬花不翻倍",
        "大吊车 → 不加花，结算翻倍",
        "起胡门槛 → 2/3",
        "起胡计花 → 杠、风刻等软花也计",
        "豹子遇滴零 → 翻两次（×4）",
        "荒庄后坐庄 → 原庄连庄",
        "扩展牌型 → 开",
        "大门清条件 → 可以有数牌的碰",
        "小门清条件 → 开",
        "七对计门清 → 无花七对另计大门清",
        "送杠 → 杠后任何自摸都由…",
        "对对胡花数 → 加8花",
        "混一色花数 → 加6花",
        "清一色花数 → 加16花",
        "三风刻花数 → 加16花（扩展牌型）",
        "豪七对倍数 → 4/8",
        "即时记账 → 开",
        "确认人 → 记录人以外的人确认",
    )
    assert not any("_" in label or "true" in label for label in message.buttons)


async def test_rules_in_english(seated_table: Table) -> None:
    await seated_table.say("ann", "/lang en")
    message = (await seated_table.say("eve", "/rules")).sent[0]
    lines = message.text.splitlines()
    assert "Winning threshold: 3 flower tiles to self-draw, 4 on a discard" in lines
    assert "Seven pairs: 15 flowers, flower tiles count twice" in lines
    assert "Dealer after a draw: the next seat deals" in lines
    assert "Winning threshold → 2/3" in message.buttons
    assert "Instant recording → on" in message.buttons
    turn = await seated_table.press("ann", "Dealer after a draw → the dealer stays")
    assert turn.answers == ["Dealer after a draw is now the dealer stays."]
    assert current(seated_table).options["dealer_after_draw"] == "stay"
    turn = await seated_table.say("ann", "/rules winning threshold 2/3")  # the name, spaces and all
    assert turn.text == "Winning threshold is now 2 flower tiles to self-draw, 3 on a discard."
    assert current(seated_table).options["threshold"] == "2/3"


async def test_rules_in_traditional_chinese_and_a_button_press(seated_table: Table) -> None:
    await seated_table.say("ann", "/lang zh-hant")
    message = (await seated_table.say("eve", "/rules")).sent[0]
    assert message.text.startswith("規則：蘇州麻將 · 每花 1\n大小門清：大門清只計10花\n")
    assert "起胡門檻：自摸要3張硬花，沖胡要4張" in message.text
    assert "荒莊後坐莊 → 原莊連莊" in message.buttons and "即時記帳 → 開" in message.buttons
    turn = await seated_table.press("ann", "大小門清 → 大門清另加小門清")
    assert turn.answers == ["大小門清 已改為 大門清另加小門清（10+5）。"]
    assert current(seated_table).options["menqing_stack"] is True
    redrawn = seated_table.message(message.message_id)
    assert "大小門清：大門清另加小門清（10+5）" in redrawn.text
    assert "大小門清 → 大門清只計10花" in redrawn.buttons  # the button now offers the way back
    turn = await seated_table.press("ann", "即時記帳 → 開")
    assert turn.answers == ["即時記帳 已改為 開。"]
    assert "即時記帳（不預覽）：開" in seated_table.message(message.message_id).text
    assert "即時記帳 → 關" in seated_table.message(message.message_id).buttons


async def test_threshold_change_by_text_lets_a_two_flower_hand_win(seated_table: Table) -> None:
    turn = await seated_table.say("bob", "/hu 南 自摸 2花")
    assert turn.text.startswith("这手不能胡")
    turn = await seated_table.say("ann", "/rules threshold 2/3")  # ann opened the table
    assert turn.text == "起胡门槛 已改为 自摸要2张硬花，冲胡要3张。"
    assert current(seated_table).options["threshold"] == "2/3"
    turn = await seated_table.say("bob", "/hu 南 自摸 2花")
    assert turn.sent[0].text.startswith("📝 预览 · 第1局\n南 Bob 自摸 · 7花")


async def test_options_and_values_by_their_words_in_any_script(seated_table: Table) -> None:
    turn = await seated_table.say("ann", "/rules 荒莊後坐莊 原庄连庄")  # traditional name, simplified value
    assert turn.text == "荒庄后坐庄 已改为 原庄连庄。"
    assert current(seated_table).options["dealer_after_draw"] == "stay"
    turn = await seated_table.say("ann", "/rules extended 開")
    assert turn.text == "扩展牌型 已改为 启用一条龙、三风刻、四喜、豪华七对等。"
    turn = await seated_table.say("ann", "/rules 七对 10")
    assert turn.text == "七对 已改为 10花，硬花不翻倍。"
    options = current(seated_table).options
    assert (options["extended"], options["qidui"]) == (True, "10")


async def test_a_button_changes_the_option_and_redraws_the_message(seated_table: Table) -> None:
    message = (await seated_table.say("ann", "/rules")).sent[0]
    turn = await seated_table.press("ann", "大小门清 → 大门清另加小门清")
    assert turn.answers == ["大小门清 已改为 大门清另加小门清（10+5）。"]
    redrawn = seated_table.message(message.message_id)
    assert "大小门清：大门清另加小门清（10+5）" in redrawn.text
    assert current(seated_table).options["menqing_stack"] is True
    group = groups.chat_state(seated_table.app.bot_data["ledger"], seated_table.chat_id).group
    assert group.options["menqing_stack"] is True  # the group's default for the next table too


async def test_only_admins_and_the_opener_change_rules(seated_table: Table) -> None:
    refused = "只有群管理员或开这场的人可以修改规则。"
    turn = await seated_table.say("bob", "/rules threshold 2/3")  # seated, but did not open the table
    assert turn.text == refused
    turn = await seated_table.say("eve", "/rules instant on")  # neither seated nor admin
    assert turn.text == refused
    await seated_table.say("bob", "/rules")  # reading is for everyone
    turn = await seated_table.press("bob", "起胡门槛 → 2/3")
    assert turn.answers == [refused]
    turn = await seated_table.press("eve", "即时记账 → 开")
    assert turn.answers == [refused]
    assert current(seated_table).options["threshold"] == "3/4"
    assert groups.chat_state(seated_table.app.bot_data["ledger"], seated_table.chat_id).group.instant is False
    turn = await seated_table.say("zoe", "/rules threshold 2/3")  # the group's creator
    assert turn.text == "起胡门槛 已改为 自摸要2张硬花，冲胡要3张。"
    seated_table.set_admins("bob")
    turn = await seated_table.say("bob", "/rules threshold 3/4")
    assert turn.text == "起胡门槛 已改为 自摸要3张硬花，冲胡要4张。"


@pytest.mark.slow
async def test_without_an_open_table_only_admins_change_rules(seated_table: Table) -> None:
    await seated_table.say("ann", "/end")
    await seated_table.press("ann", "✅ 结束并结算")
    assert current(seated_table) is None
    turn = await seated_table.say("ann", "/rules threshold 2/3")  # she opened the table that has ended
    assert turn.text == "只有群管理员或开这场的人可以修改规则。"
    turn = await seated_table.say("zoe", "/rules threshold 2/3")
    assert turn.text == "起胡门槛 已改为 自摸要2张硬花，冲胡要3张。"
    assert (
        groups.chat_state(seated_table.app.bot_data["ledger"], seated_table.chat_id).group.options[
            "threshold"
        ]
        == "2/3"
    )


async def test_unknown_option_and_bad_value(seated_table: Table) -> None:
    turn = await seated_table.say("ann", "/rules speed fast")
    assert turn.text.startswith("没有“speed”这个选项。可以用：大小门清、七对")
    assert "用法：/rules" in turn.text
    turn = await seated_table.say("ann", "/rules threshold 5/6")
    assert turn.text == (
        "选项 起胡门槛 不能取“5/6”。可以取：3/4（自摸要3张硬花，冲胡要4张）、2/3（自摸要2张硬花，冲胡要3张）"
    )
    turn = await seated_table.say("ann", "/rules extended maybe")
    assert turn.text == (
        "选项 扩展牌型 不能取“maybe”。可以取：关（不用）、开（启用一条龙、三风刻、四喜、豪华七对等）"
    )
    turn = await seated_table.say("ann", "/rules instant maybe")
    assert turn.text == "选项 即时记账 不能取“maybe”。可以取：开、关"
    turn = await seated_table.say("ann", "/rules threshold 2/3 now")
    assert turn.text.startswith("参数太多：“now”。")
    assert current(seated_table).options["threshold"] == "3/4"


async def test_anhui_table_has_its_own_options(table: Table) -> None:
    await table.say("ann", "/newgame 宿州 2")
    turn = await table.say("ann", "/rules")
    assert turn.text.startswith(
        "规则：宿州麻将 · 底分 2\n一炮多响：每位胡家都赔\n胡牌方式：自摸、冲胡都可以\n"
    )
    assert turn.sent[0].buttons[:2] == ("一炮多响 → 截胡", "胡牌方式 → 只许自摸")
    turn = await table.say("ann", "/rules self_draw_only on")
    assert turn.text == "胡牌方式 已改为 只许自摸。"
    assert current(table).options["self_draw_only"] is True


async def test_rules_name_sets_the_default_for_the_next_table(table: Table) -> None:
    turn = await table.say("zoe", "/rules 宿州")
    assert turn.text == "本群以后新开的场默认用宿州麻将。"
    await table.say("ann", "/newgame 3")
    assert current(table).rules == "suzhou-anhui"
