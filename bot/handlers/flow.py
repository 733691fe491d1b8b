"""`/hu` alone: a button flow winner → how → discarder → 花 count → patterns → preview, as small states.

Each button carries the next state as an immutable object (arbitrary callback data), so the flow keeps
no state of its own: pressing a button edits the same message into the next question.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Literal

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.handlers.common import Refusal, Turn, button
from bot.ledger.results import SEATS, SessionInfo
from bot.render import term_name

Step = Literal["winner", "how", "discarder", "hua", "patterns", "done", "cancel"]
How = Literal["self_draw", "discard", "rob_kong"]

HUA_CHOICES = tuple(range(16))
PATTERNS_BY_RULES = {
    "suzhou": (
        "da_menqing",
        "xiao_menqing",
        "hunyise",
        "qingyise",
        "duiduihu",
        "qidui",
        "gangkai",
        "huakai",
        "dadiaoche",
        "haidi",
        "tianhu",
        "dihu",
    ),
    "suzhou-anhui": ("qidui", "dadiaoche", "gangkai", "tianhu", "dihu"),
}
EXTENDED = ("yitiaolong", "xiaosanfeng", "sanfengke", "xiaosixi", "dasixi", "haohua_qidui")


@dataclass(frozen=True, slots=True)
class HuFlow:
    """One state of the flow; a button holds the state its press leads to."""

    session_id: int
    step: Step
    winner: str | None = None
    how: How | None = None
    discarder: str | None = None
    hua: int | None = None
    patterns: tuple[str, ...] = ()

    def toggled(self, pattern: str) -> HuFlow:
        """The same state with `pattern` switched on or off."""
        chosen = tuple(p for p in self.patterns if p != pattern)
        if len(chosen) == len(self.patterns):
            chosen = (*self.patterns, pattern)
        return replace(self, patterns=chosen)

    def entry(self) -> dict[str, Any]:
        """The ledger entry of a finished flow (the declared quick form)."""
        assert self.winner is not None and self.how is not None
        win: dict[str, Any] = {
            "winner": self.winner,
            "type": self.how,
            "declared": {"hard_flowers": self.hua or 0, "soft_flowers": 0, "patterns": list(self.patterns)},
        }
        entry: dict[str, Any] = {"event": "win", "wins": [win]}
        if self.how != "self_draw":
            entry["discarder"] = self.discarder
        return entry


def _rows(buttons: list[InlineKeyboardButton], width: int) -> list[list[InlineKeyboardButton]]:
    return [buttons[i : i + width] for i in range(0, len(buttons), width)]


def pattern_choices(session: SessionInfo) -> tuple[str, ...]:
    """The patterns offered for the table's rules (with the extended list when that option is on)."""
    base = PATTERNS_BY_RULES.get(session.rules, PATTERNS_BY_RULES["suzhou"])
    if session.rules == "suzhou" and session.options.get("extended"):
        return base + EXTENDED
    return base


def question(turn: Turn, session: SessionInfo, state: HuFlow) -> tuple[str, InlineKeyboardMarkup]:
    """The text and buttons of one step."""

    def seat_button(seat: str, nxt: HuFlow) -> InlineKeyboardButton:
        player = session.seats.get(seat)
        label = f"{turn.wind(seat)} {player.name}" if player else turn.wind(seat)
        return InlineKeyboardButton(label, callback_data=nxt)

    cancel = [InlineKeyboardButton(turn.t("flow.cancel"), callback_data=replace(state, step="cancel"))]
    winner = turn.wind(state.winner) if state.winner else ""
    if state.step == "winner":
        buttons = [seat_button(s, replace(state, step="how", winner=s)) for s in SEATS]
        return turn.t("flow.winner"), InlineKeyboardMarkup([*_rows(buttons, 2), cancel])
    if state.step == "how":
        buttons = [
            InlineKeyboardButton(
                turn.t("flow.self_draw"), callback_data=replace(state, step="hua", how="self_draw")
            ),
            InlineKeyboardButton(
                turn.t("flow.discard"), callback_data=replace(state, step="discarder", how="discard")
            ),
            InlineKeyboardButton(
                turn.t("flow.rob_kong"), callback_data=replace(state, step="discarder", how="rob_kong")
            ),
        ]
        return turn.t("flow.how", winner=winner), InlineKeyboardMarkup([buttons, cancel])
    if state.step == "discarder":
        buttons = [
            seat_button(s, replace(state, step="hua", discarder=s)) for s in SEATS if s != state.winner
        ]
        return turn.t("flow.discarder"), InlineKeyboardMarkup([buttons, cancel])
    if state.step == "hua":
        buttons = [
            InlineKeyboardButton(str(n), callback_data=replace(state, step="patterns", hua=n))
            for n in HUA_CHOICES
        ]
        return turn.t("flow.hua", winner=winner), InlineKeyboardMarkup([*_rows(buttons, 8), cancel])
    # patterns: toggles, then Done
    buttons = []
    for pattern in pattern_choices(session):
        mark = "✅ " if pattern in state.patterns else ""
        buttons.append(
            InlineKeyboardButton(mark + term_name(turn.lang, pattern), callback_data=state.toggled(pattern))
        )
    done = InlineKeyboardButton(turn.t("flow.done"), callback_data=replace(state, step="done"))
    chosen = "、".join(term_name(turn.lang, p) for p in state.patterns) or turn.t("flow.none")
    text = (
        turn.t("flow.patterns")
        + "\n"
        + turn.t("flow.summary", winner=winner, hua=state.hua or 0, patterns=chosen)
    )
    return text, InlineKeyboardMarkup([*_rows(buttons, 3), [done, *cancel]])


async def start_flow(turn: Turn, session: SessionInfo) -> None:
    """Post the first question (who won?)."""
    state = HuFlow(session.id, "winner")
    text, markup = question(turn, session, state)
    await turn.say(text, markup)


@button
async def flow_pressed(turn: Turn, state: HuFlow) -> None:
    """Move the flow one step: edit the same message into the next question, or into the preview."""
    from bot.handlers.recording import submit

    session = await turn.require_session()
    if session.id != state.session_id:
        raise Refusal("err.flow_stale")
    await turn.require_writer(session)
    query = turn.update.callback_query
    assert query is not None and query.message is not None
    message_id = query.message.message_id
    if state.step == "cancel":
        await turn.context.bot.edit_message_text(
            turn.t("flow.cancelled"), chat_id=turn.chat_id, message_id=message_id
        )
        return
    if state.step == "done":
        await submit(turn, session, "hand", state.entry(), edit_message_id=message_id)
        return
    text, markup = question(turn, session, state)
    await turn.context.bot.edit_message_text(
        text, chat_id=turn.chat_id, message_id=message_id, reply_markup=markup
    )
