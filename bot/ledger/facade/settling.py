"""The settling-up half of the ledger facade: payments on the transfers an ended session left, who still
owes whom, the group's settling-up options. Each call one transaction (`bot.ledger.money.settling`)."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Any

from sqlmodel import Session, select

from bot.ledger import errors
from bot.ledger.claims import reminders
from bot.ledger.facade.base import Calls
from bot.ledger.money import settling
from bot.ledger.play import groups
from bot.ledger.storage.mappers import group_info, player_info
from bot.ledger.storage.models import Player
from bot.ledger.storage.rows import group_row, player_row, row_id, session_row
from bot.ledger.values import (
    Balance,
    GroupInfo,
    PaymentLine,
    PaymentResult,
    PlayerInfo,
    SettleFigures,
    Transfer,
    UserRef,
)
from scoring.seats import parse_seat


class SettlingCalls(Calls):
    """Transfers, their payments, /balance."""

    def pay(
        self, chat_id: int, by: UserRef, player_id: int, amount: int | None = None, *, key: str | None = None
    ) -> PaymentResult:
        """/paid: `by` paid `player_id` (a claim, for the payee to confirm), or `player_id` paid `by` (a
        receipt by the payee, confirmed at once); `amount` None: all that is open and unclaimed.
        SelfPayment, NoDebt, Overpaid, ClaimWaiting, InvalidValue (amount not positive)."""
        now = self._now()

        def op(s: Session) -> PaymentResult:
            group = self._group(s, chat_id)
            sender = groups.ensure_player(s, group, by, now)
            other = player_row(s, player_id)
            if other.group_id != group.id:
                raise errors.NotFound(f"no player {player_id} in this group", what="player", id=player_id)
            return settling.pay(s, group, sender, other, amount, now)

        try:
            return self._write(op, key)
        except errors.NoDebt:
            # An /end on another worker may have carried the debt while this waited for its rows (they
            # were open when this began, carried when it read them): once more, on what the end left.
            return self._write(op, key)

    def payment_parties(
        self, chat_id: int, by: UserRef, ref: str
    ) -> list[tuple[PlayerInfo, tuple[Transfer, ...]]]:
        """Whom `/paid <ref>` by `by` can mean, each with the transfers open between the two: a seat or an
        @username names one person; a name every person it fits (never the one at the table by default),
        narrowed to those `by` has open transfers with when there are any. UnknownPlayer."""

        def op(s: Session) -> list[tuple[PlayerInfo, tuple[Transfer, ...]]]:
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
            transfers = settling.balance(s, group).transfers
            twin = groups.twins(s, row_id(group))
            choices = [
                (
                    replace(player_info(p, chat_id), twin=twin.get(row_id(p), 0)),
                    tuple(tr for tr in transfers if {tr.payer.id, tr.payee.id} == {me, p.id}),
                )
                for p in matches
            ]
            return [c for c in choices if c[1]] or choices

        return self._read(op)

    def claim_transfer(
        self, chat_id: int, transfer_id: int, by: UserRef, *, admin: bool = False, key: str | None = None
    ) -> PaymentResult:
        """我已付: the transfer's payer (with `admin`, a group admin for a guest payer) says the rest of it
        is paid. NotParty, TransferClosed, ClaimWaiting, ForeignButton (a transfer of another group)."""
        now = self._now()

        def op(s: Session) -> PaymentResult:
            group = self._group(s, chat_id)
            sender = groups.ensure_player(s, group, by, now)
            return settling.claim_button(s, group, transfer_id, sender.id or 0, now, admin=admin)

        return self._write(op, key)

    def confirm_transfer(
        self,
        chat_id: int,
        transfer_id: int,
        by: UserRef | None,
        *,
        admin: bool = False,
        key: str | None = None,
    ) -> PaymentResult:
        """已收到: the payee (or, with `admin`, a group admin who is not the payer) confirms what was
        claimed. NotParty, OwnDebt, NothingClaimed, TransferClosed, ForeignButton."""
        now = self._now()

        def op(s: Session) -> PaymentResult:
            group = self._group(s, chat_id)
            sender = groups.ensure_player(s, group, by, now) if by is not None else None
            pid = sender.id if sender is not None else None
            return settling.confirm_button(s, group, transfer_id, pid, admin, now)

        return self._write(op, key)

    def balance(self, chat_id: int) -> Balance:
        """Who still owes whom in the group, across sessions (the open transfers)."""

        def op(s: Session) -> Balance:
            group = group_row(s, chat_id)
            return settling.balance(s, group) if group is not None else Balance(())

        return self._read(op)

    def settle_figures(self, session_id: int) -> list[SettleFigures]:
        """Each person's figures in settling an ended session (net, carried in, balance before and after
        抹零); empty for a session that left none."""
        return self._read(lambda s: settling.figures(s, session_row(s, session_id)))

    def carried_from(self, session_id: int) -> list[int]:
        """The sessions whose open transfers went into this session's (their summaries show it)."""
        return self._read(lambda s: settling.carried_from(s, session_id))

    def carried_into(self, session_id: int) -> list[Transfer]:
        """The earlier transfers that went into this session's (its summary names them)."""
        return self._read(lambda s: settling.carried_into(s, session_id))

    def reminder_groups(self) -> list[GroupInfo]:
        """The groups with open transfers and reminders on."""
        return self._read(reminders.reminder_groups)

    def claim_reminder(self, chat_id: int, now: datetime | None = None) -> list[Transfer]:
        """The group's open transfers due a reminder, each handed to exactly one caller across workers."""
        moment = now or self._now()
        return self._write(lambda s: reminders.claim_reminder(s, self._group(s, chat_id), moment))

    def release_reminder(self, chat_id: int, transfer_ids: list[int], claimed_at: datetime) -> int:
        """A claimed reminder that could not be sent: its transfers are due again (a later sweep sends
        it the same day)."""
        return self._write(
            lambda s: reminders.release_reminder(s, self._group(s, chat_id), transfer_ids, claimed_at)
        )

    def set_paycode(self, telegram_id: int, file_id: str | None, *, key: str | None = None) -> int:
        """Store (None: delete) a person's payment QR photo in every group they play in; how many."""
        return self._write(lambda s: settling.set_paycode(s, telegram_id, file_id), key)

    def paycode_for(self, transfer_id: int, telegram_id: int) -> tuple[Transfer, str]:
        """The payee's payment QR file id of an open transfer, for its payer only."""
        return self._read(lambda s: settling.paycode_for(s, transfer_id, telegram_id))

    def settle_sheet(self, chat_id: int) -> list[tuple[Transfer, tuple[PaymentLine, ...]]]:
        """Every transfer of the group with its payments (the settlement sheet)."""

        def op(s: Session) -> list[tuple[Transfer, tuple[PaymentLine, ...]]]:
            group = group_row(s, chat_id)
            return settling.sheet(s, group) if group is not None else []

        return self._read(op)

    def update_settle(self, chat_id: int, changes: dict[str, Any], *, key: str | None = None) -> GroupInfo:
        """Change the group's settling-up options (`carry`, `round`, `multiplier`; InvalidValue)."""
        checked = settling.check_options(changes)

        def op(s: Session) -> GroupInfo:
            group = self._group(s, chat_id)
            group.settle = {**(group.settle or {}), **checked}
            s.add(group)
            s.flush()
            return group_info(group)

        return self._write(op, key)
