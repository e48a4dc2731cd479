"""The packs of cards the three games use, with their point values.

Every total the scoring code needs (140 card points, 4 tricks a hand, 26 penalty points …) is
derived from these models, never typed as a literal elsewhere.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

SUITS = ("clubs", "spades", "hearts", "diamonds")
BLACK = frozenset({"clubs", "spades"})


@dataclass(frozen=True, slots=True)
class Card:
    rank: str
    suit: str  # "trump" for a Cego tarock


def colour(suit: str) -> str:
    return "black" if suit in BLACK else "red"


# --- Hintersche: 36 French cards, 6 to Ace ------------------------------------------------------

HINTERSCHE_RANKS = ("6", "7", "8", "9", "10", "J", "Q", "K", "A")
_HINTERSCHE_PLAIN_POINTS = {"A": 11, "10": 10, "K": 4, "Q": 3}
HINTERSCHE_CARDS_PER_PLAYER = 9


def hintersche_pack() -> tuple[Card, ...]:
    return tuple(Card(rank, suit) for suit in SUITS for rank in HINTERSCHE_RANKS)


def hintersche_points(card: Card, trump: str) -> int:
    """Card points of one card when `trump` is the trump suit.

    The jack of trumps ("de Alt") and the other jack of its colour ("de Kloei") count 12,
    the two jacks of the other colour 2.
    """
    if card.rank == "J":
        return 12 if colour(card.suit) == colour(trump) else 2
    return _HINTERSCHE_PLAIN_POINTS.get(card.rank, 0)


def hintersche_values() -> tuple[int, ...]:
    """The point value of every card in the pack (the multiset is the same for every trump)."""
    return tuple(hintersche_points(card, SUITS[0]) for card in hintersche_pack())


HINTERSCHE_TOTAL = sum(hintersche_values())  # 140
HINTERSCHE_TRICKS = HINTERSCHE_CARDS_PER_PLAYER  # 9 cards each, so 9 tricks a deal


# --- Vier-Anderle: the Cego pack ---------------------------------------------------------------

TAROCKS = tuple(["Gstiess"] + [str(n) for n in range(21, 0, -1)])
COURT_RANKS = ("K", "Q", "C", "J")  # King, Queen, Cavalier (Reiter), Jack (Bube)
PIP_RANKS = {"clubs": ("10", "9", "8", "7"), "spades": ("10", "9", "8", "7"),
             "hearts": ("1", "2", "3", "4"), "diamonds": ("1", "2", "3", "4")}
CEGO_CARDS_PER_PLAYER = 4


def cego_pack(with_pips: bool = False) -> tuple[Card, ...]:
    """38 cards (22 tarocks and 16 court cards); 54 with the pip cards added."""
    cards = [Card(rank, "trump") for rank in TAROCKS]
    cards += [Card(rank, suit) for suit in SUITS for rank in COURT_RANKS]
    if with_pips:
        cards += [Card(rank, suit) for suit in SUITS for rank in PIP_RANKS[suit]]
    return tuple(cards)


def cego_pack_for(players: int) -> tuple[Card, ...] | None:
    """The smallest Cego pack that deals 4 cards to each of `players`, or None if none does."""
    for with_pips in (False, True):
        pack = cego_pack(with_pips)
        if players * CEGO_CARDS_PER_PLAYER <= len(pack):
            return pack
    return None


CEGO_TRICKS = CEGO_CARDS_PER_PLAYER  # every hand has exactly 4 tricks
CEGO_MAX_PLAYERS = len(cego_pack(with_pips=True)) // CEGO_CARDS_PER_PLAYER  # 13


# --- Hartenjagen: the 52-card pack with penalty cards -------------------------------------------

FRENCH_RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
QUEEN_OF_SPADES = Card("Q", "spades")
JACK_OF_DIAMONDS = Card("J", "diamonds")
KING_OF_SPADES = Card("K", "spades")
ACE_OF_SPADES = Card("A", "spades")


def french_pack(decks: int = 1) -> tuple[Card, ...]:
    """52 cards; `decks` identical packs shuffled together for Cancellation Hartenjagen."""
    return tuple(Card(rank, suit) for _ in range(decks) for suit in SUITS for rank in FRENCH_RANKS)


def hearts_penalty(card: Card, jack_of_diamonds: bool = False, black_maria: bool = False) -> int:
    """Penalty points of one card under the rule options."""
    if card.suit == "hearts":
        return 1
    if card == QUEEN_OF_SPADES:
        return 13
    if jack_of_diamonds and card == JACK_OF_DIAMONDS:
        return -10
    if black_maria and card == KING_OF_SPADES:
        return 10
    if black_maria and card == ACE_OF_SPADES:
        return 7
    return 0


def penalty_cards(decks: int = 1, jack_of_diamonds: bool = False,
                  black_maria: bool = False) -> Counter[Card]:
    """How many of each card that scores are in play (hearts, queen, and the option cards)."""
    return Counter(card for card in french_pack(decks)
                   if hearts_penalty(card, jack_of_diamonds, black_maria))


def hearts_hand_total(decks: int = 1, jack_of_diamonds: bool = False,
                      black_maria: bool = False) -> int:
    """Points in one hand: 26, 16 with the jack, 43 with Black Maria, 33 with both.

    Doubled with two packs.
    """
    return sum(hearts_penalty(card, jack_of_diamonds, black_maria) * n
               for card, n in penalty_cards(decks, jack_of_diamonds, black_maria).items())


def hearts_in_pack(decks: int = 1) -> int:
    return sum(1 for card in french_pack(decks) if card.suit == "hearts")
