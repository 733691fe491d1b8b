"""The answers to the questions an entry can get before its preview, a button per seat: who deals the first
hand (`recording.ask_dealer`), and which player a name in a typed /hu means when it fits several
(`recording.ask_name`). The press answers it, and the same entry goes on in the question's message, as if
its recorder had sent it again: to its preview, or to the next question."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import replace

from bot.buttons import DealerPress, NamePress
from bot.handlers.callbacks import button
from bot.handlers.card import show_card
from bot.handlers.permissions import require
from bot.handlers.recording import record_hand, record_typed
from bot.handlers.turn import Turn
from bot.ledger import AnsweredEntry, UserRef, payload_of, pending_id_for
from bot.ledger.errors import NotFound
from bot.ledger.play import groups, pending, recording
from bot.render.errors import USER_ERRORS, Refusal, error_text


async def go_on(
    turn: Turn, answered: AnsweredEntry, kind: str, text: str, step: Callable[[Turn], Awaitable[None]]
) -> bool:
    """Take the answered entry on (`step`, with `text` as if typed) in the pressed message; False when a
    repeated press finds it gone on already (answered "handled already"). When it cannot go on (the rules
    refuse it, the table changed), the message says why."""
    waiting, message_id = answered.entry, turn.pressed_message_id
    key = f"{kind}:{waiting.id}"
    if not answered.created and await shown_already(turn, key):
        await turn.answer(turn.t("err.gone"))
        return False
    # The entry's own recorder; none: the group itself wrote it (an anonymous admin: a channel writes none).
    recorder: UserRef | None = None
    on_behalf_of: int | None = turn.chat_id
    if waiting.created_by is not None:
        player = await turn.read(groups.get_player, waiting.created_by)
        if player.telegram_id is not None:
            recorder, on_behalf_of = UserRef(player.telegram_id, player.display_name, player.username), None
    origin = replace(turn.origin, user=recorder, key=key, text=text, on_behalf_of=on_behalf_of)
    resumed = turn.resumed(replace(turn.state, session=answered.session), origin)
    try:
        await step(resumed)
    except USER_ERRORS as error:
        if message_id is not None:
            await turn.edit(message_id, error_text(turn.lang, error))
        raise
    return answered.created  # False: the process stopped before it went on, and it has now


async def shown_already(turn: Turn, key: str) -> bool:
    """Whether the entry went on under `key` already (a repeated press)."""
    try:
        await turn.read(pending.get_pending, pending_id_for(key))
    except NotFound:
        return False
    return True


@button(DealerPress.parse)
async def dealer_pressed(turn: Turn, press: DealerPress) -> None:
    """A seat for a hand entered before the first dealer: it deals (who may press: as /dealer), and the
    entry goes on to its preview. Only in the chat, under the message, and on an entry of this kind (the
    ledger checks all three); a repeat changes nothing."""
    session = turn.require_session()
    await require(turn, "dealer", session)
    ledger, chat_id, message_id = turn.ledger, turn.chat_id, turn.pressed_message_id
    try:
        answered = await turn.run(
            recording.choose_dealer,
            ledger,
            press.pending_id,
            press.seat,
            chat_id=chat_id,
            message_id=message_id,
        )
    except NotFound:
        raise Refusal("err.flow_stale") from None
    if answered.created:
        await show_card(turn, answered.session)
    entry = payload_of(answered.entry, "dealer")["entry"]

    async def step(resumed: Turn) -> None:
        await record_hand(resumed, entry, flow_message=message_id)

    if await go_on(turn, answered, "dealer", answered.entry.text or "", step):
        dealer = answered.session.seats.get(press.seat)
        name = dealer.name if dealer else "—"
        await turn.answer(turn.t("seat.dealer_set", wind=turn.wind(press.seat), player=name))


def with_seat(text: str, token: str, seat_word: str) -> str:
    """The typed entry with the name it asked about (its first whole-word use) written as the seat."""
    found = re.search(rf"(?<!\S){re.escape(token)}(?!\S)", text) or re.search(re.escape(token), text)
    if found is None:
        raise Refusal("err.flow_stale")
    return " ".join(f"{text[: found.start()]} {seat_word} {text[found.end() :]}".split())


@button(NamePress.parse)
async def name_pressed(turn: Turn, press: NamePress) -> None:
    """The player a name in a typed /hu means (one of those it fits; who may press: who may record): the
    entry is read again with that seat, on to its preview (or to the question about its next such name).
    The same checks as the dealer's seats."""
    session = turn.require_session()
    await require(turn, "record", session)
    ledger, chat_id, message_id = turn.ledger, turn.chat_id, turn.pressed_message_id
    try:
        answered = await turn.run(
            recording.choose_player,
            ledger,
            press.pending_id,
            press.seat,
            chat_id=chat_id,
            message_id=message_id,
        )
    except NotFound:
        raise Refusal("err.flow_stale") from None
    payload = payload_of(answered.entry, "name")
    text = with_seat(payload["text"], payload["token"], turn.wind(press.seat))

    async def step(resumed: Turn) -> None:
        await record_typed(resumed, answered.session, flow_message=message_id)

    if await go_on(turn, answered, "name", text, step):
        await turn.answer()
