"""Random but valid Hartenjagen game records, played with real cards, for benchmarks and tests.

Each hand shuffles and deals a real pack from `cards.french_pack`, gives every trick to a random
player (now and then all tricks to one player, so that moons happen), counts the penalty cards
each player took and enters them by cards (most hands), by points (as counted at the table,
the jack's -10 included) or, rarely, as a renege.
"""

from __future__ import annotations

import random
from typing import Any

from scorekeeper.engine import cards
from scorekeeper.engine import hartenjagen as hj
from scorekeeper.engine.hartenjagen import OPTIONS

TARGET_MAX = next(o.maximum for o in OPTIONS if o.name == "target")
NAMES = ("Kurt", "Hubert", "Hermann", "Alfred", "Erna", "Gretl", "Sepp", "Toni", "Vroni", "Lisl")
PENALTY_KEYS = {
    hj.QUEEN_OF_SPADES: "queen",
    hj.JACK_OF_DIAMONDS: "jack",
    hj.KING_OF_SPADES: "king",
    hj.ACE_OF_SPADES: "ace",
}


def play_hand(rng: random.Random, players: int, decks: int,
              all_to_one: bool = False) -> list[list[cards.Card]]:
    """Deal a shuffled pack round the table and hand each trick to a random player.

    Returns the cards each player took in tricks.
    """
    pack = list(cards.french_pack(decks))
    rng.shuffle(pack)
    hands = [pack[i::players] for i in range(players)]
    taken: list[list[cards.Card]] = [[] for _ in range(players)]
    shooter = rng.randrange(players)
    for trick in range(len(hands[0])):
        played = [hand[trick] for hand in hands if trick < len(hand)]
        taken[shooter if all_to_one else rng.randrange(players)].extend(played)
    return taken


def card_entry(names: list[str], taken: list[list[cards.Card]], decks: int,
               jack_of_diamonds: bool, black_maria: bool) -> dict[str, Any]:
    """The card entry for the cards each player took (penalty cards the options use)."""
    in_play = hj.penalty_cards(decks, jack_of_diamonds, black_maria)
    entry: dict[str, Any] = {"hearts": {}}
    holders: dict[str, list[str]] = {}
    for name, pile in zip(names, taken, strict=True):
        hearts = sum(1 for card in pile if card.suit == "hearts")
        if hearts:
            entry["hearts"][name] = hearts
        for card in pile:
            if card in in_play and card.suit != "hearts":
                holders.setdefault(PENALTY_KEYS[card], []).append(name)
    for key, names_ in holders.items():
        entry[key] = names_[0] if decks == 1 else names_
    return entry


def points_entry(names: list[str], taken: list[list[cards.Card]], jack_of_diamonds: bool,
                 black_maria: bool) -> dict[str, Any]:
    """The points entry: each player's points as counted at the table, without the jack (the
    entry names who took it)."""
    entry: dict[str, Any] = {"points": {}}
    jack: list[str] = []
    for name, pile in zip(names, taken, strict=True):
        points = sum(hj.penalty(card, False, black_maria) for card in pile)
        if points:
            entry["points"][name] = points
        jack += [name] * sum(1 for card in pile if card == hj.JACK_OF_DIAMONDS)
    if jack_of_diamonds:
        entry["jack"] = jack[0] if len(jack) == 1 else jack
    return entry


def random_record(hands: int, seed: int, players: int = 4, decks: int = 1,
                  jack_of_diamonds: bool = False, black_maria: bool = False,
                  moon: str = "others") -> dict[str, Any]:
    """A valid record of `hands` hands; the target is high enough that the game runs on."""
    rng = random.Random(seed)
    names = list(NAMES[:players])
    rules: dict[str, Any] = {"target": TARGET_MAX}
    if decks != 1:
        rules["decks"] = decks
    if jack_of_diamonds:
        rules["jack_of_diamonds"] = True
    if black_maria:
        rules["black_maria"] = True
    if moon != "others":
        rules["moon"] = moon
    total = hj.hand_total(decks, False, black_maria)
    entries: list[dict[str, Any]] = []
    for _ in range(hands):
        roll = rng.random()
        if roll < 0.03:
            entries.append({"renege": rng.choice(names)})
            continue
        taken = play_hand(rng, players, decks, all_to_one=roll > 0.98)
        if roll < 0.2:
            entry = points_entry(names, taken, jack_of_diamonds, black_maria)
        else:
            entry = card_entry(names, taken, decks, jack_of_diamonds, black_maria)
        if moon == "choice" and any(
                sum(hj.penalty(c, False, black_maria) for c in pile) == total
                for pile in taken):
            entry["moon"] = rng.choice(("self", "others"))
        entries.append(entry)
    return {
        "format": "scorekeeper-game/1",
        "game": "hartenjagen",
        "rules": rules,
        "players": names,
        "first_dealer": names[0],
        "hands": entries,
    }


if __name__ == "__main__":
    import sys
    import time

    from scorekeeper.engine import hartenjagen, record

    count = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    game = random_record(count, seed=1)
    start = time.perf_counter()
    table = hartenjagen.Table(game["players"], game["first_dealer"], game["rules"])
    record.apply_all(table, game["hands"])
    elapsed = time.perf_counter() - start
    print(f"{count} hands in {elapsed:.3f} s: {count / elapsed:,.0f} hands/s")


def varied(hands: int, seed: int) -> dict[str, Any]:
    """A game with the jack of diamonds."""
    return random_record(hands, seed=seed, jack_of_diamonds=True)
