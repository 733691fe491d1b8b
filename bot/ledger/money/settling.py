"""Settling up: the transfers an ended session leaves, as ledger rows with a state, and their payments.

When a session ends (`settle_session`, in the transaction that ends it) each person's balance is the
session's net times the 收盘倍数, plus what they carry in from the group's transfers still open (option
`carry`, on by default: those transfers become `carried`), rounded by 抹零 (largest remainder, zero-sum);
the fewest transfers that settle those balances are stored, numbered 1, 2, ... A payer claims a payment
(我已付, `/paid`), the payee or an admin confirms it (已收到); a payee may also record a receipt at once.

Only a debt between two people who both sat at the ending session's table (the 台 counts as there when the
group charges 台费 or 抽水) is carried, and only while no claim on it waits: a debt of someone absent stays
between the same two people, and a claim is never voided by a carry (the payee still confirms it under
the old summary). Nothing is deleted.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import replace
from datetime import datetime
from typing import Any

from sqlmodel import Session, col, select

from bot.ledger import errors
from bot.ledger.money.transfers import minimal_transfers
from bot.ledger.options import BY_ID, SETTLE_OPTIONS
from bot.ledger.play import groups
from bot.ledger.storage.mappers import group_info, player_info
from bot.ledger.storage.models import (
    ChatGroup,
    Hand,
    Payment,
    Player,
    Seat,
    SessionTotal,
    SettleLine,
    SettlePayment,
    SettleTransfer,
    TableSession,
)
from bot.ledger.storage.rows import A_WIN, LIVE, aware, group_row, row_id, session_row
from bot.ledger.storage.store import Ledger
from bot.ledger.values import (
    Balance,
    GroupInfo,
    PaymentLine,
    PlayerInfo,
    SettleFigures,
    Transfer,
)

OPEN = ("open", "partly")
MAX_PAYMENT = 10**12  # the most one /paid may say (a transfer's open rest bounds it further)
TABLE_ACCOUNT = groups.TABLE_ACCOUNT  # the guest account 台费 and 抽水 go to; settled like any transfer


def options_of(group: ChatGroup) -> dict[str, Any]:
    """The group's settling-up options, defaults filled in."""
    return group_info(group).settle


def check_options(changes: Mapping[str, Any]) -> dict[str, Any]:
    """Settling-up option changes, checked (InvalidValue names the option)."""
    for name, value in changes.items():
        if name not in SETTLE_OPTIONS or not BY_ID[name].allows(value):
            raise errors.InvalidValue(f"settle option {name}={value!r}", field=name, value=str(value))
    return dict(changes)


def round_balances(balances: Mapping[int, int], unit: int) -> dict[int, int]:
    """抹零: every balance to a multiple of `unit` (0 or 1: as it is), still summing to zero. Each is
    first rounded down; the units this leaves over go to the largest remainders, ties to the smaller key
    (a stable order: the same balances always round the same way).

    >>> round_balances({1: 37, 2: -12, 3: -25}, 10)
    {1: 40, 2: -10, 3: -30}
    >>> round_balances({1: 3, 2: -3}, 5)
    {1: 5, 2: -5}
    """
    if sum(balances.values()) != 0:
        raise errors.ZeroSumViolation("balances do not sum to zero", total=sum(balances.values()))
    if unit <= 1:
        return dict(balances)
    floors = {key: (value // unit) * unit for key, value in balances.items()}
    extra = -sum(floors.values()) // unit
    ranked = sorted(balances, key=lambda key: (-(balances[key] - floors[key]), key))
    for key in ranked[:extra]:
        floors[key] += unit
    return floors


# ---- the end of a session -------------------------------------------------------------------------------


def open_rows(s: Session, query: Any) -> list[SettleTransfer]:
    return list(
        s.scalars(
            query.where(col(SettleTransfer.status).in_(OPEN))
            .order_by(col(SettleTransfer.id))
            .with_for_update()
        )
    )


def present(s: Session, group: ChatGroup, ts: TableSession) -> set[int]:
    """Who is at a session's table for carrying debts: everyone who sat there (a seat left by /sub too),
    and the 台 when the group charges 台费 or 抽水."""
    people = set(s.scalars(select(Seat.player_id).where(Seat.session_id == ts.id)))
    opts = options_of(group)
    if opts["fee"] or opts["rake"]:
        table = groups.find_guest(s, group, TABLE_ACCOUNT)
        if table is not None:
            people.add(row_id(table))
    return people


def carries(row: SettleTransfer | Transfer, people: set[int]) -> bool:
    """Whether an open transfer goes into the transfers of a session with these people at its table: both
    of its people are there and nobody's claim on it waits for the payee."""
    payer, payee = (
        (row.payer_id, row.payee_id) if isinstance(row, SettleTransfer) else (row.payer.id, row.payee.id)
    )
    return row.claimed == 0 and payer in people and payee in people


def _carry(s: Session, group: ChatGroup, ts: TableSession, now: datetime) -> dict[int, int]:
    """Close the open transfers of the group between people at `ts`'s table (`carries`) into `ts` (status
    carried); each person's carried balance. The rest stay open as they are."""
    carried: dict[int, int] = defaultdict(int)
    people = present(s, group, ts)
    for row in open_rows(s, select(SettleTransfer).where(SettleTransfer.group_id == ts.group_id)):
        if not carries(row, people):
            continue
        rest = row.amount - row.paid
        carried[row.payer_id] -= rest
        carried[row.payee_id] += rest
        row.status, row.carried_to, row.closed_at = "carried", ts.id, now
    return carried


def claims_of(s: Session, row: SettleTransfer) -> list[SettlePayment]:
    return list(
        s.scalars(
            select(SettlePayment)
            .where(SettlePayment.transfer_id == row.id, SettlePayment.status == "claimed")
            .order_by(col(SettlePayment.id))
        )
    )


def settle_session(s: Session, ts: TableSession, now: datetime) -> None:
    """Store the settling of a session that is ending: each person's figures and the fewest transfers
    (zero-sum). A session with no live row carries nothing in and leaves nothing."""
    if ts.live_rows == 0:
        return
    group = s.get(ChatGroup, ts.group_id)
    assert group is not None
    opts = options_of(group)
    query = select(SessionTotal.player_id, SessionTotal.net, SessionTotal.hands)
    played = list(s.execute(query.where(SessionTotal.session_id == ts.id)))
    nets = {pid: net for pid, net, _ in played}
    carried = _carry(s, group, ts, now) if opts["carry"] else {}
    fees, rakes = _fees(s, ts, [pid for pid, _, hands in played if hands], opts)
    if fees or rakes:  # the 台 takes what the others pay (a guest of that name from before the bar: net)
        table = row_id(groups.guest(s, group, TABLE_ACCOUNT, now))
        fees[table] = fees.get(table, 0) - sum(fees.values())
        rakes[table] = rakes.get(table, 0) - sum(rakes.values())
    people = sorted(set(nets) | set(carried) | set(fees) | set(rakes))
    # The order the options apply in (README, /rules): 收盘倍数 on the net, 抽水 of each win after it, the
    # carried debts, 台费, then 抹零 on the balance.
    raw = {
        pid: nets.get(pid, 0) * opts["multiplier"]
        + carried.get(pid, 0)
        - fees.get(pid, 0)
        - rakes.get(pid, 0)
        for pid in people
    }
    rounded = round_balances(raw, opts["round"])
    for pid in people:
        figures = {
            "net": nets.get(pid, 0),
            "carried": carried.get(pid, 0),
            "fee": fees.get(pid, 0),
            "rake": rakes.get(pid, 0),
        }
        s.add(SettleLine(session_id=row_id(ts), player_id=pid, raw=raw[pid], rounded=rounded[pid], **figures))
    for number, (payer, payee, amount) in enumerate(minimal_transfers(rounded), 1):
        s.add(
            SettleTransfer(
                group_id=ts.group_id,
                session_id=row_id(ts),
                number=number,
                payer_id=payer,
                payee_id=payee,
                amount=amount,
                created_at=now,
            )
        )
    s.flush()


def _fees(
    s: Session, ts: TableSession, players: list[int], opts: Mapping[str, Any]
) -> tuple[dict[int, int], dict[int, int]]:
    """What each player pays the 台 for the session, apart: the fixed 台费 of everyone who played a hand,
    and the 抽水 share of each win (per win, rounded down, after the 收盘倍数)."""
    fees: dict[int, int] = defaultdict(int)
    rakes: dict[int, int] = defaultdict(int)
    if opts["fee"]:
        for pid in players:
            fees[pid] += opts["fee"]
    if opts["rake"]:
        wins = (
            select(Payment.player_id, Payment.amount)
            .join(Hand, col(Hand.id) == Payment.hand_id)
            .where(Hand.session_id == ts.id, LIVE, A_WIN, Payment.amount > 0)
        )
        for pid, amount in s.execute(wins):
            rakes[pid] += amount * opts["multiplier"] * opts["rake"] // 100
    return {pid: fee for pid, fee in fees.items() if fee}, {pid: rake for pid, rake in rakes.items() if rake}


# ---- payments ------------------------------------------------------------------------------------------


def party_names(s: Session, row: SettleTransfer) -> dict[str, Any]:
    payer, payee = s.get(Player, row.payer_id), s.get(Player, row.payee_id)
    assert payer is not None and payee is not None
    return {"payer": payer.display_name, "payee": payee.display_name, "number": row.number}


def update_settle(
    ledger: Ledger, chat_id: int, changes: dict[str, Any], *, key: str | None = None
) -> GroupInfo:
    """Change the group's settling-up options (`carry`, `round`, `multiplier`; InvalidValue)."""
    checked = check_options(changes)
    now = ledger.now()

    def op(s: Session) -> GroupInfo:
        group = groups.ensure_group(s, chat_id, ledger.defaults, now)
        group.settle = {**(group.settle or {}), **checked}
        s.add(group)
        s.flush()
        return group_info(group)

    info = ledger.write_once(key, op)
    return info


# ---- reading ------------------------------------------------------------------------------------------


def transfer_of(s: Session, row: SettleTransfer, players: Mapping[int, PlayerInfo] | None = None) -> Transfer:
    """A stored transfer as the bot shows it."""
    ts = s.get(TableSession, row.session_id)
    assert ts is not None
    chat_id = _chat(s, row.group_id)
    people = players or {}

    def person(pid: int) -> PlayerInfo:
        if pid in people:
            return people[pid]
        player = s.get(Player, pid)
        assert player is not None
        return replace(player_info(player, chat_id), twin=groups.twins(s, row.group_id).get(pid, 0))

    carried = s.get(TableSession, row.carried_to) if row.carried_to is not None else None
    return Transfer(
        payer=person(row.payer_id),
        payee=person(row.payee_id),
        amount=row.amount,
        id=row_id(row),
        number=row.number,
        session_id=row.session_id,
        session_number=ts.number,
        paid=row.paid,
        claimed=row.claimed,
        status=row.status,
        carried_to_number=carried.number if carried else None,
        paycode=_paycode(s, row.payee_id) is not None,
    )


def _chat(s: Session, group_id: int) -> int:
    group = s.get(ChatGroup, group_id)
    assert group is not None
    return group.chat_id


def stored_transfers(s: Session, ts: TableSession) -> list[Transfer] | None:
    """The stored transfers of an ended session, by number; None when it was not settled here (ended
    before settling up was stored, or never ended)."""
    if ts.status != "ended":
        return None
    rows = list(
        s.scalars(
            select(SettleTransfer)
            .where(SettleTransfer.session_id == ts.id)
            .order_by(col(SettleTransfer.number))
        )
    )
    if (
        not rows
        and s.scalars(select(SettleLine.player_id).where(SettleLine.session_id == ts.id)).first() is None
    ):
        return None
    return [transfer_of(s, row) for row in rows]


def carried_from(s: Session, session_id: int) -> list[int]:
    """The sessions whose open transfers were carried into `session_id`, oldest first."""
    query = select(SettleTransfer.session_id).where(SettleTransfer.carried_to == session_id).distinct()
    return sorted(s.scalars(query))


def carried_into(s: Session, session_id: int) -> list[Transfer]:
    """The earlier transfers whose open rest went into `session_id`'s transfers, oldest first."""
    rows = s.scalars(
        select(SettleTransfer)
        .where(SettleTransfer.carried_to == session_id)
        .order_by(col(SettleTransfer.session_id), col(SettleTransfer.number))
    )
    return [transfer_of(s, row) for row in rows]


def figures(s: Session, session_id: int) -> list[SettleFigures]:
    """Each person's settle figures of an ended session (net, carried in, balance before and after 抹零;
    empty when it left none), by player id."""
    ts = session_row(s, session_id)
    chat_id = _chat(s, ts.group_id)
    rows = s.execute(
        select(SettleLine, Player)
        .join(Player, col(Player.id) == SettleLine.player_id)
        .where(SettleLine.session_id == ts.id)
        .order_by(col(SettleLine.player_id))
    )
    twin = groups.twins(s, ts.group_id)
    return [
        SettleFigures(
            replace(player_info(p, chat_id), twin=twin.get(row_id(p), 0)),
            line.net,
            line.carried,
            line.fee,
            line.raw,
            line.rounded,
            line.rake,
        )
        for line, p in rows
    ]


def balance(s: Session, chat_id: int) -> Balance:
    """Who still owes whom in the group, across sessions (the open transfers)."""
    group = group_row(s, chat_id)
    return group_balance(s, group) if group is not None else Balance(())


def group_balance(s: Session, group: ChatGroup) -> Balance:
    """Who still owes whom in the group, across sessions (one indexed read of the open transfers)."""
    rows = list(
        s.scalars(
            select(SettleTransfer)
            .where(SettleTransfer.group_id == group.id, col(SettleTransfer.status).in_(OPEN))
            .order_by(col(SettleTransfer.session_id), col(SettleTransfer.number))
        )
    )
    transfers = [transfer_of(s, row) for row in rows]
    return Balance(tuple(transfers), totals(transfers))


def carried_on(s: Session, ts: TableSession) -> tuple[tuple[Transfer, ...], tuple[Transfer, ...]]:
    """上次欠的 of an open table: the group's open transfers that go into the table's transfers at its end
    (`carries`: between two people at this table, no claim waiting), and those that stay as they are
    (all of them when the group does not carry); ((), ()) once the table has ended."""
    if ts.status != "open":
        return (), ()
    group = s.get(ChatGroup, ts.group_id)
    assert group is not None
    transfers = group_balance(s, group).transfers
    if not options_of(group)["carry"]:
        return (), transfers
    people = present(s, group, ts)
    return (
        tuple(tr for tr in transfers if carries(tr, people)),
        tuple(tr for tr in transfers if not carries(tr, people)),
    )


def totals(transfers: Iterable[Transfer]) -> dict[int, int]:
    """Each person's open balance over these transfers (+: is owed)."""
    out: dict[int, int] = defaultdict(int)
    for tr in transfers:
        out[tr.payee.id] += tr.open
        out[tr.payer.id] -= tr.open
    return {pid: value for pid, value in out.items() if value}


# ---- 收款码 ---------------------------------------------------------------------------------------------


def _paycode(s: Session, player_id: int) -> str | None:
    player = s.get(Player, player_id)
    return player.paycode_file_id if player is not None else None


def set_paycode(s: Session, telegram_id: int, file_id: str | None) -> int:
    """Store (None: delete) a person's payment QR photo, by Telegram file id, in every group they play in;
    how many of their player rows there are."""
    rows = list(s.scalars(select(Player).where(Player.telegram_id == telegram_id)))
    for player in rows:
        player.paycode_file_id = file_id
    s.flush()
    return len(rows)


def paycode_for(s: Session, transfer_id: int, telegram_id: int) -> tuple[Transfer, str]:
    """The payee's payment QR of an open transfer, for its payer only (NotParty for anyone else of the
    transfer's group, TransferClosed, NoPaycode); NotFound for one who is not in that group, whether the
    transfer exists or not: a private chat names nobody to a stranger."""
    row = s.get(SettleTransfer, transfer_id)
    payer = s.get(Player, row.payer_id) if row is not None else None
    if row is None or payer is None or payer.telegram_id != telegram_id:
        member = None
        if row is not None:
            in_group = (Player.group_id == row.group_id, Player.telegram_id == telegram_id)
            member = s.scalars(select(Player.id).where(*in_group)).first()
        if row is None or member is None:
            raise errors.NotFound(
                f"no transfer {transfer_id} in the asker's groups", what="transfer", id=transfer_id
            )
        raise errors.NotParty("only the payer sees the payee's paycode", **party_names(s, row))
    names = party_names(s, row)
    if row.status not in OPEN:
        raise errors.TransferClosed("transfer closed", **names)
    code = _paycode(s, row.payee_id)
    if code is None:
        raise errors.NoPaycode("no paycode", **names)
    return transfer_of(s, row), code


def sheet(s: Session, chat_id: int) -> list[tuple[Transfer, tuple[PaymentLine, ...]]]:
    """Every transfer of the group (sessions in order) with its payments, for the settlement sheet."""
    group = group_row(s, chat_id)
    if group is None:
        return []
    rows = list(
        s.scalars(
            select(SettleTransfer)
            .where(SettleTransfer.group_id == group.id)
            .order_by(col(SettleTransfer.session_id), col(SettleTransfer.number))
        )
    )
    paid: dict[int, list[PaymentLine]] = defaultdict(list)
    query = select(SettlePayment).join(SettleTransfer, col(SettleTransfer.id) == SettlePayment.transfer_id)
    for p in s.scalars(query.where(SettleTransfer.group_id == group.id).order_by(col(SettlePayment.id))):
        paid[p.transfer_id].append(PaymentLine(p.amount, p.status, aware(p.confirmed_at or p.created_at)))
    return [(transfer_of(s, row), tuple(paid[row_id(row)])) for row in rows]
