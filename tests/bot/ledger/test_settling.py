"""Settling up in the ledger: the transfers an ended session stores, claims and confirmations, receipts,
carry-over into the next session, 抹零 and the 收盘倍数; every refusal writes nothing."""

from __future__ import annotations

import pytest
from ledger_helpers import CHAT, Table, discard, self_draw
from reads import session_summary
from sqlalchemy import func, select
from sqlmodel import Session

from bot.ledger import Ledger, Transfer, UserRef
from bot.ledger import errors as E
from bot.ledger.claims import reminders
from bot.ledger.money import payments, settling
from bot.ledger.money.settling import round_balances
from bot.ledger.play import books, groups, recording, seating, sessions
from bot.ledger.storage.models import SettlePayment, SettleTransfer

ANN, BOB, CAT = UserRef(11, "Ann", "ann"), UserRef(12, "Bob", "bob"), UserRef(13, "Cat", None)


def _counts(ledger: Ledger) -> tuple[int, int, int]:
    with Session(ledger.engine) as s:
        return (
            s.scalar(select(func.count()).select_from(SettleTransfer)) or 0,
            s.scalar(select(func.count()).select_from(SettlePayment)) or 0,
            s.scalar(select(func.sum(SettleTransfer.paid + SettleTransfer.claimed))) or 0,
        )


def _night(table: Table) -> list[Transfer]:
    """Ann (东, dealer) self-draws 5 硬花, Bob (南) wins 6 硬花 on Cat's (西) discard, the night ends:
    Ann +30, Bob +1, Cat −21, Dan −10; settled by Cat → Ann 21, Dan → Ann 9, Dan → Bob 1."""
    ledger = table.ledger
    sessions.set_dealer(ledger, table.chat_id, "E")
    recording.commit(ledger, table.chat_id, self_draw("E", 5))
    recording.commit(ledger, table.chat_id, discard("S", "W", 6))
    summary = sessions.end_session(ledger, table.chat_id, by=ANN)
    return ledger.read(books.transfers, summary.session.id)


def test_ending_a_session_stores_its_transfers_as_open_rows_that_settle_it(table: Table) -> None:
    ledger = table.ledger
    transfers = _night(table)
    nets = session_summary(ledger, transfers[0].session_id).totals
    shown = [(tr.number, tr.payer.display_name, tr.payee.display_name, tr.amount) for tr in transfers]
    assert shown == [(1, "Cat", "Ann", 21), (2, "Dan", "Ann", 9), (3, "Dan", "Bob", 1)]
    assert all(tr.status == "open" and tr.paid == 0 and tr.id for tr in transfers)
    assert [tr.number for tr in transfers] == list(range(1, len(transfers) + 1))
    settled: dict[int, int] = {}
    for tr in transfers:  # paying every transfer brings every player's net to zero
        settled[tr.payer.id] = settled.get(tr.payer.id, 0) + tr.amount
        settled[tr.payee.id] = settled.get(tr.payee.id, 0) - tr.amount
    assert {pid: nets[pid] + settled.get(pid, 0) for pid in nets} == dict.fromkeys(nets, 0)
    balance = ledger.read(settling.balance, table.chat_id)
    assert balance.totals == {pid: net for pid, net in nets.items() if net}


def test_payer_claims_payee_confirms_and_a_part_payment_leaves_the_rest_open(table: Table) -> None:
    ledger = table.ledger
    first = _night(table)[0]  # Cat owes Ann 21
    payer, payee = CAT, ANN
    part = payments.pay(ledger, table.chat_id, payer, first.payee.id, 1, key="msg:1")
    assert part.kind == "claimed" and part.transfers[0].claimed == 1 and part.transfers[0].paid == 0
    with pytest.raises(E.Repeated):  # the same message again changes nothing
        payments.pay(ledger, table.chat_id, payer, first.payee.id, 1, key="msg:1")
    done = payments.confirm_transfer(ledger, table.chat_id, first.id, payee, key="cbq:1")
    assert done.kind == "confirmed" and done.amount == 1
    now = done.transfers[0]
    assert (now.paid, now.claimed, now.status, now.open) == (1, 0, "partly", 20)
    with pytest.raises(E.NothingClaimed):  # the payee confirms a payment nobody made
        payments.confirm_transfer(ledger, table.chat_id, first.id, payee)
    with pytest.raises(E.Overpaid) as caught:
        payments.pay(ledger, table.chat_id, payer, first.payee.id, first.amount)
    assert caught.value.params["open"] == first.amount - 1
    rest = payments.claim_transfer(ledger, table.chat_id, first.id, payer)
    assert rest.amount == first.amount - 1
    with pytest.raises(E.ClaimWaiting):
        payments.claim_transfer(ledger, table.chat_id, first.id, payer)
    payments.confirm_transfer(ledger, table.chat_id, first.id, payee)
    assert ledger.read(books.transfers, first.session_id)[0].status == "settled"
    with pytest.raises(E.TransferClosed):
        payments.claim_transfer(ledger, table.chat_id, first.id, payer)


def test_refusals_write_nothing(table: Table) -> None:
    ledger = table.ledger
    transfers = _night(table)
    first = transfers[0]
    before = _counts(ledger)
    stranger = UserRef(99, "Zoe", "zoe")
    with pytest.raises(E.SelfPayment):
        payments.pay(ledger, table.chat_id, ANN, groups.register(ledger, table.chat_id, ANN).id, 5)
    with pytest.raises(E.NoDebt):
        payments.pay(ledger, table.chat_id, stranger, first.payee.id, 5)
    with pytest.raises(E.NotParty):
        payments.claim_transfer(ledger, table.chat_id, first.id, stranger)
    with pytest.raises(E.NotParty):
        payments.confirm_transfer(ledger, table.chat_id, first.id, stranger)
    with pytest.raises(E.InvalidValue):
        payments.pay(ledger, table.chat_id, CAT, first.payee.id, 0)
    with pytest.raises(E.ForeignButton):
        payments.claim_transfer(ledger, -999, first.id, ANN)
    assert _counts(ledger)[1:] == before[1:]


def test_a_receipt_by_the_payee_is_confirmed_at_once(table: Table) -> None:
    ledger = table.ledger
    tr = _night(table)[2]  # the guest Dan owes Bob 1: Bob says he got it
    got = payments.pay(ledger, table.chat_id, BOB, tr.payer.id, tr.amount)
    assert got.kind == "received" and got.transfers[0].status == "settled"
    assert tr.id not in {t.id for t in ledger.read(settling.balance, table.chat_id).transfers}


def test_what_stays_open_carries_into_the_next_session_and_is_paid_there(table: Table) -> None:
    ledger = table.ledger
    first = _night(table)
    owed = {tr.id: tr.amount for tr in first}
    sessions.open_session(ledger, CHAT, by=ANN)
    for user in (ANN, BOB, CAT):
        seating.join(ledger, CHAT, user)
    seating.join(ledger, CHAT, guest_name="Dan")
    # The open transfers stay payable while the next night is on: /balance still shows them.
    assert {t.id for t in ledger.read(settling.balance, CHAT).transfers} == set(owed)
    sessions.set_dealer(ledger, CHAT, "E")
    recording.commit(ledger, CHAT, self_draw("N", 3))
    second = sessions.end_session(ledger, CHAT, by=ANN).session
    carried = ledger.read(books.transfers, first[0].session_id)
    assert all(t.status == "carried" and t.carried_to_number == second.number for t in carried)
    figures = {f.player.id: f for f in ledger.read(settling.figures, second.id)}
    carried_in: dict[int, int] = {}
    for tr in first:
        carried_in[tr.payer.id] = carried_in.get(tr.payer.id, 0) - tr.amount
        carried_in[tr.payee.id] = carried_in.get(tr.payee.id, 0) + tr.amount
    assert {pid: f.carried for pid, f in figures.items() if f.carried} == {
        pid: v for pid, v in carried_in.items() if v
    }
    assert all(f.raw == f.net + f.carried == f.rounded for f in figures.values())
    balance = ledger.read(settling.balance, CHAT)
    assert {t.session_number for t in balance.transfers} == {second.number}
    assert balance.totals == {pid: f.rounded for pid, f in figures.items() if f.rounded}


def test_carry_off_leaves_each_session_to_settle_alone(table: Table) -> None:
    ledger = table.ledger
    settling.update_settle(ledger, CHAT, {"carry": False})
    first = _night(table)
    sessions.open_session(ledger, CHAT, by=ANN)
    for user in (ANN, BOB, CAT):
        seating.join(ledger, CHAT, user)
    seating.join(ledger, CHAT, guest_name="Dan")
    sessions.set_dealer(ledger, CHAT, "E")
    recording.commit(ledger, CHAT, self_draw("N", 3))
    second = sessions.end_session(ledger, CHAT, by=ANN).session
    assert all(t.status == "open" for t in ledger.read(books.transfers, first[0].session_id))
    assert all(f.carried == 0 for f in ledger.read(settling.figures, second.id))
    numbers = {t.session_number for t in ledger.read(settling.balance, CHAT).transfers}
    assert numbers == {first[0].session_number, second.number}


def test_multiplier_and_rounding_at_close_stay_zero_sum(table: Table) -> None:
    ledger = table.ledger
    settling.update_settle(ledger, CHAT, {"multiplier": 3, "round": 10})
    transfers = _night(table)
    figures = ledger.read(settling.figures, transfers[0].session_id)
    assert sum(f.rounded for f in figures) == 0 and sum(f.raw for f in figures) == 0
    assert all(f.raw == f.net * 3 and f.rounded % 10 == 0 and abs(f.rounded - f.raw) < 10 for f in figures)
    assert all(tr.amount % 10 == 0 for tr in transfers)
    with pytest.raises(E.InvalidValue):
        settling.update_settle(ledger, CHAT, {"round": 3})
    with pytest.raises(E.InvalidValue):
        settling.update_settle(ledger, CHAT, {"multiplier": 0})


def test_rounding_by_largest_remainder_in_a_stable_order() -> None:
    # 37 → 40 (remainder 7), −12 → −10 (8), −25 → −30 (5): two units of 10 go to the largest remainders.
    assert round_balances({1: 37, 2: -12, 3: -25}, 10) == {1: 40, 2: -10, 3: -30}
    # A tie goes to the smaller key, whatever order the balances come in.
    assert round_balances({2: 5, 1: 5, 3: -10}, 10) == {1: 10, 2: 0, 3: -10}
    assert round_balances({1: 5, 2: 5, 3: -10}, 10) == {1: 10, 2: 0, 3: -10}
    assert round_balances({1: 7, 2: -7}, 1) == {1: 7, 2: -7}


def test_a_due_reminder_is_claimed_by_exactly_one_of_two_workers(table: Table, db_url: str) -> None:
    from concurrent.futures import ThreadPoolExecutor
    from datetime import UTC, datetime, timedelta

    from bot.ledger.storage.db import create_db_engine

    ledger = table.ledger
    settling.update_settle(ledger, CHAT, {"remind": 24})
    transfers = _night(table)
    workers = [Ledger(create_db_engine(db_url)) for _ in range(2)]
    assert len(transfers) == 3
    due = datetime.now(UTC) + timedelta(hours=25)
    assert (
        workers[0].write(reminders.claim_reminder, CHAT, due - timedelta(hours=2)) == []
    )  # 23 hours: not yet
    with ThreadPoolExecutor(2) as pool:
        claimed = list(pool.map(lambda w: w.write(reminders.claim_reminder, CHAT, due), workers))
    assert sorted(len(c) for c in claimed) == [0, 3]
    assert workers[1].write(reminders.claim_reminder, CHAT, due + timedelta(hours=23)) == []  # once a day
    assert len(workers[0].write(reminders.claim_reminder, CHAT, due + timedelta(hours=24))) == 3
    for worker in workers:
        worker.engine.dispose()
