"""Scoring a validated request: each win's 花 and items, the settlement, the next table state; the response
of docs/rules.md §4, typed (`ScoreResponse`, one `WinResult` per win)."""

from __future__ import annotations

from dataclasses import replace
from typing import NotRequired, TypedDict

from scoring.dealer import next_state_fields
from scoring.items import Item
from scoring.patterns import NO_FLAGS, TERMS, term_name
from scoring.reading import ScoreRequest, WinEntry
from scoring.rules import SUZHOU, SUZHOU_ANHUI
from scoring.score import WinScore, refuse_wild_discard, score_declared, score_hand_ways
from scoring.seats import Seat, seats_after
from scoring.settle import escape_payments, settle_anhui, settle_suzhou, suzhou_multiplier


class ItemResult(TypedDict):
    """One scored item of a win: its term id, Chinese name, 花 (or factor), and how many times it counts."""

    id: str
    name: str
    hua: int
    times: NotRequired[int]


class Threshold(TypedDict):
    """Why a win is below the threshold: the 花 it has, the 花 it needs, the patterns exempt from it."""

    have: int
    need: int
    exempt: NotRequired[list[str]]


class WinResult(TypedDict):
    """One win of the response: allowed or why not, its 花, items and settlement multiplier."""

    winner: Seat
    allowed: bool
    reason: str | None
    hua: int
    items: list[ItemResult]
    multiplier: int
    threshold: NotRequired[Threshold]


class ScoreResponse(TypedDict):
    """The response of docs/rules.md §4: every win, the payments by seat, the next table state."""

    wins: list[WinResult]
    payments: dict[Seat, int]
    next_dealer: Seat
    next_diling: bool
    next_round_wind: Seat
    next_streak: int
    next_hand_number: int


def _score_win(req: ScoreRequest, win: WinEntry) -> WinScore:
    if win.declared is not None:
        score = score_declared(
            req.table, win.declared, win_type=win.type, flags=win.flags, field=f"{win.field}.declared"
        )
        return refuse_wild_discard(score, win.type, win.wild, win.declared.winning_tile)
    assert win.hand is not None
    return score_hand_ways(
        req.table,
        win.hand,
        (win.type,),
        flags=win.flags,
        is_dealer=win.winner == req.dealer,
        wild=win.wild,
        round_wind=req.round_wind,
        field=f"{win.field}.hand",
    )[0]


_ZH_NAMES = {term_id: term_name(term_id) for term_id in TERMS}


def _item(name: str, item_id: str, hua: int, times: int) -> ItemResult:
    item: ItemResult = {"id": item_id, "name": name, "hua": hua}
    if times != 1:
        item["times"] = times
    return item


def _win_json(winner: Seat, score: WinScore, multiplier: int) -> WinResult:
    if not score.allowed:
        out: WinResult = {
            "winner": winner,
            "allowed": False,
            "reason": score.reason,
            "hua": 0,
            "items": [],
            "multiplier": 1,
        }
        if score.reason == "below_threshold":
            out["threshold"] = {"have": score.have, "need": score.need}
        return out
    names = _ZH_NAMES
    return {
        "winner": winner,
        "allowed": True,
        "reason": None,
        "hua": score.hua,
        "items": [_item(names[item_id], item_id, hua, times) for item_id, hua, times in score.items],
        "multiplier": multiplier,
    }


def _multi_win_off(req: ScoreRequest, scores: list[WinScore]) -> list[WinScore]:
    """宿州 multi_win=false: only the first allowed winner from the discarder's next seat counts."""
    if req.rule.id != SUZHOU_ANHUI or req.options.get("multi_win") or len(req.wins) < 2:
        return scores
    assert req.discarder is not None
    order = {seat: rank for rank, seat in enumerate(seats_after(req.discarder))}
    allowed = [i for i, score in enumerate(scores) if score.allowed]
    if not allowed:
        return scores
    first = min(allowed, key=lambda i: order[req.wins[i].winner])
    return [
        score
        if i == first or not score.allowed
        else WinScore(False, "multi_win_off", score.hua, score.items, score.patterns)
        for i, score in enumerate(scores)
    ]


def score_parsed(req: ScoreRequest) -> ScoreResponse:
    """Score a validated request (see score_request)."""
    payments: dict[Seat, int] = {"E": 0, "S": 0, "W": 0, "N": 0}
    wins_json: list[WinResult] = []
    winners: list[Seat] = []
    if req.event == "escape":
        assert req.escaper is not None
        payments = escape_payments(req.escaper, req.stake)
    elif req.event == "win":
        scores = [_score_win(req, win) for win in req.wins]
        if len(scores) > 1:
            scores = _multi_win_off(req, scores)
        for win, score in zip(req.wins, scores, strict=True):
            wins_json.append(settled_json(req, win, score, payments))
            if score.allowed:
                winners.append(win.winner)
    assert sum(payments.values()) == 0
    nxt = next_state_fields(
        req.rule.id,
        req.options,
        (req.dealer, req.streak, req.diling, req.round_wind, req.hand_number, req.first_dealer),
        req.event,
        req.discarder,
        req.baozi,
        winners,
    )
    return {
        "wins": wins_json,
        "payments": payments,
        "next_dealer": nxt[0],
        "next_diling": nxt[2],
        "next_round_wind": nxt[3],
        "next_streak": nxt[1],
        "next_hand_number": nxt[4],
    }


def settled_json(req: ScoreRequest, win: WinEntry, score: WinScore, payments: dict[Seat, int]) -> WinResult:
    """Settle one win into the running payments (if allowed); its response entry."""
    if not score.allowed:
        refused = _win_json(win.winner, score, 1)
        if "threshold" in refused:  # what would have let it win: the patterns exempt from the threshold
            refused["threshold"]["exempt"] = [pid for pid in req.rule.patterns if pid in req.rule.exempt]
        return refused
    multiplier = _settle(req, win, score, payments)
    if req.baozi or req.diling:  # 豹子/滴零 double the hand: listed so that a preview shows every factor,
        # after the pattern multipliers and before 包饺子/抢杠 (docs/rules.md §1, the order of multipliers)
        doubling = tuple(
            Item(term, 0, 2) for term, on in (("baozi", req.baozi), ("diling", req.diling)) if on
        )
        cut = next((i for i, item in enumerate(score.items) if item.id in _TRIPLING), len(score.items))
        score = replace(score, items=score.items[:cut] + doubling + score.items[cut:])
    return _win_json(win.winner, score, multiplier)


_TRIPLING = frozenset({"baojiaozi", "songgang", "qianggang"})


def _settle(req: ScoreRequest, win: WinEntry, score: WinScore, payments: dict[Seat, int]) -> int:
    """Settle one allowed win into the running payments; the win's multiplier."""
    flags = win.flags
    if req.rule.id == SUZHOU:
        fed_by = None if flags is NO_FLAGS else req.table.feeder(flags, win.type)
        triple = fed_by is not None or win.type == "rob_kong"
        multiplier = score.factor
        if req.baozi or req.diling or triple:
            multiplier = suzhou_multiplier(
                req.options, baozi=req.baozi, diling=req.diling, triple=triple, pattern_factor=score.factor
            )
        settlement = settle_suzhou(
            win.type,
            win.winner,
            req.discarder,
            score.hua,
            stake=req.stake,
            multiplier=multiplier,
            kong_fed_by=fed_by,
        )
    else:
        settlement = settle_anhui(
            win.type,
            win.winner,
            req.discarder,
            score.hua,
            stake=req.stake,
            dealer=req.dealer,
            shangpai=flags.shangpai,
        )
    winner = win.winner
    for payer, amount in settlement.paid_by.items():  # collect(), written out
        payments[payer] -= amount
        payments[winner] += amount
    return settlement.multiplier


__all__ = ["ItemResult", "ScoreResponse", "Threshold", "WinResult", "score_parsed", "settled_json"]
