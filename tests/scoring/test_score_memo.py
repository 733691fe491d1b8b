"""What the scorer remembers between hands (suit readings, scores by facts, option tables) changes no
answer: the same hands score the same in any order, in a fresh process, after a caller changed a response."""

from __future__ import annotations

import copy
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import scoring
from scoring import score_request
from scoring.errors import ScoringError
from scoring.rules import RULESETS
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
            melds.append(
                {
                    "type": "kong" if kong else "pung",
                    "tiles": render_tiles([t] * (4 if kong else 3)),
                    "exposed": not kong or rng.random() < 0.5,
                }
            )
    wild = None
    if rules == "suzhou-anhui" and rng.random() < 0.6:
        wild = rng.choice(range(28, 31))
        for _ in range(rng.randint(1, 2)):
            tiles[rng.randrange(len(tiles))] = wild
    win_type = rng.choice(["self_draw", "discard"])
    flags = {
        key: True
        for key in ("after_kong", "after_flower", "last_tile", "shangpai")
        if rng.random() < 0.2
        and (key != "shangpai" or rules == "suzhou-anhui")
        and (key == "shangpai" or key == "last_tile" or win_type == "self_draw")
        and (key != "after_kong" or any(m["type"] == "kong" for m in melds))
    }
    win = {
        "winner": "S",
        "type": win_type,
        "hand": {
            "concealed": render_tiles(tiles),
            "winning_tile": tile_name(rng.choice(tiles)),
            "melds": melds,
            "flowers": rng.sample(_SHARED_FLOWERS, rng.randint(0, 5)),
        },
        "flags": flags,
        "wild": None if wild is None else tile_name(wild),
    }
    options = (
        {"extended": rng.random() < 0.5, "menqing_stack": rng.random() < 0.5} if rules == "suzhou" else {}
    )
    return {
        "rules": rules,
        "options": options,
        "dealer": rng.choice("ESWN"),
        "round_wind": "E",
        "discarder": None if win["type"] == "self_draw" else "N",
        "wins": [win],
    }


def _score(request: dict[str, Any]) -> object:
    try:
        return score_request(request)
    except ScoringError as e:
        return (str(e), e.code, e.params)


_FRESH = """
import json, sys
import scoring
from scoring import ScoringError, score_request
out = [scoring.__file__]
for r in json.load(sys.stdin):
    try:
        out.append(score_request(r))
    except ScoringError as e:
        out.append([str(e), e.code, e.params])
print(json.dumps(out))
"""


def _score_fresh(requests: list[dict[str, Any]], tmp_path: Path) -> list[object]:
    """The requests scored in order by a fresh interpreter running the same scoring package as this one
    (whatever the working directory holds)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(path for path in sys.path if path)}
    out: list[object] = json.loads(
        subprocess.run(
            [sys.executable, "-c", _FRESH],
            input=json.dumps(requests),
            capture_output=True,
            text=True,
            check=True,
            cwd=tmp_path,
            env=env,
        ).stdout
    )
    assert out[0] == scoring.__file__
    return out[1:]


def _as_json(values: list[object]) -> list[object]:
    out: list[object] = json.loads(json.dumps(values))
    return out


@pytest.mark.parametrize("seed", range(2))
def test_the_same_hands_in_another_order_score_the_same(seed: int, tmp_path: Path) -> None:
    # What the scorer has read before (the same suits, the same facts, the same options) never changes
    # what a later hand gets: two fresh processes, the hands in opposite orders.
    rng = random.Random(seed)
    requests = [_random_request(rng) for _ in range(200)]
    forward = _score_fresh(requests, tmp_path)
    backward = _score_fresh(requests[::-1], tmp_path)
    assert backward[::-1] == forward


def test_a_fresh_interpreter_scores_as_a_warm_one(tmp_path: Path) -> None:
    # The first hands a process scores (nothing read before) against the same hands after 300 others.
    rng = random.Random(7)
    warmup = [_random_request(rng) for _ in range(300)]
    requests = [_random_request(rng) for _ in range(60)]
    for r in warmup:
        _score(r)
    warm = [_score(copy.deepcopy(r)) for r in requests]
    assert _score_fresh(requests, tmp_path) == _as_json(warm)


def test_changing_a_response_changes_no_later_one() -> None:
    # A response is the caller's to change: the next response to the same request is as before.
    rng = random.Random(9)
    requests = [r for r in (_random_request(rng) for _ in range(200)) if isinstance(_score(r), dict)]
    assert requests
    for request in requests:
        before = copy.deepcopy(score_request(request))
        response = score_request(request)
        for win in response["wins"]:
            win["hua"] = -1
            win["items"].append({"id": "x", "name": "x", "hua": 99})
            win["items"][0]["hua"] = 1000
            if "threshold" in win:
                win["threshold"]["exempt"].append("x")
        response["payments"]["E"] = 12345
        assert score_request(request) == before
