"""Recording a hand, each call one transaction: at once (`commit`, `adjust`, `undo`, `edit`, each idempotent
on its source key, with the card's view read in the same transaction), or through an entry waiting for
Confirm (`create_pending`, answered by `choose_dealer` / `choose_player`, carried out by `confirm_pending` or
a press, `press`, or dropped). Entries are the partial docs/rules.md §4 request with seats:
`{"event": "win", "discarder": "W", "wins": [{"winner": "S", "type": "discard", "declared": {...}}]}`."""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime

from sqlmodel import Session

from bot.ledger import errors
from bot.ledger.play import books, groups, hands, pending, sessions
from bot.ledger.storage.mappers import hand_record, pending_info, session_info
from bot.ledger.storage.models import ChatGroup, PendingEntry, TableSession
from bot.ledger.storage.rows import chat_of, row_id, seats, session_row
from bot.ledger.storage.store import Ledger
from bot.ledger.values import (
    AnsweredEntry,
    CommitResult,
    DealerState,
    HandPreview,
    HandRecord,
    Payload,
    PendingInfo,
    PendingKind,
    Pressed,
    SessionInfo,
    UserRef,
    payload_of,
)
from scoring.entry import EntryJSON
from scoring.rules import as_rule_set_id
from scoring.seats import Seat

# What a hand write did: the row concerned, the rows it voided, the rows it wrote as replacements.
Written = tuple[HandRecord, tuple[HandRecord, ...], tuple[HandRecord, ...]]


def preview(
    ledger: Ledger, chat_id: int, entry: EntryJSON, *, session: SessionInfo | None = None
) -> HandPreview:
    """Score an entry against the open table without recording anything: against `session` as read
    (no database), else the table read now, from its dealer state as stored (东 before the first dealer
    is chosen: only what is recorded needs one, NoDealer). InvalidEntry, TableNotFull, NoOpenSession. A
    refused win is returned with `allowed == False` and its reasons."""
    table = session or sessions.require_session(ledger, chat_id)
    seat_players = {seat: player.id for seat, player in table.seats.items()}
    return hands.score_entry(
        table.id,
        seat_players,
        table.state,
        entry,
        rules=table.rules,
        options=table.options,
        stake=table.stake,
    )


def _hand_write(
    ledger: Ledger,
    chat_id: int,
    source_key: str | None,
    write: Callable[[Session, ChatGroup, TableSession, datetime], Written],
    *,
    void: bool = False,
) -> CommitResult:
    """One write of rows, idempotent on `source_key` (a repeat returns the row, `created == False`),
    with the card's view read in the same transaction."""
    now = ledger.now()

    def op(s: Session) -> CommitResult:
        earlier = hands.existing(s, source_key, void=void)
        if earlier is not None:
            ts = session_row(s, earlier.session_id)
            info = session_info(s, ts)
            return CommitResult(hand_record(earlier), False, info, card=books.card_view(s, ts, info))
        group, ts = sessions.open_table(s, chat_id)
        hand, voided, replaced = write(s, group, ts, now)
        info = session_info(s, ts, chat_id)
        card = books.card_view(s, ts, info)
        return CommitResult(hand, True, info, voided, replaced, card=card)

    return ledger.write(op)


def commit(
    ledger: Ledger,
    chat_id: int,
    entry: EntryJSON,
    *,
    by: UserRef | None = None,
    source_key: str | None = None,
    text: str | None = None,
) -> CommitResult:
    """Score and record a hand in one transaction: its row, payments, running totals, dealer state.
    Idempotent on `source_key`. WinNotAllowed, InvalidEntry, TableNotFull, NoOpenSession."""

    def write(s: Session, group: ChatGroup, ts: TableSession, now: datetime) -> Written:
        seat_players = {seat: row_id(p) for seat, p in seats(s, row_id(ts)).items()}
        state = DealerState.from_json(ts.state)
        preview = hands.score_entry(
            row_id(ts),
            seat_players,
            state,
            entry,
            rules=as_rule_set_id(ts.rules),
            options=ts.options,
            stake=ts.stake,
        )
        who = groups.actor(s, group, by, now)
        return hands.record(s, ts, preview, now, actor=who, source_key=source_key, text=text), (), ()

    return _hand_write(ledger, chat_id, source_key, write)


def adjust(
    ledger: Ledger,
    chat_id: int,
    payer_id: int,
    payee_id: int,
    amount: int,
    *,
    note: str | None = None,
    by: UserRef | None = None,
    source_key: str | None = None,
    text: str | None = None,
) -> CommitResult:
    """Record a zero-sum side payment (payer -> payee, amount > 0, both seated) with a note; it does not
    change the dealer state. Idempotent on `source_key`."""

    def write(s: Session, group: ChatGroup, ts: TableSession, now: datetime) -> Written:
        preview = hands.adjust_preview(session_info(s, ts, chat_id), payer_id, payee_id, amount, _note(note))
        who = groups.actor(s, group, by, now)
        return hands.record(s, ts, preview, now, actor=who, source_key=source_key, text=text), (), ()

    return _hand_write(ledger, chat_id, source_key, write)


def undo(
    ledger: Ledger, chat_id: int, *, by: UserRef | None = None, source_key: str | None = None
) -> CommitResult:
    """Void the last live row; dealer, 连庄, 滴零 and 豹子 roll back. `result.hand` is the voided row.
    NothingToUndo. Idempotent on `source_key`."""

    def write(s: Session, group: ChatGroup, ts: TableSession, now: datetime) -> Written:
        who = groups.actor(s, group, by, now)
        voided = hands.undo(s, ts, now, actor=who, void_key=source_key)
        return voided, (voided,), ()

    return _hand_write(ledger, chat_id, source_key, write, void=True)


def edit(
    ledger: Ledger,
    chat_id: int,
    number: int,
    entry: EntryJSON,
    *,
    by: UserRef | None = None,
    source_key: str | None = None,
    text: str | None = None,
) -> CommitResult:
    """Replace hand `number` and re-score every later live row from the corrected dealer state, in one
    transaction; old rows are voided and point to their replacements. HandNotFound, WinNotAllowed."""

    def write(s: Session, group: ChatGroup, ts: TableSession, now: datetime) -> Written:
        who = groups.actor(s, group, by, now)
        new, old = hands.edit(s, ts, number, entry, now, actor=who, source_key=source_key, text=text)
        return new[0], old, new

    return _hand_write(ledger, chat_id, source_key, write)


# ---- entries waiting for Confirm ------------------------------------------------------------------


def create_pending(
    ledger: Ledger,
    chat_id: int,
    kind: PendingKind,
    payload: Payload,
    *,
    preview: HandPreview | None,
    base_version: int,
    message_id: int | None,
    by: UserRef | None = None,
    text: str | None = None,
    source_key: str | None = None,
    timeout_seconds: int | None = None,
    pressers: Sequence[int] = (),
    by_other: bool = False,
) -> PendingInfo:
    """Store an entry waiting for Confirm, with the preview the group was shown (scored from the table at
    `base_version`), the message showing it, and who may press it as the caller decided from that table
    (`pressers`: Telegram ids; `by_other`: not its recorder; see `pending.may_press`). payload by kind:
    "hand" the entry; "adjust" {"payer", "payee", "amount", "note"} (player ids); "edit" {"number",
    "entry"}; "undo" {"hand_id", "number"}; "dealer" {"entry"}, a hand waiting for the first dealer (no
    preview: `choose_dealer` goes on); "name" {"text", "token", "seats"}, a typed /hu whose `token` fits
    the players at `seats` (`choose_player`). Idempotent on `source_key`: a repeat returns the first
    entry, whatever its status now."""
    stored = pending.check_payload(kind, copy.deepcopy(payload), preview)
    pending_id = pending.pending_id_for(source_key) if source_key is not None else pending.new_id()
    now = ledger.now()

    def earlier(s: Session) -> PendingInfo | None:
        found = s.get(PendingEntry, pending_id)
        if found is None:
            return None
        return pending_info(found, chat_of(s, session_row(s, found.session_id).group_id))

    def op(s: Session) -> PendingInfo:
        try:  # the entry changes neither the group nor the session: their rows, the session locked
            group, ts = sessions.open_table(s, chat_id)
        except errors.NoOpenSession:  # a repeat finds its entry also once the table has ended
            if (found := earlier(s)) is not None:
                return found
            raise
        created = pending.create(
            s,
            group,
            ts,
            pending_id,
            kind,
            stored,
            preview,
            base_version=base_version,
            message_id=message_id,
            by=by,
            text=text,
            timeout_seconds=timeout_seconds,
            now=now,
            pressers=pressers,
            by_other=by_other,
        )
        if created is None:  # stored before under the same key: that one, whatever its status
            found = earlier(s)
            assert found is not None
            return found
        return created

    return ledger.write(op)


def choose_dealer(
    ledger: Ledger, pending_id: str, seat: Seat, *, chat_id: int, message_id: int | None = None
) -> AnsweredEntry:
    """Set the first dealer for a hand entry that waited for one (kind "dealer"), in the press's chat and
    under its message only, and hand the entry back to go on to its preview; once: a repeat changes
    nothing (`created == False`). ForeignButton, PendingExpired, PendingCancelled, SessionNotOpen,
    SeatsLocked (a hand was recorded meanwhile), NotFound."""
    now = ledger.now()

    def op(s: Session) -> AnsweredEntry:
        entry, ts, created = pending.set_first_dealer(
            s, pending_id, seat, chat_id=chat_id, message_id=message_id, now=now
        )
        return AnsweredEntry(entry, session_info(s, ts, chat_id), created)

    return ledger.write(op)


def choose_player(
    ledger: Ledger, pending_id: str, seat: Seat, *, chat_id: int, message_id: int | None = None
) -> AnsweredEntry:
    """Take the answer to a typed /hu whose name fitted several seated players (kind "name"): `seat`,
    one of those it fitted (ForeignButton otherwise); the entry is handed back to be read again with it,
    once (`created == False`: answered already). The same checks as `choose_dealer`; the table does not
    change."""
    now = ledger.now()

    def op(s: Session) -> AnsweredEntry:
        entry, ts, created = pending.answer(
            s, pending_id, "name", chat_id=chat_id, message_id=message_id, now=now
        )
        if seat not in payload_of(entry, "name")["seats"]:  # rolled back: the entry still waits
            raise errors.ForeignButton(f"{seat} is not a seat the name fitted", pending_id=pending_id)
        return AnsweredEntry(entry, session_info(s, ts, chat_id), created)

    return ledger.write(op)


def confirm_pending(
    ledger: Ledger, pending_id: str, *, chat_id: int, message_id: int | None = None, by: UserRef | None = None
) -> CommitResult:
    """Carry out an entry exactly once, scored once from its stored request; a second confirm returns the
    same row with `created == False`. ForeignButton (another chat or message), PendingExpired,
    PendingCancelled, PendingStale (the table changed since the preview), SessionNotOpen, NotFound."""
    now = ledger.now()

    def op(s: Session) -> CommitResult:
        result, ts = pending.confirm(s, pending_id, chat_id=chat_id, message_id=message_id, by=by, now=now)
        info = session_info(s, ts, chat_id)
        return CommitResult(
            result.hand,
            result.created,
            info,
            result.voided,
            result.replaced,
            card=books.card_view(s, ts, info),
            rescored=result.rescored,
        )

    return ledger.write(op)


def press(
    ledger: Ledger,
    pending_id: str,
    action: str,
    *,
    chat_id: int,
    message_id: int | None,
    by: UserRef | None,
    as_admin: bool = False,
) -> Pressed:
    """A Confirm (`action` "confirm": `confirm_pending`) or Cancel ("cancel": `cancel_pending`) pressed,
    in the transaction that reads the chat's state (for the reply) first. Who may press was decided when
    the entry was made and stored with it (`pending.may_press`): a player seated then, or a presser the
    caller found is an admin (`as_admin`), has it done in this write; anyone else changes nothing and is
    handed the state back (`done` False: ask Telegram, then press again), as is the recorder's own Confirm
    when someone else must confirm it (`own`)."""
    now = ledger.now()

    def op(s: Session) -> Pressed:
        state, loaded = groups.table_state(s, chat_id, ledger.defaults, now, lock=True)
        open_id = state.session.id if state.session else None
        entry = pending.check_table_open(s, pending_id, chat_id, open_id)
        may = pending.may_press(s, entry, action, by, as_admin=as_admin)
        if may != "yes":
            return Pressed(state, done=False, own=may == "own")
        if action == "cancel":
            dropped = pending.cancel(
                s, pending_id, chat_id=chat_id, message_id=message_id, now=now, loaded=loaded, entry=entry
            )
            if dropped.status != "committed":
                return Pressed(state, done=True)
            # Confirmed before: the Cancel changes nothing; the press is told the row that counts.
        result, ts = pending.confirm(
            s,
            pending_id,
            chat_id=chat_id,
            message_id=message_id,
            by=by,
            now=now,
            loaded=loaded,
            entry=entry,
        )
        info = result.session
        card = books.card_view(s, ts, info)
        return Pressed(replace(state, session=info), True, replace(result, card=card))

    pressed = ledger.write(op)
    ledger.remember_group(pressed.state.group)
    return pressed


def cancel_pending(
    ledger: Ledger, pending_id: str, *, chat_id: int, message_id: int | None = None, by: UserRef | None = None
) -> PendingInfo:
    """Drop an entry (nothing changes if it is no longer pending). ForeignButton for another chat."""
    now = ledger.now()
    return ledger.write(
        lambda s: pending.cancel(s, pending_id, chat_id=chat_id, message_id=message_id, now=now)
    )


def _note(value: object) -> str | None:
    return None if value is None else str(value)[:500]
