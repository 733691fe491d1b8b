"""The nights the season tests play (tests/bot/handlers/test_season.py, tests/bot/webapp/): the issue's two
nights at stake 5, each ended and settled."""

from __future__ import annotations

from harness import END, Table


async def night(table: Table, *hands: str) -> None:
    """A night at stake 5: ann, bob, cat, dan seated 东 南 西 北, 东 deals first, the hands recorded at once,
    then /end and its Confirm."""
    await table.say("ann", "/newgame 苏州 5")
    for name in ("ann", "bob", "cat", "dan"):
        await table.say(name, "/join")
    await table.say("ann", "/dealer 东")
    await table.say("ann", "/rules instant on")
    for hand in hands:
        await table.say("ann", hand)
    await table.say("ann", "/end")
    await table.press("ann", END)


async def two_nights(table: Table) -> None:
    """Night 1: 南 Bob wins 10花 on 东 Ann's discard, then 西 Cat self-draws 10花; night 2: 东 Ann wins 10花
    on 南 Bob's discard (a hand of 10花: 5 said, with 苏州's base of 5; 50 a payer at stake 5)."""
    await night(table, "/hu 南 冲 东 5花", "/hu 西 自摸 5花")
    await night(table, "/hu 东 冲 南 5花")
