"""ting_request: the waits of a 13-tile hand and what each would score."""

import random
from typing import Any

import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import ScoringError, score_request, ting_request
from scoring.seats import seats_after
from scoring.tiles import parse_tiles, render_tiles, tile_name


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
    assert wait["discard"]["allowed"] is False and wait["discard"]["threshold"]["need"] == 4
    assert wait["discard"]["threshold"]["have"] == 3


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


PLAYING_ANHUI = [t for t in range(31) if t != 27]  # round wind 东: 东 is the 令风, a flower


def wild_waiting_hand(seed: int) -> tuple[str, str]:
    """13 tiles of 宿州 with 1-3 copies of the 混子, a third of them one suit (from a seed)."""
    rng = random.Random(seed)
    wild = rng.choice(PLAYING_ANHUI)
    pool = PLAYING_ANHUI
    if rng.randrange(3) == 0:
        base = rng.choice([0, 9, 18])
        pool = list(range(base, base + 9))
    tiles = [wild] * rng.randint(1, 3)
    while len(tiles) < 13:
        tile = rng.choice(pool)
        if tile != wild and tiles.count(tile) < 4:
            tiles.append(tile)
    return render_tiles(tiles), tile_name(wild)


@settings(max_examples=examples(60))
@given(st.integers(0, 2**32), st.sampled_from(["E", "S"]))
def test_ting_with_wilds_is_score_request_on_every_tile(seed: int, seat: str) -> None:
    # Brute force: every playing tile added to the hand, scored by score_request as a self-draw and as the
    # 上家's discard; the waits are the tiles that make a complete hand, each with the same summary.
    hand, wild = wild_waiting_hand(seed)
    table = {"rules": "suzhou-anhui", "round_wind": "E", "dealer": "E", "stake": 2}
    got = ting_request({**table, "hand": hand, "wild": wild, "seat": seat})
    discarder = seats_after(seat)[2]
    expected = []
    for tile in PLAYING_ANHUI:
        if parse_tiles(hand).count(tile) == 4:
            continue
        entry: dict[str, Any] = {"tile": tile_name(tile)}
        won = {"concealed": render_tiles([*parse_tiles(hand), tile]), "winning_tile": tile_name(tile)}
        try:
            for case_name, extra in (("self_draw", {}), ("discard", {"discarder": discarder})):
                r = score_request(
                    {
                        **table,
                        **extra,
                        "wins": [{"winner": seat, "type": case_name, "hand": won, "wild": wild}],
                    }
                )
                summary = dict(r["wins"][0])
                summary.pop("winner")
                summary["receives"] = r["payments"][seat]
                if extra:
                    summary["discarder"] = discarder
                entry[case_name] = summary
        except ScoringError as error:
            assert "not a complete hand" in str(error)
            continue
        expected.append(entry)
    assert got == {"tenpai": bool(expected), "waits": expected}
