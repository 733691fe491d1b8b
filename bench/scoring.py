"""Benchmark of the scoring core against the `mahjong` package (2.1.0) on the same random winning hands.

Run from the repository root: ``python bench/scoring.py [--n 2000] [--seed 1]``. It prints

(a) `scoring.score_request` throughput (rule set ``suzhou``, the hand given as a ``concealed`` string),
(b) `mahjong`'s ``TilesConverter.string_to_136_array`` + ``HandCalculator().estimate_hand_value``,
(c) the win check alone: `scoring.complete.is_complete_counts` / `is_complete` vs ``Agari().is_agari``
    on the same 34-count arrays (the winning hands and, as many, the same hands with one tile changed),
(d) requests shaped like the bot's own (`bot/ledger/hands.py::score` around an entry of
    `bot/grammar/hu.py`: full options dict, table state, flags dict, ``wild``, an explicit ``melds`` list),
    per shape: no melds, exposed pungs, discard wins, the quick form (``declared``); each against
    `mahjong`'s estimate of the same tiles (melds passed as melds, self-draws as tsumo), from the same
    input form as (b) (per-suit strings, converted in the timed loop; the target's ratio) and, for
    reference, from 136-arrays and Meld objects built before timing,
(e) ``ting_request`` on random 13-tile 宿州 hands with 1-3 混子 (a third of them one suit): p50/p99/max of
    wall and CPU time, in this process and in a fresh interpreter (the first reads of each suit shape),
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

from scoring.complete import is_complete, is_complete_counts  # noqa: E402
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


BOT_SHAPES = ("melds []", "exposed pungs", "discard wins", "declared")
_FLAGS = {"after_kong": False, "after_flower": False, "kong_fed_by": None, "last_tile": False,
          "heavenly": False, "earthly": False, "shangpai": False}


def make_bot_cases(n: int, seed: int, shape: str) -> list[dict[str, Any]]:
    """`n` requests of one bot shape, each with its hand for `mahjong`: tiles, winning tile, pung tiles."""
    from scoring.rules import default_options

    rng = random.Random(f"{seed}-{shape}")
    options = {**default_options("suzhou"), "threshold": "2/3"}  # a table's full options, as the ledger keeps
    cases = []
    while len(cases) < n:
        tiles = random_winning_hand(rng)
        pungs = ([t for t in sorted(set(tiles)) if tiles.count(t) >= 3][: rng.randint(1, 2)]
                 if shape == "exposed pungs" else [])
        if shape == "exposed pungs" and not pungs:
            continue
        concealed = list(tiles)
        for t in pungs:
            for _ in range(3):
                concealed.remove(t)
        if not is_complete(concealed):  # the pung's tiles were part of chows: another hand
            continue
        win = rng.choice(concealed)
        self_draw = shape != "discard wins" and rng.random() < 0.5
        winner, discarder = rng.sample(["E", "S", "W", "N"], 2)
        entry: dict[str, Any] = {"winner": winner, "type": "self_draw" if self_draw else "discard"}
        flowers = rng.sample(FLOWER_NAMES, rng.randint(0, 6))
        if shape == "declared":
            entry["declared"] = {"hard_flowers": len(flowers), "soft_flowers": rng.randint(0, 2),
                                 "patterns": rng.sample(["qingyise", "duiduihu", "qidui", "hunyise"],
                                                        rng.randint(0, 1))}
        else:
            entry["hand"] = {"concealed": render_tiles(concealed), "winning_tile": tile_name(win),
                             "melds": [{"type": "pung", "tiles": render_tiles([t] * 3), "exposed": True}
                                       for t in pungs],
                             "flowers": flowers}
        entry["flags"] = dict(_FLAGS)
        entry["wild"] = None
        request = {"rules": "suzhou", "options": dict(options), "stake": rng.randint(1, 5),
                   "dealer": rng.choice("ESWN"), "round_wind": "E", "baozi": False, "diling": False,
                   "streak": 0, "hand_number": rng.randint(1, 16), "first_dealer": "E", "event": "win",
                   "discarder": None if self_draw else discarder, "escaper": None, "wins": [entry]}
        cases.append({"request": request, "tiles": tiles, "win": win, "pungs": pungs, "self_draw": self_draw})
    return cases


def random_waiting_hand(rng: random.Random) -> tuple[str, str]:
    """13 tiles of 宿州 (round wind 东, so no 东) with 1-3 copies of a random 混子; a third one suit."""
    playing = [t for t in PLAYING if t != 27]
    wild = rng.choice(playing)
    wilds = rng.randint(1, 3)
    pool = playing
    if rng.random() < 1 / 3:
        base = rng.choice([0, 9, 18])
        pool = list(range(base, base + 9))
    left = [4] * 34
    left[wild] -= wilds
    tiles = [wild] * wilds
    while len(tiles) < 13:
        t = rng.choice(pool)
        if left[t] and t != wild:
            left[t] -= 1
            tiles.append(t)
    return render_tiles(tiles), tile_name(wild)


def to_mahjong_strings(shorthand: str) -> dict[str, str]:
    """'123m456p11z' -> {'man': '123', 'pin': '456', 'sou': '', 'honors': '11'} (the same 34 order)."""
    out = {"man": "", "pin": "", "sou": "", "honors": ""}
    key = {"m": "man", "p": "pin", "s": "sou", "z": "honors"}
    for digits, suit in re.findall(r"([1-9]+)([mpsz])", shorthand):
        out[key[suit]] += digits
    return out


def ting_latencies(k: int, seed: int) -> list[tuple[float, float]]:
    """(wall, CPU) seconds of `ting_request` on `k` random waiting hands with wild tiles."""
    from scoring import ting_request

    rng = random.Random(seed)
    hands = [random_waiting_hand(rng) for _ in range(k)]
    out = []
    for hand, wild in hands:
        request = {"rules": "suzhou-anhui", "round_wind": "E", "hand": hand, "wild": wild}
        start, cpu = time.perf_counter(), time.process_time()
        ting_request(request)
        out.append((time.perf_counter() - start, time.process_time() - cpu))
    return out


def ting_summary(times: list[tuple[float, float]]) -> str:
    """p50/p99/max of wall and CPU time, in ms (CPU time leaves out waiting for a busy machine's CPUs)."""
    k = len(times)
    parts = []
    for name, column in (("wall", 0), ("CPU", 1)):
        ms = sorted(t[column] * 1e3 for t in times)
        parts.append(f"{name} p50 {ms[k // 2]:.2f} p99 {ms[int(k * 0.99)]:.2f} max {ms[-1]:.2f} ms")
    return "; ".join(parts)


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
    parser.add_argument("--ting-cold", type=int, default=0, metavar="K",
                        help="only time ting_request on K hands (run by (e) in a fresh interpreter)")
    args = parser.parse_args()
    if args.ting_cold:
        print(ting_summary(ting_latencies(args.ting_cold, args.seed + 2)))
        return
    n = args.n

    from mahjong.agari import Agari
    from mahjong.hand_calculating.hand import HandCalculator
    from mahjong.tile import TilesConverter

    cases = make_cases(n, args.seed)
    for case in cases:
        case["mahjong"] = to_mahjong_strings(case["shorthand"])
        assert sorted(parse_tiles(case["shorthand"])) == case["tiles"]
    import scoring.request

    build = "compiled by mypyc" if scoring.request.__file__.endswith(".so") else "interpreted (not built)"
    print(f"{n} random winning hands (seed {args.seed}), load average {os.getloadavg()[0]:.2f} "
          f"on {os.cpu_count()} CPUs; best of {args.repeats} runs; scoring {build}")

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
        verdict = "meets" if rate_a >= 3 * rate_b else "misses"
        print(f"    ratio score_request / mahjong: {rate_a / rate_b:.2f}x  ({verdict} the 3x target)")

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

    # (d) bot-shaped requests against mahjong on the same tiles
    from mahjong.hand_calculating.hand_config import HandConfig
    from mahjong.meld import Meld

    print(f"(d) bot-shaped requests ({n} each; ratio target 3x)")
    tsumo, ron = HandConfig(is_tsumo=True), HandConfig(is_tsumo=False)
    for shape in BOT_SHAPES:
        bot_cases = make_bot_cases(n, args.seed, shape)
        bot_requests = [case["request"] for case in bot_cases]
        # mahjong's input as in (a): the per-suit strings (split before timing, as a parse would), the
        # winning tile and the pungs' tiles; the 136-array, the Meld objects and the win tile are built
        # in the timed loop, as score_request reads its strings there.
        mj_in: list[tuple[dict[str, str], int, list[int], Any]] = [
            (to_mahjong_strings(render_tiles(case["tiles"])), case["win"], case["pungs"],
             tsumo if case["self_draw"] else ron) for case in bot_cases]
        mj_pre: list[tuple[list[int], int, list[Any], Any]] = []  # the same, built before timing
        for strings, win34, pungs, config in mj_in:
            tiles136 = TilesConverter.string_to_136_array(**strings)
            melds = [Meld(Meld.PON, tiles=[t for t in tiles136 if t // 4 == p][:3]) for p in pungs]
            mj_pre.append((tiles136, next(t for t in tiles136 if t // 4 == win34), melds, config))

        def run_bot(reqs: list[dict[str, Any]] = bot_requests) -> None:
            for r in reqs:
                score_request(r)

        def run_mj(inputs: list[tuple[dict[str, str], int, list[int], Any]] = mj_in) -> None:
            for strings, win34, pungs, config in inputs:
                tiles136 = TilesConverter.string_to_136_array(**strings)
                melds = [Meld(Meld.PON, tiles=[t for t in tiles136 if t // 4 == p][:3]) for p in pungs]
                win136 = next(t for t in tiles136 if t // 4 == win34)
                calculator.estimate_hand_value(tiles136, win136, melds=melds or None, config=config)

        def run_mj_pre(inputs: list[tuple[list[int], int, list[Any], Any]] = mj_pre) -> None:
            for tiles136, win136, melds, config in inputs:
                calculator.estimate_hand_value(tiles136, win136, melds=melds or None, config=config)

        for r in bot_requests[:50]:
            assert score_request(r)["wins"], r
        t_bot, t_mj, t_pre = (min(t) for t in interleaved(args.repeats, run_bot, run_mj, run_mj_pre))
        print(f"    {shape:14} score_request {t_bot / n * 1e6:6.1f} µs; mahjong {t_mj / n * 1e6:6.1f} µs "
              f"from strings (ratio {t_mj / t_bot:4.2f}x, {'meets' if t_mj >= 3 * t_bot else 'misses'} 3x), "
              f"{t_pre / n * 1e6:6.1f} µs from built arrays ({t_pre / t_bot:4.2f}x)")

    # (e) /ting on 宿州 hands with wild tiles: here (tables warmed by (a)-(d)) and in a fresh interpreter
    k = max(300, n // 2)
    print(f"(e) ting_request, {k} random 13-tile 宿州 hands with 1-3 混子 (a third one suit); "
          "target p99 <= 5 ms")
    print("    in this process:    " + ting_summary(ting_latencies(k, args.seed + 2)))
    cold = subprocess.run([sys.executable, __file__, "--ting-cold", str(k), "--seed", str(args.seed)],
                          check=True, capture_output=True, text=True, cwd=ROOT)
    print("    fresh interpreter:  " + cold.stdout.strip())

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
