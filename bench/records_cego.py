"""Random but valid Cego game records, played with real card values, for benchmarks and tests.

Each game shuffles the pack's card values (`cego.pack`), hands every trick to a player at random
and counts the piles the way the rules count (in pairs or threes): Fach games give the declarer
the Blinde and his tricks, Räuber every player his tricks. The entry then gives the declarer's
count, the defenders' or both, tricks or won, every player's Augen or the losers, and now and
then a forfeit.
"""

from __future__ import annotations

import random
from typing import Any

from scorekeeper.engine import cego

NAMES = ("Anna", "Bernd", "Carla", "Dieter", "Erna")
LOCAL_BIDS = {"leere": 4, "kleiner_mann": 5}
LOCAL_GAMES = {"grebsler": 50}


def counted(values: list[int], group: int) -> int:
    """The Augen of a pile: its cards' values less (group - 1) for every `group` cards."""
    return sum(values) - len(values) * (group - 1) // group


def piles(rng: random.Random, owners: list[int], in_game: int) -> tuple[list[list[int]], list[int]]:
    """Deal the pack and give each trick to one of `owners`: their piles, and the Blinde."""
    values = cego.pack(in_game)
    rng.shuffle(values)
    each, blinde = cego.DEALS[in_game]
    taken: list[list[int]] = [[] for _ in range(max(owners) + 1)]
    weights = [rng.random() + 0.05 for _ in owners]
    for trick in range(each):
        cards = values[blinde + trick * in_game: blinde + (trick + 1) * in_game]
        taken[rng.choices(owners, weights)[0]].extend(cards)
    return taken, values[:blinde]


def game_entry(rng: random.Random, names: list[str], out: int | None, rules: dict[str, Any]
               ) -> dict[str, Any]:
    """One valid entry for a game dealt with the seat `out` sitting out (or None)."""
    seats = [i for i in range(len(names)) if i != out]
    in_game = len(seats)
    group = cego.GROUP[rules.get("counting", "pairs")]
    fach = ["solo", *rules.get("bid_multipliers", cego.DEFAULT_BIDS)]
    fixed = ["ultimo", *rules.get("fixed_games", {})]
    contract = rng.choice(["raeuber"] * 3 + fach * 2 + fixed + ["piccolo", "bettel"])
    player = names[rng.choice(seats)]
    if rng.random() < 0.04:  # a fault decides the game
        key = "announcer" if contract == "raeuber" else "declarer"
        return {"contract": contract, key: player, "forfeit": names[rng.choice(seats)]}
    if contract == "raeuber":
        if rng.random() < 0.2:
            losers = rng.sample(seats, rng.choice((1, 1, 1, 2)))
            return {"contract": contract, "announcer": player,
                    "losers": [names[i] for i in losers]}
        taken, _ = piles(rng, seats, in_game)
        return {"contract": contract, "announcer": player,
                "augen": {names[i]: counted(taken[i], group) for i in seats}}
    entry: dict[str, Any] = {"contract": contract, "declarer": player}
    if contract in fach:
        declarer = names.index(player)
        defenders = [i for i in seats if i != declarer]
        owners = [declarer] * rng.randint(1, 4) + defenders
        taken, blinde = piles(rng, owners, in_game)
        mine = counted(taken[declarer] + blinde, group)
        total = cego.count(in_game, rules.get("counting", "pairs")).total
        how = rng.random()
        if how < 0.6:
            entry["augen"] = mine
        elif how < 0.8:
            entry["defender_augen"] = total - mine
        else:
            entry.update(augen=mine, defender_augen=total - mine)
    elif contract in ("piccolo", "bettel"):
        tricks = rng.choice((0, 1, 1, 2, rng.randint(0, cego.DEALS[in_game][0])))
        if rng.random() < 0.7:
            entry["tricks"] = tricks
        if "tricks" not in entry or rng.random() < 0.2:
            entry["won"] = tricks == cego.TRICKS_TO_WIN[contract]
    else:
        entry["won"] = rng.random() < 0.6
    return entry


def random_record(hands: int, seed: int, players: int = 4,
                  rules: dict[str, Any] | None = None) -> dict[str, Any]:
    """A valid record of `hands` games."""
    rng = random.Random(seed)
    names = list(NAMES[:players])
    rules = dict(rules or {})
    first = rng.randrange(players)
    entries = []
    for game in range(hands):
        dealer = (first + game) % players
        out = dealer if players == cego.SITTING_OUT else None
        entries.append(game_entry(rng, names, out, rules))
    return {"format": "scorekeeper-game/1", "game": "cego", "rules": rules, "players": names,
            "first_dealer": names[first], "hands": entries}


def varied(hands: int, seed: int) -> dict[str, Any]:
    """3, 4 or 5 players, counting in threes, the list, local bids and games, other ties and
    rounding, and sometimes a set number of games that the record plays to the end."""
    rng = random.Random(-seed - 1)
    players = rng.choice((3, 4, 4, 5))
    rules: dict[str, Any] = {}
    if players == 3 or rng.random() < 0.3:
        rules["counting"] = "threes"
    if rng.random() < 0.4:
        rules["settlement"] = "declarer-only"
    if rng.random() < 0.4:
        rules["bid_multipliers"] = {**cego.DEFAULT_BIDS, **LOCAL_BIDS}
        rules["fixed_games"] = LOCAL_GAMES
    if rng.random() < 0.3:
        rules["raeuber_tie"] = "all-lose"
    if rng.random() < 0.3:
        rules["round_to"] = rng.choice((1, 5, 20))
    if rng.random() < 0.3:
        rules["games"] = max(hands, 1)
    if rng.random() < 0.5:
        rules["cents_per_point"] = rng.choice((1, 5, 10))
    return random_record(hands, seed, players, rules)


if __name__ == "__main__":
    import sys
    import time

    from scorekeeper.engine import record

    count = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    game = random_record(count, seed=1)
    start = time.perf_counter()
    record.replay(game)
    elapsed = time.perf_counter() - start
    print(f"{count} games in {elapsed:.3f} s: {count / elapsed:,.0f} games/s")
