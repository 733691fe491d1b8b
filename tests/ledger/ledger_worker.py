"""A separate process that writes to the ledger, for the crash and concurrency tests (not a test module)."""

from __future__ import annotations

import sys
import time
from typing import Any

from sqlalchemy import event
from sqlmodel import Session

from bot.ledger import LedgerService
from bot.ledger.db import open_database
from bot.ledger.models import Hand


def entry_for(k: int) -> dict[str, Any]:
    """A different, always-allowed hand for each k: winners rotate so the dealer moves."""
    winner = "ESWN"[k % 4]
    if k % 5 == 4:
        return {"event": "draw"}
    return {
        "event": "win",
        "wins": [
            {
                "winner": winner,
                "type": "self_draw",
                "declared": {"hard_flowers": 3 + k % 4, "patterns": ["清一色"]},
            }
        ],
    }


def main(argv: list[str]) -> int:
    url, mode, chat = argv[1], argv[2], int(argv[3])
    ledger = LedgerService(open_database(url))
    if mode == "commit-then-wait":
        result = ledger.commit(chat, entry_for(0), source_key=argv[4])
        print(f"COMMITTED {result.hand.id}", flush=True)
        time.sleep(120)
    elif mode == "kill-before-commit":

        def note(session: Session, _context: object) -> None:
            if any(isinstance(obj, Hand) for obj in session.new):
                session.info["wrote_hand"] = True

        def hold(session: Session) -> None:
            if session.info.get("wrote_hand"):
                print("IN_TRANSACTION", flush=True)
                time.sleep(120)

        event.listen(Session, "after_flush", note)
        event.listen(Session, "before_commit", hold)
        ledger.commit(chat, entry_for(0), source_key=argv[4])
        print("UNEXPECTED_COMMIT", flush=True)
    elif mode == "race":
        count, prefix = int(argv[4]), argv[5]
        print("READY", flush=True)
        sys.stdin.readline()
        for k in range(count):
            ledger.commit(chat, entry_for(k), source_key=f"shared-{k}")
            ledger.commit(chat, entry_for(k + 1), source_key=f"{prefix}-{k}")
        print("DONE", flush=True)
    else:
        raise SystemExit(f"unknown mode {mode!r}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
