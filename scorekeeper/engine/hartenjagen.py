"""Hartenjagen (Dutch Hearts): score a game from what each player took in each hand.

Every card value and total comes from the pack model below (`penalty`, `penalty_cards`,
`hand_total`, `hearts_in_pack`); nothing here types a hand total.

Entries (one per hand, played with real cards)
----------------------------------------------
By cards::

    {"hearts": {"A": 3, "C": 10}, "queen": "B"}
    {"hearts": {...}, "queen": "B", "jack": "C", "king": "A", "ace": "D"}
    {"hearts": {"D": 13}, "queen": "D", "moon": "self"}

- `hearts`: hearts taken per player (left-out players 0), each from 0 to the hearts in the pack,
  adding up to exactly the hearts in the pack (the form may fill in the last one; the engine
  requires the sum).
- `queen` always; `jack` exactly when `jack_of_diamonds` is on; `king` and `ace` exactly when
  `black_maria` is on. Each names who took that card. With one pack a card is a single name
  (`"B"`; `["B"]` and `{"B": 1}` are accepted too). With `decks: 2` every penalty card is in
  play twice; then give either a list with one name per copy (`["A", "C"]`, `["A", "A"]`) or a
  mapping name -> count (`{"A": 2}`, `{"A": 1, "C": 1}`); the copies must add up to 2.
- `moon` (`"self"` or `"others"`) only with the rule `moon: "choice"`, and then exactly when
  someone shot the moon. The form learns that a choice is needed either by checking itself
  (one player has every heart and every queen of spades, and with Black Maria every king and
  ace of spades) or from the error `hartenjagen.moon_missing` (field `"moon"`).

By points::

    {"points": {"A": 3, "B": 13, "C": 0}, "jack": "C"}

- Each player's points as counted at the table before any moon: hearts, queen(s) and, with
  Black Maria, king(s)/ace(s) of spades -- always **without the jack of diamonds**, so they add
  up to the hand's total without the jack (26). With the jack on the entry names who took it
  (`jack`, same format as above) and the engine adds its -10 itself (C above: 10 points and the
  jack = 0). Points that add up to the total with the jack already taken off (16) are refused
  with `hartenjagen.points_with_jack`, which says so: there is only one meaning.
- The engine checks each player's points can be made from the cards (`27` or 14 + 13 cannot)
  and that all the points together can come from one pack (`7, 7, 6, 6` cannot: nobody took the
  queen). A player whose points (without the jack) are the whole hand shot the moon.
- `moon` as for card entries.

Renege::

    {"renege": "B"}

The offender scores the hand's total without the jack, the others 0.

Scoring
-------
Normal hand: each player scores their cards. Moon (one player took every heart and queen of
spades, and with Black Maria every king and ace of spades): `others` - the shooter 0, every other
player the hand's total without the jack; `self` - the shooter minus that total, the others 0;
`choice` - the entry says which. The jack of diamonds still counts -10 for whoever took it,
the shooter too.

The game ends after the hand in which someone reaches `target`. Lowest total wins. If two or
more share the lowest total they are listed in `tiebreak`; the next hand is played and scored as
usual by the whole table, and of the tied players the one with the fewest points in that hand
wins (tied again: those still tied play another hand). At the end every player pays the winner
the difference in final totals times `cents_per_point` (a player who, through the tie-break
hand, ends with fewer points than the winner gets the difference instead).

Report (`Table.report()`)
-------------------------
Common keys: `game`, `hands_played` (renege and tie-break hands included), `next_dealer`,
`finished`, `players` (seating order, each `name`, `score`, `balance_cents`). Game keys:

- `next_pass`: `"left"`, `"right"`, `"across"`, `"hold"` for the coming hand (the cycle runs over
  all hands played, tie-break hands too); null with `passing: false` or after the end. With an
  odd number of players nobody sits across: the cycle is left, right, hold.
- `across_seats`: how many seats on "across" is (half the table: 2 with 4 players, 3 with 6);
  0 when nobody passes across.
- `winner` (name or null), `tiebreak` (names who must break a tie in the next hand, else []).
- `dealer`: the dealer of the next hand (same as `next_dealer`; both null once the game is over).
- `deals_on`: who would deal the next hand if the game went on (the next game's first dealer).
- `target`: the game's target total.
- `hand_total`: the penalty points in one hand with these options (jack included);
  `moon_total`: the same without the jack (what a moon or a renege is worth).
- `hearts_total`: hearts in the pack; `cards`: the card entry's card keys and how many copies of
  each are in play, e.g. `{"queen": 1, "jack": 1}` - the keys a card entry must name.
- `history`: one dict per hand, in order: `hand` (1-based), `pass` (direction or null),
  `kind` (`"card"`, `"points"`, `"renege"`), `points` (name -> that hand's score), `totals`
  (name -> total after the hand), `moon` (shooter name or null), `moon_choice` (`"self"` /
  `"others"` when there was a moon, else null), `renege` (name or null), `tiebreak` (the tied
  players this hand was a tie-break for, else []).

Error codes (besides the generic ones from errors.py)
-----------------------------------------------------
- `hartenjagen.players_one_deck` (field `players`): one pack needs exactly 4 players.
- `hartenjagen.hearts_player` (field: player): hearts out of range.
- `hartenjagen.hearts_sum` (field `hearts`): "the hearts add up to 12, there are 13".
- `hartenjagen.<card>_missing` (field `<card>`): "nobody took the queen of spades".
- `hartenjagen.<card>_count` (field `<card>`): copies entered differ from copies in play.
- `hartenjagen.<card>_player` (field: player): a count in a mapping is out of range.
- `hartenjagen.<card>_unused` (field `<card>`): the card is named but its option is off.
- `hartenjagen.points_player` (field: player): points no cards can make.
- `hartenjagen.points_sum` (field `points`): the points do not add up to the hand's total.
- `hartenjagen.points_with_jack` (field `points`): they add up to the total with the jack.
- `hartenjagen.points_split` (field `points`): the points cannot come from one pack together.
- `hartenjagen.moon_missing` / `no_moon` / `bad_moon` / `moon_not_asked` (field `moon`).
<card> is one of queen, jack, king, ace. Names in card keys that are not players give
`unknown_player` with the card key as field.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import product
from typing import Any

from . import base, cards, entries, errors
from .base import Option
from .errors import N_, RuleError

NAME = "hartenjagen"

ONE_DECK_PLAYERS = 4  # one pack of 52 is dealt to exactly four players
MIN_PLAYERS = 4
MAX_PLAYERS = 10  # Cancellation Hartenjagen with two packs
PASSES = ("left", "right", "across", "hold")
ODD_PASSES = ("left", "right", "hold")  # with an odd number of players nobody sits across
MOON_CHOICES = ("others", "self")


# --- the 52-card pack with penalty cards -------------------------------------------------------

QUEEN_OF_SPADES = cards.Card("Q", "spades")
JACK_OF_DIAMONDS = cards.Card("J", "diamonds")
KING_OF_SPADES = cards.Card("K", "spades")
ACE_OF_SPADES = cards.Card("A", "spades")


def penalty(card: cards.Card, jack_of_diamonds: bool = False, black_maria: bool = False) -> int:
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
                  black_maria: bool = False) -> Counter[cards.Card]:
    """How many of each card that scores are in play (hearts, queen, and the option cards);
    `decks` packs shuffled together for Cancellation Hartenjagen."""
    return Counter(card for card in cards.french_pack(decks)
                   if penalty(card, jack_of_diamonds, black_maria))


def hand_total(decks: int = 1, jack_of_diamonds: bool = False, black_maria: bool = False) -> int:
    """Points in one hand: 26, 16 with the jack, 43 with Black Maria, 33 with both.

    Doubled with two packs.
    """
    return sum(penalty(card, jack_of_diamonds, black_maria) * n
               for card, n in penalty_cards(decks, jack_of_diamonds, black_maria).items())


def hearts_in_pack(decks: int = 1) -> int:
    return sum(1 for card in cards.french_pack(decks) if card.suit == "hearts")


# The penalty cards besides hearts, by the key that names their taker in a card entry.
CARD_OF_KEY: dict[str, cards.Card] = {
    "queen": QUEEN_OF_SPADES,
    "jack": JACK_OF_DIAMONDS,
    "king": KING_OF_SPADES,
    "ace": ACE_OF_SPADES,
}
CARD_KEYS = tuple(CARD_OF_KEY)
_RENEGE_KEYS = frozenset({"renege"})
_ANY_HEART = next(card for card in cards.french_pack() if card.suit == "hearts")


def _value(card: cards.Card) -> int:
    return penalty(card, jack_of_diamonds=True, black_maria=True)


HEART_VALUE = _value(_ANY_HEART)
VALUE_OF_KEY = {key: _value(card) for key, card in CARD_OF_KEY.items()}
_DEFAULT_TOTAL = hand_total()
_DEFAULT_HEARTS = hearts_in_pack()

TITLE = N_("Hartenjagen (Dutch Hearts)")

# The numbers in these texts are the card values above (a test checks them).
SUMMARY = N_(
    "Dutch Hearts for four: every heart you take costs 1 point, the queen of spades 13 (26 "
    "points a hand). Whoever takes all the hearts and the queen has shot the moon: by default "
    "each of the others scores 26 and the shooter nothing (options: the shooter scores -26, or "
    "chooses). A renege costs the offender 26. Options add the jack of diamonds (-10), Black "
    "Maria (king of spades 10, ace 7) and two packs for 4 to 10 players. The game ends after the "
    "hand in which someone reaches the target (100); the lowest total wins, a tie for lowest is "
    "settled by extra hands.")

OPTIONS: tuple[Option, ...] = (
    Option("target", 100, minimum=1, maximum=1_000_000,
           help=N_("the game ends after the hand in which someone reaches this total")),
    Option("moon", "others", choices=("others", "self", "choice"),
           help=N_("shooting the moon (all hearts and the queen): the others score the hand, the "
                   "shooter scores minus the hand, or the shooter chooses"),
           labels={"others": N_("the others score"), "self": N_("the shooter scores minus"),
                   "choice": N_("the shooter chooses")}),
    Option("jack_of_diamonds", False, help=N_("Omnibus: the jack of diamonds counts -10")),
    Option("black_maria", False,
           help=N_("Black Maria: the king of spades counts 10, the ace of spades 7")),
    Option("passing", True,
           help=N_("pass three cards before each hand (left, right, across, hold)")),
    Option("decks", 1, minimum=1, maximum=2,
           help=N_("2 for Cancellation Hartenjagen with two packs (4 to 10 players)")),
    Option("cents_per_point", 0, minimum=0, maximum=10_000,
           help=N_("money: at the end each player pays the winner the difference in points, at "
                   "this much a point")),
)

# --- messages ------------------------------------------------------------------------------

MESSAGES: dict[str, str] = {
    f"{NAME}.players_one_deck": N_("with one pack Hartenjagen needs exactly {need} players, not "
                                   "{count}; with two packs {low} to {high} can play"),
    f"{NAME}.hearts_player": N_("{player}: {value} hearts is impossible, there are {total}"),
    f"{NAME}.hearts_sum": N_("the hearts add up to {got}, there are {total}"),
    f"{NAME}.points_player": N_("{player}: {value} points cannot be made from the cards"),
    f"{NAME}.points_sum": N_("the points add up to {got}, a hand has {total}{jack:yes= (without "
                             "the jack of diamonds)|no=}"),
    f"{NAME}.points_with_jack": N_("the points add up to {got}, so the jack of diamonds was "
                                   "counted in: enter the points without it (a hand then has "
                                   "{total}); the app counts the jack's {jack} for {holders:and} "
                                   "itself"),
    f"{NAME}.points_split": N_("these points cannot all come from one hand"),
    f"{NAME}.moon_missing": N_("{player} shot the moon: choose whether {player} scores -{total} "
                               "or each of the others {total}"),
    f"{NAME}.no_moon": N_("nobody shot the moon in this hand"),
    f"{NAME}.bad_moon": N_("for the moon, choose whether the shooter scores minus or the others "
                           "score"),
    f"{NAME}.moon_not_asked": N_("in this game the shooter does not choose: the rules say how "
                                 "the moon scores"),
    f"{NAME}.queen_missing": N_("nobody took the queen of spades"),
    f"{NAME}.queen_count": N_("the queens of spades add up to {got}, there are {count}"),
    f"{NAME}.queen_player": N_("{player}: {value} queens of spades is impossible, there are "
                               "{count}"),
    f"{NAME}.queen_unused": N_("the queen of spades does not count in this game"),
    f"{NAME}.jack_missing": N_("nobody took the jack of diamonds"),
    f"{NAME}.jack_count": N_("the jacks of diamonds add up to {got}, there are {count}"),
    f"{NAME}.jack_player": N_("{player}: {value} jacks of diamonds is impossible, there are "
                              "{count}"),
    f"{NAME}.jack_unused": N_("the jack of diamonds does not count in this game"),
    f"{NAME}.king_missing": N_("nobody took the king of spades"),
    f"{NAME}.king_count": N_("the kings of spades add up to {got}, there are {count}"),
    f"{NAME}.king_player": N_("{player}: {value} kings of spades is impossible, there are {count}"),
    f"{NAME}.king_unused": N_("the king of spades does not count in this game"),
    f"{NAME}.ace_missing": N_("nobody took the ace of spades"),
    f"{NAME}.ace_count": N_("the aces of spades add up to {got}, there are {count}"),
    f"{NAME}.ace_player": N_("{player}: {value} aces of spades is impossible, there are {count}"),
    f"{NAME}.ace_unused": N_("the ace of spades does not count in this game"),
}

errors.register_messages(MESSAGES)

errors.register_key_words({
    "points": N_("points"),
    "hearts": N_("hearts"),
    "queen": N_("the queen of spades"),
    "jack": N_("the jack of diamonds"),
    "king": N_("the king of spades"),
    "ace": N_("the ace of spades"),
    "moon": N_("a moon choice"),
    "renege": N_("who reneged"),
})


# --- the pack under the options ------------------------------------------------------------

@dataclass(frozen=True)
class Pack:
    """What one hand holds under the options: counts and values of the penalty cards."""

    decks: int
    hearts: int  # hearts in the pack
    keys: tuple[str, ...]  # card keys a card entry names: queen, then jack/king/ace if used
    copies: Mapping[str, int]  # card key -> copies in play
    total: int  # penalty points in one hand, the jack included
    moon_total: int  # without the jack: a moon's or a renege's worth
    positive: tuple[tuple[int, int], ...]  # (value, copies) of the non-heart cards above 0
    reachable: frozenset[int]  # points (without the jack) one player can take


@cache
def pack(decks: int, jack_of_diamonds: bool, black_maria: bool) -> Pack:
    in_play = penalty_cards(decks, jack_of_diamonds, black_maria)
    keys = tuple(key for key in CARD_KEYS if CARD_OF_KEY[key] in in_play)
    copies = {key: in_play[CARD_OF_KEY[key]] for key in keys}
    total = hand_total(decks, jack_of_diamonds, black_maria)
    negative = sum(VALUE_OF_KEY[k] * copies[k] for k in keys if VALUE_OF_KEY[k] < 0)
    positive = tuple((VALUE_OF_KEY[k], copies[k]) for k in keys if VALUE_OF_KEY[k] > 0)
    hearts = hearts_in_pack(decks)
    reachable = frozenset(_heart_part(combo, positive)[0] + h * HEART_VALUE
                          for combo in _combos(positive) for h in range(hearts + 1))
    return Pack(decks, hearts, keys, copies, total, total - negative, positive, reachable)


def _combos(positive: tuple[tuple[int, int], ...]) -> list[tuple[int, ...]]:
    return list(product(*(range(n + 1) for _, n in positive)))


def _heart_part(combo: tuple[int, ...], positive: tuple[tuple[int, int], ...]) -> tuple[int, int]:
    """Points of the non-heart cards in `combo`, and the number of cards."""
    return sum(c * v for c, (v, _) in zip(combo, positive, strict=True)), sum(combo)


@lru_cache(maxsize=65536)
def can_split(points: tuple[int, ...], decks: int, jack_of_diamonds: bool,
              black_maria: bool) -> bool:
    """Can these points (without the jack, sorted) be the penalty cards of one hand?"""
    p = pack(decks, jack_of_diamonds, black_maria)
    combos = [(combo, _heart_part(combo, p.positive)[0]) for combo in _combos(p.positive)]
    states = {(p.hearts, *(n for _, n in p.positive))}
    for wanted in points:
        following: set[tuple[int, ...]] = set()
        for state in states:
            for combo, worth in combos:
                rest = wanted - worth
                if rest < 0 or rest % HEART_VALUE:
                    continue
                hearts = rest // HEART_VALUE
                if hearts > state[0] or any(c > s for c, s in zip(combo, state[1:], strict=True)):
                    continue
                following.add((state[0] - hearts,
                               *(s - c for c, s in zip(combo, state[1:], strict=True))))
        states = following
        if not states:
            return False
    return any(not any(state) for state in states)


# --- the history -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Hand(base.Row):
    """One hand of the history, in seats; `history()` spells it out (see the module docstring)."""

    passing: str | None  # the pass before the hand
    kind: str  # "card", "points" or "renege"
    points: tuple[int, ...]  # per seat: the hand's score
    totals: tuple[int, ...]  # per seat: the total after the hand
    shooter: int | None  # the seat that shot the moon
    choice: str | None  # how the moon scored
    renege: int | None  # the seat that reneged
    tiebreak: tuple[int, ...]  # the seats this hand broke a tie for

    def spelled(self, players: Sequence[str], hand: int) -> dict[str, Any]:
        return {
            "hand": hand,
            "pass": self.passing,
            "kind": self.kind,
            "points": dict(zip(players, self.points)),  # noqa: B905 - same length, hot loop
            "totals": dict(zip(players, self.totals)),  # noqa: B905
            "moon": players[self.shooter] if self.shooter is not None else None,
            "moon_choice": self.choice,
            "renege": players[self.renege] if self.renege is not None else None,
            "tiebreak": [players[i] for i in self.tiebreak],
        }


# --- the table -----------------------------------------------------------------------------

class Table(base.Table):
    ENTRY_WORD = "hand"
    # every key an entry may have; which of them depends on the kind of entry and the rules
    ENTRY_KEYS = frozenset(("hearts", "points", "renege", "moon", *CARD_KEYS))
    SNAPSHOT = ("scores", "hands_played", "finished", "winner", "_tied", "_moons", "_moon_hand")

    def __init__(self, players: Any, first_dealer: Any, rules: Any) -> None:
        super().__init__(players, first_dealer, rules)
        if self.rules["decks"] == 1 and len(self.players) != ONE_DECK_PLAYERS:
            raise RuleError(f"{NAME}.players_one_deck", field="players", need=ONE_DECK_PLAYERS,
                            count=len(self.players), low=MIN_PLAYERS, high=MAX_PLAYERS)
        self._n = len(self.players)
        self._index = {name: i for i, name in enumerate(self.players)}
        self._pack = pack(self.rules["decks"], self.rules["jack_of_diamonds"],
                          self.rules["black_maria"])
        self._jack = "jack" in self._pack.keys
        self._jack_value = VALUE_OF_KEY["jack"]
        self._moon_rule: str = self.rules["moon"]
        moon = ("moon",) if self._moon_rule == "choice" else ()
        self._card_keys = frozenset(("hearts", *self._pack.keys, *moon))
        self._points_keys = frozenset(("points", *(("jack",) if self._jack else ()), *moon))
        self._card_values = tuple((key, VALUE_OF_KEY[key]) for key in self._pack.keys)
        self._split_key = (self.rules["decks"], self.rules["jack_of_diamonds"],
                           self.rules["black_maria"])
        self._passes: tuple[str, ...] = (() if not self.rules["passing"]
                                         else PASSES if self._n % 2 == 0 else ODD_PASSES)
        self._target: int = self.rules["target"]
        self.scores = [0] * self._n
        self.winner: int | None = None
        self._tied: tuple[int, ...] = ()
        self._moons = [0] * self._n  # moons each player shot
        self._moon_hand = [0] * self._n  # the hand of each player's latest moon (0: none)

    # -- entries ------------------------------------------------------------------------------

    def entry_keys(self, entry: Mapping[str, Any]) -> frozenset[str]:
        """A renege names only the offender; a points entry and a card entry have the keys the
        rules ask for."""
        if "renege" in entry:
            return _RENEGE_KEYS
        return self._points_keys if "points" in entry else self._card_keys

    def unknown_key(self, entry: Mapping[str, Any], key: Any) -> RuleError:
        """A card or the moon choice that the rules leave out says so (not in a renege)."""
        if "renege" not in entry:
            if key in CARD_OF_KEY and key not in self._pack.keys:
                return RuleError(f"{NAME}.{key}_unused", field=key)
            if key == "moon" and self._moon_rule != "choice":
                return RuleError(f"{NAME}.moon_not_asked", field="moon")
        return errors.unknown_key(key, self.TITLE)

    def play_entry(self, entry: Mapping[str, Any]) -> Hand:
        if "renege" in entry:
            offender = self._index[entries.player_name(entry, "renege", self.players)]
            total = self._pack.moon_total
            hand = [total if i == offender else 0 for i in range(self._n)]
            return self._commit("renege", hand, None, None, offender)
        if "points" in entry:
            kind = "points"
            base, jacks = self._read_points(entry)
        else:
            kind = "card"
            base, jacks = self._read_cards(entry)
        moon_total = self._pack.moon_total
        shooter = base.index(moon_total) if moon_total in base else None
        choice = self._moon_choice(entry, shooter)
        if shooter is None:
            hand = [b + j for b, j in zip(base, jacks, strict=True)]
        elif choice == "others":
            hand = [(0 if i == shooter else moon_total) + j for i, j in enumerate(jacks)]
        else:
            hand = [(-moon_total if i == shooter else 0) + j for i, j in enumerate(jacks)]
        return self._commit(kind, hand, shooter, choice, None)

    def _holders(self, entry: Mapping[str, Any], key: str) -> list[int]:
        """The seats that took the copies of the card `key`, one seat per copy."""
        raw = entry.get(key)
        copies = self._pack.copies[key]
        index = self._index
        if type(raw) is str:
            i = index.get(raw)
            if i is None:
                raise RuleError("unknown_player", field=key, player=raw)
            seats = [i]
        elif isinstance(raw, list):
            seats = []
            for name in raw:
                i = index.get(name) if type(name) is str else None
                if i is None:
                    raise RuleError("unknown_player", field=key, player=name)
                seats.append(i)
        elif isinstance(raw, Mapping):
            seats = []
            for name, value in raw.items():
                i = index.get(name) if type(name) is str else None
                if i is None:
                    raise RuleError("unknown_player", field=str(name), player=name)
                count = entries.whole_number(name, value)
                if not 0 <= count <= copies:
                    raise RuleError(f"{NAME}.{key}_player", field=name, player=name,
                                    value=count, count=copies)
                seats += [i] * count
        elif raw is None:
            seats = []
        else:
            raise RuleError("unknown_player", field=key, player=raw)
        if len(seats) != copies:
            if not seats:
                raise RuleError(f"{NAME}.{key}_missing", field=key)
            raise RuleError(f"{NAME}.{key}_count", field=key, got=len(seats), count=copies)
        return seats

    def _counts(self, entry: Mapping[str, Any], key: str) -> list[int]:
        """`entry[key]` as whole numbers per seat (left-out players 0); like entries.counts."""
        raw = entry.get(key)
        if raw is None:
            raise errors.missing_key(key)
        if type(raw) is not dict and not isinstance(raw, Mapping):
            raise errors.not_a_mapping(key)
        result = [0] * self._n
        index = self._index
        for name, value in raw.items():
            i = index.get(name) if type(name) is str else None
            if i is None:
                raise RuleError("unknown_player", field=str(name), player=name)
            result[i] = value if type(value) is int else entries.whole_number(name, value)
        return result

    def _read_cards(self, entry: Mapping[str, Any]) -> tuple[list[int], list[int]]:
        """Points without the jack, and the jack's points, per player from a card entry."""
        hearts = self._counts(entry, "hearts")
        in_pack = self._pack.hearts
        for i, value in enumerate(hearts):
            if not 0 <= value <= in_pack:
                name = self.players[i]
                raise RuleError(f"{NAME}.hearts_player", field=name, player=name, value=value,
                                total=in_pack)
        got = sum(hearts)
        if got != in_pack:
            raise RuleError(f"{NAME}.hearts_sum", field="hearts", got=got, total=in_pack)
        base = [h * HEART_VALUE for h in hearts] if HEART_VALUE != 1 else hearts
        jacks = [0] * self._n
        for key, value in self._card_values:
            target = jacks if value < 0 else base
            for i in self._holders(entry, key):
                target[i] += value
        return base, jacks

    def _read_points(self, entry: Mapping[str, Any]) -> tuple[list[int], list[int]]:
        """Points without the jack, and the jack's points, per player from a points entry.

        The points are those of the hearts, queen(s) and Black Maria cards; the jack of
        diamonds is named in `jack` and counted by the engine, never typed into the points.
        """
        points = self._counts(entry, "points")
        jacks = [0] * self._n
        holders: list[str] = []
        if self._jack:
            for i in self._holders(entry, "jack"):
                jacks[i] += self._jack_value
                holders.append(self.players[i])
        p = self._pack
        for name, value in zip(self.players, points, strict=True):
            if value not in p.reachable:
                raise RuleError(f"{NAME}.points_player", field=name, player=name, value=value)
        got = sum(points)
        if got != p.moon_total:
            if self._jack and got == p.total:
                raise RuleError(f"{NAME}.points_with_jack", field="points", got=got,
                                total=p.moon_total, jack=self._jack_value * len(holders),
                                holders=holders)
            raise RuleError(f"{NAME}.points_sum", field="points", got=got, total=p.moon_total,
                            jack="yes" if self._jack else "no")
        if not can_split(tuple(sorted(points)), *self._split_key):
            raise RuleError(f"{NAME}.points_split", field="points")
        return points, jacks

    def _moon_choice(self, entry: Mapping[str, Any], shooter: int | None) -> str | None:
        if self._moon_rule != "choice":
            return self._moon_rule if shooter is not None else None
        if shooter is None:
            if "moon" in entry:
                raise RuleError(f"{NAME}.no_moon", field="moon")
            return None
        choice = entry.get("moon")
        if choice is None:
            raise RuleError(f"{NAME}.moon_missing", field="moon",
                            player=self.players[shooter], total=self._pack.moon_total)
        if not isinstance(choice, str) or choice not in MOON_CHOICES:
            raise RuleError(f"{NAME}.bad_moon", field="moon", value=choice)
        return choice

    def _commit(self, kind: str, hand: list[int], shooter: int | None, choice: str | None,
                reneger: int | None) -> Hand:
        scores = self.scores
        for i, points in enumerate(hand):
            scores[i] += points
        passing = self._passes[self.hands_played % len(self._passes)] if self._passes else None
        tied = self._tied
        row = Hand(passing, kind, tuple(hand), tuple(scores), shooter, choice, reneger, tied)
        self.hands_played += 1
        if shooter is not None:
            self._moons[shooter] += 1
            self._moon_hand[shooter] = self.hands_played
        if tied:
            low = min(hand[i] for i in tied)
            still = tuple(i for i in tied if hand[i] == low)
        elif max(scores) >= self._target:
            low = min(scores)
            still = tuple(i for i, score in enumerate(scores) if score == low)
        else:
            return row
        if len(still) == 1:
            self.winner = still[0]
            self.finished = True
            self._tied = ()
        else:
            self._tied = still
        return row

    # -- report -------------------------------------------------------------------------------

    def balances(self) -> list[int]:
        """Money per player in cents: 0 until the end, then each pays the winner the difference."""
        cents = self.rules["cents_per_point"]
        if not self.finished or self.winner is None or not cents:
            return [0] * self._n
        best = self.scores[self.winner]
        result = [(best - score) * cents for score in self.scores]
        result[self.winner] = -sum(result)
        return result

    def restored(self) -> None:
        self._tied = tuple(self._tied)

    @classmethod
    def renamed(cls, entry: Mapping[str, Any], old: str, new: str) -> dict[str, Any]:
        """`moon` holds a choice ("self", "others"), never a name."""
        renamed = super().renamed({k: v for k, v in entry.items() if k != "moon"}, old, new)
        return {**renamed, **({"moon": entry["moon"]} if "moon" in entry else {})}

    @classmethod
    def ended(cls, summary: Mapping[str, Any], rules: Mapping[str, Any]) -> dict[str, Any]:
        """Ended early, the totals count as they stand: each player pays the leader (the
        fewest points) the difference at ``cents_per_point``; leaders who share the fewest
        points share what is paid (a cent that cannot be split goes to the first of them in
        seating order). Nobody wins a game that was not played to its end."""
        if summary["finished"]:
            return super().ended(summary, rules)
        cents = rules["cents_per_point"]
        scores = [p["score"] for p in summary["players"]]
        best = min(scores)
        paid = [(best - score) * cents for score in scores]
        leaders = [i for i, score in enumerate(scores) if score == best]
        share, rest = divmod(-sum(paid), len(leaders))
        for k, i in enumerate(leaders):
            paid[i] = share + (1 if k < rest else 0)
        players = [{**p, "balance_cents": money}
                   for p, money in zip(summary["players"], paid, strict=True)]
        return {**super().ended(summary, rules), "players": players, "next_pass": None,
                "tiebreak": [], "ended_early": True}

    def summary(self) -> dict[str, Any]:
        """The report without the history."""
        names = self.players
        deals_on = names[(self._first_dealer + self.hands_played) % self._n]
        dealer = None if self.finished else deals_on  # nobody deals after the end
        next_pass = (self._passes[self.hands_played % len(self._passes)]
                     if self._passes and not self.finished else None)
        balances = self.balances()
        return {
            "game": NAME,
            "hands_played": self.hands_played,
            "next_dealer": dealer,
            "dealer": dealer,
            "deals_on": deals_on,
            "finished": self.finished,
            "next_pass": next_pass,
            "winner": names[self.winner] if self.winner is not None else None,
            "tiebreak": [names[i] for i in self._tied],
            "target": self.rules["target"],
            "across_seats": self._n // 2 if "across" in self._passes else 0,
            "hand_total": self._pack.total,
            "moon_total": self._pack.moon_total,
            "hearts_total": self._pack.hearts,
            "cards": dict(self._pack.copies),
            "players": [{"name": name, "score": score, "balance_cents": money, "moons": moons,
                         "moon_hand": hand}
                        for name, score, money, moons, hand in zip(
                            names, self.scores, balances, self._moons, self._moon_hand,
                            strict=True)],
        }
