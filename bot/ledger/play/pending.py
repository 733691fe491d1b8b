"""Entries waiting for Confirm: one path for every kind (hand, adjust, edit, undo), stored with the preview
the group saw and the table version it was scored against; carried out, cancelled or expired once. A hand
entered before the first dealer waits as kind "dealer" (no preview) until a seat is chosen for it, a typed
/hu naming someone two seated players could be as kind "name" until one of them is."""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Sequence
from datetime import datetime, timedelta
from types import SimpleNamespace
from typing import Any, Literal, cast

from sqlalchemy import bindparam, delete, update
from sqlmodel import Session, col, select

from bot.ledger import errors
from bot.ledger.play import hands, sessions
from bot.ledger.play.groups import Loaded, actor
from bot.ledger.storage.mappers import (
    hand_record,
    pending_info,
    preview_from_json,
    preview_json,
    session_info,
    written,
)
from bot.ledger.storage.models import AppliedKey, ChatGroup, Hand, PendingEntry, Player, TableSession
from bot.ledger.storage.rows import (
    PENDING,
    aware,
    chat_of,
    insert_into,
    pending_row,
    row_id,
    seats,
    session_row,
)
from bot.ledger.values import (
    CommitResult,
    DealerState,
    HandPreview,
    Payload,
    PendingInfo,
    PendingKind,
    UserRef,
    dealer_known,
    payload_of,
)
from scoring.seats import Seat

KINDS = ("hand", "adjust", "edit", "undo", "dealer", "name")
CONFIRMED_KINDS = ("hand", "adjust", "edit", "undo")  # what Confirm / Cancel act on; the others: seats
# Entries created under a source key get the id uuid5(PENDING_KEYS, key): a repeat finds the first.
PENDING_KEYS = uuid.UUID("5b0f3c2e-8a4d-4e1b-9c57-6d2f1a0e7b43")


def pending_id_for(source_key: str) -> str:
    """The id of the entry created under `source_key` (32 hex digits, the same in every process)."""
    return uuid.uuid5(PENDING_KEYS, source_key).hex


def new_id() -> str:
    """A random id for an entry made without a source key."""
    return secrets.token_hex(16)


def _int(payload: dict[str, Any], key: str) -> int:
    value = payload.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise errors.InvalidValue(
            f"payload.{key} must be a whole number, got {value!r}", field=key, value=value
        )
    return value


def check_payload(kind: str, payload: object, preview: HandPreview | None) -> Payload:
    """The payload of a kind, checked (InvalidValue): what `carry_out` needs to redo the write."""
    if kind not in KINDS:
        raise errors.InvalidValue(f"unknown pending kind {kind!r}", field="kind", value=kind)
    if not isinstance(payload, dict):
        raise errors.InvalidValue("payload must be an object", field="payload", value=repr(payload))
    if kind == "adjust":
        for key in ("payer", "payee", "amount"):
            _int(payload, key)
    elif kind == "edit":
        _int(payload, "number")
    elif kind == "undo":
        _int(payload, "hand_id")
    elif kind == "dealer":
        hands.check_entry(payload.get("entry"))
    elif kind == "name":
        for key in ("text", "token", "seats"):
            if not isinstance(payload.get(key), str):
                raise errors.InvalidValue(f"payload.{key} must be text", field=key, value=payload.get(key))
    if (preview is None) != (kind in ("undo", "dealer", "name")):
        raise errors.InvalidValue("every kind but undo, dealer and name has its preview", field="preview")
    return cast(Payload, dict(payload))  # each kind's keys checked above


def create(
    s: Session,
    group: ChatGroup,
    ts: TableSession,
    pending_id: str,
    kind: PendingKind,
    payload: Payload,
    preview: HandPreview | None,
    *,
    base_version: int,
    message_id: int | None,
    by: UserRef | None,
    text: str | None,
    timeout_seconds: int | None,
    now: datetime,
    pressers: Sequence[int] = (),
    by_other: bool = False,
) -> PendingInfo | None:
    """Store an entry waiting for Confirm; it expires `timeout_seconds` (default the group's) from now. A
    hand's waits for its dealer instead (kind "dealer") until the first one is chosen (NoDealer). None
    when an entry with this id is stored already (one statement: INSERT … ON CONFLICT DO NOTHING).
    `pressers`, `by_other`: who may press it, as the caller decided from the table (`may_press`)."""
    if kind == "hand" and not dealer_known(ts.dealer_set, ts.hands_played):
        raise errors.NoDealer("no dealer chosen for the first hand (/dealer, /roll)")
    timeout = timeout_seconds if timeout_seconds is not None else group.confirm_timeout_seconds
    values: dict[str, Any] = dict(
        id=pending_id,
        session_id=row_id(ts),
        kind=kind,
        payload=payload,
        text=text,
        preview=preview_json(preview) if preview is not None else {},
        base_version=base_version,
        created_by=actor(s, group, by, now, seats(s, row_id(ts))),  # told by the table most of the time
        created_at=now,
        expires_at=now + timedelta(seconds=timeout),
        message_id=message_id,
        status="pending",
        consumed_at=None,
        hand_id=None,
        pressers=list(pressers),
        by_other=by_other,
    )
    new = insert_into(s, PENDING).on_conflict_do_nothing(index_elements=["id"]).returning(PENDING.c.id)
    if s.connection().execute(new, values).first() is None:
        return None
    return pending_info(written(PendingEntry, values), group.chat_id)


def show(s: Session, pending_id: str, message_id: int) -> bool:
    """The message an entry stored before its preview went out is shown in, once: False when it had one
    already (another process showed it first)."""
    query = (
        update(PendingEntry)
        .where(col(PendingEntry.id) == pending_id, col(PendingEntry.message_id).is_(None))
        .values(message_id=message_id)
    )
    return bool(s.exec(query).rowcount)


def row(s: Session, pending_id: str, *, lock: bool = False) -> Any:
    """A pending entry by id, as an object of its columns (no ORM object: `_mark` changes it in the
    database and in the object alike), locked for update when `lock` (NotFound)."""
    found = pending_row(s, pending_id, lock=lock)
    if found is None:
        raise errors.NotFound(f"no pending entry {pending_id!r}", what="pending", id=pending_id)
    return SimpleNamespace(**found._asdict())


_MARK = update(PENDING).where(PENDING.c.id == bindparam("entry"))  # SET: the parameters named as columns


def _mark(s: Session, pending: Any, **changes: Any) -> None:
    """An entry's status (and when, and its row) changed: one UPDATE of the columns that change."""
    s.connection().execute(_MARK, {"entry": pending.id, **changes})
    for name, value in changes.items():
        setattr(pending, name, value)


def _owned(
    s: Session,
    pending_id: str,
    chat_id: int,
    message_id: int | None,
    kinds: tuple[str, ...] = CONFIRMED_KINDS,
    loaded: Loaded | None = None,
    entry: Any = None,
) -> tuple[ChatGroup, TableSession, Any]:
    """The entry's group, session and row, locked (session first, as every writer), if it belongs to
    `chat_id` and, when given, to `message_id` (`_its_message`), and is of one of `kinds` (the button
    pressed acts on that kind of entry only); ForeignButton otherwise. `loaded`: the chat's group and open
    session as this transaction read and locked them (`groups.table_state`), the entry's most of the time;
    `entry`: the entry's row as `check_table_open` read and locked it after them."""
    pending: Any = None
    if loaded is not None and loaded.group is not None and loaded.table is not None:
        pending = entry if entry is not None else row(s, pending_id, lock=True)  # after its session
        if pending.session_id == loaded.table.id:
            group, ts = loaded.group, loaded.table
        else:  # an older table's entry: its own session, locked first
            pending = None
    if pending is None:
        ts = session_row(s, row(s, pending_id).session_id, lock=True)
        found = s.get(ChatGroup, ts.group_id)
        assert found is not None
        group, pending = found, row(s, pending_id, lock=True)
    if group.chat_id != chat_id or not _its_message(pending.message_id, message_id):
        raise errors.ForeignButton("this button belongs to another chat or message", pending_id=pending_id)
    if pending.kind not in kinds:
        raise errors.ForeignButton(f"not a button of {pending.kind} entries", pending_id=pending_id)
    return group, ts, pending


def _its_message(stored: int | None, pressed: int | None) -> bool:
    """Whether a press under `pressed` is on the entry's preview: the message stored with it, any message
    while none is (the preview went out, its id not written yet), or an earlier copy (a send whose outcome
    was unknown, posted after all, before the copy that was sent once more and stored: message ids grow
    in a chat)."""
    return pressed is None or stored is None or pressed <= stored


def check_table_open(s: Session, pending_id: str, chat_id: int, open_id: int | None) -> Any:
    """A press on the preview of a table that has ended, in its own chat, is told so (SessionNotOpen)
    before anyone's right to press is asked: nobody can press it any more. The entry's row, locked, for
    `_owned` (a press has locked the chat's open session first, as every writer does). NotFound."""
    entry = row(s, pending_id, lock=True)
    if entry.session_id == open_id:
        return entry
    ts = session_row(s, entry.session_id)
    if ts.status != "open" and chat_of(s, ts.group_id) == chat_id:
        raise errors.SessionNotOpen(f"session {ts.number} has ended", session_id=ts.id, number=ts.number)
    return entry


def may_press(
    s: Session, entry: Any, action: str, by: UserRef | None, *, as_admin: bool
) -> Literal["yes", "ask", "own"]:
    """Whether `by` may press Confirm/Cancel (`action`) on `entry`, from the data it was stored with:
    "yes" for a player seated when it was made (`pressers`) or a presser the caller found is an admin
    (`as_admin`, asked of Telegram); "ask" for anyone else (nothing is written: the caller asks Telegram,
    then presses again); "own" for its recorder's Confirm when someone else must confirm it (`by_other`),
    admin or not. An entry with no recorder (an anonymous admin's) is then confirmed by no admin."""
    telegram_id = by.telegram_id if by is not None else None
    if action == "confirm" and entry.by_other:
        if entry.created_by is None:
            if as_admin:
                return "own"
        elif telegram_id is not None:
            recorder = s.get(Player, entry.created_by)
            if recorder is not None and recorder.telegram_id == telegram_id:
                return "own"
    if as_admin or (telegram_id is not None and telegram_id in (entry.pressers or ())):
        return "yes"
    return "ask"


def still_waiting(pending: Any, ts: TableSession, now: datetime, done: str) -> None:
    """An entry that can still be `done` (confirmed, answered): not cancelled, not expired, its table open
    (PendingCancelled, PendingExpired, SessionNotOpen)."""
    if pending.status == "cancelled":
        raise errors.PendingCancelled("this entry was cancelled", pending_id=pending.id)
    if pending.status == "expired" or aware(pending.expires_at) <= now:
        raise errors.PendingExpired(f"this entry expired before it was {done}", pending_id=pending.id)
    if ts.status != "open":
        raise errors.SessionNotOpen(f"session {ts.number} has ended", session_id=ts.id, number=ts.number)


def confirm(
    s: Session,
    pending_id: str,
    *,
    chat_id: int,
    message_id: int | None,
    by: UserRef | None,
    now: datetime,
    loaded: Loaded | None = None,
    entry: Any = None,
) -> tuple[CommitResult, TableSession]:
    """Carry out an entry exactly once (source key `pending:<id>`); a repeat returns its row, not created.
    `loaded`, `entry`: what this transaction read of the chat and the entry already (`_owned`)."""
    group, ts, pending = _owned(s, pending_id, chat_id, message_id, loaded=loaded, entry=entry)
    seated = loaded.seated if loaded is not None and loaded.table is ts else None
    if pending.status == "committed" and pending.hand_id is not None:
        hand = s.get(Hand, pending.hand_id)
        assert hand is not None
        info = session_info(s, ts, chat_id, seated)
        return CommitResult(hand=hand_record(hand), created=False, session=info), ts
    still_waiting(pending, ts, now, "confirmed")
    if ts.version != pending.base_version:
        raise errors.PendingStale(
            "the table changed since this preview; enter it again", pending_id=pending_id
        )
    result = carry_out(s, group, ts, pending, by, now, seated)
    _mark(s, pending, status="committed", consumed_at=now, hand_id=result.hand.id)
    return result, ts


def carry_out(
    s: Session,
    group: ChatGroup,
    ts: TableSession,
    pending: Any,
    by: UserRef | None,
    now: datetime,
    seated: dict[Seat, Any] | None = None,
) -> CommitResult:
    """The write an entry stands for, against the table it was previewed on (the version is unchanged);
    `seated`: the table's players as this transaction read them (a hand changes no seat)."""
    key, text = f"pending:{pending.id}", pending.text
    who = actor(s, group, by, now, seated)
    voided: tuple[Any, ...] = ()
    replaced: tuple[Any, ...] = ()
    rescored: tuple[PendingInfo, ...] = ()
    result_message: int | None = None
    if pending.kind in ("hand", "adjust"):
        # The preview the group saw, scored once: the table is unchanged since (same version), so its
        # payments and its seating are what the Confirm records; the preview's message becomes its result.
        preview = preview_from_json(pending.preview)
        result_message = pending.message_id
        hand = hands.record(
            s, ts, preview, now, actor=who, source_key=key, text=text, result_message=result_message
        )
    elif pending.kind == "edit":
        edited = payload_of(pending, "edit")
        base = ts.version
        replaced, voided = hands.edit(
            s,
            ts,
            edited["number"],
            hands.check_entry(edited["entry"]),
            now,
            actor=who,
            source_key=key,
            text=text,
        )
        hand = replaced[0]
        rescored = rescore_waiting(s, ts, group.chat_id, base=base, now=now)
    else:
        undone = payload_of(pending, "undo")
        hand = hands.undo(s, ts, now, actor=who, void_key=key, expected_id=undone["hand_id"])
        voided = (hand,)
    info = session_info(s, ts, group.chat_id, seated)
    return CommitResult(
        hand=hand,
        created=True,
        session=info,
        voided=voided,
        replaced=replaced,
        result_message=result_message,
        rescored=rescored,
    )


def rescore_waiting(
    s: Session, ts: TableSession, chat_id: int, *, base: int, now: datetime
) -> tuple[PendingInfo, ...]:
    """The hands waiting for their Confirm on the table as it was (`base`, its version before an /edit),
    scored again from the table as it is now (its dealer, 连庄 and amounts may change) and kept waiting
    against the new version: their Confirm records the re-scored hand. One that no longer scores (the
    edit made it impossible) stays as it was, and its Confirm says the table changed."""
    waiting = PENDING.select().where(
        PENDING.c.session_id == row_id(ts),
        PENDING.c.status == "pending",
        PENDING.c.kind == "hand",
        PENDING.c.base_version == base,
        PENDING.c.expires_at > now,
    )
    rows = [SimpleNamespace(**found._asdict()) for found in s.connection().execute(waiting.with_for_update())]
    state = DealerState.from_json(ts.state)
    out: list[PendingInfo] = []
    for entry in rows:
        shown = preview_from_json(entry.preview)
        request = cast("dict[str, Any]", shown.request)
        try:
            preview = hands.score_entry(
                row_id(ts),
                shown.seats,
                state,
                cast("Any", shown.entry),
                rules=request["rules"],
                options=request["options"],
                stake=request["stake"],
            )
        except errors.LedgerError:
            continue
        if not preview.allowed:
            continue
        _mark(s, entry, preview=preview_json(preview), base_version=ts.version)
        out.append(pending_info(entry, chat_id))
    return tuple(out)


def answer(
    s: Session, pending_id: str, kind: PendingKind, *, chat_id: int, message_id: int | None, now: datetime
) -> tuple[PendingInfo, TableSession, bool]:
    """The answer to an entry waiting for one (kind "dealer" or "name", the kind the pressed button asks
    for): the entry is handed back to go on to its preview, once; a repeat hands it back with False."""
    _group, ts, pending = _owned(s, pending_id, chat_id, message_id, kinds=(kind,))
    if pending.status == "committed":
        return pending_info(pending, chat_id), ts, False
    still_waiting(pending, ts, now, "answered")
    _mark(s, pending, status="committed", consumed_at=now)
    return pending_info(pending, chat_id), ts, True


def set_first_dealer(
    s: Session, pending_id: str, seat: Seat, *, chat_id: int, message_id: int | None, now: datetime
) -> tuple[PendingInfo, TableSession, bool]:
    """A seat chosen for a hand waiting for its dealer (kind "dealer"): the first dealer is set and the entry
    handed back to go on to its preview, once; a repeat changes nothing and hands it back with False."""
    info, ts, created = answer(s, pending_id, "dealer", chat_id=chat_id, message_id=message_id, now=now)
    if created:
        sessions.change(s, ts, now, dealer=sessions.seat_of(seat))
    return info, ts, created


def cancel(
    s: Session,
    pending_id: str,
    *,
    chat_id: int,
    message_id: int | None,
    now: datetime,
    loaded: Loaded | None = None,
    entry: Any = None,
) -> PendingInfo:
    """Drop an entry (nothing changes if it is no longer pending)."""
    _group, _ts, pending = _owned(s, pending_id, chat_id, message_id, loaded=loaded, entry=entry)
    if pending.status == "pending":
        _mark(s, pending, status="cancelled", consumed_at=now)
    return pending_info(pending, chat_id)


def expire(s: Session, now: datetime) -> list[PendingInfo]:
    """Mark every entry past its expiry expired; each is returned by exactly one caller (row locks, and
    the status changes from pending only once)."""
    rows = list(
        s.scalars(
            select(PendingEntry)
            .where(PendingEntry.status == "pending", PendingEntry.expires_at <= now)
            .with_for_update(skip_locked=True)
        )
    )
    for pending in rows:
        pending.status, pending.consumed_at = "expired", now
        s.add(pending)
    s.flush()
    return [pending_info(p, chat_of(s, session_row(s, p.session_id).group_id)) for p in rows]


def waiting_in(s: Session, session_id: int) -> list[PendingInfo]:
    """A session's entries still waiting for their Confirm, oldest first (what its /end would drop)."""
    ts = session_row(s, session_id)
    rows = s.scalars(
        select(PendingEntry)
        .where(PendingEntry.session_id == session_id, PendingEntry.status == "pending")
        .order_by(col(PendingEntry.created_at))
    )
    chat_id = chat_of(s, ts.group_id)
    return [pending_info(p, chat_id) for p in rows]


def get_pending(s: Session, pending_id: str) -> PendingInfo:
    """An entry by id (NotFound)."""
    found = row(s, pending_id)
    return pending_info(found, chat_of(s, session_row(s, found.session_id).group_id))


def release(s: Session, key: str, *, unless: str) -> bool:
    """Give back a claim (`Ledger.claim`) whose reply failed, so that the next request with the key goes
    on instead of being told it was done; unless a write went through under `unless` (its own key: a
    hand recorded, or an entry waiting for Confirm and shown), which a retry must not do again: then the
    claim stands (False). An entry stored but never shown (its preview's send failed) is the retry's to
    show: the claim is given back."""
    entry = pending_row(s, pending_id_for(unless))
    shown = entry is not None and (entry.message_id is not None or entry.status != "pending")
    if hands.existing(s, unless) is not None or shown:
        return False
    s.execute(delete(AppliedKey).where(col(AppliedKey.key) == key))
    return True
