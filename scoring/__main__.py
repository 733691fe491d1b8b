"""Command line: `score --json` (JSON in and out), human `score "<hand>"` and `ting "<13 tiles>"`."""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from scoring.errors import ScoringError
from scoring.patterns import term_name
from scoring.request import score_request
from scoring.response import ScoreResponse, WinResult
from scoring.rules import ruleset, validate_options
from scoring.ting import ting_request

_TEXT: dict[str, dict[str, str]] = {
    "zh": {
        "self_draw": "自摸",
        "discard": "放冲（{seat} 放）",
        "rob_kong": "抢杠（抢 {seat}）",
        "draw": "荒庄",
        "escape": "逃跑（{seat}）",
        "total_sz": "合计 {hua} 花 × {mult}",
        "total_ah": "花数 f = {hua}，× {mult}",
        "not_allowed": "不能胡：{reason}",
        "below_threshold": "硬花 {have}，需要 {need}",
        "self_draw_only": "只许自摸",
        "multi_win_off": "一炮多响只算第一家",
        "wild_discard": "打出的混子不能和",
        "payments": "付款（注 {stake}）：",
        "payments_ah": "付款（底分 {stake}）：",
        "next": "下一局：庄家 {dealer}，连庄 {streak}，滴零 {diling}，圈风 {wind}",
        "next_ah": "下一局：庄家 {dealer}，连庄 {streak}，圈风 {wind}",
        # 宿州's own names of the flower items (the bot's catalogs say the same: item.suzhou-anhui.*)
        "ah_yinghua": "花牌",
        "ah_ruanhua": "碰杠花",
        "yes": "是",
        "no": "否",
        "ting_none": "没听牌",
        "ting_head": "听 {n} 张：",
        "wait_line": "  {tile}: 自摸 {sd}，点炮 {dc}",
        "not": "不能胡",
    },
    "en": {
        "self_draw": "self-draw",
        "discard": "discard win ({seat} discarded)",
        "rob_kong": "robbed {seat}'s kong",
        "draw": "exhaustive draw",
        "escape": "{seat} left the table",
        "total_sz": "total {hua} hua × {mult}",
        "total_ah": "flower count f = {hua}, × {mult}",
        "not_allowed": "not allowed: {reason}",
        "below_threshold": "{have} hard flowers, needs {need}",
        "self_draw_only": "self-draw only",
        "multi_win_off": "only the first winner counts",
        "wild_discard": "a discarded wild tile cannot be won on",
        "payments": "payments (stake {stake}):",
        "payments_ah": "payments (base {stake}):",
        "next": "next hand: dealer {dealer}, streak {streak}, diling {diling}, round wind {wind}",
        "next_ah": "next hand: dealer {dealer}, streak {streak}, round wind {wind}",
        "ah_yinghua": "Flower tiles",
        "ah_ruanhua": "Meld flowers",
        "yes": "yes",
        "no": "no",
        "ting_none": "not waiting",
        "ting_head": "waiting on {n} tile(s):",
        "wait_line": "  {tile}: self-draw {sd}, on a discard {dc}",
        "not": "not allowed",
    },
}
_SEAT_ZH = {"E": "东", "S": "南", "W": "西", "N": "北"}


def _lang(value: str) -> str:
    return "en" if value.lower() == "en" else "zh"


def _seat(seat: str, lang: str) -> str:
    return f"{_SEAT_ZH[seat]}({seat})" if lang == "zh" else seat


def _parse_options(pairs: Sequence[str]) -> dict[str, str]:
    options: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise ScoringError(f"--option: expected key=value, got {pair!r}")
        options[key.strip()] = value.strip()
    return options


def _table(args: argparse.Namespace) -> dict[str, Any]:
    table: dict[str, Any] = {
        "rules": args.rules,
        "stake": args.stake,
        "dealer": args.dealer,
        "round_wind": args.round_wind,
        "options": _parse_options(args.option),
    }
    if getattr(args, "baozi", False):
        table["baozi"] = True
    if getattr(args, "diling", False):
        table["diling"] = True
    return table


def _score_request(args: argparse.Namespace) -> dict[str, Any]:
    request = _table(args)
    if args.draw:
        return {**request, "event": "draw"}
    if args.escape:
        return {**request, "event": "escape", "escaper": args.escape}
    win_type = "self_draw" if args.self_draw else "rob_kong" if args.rob_kong else "discard"
    win: dict[str, Any] = {"winner": args.winner, "type": win_type}
    if args.hand is not None:
        win["hand"] = args.hand
    else:
        win["declared"] = {
            "hard_flowers": args.hard or 0,
            "soft_flowers": args.soft or 0,
            "patterns": args.pattern,
        }
    flags = {
        "after_kong": args.after_kong,
        "after_flower": args.after_flower,
        "kong_fed_by": args.kong_fed_by,
        "last_tile": args.last_tile,
        "heavenly": args.heavenly,
        "earthly": args.earthly,
        "shangpai": args.shangpai,
    }
    win["flags"] = flags
    if args.wild:
        win["wild"] = args.wild
    if win_type != "self_draw":
        request["discarder"] = args.discarder
    return {**request, "wins": [win]}


def _item_lines(win: WinResult, lang: str, stack: bool, anhui: bool = False) -> list[str]:
    """One line per item: its 花, and a multiplying item's factor (`times`) on a line of its own. 宿州's
    items by its own names (花牌, 碰杠花); a 宿州 pattern that adds nothing (杠开 0) is left out."""
    lines = []
    both = {i["id"] for i in win["items"]} >= {"baozi", "diling"}
    for item in win["items"]:
        own = _TEXT[lang].get(f"ah_{item['id']}") if anhui else None
        name = own or term_name(item["id"], lang)
        times = int(item.get("times", 1))
        if anhui and not item["hua"] and times == 1:
            continue
        if item["hua"] or times == 1:
            lines.append(f"  {name} {item['hua']}")
        if times != 1:  # 豹子 with 滴零 doubles once unless doubling_stack
            shown = "(×1)" if item["id"] == "diling" and both and not stack else f"×{times}"
            lines.append(f"  {name} {shown}")
    return lines


def _reason(win: WinResult, text: dict[str, str]) -> str:
    reason = str(win["reason"])
    if reason == "below_threshold":
        return text["below_threshold"].format(**win["threshold"])
    return text.get(reason, reason)


def render_score(request: dict[str, Any], response: ScoreResponse, lang: str) -> str:
    """An itemized breakdown of a scored hand, Chinese by default."""
    text = _TEXT[lang]
    rule = ruleset(request.get("rules", "suzhou"))
    stack = bool(validate_options(rule.id, request.get("options")).get("doubling_stack"))
    title = rule.zh if lang == "zh" else rule.en
    lines: list[str] = []
    event = request.get("event", "win")
    if event != "win":
        seat = _seat(request["escaper"], lang) if event == "escape" else ""
        lines.append(f"{title} · {text[event].format(seat=seat)}")
    for entry, win in zip(request.get("wins", []), response["wins"], strict=True):
        how = text[entry["type"]].format(seat=_seat(request.get("discarder") or "E", lang))
        hand = f"  {entry['hand']}" if isinstance(entry.get("hand"), str) else ""
        lines.append(f"{title} · {_seat(win['winner'], lang)} {how}{hand}")
        if not win["allowed"]:
            lines.append("  " + text["not_allowed"].format(reason=_reason(win, text)))
            continue
        lines.extend(_item_lines(win, lang, stack, anhui=rule.id != "suzhou"))
        total = "total_sz" if rule.id == "suzhou" else "total_ah"
        lines.append("  " + text[total].format(hua=win["hua"], mult=win["multiplier"]))
    pays = "  ".join(f"{_seat(seat, lang)} {amount:+d}" for seat, amount in response["payments"].items())
    anhui = rule.id != "suzhou"
    lines.append(
        f"{text['payments_ah' if anhui else 'payments'].format(stake=request.get('stake', 1))} {pays}"
    )
    lines.append(
        text["next_ah" if anhui else "next"].format(
            dealer=_seat(response["next_dealer"], lang),
            streak=response["next_streak"],
            diling=text["yes"] if response["next_diling"] else text["no"],
            wind=_seat(response["next_round_wind"], lang),
        )
    )
    return "\n".join(lines)


def render_ting(response: dict[str, Any], lang: str) -> str:
    """The waits of a hand and what each would collect."""
    text = _TEXT[lang]
    if not response["tenpai"]:
        return text["ting_none"]
    lines = [text["ting_head"].format(n=len(response["waits"]))]
    for wait in response["waits"]:
        cases = []
        for case in ("self_draw", "discard"):
            got = wait[case]
            cases.append(f"+{got['receives']} ({got['hua']})" if got["allowed"] else text["not"])
        lines.append(text["wait_line"].format(tile=wait["tile"], sd=cases[0], dc=cases[1]))
    return "\n".join(lines)


def version_line() -> str:
    """The package version."""
    try:
        version = importlib.metadata.version("suzhou-mahjong-bot")
    except importlib.metadata.PackageNotFoundError:
        version = "unknown (not installed)"
    return f"scoring {version}"


def _add_table_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rules", default="suzhou", help="suzhou/苏州 or suzhou-anhui/宿州")
    parser.add_argument("--stake", type=int, default=1, help="stake per 花 (苏州) or base stake b (宿州)")
    parser.add_argument("--dealer", default="E", help="the dealer's seat (E S W N)")
    parser.add_argument("--round-wind", default="E", help="the round wind as a seat letter")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a table option, e.g. threshold=2/3 (repeatable)",
    )
    parser.add_argument("--lang", default="zh", help="zh (default) or en")
    parser.add_argument("--wild", help="宿州 混子 tile, e.g. 2p")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m scoring", description="苏州麻将 / 宿州麻将 scoring core")
    parser.add_argument("--version", action="version", version=version_line())
    commands = parser.add_subparsers(dest="command", required=True)
    score = commands.add_parser("score", help="score one hand")
    score.add_argument("hand", nargs="?", help='hand shorthand, e.g. "11223355778899p 中发春梅百搭"')
    score.add_argument(
        "--json",
        action="store_true",
        help="alone: a request (docs/rules.md §4) on stdin; with a hand or --hard: print JSON",
    )
    _add_table_args(score)
    score.add_argument("--winner", default="E")
    how = score.add_mutually_exclusive_group()
    how.add_argument("--self-draw", action="store_true")
    how.add_argument("--rob-kong", action="store_true", help="robbed the --discarder's 补杠")
    how.add_argument("--draw", action="store_true", help="荒庄: no winner")
    how.add_argument("--escape", metavar="SEAT", help="逃跑: the seat that left")
    score.add_argument("--discarder")
    for flag in (
        "after-kong",
        "after-flower",
        "last-tile",
        "heavenly",
        "earthly",
        "shangpai",
        "baozi",
        "diling",
    ):
        score.add_argument(f"--{flag}", action="store_true")
    score.add_argument("--kong-fed-by", metavar="SEAT", help="包饺子: who fed the 直杠")
    score.add_argument("--hard", type=int, help="quick entry without tiles: 硬花 count")
    score.add_argument("--soft", type=int, help="quick entry: meld 花 count")
    score.add_argument("--pattern", action="append", default=[], help="quick entry: a pattern (repeatable)")
    ting = commands.add_parser("ting", help="waits of a 13-tile hand and what each scores")
    ting.add_argument("hand")
    ting.add_argument("--seat", default="E", help="the waiting player's seat")
    ting.add_argument("--json", action="store_true", help="print the JSON response")
    _add_table_args(ting)
    return parser


def _run(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> None:
    lang = _lang(args.lang)
    if args.command == "ting":
        request: dict[str, Any] = {**_table(args), "hand": args.hand, "seat": args.seat}
        if args.wild:
            request["wild"] = args.wild
        response = ting_request(request)
        out = json.dumps(response, ensure_ascii=False) if args.json else render_ting(response, lang)
        print(out, file=stdout)
        return
    from_args = (
        args.hand is not None
        or args.hard is not None
        or args.soft is not None
        or args.pattern
        or args.draw
        or args.escape
    )
    if args.json and not from_args:
        try:
            request = json.loads(stdin.read())
        except json.JSONDecodeError as exc:
            where = f"line {exc.lineno} column {exc.colno}"
            raise ScoringError(f"request: not valid JSON ({exc.msg} at {where})") from None
        print(json.dumps(score_request(request), ensure_ascii=False), file=stdout)
        return
    request = _score_request(args)
    scored = score_request(request)
    if args.json:
        print(json.dumps(scored, ensure_ascii=False), file=stdout)
    else:
        print(render_score(request, scored, lang), file=stdout)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; exit 0 on success, 2 with {"error": ...} on malformed input."""
    args = build_parser().parse_args(argv)
    try:
        _run(args, sys.stdin, sys.stdout)
    except ScoringError as exc:
        print(json.dumps({"error": str(exc)}, ensure_ascii=False), file=sys.stdout)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
