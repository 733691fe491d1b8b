"""Typing forgiveness where a table types fast (issue 28), through the real Application: "did you mean" for
a word one edit away from a known one, the tables' words for a discard win (出冲, 冲胡, 吃冲, 平胡), a 令风
typed before the other flowers, /adjust's usage said once, and an /edit naming someone who sat down later."""

from __future__ import annotations

from typing import Any

import pytest
from harness import Table, ledger, seat_four

from bot.i18n import t
from bot.ledger.play import books, groups


def hands(table: Table) -> list[Any]:
    return list(ledger(table).read(books.hands, groups.chat_state(ledger(table), table.chat_id).session.id))


@pytest.mark.parametrize(
    ("typed", "meant"), [("自模", "自摸"), ("七队", "七对"), ("清一涩", "清一色"), ("qingyse", "qingyise")]
)
async def test_a_word_one_key_off_gets_a_did_you_mean(seated_table: Table, typed: str, meant: str) -> None:
    turn = await seated_table.say("ann", f"/hu 南 自摸 5花 {typed}" if typed != "自模" else "/hu 南 自模 5花")
    assert turn.texts[0].startswith(
        t("zh-Hans", "grammar.unknown_word_suggest", token=typed, suggestion=meant)
    )
    assert hands(seated_table) == []


async def test_a_word_far_from_every_known_one_gets_no_guess(seated_table: Table) -> None:
    turn = await seated_table.say("ann", "/hu 南 自摸 5花 茶水")
    assert turn.texts[0].startswith("看不懂第4个词“茶水”"), turn.texts
    assert "是不是" not in turn.texts[0]


@pytest.mark.parametrize("word", ["出冲", "出沖", "冲胡", "吃冲", "平胡"])
async def test_the_tables_words_for_a_discard_win(seated_table: Table, word: str) -> None:
    table = seated_table
    await table.say("ann", "/rules instant on")
    turn = await table.say("ann", f"/hu 南 {word} 西 5花")
    said = t("zh-Hans", "result.discard", winner="南", discarder="西")
    assert turn.texts and turn.texts[0].startswith(f"第1局 {said}"), turn.texts
    [hand] = hands(table)
    assert hand.entry["discarder"] == "W" and [w["winner"] for w in hand.entry["wins"]] == ["S"]


async def test_a_ling_feng_typed_first_is_a_flower(table: Table) -> None:
    await seat_four(table, rules="宿州")
    previews = []
    for flowers in ("东东春", "春东东", "东春东"):
        turn = await table.say("ann", f"/hu 南 自摸 123m456m789p11s2s2s+2s {flowers}")
        previews.append(turn.texts[-1])
        await table.press("ann", "✖ 取消")
    assert "南 Bob 自摸 · 花数 3" in previews[0], previews
    assert previews[0] == previews[1] == previews[2]


async def test_adjust_says_its_usage_once(seated_table: Table) -> None:
    turn = await seated_table.say("ann", "/adjust 西 50")
    [text] = turn.texts
    assert text.count("例如") == 1 and "格式" not in text, text
    assert text.startswith(t("zh-Hans", "grammar.missing_amount"))


async def test_an_edit_naming_someone_seated_later_says_so(seated_table: Table) -> None:
    table = seated_table
    await table.say("ann", "/rules instant on")
    await table.say("ann", "/hu 南 自摸 5花")
    await table.say("eve", "/score")  # the group knows her
    seated = await table.say("dan", "/sub 北 @eve")
    assert "Eve" in seated.text, seated.texts
    turn = await table.say("ann", "/edit 1 Eve 自摸 5花")
    assert turn.texts == ["Eve 没有坐在第1局的桌上：那一局是 东 Ann、南 Bob、西 Cat、北 Dan。"]
    assert len(hands(table)) == 1 and hands(table)[0].replaces is None
