"""Random but valid free-list records (any other game, named by the group), for benchmarks and
tests: each hand writes points for some of the players, now and then a zero-sum hand."""

from __future__ import annotations

import random
from typing import Any

from scorekeeper import engine
from scorekeeper.engine import free_list
from scorekeeper.engine.record import FORMAT

NAMES = ("Kurt", "Hubert", "Hermann", "Alfred", "Erna", "Gretl", "Sepp", "Toni")
GAMES = ("Skat", "Doppelkopf", "Binokel", "Schafkopf", "Jass")


def hand(rng: random.Random, names: list[str], zero_sum: bool) -> dict[str, Any]:
    """Points for one to all of the players (a zero-sum hand names at least two)."""
    named = rng.sample(names, rng.randint(2 if zero_sum else 1, len(names)))
    points = {name: rng.randint(-120, 120) for name in named}
    if zero_sum:
        points[named[0]] -= sum(points.values())
    return {"points": points}


def random_record(hands: int, seed: int, rules: dict[str, Any] | None = None,
                  players: int | None = None) -> dict[str, Any]:
    """A game of up to `hands` hands (fewer when its rules end it first)."""
    rng = random.Random(seed)
    names = list(NAMES[:players or rng.randint(free_list.MIN_PLAYERS, free_list.MAX_PLAYERS)])
    rules = {"name": rng.choice(GAMES), **(rules or {})}
    table = free_list.Table(names, names[0], rules)
    played: list[dict[str, Any]] = []
    while len(played) < hands and not table.finished:
        entry = hand(rng, names, table.rules["zero_sum"])
        engine.apply(table, entry)
        played.append(entry)
    return {"format": FORMAT, "game": free_list.NAME, "rules": rules, "players": names,
            "first_dealer": names[0], "hands": played}


def varied(hands: int, seed: int) -> dict[str, Any]:
    """A game with random rules: the lowest total winning, zero sum, a target or a number of
    hands, money."""
    rng = random.Random(-seed - 1)
    rules: dict[str, Any] = {}
    if rng.random() < 0.7:
        rules["cents_per_point"] = rng.choice((1, 5, 10))
    if rng.random() < 0.5:
        rules["winner"] = "lowest"
    if rng.random() < 0.5:
        rules["zero_sum"] = True
    if rng.random() < 0.3:
        rules["target"] = rng.randint(100, 2000)
    if rng.random() < 0.3:
        rules["hands"] = rng.randint(1, hands + 5)
    return random_record(hands, seed, rules)
