"""Payments on the transfers an ended session left (`bot.ledger.money.settling`), each call its own write:
/paid (`pay`), 我已付 (`claim_transfer`), 已收到 (`confirm_transfer`), and whom a /paid names
(`payment_parties`, a read)."""

from __future__ import annotations

from dataclasses import replace

from sqlmodel import Session, select

from bot.ledger import errors
from bot.ledger.money import settling
from bot.ledger.play import groups
from bot.ledger.storage.mappers import player_info
from bot.ledger.storage.models import Player
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
        return settling.record_payment(s, group, sender, other, amount, now)

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
        return settling.claim_button(s, group, transfer_id, sender.id or 0, now, admin=admin)

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
        return settling.confirm_button(s, group, transfer_id, pid, admin, now, sole_admin=sole_admin)

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
