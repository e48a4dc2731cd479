"""Turn money balances into the fewest payments that clear them.

Payments link the parties into connected groups; each group must add up to zero by itself, and k
parties are only connected by at least k - 1 payments, so n parties in g zero-sum groups need at
least n - g payments. Settling a group greedily (the largest debtor pays the largest creditor the
smaller amount) clears at least one party per payment and two with the last, so k - 1 payments
per group reach that bound: the fewest payments are n minus the largest number of disjoint
zero-sum groups. Exact opposites are paired off first, since some best split always keeps such a
pair as a group of its own; up to 16 remaining parties, a dynamic programme over subsets then
finds the largest number of groups exactly. Beyond that it falls back to greedy: <= n - 1 payments.
"""

import heapq
from collections import defaultdict, deque
from collections.abc import Mapping
from dataclasses import dataclass

# The subset programme costs 2^n * n steps; 16 parties still run in a fraction of a second.
EXACT_LIMIT = 16

Party = tuple[str, int]


@dataclass(frozen=True)
class Payment:
    """One transfer of ``cents`` (always positive) from ``payer`` to ``payee``."""

    payer: str
    payee: str
    cents: int


def payments(balances: Mapping[str, int]) -> list[Payment]:
    """Return the fewest payments found that clear every balance exactly to the cent.

    ``balances`` maps a party's name to cents: positive is owed money, negative owes money. They
    must add up to 0 (else ValueError). The result is sorted by payer, then payee, and does not
    depend on the order of ``balances``.
    """
    _validate(balances)
    # Sorting by name first makes every later tie-break, and so the whole result, deterministic.
    parties = sorted((name, cents) for name, cents in balances.items() if cents != 0)
    result, rest = _pair_opposites(parties)
    if len(rest) <= EXACT_LIMIT:
        for group in _zero_sum_groups(rest):
            result.extend(_settle_greedily(group))
    else:
        result.extend(_settle_greedily(rest))
    return sorted(result, key=lambda payment: (payment.payer, payment.payee))


def _validate(balances: Mapping[str, int]) -> None:
    """Reject names that are not strings, amounts that are not whole cents, and a non-zero sum."""
    for name, cents in balances.items():
        if not isinstance(name, str):
            raise TypeError(f"party names must be strings, not {name!r}")
        # bool is an int subclass, but True as an amount is always a caller's mistake.
        if isinstance(cents, bool) or not isinstance(cents, int):
            raise TypeError(f"balance of {name!r} must be whole cents (int), not {cents!r}")
    total = sum(balances.values())
    if total != 0:
        raise ValueError(f"balances must sum to 0, but sum to {total}")


def _pair_opposites(parties: list[Party]) -> tuple[list[Payment], list[Party]]:
    """Settle each debtor whose debt some creditor is owed exactly with one payment.

    Return those payments and the parties left over. ``parties`` is sorted by name, so debtors and
    creditors with equal amounts are matched in name order.
    """
    creditors: defaultdict[int, deque[str]] = defaultdict(deque)
    for name, cents in parties:
        if cents > 0:
            creditors[cents].append(name)
    paired: set[str] = set()
    result: list[Payment] = []
    for name, cents in parties:
        if cents < 0 and creditors[-cents]:
            payee = creditors[-cents].popleft()
            result.append(Payment(name, payee, -cents))
            paired.update((name, payee))
    return result, [party for party in parties if party[0] not in paired]


def _zero_sum_groups(parties: list[Party]) -> list[list[Party]]:
    """Split zero-sum ``parties`` into the largest possible number of disjoint zero-sum groups."""
    n = len(parties)
    if n == 0:
        return []
    size = 1 << n
    # total[mask]: sum of the parties in mask, built from mask without its lowest bit.
    total = [0] * size
    for mask in range(1, size):
        low = mask & -mask
        total[mask] = total[mask ^ low] + parties[low.bit_length() - 1][1]
    # best[mask]: most zero-sum groups that mask splits into plus, if mask is not zero-sum, one
    # leftover part. Removing parties one at a time, a zero-sum mask closes one more group.
    best = [0] * size
    for mask in range(1, size):
        top = 0
        rest = mask
        while rest:
            low = rest & -rest
            rest ^= low
            if best[mask ^ low] > top:
                top = best[mask ^ low]
        best[mask] = top + (total[mask] == 0)
    # Walk back down from the full set; the parties removed between two zero-sum masks on the
    # way form one group.
    groups: list[list[Party]] = []
    mask = boundary = size - 1
    while mask:
        want = best[mask] - (total[mask] == 0)
        # The lowest such party keeps the split deterministic; one always exists by best's
        # definition.
        low = next(bit for bit in (1 << i for i in range(n))
                   if mask & bit and best[mask ^ bit] == want)
        mask ^= low
        if total[mask] == 0:
            members = boundary ^ mask
            groups.append([parties[i] for i in range(n) if members >> i & 1])
            boundary = mask
    return groups


def _settle_greedily(parties: list[Party]) -> list[Payment]:
    """Clear zero-sum ``parties``: the largest debtor pays the largest creditor the smaller amount.

    Every payment clears at least one of the two and the last clears both, so k parties take at
    most k - 1 payments. Ties go to the name that sorts first.
    """
    debtors = [(cents, name) for name, cents in parties if cents < 0]
    creditors = [(-cents, name) for name, cents in parties if cents > 0]
    heapq.heapify(debtors)
    heapq.heapify(creditors)
    result: list[Payment] = []
    while debtors:
        debt, payer = heapq.heappop(debtors)
        claim, payee = heapq.heappop(creditors)
        cents = min(-debt, -claim)
        result.append(Payment(payer, payee, cents))
        if -debt > cents:
            heapq.heappush(debtors, (debt + cents, payer))
        if -claim > cents:
            heapq.heappush(creditors, (claim + cents, payee))
    return result
