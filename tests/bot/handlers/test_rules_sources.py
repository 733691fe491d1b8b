"""The readings through the real bot: 一炮多响 with one winner refused, 宿州 multi_win false, a
discarded 混子, 送杠, the new options in /rules and a pattern multiplier in the preview. Each test quotes
its source line (docs/rules.md)."""

from __future__ import annotations

import pytest
from harness import Table, ledger

from bot.ledger.play import books, groups

CONFIRM = "✅ 确认"


def totals(table: Table) -> dict[str, int]:
    current = groups.chat_state(ledger(table), table.chat_id).session
    rows = ledger(table).read(books.ledger_rows, current.id)
    return dict(rows[-1].running) if rows else {}


async def anhui(table: Table, *options: str) -> Table:
    await table.say("ann", "/newgame 宿州 1")
    for name in ("ann", "bob", "cat", "dan"):
        await table.say(name, "/join")
    await table.say("ann", "/dealer 东")
    for option in options:
        await table.say("ann", f"/rules {option}")
    return table


# ---------------------------------------------------------------- 一炮多响 with one winner refused


async def test_a_refused_winner_of_one_discard_is_shown_and_the_other_recorded(seated_table: Table) -> None:
    # docs/rules.md §1: "A win that is not allowed scores nothing and is reported with its reason", and
    # "一炮多响 …: the discarder pays each winner that winner's T". 东 has 3 硬花 and needs 4 on a discard;
    # 南 has 4: 底 5 + 4 = 9 from 西.
    turn = await seated_table.say("bob", "/hu 东 3花 南 4花 冲 西")
    assert "✖ 东 Ann 硬花不够，要4张，这手只有3张" in turn.text
    assert "西 Cat 放冲，南 Bob 胡 · 9花" in turn.text
    assert "输赢：南 +9 · 西 −9" in turn.text
    confirmed = await seated_table.press("cat", CONFIRM)
    assert confirmed.edits[0].text.startswith("第1局 西 放冲，南 胡 9花 → 南 +9 · 西 −9")
    assert totals(seated_table) == {"E": 0, "S": 9, "W": -9, "N": 0}


@pytest.mark.slow
async def test_a_refused_winner_in_calc(seated_table: Table) -> None:
    turn = await seated_table.say("bob", "/calc 东 3花 南 4花 冲 西")
    assert "✖ 东 硬花不够，要4张" in turn.text and "南 +9 · 西 −9" in turn.text


async def test_every_winner_refused_is_still_refused_whole(seated_table: Table) -> None:
    turn = await seated_table.say("bob", "/hu 东 3花 南 2花 冲 西")
    assert turn.text.startswith("这手不能胡：")
    assert totals(seated_table) == {}


async def test_a_refused_winner_in_the_button_flow(seated_table: Table) -> None:
    await seated_table.say("bob", "/hu")
    for label in ("东 Ann", "一炮多响", "南 Bob", "下一步", "西 Cat", "3", "下一位 南 ▸", "4", "完成"):
        await seated_table.press("bob", label)
    preview = seated_table.last_text()
    assert "✖ 东 Ann 硬花不够，要4张" in preview and "输赢：南 +9 · 西 −9" in preview


# ---------------------------------------------------------------- 宿州 multi_win false


async def test_anhui_multi_win_off_pays_the_first_winner_from_the_discarder(table: Table) -> None:
    # docs/rules.md §2: "一炮多响: the discarder pays each winner by the table (option `multi_win`, default
    # true; false = only the first winner from the discarder's next seat counts)". 北 discards; 东 is the
    # seat after 北, so 东 (the dealer, f = 3) is paid b·(2f+2) = 8, and 西 is not, with the reason.
    await anhui(table, "multi_win false")
    turn = await table.say("bob", "/hu 西 2花 东 3花 冲 北")
    assert "✖ 本桌截胡，一炮多响只算放冲的人下家起第一位胡家，不算 西 Cat。" in turn.text
    assert "输赢：东 +8 · 北 −8" in turn.text
    await table.press("cat", CONFIRM)
    assert totals(table) == {"E": 8, "S": 0, "W": 0, "N": -8}


async def test_anhui_multi_win_on_pays_both(table: Table) -> None:
    await anhui(table)
    turn = await table.say("bob", "/hu 西 2花 东 3花 冲 北")
    assert "输赢：西 +5 · 东 +8 · 北 −13" in turn.text


# ---------------------------------------------------------------- 宿州: a discarded 混子


async def test_a_discarded_wild_is_refused_in_the_tile_form(table: Table) -> None:
    # docs/rules.md §2: "A discarded 混子 cannot be won on ("如果打混子，混子是不会冲的")".
    await anhui(table)
    turn = await table.say("bob", "/hu 南 冲 北 123m456m789m79s55s2p 春 混子 2p")
    assert "胡的是别人打出的混子" in turn.text
    assert totals(table) == {}
    calc = await table.say("bob", "/calc 南 冲 北 123m456m789m79s55s2p 春 混子 2p")
    assert "胡的是别人打出的混子" in calc.text
    drawn = await table.say("bob", "/hu 南 自摸 123m456m789m79s55s2p 春 混子 2p")  # self-drawn: it wins
    assert "输赢：南 +" in drawn.text


# ---------------------------------------------------------------- 送杠


async def test_songgang_word_names_the_feeder_without_gangkai(seated_table: Table) -> None:
    # docs/rules.md §1: "`any` (送杠): after a 直杠 fed by a discard, any later self-draw by the konger
    # in that hand makes the feeder alone pay 3T; no 杠开 unless it was the replacement tile".
    await seated_table.say("ann", "/rules songgang any")
    turn = await seated_table.say("bob", "/hu 南 送杠 西 3花")
    assert "南 Bob 送杠自摸（西 Cat 放的杠） · 8花" in turn.text
    assert "  送杠 ×3" in turn.text and "杠开" not in turn.text
    assert "输赢：南 +24 · 西 −24" in turn.text


async def test_songgang_word_under_the_default_is_an_ordinary_self_draw(seated_table: Table) -> None:
    # Default "replacement": "Only the immediate replacement win counts (a later self-draw is ordinary)".
    turn = await seated_table.say("bob", "/hu 南 送杠 西 3花")
    assert "输赢：南 +24 · 东 −8 · 西 −8 · 北 −8" in turn.text


# ---------------------------------------------------------------- options in /rules and the preview


async def test_an_option_value_outside_its_list_names_the_option_and_its_values(seated_table: Table) -> None:
    # docs/rules.md §1: "Values outside a row's list are refused with the option's name and its values."
    turn = await seated_table.say("ann", "/rules hunyise 7")
    assert turn.text == "选项 混一色花数 不能取“7”。可以取：5（加5花）、6（加6花）、8（加8花）"


async def test_qingyise_x2_is_its_own_line_in_the_preview(seated_table: Table) -> None:
    # 002 "+10/16分或*2倍": no 10 花, T ×2. T = 底 5 + 硬花 5 = 10, doubled: each pays 20.
    turn = await seated_table.say("ann", "/rules 清一色花数 x2")
    assert turn.text == "清一色花数 已改为 不加花，结算翻倍。"
    preview = (await seated_table.say("bob", "/hu 南 自摸 5花 清一色")).text
    assert "  清一色 ×2\n" in preview and "清一色 0" not in preview
    assert "输赢：南 +60 · 东 −20 · 西 −20 · 北 −20" in preview


async def test_shuanghao_qidui_shows_its_hua_and_its_multiplier(seated_table: Table) -> None:
    # "双豪七对 (two): 30 in place of 七对's 15, and T ×3". T = 30 + 底 5 + 硬花 1×2 = 37, ×3 = 111.
    await seated_table.say("ann", "/rules extended on")
    preview = (await seated_table.say("bob", "/hu 南 自摸 1111m3333p5566s1z+1z 春")).text
    assert "  双豪七对 30\n  双豪七对 ×3\n" in preview
    assert "输赢：南 +333 · 东 −111 · 西 −111 · 北 −111" in preview


@pytest.mark.slow
async def test_a_discarded_wild_is_refused_in_the_quick_form(table: Table) -> None:
    # The quick form names the tile won on with the shorthand's marker: `+2p`.
    await anhui(table)
    turn = await table.say("bob", "/hu 南 冲 北 +2p 1花 混子 2p")
    assert "胡的是别人打出的混子" in turn.text
    assert totals(table) == {}
    assert "胡的是别人打出的混子" in (await table.say("bob", "/calc 南 冲 北 +2p 1花 混子 2p")).text
    turn = await table.say("bob", "/hu 南 冲 北 +3p 1花 混子 2p")
    assert "输赢：南 +3 · 北 −3" in turn.text


async def test_songgang_in_the_button_flow(seated_table: Table) -> None:
    # With songgang "any" the flow offers 送杠: the feeder pays 3T, no 杠开 (as `/hu 南 送杠 西 3花`).
    await seated_table.say("ann", "/rules songgang any")
    await seated_table.say("bob", "/hu")
    for label in ("南 Bob", "送杠", "西 Cat", "3", "完成"):
        await seated_table.press("bob", label)
    preview = seated_table.last_text()
    assert "南 Bob 送杠自摸（西 Cat 放的杠） · 8花" in preview and "输赢：南 +24 · 西 −24" in preview


async def test_no_songgang_button_under_the_default(seated_table: Table) -> None:
    turn = await seated_table.say("bob", "/hu")
    await seated_table.press("bob", "南 Bob")
    assert "送杠" not in seated_table.last_text() and "送杠" not in "".join(
        seated_table.message(turn.sent[0].message_id).buttons
    )


async def test_a_discarded_wild_is_refused_in_the_button_flow(table: Table) -> None:
    # docs/rules.md §2: "A discarded 混子 cannot be won on ("如果打混子，混子是不会冲的"): a discard win whose
    # winning tile is the wild tile itself is refused with that reason."
    await anhui(table)
    typed = (await table.say("bob", "/hu 南 冲 北 +2p 1花 混子 2p")).text
    flow = (await table.say("bob", "/hu")).sent[0].message_id
    for label in ("南 Bob", "放冲", "北 Dan", "1", "牌型 ▸", "混子：无 ▸", "二筒"):
        await table.press("bob", label, message_id=flow)
    assert table.message(flow).text == "胡的那张是混子（二筒）吗？"
    turn = await table.press("bob", "是", message_id=flow)
    assert turn.answers[0] == typed and "胡的是别人打出的混子" in typed
    assert table.message(flow).text == "胡的那张是混子（二筒）吗？" and CONFIRM not in table.buttons(flow)
    assert ledger(table).read(books.hands, groups.chat_state(ledger(table), table.chat_id).session.id) == []
    await table.press("bob", "不是", message_id=flow)  # another tile won on: the win stands
    await table.press("bob", "完成", message_id=flow)
    assert "输赢：南 +3 · 北 −3" in table.message(flow).text


async def test_a_self_drawn_wild_wins_in_the_button_flow(table: Table) -> None:
    # docs/rules.md §2: "A player may discard a 混子, and wins on other discards stand"; a self-draw is no
    # discard, so the flow never asks, and the hand with its 混子 is recorded.
    await anhui(table)
    flow = (await table.say("bob", "/hu")).sent[0].message_id
    for label in ("南 Bob", "自摸", "1", "牌型 ▸", "混子：无 ▸", "二筒"):
        await table.press("bob", label, message_id=flow)
    assert table.message(flow).text.startswith("牌型") and "是" not in table.buttons(flow)
    await table.press("bob", "完成", message_id=flow)
    await table.press("cat", CONFIRM, message_id=flow)
    recorded = ledger(table).read(books.hands, groups.chat_state(ledger(table), table.chat_id).session.id)
    assert [hand.entry["wins"][0]["wild"] for hand in recorded] == ["2p"]
    assert totals(table)["S"] > 0
