"""Random but valid Vier-Anderle game records, played out with real cards.

Each hand is dealt from the Cego pack that fits the table (`vier_anderle.cego_pack_for`), the
players decide whether to play from the cards they hold (more cautiously the more is in the pot),
and the tricks are played by the rules of the seed text: follow suit, else play a tarock, and
play a card that wins the trick if you have one. The record holds the tricks each player took.

    from records_vier_anderle import random_record
    record = random_record(10_000, seed=1)
"""

from __future__ import annotations

import random
from typing import Any

from scorekeeper.engine import cards
from scorekeeper.engine import vier_anderle as va
from scorekeeper.engine.record import FORMAT
from scorekeeper.engine.vier_anderle import MAX_PLAYERS, MIN_PLAYERS, NAME, TRICKS

NAMES = ("Kurt", "Hubert", "Hermann", "Alfred", "Karl", "Walter", "Sepp", "Franz", "Anton",
         "Otto", "Ludwig", "Georg", "Max", "Emil", "Fritz", "Gustl")

TRUMP = va.TRUMP


def _strength(card: cards.Card) -> int:
    """Rank of a card: tarocks above everything (Gstiess highest), else within its suit."""
    if card.suit == TRUMP:
        return 100 + len(va.TAROCKS) - va.TAROCKS.index(card.rank)
    order = va.COURT_RANKS + va.PIP_RANKS[card.suit]
    return len(order) - order.index(card.rank)


STRENGTH = {card: _strength(card) for card in va.cego_pack(with_pips=True)}
GSTIESS = cards.Card(va.TAROCKS[0], TRUMP)


def _beats(card: cards.Card, best: cards.Card, led: str) -> bool:
    if card.suit == TRUMP:
        return best.suit != TRUMP or STRENGTH[card] > STRENGTH[best]
    return card.suit == led and best.suit == led and STRENGTH[card] > STRENGTH[best]


def _legal(hand: list[cards.Card], led: str | None, best: cards.Card | None) -> list[cards.Card]:
    if led is None or best is None:
        return hand
    allowed = [c for c in hand if c.suit == led] or [c for c in hand if c.suit == TRUMP] or hand
    winners = [c for c in allowed if _beats(c, best, led)]
    return winners or allowed


def play_hand(hands: dict[str, list[cards.Card]], order: list[str],
              rng: random.Random) -> dict[str, int]:
    """Play all tricks among `order` (who play, from forehand on); return tricks per player."""
    taken = dict.fromkeys(order, 0)
    leader = 0
    for _ in range(TRICKS):
        best_card: cards.Card | None = None
        best_seat = leader
        led: str | None = None
        for step in range(len(order)):
            seat = (leader + step) % len(order)
            hand = hands[order[seat]]
            card = rng.choice(_legal(hand, led, best_card))
            hand.remove(card)
            if best_card is None or led is None:
                best_card, best_seat, led = card, seat, card.suit
            elif _beats(card, best_card, led):
                best_card, best_seat = card, seat
        taken[order[best_seat]] += 1
        leader = best_seat
    return {name: n for name, n in taken.items() if n}


def _wants_to_play(hand: list[cards.Card], stake: int, ante: int, rng: random.Random) -> bool:
    if GSTIESS in hand:
        return True
    if stake > 16 * ante:  # too dear: only a sure trick plays
        return False
    top = max((STRENGTH[c] for c in hand if c.suit == TRUMP), default=0)
    return top >= STRENGTH[cards.Card("17", TRUMP)] or rng.random() < 0.15


def random_record(hands: int, seed: int, players: int = 6, table_changes: int = 0,
                  rules: dict[str, Any] | None = None) -> dict[str, Any]:
    """A valid record with `hands` hands; `table_changes` extra table entries spread among them."""
    rng = random.Random(seed)
    rules = dict(rules or {})
    ante = rules.get("ante", 4)
    pot = rules.get("starting_pot", 0)
    pool = list(NAMES)
    while len(pool) < MAX_PLAYERS + 3:
        pool.append(f"Gast{len(pool)}")
    seated = pool[:players]
    dealer = 0
    change_at = set(rng.sample(range(hands), min(table_changes, hands))) if hands else set()
    out: list[dict[str, Any]] = []
    for number in range(hands):
        if number in change_at:
            size = rng.randint(MIN_PLAYERS, MAX_PLAYERS)
            seated = rng.sample(pool, size)
            dealer = rng.randrange(size)
            out.append({"table": list(seated), "dealer": seated[dealer]})
        pack = list(va.cego_pack_for(len(seated)) or ())
        rng.shuffle(pack)
        n = len(seated)
        # clockwise from forehand (left of the dealer) round to the dealer
        order = [seated[(dealer + 1 + i) % n] for i in range(n)]
        dealt = {name: pack[i * TRICKS:(i + 1) * TRICKS] for i, name in enumerate(order)}
        stake = pot + ante
        if pot == 0:
            tricks = play_hand(dealt, order, rng)
            entry: dict[str, Any] = {"tricks": tricks}
            losers = n - len(tricks)
            pot = stake * (1 + losers)
        else:
            playing = [name for name in order if _wants_to_play(dealt[name], stake, ante, rng)]
            if not playing:
                entry = {"playing": []}
                if rules.get("nobody_plays") != "ante-back":
                    pot = stake
            else:
                tricks = play_hand(dealt, playing, rng)
                entry = {"playing": playing, "tricks": tricks}
                pot = stake * (len(playing) - len(tricks))
        out.append(entry)
        dealer = (dealer + 1) % n
    return {
        "format": FORMAT,
        "game": NAME,
        "rules": rules,
        "players": pool[:players],
        "first_dealer": pool[0],
        "hands": out,
    }


def varied(hands: int, seed: int) -> dict[str, Any]:
    """A game with table changes: one in ten entries."""
    return random_record(hands, seed=seed, table_changes=max(1, hands // 10))


if __name__ == "__main__":
    import json
    import sys

    count = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    print(json.dumps(random_record(count, seed=int(sys.argv[2]) if len(sys.argv) > 2 else 1)))
