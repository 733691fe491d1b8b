"""`/hu` alone: a button flow winner → how → discarder → 花 count → patterns → preview, as small states.

Each button carries the state its press leads to, encoded in its callback data (bot.handlers.buttons), so
the flow keeps no state of its own: a press edits the same message into the next question
(`recording.flow_pressed`).
"""

from __future__ import annotations

from dataclasses import replace

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.handlers.buttons import HUA_CHOICES, HuFlow, pattern_choices
from bot.handlers.common import Turn
from bot.ledger import SEATS, SessionInfo
from bot.render import term_name


def _rows(buttons: list[InlineKeyboardButton], width: int) -> list[list[InlineKeyboardButton]]:
    return [buttons[i : i + width] for i in range(0, len(buttons), width)]


def _button(label: str, state: HuFlow) -> InlineKeyboardButton:
    return InlineKeyboardButton(label, callback_data=state.data)


def question(turn: Turn, session: SessionInfo, state: HuFlow) -> tuple[str, InlineKeyboardMarkup]:
    """The text and buttons of one step."""

    def seat_button(seat: str, nxt: HuFlow) -> InlineKeyboardButton:
        player = session.seats.get(seat)
        return _button(f"{turn.wind(seat)} {player.name}" if player else turn.wind(seat), nxt)

    cancel = [_button(turn.t("flow.cancel"), replace(state, step="cancel"))]
    winner = turn.wind(state.winner) if state.winner else ""
    if state.step == "winner":
        buttons = [seat_button(s, replace(state, step="how", winner=s)) for s in SEATS]
        return turn.t("flow.winner"), InlineKeyboardMarkup([*_rows(buttons, 2), cancel])
    if state.step == "how":
        buttons = [
            _button(turn.t("flow.self_draw"), replace(state, step="hua", how="self_draw")),
            _button(turn.t("flow.discard"), replace(state, step="discarder", how="discard")),
            _button(turn.t("flow.rob_kong"), replace(state, step="discarder", how="rob_kong")),
        ]
        return turn.t("flow.how", winner=winner), InlineKeyboardMarkup([buttons, cancel])
    if state.step == "discarder":
        others = [s for s in SEATS if s != state.winner]
        buttons = [seat_button(s, replace(state, step="hua", discarder=s)) for s in others]
        return turn.t("flow.discarder"), InlineKeyboardMarkup([buttons, cancel])
    if state.step == "hua":
        buttons = [_button(str(n), replace(state, step="patterns", hua=n)) for n in HUA_CHOICES]
        return turn.t("flow.hua", winner=winner), InlineKeyboardMarkup([*_rows(buttons, 8), cancel])
    # patterns: toggles, then Done
    buttons = [
        _button(("✅ " if p in state.patterns else "") + term_name(turn.lang, p), state.toggled(p))
        for p in pattern_choices(session.rules, session.options)
    ]
    done = _button(turn.t("flow.done"), replace(state, step="done"))
    chosen = "、".join(term_name(turn.lang, p) for p in state.patterns) or turn.t("flow.none")
    summary = turn.t("flow.summary", winner=winner, hua=state.hua, patterns=chosen)
    return turn.t("flow.patterns") + "\n" + summary, InlineKeyboardMarkup(
        [*_rows(buttons, 3), [done, *cancel]]
    )
