"""Names are normalised (Unicode NFKC) before they are compared or shown, and a guest name with a
zero-width or bidirectional control character is refused: `台` plus a zero-width space cannot pose as the
台 account, nor `Ann` written in full-width letters as Ann."""

from __future__ import annotations

import pytest
from harness import Table, ledger

from bot.ledger.play import groups

ZWSP, RLO, ZWJ, LRM = "\u200b", "\u202e", "\u200d", "\u200e"


@pytest.mark.parametrize("name", [f"台{ZWSP}", f"{ZWSP}台", f"老{RLO}王", f"老{ZWJ}王", f"老王{LRM}"])
async def test_a_guest_name_with_an_invisible_character_is_refused(table: Table, name: str) -> None:
    await table.say("ann", "/newgame 苏州 1")
    turn = await table.say("ann", f"/join {name}")
    assert not any(b.startswith("按客人") for r in turn.sent for b in r.buttons), turn.texts
    assert "看不见" in turn.text  # says what is wrong
    session = groups.chat_state(ledger(table), table.chat_id).session
    assert session.seats == {}


async def test_a_full_width_name_is_the_same_name(table: Table) -> None:
    await table.say("ann", "/newgame 苏州 1")
    await table.say("ann", "/join")
    await table.say("bob", "/join")
    turn = await table.say("ann", "/join Ｂｏｂ")  # Bob in full-width letters
    assert not any(b.startswith("按客人") for r in turn.sent for b in r.buttons), turn.texts
    turn = await table.say("ann", "/join ⼈")  # the Kangxi radical is 人 once normalised
    assert any("按客人 人 入座" in r.buttons for r in turn.sent), turn.texts


async def test_a_telegram_name_is_shown_without_invisible_characters(table: Table) -> None:
    table.transport.add_user("mal", user_id=1077, first_name=f"台{ZWSP}")
    await table.say("ann", "/newgame 苏州 1")
    await table.say("mal", "/join")
    [player] = groups.chat_state(ledger(table), table.chat_id).session.seats.values()
    assert player.display_name == "台"  # no invisible character; told apart from the account as a member
