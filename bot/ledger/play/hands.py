"""Hands: scoring an entry against the table, and the writes of the ledger's rows: one insert and one void,
under commit, adjust, undo and edit. Every row is checked to sum to zero before it is written."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import replace
from datetime import datetime
from typing import Any, cast

from sqlalchemy import insert
from sqlmodel import Session, col, select

import scoring
from bot.bounds import MAX_ADJUST
from bot.ledger import errors
from bot.ledger.play import totals
from bot.ledger.play.sessions import moved_on, open_table
from bot.ledger.storage.mappers import hand_record, payments_of, player_info, written
from bot.ledger.storage.models import Hand, TableSession
from bot.ledger.storage.rows import (
    A_HAND,
    AN_ADJUSTMENT,
    HAND,
    IN_ORDER,
    LIVE,
    PAYMENT,
    aware,
    last_live_hand,
    player_row,
    row_id,
)
from bot.ledger.values import (
    SEATS,
    AdjustJSON,
    DealerState,
    HandPreview,
    HandRecord,
    PlayerInfo,
    SessionInfo,
    dealer_known,
    wins_of,
)
from scoring.entry import EntryJSON, TableJSON, request_for
from scoring.rules import RuleSetId
from scoring.seats import Seat, as_seat

ENTRY_KEYS = frozenset({"event", "discarder", "escaper", "wins"})
EVENTS = ("win", "draw", "escape")


def check_entry(entry: object) -> EntryJSON:
    """A private copy of an entry (the builder's, `scoring.entry.build_entry`, as made or as stored), with
    only the keys an entry may carry (InvalidEntry)."""
    if not isinstance(entry, dict):
        raise errors.InvalidEntry(
            f"an entry must be an object, got {type(entry).__name__}", detail="entry: not an object"
        )
    extra = sorted(str(k) for k in entry if k not in ENTRY_KEYS)
    if extra:
        detail = f"entry: unexpected field(s) {', '.join(extra)} (allowed: {', '.join(sorted(ENTRY_KEYS))})"
        raise errors.InvalidEntry(detail, detail=detail)
    if entry.get("event", "win") not in EVENTS:
        detail = f"event: unknown event {entry.get('event')!r} (win, draw, escape)"
        raise errors.InvalidEntry(detail, detail=detail)
    return cast(EntryJSON, copy.deepcopy(entry))  # the builder's shape, as written (not rebuilt: replays)


def table_json(state: DealerState, *, rules: RuleSetId, options: dict[str, Any], stake: int) -> TableJSON:
    """The table's part of a scoring request: rules, options, stake and the dealer state."""
    return {
        "rules": rules,
        "options": copy.deepcopy(options),
        "stake": stake,
        "dealer": state.dealer,
        "streak": state.streak,
        "diling": state.diling,
        "round_wind": state.round_wind,
        "hand_number": state.hand_number,
        "first_dealer": state.first_dealer,
        "baozi": state.baozi,
    }


def score_entry(
    session_id: int,
    seat_players: Mapping[Seat, int],
    state: DealerState,
    entry: EntryJSON,
    *,
    rules: RuleSetId,
    options: dict[str, Any],
    stake: int,
) -> HandPreview:
    """Score an entry for a seated table from a dealer state under the given rules, options and stake (the
    one call of `scoring.score_request`, docs/rules.md §4); a refused win comes back `allowed == False`."""
    missing = [seat for seat in SEATS if seat not in seat_players]
    if missing:
        raise errors.TableNotFull(f"empty seats: {' '.join(missing)}", empty=missing)
    stored = check_entry(entry)  # what the preview (and then its row) keeps: the builder's entry
    request = request_for(table_json(state, rules=rules, options=options, stake=stake), stored)
    try:
        response = scoring.score_request(request)
    except scoring.ScoringError as exc:
        raise errors.InvalidEntry(str(exc), detail=str(exc)) from exc
    payments = payments_of(response)
    before = state  # the request's table state is the state's own (table_json)
    after = DealerState(
        dealer=response["next_dealer"],
        streak=int(response["next_streak"]),
        diling=bool(response["next_diling"]),
        round_wind=response["next_round_wind"],
        hand_number=int(response["next_hand_number"]),
        first_dealer=before.first_dealer,
    )
    return HandPreview(
        session_id=session_id,
        kind=request["event"],
        entry=stored,
        request=request,
        response=response,
        payments=payments,
        player_payments={seat_players[seat]: amount for seat, amount in payments.items()},
        before=before,
        after=after,
        seats=dict(seat_players),
    )


def adjust_preview(
    session: SessionInfo, payer_id: object, payee_id: object, amount: object, note: str | None
) -> HandPreview:
    """A side payment payer → payee of a positive amount between two seated players."""
    if isinstance(amount, bool) or not isinstance(amount, int) or not 0 < amount <= MAX_ADJUST:
        raise errors.InvalidValue(
            f"an adjustment needs a whole amount from 1 to {MAX_ADJUST}, got {amount!r}",
            field="amount",
            value=amount,
            limit=MAX_ADJUST,
        )
    if payer_id == payee_id:
        raise errors.InvalidValue("payer and payee are the same player", field="payee", value=payee_id)
    seat_of = {player.id: seat for seat, player in session.seats.items()}
    for pid in (payer_id, payee_id):
        if pid not in seat_of:
            raise errors.PlayerNotSeated(f"player {pid} has no seat at this table", name=str(pid))
    assert isinstance(payer_id, int) and isinstance(payee_id, int)
    payer, payee = seat_of[payer_id], seat_of[payee_id]
    entry: AdjustJSON = {"payer": payer, "payee": payee, "amount": amount, "note": note}
    return HandPreview(
        session_id=session.id,
        kind="adjust",
        entry=entry,
        request={"adjust": entry},
        response={"payments": {payer: -amount, payee: amount}},
        payments={payer: -amount, payee: amount},
        player_payments={payer_id: -amount, payee_id: amount},
        before=session.state,
        after=session.state,
        note=note,
        seats={seat: player.id for seat, player in session.seats.items()},
    )


def refusal(preview: HandPreview) -> str:
    """The English reason a win was refused."""
    return "; ".join(f"{r['winner']}: {r['reason']}" for r in preview.reasons) or "win not allowed"


def existing(s: Session, source_key: str | None, *, void: bool = False) -> Hand | None:
    """The row written (or voided) under an idempotency key, or None."""
    if source_key is None:
        return None
    column = Hand.void_key if void else Hand.source_key
    return s.scalars(select(Hand).where(column == source_key)).first()


_INSERT_HAND, _INSERT_PAYMENT = insert(HAND), insert(PAYMENT)


def insert_row(
    s: Session,
    ts: TableSession,
    preview: HandPreview,
    now: datetime,
    *,
    number: int,
    actor: int | None,
    source_key: str | None,
    text: str | None,
    replaces: int | None = None,
    result_message: int | None = None,
) -> Any:
    """The one insert: a ledger row with its payments, added to the running totals; the row returned is
    not in `s` (written by Core: `written`, what it holds is what was inserted)."""
    if preview.kind != "adjust" and not preview.allowed:
        raise errors.WinNotAllowed(refusal(preview), reasons=preview.reasons, number=number)
    total = sum(preview.payments.values())
    if total != 0:
        raise errors.ZeroSumViolation(f"payments sum to {total}", total=total)
    seat_players = preview.seats
    ts.last_seq += 1
    values: dict[str, Any] = dict(
        session_id=row_id(ts),
        seq=ts.last_seq,
        number=number,
        kind=preview.kind,
        text=text,
        entry=preview.entry,
        result_message_id=result_message,
        request=preview.request,
        response=preview.response,
        state_before=preview.before.to_json(),
        state_after=preview.after.to_json(),
        seat_players=seat_players,
        note=preview.note,
        dealer_after_player_id=seat_players.get(preview.after.dealer) if preview.kind != "adjust" else None,
        streak_after=preview.after.streak,
        recorded_by=actor,
        recorded_at=now,
        source_key=source_key,
        replaces=replaces,
    )
    conn = s.connection()  # Core: one INSERT, no unit of work (the session's row is written at commit)
    inserted = conn.execute(_INSERT_HAND, values).inserted_primary_key
    assert inserted is not None
    hand = written(Hand, {"id": inserted[0], **values})
    hua = {w["winner"]: w["hua"] for w in wins_of(preview.response) if w["allowed"] and w["winner"] in SEATS}
    conn.execute(
        _INSERT_PAYMENT,
        [
            {
                "hand_id": row_id(hand),
                "player_id": seat_players[seat],
                "amount": amount,
                "hua": hua.get(seat, 0),
            }
            for seat, amount in preview.payments.items()
        ],
    )
    totals.add(s, ts, hand)
    return hand


def void_row(
    s: Session, ts: TableSession, hand: Hand, actor: int | None, void_key: str | None, now: datetime
) -> None:
    """The one void: a row marked voided (never deleted) and taken out of the running totals."""
    hand.voided, hand.voided_by, hand.voided_at, hand.void_key = True, actor, now, void_key
    s.add(hand)
    s.flush()
    totals.take_back(s, ts, hand)


def row_number(preview: HandPreview) -> int:
    """The number a row keeps: a hand's is the one its preview showed (the dealer state's `hand_number`),
    an adjustment's that of the hand it follows (0 before the first). Adjustments are not hands."""
    return preview.before.hand_number - (1 if preview.kind == "adjust" else 0)


def later_rows(s: Session, ts: TableSession, row: Hand) -> Any:
    """The live rows after `row` in the ledger's order (the adjustments after it, then the later hands)."""
    adjusted_after = (col(Hand.number) == row.number) & AN_ADJUSTMENT
    if row.kind == "adjust":
        adjusted_after = adjusted_after & (col(Hand.seq) > row.seq)
    after = (col(Hand.number) > row.number) | adjusted_after
    return select(Hand).where(Hand.session_id == ts.id, LIVE, after).order_by(*IN_ORDER)


def record(
    s: Session,
    ts: TableSession,
    preview: HandPreview,
    now: datetime,
    *,
    actor: int | None,
    source_key: str | None,
    text: str | None,
    result_message: int | None = None,
) -> HandRecord:
    """A scored win, 荒庄, 逃跑 or adjustment as the table's next row; the dealer state moves on. A hand
    before the first dealer was chosen is refused (NoDealer): the handlers ask for one first.
    `result_message`: the message that will say its result, when it is known already (the preview's)."""
    if preview.kind != "adjust" and not dealer_known(ts.dealer_set, ts.hands_played):
        raise errors.NoDealer("no dealer chosen for the first hand (/dealer, /roll)")
    hand = insert_row(
        s,
        ts,
        preview,
        now,
        number=row_number(preview),
        actor=actor,
        source_key=source_key,
        text=text,
        result_message=result_message,
    )
    ts.live_rows += 1
    if preview.kind != "adjust":
        ts.state = preview.after.to_json()
        ts.hands_played += 1
    moved_on(s, ts, now)
    return hand_record(hand)


def undo(
    s: Session,
    ts: TableSession,
    now: datetime,
    *,
    actor: int | None,
    void_key: str | None,
    expected_id: int | None = None,
) -> HandRecord:
    """Void the last live row; the dealer state, 连庄, 滴零 and 豹子 roll back to before it."""
    last = last_live_hand(s, row_id(ts))
    if last is None or (expected_id is not None and last.id != expected_id):
        if last is None:
            raise errors.NothingToUndo("no hand to undo in this session")
        raise errors.PendingStale("the last hand changed since the preview", number=last.number)
    void_row(s, ts, last, actor, void_key, now)
    ts.live_rows -= 1
    if last.kind != "adjust":
        ts.state = dict(last.state_before)
        ts.hands_played -= 1
    moved_on(s, ts, now)
    return hand_record(last)


def live_row(s: Session, ts: TableSession, number: int) -> Hand:
    """The live row numbered `number` of a session (HandNotFound)."""
    row = s.scalars(select(Hand).where(Hand.session_id == ts.id, Hand.number == number, A_HAND, LIVE)).first()
    if row is None:
        raise errors.HandNotFound(f"no hand {number} in this session", number=number)
    return row


def own_seating(row: Hand) -> dict[Seat, int]:
    """Seat -> player id of a row as it was played: every recomputation of a row (edit, replay of the later
    rows) pays the people who sat there then, never the table as it sits now (after a /sub)."""
    return {as_seat(seat): int(pid) for seat, pid in row.seat_players.items()}


def plan_edit(s: Session, ts: TableSession, number: int, entry: EntryJSON) -> list[tuple[Hand, HandPreview]]:
    """(old row, replacement) for hand `number` and each later row whose result changes."""
    target = live_row(s, ts, number)
    later = s.scalars(later_rows(s, ts, target))

    def rescore(row: Hand, state: DealerState, entry: EntryJSON) -> HandPreview:
        request = row.request  # the row's own rules, stake and seating: who sat where when it was played
        return score_entry(
            row_id(ts),
            own_seating(row),
            state,
            entry,
            rules=request["rules"],
            options=request["options"],
            stake=request["stake"],
        )

    first = rescore(target, DealerState.from_json(target.state_before), entry)
    plan: list[tuple[Hand, HandPreview]] = [(target, first)]
    state = first.after
    for row in later:
        before = replace(state, baozi=DealerState.from_json(row.state_before).baozi)
        if before.to_json() == row.state_before:
            break  # the same state as recorded: this and every later row are unchanged
        if row.kind == "adjust":
            payments = payments_of(row.response)
            kept = HandPreview(
                session_id=row_id(ts),
                kind="adjust",
                entry=row.entry,
                request=row.request,
                response=row.response,
                payments=payments,
                player_payments={own_seating(row)[seat]: amount for seat, amount in payments.items()},
                before=before,
                after=before,
                note=row.note,
                seats=own_seating(row),
            )
            plan.append((row, kept))
            state = before
            continue
        try:
            rescored = rescore(row, before, check_entry(row.entry))
        except errors.LedgerError as exc:
            params = {**exc.params, "number": row.number}
            raise type(exc)(f"hand {row.number} after the edit: {exc}", **params) from exc
        if not rescored.allowed:
            raise errors.WinNotAllowed(
                f"hand {row.number} after the edit: {refusal(rescored)}",
                reasons=rescored.reasons,
                number=row.number,
            )
        plan.append((row, rescored))
        state = rescored.after
    return plan


def edit(
    s: Session,
    ts: TableSession,
    number: int,
    entry: EntryJSON,
    now: datetime,
    *,
    actor: int | None,
    source_key: str | None,
    text: str | None,
) -> tuple[tuple[HandRecord, ...], tuple[HandRecord, ...]]:
    """Replace hand `number` and re-score the later rows whose result changes: (replacements, voided).
    Each replacement keeps the time its hand was played, and a re-scored later row its recorder; the edit's
    own time and author are on the voided rows."""
    plan = plan_edit(s, ts, number, entry)
    last_row, last_preview = plan[-1]
    # Read before the replacements go in: an adjustment's replacement would itself be a row after it.
    reaches_the_end = s.scalars(later_rows(s, ts, last_row).limit(1)).first() is None
    for row, _preview in plan:
        void_row(s, ts, row, actor, None, now)
    new_rows: list[Any] = []  # `written` rows
    for index, (row, preview) in enumerate(plan):
        first = index == 0
        new = insert_row(
            s,
            ts,
            preview,
            aware(row.recorded_at),
            number=row.number,
            actor=actor if first else row.recorded_by,
            source_key=source_key if first else None,
            text=text if first else row.text,
            replaces=row.id,
        )
        row.replaced_by = new.id
        s.add(row)
        new_rows.append(new)
    if reaches_the_end:  # the edit reached the last row: the coming hand starts from its new state
        coming = DealerState.from_json(ts.state)
        ts.state = replace(last_preview.after, baozi=coming.baozi).to_json()
    moved_on(s, ts, now)
    s.flush()
    return tuple(hand_record(h) for h in new_rows), tuple(hand_record(h) for h, _ in plan)


def last_hand(s: Session, chat_id: int) -> HandRecord:
    """The open table's last live row, what /undo would void (NothingToUndo)."""
    _group, ts = open_table(s, chat_id, lock=False)
    last = last_live_hand(s, row_id(ts))
    if last is None:
        raise errors.NothingToUndo("no hand to undo in this session")
    return hand_record(last)


def hand_seating(s: Session, chat_id: int, number: int) -> dict[Seat, PlayerInfo]:
    """Seat -> player as they sat when live hand `number` of the open table was played (HandNotFound):
    the people an /edit of that hand names and pays."""
    _group, ts = open_table(s, chat_id, lock=False)
    seating = own_seating(live_row(s, ts, number))
    return {seat: player_info(player_row(s, pid), chat_id) for seat, pid in seating.items()}


def preview_edit(s: Session, chat_id: int, number: int, entry: EntryJSON) -> tuple[HandPreview, ...]:
    """What an edit of hand `number` would write: its replacement, then every later live row whose result
    changes, re-scored from the corrected dealer state; nothing is recorded."""
    _group, ts = open_table(s, chat_id, lock=False)
    return tuple(preview for _row, preview in plan_edit(s, ts, number, entry))


def set_result_message(s: Session, hand_id: int, message_id: int) -> None:
    """Remember the message of a ledger row's result line."""
    hand = s.get(Hand, hand_id)
    if hand is not None:
        hand.result_message_id = message_id


def result_message(s: Session, hand_id: int) -> int | None:
    """The message of a ledger row's result line, if it was sent (and remembered)."""
    hand = s.get(Hand, hand_id)
    return hand.result_message_id if hand is not None else None
