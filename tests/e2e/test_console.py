"""Console mode as the README runs it: `python -m bot` without a token, a group chat piped through stdin."""

from __future__ import annotations

import os
import queue
import re
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow
_ECHO = re.compile(r"^@?\w+\s*[:：]")  # an input line as the piped console echoes it


def console_env(workdir: Path) -> dict[str, str]:
    """The environment of console mode: no token, no database URL, the data directory in `workdir`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "DATABASE_", "WEB"))}
    env["DATA_DIR"] = str(workdir / "data")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    return env


def run_console(workdir: Path, script: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot"],
        input=script,
        capture_output=True,
        text=True,
        cwd=workdir,
        env=console_env(workdir),
        timeout=120,
    )


class LiveConsole:
    """`python -m bot` in console mode with stdin kept open: type a line, wait for what the bot prints."""

    def __init__(self, workdir: Path) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "bot"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            bufsize=1,
            cwd=workdir,
            env=console_env(workdir),
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def type(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait_for(self, pattern: str, timeout: float = 60.0) -> str:
        """Reads output until a line of the bot's (not an echoed `name: ...` input line) matches `pattern`."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                line = None
            if line is None:
                self.proc.kill()
                _, err = self.proc.communicate(timeout=30)
                raise AssertionError(f"no line matching {pattern!r} in:\n{''.join(self.seen)}\n{err[-3000:]}")
            self.seen.append(line)
            if not _ECHO.match(line) and re.search(pattern, line):
                return line

    def play(self, line: str, answer: str) -> str:
        """Types a line and waits for the bot's answer matching `answer`."""
        self.type(line)
        return self.wait_for(answer)

    def close(self) -> str:
        """Ends the input (the console quits at end of input); all the output after the last wait_for."""
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=60)
        rest: list[str] = []
        while (line := self.lines.get(timeout=10)) is not None:
            rest.append(line)
        self.seen.extend(rest)
        return "".join(rest)


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
                "bob: [✅ 结束并结算]",
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
    assert re.search(r"bot #\d+ .*新开一场", out) and "[入座]" in out
    assert re.search(r"bot 📌 #\d+ 已置顶", out)
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


def hands_in(db: Path) -> list[int]:
    """The numbers of the ledger's live hands, in order."""
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT number FROM hand WHERE voided = 0 ORDER BY session_id, number")
        return [number for (number,) in rows]


def test_a_hand_typed_after_kill_9_is_a_new_update_not_a_redelivery(tmp_path: Path) -> None:
    """SIGKILL right after a hand is recorded, while the bot still brings its card up to date, then restart:
    the next hand typed is recorded, not answered with the last hand's result as a redelivery. (The bot
    keys a hand by its update; a console that saved its next update id only after the update was handled
    handed that id out again after the kill.) Several rounds: where the kill lands is a race."""
    db = tmp_path / "data" / "mahjong.db"
    console = LiveConsole(tmp_path)
    try:
        console.play("ann: /newgame 苏州 2", r"新开一场")
        console.play("ann: /rules instant on", r"即时记账 已改为")  # a hand commits at once, no Confirm
        console.play("ann: /join", r"Ann")
        console.play("bob: [入座]", r"Bob")
        console.play("cat: /join", r"Cat")
        console.play("dan: /join", r"Dan")
        console.play("ann: /dealer 东", r"庄")
        for number, winner in enumerate(["南", "北", "西", "东", "南"], start=1):
            if number > 1:
                console = LiveConsole(tmp_path)
            said = console.play(f"ann: /hu {winner} 自摸 5花", r"第\d+局 .*→")
            assert re.search(rf"第{number}局 {winner} 自摸 \d+花 → {winner} \+\d+", said), console.seen
            console.proc.kill()
            assert console.proc.wait(timeout=30) == -9
            assert hands_in(db) == list(range(1, number + 1))
    finally:
        if console.proc.poll() is None:
            console.proc.kill()
    # A clean run after the kills goes on with the same table, and its chat shows the hands recorded.
    last = run_console(tmp_path, "eve: /score\n")
    assert last.returncode == 0, last.stderr[-3000:]
    assert "Bob" in last.stdout and re.search(r"\+\d+", last.stdout)
