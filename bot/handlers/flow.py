"""The /hu command and its button flow: `/hu <words>` records what was typed (`recording.record_typed`);
`/hu` alone starts a button flow that records every kind of win, as a table of small steps.

    winner → how: 自摸 · 放冲 → discarder · 抢杠 → robbed · 包饺子 → feeder
                  · 一炮多响 → more winners → discarder
    → per winner: 硬花 count → meld 花 (碰/杠 of winds and suits)
                  → patterns of the table's rule set (宿州: 上牌, and its 混子; on a discard win, whether
                    the tile won on was that 混子: yes is refused at once, as the typed form is)
    → preview

`STEPS` maps each step to its two small functions, in the spirit of PTB's `ConversationHandler` states:
`ask` (the question and its buttons) and `back` (the state one step back, None on the first step). Each
button carries the state its press leads to, encoded in its callback data (bot.buttons), so the
flow keeps no state of its own: a press edits the same message into the next question
(`flow_pressed`, below). Every step has Back and Cancel. `完成` on the meld step finishes a winner at
once (the common path: winner, 自摸, 5, 完成, then Confirm).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, replace

from telegram import InlineKeyboardButton, InlineKeyboardMarkup
from telegram.error import BadRequest

from bot.buttons import HUA_CHOICES, MAX_SOFT, MELD_HUA, HuFlow, Win, pattern_choices
from bot.handlers.callbacks import button, command
from bot.handlers.card import picker_button
from bot.handlers.permissions import is_admin, own_session, require, writable_session
from bot.handlers.recording import record_hand, record_typed
from bot.handlers.turn import Turn
from bot.ledger import SEATS, SessionInfo
from bot.ledger.play import sessions
from bot.render.errors import Refusal
from bot.render.items import join_words, term_name, tile_words
from bot.sender import send_text
from scoring.rules import ways_to_win, wild_choices
from scoring.seats import Seat

log = logging.getLogger(__name__)

Rows = list[list[InlineKeyboardButton]]
Ask = Callable[[Turn, SessionInfo, HuFlow], tuple[str, Rows]]
Back = Callable[[HuFlow], HuFlow | None]
WILD_ROW = 5


def _rows(buttons: list[InlineKeyboardButton], width: int) -> Rows:
    return [buttons[i : i + width] for i in range(0, len(buttons), width)]


def _button(label: str, state: HuFlow) -> InlineKeyboardButton:
    return InlineKeyboardButton(label, callback_data=state.data)


def _seat_button(
    turn: Turn, session: SessionInfo, seat: Seat, nxt: HuFlow, mark: bool = False
) -> InlineKeyboardButton:
    player = session.seats.get(seat)
    label = f"{turn.wind(seat)} {player.name}" if player else turn.wind(seat)
    return _button(("✅ " if mark else "") + label, nxt)


def finished(state: HuFlow) -> HuFlow:
    """The state after the current winner's last step: the next winner's 花, or the preview."""
    if state.cur + 1 < len(state.wins):
        return replace(state, step="hua", cur=state.cur + 1)
    return replace(state, step="done")


def done_label(turn: Turn, state: HuFlow) -> str:
    """The button that ends the current winner's steps: 完成 for the last winner, else the next winner's
    name (一炮多响: 下一位 西 ▸), never 完成 while a winner is still to be asked about."""
    if state.cur + 1 < len(state.wins):
        return turn.t("flow.next_winner", winner=turn.wind(state.wins[state.cur + 1].seat))
    return turn.t("flow.done")


def table_wilds(session: SessionInfo) -> tuple[str, ...]:
    """The table's possible 混子, as its rule set says (`scoring.rules.wild_choices`): none at 苏州."""
    return wild_choices(session.rules, session.state.round_wind)


def _tile_label(lang: str | None, tile: str) -> str:
    """A tile's face in the group's script: 五筒, 東 in a zh-Hant group (the catalogs' `tiles.*`)."""
    return tile_words(lang, tile)


def _for_rules(session: SessionInfo, key: str) -> str:
    """The message of `key` in the table's rule set's words: 苏州 asks for 硬花 and 软花; 宿州 counts one
    花 number (flower tiles, 风碰, 杠), its messages `<key>_count`."""
    return f"{key}_count" if session.rules == "suzhou-anhui" else key


def _winner_summary(turn: Turn, session: SessionInfo, state: HuFlow) -> str:
    """The line under the per-winner steps: the winner's 花, meld 花, patterns (and 宿州's 混子)."""
    current = state.current
    summary = turn.t(
        _for_rules(session, "flow.state"),
        winner=turn.wind(current.seat),
        hua=current.hua,
        soft=current.soft,
        patterns=join_words(turn.lang, (term_name(turn.lang, p) for p in current.patterns))
        or turn.t("flow.none"),
    )
    if state.wild:
        summary += " · " + turn.t("flow.wild_set", tile=_tile_label(turn.lang, state.wild))
    return summary


# ---- the steps: each asks one question ------------------------------------------------------------


def ask_winner(turn: Turn, session: SessionInfo, state: HuFlow) -> tuple[str, Rows]:
    buttons = [_seat_button(turn, session, s, replace(state, step="how", wins=(Win(s),))) for s in SEATS]
    return turn.t("flow.winner"), _rows(buttons, 2)


def ask_how(turn: Turn, session: SessionInfo, state: HuFlow) -> tuple[str, Rows]:
    """The ways of winning the table offers (`scoring.rules.ways_to_win`: no 包 at 宿州, 送杠 where the
    table's `songgang` option is `any`), then 一炮多响."""
    buttons = [
        _button(turn.t(f"flow.{way}"), replace(state, step="hua" if way == "self_draw" else "other", how=way))
        for way in ways_to_win(session.rules, session.options)
    ]
    buttons.append(_button(turn.t("flow.multi"), replace(state, step="more", how="multi")))
    return turn.t("flow.how", winner=turn.wind(state.wins[0].seat)), _rows(buttons, 2)


def ask_more(turn: Turn, session: SessionInfo, state: HuFlow) -> tuple[str, Rows]:
    others = [s for s in SEATS if s != state.wins[0].seat]
    rows = _rows(
        [_seat_button(turn, session, s, state.toggled_winner(s), s in state.seats) for s in others], 3
    )
    if len(state.wins) >= 2:
        rows.append([_button(turn.t("flow.next"), replace(state, step="other"))])
    return turn.t("flow.more", winners=join_words(turn.lang, [turn.wind(s) for s in state.seats])), rows


def ask_other(turn: Turn, session: SessionInfo, state: HuFlow) -> tuple[str, Rows]:
    key = {"rob_kong": "flow.robbed", "bao": "flow.feeder", "songgang": "flow.feeder_songgang"}.get(
        state.how or "", "flow.discarder"
    )
    others = [s for s in SEATS if s not in state.seats]
    return turn.t(key), [
        [_seat_button(turn, session, s, replace(state, step="hua", other=s)) for s in others]
    ]


def ask_hua(turn: Turn, session: SessionInfo, state: HuFlow) -> tuple[str, Rows]:
    current = state.current
    buttons = [
        _button(
            f"·{n}·" if n == current.hua and n else str(n), replace(state, step="melds").with_current(hua=n)
        )
        for n in HUA_CHOICES
    ]
    return turn.t(_for_rules(session, "flow.hua"), winner=turn.wind(current.seat)), _rows(buttons, 5)


def ask_melds(turn: Turn, session: SessionInfo, state: HuFlow) -> tuple[str, Rows]:
    current = state.current
    buttons = [
        _button(
            turn.t("flow.meld_button", name=term_name(turn.lang, item), hua=hua),
            state.with_current(soft=min(MAX_SOFT, current.soft + hua)),
        )
        for item, hua in MELD_HUA.get(session.rules, MELD_HUA["suzhou"])
    ]
    rows = _rows(buttons, 2)
    if current.soft:
        rows.append([_button(turn.t("flow.reset"), state.with_current(soft=0))])
    rows.append(
        [
            _button(turn.t("flow.to_patterns"), replace(state, step="patterns")),
            _button(done_label(turn, state), finished(state)),
        ]
    )
    text = turn.t(_for_rules(session, "flow.melds"), winner=turn.wind(current.seat))
    return text + "\n" + _winner_summary(turn, session, state), rows


def ask_patterns(turn: Turn, session: SessionInfo, state: HuFlow) -> tuple[str, Rows]:
    """The table's patterns as toggles, 宿州's 混子 button, then Done."""
    current = state.current
    buttons = [
        _button(("✅ " if p in current.patterns else "") + term_name(turn.lang, p), state.toggled(p))
        for p in pattern_choices(session.rules, session.options)
    ]
    rows = _rows(buttons, 3)
    if table_wilds(session):
        label = _tile_label(turn.lang, state.wild) if state.wild else turn.t("flow.none")
        rows.append([_button(turn.t("flow.wild_button", tile=label), replace(state, step="wild"))])
    rows.append([_button(done_label(turn, state), finished(state))])
    return turn.t("flow.patterns") + "\n" + _winner_summary(turn, session, state), rows


def ask_wild(turn: Turn, session: SessionInfo, state: HuFlow) -> tuple[str, Rows]:
    """The 混子 tile; on a discard win, then whether the discard won on was it (step wild_won)."""
    chosen = replace(state, step="patterns", won_on_wild=False)
    by_suit: dict[str, list[InlineKeyboardButton]] = {}
    for tile in table_wilds(session):
        nxt = replace(chosen, wild=tile)
        if nxt.asks_won_on_wild:
            nxt = replace(nxt, step="wild_won")
        by_suit.setdefault(tile[-1], []).append(_button(_tile_label(turn.lang, tile), nxt))
    # Each suit on its own rows of at most WILD_ROW (a phone shows five faces a row without cutting them).
    rows = [row for buttons in by_suit.values() for row in _rows(buttons, WILD_ROW)]
    rows.append([_button(turn.t("flow.no_wild"), replace(chosen, wild=None))])
    return turn.t("flow.wild"), rows


def ask_wild_won(turn: Turn, session: SessionInfo, state: HuFlow) -> tuple[str, Rows]:
    """宿州: a discarded 混子 cannot be won on (docs/rules.md §2). Yes ends the flow as 完成 does: the rules
    refuse the win with that reason, and nothing is recorded."""
    assert state.wild is not None
    yes = _button(turn.t("flow.wild_won_yes"), replace(state, step="done", won_on_wild=True))
    no = _button(turn.t("flow.wild_won_no"), replace(state, step="patterns", won_on_wild=False))
    return turn.t("flow.wild_won", tile=_tile_label(turn.lang, state.wild)), [[yes, no]]


# ---- the steps: each one's own choice undone -------------------------------------------------------


def back_from_how(state: HuFlow) -> HuFlow:
    return HuFlow(state.session_id, "winner", by=state.by)


def back_from_more(state: HuFlow) -> HuFlow:
    return replace(state, step="how", wins=state.wins[:1], how=None)


def back_from_other(state: HuFlow) -> HuFlow:
    return replace(state, step="more") if state.how == "multi" else replace(state, step="how", how=None)


def back_from_hua(state: HuFlow) -> HuFlow:
    """The previous winner's patterns, else the discarder (or robbed, feeder), else how."""
    if state.cur > 0:
        return replace(state, step="patterns", cur=state.cur - 1)
    if state.other is not None:
        return replace(state, step="other", other=None)
    return replace(state, step="how", how=None)


@dataclass(frozen=True, slots=True)
class FlowStep:
    ask: Ask
    back: Back


STEPS: dict[str, FlowStep] = {
    "winner": FlowStep(ask_winner, lambda state: None),
    "how": FlowStep(ask_how, back_from_how),
    "more": FlowStep(ask_more, back_from_more),
    "other": FlowStep(ask_other, back_from_other),
    "hua": FlowStep(ask_hua, back_from_hua),
    "melds": FlowStep(ask_melds, lambda state: replace(state, step="hua")),
    "patterns": FlowStep(ask_patterns, lambda state: replace(state, step="melds")),
    "wild": FlowStep(ask_wild, lambda state: replace(state, step="patterns")),
    "wild_won": FlowStep(ask_wild_won, lambda state: replace(state, step="wild")),
}


def back(state: HuFlow) -> HuFlow | None:
    """The state one step back (None on the first step and on the flow's ends, done and cancel)."""
    step = STEPS.get(state.step)
    return step.back(state) if step is not None else None


def question(turn: Turn, session: SessionInfo, state: HuFlow) -> tuple[str, InlineKeyboardMarkup]:
    """The text and buttons of one step, with Back (but on the first step) and Cancel under them."""
    text, rows = STEPS[state.step].ask(turn, session, state)
    last = [_button(turn.t("flow.cancel"), replace(state, step="cancel"))]
    before = back(state)
    if before is not None:
        last.insert(0, _button(turn.t("flow.back"), before))
    return text, InlineKeyboardMarkup([*rows, last])


# ---- the /hu command and its flow's presses -----------------------------------------------------------


def open_flow(turn: Turn, session: SessionInfo) -> int | None:
    """The message of this table's open /hu button flow (a column of the session), or None."""
    return session.flow_message_id


async def hold_flow(turn: Turn, session: SessionInfo, message_id: int | None) -> None:
    """Remember (or, with None, forget) the table's open button flow, in the ledger (every worker sees it)."""
    if session.flow_message_id != message_id:
        await turn.write(None, sessions.set_flow, session.id, message_id)


async def start_flow(turn: Turn, session: SessionInfo) -> None:
    """A new button flow, started by the sender (their seat in the state: only they or an admin press it);
    while one is open, a reply to it instead (one open flow per table)."""
    held = open_flow(turn, session)
    if held is not None:
        try:
            await send_text(
                turn.context.bot, turn.chat_id, turn.t("flow.open"), reply_to=held, topic=turn.thread_id
            )
            return
        except BadRequest as exc:  # the flow's message is gone: a new flow
            log.info("open flow %s of chat %s is gone: %s", held, turn.chat_id, exc)
    by = next(
        (s for s, p in session.seats.items() if turn.user and p.telegram_id == turn.user.telegram_id), None
    )
    text, markup = question(turn, session, HuFlow(session.id, "winner", by=by))
    picker = picker_button(turn, session)
    if picker is not None:  # tap the tiles instead of answering the questions
        markup = InlineKeyboardMarkup([[picker], *markup.inline_keyboard])
    await hold_flow(turn, session, (await turn.say(text, markup)).message_id)


async def require_flow_owner(turn: Turn, session: SessionInfo, state: HuFlow) -> None:
    """A flow's buttons are for the one who started it (the player at `state.by`) and admins."""
    starter = session.seats.get(state.by) if state.by else None
    user = turn.user
    if starter is not None and user is not None and starter.telegram_id == user.telegram_id:
        return
    if await is_admin(turn):
        return
    raise Refusal("err.flow_not_yours", player=starter.name if starter else turn.t("flow.an_admin"))


def _offered(session: SessionInfo, state: HuFlow) -> bool:
    """Whether every choice in the state is one this table's flow offers (its patterns, its 混子)."""
    patterns = pattern_choices(session.rules, session.options)
    if any(p not in patterns for win in state.wins for p in win.patterns):
        return False
    return state.wild is None or state.wild in table_wilds(session)


@button(HuFlow.parse)
async def flow_pressed(turn: Turn, state: HuFlow) -> None:
    """Move the flow one step: edit the same message into the next question, or into the preview. The
    flow's table must be this chat's open table, its message the table's open flow."""
    session = await own_session(turn, state.session_id)
    assert session is not None
    await require(turn, "record", session)
    message_id = turn.pressed_message_id
    held = open_flow(turn, session)
    if message_id is None or not _offered(session, state) or held not in (None, message_id):
        raise Refusal("err.flow_stale")
    await require_flow_owner(turn, session, state)
    if state.step == "cancel":
        await hold_flow(turn, session, None)
        await turn.edit(message_id, turn.t("flow.cancelled"))
    elif state.step == "done":
        await record_hand(turn, state.entry(), flow_message=message_id)
        await hold_flow(turn, session, None)
    else:
        await hold_flow(turn, session, message_id)
        await turn.edit(message_id, *question(turn, session, state))


@command("hu", people=True)
async def hu(turn: Turn) -> None:
    """/hu <winner> <how> [details]; /hu alone starts the button flow (or points at the one open)."""
    session = await writable_session(turn)
    if not turn.text:
        await start_flow(turn, session)
        return
    await record_typed(turn, session)
