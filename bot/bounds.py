"""The bounds of what a user may type that more than one layer checks: the grammar names them in its
message before the ledger, which refuses beyond them, is asked."""

from __future__ import annotations

MAX_ADJUST = 10_000_000  # an adjustment's bound: no reachable running total overflows a BIGINT
