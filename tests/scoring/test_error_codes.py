"""Every ScoringError a person can cause carries a code and the parameters a translated reply needs."""

from __future__ import annotations

import pytest

from scoring import ScoringError, parse_hand, score_request
from scoring.errors import CODES


@pytest.mark.parametrize(
    ("text", "code", "params"),
    [
        ("11223355778899p1p", "tile_count", {"concealed": 15, "expected": 14}),
        ("99999p112233445m", "too_many_copies", {"tile": "9p", "count": 5}),
        ("1122335577889p冲9p", "unknown_token", {"token": "冲"}),
        ("11223355778899", "no_suit", {"token": "11223355778899"}),
        ("1122335577p[55", "bad_meld", {}),
        ("11223355778899p 中 5p", "after_flowers", {"token": "5p"}),
        ("1122335577889p+", "bad_marker", {}),
        ("", "no_tiles", {}),
    ],
)
def test_a_bad_hand_names_what_is_wrong_by_code(text: str, code: str, params: dict[str, object]) -> None:
    with pytest.raises(ScoringError) as refused:
        parse_hand(text)
    assert refused.value.code == code, str(refused.value)
    assert params.items() <= refused.value.params.items()


def test_a_flower_tile_among_the_playing_tiles_is_named() -> None:
    request = {
        "rules": "suzhou",
        "wins": [{"winner": "S", "type": "self_draw", "hand": {"concealed": "112233557788p5z5z"}}],
    }
    with pytest.raises(ScoringError) as refused:
        score_request(request)
    assert refused.value.code == "flower_in_hand"


def test_every_code_is_known_and_an_unknown_one_is_a_bug() -> None:
    assert "invalid" in CODES and len(CODES) >= 20
    with pytest.raises(AssertionError):
        ScoringError("x", code="no_such_code")


def test_flags_and_patterns_that_cannot_be_name_what_they_need() -> None:
    hand = {"concealed": "11223355778899p", "winning_tile": "9p"}
    win = {"winner": "S", "type": "self_draw", "flags": {"after_kong": True}, "hand": hand}
    request = {"rules": "suzhou", "wins": [win]}
    with pytest.raises(ScoringError) as refused:
        score_request(request)
    assert (refused.value.code, refused.value.params) == (
        "flag_needs",
        {"flag": "after_kong", "needs": "kong"},
    )
    quick = {"hard_flowers": 2, "patterns": ["大门清"]}
    declared = {"rules": "suzhou", "wins": [{"winner": "S", "type": "self_draw", "declared": quick}]}
    with pytest.raises(ScoringError) as refused:
        score_request(declared)
    assert refused.value.code == "pattern_conflict" and refused.value.params["other"] == "hua"
    big = {
        "rules": "suzhou",
        "wins": [{"winner": "S", "type": "self_draw", "declared": {"hard_flowers": 99}}],
    }
    with pytest.raises(ScoringError) as refused:
        score_request(big)
    assert refused.value.code == "out_of_range" and refused.value.params["value"] == 99
