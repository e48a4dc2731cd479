"""Random Zehner records, for the property tests and the benches."""

from __future__ import annotations

import random
from typing import Any

from scorekeeper import engine
from scorekeeper.engine.record import FORMAT

from .zehner import HAND, NAME, Table

NAMES = ["Anna", "Bernd", "Carla", "Dieter", "Erika", "Fritz"]


def random_record(hands: int, seed: int, players: int = 3) -> dict[str, Any]:
    """A game of up to `hands` hands (fewer when it ends first), each a random split of ten."""
    rng = random.Random(seed)
    names = NAMES[:players]
    table = Table(names, names[0], {})
    played = []
    while len(played) < hands and not table.finished:
        cuts = sorted(rng.randint(0, HAND) for _ in names[1:])
        points = [b - a for a, b in zip([0, *cuts], [*cuts, HAND], strict=True)]
        entry = {"points": {n: p for n, p in zip(names, points, strict=True) if p}}
        engine.apply(table, entry)
        played.append(entry)
    return {"format": FORMAT, "game": NAME, "players": names, "first_dealer": names[0],
            "rules": {}, "hands": played}
