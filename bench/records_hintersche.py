"""Random but valid Hintersche game records, played out with real cards.

Every deal shuffles the 36-card pack, turns up the bottom card for trump and deals 9 cards to
each player in the deal (the rest lies out of play with fewer than four). The tricks go to
random winners -- in some deals one player is much stronger, so marches and deals where one
player takes all 9 tricks happen too -- and each player's card points are summed. When the engine
asks for a playoff, the tied players play a deal of their own the same way.

    from records_hintersche import random_record
    record = random_record(10_000, seed=1)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from scorekeeper import engine
from scorekeeper.engine import base, hintersche
from scorekeeper.engine.errors import RuleError
from scorekeeper.engine.hintersche import BUTZEN, NAME, OPTIONS, Table
from scorekeeper.engine.record import FORMAT

NAMES = ("Kurt", "Hubert", "Hermann", "Alfred")
PACK = hintersche.PACK
TRICKS = hintersche.TRICKS
PER_PLAYER = hintersche.CARDS_PER_PLAYER
MAX_GAMES = next(o.maximum for o in OPTIONS if o.name == "rubber_games") or 1


def physical_deal(players: Sequence[str], rng: random.Random) -> tuple[dict[str, int], str | None]:
    """Deal real cards to `players`, give each trick a random winner; return the points and
    who took all the tricks (or None)."""
    pack = list(PACK)
    rng.shuffle(pack)
    trump = pack[-1].suit
    k = len(players)
    hands = [pack[i * PER_PLAYER:(i + 1) * PER_PLAYER] for i in range(k)]
    weights = [rng.random() ** 4 + 1e-9 for _ in range(k)]
    points = dict.fromkeys(players, 0)
    won = dict.fromkeys(players, 0)
    for trick in range(TRICKS):
        winner = rng.choices(players, weights)[0]
        won[winner] += 1
        points[winner] += sum(hintersche.card_points(hand[trick], trump) for hand in hands)
    everything = [p for p, n in won.items() if n == TRICKS]
    return points, (everything[0] if everything else None)


def play_entry(table: Table, rng: random.Random) -> dict[str, Any]:
    """Play the next deal at `table` (with any playoffs it needs), apply it, return the entry."""
    players = table.in_deal()
    points, all_tricks = physical_deal(players, rng)
    entry: dict[str, Any] = {"points": points}
    if all_tricks is not None and table.phase == BUTZEN:
        entry["all_tricks"] = all_tricks
    playoffs: list[dict[str, int]] = []
    while True:
        try:
            engine.apply(table, entry)
            return entry
        except RuleError as error:
            if error.code != f"{NAME}.playoff_needed":
                raise
            playoffs.append(physical_deal(error.params["tied"], rng)[0])
            entry["playoffs"] = playoffs


def random_record(hands: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    # Every game takes at least two deals, so the rubber never ends before `hands` deals.
    rules = base.non_default(OPTIONS, {"rubber_games": max(4, min(MAX_GAMES, hands))})
    first_dealer = rng.choice(NAMES)
    table = Table(list(NAMES), first_dealer, rules)
    entries = [play_entry(table, rng) for _ in range(hands)]
    return {"format": FORMAT, "game": NAME, "rules": rules, "players": list(NAMES),
            "first_dealer": first_dealer, "hands": entries}
