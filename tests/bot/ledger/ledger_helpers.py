"""Ledger test helpers (a seated table of four, the invariants every ledger state must satisfy)."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select
from sqlmodel import Session

from bot.ledger import HandPreview, Ledger, PendingInfo, SessionInfo, UserRef
from bot.ledger.play import books, hands, recording, seating, sessions
from bot.ledger.storage.models import GroupTotal, Hand, Payment, SessionTotal
from bot.ledger.values import PendingKind
from scoring.entry import Claim, EntryJSON, build_entry

CHAT = -1001


def self_draw(winner: str, hard: int = 5, *patterns: str) -> EntryJSON:
    """Quick-form entry: `winner` self-draws with `hard` 硬花 and the given patterns."""
    return build_entry("self_draw", [Claim(winner, hard_flowers=hard, patterns=patterns)])


def discard(winner: str, discarder: str, hard: int = 5, *patterns: str) -> EntryJSON:
    """Quick-form entry: `winner` wins on `discarder`'s discard."""
    return build_entry("discard", [Claim(winner, hard_flowers=hard, patterns=patterns)], other=discarder)


DRAW: EntryJSON = build_entry("draw")


def pend(
    ledger: Ledger, chat_id: int, kind: PendingKind, payload: dict[str, Any], **options: Any
) -> PendingInfo:
    """An entry waiting for Confirm as the bot makes one: scored from the table as read, then stored with the
    message id of the preview (`message_id`, default None) in one write."""
    session = sessions.require_session(ledger, chat_id)
    preview: HandPreview | None
    if kind == "hand":
        preview = recording.preview(ledger, chat_id, payload, session=session)
    elif kind == "adjust":
        payer, payee, amount = payload.get("payer"), payload.get("payee"), payload.get("amount")
        preview = hands.adjust_preview(session, payer, payee, amount, payload.get("note"))  # type: ignore[arg-type]
    elif kind == "edit":
        preview = ledger.read(hands.preview_edit, chat_id, payload["number"], payload["entry"])[0]
    else:
        last = ledger.read(hands.last_hand, chat_id)
        payload, preview = {"hand_id": last.id, "number": last.number}, None
    options.setdefault("message_id", None)
    return recording.create_pending(
        ledger, chat_id, kind, payload, preview=preview, base_version=session.version, **options
    )


@dataclass
class Table:
    """A group with an open session and four seated players (Ann E, Bob S, Cat W, guest Dan N)."""

    ledger: Ledger
    chat_id: int
    session: SessionInfo
    users: list[UserRef]

    @property
    def ids(self) -> dict[str, int]:
        """Seat -> player id."""
        return {seat: p.id for seat, p in self.session.seats.items()}


def seat_table(
    ledger: Ledger, chat_id: int = CHAT, stake: int = 1, *, dealer: str | None = "E", **options: Any
) -> Table:
    """Open a session, seat four players and choose the first dealer (`dealer=None`: not chosen yet)."""
    users = [UserRef(11, "Ann", "ann"), UserRef(12, "Bob", "bob"), UserRef(13, "Cat", None)]
    sessions.open_session(ledger, chat_id, by=users[0], stake=stake, options=options or None)
    for user in users:
        seating.join(ledger, chat_id, user)
    session = seating.join(ledger, chat_id, guest_name="Dan").session
    if dealer is not None:
        session = sessions.set_dealer(ledger, chat_id, dealer)
    return Table(ledger, chat_id, session, users)


def row_counts(ledger: Ledger) -> dict[str, int]:
    """How many rows each ledger table holds (to show that a refused operation wrote nothing)."""
    from bot.ledger.storage import models

    counts = {}
    with Session(ledger.engine) as s:
        for model in (
            models.ChatGroup,
            models.Player,
            models.TableSession,
            models.Seat,
            Hand,
            Payment,
            SessionTotal,
            GroupTotal,
            models.PendingEntry,
        ):
            counts[model.__tablename__] = s.scalar(select(func.count()).select_from(model))
    return counts


def check_invariants(ledger: Ledger, session_id: int) -> None:
    """Every hand sums to zero; running totals equal the sum of live payments; totals sum to zero."""
    with Session(ledger.engine) as s:
        for hand_id, total in s.execute(
            select(Payment.hand_id, func.sum(Payment.amount)).group_by(Payment.hand_id)
        ):
            assert total == 0, f"hand {hand_id} sums to {total}"
        live = dict(
            s.execute(
                select(Payment.player_id, func.sum(Payment.amount))
                .join(Hand, Hand.id == Payment.hand_id)
                .where(Hand.session_id == session_id, Hand.voided.is_(False))
                .group_by(Payment.player_id)
            ).all()
        )
        totals = {
            t.player_id: t.net
            for t in s.scalars(select(SessionTotal).where(SessionTotal.session_id == session_id))
        }
        for pid, net in totals.items():
            assert live.get(pid, 0) == net, (
                f"player {pid}: running total {net} != payments {live.get(pid, 0)}"
            )
        assert sum(totals.values()) == 0
        group_sum = s.scalar(select(func.sum(GroupTotal.net)))
        assert (group_sum or 0) == 0
    # the dealer state chain of live hands is unbroken
    hands = ledger.read(books.hands, session_id)
    for earlier, later in itertools.pairwise(hands):
        assert later.before.dealer == earlier.after.dealer
        assert later.before.streak == earlier.after.streak
        assert later.before.hand_number == earlier.after.hand_number
    # hands are numbered 1, 2, … in order; an adjustment carries the number of the hand before it
    numbers, count = [], 0
    for h in hands:
        count += h.kind != "adjust"
        numbers.append(count)
    assert [h.number for h in hands] == numbers
