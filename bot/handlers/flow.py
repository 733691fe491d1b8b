"""`/hu` alone: a button flow that records every kind of win, as small states.

    winner → how: 自摸 · 放冲 → discarder · 抢杠 → robbed · 包饺子 → feeder
                  · 一炮多响 → more winners → discarder
    → per winner: 硬花 count → meld 花 (碰/杠 of winds and suits)
                  → patterns of the table's rule set (宿州: 上牌, and its 混子)
    → preview

Each button carries the state its press leads to, encoded in its callback data (bot.handlers.buttons), so
the flow keeps no state of its own: a press edits the same message into the next question
(`recording.flow_pressed`). Every step has Back (the state before it) and Cancel. `完成` on the meld step
finishes a winner at once (the common path: winner, 自摸, 5, 完成, then Confirm).
"""

from __future__ import annotations

from dataclasses import replace

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.handlers.buttons import HUA_CHOICES, MAX_SOFT, MELD_HUA, HuFlow, Win, pattern_choices
from bot.handlers.turn import Turn
from bot.ledger import SEATS, SessionInfo
from bot.render import term_name
from scoring.tiles import tile_from_name, tile_name_zh

Rows = list[list[InlineKeyboardButton]]
WILD_TILES = (*(f"{n}{s}" for s in "mps" for n in range(1, 10)), "1z", "2z", "3z", "4z")


def _rows(buttons: list[InlineKeyboardButton], width: int) -> Rows:
    return [buttons[i : i + width] for i in range(0, len(buttons), width)]


def _button(label: str, state: HuFlow) -> InlineKeyboardButton:
    return InlineKeyboardButton(label, callback_data=state.data)


def back(state: HuFlow) -> HuFlow | None:
    """The state one step back (None on the first step): each step's own choice undone."""
    step = state.step
    if step == "how":
        return HuFlow(state.session_id, "winner", by=state.by)
    if step == "more":
        return replace(state, step="how", wins=state.wins[:1], how=None)
    if step == "other":
        if state.how == "multi":
            return replace(state, step="more")
        return replace(state, step="how", how=None)
    if step == "hua":
        if state.cur > 0:
            return replace(state, step="patterns", cur=state.cur - 1)
        if state.other is not None:
            return replace(state, step="other", other=None)
        return replace(state, step="how", how=None)
    if step == "melds":
        return replace(state, step="hua")
    if step in ("patterns", "wild"):
        return replace(state, step="melds" if step == "patterns" else "patterns")
    return None


def finished(state: HuFlow) -> HuFlow:
    """The state after the current winner's last step: the next winner's 花, or the preview."""
    if state.cur + 1 < len(state.wins):
        return replace(state, step="hua", cur=state.cur + 1)
    return replace(state, step="done")


def wild_choices(session: SessionInfo) -> tuple[str, ...]:
    """宿州's possible 混子: every playing tile (the round wind is 令风, a flower); none elsewhere."""
    if session.rules != "suzhou-anhui":
        return ()
    round_wind = f"{SEATS.index(session.state.round_wind) + 1}z"
    return tuple(tile for tile in WILD_TILES if tile != round_wind)


def _tile_label(tile: str) -> str:
    return tile_name_zh(tile_from_name(tile))


def question(turn: Turn, session: SessionInfo, state: HuFlow) -> tuple[str, InlineKeyboardMarkup]:
    """The text and buttons of one step, with Back (but on the first step) and Cancel under them."""
    text, rows = _step(turn, session, state)
    last = [_button(turn.t("flow.cancel"), replace(state, step="cancel"))]
    before = back(state)
    if before is not None:
        last.insert(0, _button(turn.t("flow.back"), before))
    return text, InlineKeyboardMarkup([*rows, last])


def _seat_label(turn: Turn, session: SessionInfo, seat: str) -> str:
    player = session.seats.get(seat)
    return f"{turn.wind(seat)} {player.name}" if player else turn.wind(seat)


def _step(turn: Turn, session: SessionInfo, state: HuFlow) -> tuple[str, Rows]:
    def seat_button(seat: str, nxt: HuFlow, mark: bool = False) -> InlineKeyboardButton:
        return _button(("✅ " if mark else "") + _seat_label(turn, session, seat), nxt)

    if state.step == "winner":
        buttons = [seat_button(s, replace(state, step="how", wins=(Win(s),))) for s in SEATS]
        return turn.t("flow.winner"), _rows(buttons, 2)
    winner = turn.wind(state.wins[0].seat)
    if state.step == "how":
        to_other = replace(state, step="other")
        buttons = [
            _button(turn.t("flow.self_draw"), replace(state, step="hua", how="self_draw")),
            _button(turn.t("flow.discard"), replace(to_other, how="discard")),
            _button(turn.t("flow.rob_kong"), replace(to_other, how="rob_kong")),
            _button(turn.t("flow.bao"), replace(to_other, how="bao")),
            _button(turn.t("flow.multi"), replace(state, step="more", how="multi")),
        ]
        return turn.t("flow.how", winner=winner), _rows(buttons, 2)
    if state.step == "more":
        others = [s for s in SEATS if s != state.wins[0].seat]
        buttons = [seat_button(s, state.toggled_winner(s), s in state.seats) for s in others]
        rows = _rows(buttons, 3)
        if len(state.wins) >= 2:
            rows.append([_button(turn.t("flow.next"), replace(state, step="other"))])
        chosen = "、".join(turn.wind(s) for s in state.seats)
        return turn.t("flow.more", winners=chosen), rows
    if state.step == "other":
        key = {"rob_kong": "flow.robbed", "bao": "flow.feeder"}.get(state.how or "", "flow.discarder")
        others = [s for s in SEATS if s not in state.seats]
        buttons = [seat_button(s, replace(state, step="hua", other=s)) for s in others]
        return turn.t(key), [buttons]
    current = state.current
    who = turn.wind(current.seat)
    if state.step == "hua":
        buttons = [
            _button(
                f"·{n}·" if n == current.hua and n else str(n),
                replace(state, step="melds").with_current(hua=n),
            )
            for n in HUA_CHOICES
        ]
        return turn.t("flow.hua", winner=who), _rows(buttons, 5)
    summary = turn.t(
        "flow.state",
        winner=who,
        hua=current.hua,
        soft=current.soft,
        patterns="、".join(term_name(turn.lang, p) for p in current.patterns) or turn.t("flow.none"),
    )
    if state.wild:
        summary += " · " + turn.t("flow.wild_set", tile=_tile_label(state.wild))
    if state.step == "melds":
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
                _button(turn.t("flow.done"), finished(state)),
            ]
        )
        return turn.t("flow.melds", winner=who) + "\n" + summary, rows
    if state.step == "wild":
        buttons = [
            _button(_tile_label(t), replace(state, step="patterns", wild=t)) for t in wild_choices(session)
        ]
        rows = _rows(buttons, 9)
        rows.append([_button(turn.t("flow.no_wild"), replace(state, step="patterns", wild=None))])
        return turn.t("flow.wild"), rows
    # patterns: toggles, then Done
    buttons = [
        _button(("✅ " if p in current.patterns else "") + term_name(turn.lang, p), state.toggled(p))
        for p in pattern_choices(session.rules, session.options)
    ]
    rows = _rows(buttons, 3)
    if wild_choices(session):
        label = _tile_label(state.wild) if state.wild else turn.t("flow.none")
        rows.append([_button(turn.t("flow.wild_button", tile=label), replace(state, step="wild"))])
    rows.append([_button(turn.t("flow.done"), finished(state))])
    return turn.t("flow.patterns") + "\n" + summary, rows
