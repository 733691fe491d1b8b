"""Table session commands: /newgame (lobby with a Join button), /join, /seat, /dealer, /end (asks first)."""

from __future__ import annotations

from bot.grammar.errors import GrammarError
from bot.grammar.lexer import parse_number
from bot.handlers.buttons import EndPress, JoinPress
from bot.handlers.common import Refusal, Turn, button, command
from bot.handlers.rules import options_summary
from bot.handlers.table import ask_end, end_pressed, show_card
from bot.ledger import SEATS, SessionInfo
from bot.ledger.tables import MAX_STAKE
from bot.render import rules_name, seats_block, state_line
from scoring import ScoringError, resolve_rules
from scoring.seats import parse_seat


def seat_word(word: str) -> str:
    """A seat letter from any seat word: E/S/W/N, east…, 东南西北, 東, 东家 … (Refusal otherwise)."""
    seat = parse_seat(word)
    if seat is None:
        raise Refusal("err.bad_seat", usage=True, value=word)
    return seat


def parse_newgame(text: str) -> tuple[str | None, int]:
    """`[rules] [stake]` in either order: `苏州 5`, `5`, `suzhou-anhui`. Refusal on a bad word."""
    rules: str | None = None
    stake = 1
    for word in text.split():
        if any(ch.isnumeric() for ch in word) or word[:1] in "+-":  # 5, 五, and ² ① +-5 1.5 refused
            try:
                stake = parse_number(word, low=1, high=MAX_STAKE)
            except GrammarError:
                raise Refusal("err.bad_stake", value=word, limit=MAX_STAKE) from None
            continue
        if rules is not None:
            raise Refusal("err.too_many_args", usage=True, value=word)
        try:
            rules = resolve_rules(word)
        except (ScoringError, KeyError, ValueError):
            raise Refusal("err.unknown_rules", value=word) from None
    return rules, stake


@command("newgame")
async def newgame(turn: Turn) -> None:
    """/newgame [rules] [stake]: open the table and post its card with a Join button."""
    rules, stake = parse_newgame(turn.text)
    session = await turn.run(
        turn.ledger.open_session, turn.chat_id, by=turn.user, rules=rules, stake=stake, key=turn.source_key
    )
    await show_card(turn, session, new=True)


async def _announce_seat(turn: Turn, session: SessionInfo, player_name: str, seat: str, guest: bool) -> None:
    key = "seat.guest_joined" if guest else "seat.joined"
    text = turn.t(key, player=player_name, wind=turn.wind(seat))
    if len(session.seats) == len(SEATS):
        text += "\n" + turn.t("lobby.ready")
    await turn.say(text)
    await show_card(turn, session)


@command("join")
async def join(turn: Turn) -> None:
    """/join takes the next free seat; /join <name> seats a guest without a Telegram account."""
    guest = turn.text or None
    if guest is not None and guest.startswith("@"):
        raise Refusal("err.guest_name", usage=True, value=guest)
    if guest is not None:
        await turn.require_guest_seater(turn.require_session(), guest)  # opener, seated or admin
        change = await turn.run(turn.ledger.join, turn.chat_id, guest_name=guest, key=turn.source_key)
    else:
        change = await turn.run(turn.ledger.join, turn.chat_id, turn.person(), key=turn.source_key)
    assert change.seat is not None
    await _announce_seat(turn, change.session, change.player.name, change.seat, guest is not None)


@button(EndPress.parse)
async def end_question_pressed(turn: Turn, press: EndPress) -> None:
    """/end's question: [End and settle] or [Keep playing] (`table.end_pressed`)."""
    await end_pressed(turn, press)


@button(JoinPress.parse)
async def join_pressed(turn: Turn, press: JoinPress) -> None:
    """The lobby's Join button: the same as /join by the presser, at this chat's open table only."""
    await turn.own_session(press.session_id)
    change = await turn.run(turn.ledger.join, turn.chat_id, turn.user, key=turn.source_key)
    assert change.seat is not None
    await turn.answer(turn.t("seat.joined", player=change.player.name, wind=turn.wind(change.seat)))
    await _announce_seat(turn, change.session, change.player.name, change.seat, False)


@command("seat")
async def seat(turn: Turn) -> None:
    """/seat shows the table; /seat <player> <seat> moves a player before the first hand."""
    words = turn.text.split()
    session = turn.require_session()
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
    target = seat_word(words[1])
    player = await turn.run(turn.ledger.find_player, turn.chat_id, words[0])
    change = await turn.run(turn.ledger.move, turn.chat_id, player.id, target, key=turn.source_key)
    await turn.reply("seat.moved", player=change.player.name, wind=turn.wind(target))
    await show_card(turn, change.session)


def seats_text(turn: Turn, session: SessionInfo) -> str:
    """The /seat answer: rules, stake, seats, dealer, 连庄, hand number, options."""
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
    await turn.writable_session()
    target = parse_seat(words[0])
    if target is None:
        target = await turn.run(turn.ledger.find_seat, turn.chat_id, words[0])
    session = await turn.run(turn.ledger.set_dealer, turn.chat_id, target, key=turn.source_key)
    player = session.seats.get(target)
    await turn.reply("seat.dealer_set", wind=turn.wind(target), player=player.name if player else "—")
    await show_card(turn, session)


@command("end")
async def end(turn: Turn) -> None:
    """/end: the standings and a Confirm button; the press closes the session and posts the summary card,
    chart and CSV (`table.end_pressed`)."""
    if turn.text:
        raise Refusal("err.too_many_args", usage=True, value=turn.text)
    await ask_end(turn, await turn.writable_session())
