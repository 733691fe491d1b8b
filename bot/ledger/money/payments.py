"""Payments on the transfers an ended session left (`bot.ledger.money.settling`): /paid (`pay`), 我已付
(`claim_transfer`), 已收到 (`confirm_transfer`), each call its own write, and whom a /paid names
(`payment_parties`, a read); below them, what a payment does on a session (`record_payment`,
`claim_button`, `confirm_button`): a claim, a confirmation, a transfer's state."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from datetime import datetime
from typing import Any, Literal

from sqlmodel import Session, col, select

from bot.ledger import errors
from bot.ledger.money import settling
from bot.ledger.money.settling import MAX_PAYMENT, OPEN
from bot.ledger.play import groups
from bot.ledger.storage.mappers import player_info
from bot.ledger.storage.models import ChatGroup, Player, Seat, SettlePayment, SettleTransfer, TableSession
from bot.ledger.storage.rows import group_row, player_row, row_id
from bot.ledger.storage.store import Ledger
from bot.ledger.values import PaymentResult, PlayerInfo, Transfer, UserRef
from scoring.seats import parse_seat


def pay(
    ledger: Ledger,
    chat_id: int,
    by: UserRef,
    player_id: int,
    amount: int | None = None,
    *,
    key: str | None = None,
) -> PaymentResult:
    """/paid: `by` paid `player_id` (a claim, for the payee to confirm), or `player_id` paid `by` (a
    receipt by the payee, confirmed at once); `amount` None: all that is open and unclaimed.
    SelfPayment, NoDebt, Overpaid, ClaimWaiting, InvalidValue (amount not positive)."""
    now = ledger.now()

    def op(s: Session) -> PaymentResult:
        group = groups.ensure_group(s, chat_id, ledger.defaults, now)
        sender = groups.ensure_player(s, group, by, now)
        other = player_row(s, player_id)
        if other.group_id != group.id:
            raise errors.NotFound(f"no player {player_id} in this group", what="player", id=player_id)
        return record_payment(s, group, sender, other, amount, now)

    try:
        return ledger.write_once(key, op)
    except errors.NoDebt:
        # An /end on another worker may have carried the debt while this waited for its rows (they
        # were open when this began, carried when it read them): once more, on what the end left.
        return ledger.write_once(key, op)


def claim_transfer(
    ledger: Ledger,
    chat_id: int,
    transfer_id: int,
    by: UserRef,
    *,
    admin: bool = False,
    key: str | None = None,
) -> PaymentResult:
    """我已付: the transfer's payer (with `admin`, a group admin for a guest payer) says the rest of it
    is paid. NotParty, TransferClosed, ClaimWaiting, ForeignButton (a transfer of another group)."""
    now = ledger.now()

    def op(s: Session) -> PaymentResult:
        group = groups.ensure_group(s, chat_id, ledger.defaults, now)
        sender = groups.ensure_player(s, group, by, now)
        return claim_button(s, group, transfer_id, sender.id or 0, now, admin=admin)

    return ledger.write_once(key, op)


def confirm_transfer(
    ledger: Ledger,
    chat_id: int,
    transfer_id: int,
    by: UserRef | None,
    *,
    admin: bool = False,
    sole_admin: bool = False,
    key: str | None = None,
) -> PaymentResult:
    """已收到: the payee (or, with `admin`, a group admin who is not the payer; with `sole_admin`, the
    group's only admin on her own debt to a guest) confirms what was claimed. NotParty, OwnDebt,
    OwnDebtGuest, NothingClaimed, TransferClosed, ForeignButton."""
    now = ledger.now()

    def op(s: Session) -> PaymentResult:
        group = groups.ensure_group(s, chat_id, ledger.defaults, now)
        sender = groups.ensure_player(s, group, by, now) if by is not None else None
        pid = sender.id if sender is not None else None
        return confirm_button(s, group, transfer_id, pid, admin, now, sole_admin=sole_admin)

    return ledger.write_once(key, op)


def payment_parties(
    s: Session, chat_id: int, by: UserRef, ref: str
) -> list[tuple[PlayerInfo, tuple[Transfer, ...]]]:
    """Whom `/paid <ref>` by `by` can mean, each with the transfers open between the two: a seat or an
    @username names one person; a name every person it fits (never the one at the table by default),
    narrowed to those `by` has open transfers with when there are any. UnknownPlayer."""
    group = group_row(s, chat_id)
    if group is None:
        raise errors.UnknownPlayer(f"no player {ref!r} in this group", ref=ref)
    if parse_seat(ref.strip()) is not None:
        return [(groups.find_player(s, chat_id, ref)[0], ())]
    matches = groups.name_matches(s, group, ref)
    if not matches:
        raise errors.UnknownPlayer(f"no player {ref!r} in this group", ref=ref)
    query = select(Player.id).where(Player.group_id == group.id, Player.telegram_id == by.telegram_id)
    me = s.scalars(query).first()
    transfers = settling.group_balance(s, group).transfers
    twin = groups.twins(s, row_id(group))
    choices = [
        (
            replace(player_info(p, chat_id), twin=twin.get(row_id(p), 0)),
            tuple(tr for tr in transfers if {tr.payer.id, tr.payee.id} == {me, p.id}),
        )
        for p in matches
    ]
    return [c for c in choices if c[1]] or choices


# ---- on a session: the payments themselves -------------------------------------------------------


def _state(row: SettleTransfer, now: datetime) -> None:
    if row.paid >= row.amount:
        row.status, row.closed_at = "settled", now
    else:
        row.status = "partly" if row.paid else "open"


def _transfer(s: Session, group: ChatGroup, transfer_id: int) -> SettleTransfer:
    """A transfer of this group, locked (ForeignButton for another group's, NotFound)."""
    row = s.scalars(select(SettleTransfer).where(SettleTransfer.id == transfer_id).with_for_update()).first()
    if row is None:
        raise errors.NotFound(f"no transfer {transfer_id}", what="transfer", id=transfer_id)
    if row.group_id != group.id:
        raise errors.ForeignButton(f"transfer {transfer_id} belongs to another group")
    return row


def _claim(s: Session, row: SettleTransfer, amount: int, by: int | None, now: datetime) -> None:
    s.add(
        SettlePayment(transfer_id=row_id(row), amount=amount, status="claimed", claimed_by=by, created_at=now)
    )
    row.claimed += amount


def _guest(s: Session, player_id: int) -> bool:
    """A guest (the 台 too): no Telegram account, so an admin presses its buttons."""
    player = s.get(Player, player_id)
    return player is not None and player.telegram_id is None


def _seated_by(s: Session, guest_id: int, by: int) -> bool:
    """Whether `by` seated this guest at a table of the group (they then say the guest paid)."""
    query = select(Seat.id).where(Seat.player_id == guest_id, Seat.seated_by == by)
    return s.scalars(query.limit(1)).first() is not None


def _not_party(s: Session, row: SettleTransfer, why: str, names: Mapping[str, Any]) -> errors.NotParty:
    """The refusal that names who can press: an admin for a guest payer or payee."""
    if _guest(s, row.payer_id):
        return errors.NotPartyGuestPayer(why, **names)
    if _guest(s, row.payee_id):
        return errors.NotPartyGuestPayee(why, **names)
    return errors.NotParty(why, **names)


def _presser(s: Session, group: ChatGroup, by: int | None, party: int) -> PlayerInfo | None:
    """Who pressed for someone else (an admin), as the messages name them; None when the party did."""
    player = s.get(Player, by) if by is not None and by != party else None
    return player_info(player, group.chat_id) if player is not None else None


def claim_button(
    s: Session, group: ChatGroup, transfer_id: int, by: int, now: datetime, *, admin: bool = False
) -> PaymentResult:
    """我已付 by the payer (by an admin for a guest payer): the whole unclaimed rest is claimed, for the
    payee to confirm."""
    row = _transfer(s, group, transfer_id)
    names = settling.party_names(s, row)
    if row.status not in OPEN:
        raise errors.TransferClosed("transfer closed", **names)
    seater = _seated_by(s, row.payer_id, by)
    for_guest = (admin or seater) and _guest(s, row.payer_id) and by != row.payee_id
    if by != row.payer_id and not for_guest:
        raise _not_party(s, row, "only the payer says it is paid", names)
    rest = row.amount - row.paid - row.claimed
    if rest <= 0:
        waiting = errors.ClaimWaitingGuest if _guest(s, row.payee_id) else errors.ClaimWaiting
        raise waiting("already claimed", claimed=row.claimed, **names)
    _claim(s, row, rest, by, now)
    s.flush()
    role: Literal["admin", "seater"] = "admin" if admin else "seater"
    return PaymentResult(
        "claimed", rest, (settling.transfer_of(s, row),), _presser(s, group, by, row.payer_id), role
    )


def confirm_button(
    s: Session,
    group: ChatGroup,
    transfer_id: int,
    by: int | None,
    admin: bool,
    now: datetime,
    *,
    sole_admin: bool = False,
) -> PaymentResult:
    """已收到 by the payee (or an admin who is not the payer): every claimed payment of the transfer is
    confirmed. OwnDebt for an admin confirming their own debt; OwnDebtGuest when its payee is a guest (or
    the 台), who has no account to press with: then the group's only admin (`sole_admin`, as Telegram
    told the caller) confirms it herself, so every debt has someone who may confirm it."""
    row = _transfer(s, group, transfer_id)
    names = settling.party_names(s, row)
    if row.status not in OPEN:
        raise errors.TransferClosed("transfer closed", **names)
    if by != row.payee_id and by == row.payer_id and admin:
        if not _guest(s, row.payee_id):
            raise errors.OwnDebt("an admin confirms their own debt", **names)
        if not sole_admin:
            raise errors.OwnDebtGuest("another admin confirms a debt to a guest", **names)
    if by != row.payee_id and not admin:
        raise _not_party(s, row, "only the payee or an admin confirms", names)
    if row.claimed <= 0:
        nothing = errors.NothingClaimedGuest if _guest(s, row.payer_id) else errors.NothingClaimed
        raise nothing("nothing claimed", **names)
    amount = 0
    for claim in settling.claims_of(s, row):
        claim.status, claim.confirmed_by, claim.confirmed_at = "confirmed", by, now
        amount += claim.amount
    row.paid, row.claimed = row.paid + amount, 0
    _state(row, now)
    s.flush()
    return PaymentResult(
        "confirmed", amount, (settling.transfer_of(s, row),), _presser(s, group, by, row.payee_id)
    )


def _between(s: Session, group: ChatGroup, payer: int, payee: int) -> list[SettleTransfer]:
    query = select(SettleTransfer).where(
        SettleTransfer.group_id == group.id,
        SettleTransfer.payer_id == payer,
        SettleTransfer.payee_id == payee,
    )
    return settling.open_rows(s, query)


def _no_debt(s: Session, group: ChatGroup, sender: Player, other: Player) -> errors.NoDebt:
    """Why nothing is open between two people: NoDebtCarried when their last transfer (either way) was
    carried into a later session (a /paid that raced its /end), NoDebt otherwise."""
    pair = (row_id(sender), row_id(other))
    query = select(SettleTransfer).where(
        SettleTransfer.group_id == group.id,
        col(SettleTransfer.payer_id).in_(pair),
        col(SettleTransfer.payee_id).in_(pair),
    )
    last = s.scalars(query.order_by(col(SettleTransfer.id).desc()).limit(1)).first()
    carried = s.get(TableSession, last.carried_to) if last is not None and last.status == "carried" else None
    if carried is not None and last is not None and last.payer_id != last.payee_id:
        return errors.NoDebtCarried("carried, not paid", name=other.display_name, number=carried.number)
    return errors.NoDebt("nothing open", name=other.display_name)


def record_payment(
    s: Session, group: ChatGroup, sender: Player, other: Player, amount: int | None, now: datetime
) -> PaymentResult:
    """/paid <other> [amount] by `sender`: a claim when the sender owes `other` (oldest transfer first), a
    receipt, confirmed at once, when `other` owes the sender. Without an amount: all that is open and not
    yet claimed. SelfPayment, NoDebt, Overpaid, ClaimWaiting."""
    if sender.id == other.id:
        raise errors.SelfPayment("paying oneself", name=sender.display_name)
    if amount is not None and not 0 < amount <= MAX_PAYMENT:
        raise errors.InvalidValue(f"amount must be 1..{MAX_PAYMENT}", field="amount", value=str(amount))
    owes = _between(s, group, row_id(sender), row_id(other))
    rows = owes or _between(s, group, row_id(other), row_id(sender))
    if not rows:
        raise _no_debt(s, group, sender, other)
    payer, payee = (sender, other) if owes else (other, sender)
    names = {"payer": payer.display_name, "payee": payee.display_name}
    free = sum(r.amount - r.paid - r.claimed for r in rows)
    if free <= 0:
        raise errors.ClaimWaiting("claimed already", claimed=sum(r.claimed for r in rows), **names)
    amount = free if amount is None else amount
    if amount > free:
        raise errors.Overpaid("more than is open", amount=amount, open=free, **names)
    left = amount
    for row in rows:
        part = min(left, row.amount - row.paid - row.claimed)
        if part <= 0:
            continue
        left -= part
        if owes:
            _claim(s, row, part, row_id(sender), now)
        else:
            s.add(
                SettlePayment(
                    transfer_id=row_id(row),
                    amount=part,
                    status="confirmed",
                    claimed_by=row_id(sender),
                    confirmed_by=row_id(sender),
                    created_at=now,
                    confirmed_at=now,
                )
            )
            row.paid += part
            _state(row, now)
        if left == 0:
            break
    s.flush()
    touched = tuple(settling.transfer_of(s, row) for row in rows)
    return PaymentResult("claimed" if owes else "received", amount, touched)
