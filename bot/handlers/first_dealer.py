"""A hand entered before the first dealer goes on once a seat is pressed under its question
(`recording.ask_dealer`): the seat deals, as /dealer would set it, and the same entry goes on to its
preview in the question's message, as if its recorder had sent it again."""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot.handlers.buttons import DealerPress
from bot.handlers.callbacks import button
from bot.handlers.card import show_card
from bot.handlers.permissions import require
from bot.handlers.recording import record_hand
from bot.handlers.turn import Turn
from bot.ledger import UserRef, pending_id_for
from bot.ledger.errors import NotFound
from bot.render.errors import USER_ERRORS, Refusal, error_text


@dataclass
class ResumedTurn(Turn):
    """A hand entry going on once its dealer is chosen: the press's chat and message, the entry's own
    recorder and text, and a key of its own (a repeated press finds the preview made already)."""

    key: str = ""
    shown: str = ""
    recorder: UserRef | None = None

    @property
    def source_key(self) -> str:
        return self.key

    @property
    def text(self) -> str:
        return self.shown

    @property
    def user(self) -> UserRef | None:
        return self.recorder


async def shown_already(turn: Turn, key: str) -> bool:
    """Whether the entry went on to its preview under `key` already (a repeated press)."""
    try:
        await turn.run(turn.ledger.get_pending, pending_id_for(key))
    except NotFound:
        return False
    return True


@button(DealerPress.parse)
async def dealer_pressed(turn: Turn, press: DealerPress) -> None:
    """A seat for a hand entered before the first dealer: it deals (who may press: as /dealer), and the
    entry goes on to its preview in the same message, as if sent again by its recorder. Only in the chat,
    under the message, and on an entry of this kind (the ledger checks all three); a repeat changes
    nothing. When the entry cannot go on (the rules refuse it, the table changed), the message says why."""
    session = turn.require_session()
    await require(turn, "dealer", session)
    ledger, chat_id, message_id = turn.ledger, turn.chat_id, turn.pressed_message_id
    try:
        choice = await turn.run(
            ledger.choose_dealer, press.pending_id, press.seat, chat_id=chat_id, message_id=message_id
        )
    except NotFound:
        raise Refusal("err.flow_stale") from None
    waiting = choice.entry
    key = f"dealer:{waiting.id}"
    if choice.created:
        await show_card(turn, choice.session)
    elif await shown_already(turn, key):
        await turn.answer(turn.t("err.gone"))  # a repeated press: its preview is in the chat
        return
    recorder = None
    if waiting.created_by is not None:
        player = await turn.run(turn.ledger.get_player, waiting.created_by)
        if player.telegram_id is not None:
            recorder = UserRef(player.telegram_id, player.display_name, player.username)
    resumed = ResumedTurn(
        turn.update, turn.context, replace(turn.state, session=choice.session), turn.command,
        key=key, shown=waiting.text or "", recorder=recorder,
    )  # fmt: skip
    try:
        await record_hand(resumed, waiting.payload["entry"], flow_message=message_id)
    except USER_ERRORS as error:
        if message_id is not None:
            await turn.edit(message_id, error_text(turn.lang, error))
        raise
    if not choice.created:  # the process stopped before the preview was shown: shown now
        return
    dealer = choice.session.seats.get(press.seat)
    name = dealer.name if dealer else "—"
    await turn.answer(turn.t("seat.dealer_set", wind=turn.wind(press.seat), player=name))
