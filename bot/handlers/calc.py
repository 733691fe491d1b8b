"""/calc scores a hand and /ting lists a waiting hand's tiles, from the scoring core; nothing is recorded."""

from __future__ import annotations

from typing import Any

from bot.grammar.hu import hand_object
from bot.grammar.lexer import tokenize
from bot.handlers.common import Refusal, Turn, command
from bot.render import payments_text, rules_name, term_name
from scoring import score_request, ting_request

DISCARD_WORDS = {"冲", "沖", "衝", "pao", "炮", "点炮", "點炮", "放冲", "放沖", "discard", "ron", "dianpao"}
SELF_DRAW_WORDS = {"自摸", "zimo", "tsumo", "self-draw", "selfdraw", "zm"}
CALC_WINNER, CALC_DISCARDER = "S", "N"  # a non-dealer wins; the player before the dealer discards


def _table(turn: Turn) -> dict[str, Any]:
    """The table keys of a request: the open session's rules, options and stake, else the group's."""
    session = turn.session if turn.is_group else None
    if session is not None:
        return {
            "rules": session.rules,
            "options": dict(session.options),
            "stake": session.stake,
            "dealer": "E",
            "round_wind": session.state.round_wind,
        }
    group = turn.state.group
    return {
        "rules": group.rules,
        "options": dict(group.options),
        "stake": 1,
        "dealer": "E",
        "round_wind": "E",
    }


def _hand_object(text: str) -> dict[str, Any]:
    return hand_object(tokenize(text))


def _items(turn: Turn, win: dict[str, Any]) -> list[str]:
    return [
        turn.t(
            "preview.item",
            name=term_name(turn.lang, item.get("id", ""), item.get("name")),
            hua=item.get("hua", 0),
        )
        for item in win.get("items", [])
    ]


@command("calc", group_only=False)
async def calc(turn: Turn) -> None:
    """/calc <tiles> [flowers] [自摸|冲]: score a hand without recording it (as 南, a non-dealer)."""
    words = turn.text.split()
    how = "self_draw"
    if words and words[-1].lower() in DISCARD_WORDS | SELF_DRAW_WORDS:
        how = "discard" if words.pop().lower() in DISCARD_WORDS else "self_draw"
    if not words:
        raise Refusal("err.calc_needs_tiles", usage=True)
    table = _table(turn)
    win = {"winner": CALC_WINNER, "type": how, "hand": _hand_object(" ".join(words))}
    request: dict[str, Any] = {**table, "event": "win", "wins": [win]}
    if how == "discard":
        request["discarder"] = CALC_DISCARDER
    response = await turn.run(score_request, request)
    win = response["wins"][0]
    how_text = turn.t("flow.self_draw") if how == "self_draw" else turn.t("flow.discard")
    lines = [turn.t("calc.header", rules=rules_name(turn.lang, table["rules"]), how=how_text)]
    if not win.get("allowed", True):
        lines.append(turn.t("calc.not_allowed", reason=win.get("reason") or ""))
    else:
        lines += _items(turn, win)
        if int(win.get("multiplier") or 1) != 1:
            lines.append(turn.t("preview.multiplier", factor=win["multiplier"]))
        lines.append(
            turn.t(
                "calc.total",
                hua=win.get("hua", 0),
                stake=table["stake"],
                payments=payments_text(turn.lang, response["payments"], [CALC_WINNER]),
            )
        )
    await turn.say("\n".join(lines))


@command("ting", group_only=False)
async def ting(turn: Turn) -> None:
    """/ting <13 tiles> [flowers]: the tiles completing the hand, with their 花 by self-draw and discard."""
    if not turn.text:
        raise Refusal("err.missing_args", usage=True)
    table = _table(turn)
    response = await turn.run(ting_request, {**table, "seat": CALC_WINNER, "hand": turn.text})
    waits = response.get("waits", [])
    if not waits:
        await turn.reply("ting.none")
        return
    lines = [turn.t("ting.header", count=len(waits))]
    for wait in waits:

        def hua(case: dict[str, Any]) -> str:
            return str(case.get("hua", 0)) if case.get("allowed", True) else turn.t("ting.not_allowed")

        lines.append(
            turn.t(
                "ting.line", tile=wait["tile"], self_draw=hua(wait["self_draw"]), discard=hua(wait["discard"])
            )
        )
    await turn.say("\n".join(lines))
