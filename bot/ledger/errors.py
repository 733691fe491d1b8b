"""Domain errors of the ledger: each has a stable `code` (catalog key `ledger.<code>`) and `params`."""

from __future__ import annotations

from typing import Any


class LedgerError(Exception):
    """A request the ledger refuses; nothing was written.

    `code` is stable (the bot looks up `ledger.<code>` in its message catalog) and `params` carries the
    values the message needs (seat, name, number, ...). `str(error)` is an English sentence for logs.
    """

    code = "error"

    def __init__(self, message: str, /, **params: Any) -> None:
        super().__init__(message)
        self.params: dict[str, Any] = params

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str(self)!r}, code={self.code!r}, params={self.params!r})"


class NotFound(LedgerError):
    """A session, hand, player or pending entry id that does not exist (params: what, id)."""

    code = "not_found"


class NoOpenSession(LedgerError):
    """The group has no open session (params: chat_id)."""

    code = "no_open_session"


class SessionAlreadyOpen(LedgerError):
    """The group already has an open session (params: chat_id, session_id)."""

    code = "session_already_open"


class SessionNotOpen(LedgerError):
    """The session named has ended (params: session_id)."""

    code = "session_not_open"


class UnknownPlayer(LedgerError):
    """No player of this group matches the reference (params: ref)."""

    code = "unknown_player"


class AmbiguousPlayer(LedgerError):
    """Several players match the reference (params: ref, names)."""

    code = "ambiguous_player"


class PlayerNotSeated(LedgerError):
    """The player is known but has no seat at this table (params: name, or seat for an empty seat)."""

    code = "player_not_seated"


class AlreadySeated(LedgerError):
    """The player already has a seat (params: name, seat)."""

    code = "already_seated"


class SeatTaken(LedgerError):
    """The seat asked for is occupied (params: seat, name)."""

    code = "seat_taken"


class TableFull(LedgerError):
    """All four seats are taken (params: none)."""

    code = "table_full"


class TableNotFull(LedgerError):
    """A hand needs four seated players (params: empty: list of empty seats)."""

    code = "table_not_full"


class SeatsLocked(LedgerError):
    """Seats and the first dealer can only change before the first hand (params: none)."""

    code = "seats_locked"


class NoDealer(LedgerError):
    """A hand before the first dealer was chosen (/dealer, /roll): nothing is scored against a dealer the
    table never named (params: none)."""

    code = "no_dealer"


class InvalidSeat(LedgerError):
    """Not one of E S W N / 东南西北 (params: seat)."""

    code = "invalid_seat"


class InvalidValue(LedgerError):
    """A bad argument: stake, timeout, language, amount ... (params: field, value)."""

    code = "invalid_value"


class InvalidEntry(LedgerError):
    """The scoring core rejected the entry as malformed (params: detail = the scoring core's message)."""

    code = "invalid_entry"


class WinNotAllowed(LedgerError):
    """A well-formed win the rules do not allow (params: reasons: list of {winner, reason})."""

    code = "win_not_allowed"


class NothingToUndo(LedgerError):
    """The session has no live hand to void (params: none)."""

    code = "nothing_to_undo"


class HandNotFound(LedgerError):
    """No live hand with this number in the session (params: number)."""

    code = "hand_not_found"


class PendingExpired(LedgerError):
    """The pending entry timed out before it was confirmed (params: pending_id)."""

    code = "pending_expired"


class PendingCancelled(LedgerError):
    """The pending entry was cancelled (params: pending_id)."""

    code = "pending_cancelled"


class PendingStale(LedgerError):
    """The table changed since the preview (another hand was recorded); preview again (params: pending_id)."""

    code = "pending_stale"


class ZeroSumViolation(LedgerError):
    """Payments that do not sum to zero; a bug guard, never expected (params: total)."""

    code = "zero_sum_violation"


class Conflict(LedgerError):
    """Concurrent writers kept colliding; retried and gave up (params: attempts)."""

    code = "conflict"


class BadGuestName(LedgerError):
    """A guest name the table cannot use (params: name, rule: invisible | too_long | space | seat_word |
    table | taken, limit); the code names the rule: guest_invisible, guest_too_long, guest_space,
    guest_seat_word, guest_table, guest_taken."""

    code = "guest_name"

    def __init__(self, message: str, /, **params: Any) -> None:
        super().__init__(message, **params)
        self.code = f"guest_{params.get('rule', 'name')}"


class Repeated(LedgerError):
    """This write was applied before under the same idempotency key (a redelivered update); nothing changed
    (params: key)."""

    code = "repeated"


class ForeignButton(LedgerError):
    """A button pressed in another chat, or under another message, than the one it was sent with; nothing
    changed (params: pending_id)."""

    code = "foreign_button"


# ---- settling up (bot.ledger.money.settling): params payer, payee (names), amount, open, claimed ----------


class Overpaid(LedgerError):
    """A payment larger than what is still open between the two (params: amount, open, payer, payee)."""

    code = "overpaid"


class SelfPayment(LedgerError):
    """A payment to oneself (params: name)."""

    code = "self_payment"


class NoDebt(LedgerError):
    """Nothing is open between the sender and the person named (params: name)."""

    code = "no_debt"


class NoDebtCarried(NoDebt):
    """`NoDebt` where the last debt between the two was carried into a later session's settlement, not
    paid (params: name, number: that session's number)."""

    code = "no_debt_carried"


class NothingClaimed(LedgerError):
    """The payee confirms a transfer nobody said they paid (params: payer, payee)."""

    code = "nothing_claimed"


class ClaimWaiting(LedgerError):
    """The rest of the transfer is already said to be paid and waits for the payee (params: payer, payee,
    claimed)."""

    code = "claim_waiting"


class NothingClaimedGuest(NothingClaimed):
    """`NothingClaimed` where the payer is a guest: an admin says it is paid for them."""

    code = "nothing_claimed_guest"


class ClaimWaitingGuest(ClaimWaiting):
    """`ClaimWaiting` where the payee is a guest (or the 台): an admin confirms for them."""

    code = "claim_waiting_guest"


class NotParty(LedgerError):
    """Someone who is neither the transfer's payer nor its payee (nor an admin, where one may) pressed its
    button (params: payer, payee)."""

    code = "not_party"


class NotPartyGuestPayer(NotParty):
    """`NotParty` where the payer is a guest: 我已付 is pressed for them by an admin."""

    code = "not_party_guest_payer"


class NotPartyGuestPayee(NotParty):
    """`NotParty` where the payee is a guest (or the 台): 已收到 is pressed for them by an admin."""

    code = "not_party_guest_payee"


class OwnDebt(NotParty):
    """An admin confirms a payment on their own debt: the payee confirms it (params: payer, payee)."""

    code = "own_debt"


class OwnDebtGuest(OwnDebt):
    """`OwnDebt` where the payee is a guest (or the 台) and the payer is not the group's only admin:
    another admin confirms it (params: payer, payee)."""

    code = "own_debt_guest"


class TransferClosed(LedgerError):
    """The transfer is settled, or was carried into a later session (params: payer, payee, number)."""

    code = "transfer_closed"


class NoPaycode(LedgerError):
    """The payee has stored no payment QR photo (params: payee)."""

    code = "no_paycode"


class NoSeasonNight(LedgerError):
    """A season with no ended night cannot be closed (params: number)."""

    code = "no_season_night"
