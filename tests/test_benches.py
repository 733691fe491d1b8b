"""The benchmarks still run: each of bench/ at its smallest sizes, in a process of its own, prints its
figures beside its named peer (a bench that breaks unnoticed measures nothing; twice a ledger change
broke bench/ledger.py's bulk load before anyone ran it). What the figures are is the benches' to print,
not a test's to assert."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

BENCHES = {  # the arguments, and the words of the figures beside the peer
    "scoring": (["--n", "30", "--repeats", "1"], ("mahjong", "p99")),
    "bot": (
        [
            "--cpu-hands",
            "3",
            "--cpu-pairs",
            "2",
            "--hands",
            "1",
            "--tables",
            "2",
            "--rounds",
            "1",
            "--paced-tables",
            "2",
            "--pace-seconds",
            "1",
            "--limit-hands",
            "1",
            "--summary-hands",
            "3",
        ],
        ("bare PTB Application, same calls", "ratio", "SQL statements", "cold", "AIORateLimiter"),
    ),
    "season": (["--nights", "2", "--hands", "3", "--reads", "2"], ("/score all-time", "p95")),
    "stall": (
        ["--tables", "2", "--hands", "30", "--every", "0.05", "--delay", "0"],
        ("alone (the peer)", "while the summary builds", "p99"),
    ),
    "ledger": (
        ["--sizes", "30", "--backends", "sqlite", "--commits", "2", "--reads", "1", "--sessions", "3"],
        ("in a thread of the bot's process", "meanwhile ms", "ratio"),
    ),
}


@pytest.mark.slow
@pytest.mark.bench
@pytest.mark.parametrize("name", sorted(BENCHES))
def test_the_bench_runs_and_names_its_peer(name: str) -> None:
    args, words = BENCHES[name]
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / f"{name}.py"), *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert all(word in done.stdout for word in words), done.stdout[-2000:]
