"""Dealer rotation: the table state (庄, 连庄, 滴零, round wind, hand number) after one hand, per rule set."""

from __future__ import annotations

from collections.abc import Mapping

from scoring.rules import SUZHOU, OptionValue, RuleSetId, dice_doubling
from scoring.seats import Seat
from scoring.settle import SEATS, next_seat, seats_after

StateFields = tuple[Seat, int, bool, Seat, int, Seat]
"""What a table carries from hand to hand, in order: `dealer` deals this hand, `streak` counts its 连庄 (0 on
a fresh deal), `diling` says this hand is 滴零, `round_wind` is the 圈风 as a seat letter (宿州: the 令风),
`hand_number` counts hands from 1, and `first_dealer` is the seat that dealt the first hand (the 宿州 round
moves when the deal returns to it)."""


def next_state_fields(
    rules: RuleSetId,
    options: Mapping[str, OptionValue],
    state: StateFields,
    event: str,
    discarder: object,
    baozi: bool,
    winners: list[Seat],
) -> StateFields:
    """The state of the next hand, from this hand's state, event, discarder, 豹子 and allowed winners (in
    order); `rules` a rule-set id.

    苏州: the winner deals next (a winning dealer keeps the deal, 连庄 +1); after 荒庄 the next seat deals
    (`dealer_after_draw="stay"`: the dealer stays); after 一炮多响 the dealer keeps the deal if among the
    winners, else the first winner from the discarder's next seat deals. The next hand is 滴零 after a 豹子,
    a 荒庄 or a 一炮多响. 宿州: the dealer keeps the deal after winning or 黄庄; after a 闲 wins the next seat
    deals, and when the deal returns to `first_dealer` the round wind moves 东→南→西→北.

    A hand that settles nothing (逃跑, or no win allowed) leaves dealer, 连庄, round and a pending 滴零 as
    they were; only the hand number moves (and a 豹子 still makes the next hand 滴零).

    >>> next_state_fields("suzhou", {}, ("E", 0, False, "E", 1, "E"), "win", "W", False, ["S"])
    ('S', 0, False, 'E', 2, 'E')
    """
    dealer, streak, diling, round_wind, hand_number, first_dealer = state
    number = hand_number + 1
    suzhou = rules == SUZHOU
    baozi = baozi and dice_doubling(rules)
    if event == "escape" or (event == "win" and not winners):
        return dealer, streak, dice_doubling(rules) and (diling or baozi), round_wind, number, first_dealer
    if suzhou:
        if event == "draw":
            if options.get("dealer_after_draw", "next") == "stay":
                return dealer, streak + 1, True, round_wind, number, first_dealer
            return next_seat(dealer), 0, True, round_wind, number, first_dealer
        multi = len(winners) > 1
        diling = baozi or multi
        if dealer in winners:
            return dealer, streak + 1, diling, round_wind, number, first_dealer
        if multi and isinstance(discarder, str) and discarder in SEATS:
            first = next(seat for seat in seats_after(discarder) if seat in winners)
        else:
            first = winners[0]
        return first, 0, diling, round_wind, number, first_dealer
    # 宿州
    if event == "draw" or dealer in winners:
        return dealer, streak + 1, False, round_wind, number, first_dealer
    after = next_seat(dealer)
    if after == first_dealer:
        round_wind = next_seat(round_wind)
    return after, 0, False, round_wind, number, first_dealer
