"""Fixtures of the summary tests: a played session in the ledger (SQLite, and PostgreSQL when set)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from bot.ledger import Ledger

# The played session and the bare Application on the in-process Bot API live with the job tests; both
# folders use them.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "jobs"))

from jobs_game import Table, play


@pytest.fixture
def table(ledger: Ledger) -> Table:
    """The played session of HANDS."""
    return play(ledger)
