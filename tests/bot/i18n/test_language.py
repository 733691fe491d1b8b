"""Languages through the bot: /lang switches a group between zh-Hans, zh-Hant and English, input in any."""

from __future__ import annotations

from harness import PLAYERS, Table


async def seat_everyone(table: Table) -> None:
    for name in PLAYERS:
        await table.say(name, "/join")
    await table.say("ann", "/dealer E")


async def test_lang_shows_and_switches(table: Table) -> None:
    turn = await table.say("eve", "/lang")
    assert turn.texts == ["语言：简体中文\n用法：/lang zh-hans · /lang zh-hant · /lang en"]
    turn = await table.say("eve", "/lang en")
    assert turn.text == "This group now speaks English."
    turn = await table.say("eve", "/lang")
    assert turn.texts == ["Language: English\nUsage: /lang zh-hans · /lang zh-hant · /lang en"]


async def test_unknown_language(table: Table) -> None:
    turn = await table.say("eve", "/lang klingon")
    assert turn.text == "不认识的语言“klingon”。\n用法：/lang zh-hans | zh-hant | en"


async def test_a_whole_hand_in_english(table: Table) -> None:
    await table.say("ann", "/lang en")
    turn = await table.say("ann", "/newgame suzhou 2")
    assert turn.sent[0].text.startswith("🀄 New table: Suzhou (Jiangsu), stake 2")
    assert turn.sent[0].buttons == ("Join",)
    await seat_everyone(table)
    turn = await table.say("bob", "/hu S tsumo 5hua qys")
    assert turn.text.startswith(
        "📝 Preview · hand 1\nS Bob self-draws · 20 flowers\n  Full flush 10\n  Base 5"
    )
    assert turn.sent[0].buttons == ("✅ Confirm", "✖ Cancel")
    turn = await table.press("cat", "✅ Confirm")
    assert turn.sent == []  # the preview became the result
    assert turn.edits[0].text == (
        "Hand 1 S self-draw 20 flowers → S +120 · E −40 · W −40 · N −40 · next dealer S\n"
        "✅ Confirmed by Cat; recorded."
    )


async def test_traditional_chinese_group_and_traditional_input(table: Table) -> None:
    await table.say("ann", "/lang 繁體")
    await table.say("ann", "/newgame 蘇州")
    await seat_everyone(table)
    turn = await table.say("bob", "/hu 南 沖 西 5花 清一色")
    assert turn.text.startswith("📝 預覽 · 第1局\n西 Cat 放沖，南 Bob 胡 · 20花")
    turn = await table.press("cat", "✅ 確認")
    assert turn.edits[0].text.splitlines()[0] == "第1局 西 放沖，南 胡 20花 → 南 +20 · 西 −20 · 下局莊 南"
    turn = await table.say("eve", "/hu 南 自摸 5花")
    assert turn.text == "只有入座的玩家或群管理員可以這樣做。"


async def test_grammar_errors_come_in_the_group_language(table: Table) -> None:
    await table.say("ann", "/lang en")
    await table.say("ann", "/newgame")
    await seat_everyone(table)
    turn = await table.say("bob", "/hu Zed tsumo 5hua")
    assert "Zed" in turn.text and turn.text.endswith(
        "Usage: /hu winner how [flowers patterns | tiles], e.g. /hu S zimo 5hua qys"
    )


async def test_during_a_session_only_players_and_admins_switch(seated_table: Table) -> None:
    turn = await seated_table.say("eve", "/lang en")
    assert turn.text == "只有入座的玩家或群管理员可以这样做。"
    turn = await seated_table.say("dan", "/lang en")
    assert turn.text == "This group now speaks English."
