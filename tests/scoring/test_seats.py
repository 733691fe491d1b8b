"""scoring.seats: the one seat vocabulary, and the request fields that read it."""

from __future__ import annotations

import pytest

from scoring import ScoringError, score_request
from scoring.hand import parse_hand
from scoring.hand_json import hand_from_json
from scoring.seats import SEAT_WORDS, SEATS, SEATS_AFTER, next_seat, parse_seat, seats_after

WORDS = {
    "E": ["E", "e", "east", "East", "EAST", "东", "東", "东家", "東家", "东风", "東風"],
    "S": ["S", "s", "south", "南", "南家", "南风", "南風"],
    "W": ["W", "w", "west", "西", "西家", "西风", "西風"],
    "N": ["N", "n", "north", "北", "北家", "北风", "北風"],
}


def test_seats_in_turn_order() -> None:
    assert SEATS == ("E", "S", "W", "N")
    assert [next_seat(seat) for seat in SEATS] == ["S", "W", "N", "E"]
    assert seats_after("W") == ("N", "E", "S") == SEATS_AFTER["W"]


@pytest.mark.parametrize(("seat", "word"), [(seat, word) for seat, words in WORDS.items() for word in words])
def test_every_seat_word(seat: str, word: str) -> None:
    assert parse_seat(word) == seat
    assert parse_seat(f" {word} ") == seat
    assert SEAT_WORDS[word.casefold()] == seat


@pytest.mark.parametrize("word", ["", " ", "X", "ee", "东南", "中", "1z", "dong"])
def test_not_a_seat(word: str) -> None:
    assert parse_seat(word) is None


def test_requests_and_hands_read_the_same_words() -> None:
    r = score_request(
        {
            "rules": "suzhou",
            "dealer": "東家",
            "discarder": "west",
            "wins": [{"winner": "南风", "type": "discard", "declared": {"hard_flowers": 4}}],
        }
    )
    assert r["payments"] == {"E": 0, "S": 9, "W": -9, "N": 0}
    assert parse_hand("123m456m789m5s+5s [555p:北家]").melds[0].source == "N"
    hand = hand_from_json(
        {
            "concealed": "123m456m789m5s5s",
            "winning_tile": "5s",
            "melds": [{"type": "pung", "tiles": "555p", "from": "north"}],
        }
    )
    assert hand.melds[0].source == "N"
    with pytest.raises(ScoringError, match="dealer: bad seat 'X'"):
        score_request({"dealer": "X", "wins": [{"winner": "S", "type": "self_draw", "declared": {}}]})
