"""One numeric parser: superscript, circled and mathematical digits are refused in
every number a user types, with one message; ASCII, full-width digits and Chinese numerals are read."""

from __future__ import annotations

import pytest
from harness import Table

from bot.i18n import t
from bot.ledger.play import books, groups


def odd(token: str) -> str:
    return t("zh-Hans", "grammar.odd_digit", token=token)


@pytest.mark.parametrize(
    ("text", "token"),
    [
        ("/adjust 东 南 ²", "²"),
        ("/adjust 东 南 ¹⁰⁰⁰⁰⁰⁰⁰", "¹⁰⁰⁰⁰⁰⁰⁰"),
        ("/hu 南 自摸 𝟗𝟗花", "𝟗𝟗花"),
        ("/hu 南 自摸 ⑳花", "⑳花"),
        ("/edit ² 南 自摸 5花", "²"),
        ("/rules timeout ⑳", "⑳"),
    ],
)
async def test_odd_digits_are_refused_everywhere_with_one_message(
    seated_table: Table, text: str, token: str
) -> None:
    table = seated_table
    await table.say("ann", "/dealer 东")
    await table.say("ann", "/rules instant on")
    turn = await table.say("ann", text)
    assert turn.texts and turn.texts[0].startswith(odd(token)), turn.texts
    ledger = table.app.bot_data["ledger"]
    assert ledger.read(books.hands, groups.chat_state(ledger, table.chat_id).session.id) == []


async def test_newgame_refuses_odd_digits_with_the_same_message(table: Table) -> None:
    turn = await table.say("ann", "/newgame 苏州 ²")
    assert turn.texts[0].startswith(odd("²"))


async def test_full_width_and_chinese_numbers_are_read(seated_table: Table) -> None:
    table = seated_table
    await table.say("ann", "/dealer 东")
    await table.say("ann", "/rules instant on")
    await table.say("ann", "/adjust 东 南 ５")
    await table.say("ann", "/adjust 东 南 十二")
    report = table.app.bot_data["ledger"].read(books.standings, table.chat_id)
    assert {r.player.name: r.net for r in report.session_rows}["Bob"] == 17
