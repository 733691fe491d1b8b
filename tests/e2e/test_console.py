"""Console mode as the README runs it: `python -m bot` without a token, a group chat piped through stdin."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow


def run_console(workdir: Path, script: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "DATABASE_", "WEB"))}
    env["DATA_DIR"] = str(workdir / "data")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    return subprocess.run(
        [sys.executable, "-m", "bot"],
        input=script,
        capture_output=True,
        text=True,
        cwd=workdir,
        env=env,
        timeout=120,
    )


def test_piped_console_plays_a_hand_and_keeps_the_ledger(tmp_path: Path) -> None:
    script = (
        "\n".join(
            [
                "ann: /help",
                "ann: /newgame 苏州 2",
                "ann: /join",
                "bob: [入座]",
                "cat: /join",
                "dan: /join",
                "ann: /dealer 东",
                "ann: /hu 南 自摸 5花",
                "bob: [确认]",
                "ann: /hu 15 tiles 111222333444555m",
                "ann: /score",
                "ann: /end",
            ]
        )
        + "\n"
    )
    done = run_console(tmp_path, script)
    assert done.returncode == 0, done.stderr[-3000:]
    out = done.stdout
    # Every input line is echoed, and the bot answers in the chat.
    assert out.startswith("ann: /help\nbot #2 ")
    assert "/newgame" in out.split("ann: /newgame")[0]  # /help lists the commands
    assert re.search(r"bot #\d+ .*新牌局", out) and "[入座]" in out
    assert re.search(r"bot 📌 #\d+ pinned", out)
    assert "bob: [确认]" in out and re.search(r"第1局 南 自摸 \d+花 → 南 \+\d+", out)
    assert re.search(r"bot ✎ #\d+ 📒", out)  # the pinned ledger card, edited in place
    after_bad = out.split("ann: /hu 15 tiles")[1].split("ann: /score")[0]
    assert after_bad.strip() and "→" not in after_bad  # a refusal, nothing recorded
    assert (tmp_path / "data" / "mahjong.db").exists()
    # /end posts a chart and a CSV: the console saves them and prints their paths.
    files = tmp_path / "data" / "console" / "files"
    saved = sorted(files.iterdir())
    assert {p.suffix for p in saved} == {".png", ".csv"}, saved
    for path in saved:
        assert str(path.relative_to(tmp_path)) in out and path.stat().st_size > 0
    png = next(p for p in saved if p.suffix == ".png")
    assert png.read_bytes().startswith(b"\x89PNG")
    # A second run continues the same chat and the same ledger.
    again = run_console(tmp_path, "eve: /score\n")
    assert again.returncode == 0, again.stderr[-3000:]
    assert "Bob" in again.stdout and re.search(r"\+\d+", again.stdout)
