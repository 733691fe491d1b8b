"""ting_request: the waits of a 13-tile hand and what each would score."""

import pytest

from scoring import ScoringError, ting_request


def test_nine_gates_waits_on_every_tile() -> None:
    r = ting_request({"hand": "1112345678999m", "seat": "S", "stake": 2})
    assert r["tenpai"] is True
    assert [w["tile"] for w in r["waits"]] == [f"{rank}m" for rank in range(1, 10)]
    five = r["waits"][4]
    # 大门清 10 + 清一色 10 + 底 5 = 25: self-draw collects 3 × 2 × 25, a discard 2 × 25 from the 上家 E.
    assert five["self_draw"]["hua"] == 25 and five["self_draw"]["receives"] == 150
    assert five["discard"]["receives"] == 50 and five["discard"]["discarder"] == "E"


def test_threshold_shows_per_wait() -> None:
    r = ting_request({"hand": "[555p] 123m456m789m5s 中发白", "seat": "S"})
    (wait,) = r["waits"]
    assert wait["tile"] == "5s"
    assert wait["self_draw"]["allowed"] is True and wait["self_draw"]["receives"] == 24
    assert wait["discard"]["allowed"] is False and wait["discard"]["threshold"] == {"have": 3, "need": 4}


def test_not_waiting() -> None:
    assert ting_request({"hand": "1357m2468p13579s"}) == {"tenpai": False, "waits": []}


def test_anhui_skips_flower_tiles_among_waits() -> None:
    # 混子 2p could complete the hand as anything, but 东 (令风) and 中发白 are flowers, never waits.
    r = ting_request({"rules": "宿州", "hand": "123m456m789m22s5s2p", "wild": "2p", "round_wind": "E"})
    tiles = {w["tile"] for w in r["waits"]}
    assert tiles and not tiles & {"1z", "5z", "6z", "7z"}


def test_bad_ting_input() -> None:
    with pytest.raises(ScoringError, match="hand: wrong tile count"):
        ting_request({"hand": "123m"})
    with pytest.raises(ScoringError, match="unknown key 'winner'"):
        ting_request({"hand": "1112345678999m", "winner": "S"})
