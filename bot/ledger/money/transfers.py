"""Who pays whom: the fewest transfers that settle integer balances (exact up to 8 players, greedy beyond)."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import TypeVar

K = TypeVar("K", bound=Hashable)

EXACT_LIMIT = 8


def minimal_transfers(balances: Mapping[K, int]) -> list[tuple[K, K, int]]:
    """Transfers (payer, payee, amount > 0) that bring every balance to zero.

    Balances must be integers summing to zero (ValueError otherwise). With up to `EXACT_LIMIT` non-zero
    balances the number of transfers is the minimum: n minus the largest number of disjoint zero-sum
    groups the players split into. Beyond that a greedy largest-debtor-to-largest-creditor settlement.

    >>> minimal_transfers({"a": 30, "b": -10, "c": -20})
    [('c', 'a', 20), ('b', 'a', 10)]
    >>> minimal_transfers({"a": 5, "b": -5, "c": 7, "d": -7})
    [('d', 'c', 7), ('b', 'a', 5)]
    """
    for key, value in balances.items():
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError(f"balance of {key!r} is not an integer: {value!r}")
    total = sum(balances.values())
    if total != 0:
        raise ValueError(f"balances sum to {total}, not zero")
    people = [(k, v) for k, v in balances.items() if v != 0]
    groups = _zero_sum_groups(people) if len(people) <= EXACT_LIMIT else [people]
    transfers: list[tuple[K, K, int]] = []
    for group in groups:
        transfers.extend(_greedy(group))
    return transfers


def _zero_sum_groups(people: list[tuple[K, int]]) -> list[list[tuple[K, int]]]:
    """Split into the largest number of disjoint zero-sum groups (subset DP, O(2^n n))."""
    n = len(people)
    if n == 0:
        return []
    full = (1 << n) - 1
    sums = [0] * (full + 1)
    for mask in range(1, full + 1):
        low = mask & -mask
        sums[mask] = sums[mask ^ low] + people[low.bit_length() - 1][1]
    # best[mask]: most zero-sum groups an ordering of mask's members can close, counting prefixes.
    best = [0] * (full + 1)
    for mask in range(1, full + 1):
        top = 0
        bits = mask
        while bits:
            low = bits & -bits
            bits ^= low
            top = max(top, best[mask ^ low])
        best[mask] = top + (1 if sums[mask] == 0 else 0)
    # Walk back from the full set: the removed members in reverse form an ordering whose zero prefixes
    # cut the players into best[full] groups.
    order: list[int] = []
    mask = full
    while mask:
        bonus = 1 if sums[mask] == 0 else 0
        bits = mask
        while bits:
            low = bits & -bits
            bits ^= low
            if best[mask ^ low] + bonus == best[mask]:
                order.append(low.bit_length() - 1)
                mask ^= low
                break
    order.reverse()
    groups: list[list[tuple[K, int]]] = []
    current: list[tuple[K, int]] = []
    running = 0
    for index in order:
        current.append(people[index])
        running += people[index][1]
        if running == 0:
            groups.append(current)
            current = []
    return groups


def _greedy(group: list[tuple[K, int]]) -> list[tuple[K, K, int]]:
    """Settle a zero-sum group: largest debtor pays largest creditor; at most len(group) - 1 transfers."""
    creditors = [(v, i, k) for i, (k, v) in enumerate(group) if v > 0]
    debtors = [(-v, i, k) for i, (k, v) in enumerate(group) if v < 0]
    transfers: list[tuple[K, K, int]] = []
    while creditors and debtors:
        creditors.sort(key=_largest_first)
        debtors.sort(key=_largest_first)
        (credit, ci, payee), (debt, di, payer) = creditors[0], debtors[0]
        amount = min(credit, debt)
        transfers.append((payer, payee, amount))
        creditors[0] = (credit - amount, ci, payee)
        debtors[0] = (debt - amount, di, payer)
        if credit == amount:
            creditors.pop(0)
        if debt == amount:
            debtors.pop(0)
    return transfers


def _largest_first(entry: tuple[int, int, object]) -> tuple[int, int]:
    """Sort key of (amount, position, person): the largest amount first, then the earlier position."""
    return -entry[0], entry[1]
