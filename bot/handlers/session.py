"""Table session commands: /newgame (lobby with a Join button), /join, /seat, /dealer; who plays mid-session
(/sub: a substitute takes a seat from the next hand on); the end of the night (/end asks, a Confirm button
ends it and posts the summary)."""

from __future__ import annotations

import asyncio
import logging

from telegram import Chat, InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.ext import ContextTypes

from bot.buttons import GuestPress, JoinPress, SeatWhoPress
from bot.grammar.errors import GrammarError
from bot.grammar.lexer import parse_number
from bot.handlers.callbacks import button, command
from bot.handlers.card import show_card
from bot.handlers.permissions import (
    is_admin,
    is_grammar_word,
    own_session,
    person,
    require,
    require_guest_seater,
    writable_session,
)
from bot.handlers.rules import options_summary
from bot.handlers.turn import Turn, ledger_of, user_ref
from bot.ledger import SEATS, PlayerInfo, SeatChange, SessionInfo, UserRef
from bot.ledger.errors import (
    AmbiguousPlayer,
    ForeignButton,
    PlayerNotSeated,
    TableFull,
    UnknownPlayer,
)
from bot.ledger.play import groups, seating, sessions
from bot.ledger.play.groups import check_guest_name, clean_name
from bot.ledger.play.sessions import MAX_STAKE
from bot.ledger.storage.db import storage_failure
from bot.render import (
    rules_name,
    seats_block,
    stake_text,
    state_line,
)
from bot.render.errors import Refusal
from scoring import ScoringError, resolve_rules
from scoring.rules import SUZHOU_ANHUI, RuleSetId
from scoring.seats import Seat, parse_seat

log = logging.getLogger(__name__)


def seat_word(word: str) -> Seat:
    """A seat letter from any seat word: E/S/W/N, east…, 东南西北, 東, 东家 … (Refusal otherwise)."""
    seat = parse_seat(word)
    if seat is None:
        raise Refusal("err.bad_seat", usage=True, value=word)
    return seat


def parse_newgame(text: str) -> tuple[RuleSetId | None, int]:
    """`[rules] [stake]` in either order: `苏州 5`, `5`, `suzhou-anhui`. Refusal on a bad word: a second
    rule set or number is one too many; beside a rule set, a word that is none is a bad stake (named as
    that rule set names it: 每花, 底分); alone, an unknown rule set."""
    rules: RuleSetId | None = None
    words = text.split()
    for word in words:
        found = resolve_rules_or_none(word)
        if found is None:
            continue
        if rules is not None:
            raise Refusal("err.too_many_args", usage=True, value=word)
        rules = found
    stake: int | None = None
    bad_stake = "err.bad_stake_count" if rules == SUZHOU_ANHUI else "err.bad_stake"
    for word in words:
        numeric = any(ch.isnumeric() for ch in word) or word[:1] in "+-"  # 5, 五, and ² ① +-5 1.5 refused
        if not numeric:
            if rules is None:
                raise Refusal("err.unknown_rules", value=word)
            if resolve_rules_or_none(word) is None:
                raise Refusal(bad_stake, value=word, limit=MAX_STAKE)
            continue
        if stake is not None:
            raise Refusal("err.too_many_args", usage=True, value=word)
        try:
            stake = parse_number(word, low=1, high=MAX_STAKE)
        except GrammarError as exc:
            if exc.code == "odd_digit":  # the one message for ², ①, 𝟗 wherever they are typed
                raise
            raise Refusal(bad_stake, value=word, limit=MAX_STAKE) from None
    return rules, stake if stake is not None else 1


def resolve_rules_or_none(word: str) -> RuleSetId | None:
    """The rule set a word names, else None."""
    try:
        return resolve_rules(word)
    except (ScoringError, KeyError, ValueError):
        return None


@command("newgame")
async def newgame(turn: Turn) -> None:
    """/newgame [rules] [stake]: open the table and post its card with a Join button."""
    rules, stake = parse_newgame(turn.text)
    session = await turn.run(
        sessions.open_session,
        turn.ledger,
        turn.chat_id,
        by=turn.user,
        rules=rules,
        stake=stake,
        key=turn.source_key,
    )
    await show_card(turn, session, new=True)


async def _announce_seat(turn: Turn, session: SessionInfo, player_name: str, seat: Seat, guest: bool) -> None:
    key = "seat.guest_joined" if guest else "seat.joined"
    text = turn.t(key, player=player_name, wind=turn.wind(seat))
    if len(session.seats) == len(SEATS):  # the dealer's hint only while no dealer is chosen
        text += "\n" + turn.t("lobby.ready_dealt" if session.dealer_known else "lobby.ready")
    await turn.say(text)
    await show_card(turn, session)


@command("join")
async def join(turn: Turn) -> None:
    """/join takes the next free seat; /join <name> seats the member of the group of that name (as that
    member: never a second 刘洋 beside the real one) or a guest the group already has; a name the group
    does not know is asked first (`ask_guest`): a guest only on the press."""
    guest = turn.text or None
    if guest is not None and guest.startswith("@"):
        raise Refusal("err.guest_name", usage=True, value=guest)
    member: UserRef | None = None
    if guest is not None:
        session = turn.require_session()
        await require_guest_seater(turn, session, guest)  # opener, seated or admin
        if len(session.seats) >= len(SEATS):  # said before asking who 老李 is: there is no seat for them
            raise TableFull("all four seats are taken")
        if parse_seat(guest) is None:  # a seat word is no name (the ledger says so)
            try:
                member, guest, known = await _newcomer(turn, guest)
            except AmbiguousPlayer:
                await ask_which(turn, session, turn.text)
                return
            if not known:
                await ask_guest(turn, session, turn.text)
                return
    if guest is not None:
        change = await turn.run(
            seating.join, turn.ledger, turn.chat_id, guest_name=guest, by=turn.user, key=turn.source_key
        )
    else:
        who = member or person(turn)
        change = await turn.run(seating.join, turn.ledger, turn.chat_id, who, key=turn.source_key)
    assert change.seat is not None
    await _announce_seat(turn, change.session, change.player.name, change.seat, guest is not None)


@button(JoinPress.parse)
async def join_pressed(turn: Turn, press: JoinPress) -> None:
    """The lobby's Join button: the same as /join by the presser, at this chat's open table only."""
    await own_session(turn, press.session_id)
    change = await turn.run(seating.join, turn.ledger, turn.chat_id, turn.user, key=turn.source_key)
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
    await require(turn, "move", session)
    target = seat_word(words[1])
    player = (await turn.read(groups.find_player, turn.chat_id, words[0]))[0]
    before = session.seats.get(target)
    change = await turn.run(seating.move, turn.ledger, turn.chat_id, player.id, target, key=turn.source_key)
    other = next(
        (seat for seat, p in change.session.seats.items() if before is not None and p.id == before.id), None
    )
    if before is not None and before.id != player.id and other is not None:  # a swap: both are said
        await turn.reply(
            "seat.swapped",
            player=change.player.name,
            wind=turn.wind(target),
            other=before.name,
            other_wind=turn.wind(other),
        )
    else:
        await turn.reply("seat.moved", player=change.player.name, wind=turn.wind(target))
    await show_card(turn, change.session)


def seats_text(turn: Turn, session: SessionInfo) -> str:
    """The /seat answer: rules, stake, seats, dealer, 连庄, hand number, options."""
    lines = [
        turn.t(
            "seat.header",
            rules=rules_name(turn.lang, session.rules),
            stake=stake_text(turn.lang, session.rules, session.stake),
        )
    ]
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
    await writable_session(turn, "dealer")
    target = parse_seat(words[0])
    if target is None:
        try:
            seated: Seat = await turn.read(groups.find_seat, turn.chat_id, words[0])
        except (UnknownPlayer, PlayerNotSeated):  # 中, 1p: the dealer is a seat or someone sitting at one
            raise Refusal("err.dealer_not_seat", value=words[0]) from None
        target = seated
    session = await turn.run(sessions.set_dealer, turn.ledger, turn.chat_id, target, key=turn.source_key)
    player = session.seats.get(target)
    await turn.reply("seat.dealer_set", wind=turn.wind(target), player=player.name if player else "—")
    await show_card(turn, session)


# ---- /sub ------------------------------------------------------------------------------------------


@command("sub")
async def sub(turn: Turn) -> None:
    """/sub <seat> <player or guest>: from the next hand on another person sits at the seat; who leaves
    keeps their own totals, and the card, /score and the summary show both under the seat. `/sub <seat>`
    alone: the sender takes the seat. Either way only whom `POLICY["substitute"]` names (seated players and
    admins): a bystander cannot sit down in someone's seat by themselves."""
    words = turn.text.split()
    if not words or len(words) > 2:
        key = "err.missing_args" if not words else "err.too_many_args"
        raise Refusal(key, usage=True, value=" ".join(words[2:]))
    session = turn.require_session()
    seat = parse_seat(words[0])
    if seat is None:
        raise Refusal("err.bad_seat", usage=True, value=words[0])
    await require(turn, "substitute", session, wind=turn.wind(seat))
    if len(words) == 1:  # the sender (an admin: a seated player already has a seat) takes the seat
        change, gone = await turn.run(
            seating.substitute, turn.ledger, turn.chat_id, seat, person(turn), key=turn.source_key
        )
    else:
        try:
            user, guest, known = await _newcomer(turn, words[1])
        except AmbiguousPlayer:
            await ask_which(turn, session, words[1], seat)
            return
        if guest is not None and is_grammar_word(guest):  # what /join refuses, /sub refuses
            raise Refusal("err.guest_grammar_word", name=guest)
        if not known:
            if seat not in session.seats:  # nobody to take over from: refused before any question
                raise PlayerNotSeated(f"seat {seat} is empty", seat=seat, name=words[0])
            await ask_guest(turn, session, words[1], seat)
            return
        change, gone = await turn.run(
            seating.substitute,
            turn.ledger,
            turn.chat_id,
            seat,
            user,
            guest_name=guest,
            by=turn.user,
            key=turn.source_key,
        )
    await _announce_sub(turn, change, gone, seat)


async def _announce_sub(turn: Turn, change: SeatChange, gone: PlayerInfo, seat: Seat) -> None:
    key = "seat.sub_guest" if change.player.is_guest else "seat.sub"  # a guest is said to be one
    await turn.reply(key, wind=turn.wind(seat), left=gone.name, player=change.player.name)
    await show_card(turn, change.session)


async def _newcomer(turn: Turn, word: str) -> tuple[UserRef | None, str | None, bool]:
    """Who /join or /sub seats: a person of the group (@username or name: their Telegram account, or the
    guest of that name), else a guest of that name, and whether the group knows them (False: a new guest,
    seated only once asked; never an unknown @username)."""
    try:
        player = (await turn.read(groups.find_player, turn.chat_id, word))[0]
    except UnknownPlayer:
        if word.startswith("@"):
            raise Refusal("err.sub_unknown_user", value=word) from None
        return None, word, False
    if player.telegram_id is None:
        return None, player.display_name, True
    return UserRef(player.telegram_id, player.display_name, player.username), None, True


# ---- who the group has: people the bot saw write, and guests, once asked ---------------------------------

SEEN = "people_seen"  # bot_data: (chat, user, name, @username) this process has told the ledger
SEEN_LIMIT = 4096


async def chat_message_seen(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A message in a group that is no command (the bot sees those with privacy mode off, or as a group
    admin: README): its sender becomes a member the group knows, so that `/join Eve` or `/sub 西 Eve`
    seats the real Eve who only chatted, never a guest beside her. Told to the ledger once per process
    for each name and @username a person shows; a failure is logged, never answered in the chat."""
    chat, user = update.effective_chat, user_ref(update)
    sender = update.effective_user
    if chat is None or chat.type not in (Chat.GROUP, Chat.SUPERGROUP) or user is None:
        return
    if sender is None or sender.is_bot:
        return
    seen: dict[tuple[int, int, str, str | None], None] = context.bot_data.setdefault(SEEN, {})
    mark = (chat.id, user.telegram_id, user.display_name, user.username)
    if mark in seen:
        return
    try:
        ledger = ledger_of(context)
        await asyncio.to_thread(groups.register, ledger, chat.id, user)
    except Exception as exc:  # the database down: a side effect of chat, the next message tries again
        if not storage_failure(exc):
            raise
        log.warning("could not remember %s in chat %s: %s", user.telegram_id, chat.id, type(exc).__name__)
        return
    seen[mark] = None
    if len(seen) > SEEN_LIMIT:
        for old in list(seen)[: len(seen) - SEEN_LIMIT]:
            del seen[old]


async def ask_guest(turn: Turn, session: SessionInfo, name: str, seat: Seat | None = None) -> None:
    """The group knows no member called `name`: say so, and how a member sits down herself (/join, or
    /sub <seat>), with [按客人 name 入座] [取消] for whoever typed the command (or an admin). A name no
    guest may have is refused first, so the button never offers what the ledger refuses."""
    check_guest_name(name, ())
    name = clean_name(name)  # as the ledger will store and show it
    asker = turn.user.telegram_id if turn.user is not None else 0  # 0: an anonymous admin (any admin)
    press = GuestPress(session.id, asker, name, seat)
    if not press.fits:  # a name of 4-byte characters too long for a button's data
        raise Refusal("err.guest_name_unaskable", name=name)
    cancel = GuestPress(session.id, asker, None)
    markup = InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(turn.t("seat.guest_seat", name=name), callback_data=press.data),
                InlineKeyboardButton(turn.t("seat.guest_cancel"), callback_data=cancel.data),
            ]
        ]
    )
    if seat is None:
        text = turn.t("seat.guest_ask_join", name=name)
    else:
        text = turn.t("seat.guest_ask_sub", name=name, wind=turn.wind(seat))
    await turn.say(text, markup)


@button(GuestPress.parse)
async def guest_pressed(turn: Turn, press: GuestPress) -> None:
    """An answer to `ask_guest`: only in its own chat at its table, by who asked or an admin. The guest is
    seated once: the question loses its buttons, and a second press (or one racing it) seats no one again
    (the ledger refuses a guest already at the table)."""
    session = await own_session(turn, press.session_id)
    assert session is not None
    await _require_asker(turn, press.asker)
    if press.name is None:
        await _answered(turn, "seat.guest_cancelled")
        return
    change, gone = await _place(turn, session, press.seat, None, press.name)
    await _answered(turn, "seat.guest_seated")
    await _announce_placed(turn, press.seat, change, gone, guest=True)


async def _require_asker(turn: Turn, asker: int) -> None:
    """A question's buttons are for whoever asked it (`asker`, a Telegram id) and admins."""
    user = turn.user
    if (user is None or user.telegram_id != asker) and not await is_admin(turn):
        raise Refusal("err.guest_not_yours")


async def _answered(turn: Turn, key: str, **params: object) -> None:
    """The question, as shown, with who answered it and how under it (`key`), without its buttons."""
    message_id = turn.pressed_message_id
    if message_id is not None:
        shown = getattr(turn.pressed_message, "text", None) or ""
        who = turn.user.display_name if turn.user is not None else turn.t("flow.an_admin")
        await turn.edit(message_id, "\n".join((shown, turn.t(key, player=who, **params))))
    await turn.answer()


async def _place(
    turn: Turn, session: SessionInfo, seat: Seat | None, member: UserRef | None, guest: str | None
) -> tuple[SeatChange, PlayerInfo | None]:
    """Seat a member or a guest as `/join` would (`seat` None) or as `/sub <seat>` would, with the same
    permissions; (the change, who left the seat: None for a /join)."""
    if seat is None:
        if guest is not None:
            await require_guest_seater(turn, session, guest)
        change = await turn.run(
            seating.join,
            turn.ledger,
            turn.chat_id,
            member,
            guest_name=guest,
            by=turn.user,
            key=turn.source_key,
        )
        return change, None
    await require(turn, "substitute", session, wind=turn.wind(seat))
    return await turn.run(
        seating.substitute,
        turn.ledger,
        turn.chat_id,
        seat,
        member,
        guest_name=guest,
        by=turn.user,
        key=turn.source_key,
    )


async def _announce_placed(
    turn: Turn, seat: Seat | None, change: SeatChange, gone: PlayerInfo | None, *, guest: bool
) -> None:
    """Say what `_place` did: who sat down, or who took over from whom."""
    if seat is None or gone is None:
        assert change.seat is not None
        await _announce_seat(turn, change.session, change.player.name, change.seat, guest)
    else:
        await _announce_sub(turn, change, gone, seat)


async def ask_which(turn: Turn, session: SessionInfo, name: str, seat: Seat | None = None) -> None:
    """A name in /join or /sub fits several people of the group (the one rule of names): asked, a button
    per person told apart as "Fay（1）", for whoever typed the command or an admin; never guessed."""
    choices = await turn.read(groups.players_named, turn.chat_id, name)
    asker = turn.user.telegram_id if turn.user is not None else 0
    rows = [
        [
            InlineKeyboardButton(
                turn.t("summary.legend_twin", name=player.display_name, n=player.twin or n),
                callback_data=SeatWhoPress(session.id, asker, player.id, seat).data,
            )
        ]
        for n, player in enumerate(choices, 1)
    ]
    await turn.say(turn.t("seat.which", name=name), InlineKeyboardMarkup(rows))


@button(SeatWhoPress.parse)
async def seat_who_pressed(turn: Turn, press: SeatWhoPress) -> None:
    """The person /join or /sub meant, pressed: seated (as /join <name> or /sub <seat> <name> would seat
    them), in its own chat at its table, by who asked or an admin; a second press seats no one again."""
    session = await own_session(turn, press.session_id)
    assert session is not None
    await _require_asker(turn, press.asker)
    player = await turn.read(groups.get_player, press.player_id)
    if player.chat_id != turn.chat_id:  # a forged press naming another group's player
        raise ForeignButton(f"player {player.id} is not of chat {turn.chat_id}")
    member = (
        None
        if player.telegram_id is None
        else UserRef(player.telegram_id, player.display_name, player.username)
    )
    guest = player.display_name if member is None else None
    change, gone = await _place(turn, session, press.seat, member, guest)
    await _answered(turn, "seat.which_chosen", name=change.player.name)
    await _announce_placed(turn, press.seat, change, gone, guest=guest is not None)
