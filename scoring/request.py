"""The JSON interface (docs/rules.md §4): validate a request (`parse_request`), then score every win, settle
and say who deals next (`scoring.response.score_parsed`)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from scoring.entry import FLAG_PATTERN
from scoring.errors import ScoringError
from scoring.hand import Hand, parse_hand, validate_hand
from scoring.hand_json import hand_from_json
from scoring.items import check_hand_tiles, check_wild, flower_copies
from scoring.patterns import NO_FLAGS, PATTERNS, Flags, WinType
from scoring.reading import (
    Event,
    ScoreRequest,
    WinEntry,
    check_keys,
    opt_seat,
    read_bool,
    read_int,
    read_one_tile,
    read_patterns,
    read_seat,
)
from scoring.response import ScoreResponse, score_parsed, settled_json
from scoring.rules import RULESETS, SUZHOU, RuleSet, RuleSetId, ruleset, validate_options
from scoring.score import DEFAULT_TABLES, Declared, Table, flags_from_declared, table_for
from scoring.seats import Seat

_REQUEST_KEYS = frozenset(
    {
        "rules",
        "options",
        "stake",
        "dealer",
        "round_wind",
        "baozi",
        "diling",
        "event",
        "discarder",
        "escaper",
        "wins",
        "streak",
        "hand_number",
        "first_dealer",
    }
)
_WIN_KEYS = frozenset({"winner", "type", "hand", "declared", "flags", "wild"})
FLAG_KEYS = frozenset(
    {"after_kong", "after_flower", "kong_fed_by", "last_tile", "heavenly", "earthly", "shangpai"}
)
_DECLARED_KEYS = frozenset({"hard_flowers", "soft_flowers", "patterns", "winning_tile"})
WIN_TYPES: tuple[WinType, ...] = ("self_draw", "discard", "rob_kong")


def _flags(raw: Any, field: str) -> Flags:
    """The flags object; one that sets nothing (every value false or null) is NO_FLAGS."""
    if raw is None:
        return NO_FLAGS
    if type(raw) is not dict and not isinstance(raw, Mapping):
        raise ScoringError(f"{field}: expected an object of flags")
    check_keys(raw, FLAG_KEYS, field)
    pre = f"{field}."
    flags = Flags(
        after_kong=read_bool(raw, "after_kong", pre),
        after_flower=read_bool(raw, "after_flower", pre),
        kong_fed_by=opt_seat(raw.get("kong_fed_by"), f"{field}.kong_fed_by"),
        last_tile=read_bool(raw, "last_tile", pre),
        heavenly=read_bool(raw, "heavenly", pre),
        earthly=read_bool(raw, "earthly", pre),
        shangpai=read_bool(raw, "shangpai", pre),
    )
    return NO_FLAGS if flags == NO_FLAGS else flags


def _declared(raw: Any, rule: RuleSet, round_wind: Seat, field: str) -> Declared:
    if not isinstance(raw, Mapping):
        raise ScoringError(f"{field}: expected an object with hard_flowers, soft_flowers, patterns")
    check_keys(raw, _DECLARED_KEYS, field)
    most = _MOST_FLOWERS[rule.id, round_wind]
    hard = read_int(raw, "hard_flowers", f"{field}.", 0, 0, most)
    soft = read_int(raw, "soft_flowers", f"{field}.", 0, 0, 200)
    ids = list(dict.fromkeys(read_patterns(raw, field)))  # a pattern named twice counts once
    tile = raw.get("winning_tile")  # optional: what tells a 宿州 discard win on the 混子
    winning = None if tile is None else read_one_tile(tile, f"{field}.winning_tile")
    return Declared(hard, soft, tuple(ids), winning)


_MOST_FLOWERS: Mapping[tuple[str, str], int] = {
    (rules, wind): sum(flower_copies(rules, wind).values()) for rules in RULESETS for wind in "ESWN"
}
"""(rule set, round wind) -> how many flower tiles the set holds: the most 硬花 a declared win may have."""


def _hand(raw: Any, rule: RuleSet, round_wind: Seat, field: str) -> Hand:
    if type(raw) is dict:
        hand = hand_from_json(raw, field=field)
    elif isinstance(raw, str):
        hand = parse_hand(raw, field=field)
    elif isinstance(raw, Hand):  # checked like any other hand: the scorer relies on a validated Hand
        hand = validate_hand(raw.concealed, raw.melds, raw.flowers, raw.winning_tile, field=field)
    else:
        hand = hand_from_json(raw, field=field)
    check_hand_tiles(rule.id, hand, round_wind, field=field)
    return hand


def _win(raw: Any, index: int, rule: RuleSet, round_wind: Seat) -> WinEntry:
    field = f"wins[{index}]"
    if type(raw) is not dict and not isinstance(raw, Mapping):
        raise ScoringError(f"{field}: expected an object with winner, type, hand or declared")
    check_keys(raw, _WIN_KEYS, field)
    if "winner" not in raw:
        raise ScoringError(f"{field}.winner: missing")
    winner = read_seat(raw["winner"], f"{field}.winner")
    win_type = raw.get("type")
    if win_type not in WIN_TYPES:
        raise ScoringError(f"{field}.type: expected self_draw, discard or rob_kong, got {win_type!r}")
    raw_hand = raw.get("hand")
    raw_declared = raw.get("declared")
    if (raw_hand is None) == (raw_declared is None):
        raise ScoringError(f"{field}: give exactly one of 'hand' (the tiles) or 'declared' (the quick entry)")
    wild = None
    if raw.get("wild") is not None:
        wild = read_one_tile(raw["wild"], f"{field}.wild")
        check_wild(rule.id, wild, round_wind, field=f"{field}.wild")
    hand = None if raw_hand is None else _hand(raw_hand, rule, round_wind, f"{field}.hand")
    declared = (
        None if raw_declared is None else _declared(raw_declared, rule, round_wind, f"{field}.declared")
    )
    flags = _flags(raw.get("flags"), f"{field}.flags")
    if declared is not None:  # 杠开 花开 天胡 地胡 海底捞月 among the declared patterns are flags
        flags = flags_from_declared(rule, declared, flags)
    return WinEntry(winner, win_type, hand, declared, flags, wild, field)


def parse_request(request: Any) -> ScoreRequest:
    """Validate a request (docs/rules.md §4); every problem is a ScoringError naming the field."""
    if type(request) is not dict and not isinstance(request, Mapping):
        raise ScoringError("request: expected a JSON object")
    check_keys(request, _REQUEST_KEYS, "")
    get = request.get
    rule = ruleset(get("rules", SUZHOU))
    table = _table(rule, get("options"))
    stake = read_int(request, "stake", "", 1, 1)
    dealer = read_seat(get("dealer", "E"), "dealer")
    round_wind = read_seat(get("round_wind", "E"), "round_wind")
    streak = read_int(request, "streak", "", 0, 0)
    diling = read_bool(request, "diling", "") and rule.dice_doubling
    hand_number = read_int(request, "hand_number", "", 1, 1)
    first_dealer = read_seat(get("first_dealer", "E"), "first_dealer")
    event, discarder, escaper, raw_wins = _event(request)
    wins = tuple([_win(raw, index, rule, round_wind) for index, raw in enumerate(raw_wins)])
    baozi = read_bool(request, "baozi", "") and rule.dice_doubling
    parsed = ScoreRequest(
        rule,
        table.options,
        stake,
        dealer,
        streak,
        diling,
        round_wind,
        hand_number,
        first_dealer,
        baozi,
        event,
        discarder,
        escaper,
        wins,
        table,
    )
    if event == "win":
        _check_wins(parsed)
    elif discarder is not None:
        raise ScoringError(f"discarder: a {event} has no discarder")
    return parsed


def _event(request: Mapping[str, Any]) -> tuple[Event, Seat | None, Seat | None, list[Any]]:
    """The hand's event, discarder, escaper and (unread) wins, checked against each other."""
    event = request.get("event", "win")
    if event not in ("win", "draw", "escape"):
        raise ScoringError(f"event: expected win, draw or escape, got {event!r}")
    raw_wins = request.get("wins") or []
    if not isinstance(raw_wins, list):
        raise ScoringError("wins: expected a list")
    discarder = opt_seat(request.get("discarder"), "discarder")
    escaper = opt_seat(request.get("escaper"), "escaper")
    if event != "win" and raw_wins:
        raise ScoringError(f"wins: a {event} has no wins")
    if event == "escape" and escaper is None:
        raise ScoringError("escaper: an escape needs the seat that left")
    if event != "escape" and escaper is not None:
        raise ScoringError("escaper: only an escape has an escaper")
    if event == "win" and not raw_wins:
        raise ScoringError("wins: a win needs at least one entry")
    return event, discarder, escaper, raw_wins


def _table(rule: RuleSet, raw: Any) -> Table:
    """The Table of a request's options (validated once per distinct options object, `_options_table`)."""
    if raw is None or (type(raw) is dict and not raw):
        return DEFAULT_TABLES[rule.id]
    try:  # the value types too: validate_options reads 1 and True alike, but not 1.0
        items, types = tuple(raw.items()), tuple(map(type, raw.values()))
        hash(items)
    except (TypeError, AttributeError):  # not a mapping, or an unhashable value: validate_options names it
        return table_for(rule, validate_options(rule.id, raw))
    return _options_table(rule.id, items, types)


@lru_cache(maxsize=256)
def _options_table(rules: RuleSetId, items: tuple[tuple[Any, Any], ...], types: tuple[type, ...]) -> Table:
    return table_for(ruleset(rules), validate_options(rules, dict(items)))


def _check_wins(req: ScoreRequest) -> None:
    """The cross-field rules: discarder, several winners, flags that must agree with the win."""
    if len(req.wins) > 1:
        _check_several(req.wins)
    for win in req.wins:
        _check_discarder(req, win)
        if win.flags is NO_FLAGS:  # no flags given: of the checks on flags only the winning tile's applies
            if win.hand is not None and win.hand.winning_tile is None:
                raise ScoringError(f"{win.field}.hand.winning_tile: missing (only 天胡 may leave it out)")
            continue
        _check_flags(req, win, win.flags)
        if win.hand is not None:
            _check_hand_flags(win, win.hand, win.flags, req.table.feeder(win.flags, win.type))


def _check_several(wins: tuple[WinEntry, ...]) -> None:
    winners = [win.winner for win in wins]
    if len(set(winners)) != len(winners):
        raise ScoringError("wins: the same winner twice")
    types = {win.type for win in wins}
    if len(types) > 1 or types == {"self_draw"}:
        raise ScoringError(
            "wins: several winners only on one discard (all 'discard') or one robbed kong (all 'rob_kong')"
        )


def _check_discarder(req: ScoreRequest, win: WinEntry) -> None:
    if win.type == "self_draw":
        if req.discarder is not None:
            raise ScoringError(f"discarder: {win.field} is a self-draw, which has no discarder")
        return
    what = "the robbed player" if win.type == "rob_kong" else "the discarder"
    if req.discarder is None:
        raise ScoringError(f"discarder: a {win.type} win needs {what}")
    if req.discarder == win.winner:
        raise ScoringError(f"discarder: {req.discarder} is also the winner of {win.field}")


def _check_flags(req: ScoreRequest, win: WinEntry, f: Flags) -> None:
    """Flags that need a self-draw, a dealer (or not), another feeder or 宿州."""
    where = f"{win.field}.flags"
    claimed = win.declared.patterns if win.declared is not None else ()
    for flag in ("heavenly", "earthly"):  # a claimed pattern the rules do not score: said before who may
        pid = FLAG_PATTERN[flag]
        if getattr(f, flag) and pid in claimed and pid not in req.table.values:
            name = PATTERNS[pid].zh
            raise ScoringError(
                f"{where}.{flag}: {name} does not score in {req.rule.id}",
                code="pattern_rules",
                pattern=name,
                rules=req.rule.id,
            )
    if (f.after_kong or f.after_flower) and win.type != "self_draw":
        raise ScoringError(
            f"{where}: a win on a replacement tile (杠开/花开/包饺子) is a self-draw",
            code="flag_needs",
            flag="after_kong" if f.after_kong else "after_flower",
            needs="self_draw",
        )
    if f.kong_fed_by == win.winner:
        raise ScoringError(
            f"{where}.kong_fed_by: {win.winner} cannot feed their own kong",
            code="flag_needs",
            flag="kong_fed_by",
            needs="other_feeder",
        )
    if f.heavenly and (win.winner != req.dealer or win.type != "self_draw"):
        raise ScoringError(
            f"{where}.heavenly: 天胡 is the dealer's self-draw on the first 14 tiles",
            code="flag_needs",
            flag="heavenly",
            needs="dealer_self_draw",
        )
    if f.earthly and (win.winner == req.dealer or win.type != "self_draw"):
        raise ScoringError(
            f"{where}.earthly: 地胡 is a non-dealer's self-draw on the first draw",
            code="flag_needs",
            flag="earthly",
            needs="player_self_draw",
        )
    if f.shangpai and not req.rule.shangpai:
        raise ScoringError(
            f"{where}.shangpai: 上牌 is a 宿州 rule", code="flag_needs", flag="shangpai", needs="suzhou_anhui"
        )


def _check_hand_flags(win: WinEntry, hand: Hand, f: Flags, feeder: str | None) -> None:
    """Flags that need something of the hand: a winning tile, a kong, a fed 直杠 (from `feeder`, who pays
    for it: `Table.feeder`), no melds."""
    where = f"{win.field}.flags"
    if hand.winning_tile is None and not f.heavenly:
        raise ScoringError(f"{win.field}.hand.winning_tile: missing (only 天胡 may leave it out)")
    kongs = [m for m in hand.melds if m.kind == "kong"]
    if f.after_kong and not kongs:
        raise ScoringError(
            f"{where}.after_kong: the hand has no kong", code="flag_needs", flag="after_kong", needs="kong"
        )
    fed = [m for m in kongs if m.exposed and m.kong_kind != "added" and m.source in (None, feeder)]
    if feeder is not None and not fed:
        raise ScoringError(
            f"{where}.kong_fed_by: the hand has no exposed 直杠 from {f.kong_fed_by}",
            code="flag_needs",
            flag="kong_fed_by",
            needs="exposed_kong",
        )
    if (f.heavenly or f.earthly) and hand.melds:
        raise ScoringError(
            f"{where}: 天胡/地胡 hands have no melds",
            code="flag_needs",
            flag="heavenly" if f.heavenly else "earthly",
            needs="no_melds",
        )


def score_request(request: Any) -> ScoreResponse:
    """Score one hand: a request (docs/rules.md §4) in, response out; ScoringError names the bad field.

    Besides those keys, `hand` may also be the one-line shorthand string of `scoring.hand.parse_hand`, and the
    request may carry `streak`, `hand_number`, `first_dealer` (the table state); the response adds
    `next_streak` and `next_hand_number`. A win that is not allowed has `hua` 0, no items, a `reason`
    ("below_threshold" with `threshold: {have, need}`, "self_draw_only", "multi_win_off").

    >>> r = score_request({"rules": "suzhou", "stake": 5, "wins": [{"winner": "S", "type": "self_draw",
    ...     "declared": {"hard_flowers": 5, "patterns": ["清一色", "七对"]}}]})
    >>> r["wins"][0]["hua"], r["payments"]
    (40, {'E': -200, 'S': 600, 'W': -200, 'N': -200})
    """
    return score_parsed(parse_request(request))


__all__ = [
    "FLAG_KEYS",
    "WIN_TYPES",
    "Event",
    "ScoreRequest",
    "ScoreResponse",
    "WinEntry",
    "check_keys",
    "parse_request",
    "read_one_tile",
    "read_seat",
    "score_parsed",
    "score_request",
    "settled_json",
]
