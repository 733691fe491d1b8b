"""Settlement: who pays whom for a win; 豹子 滴零 包饺子 抢杠 上牌 multipliers; 逃跑; zero-sum totals."""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from scoring.patterns import WinType
from scoring.rules import OptionValue
from scoring.seats import SEATS, SEATS_AFTER, Seat, next_seat, seats_after

__all__ = [
    "ANHUI_FORMULA",
    "ESCAPE_HUA",
    "SEATS",
    "SEATS_AFTER",
    "Settlement",
    "collect",
    "escape_payments",
    "next_seat",
    "seats_after",
    "settle_anhui",
    "settle_suzhou",
    "suzhou_multiplier",
    "zero_payments",
]

ESCAPE_HUA = 120
"""逃跑: the leaver pays stake × 120 花, split equally among the other three."""


def zero_payments() -> dict[Seat, int]:
    return {"E": 0, "S": 0, "W": 0, "N": 0}


class Settlement(NamedTuple):
    """One win settled: the factor on T/f and what each payer hands the winner, in stake units."""

    multiplier: int
    paid_by: Mapping[Seat, int]


def suzhou_multiplier(
    options: Mapping[str, OptionValue], *, baozi: bool, diling: bool, triple: bool, pattern_factor: int
) -> int:
    """The factor on T, in the order of docs/rules.md §1: the pattern multipliers (大吊车/清一色 x2,
    双豪/三豪七对), then ×2 for 豹子 or 滴零 (×4 for both with doubling_stack), then ×3 for 包饺子/抢杠.

    >>> suzhou_multiplier({"doubling_stack": False}, baozi=True, diling=True, triple=True, pattern_factor=1)
    6
    """
    factor = pattern_factor
    if baozi and diling and options.get("doubling_stack"):
        factor *= 4
    elif baozi or diling:
        factor *= 2
    if triple:
        factor *= 3
    return factor


def settle_suzhou(
    win_type: WinType,
    winner: Seat,
    discarder: Seat | None,
    hua: int,
    *,
    stake: int,
    multiplier: int,
    kong_fed_by: Seat | None,
) -> Settlement:
    """苏州: T per payer. Self-draw: the other three; 包饺子: the feeder alone; discard/抢杠: the discarder.

    >>> settle_suzhou("self_draw", "S", None, 40, stake=5, multiplier=1, kong_fed_by=None).paid_by
    {'W': 200, 'N': 200, 'E': 200}
    """
    amount = stake * hua * multiplier
    if win_type == "self_draw" and kong_fed_by is None:
        return Settlement(multiplier, dict.fromkeys(SEATS_AFTER[winner], amount))
    payer = kong_fed_by if win_type == "self_draw" else discarder
    assert payer is not None
    return Settlement(multiplier, {payer: amount})


ANHUI_FORMULA: Mapping[str, tuple[int, int]] = {
    # case → (a, c): each payer pays b·(a·f + c)
    "dealer_self_draw": (2, 4),
    "self_draw_from_idle": (2, 2),
    "self_draw_from_dealer": (2, 4),
    "dealer_discard_win": (2, 2),
    "idle_discard_win_idle_pays": (2, 1),
    "idle_discard_win_dealer_pays": (2, 2),
}
"""The 宿州 settlement table of docs/rules.md §2 as data."""


def settle_anhui(
    win_type: WinType,
    winner: Seat,
    discarder: Seat | None,
    f: int,
    *,
    stake: int,
    dealer: Seat,
    shangpai: bool,
) -> Settlement:
    """宿州: 庄/闲 formulas over f; 杠开 is a self-draw, 抢杠 a discard by the robbed player; 上牌 ×2.

    >>> settle_anhui("self_draw", "E", None, 3, stake=1, dealer="E", shangpai=False).paid_by
    {'S': 10, 'W': 10, 'N': 10}
    """
    multiplier = 2 if shangpai else 1

    def amount(case: str) -> int:
        a, c = ANHUI_FORMULA[case]
        return stake * (a * f + c) * multiplier

    if win_type == "self_draw":
        if winner == dealer:
            return Settlement(multiplier, {seat: amount("dealer_self_draw") for seat in seats_after(winner)})
        return Settlement(
            multiplier,
            {
                seat: amount("self_draw_from_dealer" if seat == dealer else "self_draw_from_idle")
                for seat in seats_after(winner)
            },
        )
    assert discarder is not None
    if winner == dealer:
        case = "dealer_discard_win"
    elif discarder == dealer:
        case = "idle_discard_win_dealer_pays"
    else:
        case = "idle_discard_win_idle_pays"
    return Settlement(multiplier, {discarder: amount(case)})


def escape_payments(escaper: Seat, stake: int) -> dict[Seat, int]:
    """逃跑: the leaver pays stake × 120 花, 40 to each of the other three.

    >>> escape_payments("W", 1)
    {'E': 40, 'S': 40, 'W': -120, 'N': 40}
    """
    share = stake * ESCAPE_HUA // 3
    payments = {seat: share for seat in SEATS}
    payments[escaper] = -3 * share
    return payments


def collect(payments: dict[Seat, int], winner: Seat, settlement: Settlement) -> None:
    """Move a settlement into the running signed totals (winner +, payers −)."""
    for payer, amount in settlement.paid_by.items():
        payments[payer] -= amount
        payments[winner] += amount
