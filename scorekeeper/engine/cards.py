"""Playing cards: the card, the four French suits and the French pack.

Each game builds the pack it plays with in its own module and derives from it every total its
scoring needs (the card points in the pack, the tricks in a hand, the penalty points in a hand
…), never typing one as a literal elsewhere.
"""

from __future__ import annotations

from dataclasses import dataclass

SUITS = ("clubs", "spades", "hearts", "diamonds")
BLACK = frozenset({"clubs", "spades"})
FRENCH_RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


@dataclass(frozen=True, slots=True)
class Card:
    rank: str
    suit: str  # one of SUITS, or a kind of card of a game's own pack (e.g. "trump")


def colour(suit: str) -> str:
    return "black" if suit in BLACK else "red"


def french_pack(decks: int = 1, ranks: tuple[str, ...] = FRENCH_RANKS) -> tuple[Card, ...]:
    """The French pack, suit by suit: 52 cards, or fewer `ranks` (a short pack); `decks`
    identical packs shuffled together."""
    return tuple(Card(rank, suit) for _ in range(decks) for suit in SUITS for rank in ranks)
