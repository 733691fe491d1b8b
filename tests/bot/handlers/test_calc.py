"""/calc and /ting through the bot: scoring without recording, in a group or a private chat."""

from __future__ import annotations

from harness import Table

from bot.ledger.play import books, groups


async def test_calc_itemizes_the_hand(table: Table) -> None:
    turn = await table.say("eve", "/calc 11223355778899p 中发春梅百搭")
    assert turn.text == (
        "苏州麻将 · 自摸 · 没有开着的牌桌：按苏州麻将默认规则，庄家 东\n"
        "  清一色 10\n  七对 15\n  底 5\n  硬花 10（5×2，七对翻倍）\n"
        "合计40花；每花 1：南 +120 · 东 −40 · 西 −40 · 北 −40"
    )


async def test_calc_on_a_discard_uses_the_open_table_stake(seated_table: Table) -> None:
    await seated_table.say("ann", "/end")
    await seated_table.press("ann", "✅ 结束并结算")
    await seated_table.say("ann", "/newgame 苏州 5")
    turn = await seated_table.say("eve", "/calc 11223355778899p 中发春梅百搭 冲")
    assert turn.text.startswith("苏州麻将 · 放冲 · 按本桌规则；还没定庄，按庄家 东 算")
    assert turn.text.endswith("合计40花；每花 5：南 +200 · 北 −200")


async def test_calc_says_when_a_hand_may_not_win(table: Table) -> None:
    turn = await table.say("eve", "/calc 123m456m789m55s[555p]")
    assert turn.text.startswith(
        "苏州麻将 · 自摸 · 没有开着的牌桌：按苏州麻将默认规则，庄家 东\n✖ 南 硬花不够，要3张"
    )


async def test_calc_refuses_a_bad_hand_and_records_nothing(table: Table) -> None:
    turn = await table.say("eve", "/calc 123m456m789m123p55s5s")
    assert "用法：/calc" in turn.text
    turn = await table.say("eve", "/calc")
    assert turn.text.startswith("/calc 需要一手完整的牌")


async def test_ting_lists_waits_with_their_flowers(table: Table) -> None:
    turn = await table.say("eve", "/ting 1112345678999m")
    lines = turn.text.splitlines()
    assert lines[0] == "听9张："
    # the nine waits score alike (清一色 10 + 大门清 10 + 底 5): one line names them all
    assert lines[1:] == ["一万、二万、三万、四万、五万、六万、七万、八万、九万：自摸25花，冲胡25花"]


async def test_ting_not_waiting_and_bad_input(table: Table) -> None:
    turn = await table.say("eve", "/ting 1357m2468p1357s9m")
    assert turn.text == "没听牌。"
    turn = await table.say("eve", "/ting")
    assert turn.text == "缺少参数。\n用法：/ting 13张牌 [混子 牌]，例如 /ting 1112345678999m"
    turn = await table.say("eve", "/ting 11m")
    assert turn.text.startswith("算不了：")


async def test_calc_takes_the_words_of_hu_with_the_tables_rules_and_dealer(seated_table: Table) -> None:
    await seated_table.say("ann", "/dealer 南")
    turn = await seated_table.say("eve", "/calc 南 冲 西 11223355778899p 中发春梅百搭")
    assert turn.text.startswith("苏州麻将 · 放冲 · 按本桌规则，庄家 南\n  清一色 10")
    assert turn.text.endswith("合计40花；每花 1：南 +40 · 西 −40")
    turn = await seated_table.say("eve", "/calc Bob 自摸 5花 清一色")  # a seated name, the quick form
    assert turn.text.endswith("合计20花；每花 1：南 +60 · 东 −20 · 西 −20 · 北 −20")
    assert ledger_hands(seated_table) == []


async def test_calc_without_a_table_names_seats_and_uses_suzhou_defaults(table: Table) -> None:
    await table.say("ann", "/rules 宿州")  # the group's default for the next table: /calc still says 苏州
    turn = await table.say("eve", "/calc 西 冲 北 11223355778899p 中发春梅百搭")
    assert turn.text.startswith("苏州麻将 · 放冲 · 没有开着的牌桌：按苏州麻将默认规则，庄家 东")
    assert turn.text.endswith("西 +40 · 北 −40")


async def test_calc_and_ting_at_an_anhui_table_use_its_rules_and_wild(table: Table) -> None:
    await table.say("ann", "/newgame 宿州 1")
    for name in ("ann", "bob", "cat", "dan"):
        await table.say(name, "/join")
    turn = await table.say("eve", "/calc 东 自摸 123456789m12399p 春")
    assert turn.text.startswith("宿州麻将 · 自摸 · 按本桌规则；还没定庄，按庄家 东 算")
    plain = await table.say("eve", "/ting 1234567m2355p99s")
    wild = await table.say("eve", "/ting 1234567m2355p99s 混子 5p")
    assert plain.text != wild.text and wild.text.startswith("听")
    turn = await table.say("eve", "/ting 1234567m2355p99s 混子 5x")
    assert "不是一张牌" in turn.text


def ledger_hands(table: Table) -> list[object]:
    ledger = table.app.bot_data["ledger"]
    return ledger.read(books.hands, groups.chat_state(ledger, table.chat_id).session.id)
