"""A /paid that lands after /end carried the debt it meant (the two raced) says the debt was carried into
that session's settlement, never that it was paid (结清)."""

from __future__ import annotations

from harness import END, Table, money, seat_four


async def test_a_paid_after_the_end_carried_the_debt_says_carried(seated_table: Table) -> None:
    table = seated_table
    await table.say("ann", "/rules instant on")
    await table.say("ann", "/adjust 东 南 20")  # Ann owes Bob 20
    await table.say("ann", "/end")
    await table.press("ann", END)
    assert money(table) == {"Ann": -20, "Bob": 20}
    await seat_four(table)
    await table.say("ann", "/adjust 南 东 20")  # Bob owes Ann 20 tonight: the carry evens them
    await table.say("ann", "/end")
    await table.press("ann", END)  # /end carries Ann's 20 into the second night's settlement
    assert money(table) == {}
    turn = await table.say("ann", "/paid @bob 20")  # typed before the /end, delivered after it
    assert "结清" not in turn.text, turn.text
    assert "第2场" in turn.text and "转入" in turn.text, turn.text
    assert money(table) == {}
