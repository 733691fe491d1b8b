"""The scorer remembers what a reading scores by its facts and the hand's melds, flowers and flags
(`Table.scores`): a warm table scores every hand as a fresh one does."""

from __future__ import annotations

import random
from typing import Any

import pytest

from scoring import score_request
from scoring.errors import ScoringError
from scoring.rules import RULESETS, ruleset, validate_options
from scoring.score import DEFAULT_TABLES, Table, table_for
from scoring.tiles import FLOWER_NAMES, render_tiles, tile_name

_SHARED_FLOWERS = [f for f in FLOWER_NAMES[:12] if f != "百搭"]  # flowers of both rule sets


def _random_request(rng: random.Random) -> dict[str, Any]:
    rules = rng.choice(RULESETS)
    playing = [t for t in range(31) if rules == "suzhou" or t != 27]  # 东 is the 宿州 令风 of round E
    while True:
        tiles = [rng.choice(playing)] * 2
        for _ in range(4):
            t = rng.choice([t for t in playing if rng.random() < 0.6 or t >= 27])
            tiles += [t, t + 1, t + 2] if t < 27 and t % 9 <= 6 and rng.random() < 0.5 else [t] * 3
        if max(tiles.count(t) for t in tiles) <= 4:
            break
    melds: list[dict[str, Any]] = []
    for t in sorted(set(tiles)):
        if tiles.count(t) >= 3 and rng.random() < 0.4:
            for _ in range(3):
                tiles.remove(t)
            kong = rng.random() < 0.5
            melds.append({"type": "kong" if kong else "pung", "tiles": render_tiles([t] * (4 if kong else 3)),
                          "exposed": not kong or rng.random() < 0.5})
    wild = None
    if rules == "suzhou-anhui" and rng.random() < 0.6:
        wild = rng.choice(range(28, 31))
        for _ in range(rng.randint(1, 2)):
            tiles[rng.randrange(len(tiles))] = wild
    win_type = rng.choice(["self_draw", "discard"])
    flags = {key: True for key in ("after_kong", "after_flower", "last_tile", "shangpai")
             if rng.random() < 0.2 and (key != "shangpai" or rules == "suzhou-anhui")
             and (key == "shangpai" or key == "last_tile" or win_type == "self_draw")
             and (key != "after_kong" or any(m["type"] == "kong" for m in melds))}
    win = {"winner": "S", "type": win_type,
           "hand": {"concealed": render_tiles(tiles), "winning_tile": tile_name(rng.choice(tiles)),
                    "melds": melds, "flowers": rng.sample(_SHARED_FLOWERS, rng.randint(0, 5))},
           "flags": flags, "wild": None if wild is None else tile_name(wild)}
    options = ({"extended": rng.random() < 0.5, "menqing_stack": rng.random() < 0.5}
               if rules == "suzhou" else {})
    return {"rules": rules, "options": options, "dealer": rng.choice("ESWN"), "round_wind": "E",
            "discarder": None if win["type"] == "self_draw" else "N", "wins": [win]}


def _tables(requests: list[dict[str, Any]]) -> list[Table]:
    """The tables these requests are scored on (each rule set's defaults, and each set of options)."""
    built = [table_for(ruleset(r["rules"]), validate_options(r["rules"], r["options"])) for r in requests]
    return list({id(table): table for table in (*DEFAULT_TABLES.values(), *built)}.values())


def _score(request: dict[str, Any]) -> object:
    try:
        return score_request(request)
    except ScoringError as e:
        return str(e)


@pytest.mark.parametrize("seed", range(4))
def test_a_warm_table_scores_like_a_fresh_one(seed: int) -> None:
    rng = random.Random(seed)
    requests = [_random_request(rng) for _ in range(300)]
    warm = [_score(r) for r in requests]  # each table's memo filled by all the hands before
    tables = _tables(requests)
    for request, expected in zip(requests, warm, strict=True):
        for table in tables:
            table.scores.clear()
        assert _score(request) == expected, request


def test_what_a_table_remembers_cannot_be_changed() -> None:
    # A remembered score is handed to every later hand with the same key: nothing in it may change.
    import dataclasses

    from scoring.score import WinScore

    rng = random.Random(9)
    requests = [_random_request(rng) for _ in range(200)]
    for request in requests:
        _score(request)
    remembered = [(key, scores) for table in _tables(requests) for key, scores in table.scores.items()]
    assert remembered
    for key, scores in remembered:
        assert isinstance(key, tuple) and isinstance(scores, tuple)
        hash(key)
        for score in scores:
            assert isinstance(score, WinScore)
            assert isinstance(score.items, tuple) and isinstance(score.patterns, tuple)
            with pytest.raises(dataclasses.FrozenInstanceError):
                score.hua = 0  # type: ignore[misc]
