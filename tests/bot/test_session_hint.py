"""An instant group's /hu parses against the table this process last saw; the ledger checks the seating."""

from __future__ import annotations

from typing import Any

from harness import PLAYERS, Table


def current_hands(table: Table) -> list[Any]:
    ledger = table.app.bot_data["ledger"]
    return ledger.hands(ledger.current_session(table.chat_id).id)


async def test_a_remembered_table_is_checked_against_the_seating_in_the_database(
    seated_table: Table, bot_settings: Any, transport: Any
) -> None:
    from bot.app import build_application

    await seated_table.say("ann", "/rules instant on")
    turn = await seated_table.say("ann", "/hu @bob 自摸 5花 清一色")  # bob sits S
    assert turn.texts[0].startswith("第1局 南 自摸")
    hint = seated_table.app.bot_data["session_hints"][seated_table.chat_id]
    assert hint.seats["S"].username == "bob" and hint.hands_played == 1
    # Another worker on the same database ends the table and seats the same four the other way round.
    other = build_application(bot_settings, request=transport, get_updates_request=transport)
    worker = await Table.start(other, transport, chat_id=seated_table.chat_id)
    try:
        await worker.say("ann", "/end")
        await worker.say("ann", "/newgame 苏州 1")
        for name in reversed(list(PLAYERS)):
            await worker.say(name, "/join")
    finally:
        await worker.stop()
    # This process still remembers bob at S: the ledger refuses that seating, the bot reads the table again
    # and records bob's win at his new seat, W.
    turn = await seated_table.say("ann", "/hu @bob 自摸 5花 清一色")
    assert turn.texts[0].startswith("第1局 西 自摸"), turn.texts
    (hand,) = current_hands(seated_table)
    assert hand.payments["W"] > 0 and sum(hand.payments.values()) == 0
    assert seated_table.app.bot_data["session_hints"][seated_table.chat_id].seats["W"].username == "bob"


async def test_a_hint_that_no_longer_parses_falls_back_to_the_table(seated_table: Table) -> None:
    await seated_table.say("ann", "/rules instant on")
    await seated_table.say("ann", "/hu 南 自摸 5花 清一色")
    hints = seated_table.app.bot_data["session_hints"]
    # A remembered table where nobody is called "cat" any more (as after a rename the hint missed).
    stale = hints[seated_table.chat_id]
    renamed = {
        seat: (p if p.username != "cat" else type(p)(p.id, p.chat_id, "Kitty", p.telegram_id, "kitty"))
        for seat, p in stale.seats.items()
    }
    hints[seated_table.chat_id] = type(stale)(
        **{**{f: getattr(stale, f) for f in stale.__slots__}, "seats": renamed}
    )
    turn = await seated_table.say("ann", "/hu @cat 冲 东 5花 清一色")
    assert turn.texts[0].startswith("第2局 西 冲 东"), turn.texts
    assert len(current_hands(seated_table)) == 2
