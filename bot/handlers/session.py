"""Table session commands: /newgame (lobby with a Join button), /join, /seat, /dealer, /end."""

from __future__ import annotations

import logging

from bot.handlers.common import Refusal, Turn, button, command
from bot.handlers.recording import keep_alive
from bot.handlers.table import JoinPress, refresh_card, unpin_card
from bot.ledger.results import SEATS, SessionInfo

log = logging.getLogger(__name__)

SEAT_WORDS = {
    "e": "E",
    "s": "S",
    "w": "W",
    "n": "N",
    "east": "E",
    "south": "S",
    "west": "W",
    "north": "N",
    "东": "E",
    "南": "S",
    "西": "W",
    "北": "N",
    "東": "E",
}


def parse_seat(word: str) -> str:
    """A seat letter from E/S/W/N, east…, 东南西北 or 東 (Refusal otherwise).

    >>> parse_seat("東"), parse_seat("south")
    ('E', 'S')
    """
    seat = SEAT_WORDS.get(word.strip().lower())
    if seat is None:
        raise Refusal("err.bad_seat", usage=True, value=word)
    return seat


def parse_newgame(text: str) -> tuple[str | None, int]:
    """`[rules] [stake]` in either order: `苏州 5`, `5`, `suzhou-anhui`. Refusal on a bad word."""
    from scoring import ScoringError, resolve_rules

    rules: str | None = None
    stake = 1
    for word in text.split():
        if word.lstrip("+-").isdigit():
            stake = int(word)
            if stake <= 0:
                raise Refusal("err.bad_stake", value=word)
            continue
        if rules is not None:
            raise Refusal("err.too_many_args", usage=True, value=word)
        try:
            rules = resolve_rules(word)
        except (ScoringError, KeyError, ValueError):
            if any(ch.isdigit() for ch in word):
                raise Refusal("err.bad_stake", value=word) from None
            raise Refusal("err.unknown_rules", value=word) from None
    return rules, stake


@command("newgame")
async def newgame(turn: Turn) -> None:
    """/newgame [rules] [stake]: open the table and post its card with a Join button."""
    rules, stake = parse_newgame(turn.text)
    session = await turn.run(turn.ledger.open_session, turn.chat_id, by=turn.user, rules=rules, stake=stake)
    await refresh_card(turn, session, new=True)
    keep_alive(turn, session)


async def _announce_seat(turn: Turn, session: SessionInfo, player_name: str, seat: str, guest: bool) -> None:
    key = "seat.guest_joined" if guest else "seat.joined"
    text = turn.t(key, player=player_name, wind=turn.wind(seat))
    if len(session.seats) == len(SEATS):
        text += "\n" + turn.t("lobby.ready")
    await turn.say(text)
    await refresh_card(turn, session)


@command("join")
async def join(turn: Turn) -> None:
    """/join takes the next free seat; /join <name> seats a guest without a Telegram account."""
    guest = turn.text or None
    if guest is not None and guest.startswith("@"):
        raise Refusal("err.guest_name", usage=True, value=guest)
    if guest is not None:
        session = await turn.require_session()
        if session.seats:  # the first guest may be seated by whoever opened the table
            await turn.require_writer(session)
        change = await turn.run(turn.ledger.join, turn.chat_id, guest_name=guest)
    else:
        change = await turn.run(turn.ledger.join, turn.chat_id, turn.user)
    assert change.seat is not None
    await _announce_seat(turn, change.session, change.player.name, change.seat, guest is not None)


@button
async def join_pressed(turn: Turn, data: JoinPress) -> None:
    """The lobby's Join button: the same as /join by the presser."""
    session = await turn.require_session()
    if session.id != data.session_id:
        raise Refusal("err.flow_stale")
    change = await turn.run(turn.ledger.join, turn.chat_id, turn.user)
    assert change.seat is not None
    await turn.answer(turn.t("seat.joined", player=change.player.name, wind=turn.wind(change.seat)))
    await _announce_seat(turn, change.session, change.player.name, change.seat, False)


@command("seat")
async def seat(turn: Turn) -> None:
    """/seat shows the table; /seat <player> <seat> moves a player before the first hand."""
    words = turn.text.split()
    session = await turn.require_session()
    if not words:
        await turn.say(seats_text(turn, session))
        return
    if len(words) != 2:
        raise Refusal(
            "err.missing_args" if len(words) < 2 else "err.too_many_args",
            usage=True,
            value=" ".join(words[2:]),
        )
    await turn.require_writer(session)
    target = parse_seat(words[1])
    player = await turn.run(turn.ledger.find_player, turn.chat_id, words[0])
    change = await turn.run(turn.ledger.move, turn.chat_id, player.id, target)
    await turn.reply("seat.moved", player=change.player.name, wind=turn.wind(target))
    await refresh_card(turn, change.session)


def seats_text(turn: Turn, session: SessionInfo) -> str:
    """The /seat answer: rules, stake, seats, dealer, 连庄, hand number, options."""
    from bot.handlers.rules import options_summary
    from bot.render import rules_name, seats_block, state_line

    lines = [turn.t("seat.header", rules=rules_name(turn.lang, session.rules), stake=session.stake)]
    lines += seats_block(turn.lang, session)
    lines.append(state_line(turn.lang, session))
    lines.append(turn.t("seat.options", options=options_summary(turn.lang, session.rules, session.options)))
    return "\n".join(lines)


@command("dealer")
async def dealer(turn: Turn) -> None:
    """/dealer <seat|player>: choose the first dealer before the first hand."""
    words = turn.text.split()
    if len(words) != 1:
        raise Refusal(
            "err.missing_args" if not words else "err.too_many_args", usage=True, value=" ".join(words[1:])
        )
    session = await turn.require_session()
    await turn.require_writer(session)
    word = words[0]
    target = SEAT_WORDS.get(word.lower())
    if target is None:
        target = await turn.run(turn.ledger.find_seat, turn.chat_id, word)
    session = await turn.run(turn.ledger.set_dealer, turn.chat_id, target)
    player = session.seats.get(target)
    await turn.reply("seat.dealer_set", wind=turn.wind(target), player=player.name if player else "—")
    await refresh_card(turn, session)


@command("end")
async def end(turn: Turn) -> None:
    """/end: close the session and post the summary card, chart and CSV."""
    from bot.jobs import cancel_idle_end
    from bot.summary.post import post_summary

    session = await turn.require_session()
    await turn.require_writer(session)
    summary = await turn.run(turn.ledger.end_session, turn.chat_id, by=turn.user, session_id=session.id)
    cancel_idle_end(turn.context.application, turn.chat_id)
    await refresh_card(turn, summary.session)
    await unpin_card(turn, session.id)
    await post_summary(turn.context.bot, turn.ledger, turn.chat_id, session.id, lang=turn.lang)
