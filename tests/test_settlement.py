"""Settling money balances with the fewest payments (scorekeeper/settlement.py)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.evenings import settlement
from scorekeeper.evenings.settlement import Payment, payments


def assert_settles(balances: dict[str, int], result: list[Payment]) -> None:
    """Fail unless ``result`` is well formed and clears every balance exactly."""
    net: Counter[str] = Counter()
    for payment in result:
        assert type(payment.cents) is int and payment.cents > 0
        assert payment.payer != payment.payee
        assert payment.payer in balances and payment.payee in balances
        net[payment.payer] += payment.cents
        net[payment.payee] -= payment.cents
    for name, cents in balances.items():
        assert net[name] + cents == 0, name
    assert result == sorted(result, key=lambda payment: (payment.payer, payment.payee))
    nonzero = sum(1 for cents in balances.values() if cents != 0)
    assert len(result) <= max(nonzero - 1, 0)


def fewest_by_search(amounts: list[int]) -> int:
    """Return the fewest payments by trying, party by party, every creditor/debtor to clear into."""
    debts = [cents for cents in amounts if cents != 0]

    def search(start: int) -> int:
        while start < len(debts) and debts[start] == 0:
            start += 1
        if start == len(debts):
            return 0
        best = len(debts)
        for other in range(start + 1, len(debts)):
            if debts[other] * debts[start] < 0:
                debts[other] += debts[start]
                best = min(best, 1 + search(start + 1))
                debts[other] -= debts[start]
        return best

    return search(0)


def most_zero_sum_groups(amounts: list[int]) -> int:
    """Return the largest number of disjoint zero-sum groups, trying every set partition."""
    if not amounts:
        return 0
    first, rest = amounts[0], amounts[1:]
    best = 0
    for mask in range(1 << len(rest)):
        chosen = [rest[i] for i in range(len(rest)) if mask >> i & 1]
        if first + sum(chosen) == 0:
            others = [rest[i] for i in range(len(rest)) if not mask >> i & 1]
            best = max(best, 1 + most_zero_sum_groups(others))
    return best


@st.composite
def zero_sum_balances(draw: st.DrawFn) -> dict[str, int]:
    """Draw 2..12 named balances that sum to 0, with zeros and small amounts that often cancel."""
    names = draw(st.lists(st.text(min_size=1, max_size=4), min_size=2, max_size=12, unique=True))
    # Mostly small amounts, so that zero-sum subgroups (and greedy's misses) turn up often.
    amount = st.one_of(st.integers(-9, 9), st.integers(-9, 9), st.integers(-9, 9),
                       st.sampled_from([0, 500, -500, 1000, -1000]), st.integers(-10**6, 10**6))
    amounts = draw(st.lists(amount, min_size=len(names) - 1, max_size=len(names) - 1))
    amounts.append(-sum(amounts))
    return dict(zip(names, amounts, strict=True))


def test_nobody_owing_anything_needs_no_payments():
    assert payments({}) == []
    assert payments({"A": 0, "B": 0, "C": 0}) == []


def test_two_parties_settle_with_one_payment():
    assert payments({"A": 250, "B": -250}) == [Payment("B", "A", 250)]


def test_the_hintersche_money_example_settles_with_three_payments():
    balances = {"A": -1500, "B": -500, "C": 1000, "D": 1000}
    result = payments(balances)
    assert_settles(balances, result)
    assert result == [Payment("A", "C", 1000), Payment("A", "D", 500), Payment("B", "D", 500)]


def test_a_zero_sum_subgroup_saves_a_payment():
    balances = {"A": -5, "B": 5, "C": -7, "D": 7}
    assert payments(balances) == [Payment("A", "B", 5), Payment("C", "D", 7)]


def test_a_zero_sum_split_without_opposites_beats_greedy():
    # Greedy alone (F -9 pays C +7 first, ...) needs five payments; {A, B, C} and {D, E, F} are
    # two zero-sum groups, so four do.
    balances = {"A": -2, "B": -5, "C": 7, "D": 3, "E": 6, "F": -9}
    result = payments(balances)
    assert_settles(balances, result)
    assert result == [Payment("A", "C", 2), Payment("B", "C", 5), Payment("F", "D", 3),
                      Payment("F", "E", 6)]


def test_balances_that_do_not_sum_to_zero_are_rejected():
    with pytest.raises(ValueError, match="sum to 0"):
        payments({"A": 100, "B": -99})
    with pytest.raises(ValueError):
        payments({"A": 1})


def test_amounts_must_be_whole_cents():
    with pytest.raises(TypeError):
        payments({"A": 1.5, "B": -1.5})  # type: ignore[dict-item]
    with pytest.raises(TypeError):
        payments({"A": True, "B": -1})  # type: ignore[dict-item]


def test_the_kasse_is_a_party_like_any_other():
    balances = {"Kasse": 1200, "Anna": -700, "Bernd": -500}
    result = payments(balances)
    assert_settles(balances, result)
    assert result == [Payment("Anna", "Kasse", 700), Payment("Bernd", "Kasse", 500)]


def test_the_same_balances_in_any_order_give_the_same_payments():
    balances = {"E": 3, "A": -3, "D": 3, "B": -3, "C": 6, "F": -6, "G": 0}
    expected = payments(balances)
    names = list(balances)
    shuffler = random.Random(7)
    for _ in range(20):
        shuffler.shuffle(names)
        assert payments({name: balances[name] for name in names}) == expected


def test_equal_amounts_are_matched_in_name_order():
    balances = {"D": -5, "C": -5, "B": 5, "A": 5}
    assert payments(balances) == [Payment("C", "A", 5), Payment("D", "B", 5)]


@settings(max_examples=400, deadline=None)
@given(zero_sum_balances())
def test_random_balances_clear_exactly_with_the_fewest_payments(balances):
    result = payments(balances)
    assert_settles(balances, result)
    nonzero = [cents for cents in balances.values() if cents != 0]
    if len(nonzero) <= 8:
        fewest = fewest_by_search(nonzero)
        assert fewest == len(nonzero) - most_zero_sum_groups(nonzero)
        assert len(result) == fewest


@settings(max_examples=100, deadline=None)
@given(zero_sum_balances())
def test_random_balances_give_the_same_payments_in_any_order(balances):
    assert payments(dict(reversed(list(balances.items())))) == payments(balances)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.integers(-10**4, 10**4), min_size=1, max_size=3), min_size=1,
                max_size=4))
def test_planted_zero_sum_groups_are_all_found(groups):
    # Each drawn group gets a last member that cancels it, so there are at least that many
    # zero-sum groups (those not all zero); the exact search must find at least as many.
    planted = [[*group, -sum(group)] for group in groups]
    amounts = [cents for group in planted for cents in group]
    balances = {f"p{i:02d}": cents for i, cents in enumerate(amounts)}
    result = payments(balances)
    assert_settles(balances, result)
    nonzero = sum(1 for cents in amounts if cents != 0)
    assert len(result) <= nonzero - sum(1 for group in planted if any(group))


def test_sixteen_parties_are_settled_exactly():
    # Four groups of four with distinct powers of 3 as credits: by the uniqueness of base-3
    # digits the planted groups are the only zero-sum split, and there are no opposites to pair,
    # so all 16 parties go through the subset search.
    amounts = []
    for i in range(4):
        credits = [3 ** (3 * i), 3 ** (3 * i + 1), 3 ** (3 * i + 2)]
        amounts += [*credits, -sum(credits)]
    balances = {f"p{i:02d}": cents for i, cents in enumerate(amounts)}
    result = payments(balances)
    assert_settles(balances, result)
    assert len(result) == 16 - 4


@settings(max_examples=60, deadline=None)
@given(st.integers(17, 30), st.randoms(use_true_random=False))
def test_more_than_sixteen_parties_still_clear_exactly(count, rng):
    amounts = [rng.randint(-10**6, 10**6) for _ in range(count - 1)]
    amounts.append(-sum(amounts))
    balances = {f"party {i}": cents for i, cents in enumerate(amounts)}
    assert_settles(balances, payments(balances))


def test_more_than_sixteen_parties_skip_the_subset_search(monkeypatch):
    def refuse(parties):
        raise AssertionError(f"subset search run for {len(parties)} parties")

    amounts = [2 ** i for i in range(19)]
    amounts.append(-sum(amounts))
    balances = {f"p{i:02d}": cents for i, cents in enumerate(amounts)}
    monkeypatch.setattr(settlement, "_zero_sum_groups", refuse)
    result = payments(balances)
    assert_settles(balances, result)
    assert len(result) == 19


def test_exact_opposites_are_paired_first_so_the_rest_fits_the_exact_search():
    # 30 parties: 12 exact opposites and the six from the greedy-beating case above. At most 14
    # zero-sum groups (only pairs of opposites can be groups of two), so 30 - 14 = 16 payments is
    # the fewest; greedy over all 30 would need 17.
    balances = {"A": -2, "B": -5, "C": 7, "D": 3, "E": 6, "F": -9}
    for i in range(12):
        balances[f"debtor {i:02d}"] = -(100 + i)
        balances[f"creditor {i:02d}"] = 100 + i
    result = payments(balances)
    assert_settles(balances, result)
    assert len(result) == 16
    assert Payment("debtor 07", "creditor 07", 107) in result


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(-10**7, 10**7), min_size=1, max_size=12),
       st.sampled_from([10, 50, 100]))
def test_rounding_keeps_the_money_and_gives_each_player_coins(amounts, unit):
    from scorekeeper.evenings.accounts import _round

    balances = {f"P{i}": cents for i, cents in enumerate(amounts)}
    balances["Kasse"] = -sum(amounts)
    exact = dict(balances)
    breakdown = {name: [] for name in balances}
    _round(balances, breakdown, unit)
    assert sum(balances.values()) == 0  # nothing made or lost: the Kasse took the difference
    for name, cents in exact.items():
        told = sum(amount for _game, amount in breakdown[name])
        assert balances[name] - cents == told  # every difference shown as a line
        if name != "Kasse":
            assert balances[name] % unit == 0 and abs(balances[name] - cents) <= unit // 2
