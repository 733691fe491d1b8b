"""Ledger test fixtures; the helpers live in `ledger_helpers` (a module name no other test folder uses)."""

from __future__ import annotations

import pytest
from ledger_helpers import Table, seat_table

from bot.ledger import Ledger


@pytest.fixture
def table(ledger: Ledger) -> Table:
    """A seated table of four, stake 1 (runs on every backend)."""
    return seat_table(ledger)
