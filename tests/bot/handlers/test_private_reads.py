"""No reply in a private chat names anyone from a group the asker is not in: `/start pc<N>` (the 收款码 deep
link) by a stranger is refused without naming the transfer's people, whatever N."""

from __future__ import annotations

from harness import END, Table, ledger

from bot.ledger.money import settling

NAMES = ("Ann", "Bob", "Cat", "Dan")


async def test_a_stranger_probing_paycode_links_learns_no_names(seated_table: Table) -> None:
    table = seated_table
    await table.say("ann", "/rules instant on")
    await table.say("ann", "/hu 东 自摸 5花")
    await table.say("ann", "/hu 南 冲 西 6花")
    await table.say("ann", "/end")
    await table.press("ann", END)
    transfers = ledger(table).read(settling.balance, table.chat_id).transfers
    assert transfers  # there are transfers to probe
    mallory = table.transport.add_user("mallory", user_id=1066)["id"]
    table.state.add_group(mallory, "Mallory", type="private")
    said: list[str] = []
    for number in range(1, 16):
        turn = await table._run(table.state.message(mallory, "mallory", f"/start pc{number}"))
        assert not turn.of("sendPhoto")
        said += turn.texts
    assert len(said) == 15
    for text in said:
        assert not any(name in text for name in NAMES), text
    # Someone of the group is still told whose transfer it is.
    bob = table.user("bob")["id"]
    table.state.add_group(bob, "Bob", type="private")
    first = min(tr.id for tr in transfers if tr.payer.display_name != "Bob")
    turn = await table._run(table.state.message(bob, "bob", f"/start pc{first}"))
    assert "付给" in turn.texts[0]
