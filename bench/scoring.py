"""Benchmark of the scoring core beside the `mahjong` package (2.1.0).

Run from the repository root: ``python bench/scoring.py [--n 2000] [--seed 1]`` measures the scoring core
of this source tree and `mahjong` on the same hands. The figures:

(a) `scoring.score_request` on random winning hands (rule set ``suzhou``, the hand a ``concealed`` string)
    beside `mahjong`'s ``TilesConverter.string_to_136_array`` + ``HandCalculator().estimate_hand_value``;
(c) the win check alone: `scoring.complete.is_complete_counts` / `is_complete` vs ``Agari().is_agari`` on
    the same 34-count arrays (the winning hands and, as many, the same hands with one tile changed);
(d) requests shaped like the bot's own (`bot/ledger/play/hands.py::score` around an entry of
    `bot/grammar/hu.py`
    or of the button flow: the table's full options dict, table state, a full flags dict, ``wild``, an
    explicit ``melds`` list), per shape: no melds, exposed pungs, discard wins, the quick form
    (``declared``); `mahjong` estimates the same tiles (melds as melds, self-draws as tsumo) from the
    same per-suit strings as (a), converted in the timed loop;
(e) ``ting_request`` (/ting) on random 13-tile 宿州 hands with 1-3 混子 (a third of them one suit), in
    requests shaped like the bot's (`bot/handlers/calc.py::ting`: the table's keys, seat 南, flowers):
    p50/p99/max of CPU time, in the measuring process after (a)-(d) and in a fresh interpreter (the first
    reads of each suit shape); target p99 <= 5 ms;
and the cold ``import scoring`` time, measured in fresh interpreters.

Hands are concealed 14-tile hands of 万筒条 and the four winds (中发白 are flowers in both rule sets, so
neither side sees dragons); about one in seven is seven pairs. Figures are CPU µs per call, best of
``--repeats`` runs, on a shared machine: compare the columns of one run, not runs.
"""

from __future__ import annotations

import argparse
import json
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
from scoring.tiles import FLOWER_NAMES, counts34, render_tiles, tile_name  # noqa: E402

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
            "rules": "suzhou",
            "stake": 1,
            "dealer": "E",
            "event": "win",
            "wins": [win_entry],
        }
        if not self_draw:
            request["discarder"] = "W"
        cases.append({"tiles": tiles, "win": win, "shorthand": shorthand, "request": request})
    return cases


BOT_SHAPES = ("melds []", "exposed pungs", "discard wins", "declared")
_FLAGS = {
    "after_kong": False,
    "after_flower": False,
    "kong_fed_by": None,
    "last_tile": False,
    "heavenly": False,
    "earthly": False,
    "shangpai": False,
}


def make_bot_cases(n: int, seed: int, shape: str) -> list[dict[str, Any]]:
    """`n` requests of one bot shape, each with its hand for `mahjong`: tiles, winning tile, pung tiles."""
    from scoring.rules import default_options

    rng = random.Random(f"{seed}-{shape}")
    options = {**default_options("suzhou"), "threshold": "2/3"}  # a table's full options, as the ledger keeps
    cases = []
    while len(cases) < n:
        tiles = random_winning_hand(rng)
        pungs = (
            [t for t in sorted(set(tiles)) if tiles.count(t) >= 3][: rng.randint(1, 2)]
            if shape == "exposed pungs"
            else []
        )
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
            entry["declared"] = {
                "hard_flowers": len(flowers),
                "soft_flowers": rng.randint(0, 2),
                "patterns": rng.sample(["qingyise", "duiduihu", "qidui", "hunyise"], rng.randint(0, 1)),
            }
        else:
            entry["hand"] = {
                "concealed": render_tiles(concealed),
                "winning_tile": tile_name(win),
                "melds": [{"type": "pung", "tiles": render_tiles([t] * 3), "exposed": True} for t in pungs],
                "flowers": flowers,
            }
        entry["flags"] = dict(_FLAGS)
        entry["wild"] = None
        request = {
            "rules": "suzhou",
            "options": dict(options),
            "stake": rng.randint(1, 5),
            "dealer": rng.choice("ESWN"),
            "round_wind": "E",
            "baozi": False,
            "diling": False,
            "streak": 0,
            "hand_number": rng.randint(1, 16),
            "first_dealer": "E",
            "event": "win",
            "discarder": None if self_draw else discarder,
            "escaper": None,
            "wins": [entry],
        }
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


def ting_requests(k: int, seed: int) -> list[dict[str, Any]]:
    """`k` /ting requests as the bot's handler makes them (`bot/handlers/calc.py::ting`): the open 宿州
    table's keys (its full options dict, stake, dealer state), the seat it reads for (南), the hand as
    typed (13 tiles, sometimes with flowers) and the 混子 the words named."""
    from scoring.rules import default_options

    rng = random.Random(seed)
    flowers = [f for f in FLOWER_NAMES[:12] if f != "百搭"]  # 宿州's flower tiles but the 令风
    requests = []
    for _ in range(k):
        hand, wild = random_waiting_hand(rng)
        shown = rng.sample(flowers, rng.choice([0, 0, 1, 2, 3]))
        requests.append(
            {
                "rules": "suzhou-anhui",
                "options": dict(default_options("suzhou-anhui")),
                "stake": rng.randint(1, 5),
                "dealer": rng.choice("ESWN"),
                "round_wind": "E",
                "baozi": False,
                "diling": False,
                "seat": "S",
                "hand": " ".join([hand, *shown]),
                "wild": wild,
            }
        )
    return requests


def ting_latencies(k: int, seed: int) -> list[tuple[float, float]]:
    """(wall, CPU) seconds of `ting_request` on `k` random waiting hands with wild tiles."""
    from scoring import ting_request

    out = []
    for request in ting_requests(k, seed):
        start, cpu = time.perf_counter(), time.process_time()
        ting_request(request)
        out.append((time.perf_counter() - start, time.process_time() - cpu))
    return out


def ting_summary(times: list[tuple[float, float]]) -> dict[str, float]:
    """p50/p99/max of CPU time in ms (CPU time leaves out waiting for a busy machine's CPUs), and wall p99."""
    k = len(times)
    cpu = sorted(t[1] * 1e3 for t in times)
    wall = sorted(t[0] * 1e3 for t in times)
    return {"p50": cpu[k // 2], "p99": cpu[int(k * 0.99)], "max": cpu[-1], "wall_p99": wall[int(k * 0.99)]}


def interleaved(repeats: int, *fns: Callable[[], object]) -> list[list[float]]:
    """CPU seconds of each function, run in turn `repeats` times so that a busy machine hits all alike
    (CPU time, not wall time: on a shared machine the wall clock mostly counts waiting for a CPU)."""
    times: list[list[float]] = [[] for _ in fns]
    for _ in range(repeats):
        for i, fn in enumerate(fns):
            start = time.process_time()
            fn()
            times[i].append(time.process_time() - start)
    return times


def best_us(repeats: int, n: int, *fns: Callable[[], object]) -> list[float]:
    """Best µs per call of each function (`n` calls a run), the functions run in turn."""
    return [min(t) / n * 1e6 for t in interleaved(repeats, *fns)]


def scoring_side(args: argparse.Namespace) -> dict[str, Any]:
    """Every scoring figure of this source tree's `scoring`, measured in this process."""
    from scoring import score_request

    n = args.n
    out: dict[str, Any] = {}
    requests = [case["request"] for case in make_cases(n, args.seed)]
    assert all(score_request(r)["wins"][0]["hua"] >= 5 for r in requests[:50])
    out["a"] = best_us(args.repeats, n, lambda: [score_request(r) for r in requests])[0]
    arrays, tile_lists = check_arrays(args.seed, n)
    m = len(arrays)
    out["c_counts"], out["c_tiles"] = best_us(
        args.repeats + 2,
        m,
        lambda: [is_complete_counts(a) for a in arrays],
        lambda: [is_complete(t) for t in tile_lists],
    )
    for shape in BOT_SHAPES:
        bot_requests = [case["request"] for case in make_bot_cases(n, args.seed, shape)]
        for r in bot_requests[:50]:
            assert score_request(r)["wins"], r
        runs = best_us(args.repeats, n, lambda reqs=bot_requests: [score_request(r) for r in reqs])
        out["d", shape] = runs[0]
    k = max(300, n // 2)
    out["e_k"] = k
    out["e_warm"] = ting_summary(ting_latencies(k, args.seed + 2))
    cold = subprocess.run(
        [sys.executable, __file__, "--ting-cold", str(k), "--seed", str(args.seed)],
        check=True,
        capture_output=True,
        text=True,
        cwd=os.getcwd(),
    )
    out["e_cold"] = json.loads(cold.stdout)
    out["import"] = cold_import(requests[0])
    return out


def check_arrays(seed: int, n: int) -> tuple[list[list[int]], list[list[int]]]:
    """The 34-count arrays (and tile lists) of (c): the winning hands, and each with one tile changed."""
    rng = random.Random(seed + 1)
    arrays: list[list[int]] = []
    tile_lists: list[list[int]] = []
    for case in make_cases(n, seed):
        arrays.append(counts34(case["tiles"]))
        tile_lists.append(case["tiles"])
        broken = list(case["tiles"])
        broken[rng.randrange(14)] = rng.choice(PLAYING)
        if max(counts34(broken)) <= 4:
            arrays.append(counts34(broken))
            tile_lists.append(sorted(broken))
    return arrays, tile_lists


def cold_import(request: dict[str, Any]) -> dict[str, float]:
    """ms of a cold `import scoring` in fresh interpreters (bytecode cached as an installed package has it,
    and none), and of the import with a first score_request."""
    with tempfile.TemporaryDirectory() as cache:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = cache
        env["PYTHONPATH"] = str(ROOT)
        nopyc = {**env, "PYTHONDONTWRITEBYTECODE": "1", "PYTHONPYCACHEPREFIX": os.path.join(cache, "none")}
        timer = "import time; t = time.perf_counter(); {}; print(time.perf_counter() - t)"
        probes = {
            "import": (timer.format("import scoring"), env),
            "import_nopyc": (timer.format("import scoring"), nopyc),
            "first_call": (timer.format(f"import scoring; scoring.score_request({request!r})"), env),
        }
        cwd = str(ROOT)
        measure(probes["first_call"], cwd)  # fills the bytecode cache
        return {name: min(measure(probe, cwd) for _ in range(7)) * 1e3 for name, probe in probes.items()}


def measure(probe: tuple[str, dict[str, str]], cwd: str) -> float:
    """Run code in a fresh interpreter; it prints its own elapsed seconds."""
    code, env = probe
    out = subprocess.run(
        [sys.executable, "-c", code], check=True, env=env, cwd=cwd, capture_output=True, text=True
    )
    return float(out.stdout.split()[-1])


def mahjong_side(args: argparse.Namespace) -> dict[str, Any]:
    """The `mahjong` package's figures on the same hands as `scoring_side`."""
    from mahjong.agari import Agari
    from mahjong.hand_calculating.hand import HandCalculator
    from mahjong.hand_calculating.hand_config import HandConfig
    from mahjong.meld import Meld
    from mahjong.tile import TilesConverter

    n = args.n
    calculator = HandCalculator()
    inputs = [(to_mahjong_strings(case["shorthand"]), case["win"]) for case in make_cases(n, args.seed)]

    def estimate(strings: dict[str, str], win34: int, pungs: list[int], config: Any = None) -> None:
        tiles136 = TilesConverter.string_to_136_array(**strings)
        melds = [Meld(Meld.PON, tiles=[t for t in tiles136 if t // 4 == p][:3]) for p in pungs]
        win136 = next(t for t in tiles136 if t // 4 == win34)
        calculator.estimate_hand_value(tiles136, win136, melds=melds or None, config=config)

    out: dict[str, Any] = {"a": best_us(args.repeats, n, lambda: [estimate(s, w, []) for s, w in inputs])[0]}
    arrays, _ = check_arrays(args.seed, n)
    agari = Agari()
    out["c_counts"] = best_us(args.repeats + 2, len(arrays), lambda: [agari.is_agari(a) for a in arrays])[0]
    out["c_agree"] = sum(is_complete_counts(a) == agari.is_agari(a) for a in arrays), len(arrays)
    tsumo, ron = HandConfig(is_tsumo=True), HandConfig(is_tsumo=False)
    for shape in BOT_SHAPES:
        cases = [
            (
                to_mahjong_strings(render_tiles(case["tiles"])),
                case["win"],
                case["pungs"],
                tsumo if case["self_draw"] else ron,
            )
            for case in make_bot_cases(n, args.seed, shape)
        ]
        out["d", shape] = best_us(args.repeats, n, lambda cs=cases: [estimate(*c) for c in cs])[0]
    return out


def report(ours: dict[Any, Any], mj: dict[Any, Any], args: argparse.Namespace) -> None:
    cols = ["scoring", "mahjong"]
    print(
        f"{args.n} random hands each (seed {args.seed}), best of {args.repeats} runs, CPU µs per call; "
        f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs"
    )
    print(f"{'':40}" + "".join(f"{c:>14}" for c in cols))

    def row(name: str, key: Any, theirs: bool = True) -> None:
        got = [ours[key], mj.get(key) if theirs else None]
        print(f"{name:40}" + "".join(f"{'-' if v is None else f'{v:.1f}':>14}" for v in got))

    row("(a) score_request vs estimate_hand_value", "a")
    agree, m = mj["c_agree"]
    row("(c) is_complete_counts vs is_agari", "c_counts")
    row("    is_complete (a tile list)", "c_tiles", theirs=False)
    print(f"    ({m} arrays; scoring and is_agari agree on {agree})")
    print("(d) the bot's request shapes")
    for shape in BOT_SHAPES:
        row(f"    {shape}", ("d", shape))
    print(
        f"(e) ting_request, {ours['e_k']} random 13-tile 宿州 hands with 1-3 混子, CPU ms; target p99 <= 5 ms"
    )
    for label, key in (("after (a)-(d)", "e_warm"), ("fresh interpreter", "e_cold")):
        e = ours[key]
        print(
            f"    {label:18} p50 {e['p50']:.2f}  p99 {e['p99']:.2f}  max {e['max']:.2f}  "
            f"(wall p99 {e['wall_p99']:.2f})"
        )
    i = ours["import"]
    print(
        f"cold `import scoring`: {i['import']:.1f} ms (bytecode cached), "
        f"{i['import_nopyc']:.1f} ms without bytecode; with a first score_request {i['first_call']:.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=2000, help="number of random hands per measurement")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--ting-cold", type=int, default=0, metavar="K", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.ting_cold:
        print(json.dumps(ting_summary(ting_latencies(args.ting_cold, args.seed + 2))))
        return
    report(scoring_side(args), mahjong_side(args), args)


if __name__ == "__main__":
    main()
