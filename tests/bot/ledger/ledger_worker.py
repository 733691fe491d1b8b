"""A separate process that writes to the ledger, for the crash and concurrency tests (not a test module)."""

from __future__ import annotations

import sys
import time
from typing import Any

from sqlalchemy import event, text

from bot.ledger import Ledger
from bot.ledger.play import recording
from bot.ledger.storage.db import open_database
from scoring.entry import Claim, EntryJSON, build_entry


def entry_for(k: int) -> EntryJSON:
    """A different, always-allowed hand for each k: winners rotate so the dealer moves."""
    winner = "ESWN"[k % 4]
    if k % 5 == 4:
        return build_entry("draw")
    return build_entry("self_draw", [Claim(winner, hard_flowers=3 + k % 4, patterns=("清一色",))])


def main(argv: list[str]) -> int:
    url, mode, chat = argv[1], argv[2], int(argv[3])
    ledger = Ledger(open_database(url))
    if mode == "commit-then-wait":
        result = recording.commit(ledger, chat, entry_for(0), source_key=argv[4])
        print(f"COMMITTED {result.hand.id}", flush=True)
        time.sleep(120)
    elif mode == "kill-before-commit":
        # An engine-level hook: whichever way the ledger writes (ORM, Core, DB-API cursor), hold the
        # transaction open at COMMIT once the hand row is in it.
        key = argv[4]

        def hold(conn: Any) -> None:
            if conn.execute(text("SELECT 1 FROM hand WHERE source_key = :key"), {"key": key}).first():
                print("IN_TRANSACTION", flush=True)
                time.sleep(120)

        event.listen(ledger.engine, "commit", hold)
        recording.commit(ledger, chat, entry_for(0), source_key=key)
        print("UNEXPECTED_COMMIT", flush=True)
    elif mode == "race":
        count, prefix = int(argv[4]), argv[5]
        print("READY", flush=True)
        sys.stdin.readline()
        for k in range(count):
            recording.commit(ledger, chat, entry_for(k), source_key=f"shared-{k}")
            recording.commit(ledger, chat, entry_for(k + 1), source_key=f"{prefix}-{k}")
        print("DONE", flush=True)
    else:
        raise SystemExit(f"unknown mode {mode!r}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
