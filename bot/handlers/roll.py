"""/roll: two Telegram dice (sendDice) for the coming hand: first dealer on hand one, 豹子 on a double."""

from __future__ import annotations

from bot.handlers.callbacks import command
from bot.handlers.card import show_card
from bot.handlers.permissions import writable_session
from bot.handlers.turn import Turn
from bot.ledger import SEATS
from bot.ledger.play import sessions
from bot.render.errors import Refusal
from bot.render.items import doubling_marks
from scoring.seats import Seat

DICE = "🎲"


def dealer_by_dice(total: int, start: Seat = "E") -> Seat:
    """Count the dice total round the table from `start` (1 = start itself), the usual way to pick a seat.

    >>> dealer_by_dice(2), dealer_by_dice(5), dealer_by_dice(12)
    ('S', 'E', 'N')
    """
    return SEATS[(SEATS.index(start) + total - 1) % len(SEATS)]


@command("roll")
async def roll(turn: Turn) -> None:
    """/roll: send two dice; their sum seats the first dealer before hand one, a double marks 豹子. One
    roll per hand: the first one stands (a second is refused, so nobody rolls again until a 豹子 comes
    up); a redelivered /roll says nothing."""
    if turn.text:
        raise Refusal("err.too_many_args", usage=True, value=turn.text)
    session = await writable_session(turn, "roll")
    if not await turn.run(turn.ledger.claim, turn.source_key):
        return
    hand = session.state.hand_number
    if not await turn.run(turn.ledger.claim, f"roll:{session.id}:{hand}"):
        raise Refusal("err.rolled_already", n=hand)
    bot = turn.context.bot
    first = await bot.send_dice(turn.chat_id, emoji=DICE, message_thread_id=turn.thread_id)
    second = await bot.send_dice(turn.chat_id, emoji=DICE, message_thread_id=turn.thread_id)
    assert first.dice is not None and second.dice is not None
    a, b = first.dice.value, second.dice.value
    lines = [turn.t("roll.result", a=a, b=b, total=a + b)]
    changed = False
    if not session.dealer_known:
        seat = dealer_by_dice(a + b)
        session = await turn.run(
            sessions.set_dealer, turn.ledger, turn.chat_id, seat, key=f"{turn.source_key}:dealer"
        )
        player = session.seats.get(seat)
        lines.append(turn.t("roll.dealer", wind=turn.wind(seat), player=player.name if player else "—"))
        changed = True
    double = a == b
    if double != session.state.baozi:
        session = await turn.run(
            sessions.mark_baozi, turn.ledger, turn.chat_id, double, key=f"{turn.source_key}:baozi"
        )
        changed = True
    if double:
        lines.append(turn.t("roll.baozi" if doubling_marks(turn.lang, session) else "roll.baozi_none"))
    await turn.say("\n".join(lines))
    if changed:  # an unchanged card is not edited (Telegram refuses an edit that changes nothing)
        await show_card(turn, session)
