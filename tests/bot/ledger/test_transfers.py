"""Who-pays-whom: fewest transfers, exact for up to 8 players, always settling every balance."""

from __future__ import annotations

from collections import defaultdict

import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.ledger.money.transfers import EXACT_LIMIT, minimal_transfers


def _settles(balances: dict[str, int], transfers: list[tuple[str, str, int]]) -> bool:
    left = defaultdict(int, balances)
    for payer, payee, amount in transfers:
        assert amount > 0
        left[payer] += amount
        left[payee] -= amount
    return all(v == 0 for v in left.values())


def _partitions(items: list[int]) -> list[list[list[int]]]:
    """Every way to split items into non-empty groups (Bell-number many)."""
    if not items:
        return [[]]
    first, rest = items[0], items[1:]
    result = []
    for partition in _partitions(rest):
        result.append([[first], *partition])
        for i in range(len(partition)):
            result.append([*partition[:i], [first, *partition[i]], *partition[i + 1 :]])
    return result


def _brute_minimum(values: list[int]) -> int:
    """n minus the most disjoint zero-sum groups, trying every partition of the players."""
    people = [v for v in values if v]
    best = max(
        (len(p) for p in _partitions(people) if all(sum(group) == 0 for group in p)),
        default=0,
    )
    return len(people) - best


def test_table_of_four_one_big_winner() -> None:
    balances = {"东": 600, "南": -200, "西": -200, "北": -200}
    transfers = minimal_transfers(balances)
    assert len(transfers) == 3
    assert _settles(balances, transfers)
    assert {payee for _p, payee, _a in transfers} == {"东"}


def test_two_independent_pairs_need_two_transfers_not_three() -> None:
    balances = {"a": 50, "b": -50, "c": 30, "d": -20, "e": -10}
    transfers = minimal_transfers(balances)
    assert _settles(balances, transfers)
    assert len(transfers) == 3  # {a,b} settles in 1, {c,d,e} in 2
    assert ("b", "a", 50) in transfers


def test_settled_table_needs_nothing() -> None:
    assert minimal_transfers({"a": 0, "b": 0}) == []
    assert minimal_transfers({}) == []


def test_rejects_non_zero_sum_and_non_integers() -> None:
    with pytest.raises(ValueError, match="sum to 5"):
        minimal_transfers({"a": 10, "b": -5})
    with pytest.raises(ValueError, match="not an integer"):
        minimal_transfers({"a": 1.5, "b": -1.5})  # type: ignore[dict-item]


@settings(max_examples=examples(80))
@given(st.lists(st.integers(-40, 40), min_size=1, max_size=6))
def test_exact_minimum_matches_brute_force(values: list[int]) -> None:
    values = [*values, -sum(values)]
    balances = {f"p{i}": v for i, v in enumerate(values)}
    transfers = minimal_transfers(balances)
    assert _settles(balances, transfers)
    assert len(transfers) == _brute_minimum(values)


@settings(max_examples=examples(60))
@given(st.lists(st.integers(-10_000, 10_000), min_size=EXACT_LIMIT, max_size=20))
def test_large_groups_settle_in_at_most_n_minus_one(values: list[int]) -> None:
    values = [*values, -sum(values)]
    balances = {i: v for i, v in enumerate(values)}
    transfers = minimal_transfers(balances)
    assert _settles(balances, transfers)  # type: ignore[arg-type]
    nonzero = sum(1 for v in values if v)
    assert len(transfers) <= max(0, nonzero - 1)
