"""Nothing lost, nothing doubled: SIGKILL around a commit, repeated keys, two processes racing."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from ledger_helpers import CHAT, Table, check_invariants, pend, row_counts
from sqlalchemy import select
from sqlmodel import Session

from bot.ledger import Ledger
from bot.ledger.play import books, recording, sessions
from bot.ledger.storage.db import open_database
from bot.ledger.storage.models import Hand

WORKER = Path(__file__).with_name("ledger_worker.py")


def _spawn(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, str(WORKER), *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[3])},
    )


def _expect(proc: subprocess.Popen[str], line: str, timeout: float = 60) -> str:
    assert proc.stdout is not None
    got = proc.stdout.readline().strip()
    if not got.startswith(line):
        proc.kill()
        _out, err = proc.communicate(timeout=timeout)
        pytest.fail(f"worker said {got!r}, expected {line!r}; stderr:\n{err}")
    return got


def _kill(proc: subprocess.Popen[str]) -> None:
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL


@pytest.mark.slow
def test_a_committed_hand_survives_sigkill(table: Table, db_url: str) -> None:
    proc = _spawn(db_url, "commit-then-wait", str(CHAT), "update:1")
    hand_id = int(_expect(proc, "COMMITTED").split()[1])
    _kill(proc)
    fresh = Ledger(open_database(db_url))  # a new process would open the database like this
    hands = fresh.read(books.hands, table.session.id)
    assert [h.id for h in hands] == [hand_id]
    assert sum(hands[0].payments.values()) == 0 and hands[0].payments["E"] > 0
    assert sessions.require_session(fresh, CHAT).state == hands[0].after
    assert not recording.commit(fresh, CHAT, {"event": "draw"}, source_key="update:1").created
    check_invariants(fresh, table.session.id)
    fresh.engine.dispose()


@pytest.mark.slow
def test_a_kill_before_commit_leaves_nothing(table: Table, db_url: str) -> None:
    before = row_counts(table.ledger)
    state = sessions.require_session(table.ledger, CHAT)
    proc = _spawn(db_url, "kill-before-commit", str(CHAT), "update:2")
    _expect(proc, "IN_TRANSACTION")  # the hand and payments are written but not committed
    _kill(proc)
    fresh = Ledger(open_database(db_url))
    assert row_counts(fresh) == before
    after = sessions.require_session(fresh, CHAT)
    assert (after.state, after.hands_played) == (state.state, 0)
    # the table goes on normally, and the same update can still be recorded once
    assert recording.commit(fresh, CHAT, {"event": "draw"}, source_key="update:2").created
    check_invariants(fresh, table.session.id)
    fresh.engine.dispose()


@pytest.mark.slow
def test_two_processes_racing_never_fork_or_double_record(table: Table, db_url: str) -> None:
    count = 8
    workers = [_spawn(db_url, "race", str(CHAT), str(count), name) for name in ("a", "b")]
    for proc in workers:
        _expect(proc, "READY")
    for proc in workers:
        assert proc.stdin is not None
        proc.stdin.write("GO\n")
        proc.stdin.flush()
    for proc in workers:
        _expect(proc, "DONE", timeout=120)
        proc.wait(timeout=60)
        assert proc.returncode == 0, proc.stderr.read() if proc.stderr else ""
    hands = table.ledger.read(books.hands, table.session.id, include_voided=True)
    assert len(hands) == 3 * count  # shared keys once, each worker's own keys once
    assert sorted(h.seq for h in hands) == list(range(1, 3 * count + 1))
    keys = [h.source_key for h in hands]
    assert len(set(keys)) == len(keys)
    with Session(table.ledger.engine) as s:
        assert s.scalars(select(Hand).where(Hand.source_key == "shared-0")).all()[0].voided is False
    assert sessions.require_session(table.ledger, CHAT).hands_played == 3 * count
    check_invariants(table.ledger, table.session.id)


def test_two_confirm_taps_at_once_record_one_hand(table: Table) -> None:
    ledger = table.ledger
    pending = pend(ledger, CHAT, "hand", {"event": "draw"})
    results: list[bool] = []
    barrier = threading.Barrier(3)

    def tap() -> None:
        barrier.wait()
        results.append(recording.confirm_pending(ledger, pending.id, chat_id=CHAT).created)

    threads = [threading.Thread(target=tap) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == [False, False, True]
    assert len(ledger.read(books.hands, table.session.id)) == 1
