"""The words each rule set's table says (issue 28), through the real Application: a 宿州 preview names its
own items (花牌, 碰杠花), says what a zero-value line means and shows the 庄/闲 formula it checks; 包饺子 is
苏州's only (typed 包 at 宿州 is a plain 杠开, and the button flow does not offer it); /ting's lines and the
discarded-混子 refusal each read as one sentence; the summary's biggest hand names patterns, not items."""

from __future__ import annotations

import pytest
from harness import Table, ledger, seat_four

from bot.i18n import t
from bot.ledger.play import books, groups


async def anhui(table: Table) -> Table:
    return await seat_four(table, rules="宿州")


async def test_an_anhui_preview_in_its_own_words_with_its_formula(table: Table) -> None:
    await anhui(table)
    turn = await table.say("bob", "/hu 南 自摸 3花 1软花 七对")
    preview = turn.texts[-1]
    assert "  花牌 3\n  碰杠花 1" in preview, preview
    assert "硬花" not in preview and "软花" not in preview
    assert "  七对（可以胡，不加花）" in preview and "七对 0" not in preview
    # 闲家自摸, f = 4, b = 1: the 庄 pays 2f+4, each other 闲 2f+2.
    assert "  算法：庄付 1×（2×4+4）= 12 · 闲付 1×（2×4+2）= 10" in preview
    assert "输赢：南 +32 · 东 −12 · 西 −10 · 北 −10" in preview


async def test_a_suzhou_preview_keeps_its_words_and_no_formula(seated_table: Table) -> None:
    turn = await seated_table.say("bob", "/hu 南 自摸 5花 2软花")
    preview = turn.texts[-1]
    assert "  硬花 5\n  软花 2" in preview and "花牌" not in preview and "算法" not in preview


async def test_bao_at_an_anhui_table_is_a_plain_kong_bloom(table: Table) -> None:
    await anhui(table)
    await table.say("ann", "/rules instant on")
    turn = await table.say("bob", "/hu 南 包 北 2花")
    [line] = turn.texts
    assert line.startswith("第1局 南 自摸 花数 2 → 南 +20 · 东 −8 · 西 −6 · 北 −6"), line
    assert "包饺子" not in line
    [hand] = ledger(table).read(books.hands, groups.chat_state(ledger(table), table.chat_id).session.id)
    assert hand.entry["wins"][0]["flags"]["kong_fed_by"] is None


async def test_the_button_flow_offers_bao_only_where_it_exists(table: Table) -> None:
    await anhui(table)
    await table.say("ann", "/hu")
    await table.press("ann", "南 Bob")
    assert "包饺子" not in table.buttons() and "抢杠" in table.buttons()
    await table.press("ann", "取消")
    await table.say("ann", "/end")
    await table.press("ann", "✅ 结束并结算")
    await seat_four(table)
    await table.say("ann", "/hu")
    await table.press("ann", "南 Bob")
    assert "包饺子" in table.buttons()


async def test_ting_lines_read_as_one_sentence(table: Table) -> None:
    await anhui(table)
    turn = await table.say("ann", "/ting 1p1p2p3p4p5p6p7p8p9p9p9p5s 混子5p")
    assert "五筒：自摸 花数 0，别人打出的混子不算冲" in turn.text.splitlines(), turn.text
    assert "一筒、三条、四条、五条、六条、七条：自摸 花数 0，冲胡 花数 0" in turn.text.splitlines()
    assert "不够胡花" not in turn.text and " · " not in turn.text


async def test_ting_says_too_few_hard_flowers_once(seated_table: Table) -> None:
    turn = await seated_table.say("ann", "/ting 123m456m789p[555s]1s")  # not 门清, no 硬花
    lines = turn.text.splitlines()
    assert lines[1:] == [f"{face}：硬花不够，自摸、冲胡都胡不了" for face in ("一条",)], lines


async def test_a_discarded_wild_refusal_reads_as_one_sentence(table: Table) -> None:
    await anhui(table)
    turn = await table.say("bob", "/hu 南 冲 西 123m456m789p11s23s+5p 混子5p")
    assert turn.texts == ["这手不能胡：南 胡的是别人打出的混子，打出的混子不算冲。"]
    assert turn.texts[0].count("：") == 1 and turn.texts[0].count("不能胡") == 1


async def test_the_biggest_hand_names_its_patterns_not_its_items(seated_table: Table) -> None:
    table = seated_table
    await table.say("ann", "/rules instant on")
    await table.say("ann", "/hu 南 自摸 5花 清一色")
    await table.say("ann", "/hu 西 自摸 5花")
    await table.say("ann", "/end")
    turn = await table.press("ann", "✅ 结束并结算")
    card = next(text for text in turn.texts if text.startswith("🀄 第1场结束"))
    [biggest] = [line for line in card.splitlines() if line.startswith("最大一手")]
    assert biggest.endswith(t("zh-Hans", "summary.items", items="清一色")), biggest
    assert "底" not in biggest and "硬花" not in biggest


@pytest.mark.slow
async def test_the_card_says_the_round_wind_only_where_there_is_one_and_a_streak_only_when_kept(
    table: Table,
) -> None:
    await seat_four(table)
    await table.say("ann", "/rules instant on")
    pinned = table.pinned()
    assert pinned is not None and "第1局 · 庄 东" in pinned.text
    assert "圈风" not in pinned.text and "连庄0" not in pinned.text and "连庄 0" not in pinned.text
    await table.say("ann", "/hu 东 自摸 5花")  # the dealer keeps the deal
    pinned = table.pinned()
    assert pinned is not None and "第2局 · 庄 东 · 连庄1" in pinned.text, pinned.text
    await table.say("ann", "/end")
    await table.press("ann", "✅ 结束并结算")
    await seat_four(table, rules="宿州")
    pinned = table.pinned()
    assert pinned is not None and "第1局 · 庄 东 · 圈风 东" in pinned.text, pinned.text


async def test_a_multi_win_flow_goes_on_to_the_next_winner_not_done(seated_table: Table) -> None:
    table = seated_table
    await table.say("bob", "/hu")
    for label in ("东 Ann", "一炮多响", "西 Cat", "下一步 ▸", "北 Dan", "8"):
        await table.press("bob", label)
    offered = table.buttons()
    assert "下一位 西 ▸" in offered and "完成" not in offered, offered
    for label in ("下一位 西 ▸", "0", "牌型 ▸"):
        await table.press("bob", label)
    assert "完成" in table.buttons()  # the last winner's steps end the flow


async def test_rules_buttons_fit_a_phone_in_every_language_and_rule_set(table: Table) -> None:
    from bot.handlers.rules import VALUE_CELLS, _cells

    for rules in ("苏州", "宿州"):
        await seat_four(table, rules=rules)
        for lang in ("zh-hans", "zh-hant", "en"):
            await table.say("zoe", f"/lang {lang}")
            turn = await table.say("ann", "/rules")
            labels = turn.sent[0].buttons
            assert labels and all(" → " in label for label in labels)
            too_long = [label for label in labels if _cells(label.split(" → ", 1)[1]) > VALUE_CELLS]
            assert too_long == [], (rules, lang)
            assert not any(label.endswith((" → any", " → pung", " → first")) for label in labels)
        await table.say("zoe", "/lang zh-hans")
        await table.say("ann", "/end")
        await table.press("ann", "✅ 结束并结算")


async def test_the_other_rule_sets_flag_is_named_as_theirs(seated_table: Table) -> None:
    turn = await seated_table.say("bob", "/hu 南 自摸 3花 上牌")
    assert turn.texts == ["记录有误：上牌 只有宿州麻将才算。"], turn.texts
