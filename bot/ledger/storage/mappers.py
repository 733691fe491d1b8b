"""Row mappers: database rows in, the frozen values of `bot.ledger.values` out; a preview's JSON codec."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache
from types import SimpleNamespace
from typing import Any, cast

from sqlmodel import Session, SQLModel

from bot.ledger import errors
from bot.ledger.storage.models import (
    ChatGroup,
    PendingEntry,
    Player,
    TableSession,
)
from bot.ledger.storage.rows import aware, chat_of, row_id, seats
from bot.ledger.values import (
    SEATS,
    AdjustJSON,
    AdjustRequest,
    AdjustResponse,
    DealerState,
    GroupInfo,
    HandPreview,
    HandRecord,
    Payload,
    PendingInfo,
    PlayerInfo,
    SessionInfo,
)
from scoring.entry import EntryJSON, RequestJSON
from scoring.response import ScoreResponse
from scoring.rules import as_rule_set_id
from scoring.seats import Seat, as_seat


def written(model: type[SQLModel], values: Mapping[str, Any]) -> Any:
    """A row just written by Core, read back as the mappers read rows: the model's defaults, then `values`,
    as attributes of a plain object (building the ORM instance costs ~100 µs for nothing)."""
    return SimpleNamespace(**{**_defaults(model), **values})


@cache
def _defaults(model: type[SQLModel]) -> dict[str, Any]:
    return {name: field.default for name, field in model.model_fields.items() if not field.is_required()}


def group_info(group: ChatGroup) -> GroupInfo:
    """A group row as `GroupInfo`."""
    return GroupInfo(
        chat_id=group.chat_id,
        language=group.language,
        rules=as_rule_set_id(group.rules),
        options=dict(group.options),
        instant=group.instant,
        confirm_timeout_seconds=group.confirm_timeout_seconds,
        weekly_schedule=group.weekly_schedule,
        created_at=aware(group.created_at),
        weekly_day=group.weekly_day,
        weekly_time=group.weekly_time,
        weekly_last_post_at=aware(group.weekly_last_post_at) if group.weekly_last_post_at else None,
        timezone=group.timezone,
        confirm_by=group.confirm_by,
        settle_changes=dict(group.settle or {}),
    )


def player_info(player: Player, chat_id: int) -> PlayerInfo:
    """A player row as `PlayerInfo`."""
    return PlayerInfo(
        id=row_id(player),
        chat_id=chat_id,
        display_name=player.display_name,
        telegram_id=player.telegram_id,
        username=player.username,
    )


def session_info(
    s: Session, ts: TableSession, chat_id: int | None = None, seated: dict[Seat, Any] | None = None
) -> SessionInfo:
    """A session row with its seated players (`seats`, read now unless given) as `SessionInfo`."""
    chat = chat_id if chat_id is not None else chat_of(s, ts.group_id)
    seated = seated if seated is not None else seats(s, row_id(ts))
    return SessionInfo(
        id=row_id(ts),
        chat_id=chat,
        number=ts.number,
        rules=as_rule_set_id(ts.rules),
        options=dict(ts.options),
        stake=ts.stake,
        seats={seat: player_info(p, chat) for seat, p in seated.items()},
        status="open" if ts.status == "open" else "ended",
        opened_by=ts.opened_by,
        opened_at=aware(ts.opened_at),
        ended_at=aware(ts.ended_at) if ts.ended_at else None,
        end_reason=ts.end_reason,
        last_activity_at=aware(ts.last_activity_at),
        state=DealerState.from_json(ts.state),
        hands_played=ts.hands_played,
        dealer_set=ts.dealer_set,
        version=ts.version,
        card_message_id=ts.card_message_id,
        pin_refused=ts.pin_refused,
        flow_message_id=ts.flow_message_id,
        summary_message_id=ts.summary_message_id,
    )


def payments_of(response: Mapping[str, Any]) -> dict[Seat, int]:
    """Seat -> amount of a scoring response, checked: integers that sum to zero (ZeroSumViolation)."""
    raw = response.get("payments") or {}
    payments: dict[Seat, int] = {}
    for seat in SEATS:
        value = raw.get(seat, 0)
        if isinstance(value, bool) or not isinstance(value, int):
            raise errors.ZeroSumViolation(f"payment of {seat} is not an integer: {value!r}", total=None)
        payments[seat] = value
    total = sum(payments.values())
    if total != 0:
        raise errors.ZeroSumViolation(f"payments sum to {total}", total=total)
    return {seat: amount for seat, amount in payments.items() if amount or seat in raw}


Stored = EntryJSON | AdjustJSON
StoredRequest = RequestJSON | AdjustRequest
StoredResponse = ScoreResponse | AdjustResponse


def hand_record(hand: Any) -> HandRecord:
    """A hand row (the ORM object or a Core row of its columns) as `HandRecord`. Its payments by player
    are those by seat of its response paid to whoever sat there (`seat_players`): what its payment rows
    hold, read without them."""
    payments = payments_of(hand.response)
    seat_players = {as_seat(seat): int(pid) for seat, pid in hand.seat_players.items()}
    return HandRecord(
        id=row_id(hand),
        session_id=hand.session_id,
        seq=hand.seq,
        number=hand.number,
        kind=hand.kind,
        text=hand.text,
        entry=cast(Stored, dict(hand.entry)),  # as written: the builder's entry, or an adjustment's
        request=cast(StoredRequest, dict(hand.request)),
        response=cast(StoredResponse, dict(hand.response)),
        payments=payments,
        player_payments={seat_players[seat]: amount for seat, amount in payments.items()},
        before=DealerState.from_json(hand.state_before),
        after=DealerState.from_json(hand.state_after),
        note=hand.note,
        recorded_by=hand.recorded_by,
        recorded_at=aware(hand.recorded_at),
        source_key=hand.source_key,
        voided=hand.voided,
        voided_by=hand.voided_by,
        voided_at=aware(hand.voided_at) if hand.voided_at else None,
        replaced_by=hand.replaced_by,
        replaces=hand.replaces,
        seat_players=seat_players,
    )


def hand_records(hands: Iterable[Any]) -> list[HandRecord]:
    """`hand_record` of each row."""
    return [hand_record(h) for h in hands]


def preview_json(preview: HandPreview) -> dict[str, Any]:
    """A preview as the JSON a pending entry stores."""
    return {
        "session_id": preview.session_id,
        "kind": preview.kind,
        "entry": preview.entry,
        "request": preview.request,
        "response": preview.response,
        "payments": preview.payments,
        "player_payments": {str(k): v for k, v in preview.player_payments.items()},
        "before": preview.before.to_json(),
        "after": preview.after.to_json(),
        "note": preview.note,
        "seats": preview.seats,
    }


def preview_from_json(obj: dict[str, Any]) -> HandPreview:
    """Inverse of `preview_json`."""
    return HandPreview(
        session_id=int(obj["session_id"]),
        kind=obj["kind"],
        entry=obj["entry"],
        request=obj["request"],
        response=obj["response"],
        payments={k: int(v) for k, v in obj["payments"].items()},
        player_payments={int(k): int(v) for k, v in obj["player_payments"].items()},
        before=DealerState.from_json(obj["before"]),
        after=DealerState.from_json(obj["after"]),
        note=obj.get("note"),
        seats={as_seat(k): int(v) for k, v in obj.get("seats", {}).items()},
    )


def pending_info(pending: PendingEntry | Any, chat_id: int) -> PendingInfo:
    """A pending row (the ORM object, a Core row or `written`) as `PendingInfo`."""
    return PendingInfo(
        id=pending.id,
        session_id=pending.session_id,
        chat_id=chat_id,
        kind=pending.kind,
        payload=cast(Payload, dict(pending.payload)),  # as `check_payload` let it be written
        text=pending.text,
        preview=preview_from_json(pending.preview) if pending.preview else None,
        created_by=pending.created_by,
        created_at=aware(pending.created_at),
        expires_at=aware(pending.expires_at),
        message_id=pending.message_id,
        status=pending.status,
        hand_id=pending.hand_id,
    )
