"""Benchmark of the scoring core against the `mahjong` package (2.1.0) on the same random winning hands.

Run from the repository root: ``python bench/scoring.py [--n 2000] [--seed 1]``. It prints

(a) `scoring.score_request` throughput (rule set ``suzhou``, the hand given as a ``concealed`` string),
(b) `mahjong`'s ``TilesConverter.string_to_136_array`` + ``HandCalculator().estimate_hand_value``,
(c) the win check alone: `scoring.decompose.is_complete_counts` / `is_complete` vs ``Agari().is_agari``
    on the same 34-count arrays (the winning hands and, as many, the same hands with one tile changed),
and the ratios, then the cold ``import scoring`` time measured in fresh interpreters.

Hands are concealed 14-tile hands of 万筒条 and the four winds (中发白 are flowers in both rule sets, so
neither side sees dragons); about one in seven is seven pairs. Each side gets the same hand as shorthand
(``123m456p…``); the conversion to `mahjong`'s per-suit strings happens before timing, as a parse would.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scoring.decompose import is_complete, is_complete_counts  # noqa: E402
from scoring.tiles import FLOWER_NAMES, counts34, parse_tiles, render_tiles, tile_name  # noqa: E402

PLAYING = list(range(31))  # 1m-9s and 东南西北


def random_winning_hand(rng: random.Random) -> list[int]:
    """Four sets and a pair, or seven distinct pairs, never more than 4 copies of a tile."""
    while True:
        left = [4] * 34
        tiles: list[int] = []
        if rng.random() < 0.15:
            for t in rng.sample(PLAYING, 7):
                tiles += [t, t]
            return sorted(tiles)
        pair = rng.choice(PLAYING)
        left[pair] -= 2
        tiles += [pair, pair]
        ok = True
        for _ in range(4):
            if rng.random() < 0.55:
                start = rng.choice([t for t in range(27) if t % 9 <= 6])
                run = [start, start + 1, start + 2]
            else:
                t = rng.choice(PLAYING)
                run = [t, t, t]
            for t in run:
                left[t] -= 1
            if min(left) < 0:
                ok = False
                break
            tiles += run
        if ok:
            return sorted(tiles)


def make_cases(n: int, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    cases = []
    for i in range(n):
        tiles = random_winning_hand(rng)
        win = rng.choice(tiles)
        shorthand = render_tiles(tiles)
        flowers = rng.sample(FLOWER_NAMES, rng.randint(0, 6))
        self_draw = i % 2 == 0
        win_entry: dict[str, Any] = {
            "winner": "S",
            "type": "self_draw" if self_draw else "discard",
            "hand": {"concealed": shorthand, "winning_tile": tile_name(win), "flowers": flowers},
        }
        request: dict[str, Any] = {
            "rules": "suzhou", "stake": 1, "dealer": "E", "event": "win", "wins": [win_entry],
        }
        if not self_draw:
            request["discarder"] = "W"
        cases.append({"tiles": tiles, "win": win, "shorthand": shorthand, "request": request})
    return cases


def to_mahjong_strings(shorthand: str) -> dict[str, str]:
    """'123m456p11z' -> {'man': '123', 'pin': '456', 'sou': '', 'honors': '11'} (the same 34 order)."""
    out = {"man": "", "pin": "", "sou": "", "honors": ""}
    key = {"m": "man", "p": "pin", "s": "sou", "z": "honors"}
    for digits, suit in re.findall(r"([1-9]+)([mpsz])", shorthand):
        out[key[suit]] += digits
    return out


def interleaved(repeats: int, *fns: Callable[[], object]) -> list[list[float]]:
    """Wall times of each function, run in turn `repeats` times so that a busy machine hits all alike."""
    times: list[list[float]] = [[] for _ in fns]
    for _ in range(repeats):
        for i, fn in enumerate(fns):
            start = time.perf_counter()
            fn()
            times[i].append(time.perf_counter() - start)
    return times


def measure(probe: tuple[str, dict[str, str]]) -> float:
    """Run code in a fresh interpreter; it prints its own elapsed seconds."""
    code, env = probe
    out = subprocess.run(
        [sys.executable, "-c", code], check=True, env=env, cwd=ROOT, capture_output=True, text=True
    )
    return float(out.stdout.split()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=2000, help="number of random winning hands")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    n = args.n

    from mahjong.agari import Agari
    from mahjong.hand_calculating.hand import HandCalculator
    from mahjong.tile import TilesConverter

    cases = make_cases(n, args.seed)
    for case in cases:
        case["mahjong"] = to_mahjong_strings(case["shorthand"])
        assert sorted(parse_tiles(case["shorthand"])) == case["tiles"]
    print(f"{n} random winning hands (seed {args.seed}), load average {os.getloadavg()[0]:.2f} "
          f"on {os.cpu_count()} CPUs; best of {args.repeats} runs")

    # (a) score_request and (b) mahjong (string -> 136 array -> estimate_hand_value), run in turn
    try:
        from scoring import score_request
    except ImportError:
        score_request = None
    requests = [case["request"] for case in cases]
    calculator = HandCalculator()
    m_inputs = [(case["mahjong"], case["win"]) for case in cases]

    def run_scoring() -> None:
        for r in requests:
            score_request(r)

    def run_mahjong() -> None:
        for strings, win34 in m_inputs:
            tiles136 = TilesConverter.string_to_136_array(**strings)
            win136 = next(t for t in tiles136 if t // 4 == win34)
            calculator.estimate_hand_value(tiles136, win136)

    if score_request is not None:
        responses = [score_request(r) for r in requests[:50]]
        assert all(resp["wins"][0]["hua"] >= 5 for resp in responses)
        times_a, times_b = interleaved(args.repeats, run_scoring, run_mahjong)
        best_a = min(times_a)
        rate_a = n / best_a
        print(f"(a) scoring.score_request          {rate_a:10.0f} hands/s  ({best_a / n * 1e6:7.1f} µs/hand; "
              f"first run {times_a[0] / n * 1e6:.1f} µs/hand)")
    else:
        (times_b,) = interleaved(args.repeats, run_mahjong)
        rate_a = 0.0
        print("(a) scoring.score_request          MISSING (scoring has no score_request yet)")
    best_b = min(times_b)
    rate_b = n / best_b
    print(f"(b) mahjong estimate_hand_value    {rate_b:10.0f} hands/s  ({best_b / n * 1e6:7.1f} µs/hand)")
    if rate_a:
        verdict = "meets" if rate_a >= 5 * rate_b else "misses"
        print(f"    ratio score_request / mahjong: {rate_a / rate_b:.2f}x  ({verdict} the 5x target)")

    # (c) the win check alone, on the same 34-count arrays
    rng = random.Random(args.seed + 1)
    arrays: list[list[int]] = []
    tile_lists: list[list[int]] = []
    for case in cases:
        arrays.append(counts34(case["tiles"]))
        tile_lists.append(case["tiles"])
        broken = list(case["tiles"])
        broken[rng.randrange(14)] = rng.choice(PLAYING)
        if max(counts34(broken)) <= 4:
            arrays.append(counts34(broken))
            tile_lists.append(sorted(broken))
    agari = Agari()
    mine = [is_complete_counts(a) for a in arrays]
    theirs = [agari.is_agari(a) for a in arrays]
    agree = sum(x == y for x, y in zip(mine, theirs, strict=True))

    def run_counts() -> None:
        for a in arrays:
            is_complete_counts(a)

    def run_tiles() -> None:
        for t in tile_lists:
            is_complete(t)

    def run_agari() -> None:
        for a in arrays:
            agari.is_agari(a)

    m = len(arrays)
    checks = interleaved(args.repeats + 2, run_counts, run_tiles, run_agari)
    best_c1, best_c2, best_c3 = (min(t) for t in checks)
    print(f"(c) win check on {m} arrays ({sum(mine)} complete; the two agree on {agree}/{m})")
    print(f"    is_complete_counts (34-array)  {m / best_c1:10.0f} checks/s ({best_c1 / m * 1e6:6.2f} µs)")
    print(f"    is_complete (tile list)        {m / best_c2:10.0f} checks/s ({best_c2 / m * 1e6:6.2f} µs)")
    print(f"    mahjong Agari.is_agari         {m / best_c3:10.0f} checks/s ({best_c3 / m * 1e6:6.2f} µs)")
    print(f"    ratio is_complete_counts / is_agari: {best_c3 / best_c1:.2f}x; "
          f"is_complete / is_agari: {best_c3 / best_c2:.2f}x")

    # Cold import, in fresh interpreters, timed inside them (process start-up noise left out), with
    # bytecode cached the way an installed package has it, and without any bytecode.
    with tempfile.TemporaryDirectory() as cache:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = cache
        env["PYTHONPATH"] = str(ROOT)
        nopyc = {**env, "PYTHONDONTWRITEBYTECODE": "1", "PYTHONPYCACHEPREFIX": os.path.join(cache, "none")}
        call = f"scoring.score_request({requests[0]!r})" if score_request is not None else "None"
        timer = "import time; t = time.perf_counter(); {}; print(time.perf_counter() - t)"
        probes = {
            "import": (timer.format("import scoring"), env),
            "import_nopyc": (timer.format("import scoring"), nopyc),
            "first_call": (timer.format(f"import scoring; {call}"), env),
        }
        measure(probes["first_call"])  # fills the bytecode cache
        best = {name: min(measure(probe) for _ in range(7)) for name, probe in probes.items()}
    print(f"cold `import scoring`: {best['import'] * 1000:.1f} ms (bytecode cached), "
          f"{best['import_nopyc'] * 1000:.1f} ms without bytecode files; target < 50 ms")
    if score_request is not None:
        print("cold `import scoring` + first score_request (loads every module): "
              f"{best['first_call'] * 1000:.1f} ms")
    print("figures are wall-clock on a shared machine: compare the ratios of one run, not runs")

if __name__ == "__main__":
    main()
