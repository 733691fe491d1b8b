"""Dealer rotation for both rule sets: 连庄, 荒庄, 一炮多响, 宿州 round wind (the next_* fields)."""

from scoring_helpers import score, win

PLAIN = "[555p] 123m456m789m5s+5s 中发白春"


def _next(r: dict) -> tuple:
    return r["next_dealer"], r["next_streak"], r["next_diling"], r["next_round_wind"], r["next_hand_number"]


# ---------------------------------------------------------------- 苏州


def test_suzhou_dealer_wins_keeps_the_deal() -> None:
    r = score(win("E", "self_draw", PLAIN), dealer="E", streak=2, hand_number=7)
    assert _next(r) == ("E", 3, False, "E", 8)


def test_suzhou_winner_deals_next() -> None:
    r = score(win("W", "discard", PLAIN), dealer="E", discarder="N", streak=2)
    assert _next(r) == ("W", 0, False, "E", 2)


def test_suzhou_draw_passes_to_next_seat() -> None:
    assert _next(score(event="draw", dealer="N", streak=1)) == ("E", 0, True, "E", 2)


def test_suzhou_draw_stay_option() -> None:
    r = score(event="draw", dealer="N", streak=1, options={"dealer_after_draw": "stay"})
    assert _next(r) == ("N", 2, True, "E", 2)


def test_suzhou_multi_win_dealer_among_winners_keeps() -> None:
    r = score(win("N", "discard", PLAIN), win("E", "discard", PLAIN), dealer="E", discarder="W")
    assert _next(r)[:3] == ("E", 1, True)


def test_suzhou_multi_win_first_from_discarders_next_seat() -> None:
    # S discards; W is the first winner after S (W before N).
    r = score(win("N", "discard", PLAIN), win("W", "discard", PLAIN), dealer="E", discarder="S")
    assert _next(r)[:3] == ("W", 0, True)


def test_suzhou_round_wind_is_carried() -> None:
    r = score(win("S", "self_draw", PLAIN), dealer="N", round_wind="W", first_dealer="E")
    assert r["next_round_wind"] == "W"


def test_suzhou_escape_keeps_the_table() -> None:
    r = score(event="escape", escaper="S", dealer="W", streak=1, diling=True)
    assert _next(r) == ("W", 1, True, "E", 2)


def test_suzhou_no_allowed_win_keeps_the_table() -> None:
    r = score(win("S", "discard", "[555p] 123m456m789m5s+5s 中"), dealer="E", discarder="W", streak=1)
    assert _next(r) == ("E", 1, False, "E", 2)


def test_suzhou_baozi_hand_makes_next_diling() -> None:
    assert score(win("S", "self_draw", PLAIN), baozi=True)["next_diling"] is True


# ---------------------------------------------------------------- 宿州


AH = "suzhou-anhui"


def test_anhui_dealer_win_keeps() -> None:
    r = score(win("S", "self_draw", hard=1), rules=AH, dealer="S", streak=0)
    assert _next(r) == ("S", 1, False, "E", 2)


def test_anhui_idle_win_passes_to_the_next_seat_not_the_winner() -> None:
    r = score(win("N", "self_draw", hard=1), rules=AH, dealer="E", streak=4)
    assert _next(r) == ("S", 0, False, "E", 2)


def test_anhui_round_wind_moves_when_deal_returns_to_first_dealer() -> None:
    r = score(win("S", "self_draw", hard=1), rules=AH, dealer="N", first_dealer="E", round_wind="E")
    assert _next(r)[:4] == ("E", 0, False, "S")


def test_anhui_round_wind_with_another_first_dealer() -> None:
    r = score(win("W", "self_draw", hard=1), rules=AH, dealer="E", first_dealer="S", round_wind="W")
    assert _next(r)[0] == "S" and r["next_round_wind"] == "N"
    r = score(win("W", "self_draw", hard=1), rules=AH, dealer="E", first_dealer="S", round_wind="N")
    assert r["next_round_wind"] == "E"


def test_anhui_full_game_of_sixteen_passes() -> None:
    # Every hand won by a 闲: the deal goes round four times, 东→南→西→北 and back to 东. Each hand is
    # played from the state the previous response names.
    table = {"dealer": "E", "streak": 0, "round_wind": "E", "hand_number": 1}
    winds = []
    for _ in range(16):
        winner = "S" if table["dealer"] != "S" else "W"
        r = score(win(winner, "self_draw", hard=1), rules=AH, **table)
        table = {
            "dealer": r["next_dealer"],
            "streak": r["next_streak"],
            "round_wind": r["next_round_wind"],
            "hand_number": r["next_hand_number"],
        }
        winds.append(table["round_wind"])
    assert winds == ["E"] * 3 + ["S"] * 4 + ["W"] * 4 + ["N"] * 4 + ["E"]
    assert table["hand_number"] == 17 and table["dealer"] == "E"
