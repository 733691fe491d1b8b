"""Property test of settling up: any sequence of hands, session ends (with any carry, 抹零, 收盘倍数, 台费 and
抽水), claims, confirmations and receipts leaves every person's open balance equal to a recomputation that
shares no code with the ledger's settlement, and no rounding ever breaks zero-sum. A claim still waiting
when a session ends keeps its transfer out of the carry (nothing said paid is lost) and can be confirmed
later; a debt to the 台 is carried only into a session that charges 台费 or 抽水, and a debt of someone
absent from the table that ends is never carried (five people, four at each table)."""

from __future__ import annotations

import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from budget import examples
from hypothesis import example, given, settings
from hypothesis import strategies as st
from ledger_helpers import self_draw

from bot.ledger import Ledger, Transfer, UserRef, errors
from bot.ledger.money import payments, settling
from bot.ledger.play import books, groups, recording, seating, sessions

CHAT = -4242
USERS = [
    UserRef(21, "Ann", "ann"),
    UserRef(22, "Bob", "bob"),
    UserRef(23, "Cat", "cat"),
    UserRef(24, "Dan", "dan"),
    UserRef(25, "Eve", "eve"),
]  # four of the five sit at each table: a debt of someone absent stays as it is

options = st.fixed_dictionaries(
    {
        "carry": st.booleans(),
        "round": st.sampled_from([0, 1, 5, 10]),
        "multiplier": st.integers(1, 4),
        "fee": st.sampled_from([0, 0, 3, 7]),
        "rake": st.sampled_from([0, 0, 10, 25]),
    }
)
steps = st.lists(
    st.one_of(
        st.tuples(
            st.just("hand"), st.sampled_from("ESWN"), st.integers(4, 12), st.integers(0, len(USERS) - 1)
        ),  # 4 硬花 and up: a self-draw at any threshold; who is absent when this opens a table
        st.tuples(st.just("end"), options),
        st.tuples(st.just("pay"), st.integers(0, 20), st.floats(0, 1), st.sampled_from(["claim", "receipt"])),
        st.tuples(st.just("confirm"), st.integers(0, 20)),
    ),
    min_size=1,
    max_size=18,
)


def rounded(balances: dict[int, int], unit: int) -> dict[int, int]:
    """抹零 recomputed another way: from the exact balances, hand out units one at a time to whoever is
    furthest below their exact figure (smaller id first), starting from everyone rounded down."""
    if unit <= 1:
        return dict(balances)
    out = {pid: value - value % unit for pid, value in balances.items()}
    while sum(out.values()) < 0:
        pid = min(out, key=lambda p: (out[p] - balances[p], p))
        out[pid] += unit
    return out


class Model:
    """What everyone is owed (+) or owes (−), kept from the hands' own payments and the payments made."""

    def __init__(self) -> None:
        self.owed: dict[int, int] = defaultdict(int)

    def end(
        self,
        ledger: Ledger,
        session_id: int,
        opts: dict[str, Any],
        table_id: int | None,
        before: tuple[Transfer, ...],
        seated: set[int],
    ) -> None:
        """`before`: the open transfers just before the session ended; `seated`: the four at its table.
        Carried: those between two people at the table (the 台 there when the session charges 台费 or
        抽水) with no claim waiting; the rest stay open as they were."""
        hands = ledger.read(books.hands, session_id)
        nets: dict[int, int] = defaultdict(int)
        fees: dict[int, int] = defaultdict(int)
        for hand in hands:
            for pid, amount in hand.player_payments.items():
                nets[pid] += amount
                if hand.kind == "win" and amount > 0:
                    fees[pid] += amount * opts["multiplier"] * opts["rake"] // 100
        if hands and opts["fee"]:
            for pid in {pid for hand in hands for pid in hand.player_payments}:
                fees[pid] += opts["fee"]
        total_fee = sum(fees.values())
        if not hands:
            return
        exact = {pid: nets[pid] * opts["multiplier"] - fees[pid] for pid in set(nets) | set(fees)}
        if total_fee:
            assert table_id is not None
            exact[table_id] = exact.get(table_id, 0) + total_fee
        if opts["carry"]:
            there = set(seated)
            if opts["fee"] or opts["rake"]:
                there |= {tr.payer.id for tr in before if tr.payer.display_name == "台"}
                there |= {tr.payee.id for tr in before if tr.payee.display_name == "台"}
            for tr in before:
                if tr.claimed == 0 and tr.payer.id in there and tr.payee.id in there:
                    for pid, value in ((tr.payer.id, -tr.open), (tr.payee.id, tr.open)):
                        exact[pid] = exact.get(pid, 0) + value
                        self.owed[pid] -= value
        for pid, value in rounded(exact, opts["round"]).items():
            self.owed[pid] += value

    def paid(self, payer: int, payee: int, amount: int) -> None:
        self.owed[payer] += amount
        self.owed[payee] -= amount

    def balances(self) -> dict[int, int]:
        return {pid: value for pid, value in self.owed.items() if value}


def _open(ledger: Ledger, absent: int) -> None:
    sessions.open_session(ledger, CHAT, by=USERS[0])
    for user in USERS[:absent] + USERS[absent + 1 :]:
        seating.join(ledger, CHAT, user)
    sessions.set_dealer(ledger, CHAT, "E")


def _pay(ledger: Ledger, model: Model, index: int, share: float, mode: str) -> None:
    open_ones = [tr for tr in ledger.read(settling.balance, CHAT).transfers if tr.unclaimed > 0]
    if not open_ones:
        return
    tr = open_ones[index % len(open_ones)]
    amount = max(1, round(share * tr.unclaimed))
    by = {u.telegram_id: u for u in USERS}
    payer, payee = by.get(tr.payer.telegram_id or 0), by.get(tr.payee.telegram_id or 0)
    if mode == "receipt" and payee is not None:
        try:
            done = payments.pay(ledger, CHAT, payee, tr.payer.id, amount)
        except (errors.Overpaid, errors.ClaimWaiting):
            # The two owe each other too (carry off): /paid by this payee is their own claim on their debt
            # to the other, and this amount is more than that debt (or it is claimed already). Refused,
            # nothing recorded.
            transfers = ledger.read(settling.balance, CHAT).transfers
            assert any(o.payer.id == tr.payee.id and o.payee.id == tr.payer.id for o in transfers)
            return
        # When the two owe each other too (carry off), /paid is what the sender pays: a claim.
        if done.kind == "received":
            model.paid(tr.payer.id, tr.payee.id, done.amount)
    elif payer is not None:
        # A claim moves nothing until it is confirmed. It lands on the payer's oldest open transfer to that
        # payee, which need not be `tr` when two ended sessions left the pair a transfer each.
        claimed = payments.pay(ledger, CHAT, payer, tr.payee.id, amount)
        if share > 0.5:
            for touched in claimed.transfers:
                if touched.claimed > 0:
                    done = payments.confirm_transfer(ledger, CHAT, touched.id, payee, admin=payee is None)
                    model.paid(touched.payer.id, touched.payee.id, done.amount)


def _confirm(ledger: Ledger, model: Model, index: int) -> None:
    """The payee (an admin for the 台) confirms a claim still waiting, maybe on a transfer of a session
    that ended since the claim was made."""
    waiting = [tr for tr in ledger.read(settling.balance, CHAT).transfers if tr.claimed > 0]
    if not waiting:
        return
    tr = waiting[index % len(waiting)]
    payee = {u.telegram_id: u for u in USERS}.get(tr.payee.telegram_id or 0)
    by = payee or UserRef(99, "Zoe", "zoe")
    done = payments.confirm_transfer(ledger, CHAT, tr.id, by, admin=payee is None)
    model.paid(tr.payer.id, tr.payee.id, done.amount)


PLAIN = {"carry": True, "round": 0, "multiplier": 1, "fee": 0, "rake": 0}


@settings(max_examples=examples(20))
@given(steps)
# Always tried: a claim waiting at the next end with everyone there, and a night without the payee.
@pytest.mark.slow
@example(
    [
        ("hand", "E", 5, 4),
        ("end", PLAIN),
        ("pay", 0, 0.3, "claim"),
        ("hand", "S", 6, 4),
        ("end", PLAIN),
        ("confirm", 0),
    ]
)
@example(
    [
        ("hand", "E", 5, 4),
        ("end", PLAIN),
        ("pay", 1, 0.3, "claim"),
        ("hand", "S", 6, 0),
        ("end", PLAIN),
        ("confirm", 0),
    ]
)
def test_every_balance_equals_an_independent_recomputation(plan: list[tuple[Any, ...]]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        ledger = Ledger.from_url(f"sqlite:///{Path(folder) / 'p.db'}")
        model = Model()
        for step in plan:
            session = groups.chat_state(ledger, CHAT).session
            if step[0] == "hand":
                if session is None:
                    _open(ledger, step[3])
                recording.commit(ledger, CHAT, self_draw(step[1], step[2]))
            elif step[0] == "end" and session is not None:
                settling.update_settle(ledger, CHAT, step[1])
                before = ledger.read(settling.balance, CHAT).transfers
                seated = {p.id for p in session.seats.values()}
                ended = sessions.end_session(ledger, CHAT, by=USERS[0]).session
                figures = ledger.read(settling.figures, ended.id)
                table = next((f.player.id for f in figures if f.player.display_name == "台"), None)
                model.end(ledger, ended.id, step[1], table, before, seated)
                # Nothing claimed is lost, and a debt of someone absent stays between the same two people:
                # the very transfer, still open, as it was.
                after = {tr.id: tr for tr in ledger.read(settling.balance, CHAT).transfers}
                takes_fees = step[1]["fee"] or step[1]["rake"]
                for tr in before:
                    there = [
                        p.id in seated or (takes_fees and p.display_name == "台")
                        for p in (tr.payer, tr.payee)
                    ]
                    if tr.claimed or not all(there):
                        kept = after.get(tr.id)
                        assert kept is not None and (kept.open, kept.claimed) == (tr.open, tr.claimed), tr
                unit = step[1]["round"]
                assert sum(f.raw for f in figures) == 0 and sum(f.rounded for f in figures) == 0
                assert all(
                    unit <= 1 or (f.rounded % unit == 0 and abs(f.rounded - f.raw) < unit) for f in figures
                )
            elif step[0] == "pay":
                _pay(ledger, model, step[1], step[2], step[3])
            elif step[0] == "confirm":
                _confirm(ledger, model, step[1])
            balance = ledger.read(settling.balance, CHAT)
            assert balance.totals == model.balances()
            assert sum(balance.totals.values()) == 0
        ledger.engine.dispose()
