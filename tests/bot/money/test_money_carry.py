"""Carrying what is open into the next night: a claim is never voided by a
carry, a debt of someone absent stays between the same two people, and both summaries say what went where.
Through the real Application, on SQLite and PostgreSQL; every person's money checked against a hand
computation."""

from __future__ import annotations

import pytest
from harness import END, Reply, Table, ledger, money, summary

from bot.ledger.money import settling
from bot.ledger.play import books


async def night_one(table: Table) -> Reply:
    """Ann (东, dealer) self-draws 4 花: T = 底 5 + 4 = 9 from each of Bob, Cat and Dan. Ann +27."""
    await table.say("ann", "/rules instant on")
    await table.say("ann", "/hu 东 自摸 4花")
    await table.say("ann", "/end")
    await table.press("ann", END)
    card = summary(table, 1)
    assert "结算（最少转账）：\n1. Dan → Ann 9\n2. Cat → Ann 9\n3. Bob → Ann 9" in card.text
    return card


async def night_two(table: Table, players: tuple[str, ...]) -> None:
    await table.say("ann", "/newgame 苏州 1")
    for name in players:
        await table.say(name, "/join")
    await table.say("ann", "/dealer 东")


@pytest.mark.slow
async def test_a_claim_waiting_at_the_next_end_is_kept_and_its_payer_not_charged_twice(
    db_seated: Table,
) -> None:
    """Dan says he paid Ann his 9; Ann has not confirmed when night two ends.

    Night two: Bob (南) self-draws 3 花, T = 5 + 3 = 8: Bob +24, Ann, Cat, Dan −8 each.
    Carried (both at the table, nothing claimed): Bob → Ann 9, Cat → Ann 9. Not carried: Dan → Ann 9
    (transfer 1: his claim waits). By hand:
        Ann  −8 + 9 + 9 = +10
        Bob +24 − 9     = +15
        Cat  −8 − 9     = −17
        Dan  −8              (his 9 stays on night one's transfer, claimed)
    Open money then: Ann +10 + 9 = +19, Bob +15, Cat −17, Dan −8 − 9 = −17; once Ann confirms the 9:
    Ann +10, Bob +15, Cat −17, Dan −8 (he pays 9 + 8 = 17 in all, never 9 + 9 + 8)."""
    table = db_seated
    card = await night_one(table)
    turn = await table.press("dan", "1 我已付", message_id=card.message_id)
    assert turn.texts[0] == "Dan 说已付给 Ann 9，等 Ann 点“已收到”确认。\n第1场 1. Dan → Ann 9 · 待确认 9"

    await night_two(table, ("ann", "bob", "cat", "dan"))
    pinned = table.pinned()
    assert pinned is not None
    assert "上次欠的（这场结束时并入结算）：\n  第1场 Cat → Ann 9\n  第1场 Bob → Ann 9" in pinned.text
    assert "仍由两人之间结清：\n  第1场 Dan → Ann 9 · 待确认 9" in pinned.text
    await table.say("ann", "/hu 南 自摸 3花")
    await table.say("ann", "/end")
    await table.press("ann", END)

    second = summary(table, 2)
    assert "这些转账已包含上次欠的：\n  第1场 2. Cat → Ann 9\n  第1场 3. Bob → Ann 9" in second.text
    figures = {f.player.display_name: f for f in ledger(table).read(settling.figures, _session_id(table, 2))}
    assert {name: f.rounded for name, f in figures.items()} == {"Ann": 10, "Bob": 15, "Cat": -17, "Dan": -8}
    first = summary(table, 1)
    assert "2. Cat → Ann 9 ↪ 转入第2场\n3. Bob → Ann 9 ↪ 转入第2场" in first.text
    assert "1. Dan → Ann 9 · 待确认 9" in first.text
    assert first.rows == [["1 我已付", "1 已收到"]]
    assert money(table) == {"Ann": 19, "Bob": 15, "Cat": -17, "Dan": -17}

    turn = await table.press("ann", "1 已收到", message_id=first.message_id)
    assert turn.answers[0] == "✅ Ann 确认收到 Dan 的 9。"
    assert "1. Dan → Ann 9 ✅ 已结清" in summary(table, 1).text
    assert money(table) == {"Ann": 10, "Bob": 15, "Cat": -17, "Dan": -8}


@pytest.mark.slow
async def test_a_debt_of_someone_absent_stays_between_the_same_two_people(db_seated: Table) -> None:
    """Night two is Ann, Dan, Eve and Zoe: Bob and Cat are not there.

    Night two: Dan (南) self-draws 3 花, T = 8: Dan +24, Ann, Eve, Zoe −8 each.
    Carried (both there): Dan → Ann 9. Kept as they are: Bob → Ann 9, Cat → Ann 9. By hand:
        Ann −8 + 9 = +1, Dan +24 − 9 = +15, Eve −8, Zoe −8   (night two's balances, sum 0)
    Open money: Ann +1 + 9 + 9 = +19, Bob −9, Cat −9, Dan +15, Eve −8, Zoe −8. Bob and Cat still owe
    Ann, and nobody else: no one at night two owes either of them, nor they anyone there."""
    table = db_seated
    await night_one(table)
    await night_two(table, ("ann", "dan", "eve", "zoe"))
    pinned = table.pinned()
    assert pinned is not None
    assert "上次欠的（这场结束时并入结算）：\n  第1场 Dan → Ann 9\n" in pinned.text
    assert "仍由两人之间结清：\n  第1场 Cat → Ann 9\n  第1场 Bob → Ann 9" in pinned.text
    await table.say("ann", "/hu 南 自摸 3花")
    await table.say("ann", "/end")
    await table.press("ann", END)

    figures = {
        f.player.display_name: f.rounded for f in ledger(table).read(settling.figures, _session_id(table, 2))
    }
    assert figures == {"Ann": 1, "Dan": 15, "Eve": -8, "Zoe": -8}
    assert money(table) == {"Ann": 19, "Bob": -9, "Cat": -9, "Dan": 15, "Eve": -8, "Zoe": -8}
    first = summary(table, 1)
    assert "1. Dan → Ann 9 ↪ 转入第2场\n2. Cat → Ann 9\n3. Bob → Ann 9" in first.text
    transfers = ledger(table).read(settling.balance, table.chat_id).transfers
    absent = {"Bob", "Cat"}
    for tr in transfers:  # an absent person's only transfer is their own debt to Ann, from night one
        if {tr.payer.display_name, tr.payee.display_name} & absent:
            assert (tr.session_number, tr.payee.display_name, tr.amount) == (1, "Ann", 9)
    assert "这些转账已包含上次欠的：\n  第1场 1. Dan → Ann 9" in summary(table, 2).text


@pytest.mark.slow
async def test_what_was_paid_before_a_carry_is_shown_beside_what_went_on(db_seated: Table) -> None:
    """Bob pays Ann 4 of his 9 (Ann records it); the other 5 goes into night
    two. Night two: Ann (东) self-draws 3 花, T = 8: Ann +24, Bob, Cat, Dan −8 each; carried: Bob → Ann 5,
    Cat → Ann 9, Dan → Ann 9. By hand: Ann +24 + 5 + 9 + 9 = +47, Bob −13, Cat −17, Dan −17."""
    table = db_seated
    await night_one(table)
    await table.say("ann", "/paid @bob 4")
    await night_two(table, ("ann", "bob", "cat", "dan"))
    await table.say("ann", "/hu 东 自摸 3花")
    await table.say("ann", "/end")
    await table.press("ann", END)
    assert "3. Bob → Ann 9 · 已付 4，剩下 5 转入第2场" in summary(table, 1).text
    assert (
        "这些转账已包含上次欠的：\n  第1场 1. Dan → Ann 9\n  第1场 2. Cat → Ann 9\n  第1场 3. Bob → Ann 5"
        in summary(table, 2).text
    )
    assert money(table) == {"Ann": 47, "Bob": -13, "Cat": -17, "Dan": -17}


def _session_id(table: Table, number: int) -> int:
    return next(
        s.session.id for s in ledger(table).read(books.history, table.chat_id) if s.session.number == number
    )
