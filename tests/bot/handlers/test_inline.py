"""Inline mode through the real Application: `@bot <hand>` answers with the hand scored under both rule
sets (or the one named), within Telegram's limits, with the picker button above the results; a text that is
no hand gets one result saying what is wrong; the same query is scored once."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from harness import Table

from bot.app import build_application
from bot.console.transport import InProcessBotAPI
from bot.handlers.inline import inline_answer


@pytest.fixture
async def inline_table(bot_settings: Any, transport: InProcessBotAPI) -> AsyncIterator[Table]:
    settings = bot_settings.model_copy(update={"webapp_url": "https://bot.example.org/app/"})
    app = build_application(settings, request=transport, get_updates_request=transport)
    table = await Table.start(app, transport)
    try:
        yield table
    finally:
        await table.stop()


async def ask(table: Table, name: str, query: str) -> dict[str, Any]:
    turn = await table._run(table.state.inline_query(name, query))
    [call] = [c for c in turn.calls if c.method == "answerInlineQuery"]
    assert call.ok, call.description
    return call.params


async def test_a_hand_is_scored_under_both_rule_sets(inline_table: Table) -> None:
    answer = await ask(inline_table, "eve", "11223355778899p 中发春梅")
    titles = [r["title"] for r in answer["results"]]
    # 苏州: 清一色 10 + 七对 15 + 底 5 + 硬花 4×2 = 38 per payer, by self-draw as 南.
    assert titles == ["苏州麻将：38花", "宿州麻将：4花"]
    [suzhou, anhui] = [r["input_message_content"]["message_text"] for r in answer["results"]]
    assert "清一色 10" in suzhou and "南 +114" in suzhou
    assert "南 +" in anhui
    assert answer["button"]["web_app"]["url"] == "https://bot.example.org/app/"
    assert answer["cache_time"] == 300 and len(answer["results"]) <= 50


async def test_the_text_may_name_one_rule_set_and_a_discard(inline_table: Table) -> None:
    answer = await ask(inline_table, "eve", "苏州 11223355778899p 中发春梅 冲")
    [result] = answer["results"]
    text = result["input_message_content"]["message_text"]
    assert result["title"] == "苏州麻将：38花"
    assert "北 −38" in text and "南 +38" in text  # 北 discarded: he alone pays


async def test_no_hand_says_what_is_wrong(inline_table: Table) -> None:
    answer = await ask(inline_table, "eve", "1122335577p")
    [result] = answer["results"]
    assert result["title"].startswith("这手牌不对")


async def test_an_english_user_gets_english(inline_table: Table) -> None:
    inline_table.state.user("eve")["language_code"] = "en"
    answer = await ask(inline_table, "eve", "11223355778899p 中发春梅")
    assert answer["results"][0]["title"] == "Suzhou (Jiangsu): 38 flowers"


async def test_an_empty_query_shows_how_to_type_a_hand(inline_table: Table) -> None:
    answer = await ask(inline_table, "eve", "")
    assert "11223355778899p" in answer["results"][0]["title"]


def test_the_same_query_is_scored_once() -> None:
    inline_answer.cache_clear()
    first = inline_answer("11223355778899p 中发春梅", "zh-Hans")
    assert inline_answer("11223355778899p 中发春梅", "zh-Hans") is first
    assert inline_answer.cache_info().hits == 1
