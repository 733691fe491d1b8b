"""Every debt has someone who may confirm it: the group's only admin owing a guest (or the 台, which has no
account either) confirms her own payment, since nobody else can; with a second admin, that admin does."""

from __future__ import annotations

from harness import END, Table, ledger, money, summary

from bot.ledger.money import settling


async def night(table: Table) -> int:
    """Zoe (the group's creator) at 东, Bob, Cat, and the guest 小王 seated by Zoe at 北; Zoe owes 小王
    30 (/adjust 东 北 30). Returns the summary's message id."""
    await table.say("zoe", "/newgame 苏州 1")
    for name in ("zoe", "bob", "cat"):
        await table.say(name, "/join")
    await table.seat_guest("zoe", "/join 小王")
    await table.say("zoe", "/dealer 东")
    await table.say("zoe", "/rules instant on")
    await table.say("zoe", "/adjust 东 北 30")
    await table.say("zoe", "/end")
    await table.press("zoe", END)
    assert money(table) == {"Zoe": -30, "小王": 30}
    return summary(table, 1).message_id


async def test_the_only_admin_confirms_what_she_paid_a_guest(table: Table) -> None:
    card = await night(table)
    [tr] = ledger(table).read(settling.balance, table.chat_id).transfers
    await table.press("zoe", f"{tr.number} 我已付", message_id=card)
    turn = await table.press("zoe", f"{tr.number} 已收到", message_id=card)
    assert "不能自己确认" not in turn.answers[0], turn.answers
    assert money(table) == {}


async def test_with_a_second_admin_the_other_admin_confirms(table: Table) -> None:
    table.set_admins("bob")
    card = await night(table)
    [tr] = ledger(table).read(settling.balance, table.chat_id).transfers
    await table.press("zoe", f"{tr.number} 我已付", message_id=card)
    turn = await table.press("zoe", f"{tr.number} 已收到", message_id=card)
    assert "另一位管理员" in turn.answers[0]
    assert money(table) == {"Zoe": -30, "小王": 30}
    await table.press("bob", f"{tr.number} 已收到", message_id=card)
    assert money(table) == {}


async def test_the_only_admin_confirms_what_she_paid_the_table(seated_table: Table) -> None:
    """台费 10 a player, Bob self-draws 5 花: Ann, Cat, Dan −20 each, Bob +20, 台 +40. Whoever pays the 台
    is made the group's only admin (its creator): that debt is hers to confirm."""
    table = seated_table
    await table.say("zoe", "/rules 台费 10")
    await table.say("ann", "/rules instant on")
    await table.say("ann", "/hu 南 自摸 5花")
    await table.say("ann", "/end")
    await table.press("ann", END)
    card = summary(table, 1).message_id
    tr = next(
        t
        for t in ledger(table).read(settling.balance, table.chat_id).transfers
        if t.payee.display_name == "台"
    )
    payer = tr.payer.display_name
    table.state.chat(table.chat_id).creator = table.user(payer.lower())["id"]
    await table.press(payer.lower(), f"{tr.number} 我已付", message_id=card)
    turn = await table.press(payer.lower(), f"{tr.number} 已收到", message_id=card)
    assert "不能自己确认" not in turn.answers[0], turn.answers
    assert money(table).get("台") == 40 - tr.amount
