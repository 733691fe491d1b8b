"""Every number a player types is read by the one parser (bot.grammar.lexer.parse_number / parse_count):
full-width digits, as a Chinese input method types them, count like ASCII ones in the /newgame stake, the
/rules values, /schedule's time and reminder and /paid, as they already did in /hu and /adjust (issue 28)."""

from __future__ import annotations

from harness import Table, ledger

from bot.ledger.play import groups


async def test_a_full_width_stake_opens_the_table_at_that_stake(table: Table) -> None:
    turn = await table.say("ann", "/newgame 苏州 ５")
    assert not any("底注" in text and "不行" in text for text in turn.texts), turn.texts
    session = groups.chat_state(ledger(table), table.chat_id).session
    assert session is not None and session.stake == 5


async def test_full_width_rule_values_are_read(seated_table: Table) -> None:
    table = seated_table
    turn = await table.say("ann", "/rules timeout １２０")
    assert "120" in turn.text, turn.texts
    assert groups.chat_state(ledger(table), table.chat_id).group.confirm_timeout_seconds == 120
    await table.say("ann", "/rules threshold ２／３")
    assert groups.chat_state(ledger(table), table.chat_id).session.options["threshold"] == "2/3"


async def test_a_full_width_reminder_and_weekly_time_are_read(table: Table) -> None:
    turn = await table.say("zoe", "/schedule remind ２４小时")
    assert turn.texts[0].startswith("好的：账没结清满24小时"), turn.texts
    assert groups.chat_state(ledger(table), table.chat_id).group.settle["remind"] == 24
    turn = await table.say("zoe", "/schedule weekly 周日 ２０：３０")
    assert groups.chat_state(ledger(table), table.chat_id).group.weekly_time == "20:30", turn.texts
    turn = await table.say("zoe", "/schedule remind 两天")
    assert groups.chat_state(ledger(table), table.chat_id).group.settle["remind"] == 48, turn.texts


async def test_a_full_width_amount_is_paid(seated_table: Table) -> None:
    table = seated_table
    await table.say("ann", "/rules instant on")
    await table.say("ann", "/hu 南 冲 西 6花")
    await table.say("ann", "/end")
    await table.press("ann", "✅ 结束并结算")
    turn = await table.say("cat", "/paid @bob ５")
    assert turn.texts[0].startswith("Cat 说已付给 Bob 5，"), turn.texts
