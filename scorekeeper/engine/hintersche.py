"""Hintersche ("4-Strich"): marks on the slate, lines on the frame (rules/hintersche.md).

Four players, each for themselves. A game has two phases:

- *Vier-Strich* (phase 1): all four play; the player with most card points gets a mark on the
  slate (Tafel), a march (over 100, "100 mache") gives each opponent a mark, an all-35 deal gives
  everybody one. The phase ends with 4 marks or more; marks above 4 are *excess marks*; whoever
  has no mark drops out of the game.
- *Butzen* (cleaning the slate): only the players with marks play, 9 cards each; the lowest
  scorer erases, the highest adds, marchers erase up to 2. A player who erases the last mark
  drops out; the last one in loses the game: one *line* on the frame (Rahmen). With two players
  left it is the *final stage*: the winner (fewer points) erases, nobody adds.

A table is one *rubber* (Runde) of ``rubber_games`` games; ``finished`` is true when the rubber is
over. Each line costs its owner ``tariff_cents``, paid to each opponent.

Entries (the record's ``hands`` list), one per deal:

- ``{"points": {"A": 30, "B": 45, "C": 35, "D": 30}}`` -- the card points of exactly the players
  in the deal: leaving out a player who is in (``hintersche.points_missing``) or naming one who is
  out (``hintersche.not_in_deal``) is an error, never a silent 0, so a correction of an earlier
  deal can never change what a later entry means. Each score must be makeable from the card
  values (not 1, not 139), and together they must come from the cards in play: 9 cards each, one
  card of each player in every trick, so a player who took k tricks holds k x n cards (n players
  in the deal) from the one 36-card pack. With four players that is the whole pack (the points
  split the 140); with two, 18 cards are in play (4 to 136 points together), with three 27
  (42 to 140).
  Fast entry (`completed`): with four players in the deal, one player's points may be left
  out as the players type them; they are what the other three leave of the 140. The entry is
  completed before it is recorded, so the record always names every player in the deal.
- ``"all_tricks": "C"`` -- C took all 9 tricks: a march; the others must have 0 (in Vier-Strich
  that is all 140 points, a march by its points too).
- ``"playoffs": [{"B": 40, "C": 30}, ...]`` -- the playoff deals of tied players, in order. Each
  is a deal among the tied players only, naming exactly them, checked like a deal of that many
  players. A playoff decides by most points (phase 1, highest in Butzen) or by
  fewest points (lowest in Butzen, the final stage). If it ties again where it matters, the next
  playoff is among those still tied. When one deal needs two decisions (a tie for lowest *and* a
  tie for highest in a Butzen deal with four players), the playoffs for the **lowest** come first
  in the list, then those for the highest. A tie only needs a playoff where it decides who gets,
  erases or adds a mark; a tie of all players in a Butzen deal changes nothing.

When a tie decides something and the playoffs are missing (or tie again), `apply` raises
RuleError ``hintersche.playoff_needed`` (field ``"playoffs"``) and changes nothing; its params
are ``tied`` (names, in dealing order: the first deals the playoff), ``dealer``, ``playoff``
(the 1-based position in the ``playoffs`` list that is missing), ``kind`` (``"most"`` or
``"fewest"``: which end of the playoff decides), ``points`` (the tied score) and ``tie``: where
the tie is among the players it is decided between -- ``"most"``, ``"fewest"``, ``"between"``
(neither), ``"level"`` (all of them) or ``"again"`` (a playoff tied again). The form then asks
for those players' playoff points and resubmits the entry with the playoff appended. Playoffs
where none is (or no further one is) needed are an error, ``hintersche.playoff_not_needed``.

Dealing: the deal passes to the next player in ``players`` order who is still in the game. A
playoff is dealt by the tied player who comes first in dealing order, counted from the player
after the last dealer (the dealer of the deal, or of the previous playoff); after the playoff the
deal passes on from the playoff dealer. A new game continues the rotation from the last dealer.

`report()` returns the keys of game-record.md -- ``game``, ``hands_played`` (deals, playoffs not
counted), ``next_dealer`` (after the rubber: who would deal the first deal of the next one),
``finished``, ``phase`` (``"vier-strich"`` or ``"butzen"``), ``game_number`` (from 1; after the
rubber the number of its last game) and ``players`` (seating order, each with ``name``,
``marks``, ``lines`` (this rubber), ``in`` (still in the current game; all false after the
rubber), ``balance_cents``) -- plus, for the web UI:

- ``in_deal``: the players of the next deal in dealing order (the dealer first); empty after the
  rubber. These are the inputs of the next entry form.
- ``final_stage``: true when exactly two players are left in Butzen.
- ``excess_marks``: marks on the slate above 4.
- ``all_tricks_allowed``: whether the next entry may name ``all_tricks`` (while the rubber runs;
  the entry form asks for it in Butzen only, where it can be a march with fewer points).
- ``rubber_games``, ``games_played``, ``rules`` (the resolved options).
- ``games``: the finished games, each ``{"game", "loser", "lines", "hands"}``.
- ``history``: one dict per deal: ``hand`` (from 1), ``game``, ``phase``, ``final_stage``,
  ``dealer``, ``points`` (name -> points, dealing order), ``all_tricks`` (name or null),
  ``playoffs`` (list of ``{"dealer", "points"}``), ``marks`` (name -> marks after the deal, before
  the slate is wiped at the end of a game) and ``events``: a list of ``{"type", "player",
  "count"}`` with type ``"march"``, ``"all_equal"`` (all four scored the same: everybody a mark),
  ``"all_tricks"`` (a march by taking all tricks), ``"mark"`` (a mark added), ``"erase"`` (marks
  erased), ``"tie"`` (all tied in Butzen: nothing
  changes), ``"out"`` (dropped out of the game), ``"line"`` (lost the game: count = lines) and
  ``"butzen"`` (phase 1 is over and Butzen begins; not when the game ends with phase 1).

Money: ``balance_cents`` is worked out from the lines so far at any time: each line costs its
owner the tariff paid to each of the other three. The players settle it at the end of the rubber.

Card values: every total is derived from the pack below (140 points, 36 cards, 9 cards and 9
tricks a deal). Whether a set of scores can come from the cards in play is a memoised search
over count vectors of the counting card values (12, 11, 10, 4, 3, 2), cached per sorted score
tuple.

History: each deal is kept as a `Deal` row (seats and tuples of numbers) and spelled out as
above by `history()`.
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from . import base, cards, entries, errors
from .errors import N_, RuleError

NAME = "hintersche"
TITLE = N_("Hintersche (4-Strich)")


# --- the pack: 36 French cards, 6 to Ace ------------------------------------------------------

RANKS = cards.FRENCH_RANKS[cards.FRENCH_RANKS.index("6"):]  # 6, 7, 8, 9, 10, J, Q, K, A
PACK = cards.french_pack(ranks=RANKS)
_PLAIN_POINTS = {"A": 11, "10": 10, "K": 4, "Q": 3}
CARDS_PER_PLAYER = 9


def card_points(card: cards.Card, trump: str) -> int:
    """Card points of one card when `trump` is the trump suit.

    The jack of trumps ("de Alt") and the other jack of its colour ("de Kloei") count 12,
    the two jacks of the other colour 2.
    """
    if card.rank == "J":
        return 12 if cards.colour(card.suit) == cards.colour(trump) else 2
    return _PLAIN_POINTS.get(card.rank, 0)


def card_values() -> tuple[int, ...]:
    """The point value of every card in the pack (the multiset is the same for every trump)."""
    return tuple(card_points(card, cards.SUITS[0]) for card in PACK)


TOTAL = sum(card_values())  # card points in the pack: 140
TRICKS = CARDS_PER_PLAYER  # 9 cards each, so 9 tricks a deal
PACK_SIZE = len(PACK)  # 36
FULL_TABLE = PACK_SIZE // CARDS_PER_PLAYER  # with 4 players the whole pack is dealt
MIN_PLAYERS = MAX_PLAYERS = FULL_TABLE
SLATE = 4  # "Vier-Strich": phase 1 ends at 4 marks; more are excess marks
MARCH_ERASES = 2  # a marcher in Butzen erases up to 2 marks
FOUR_LOSSES_LINES = 2  # lines for losing every deal of phase 1 (option four_losses_double)

VIER_STRICH = "vier-strich"
BUTZEN = "butzen"

SUMMARY = N_("Each deal the players enter their card points (140 in the pack). In the first "
             "phase, Vier-Strich, the player with most points gets a mark on the slate; a player "
             "with more than 100 marches and each opponent gets a mark; if all four score 35, "
             "everybody gets one; ties are played off. At 4 marks the phase ends and whoever has "
             "no mark is out. Then comes Butzen: with marks to spare (more than 4) the lowest "
             "scorers only erase; otherwise the lowest scorer erases a mark and the highest adds "
             "one, and a march (over 100 or all 9 tricks) erases up to two marks and gives every "
             "other player a mark. With two players left, the one with fewer points erases (two "
             "after a march). Erasing your last mark takes you out; the last one in loses the "
             "game: one line on the frame (two for losing all four deals of the first phase). At "
             "the end of a rubber every line costs its owner the tariff, paid to each opponent.")

# Keyed by the option's (int) values, as the rules page looks them up.
_MARCH_LABELS: dict[Any, str] = {
    101: N_("more than 100"),
    100: N_("100 or more"),
}

OPTIONS: tuple[base.Option, ...] = (
    base.Option(
        "march_at", 101,
        help=N_("card points for a march: more than 100 (101) or 100 or more (100)"),
        choices=(101, 100),
        labels=_MARCH_LABELS,
    ),
    base.Option(
        "four_losses_double", True,
        help=N_("losing all four deals of the first phase costs two lines instead of one"),
    ),
    base.Option(
        "rubber_games", 4,
        help=N_("games in a rubber"),
        minimum=1, maximum=10_000,
    ),
    base.Option(
        "tariff_cents", 500,
        help=N_("what one line costs its owner, paid to each opponent; 0 for no money"),
        minimum=0, maximum=100_000,
    ),
)

MESSAGES: dict[str, str] = {
    f"{NAME}.not_in_deal": N_("{player} is out of this game and does not play this deal"),
    f"{NAME}.points_missing": N_("{player} plays this deal: please enter {player}'s points"),
    f"{NAME}.bad_points": N_("{player}: {value:|point|points} is impossible, a deal has 0 to "
                             "{total}"),
    f"{NAME}.not_makeable": N_("{player}: no cards add up to {value:|point|points}"),
    f"{NAME}.wrong_total": N_("the points add up to {total}, there are {expected}"),
    f"{NAME}.in_play_total": N_("the points add up to {total}, but with {count} players only "
                                "{cards} cards are in play (9 each): together they hold {low} to "
                                "{high} points"),
    f"{NAME}.impossible": N_("these points cannot all come from one pack of {cards} cards"),
    f"{NAME}.impossible_in_play": N_("these points cannot come from the {cards} cards in play: "
                                     "whoever takes a trick takes {count} cards, and the cards "
                                     "worth nothing are only {blanks}"),
    f"{NAME}.all_tricks_others": N_("{player} has {value:|point|points}, but {marcher} took all "
                                    "the tricks"),
    f"{NAME}.bad_playoffs": N_("the playoffs must be a list of playoff deals, each giving the "
                               "tied players' points"),
    f"{NAME}.not_in_playoff": N_("playoff {playoff}: {player} is not in this playoff"),
    f"{NAME}.playoff_missing": N_("playoff {playoff}: please enter {player}'s points"),
    f"{NAME}.playoff_impossible": N_("playoff {playoff}: these points cannot come from the "
                                     "{cards} cards in play ({count} players, 9 cards each)"),
    f"{NAME}.playoff_needed": N_("{tied:and} tie {tie:most=for the most points|fewest=for the "
                                 "fewest points|between=with {points} points|level=with {points} "
                                 "points each|again=again in the playoff}: enter their playoff "
                                 "deal{decides:=|most= (the most playoff points decide)|fewest= "
                                 "(the fewest playoff points decide)}"),
    f"{NAME}.playoff_not_needed": N_("too many playoff deals: this deal needs {needed}"),
    f"{NAME}.rest_over": N_("{players:and} already have {total} points together, more than the "
                            "{expected} in the pack"),
    f"{NAME}.rest_not_makeable": N_("that leaves {player} {value:|point|points} of the "
                                    "{expected}, and no cards add up to that"),
}
errors.register_messages(MESSAGES)

errors.register_key_words({
    "points": N_("points"),
    "playoffs": N_("playoff deals"),
    "all_tricks": N_("all tricks"),
})

_SHOW_LIMIT = 1_000_000


# --- which scores the cards can make ------------------------------------------------------------
#
# A set of counting cards is a count vector over the distinct non-zero card values. Vectors are
# packed into one int, one field per value; each field of a *remaining* vector carries a guard
# bit above the count, so `remaining - taken` keeps every guard bit exactly when `taken` fits.

_VALUE_COUNTS = Counter(card_values())
BLANKS = _VALUE_COUNTS.pop(0, 0)  # the 16 cards worth nothing (9, 8, 7, 6)
_FACES = tuple(sorted(_VALUE_COUNTS, reverse=True))  # (12, 11, 10, 4, 3, 2)
_LIMITS = tuple(_VALUE_COUNTS[v] for v in _FACES)
_GUARD_BIT = 1 << max(_LIMITS).bit_length()
_WIDTH = max(_LIMITS).bit_length() + 1
_GUARDS = sum(_GUARD_BIT << (i * _WIDTH) for i in range(len(_FACES)))
_FULL = _GUARDS + sum(n << (i * _WIDTH) for i, n in enumerate(_LIMITS))
_COUNTING = sum(_LIMITS)  # 20 cards that count


def _vectors_by_sum() -> dict[int, tuple[tuple[int, int], ...]]:
    """Every sub-multiset of the counting cards by its sum: (packed count vector, card count)."""
    found: dict[int, list[tuple[int, int]]] = {}
    for combo in itertools.product(*(range(n + 1) for n in _LIMITS)):
        total = sum(c * v for c, v in zip(combo, _FACES, strict=True))
        packed = sum(c << (i * _WIDTH) for i, c in enumerate(combo))
        found.setdefault(total, []).append((packed, sum(combo)))
    return {s: tuple(sorted(vs, key=lambda v: v[1])) for s, vs in found.items()}


_BY_SUM = _vectors_by_sum()
MAKEABLE = frozenset(_BY_SUM)  # every score one player can take: 0, 2..138, 140


def in_play(players: int) -> tuple[int, int, int]:
    """Cards in play with this many players in the deal, and the fewest and most points they
    can hold together (2 players: 18 cards, 4 to 136; 3: 27, 42 to 140; 4: 36, 140)."""
    count = players * CARDS_PER_PLAYER
    values = sorted(v for v, n in _VALUE_COUNTS.items() for _ in range(n))
    fewest = max(0, count - BLANKS)  # the blanks cannot fill more than their number of cards
    return count, sum(values[:fewest]), sum(values[-min(count, len(values)):])


@functools.lru_cache(maxsize=1 << 16)
def deal_possible(scores: tuple[int, ...]) -> bool:
    """Can these players (one score each, sorted ascending) have taken these points?

    Each holds 9 cards, and every trick holds one card of each player, so a player who took k
    tricks holds k x n cards (n players); the k add up to 9. The counting cards they took must
    be disjoint parts of the pack, each player's part fitting in whole tricks, and the cards in
    play that count nothing are at most the pack's blanks.
    """
    n = len(scores)
    count, fewest, most = in_play(n)
    if not fewest <= sum(scores) <= most or any(s not in MAKEABLE for s in scores):
        return False
    if count >= PACK_SIZE:  # the whole pack: the last player simply has what is left
        return _split(scores[:-1], n, _FULL, 0)
    return _split(scores, n, _FULL, 0, count - BLANKS)


def _split(scores: tuple[int, ...], n: int, remaining: int, tricks: int,
           at_least: int = 0) -> bool:
    """Can `scores` be taken from the `remaining` counting cards in at most 9 - `tricks`
    tricks, with at least `at_least` counting cards among them?"""
    failed: set[tuple[int, int, int]] = set()
    last = len(scores)
    left = _popcount_cards

    def search(i: int, remaining: int, tricks: int) -> bool:
        if i == last:
            return _COUNTING - left(remaining) >= at_least
        key = (i, remaining, tricks)
        if key in failed:
            return False
        for packed, size in _BY_SUM[scores[i]]:
            need = tricks - (-size // n)  # whole tricks for these cards
            if need > TRICKS:
                break  # the vectors come in order of size
            rest = remaining - packed
            if rest & _GUARDS == _GUARDS and search(i + 1, rest, need):
                return True
        failed.add(key)
        return False

    return search(0, remaining, tricks)


def _popcount_cards(remaining: int) -> int:
    """How many counting cards a packed remaining vector still holds."""
    mask = _GUARD_BIT - 1
    return sum((remaining >> (i * _WIDTH)) & mask for i in range(len(_FACES)))


# --- helpers -------------------------------------------------------------------------------------


def _shown(value: int) -> int | str:
    """A number for a message; absurdly big ones are not written out in full."""
    if value > _SHOW_LIMIT:
        return f"more than {_SHOW_LIMIT}"
    if value < -_SHOW_LIMIT:
        return f"less than {-_SHOW_LIMIT}"
    return value


def _read_number(name: str, value: Any, field: str) -> int:
    """A card-point score: a whole number 0..140 that the cards can make."""
    try:
        number = entries.whole_number(name, value)
    except RuleError:
        raise RuleError("not_a_number", field=field, player=name, value=value) from None
    if number < 0 or number > TOTAL:
        raise RuleError(f"{NAME}.bad_points", field=field, player=name, value=_shown(number),
                        total=TOTAL)
    if number not in MAKEABLE:
        raise RuleError(f"{NAME}.not_makeable", field=field, player=name, value=number)
    return number


def fills_in(in_deal: Sequence[str]) -> bool:
    """Whether one score of a deal among these players may be left out to fill itself in
    (`completed`): with the whole pack dealt, four players."""
    return len(in_deal) == FULL_TABLE


def completed(entry: Mapping[str, Any], in_deal: Sequence[str]) -> dict[str, Any]:
    """The entry with the points of the one player left out filled in (rules: Entering a deal).

    With four players in the deal (`in_deal`, as the report's ``in_deal`` names them) the whole
    pack is dealt, so the last score is what the other three leave of the 140: the players type
    three and the fourth fills itself. Their scores are checked first, each where it was typed;
    three that already hold more than the pack, or leave a score no cards make, are refused in
    their words. Any other entry (every player named, two or more left out, fewer players in
    the deal, a name not in the deal) comes back as it is, for `Table.apply` to judge.
    """
    points = entry.get("points")
    if not fills_in(in_deal) or not isinstance(points, Mapping):
        return dict(entry)
    left_out = [name for name in in_deal if name not in points]
    if len(left_out) != 1 or not set(points) <= set(in_deal):
        return dict(entry)
    typed = {name: _read_number(name, value, name) for name, value in points.items()}
    rest = TOTAL - sum(typed.values())
    (player,) = left_out
    if rest < 0:
        raise RuleError(f"{NAME}.rest_over", field="points", players=list(typed),
                        total=TOTAL - rest, expected=TOTAL)
    if rest not in MAKEABLE:
        raise RuleError(f"{NAME}.rest_not_makeable", field=player, player=player, value=rest,
                        expected=TOTAL)
    return {**entry, "points": {name: typed.get(name, rest) for name in in_deal}}


Seats = tuple[int, ...]
# The events of a deal, kept flat: type, seat (-1 for none), count; repeated. Flat tuples of
# plain values leave nothing behind for the garbage collector to walk in a long replay.
_Events = list[Any]
Playoff = tuple[int, Seats, tuple[int, ...]]  # dealer, the seats in it, scores per seat


def _orders(n: int) -> list[list[Seats]]:
    """orders[last][mask]: the seats in `mask` in dealing order, starting after seat `last`."""
    return [[tuple(s % n for s in range(last + 1, last + 1 + n) if mask >> (s % n) & 1)
             for mask in range(1 << n)] for last in range(n)]


@dataclass(frozen=True, slots=True)
class Deal(base.Row):
    """One deal of the history, in seats: `history()` spells it out (see the module docstring).

    A replay of thousands of deals keeps one of these per deal, holding only tuples of numbers.
    """

    game: int
    phase: str
    seats: Seats  # the players of the deal in dealing order, the dealer first
    # per seat, as bytes (each fits: 0 to 140 points, a few marks): bytes hold no objects, so
    # a long replay leaves fewer for the garbage collector to walk
    scores: bytes  # per seat (0 for a seat out of the deal)
    playoffs: tuple[Playoff, ...]
    marks: bytes  # per seat: the marks after the deal
    events: tuple[Any, ...]  # flat: type, seat (-1 for none), count; repeated

    @property
    def all_tricks(self) -> int | None:
        """The seat that took all the tricks: the "all_tricks" event says who."""
        events = self.events
        for i in range(0, len(events), 3):
            if events[i] == "all_tricks":
                return int(events[i + 1])
        return None

    def spelled(self, players: Sequence[str], hand: int) -> dict[str, Any]:
        seats = self.seats
        scores = self.scores
        events = self.events
        return {
            "hand": hand,
            "game": self.game,
            "phase": self.phase,
            "final_stage": self.phase == BUTZEN and len(seats) == 2,
            "dealer": players[seats[0]],
            "points": {players[p]: scores[p] for p in seats},
            "all_tricks": None if (seat := self.all_tricks) is None else players[seat],
            "playoffs": [{"dealer": players[d], "points": {players[p]: s[p] for p in group}}
                         for d, group, s in self.playoffs],
            "marks": dict(zip(players, self.marks, strict=True)),
            "events": [{"type": events[i], "player": None if events[i + 1] < 0
                        else players[events[i + 1]], "count": events[i + 2]}
                       for i in range(0, len(events), 3)],
        }


class _Playoffs:
    """The entry's playoff deals, used up in order as ties need deciding."""

    __slots__ = ("table", "raw", "used", "last", "log")

    def __init__(self, table: Table, raw: Sequence[Any], last: int) -> None:
        self.table = table
        self.raw = raw
        self.used = 0
        self.last = last  # seat of the last dealer
        self.log: list[Playoff] = []

    def pick(self, group: Seats, scores: Sequence[int], count: int,
             lowest: bool) -> list[int]:
        """The `count` players of `group` with the fewest (or most) points, ties played off."""
        chosen: list[int] = []
        tie = ""
        while True:
            ordered = sorted(scores[p] for p in group)
            threshold = ordered[count - 1] if lowest else ordered[-count]
            if lowest:
                better = [p for p in group if scores[p] < threshold]
            else:
                better = [p for p in group if scores[p] > threshold]
            tied = [p for p in group if scores[p] == threshold]
            chosen += better
            count -= len(better)
            if count == len(tied):
                return chosen + tied
            # where the tie is among the players it is decided between, for the message
            tie = ("again" if tie else "level" if ordered[0] == ordered[-1]
                   else "most" if threshold == ordered[-1]
                   else "fewest" if threshold == ordered[0] else "between")
            group = self.table._orders[self.last][sum(1 << p for p in tied)]
            scores = self._next(group, lowest, tie, threshold)

    def _next(self, group: Seats, lowest: bool, tie: str, points: int) -> list[int]:
        """Read the next playoff deal among `group` (dealing order) and return its scores."""
        table = self.table
        names = [table.players[p] for p in group]
        number = self.used + 1
        if self.used == len(self.raw):
            kind = "fewest" if lowest else "most"
            raise RuleError(f"{NAME}.playoff_needed", field="playoffs", tied=names,
                            dealer=names[0], playoff=number,
                            kind=kind, tie=tie, points=points,
                            decides="" if tie == kind else kind)
        raw = self.raw[self.used]
        if not isinstance(raw, Mapping):
            raise RuleError(f"{NAME}.bad_playoffs", field="playoffs", playoff=number)
        scores = [0] * len(table.players)
        for name, value in raw.items():
            seat = table._seat.get(name) if type(name) is str else None
            if seat is None:
                raise RuleError("unknown_player", field="playoffs", player=name)
            if seat not in group:
                raise RuleError(f"{NAME}.not_in_playoff", field="playoffs", player=name,
                                playoff=number)
            scores[seat] = _read_number(name, value, "playoffs")
        missing = [name for name in names if name not in raw]
        if missing:
            raise RuleError(f"{NAME}.playoff_missing", field="playoffs", player=missing[0],
                            playoff=number)
        if not deal_possible(tuple(sorted(scores[p] for p in group))):
            raise RuleError(f"{NAME}.playoff_impossible", field="playoffs", playoff=number,
                            cards=in_play(len(group))[0], count=len(group),
                            points={table.players[p]: scores[p] for p in group})
        self.used = number
        self.last = group[0]
        self.log.append((group[0], group, tuple(scores)))
        return scores


class Table(base.Table):
    """One rubber of Hintersche at the table."""

    ENTRY_WORD = "hand"
    ENTRY_KEYS = frozenset({"points", "all_tricks", "playoffs"})
    SNAPSHOT = ("_last", "_in", "marks", "lines", "phase", "game_number", "hands_played",
                "finished", "games_played", "_game_start", "marches", "_march_hand",
                "vier_strich", "_vier_strich_hand")

    def __init__(self, players: Any, first_dealer: Any, rules: Any) -> None:
        super().__init__(players, first_dealer, rules)
        self._seat: dict[str, int] = {name: i for i, name in enumerate(self.players)}
        n = len(self.players)
        self._n = n
        self._orders = _orders(n)
        self._everybody = (1 << n) - 1
        self._last: int = (self._first_dealer - 1) % n  # the deal passes on from here
        self._in: int = self._everybody  # bit mask of the seats still in the game
        self.marks: list[int] = [0] * n
        self.lines: list[int] = [0] * n
        self.phase: str = VIER_STRICH
        self.game_number: int = 1
        self.games: list[dict[str, Any]] = []  # the games over (since made or restored)
        self.games_played: int = 0
        self._game_start: int = 0  # hands_played when the current game began
        self._march_at: int = self.rules["march_at"]
        # for the season's records: per seat the marches (taking all tricks too) of the rubber
        # and the games lost in Vier-Strich (all four marks alone), each with the number of the
        # latest deal it happened in (0: never)
        self.marches: list[int] = [0] * n
        self._march_hand: list[int] = [0] * n
        self.vier_strich: list[int] = [0] * n
        self._vier_strich_hand: list[int] = [0] * n

    # --- who plays --------------------------------------------------------------------------

    @property
    def ins(self) -> list[bool]:
        """Per seat: still in the current game (all false after the rubber)."""
        return [bool(self._in >> p & 1) for p in range(self._n)]

    def _deal(self) -> Seats:
        """The seats of the next deal's players, the dealer first."""
        return self._orders[self._last][self._in]

    def in_deal(self) -> list[str]:
        """Who plays the next deal, the dealer first (empty after the rubber)."""
        return [self.players[p] for p in self._deal()]

    # --- entries ----------------------------------------------------------------------------

    def play_entry(self, entry: Mapping[str, Any]) -> Deal:
        deal = self._deal()
        scores = self._read_points(entry.get("points"), deal)
        all_tricks = entry.get("all_tricks")
        if all_tricks is not None:
            all_tricks = self._read_all_tricks(all_tricks, deal, scores)
        raw_playoffs = entry.get("playoffs")
        if raw_playoffs is None:
            raw_playoffs = ()
        elif not isinstance(raw_playoffs, list | tuple):
            raise RuleError(f"{NAME}.bad_playoffs", field="playoffs")
        playoffs = _Playoffs(self, raw_playoffs, deal[0])
        marks, events = self._settle(deal, scores, all_tricks, playoffs)
        if playoffs.used != len(raw_playoffs):
            raise RuleError(f"{NAME}.playoff_not_needed", field="playoffs",
                            needed=playoffs.used, given=len(raw_playoffs))
        return self._commit(deal, scores, playoffs, marks, events)

    def _read_points(self, raw: Any, deal: Seats) -> list[int]:
        """Every score of the deal, per seat (0 for seats out of the deal), checked."""
        if type(raw) is not dict:
            if raw is None:
                raise errors.missing_key("points")
            if not isinstance(raw, Mapping):
                raise errors.not_a_mapping("points")
        seat_of = self._seat
        ins = self._in
        scores = [0] * self._n
        total = 0
        for name, value in raw.items():
            seat = seat_of.get(name) if type(name) is str else None
            if seat is None:
                raise RuleError("unknown_player", field=str(name), player=name)
            if not ins >> seat & 1:
                raise RuleError(f"{NAME}.not_in_deal", field=name, player=name)
            if type(value) is not int or value not in MAKEABLE:
                value = _read_number(name, value, name)
            scores[seat] = value
            total += value
        if len(raw) != len(deal):
            missing = next(self.players[p] for p in deal if self.players[p] not in raw)
            raise RuleError(f"{NAME}.points_missing", field=missing, player=missing)
        if deal_possible(tuple(sorted([scores[p] for p in deal]))):
            return scores
        points = {self.players[p]: scores[p] for p in deal}
        count, fewest, most = in_play(len(deal))
        if len(deal) == FULL_TABLE:
            if total != TOTAL:
                raise RuleError(f"{NAME}.wrong_total", field="points", total=total,
                                expected=TOTAL)
            raise RuleError(f"{NAME}.impossible", field="points", cards=PACK_SIZE, points=points)
        if not fewest <= total <= most:
            raise RuleError(f"{NAME}.in_play_total", field="points", total=total,
                            count=len(deal), cards=count, low=fewest, high=most)
        raise RuleError(f"{NAME}.impossible_in_play", field="points", cards=count,
                        count=len(deal), blanks=BLANKS, points=points)

    def _read_all_tricks(self, raw: Any, deal: Seats, scores: list[int]) -> int:
        seat = self._seat.get(raw) if type(raw) is str else None
        if seat is None:
            raise RuleError("unknown_player", field="all_tricks", player=raw)
        if seat not in deal:
            raise RuleError(f"{NAME}.not_in_deal", field="all_tricks", player=raw)
        for p in deal:
            if p != seat and scores[p]:
                name = self.players[p]
                raise RuleError(f"{NAME}.all_tricks_others", field=name, player=name,
                                value=scores[p], marcher=raw)
        return seat

    def _settle(self, deal: Seats, scores: list[int], all_tricks: int | None,
                playoffs: _Playoffs) -> tuple[list[int], _Events]:
        """The marks after this deal and what happened; changes nothing on the table."""
        marks = self.marks.copy()
        events: _Events = []
        points = [scores[p] for p in deal]
        marcher = all_tricks
        if marcher is None and max(points) >= self._march_at:
            marcher = deal[points.index(max(points))]
        if self.phase == VIER_STRICH:
            self._vier_strich(deal, scores, marcher, all_tricks is not None, playoffs, marks,
                              events)
            return marks, events
        if marcher is not None:
            events += ("march" if all_tricks is None else "all_tricks", marcher, 0)
            self._butzen_march(deal, marcher, marks, events)
        else:
            self._butzen(deal, scores, playoffs, marks, events)
        return marks, events

    def _vier_strich(self, deal: Seats, scores: list[int], marcher: int | None,
                     by_tricks: bool, playoffs: _Playoffs, marks: list[int], events: _Events
                     ) -> None:
        """Phase 1: a march marks the others, all equal marks everybody, else most points
        takes a mark."""
        points = [scores[p] for p in deal]
        if marcher is not None:
            events += ("all_tricks" if by_tricks else "march", marcher, 0)
            _add(marks, events, [p for p in deal if p != marcher])
        elif max(points) == min(points):
            events += ("all_equal", -1, 0)
            _add(marks, events, deal)
        else:
            (taker,) = playoffs.pick(deal, scores, 1, lowest=False)
            _add(marks, events, [taker])

    @staticmethod
    def _butzen_march(deal: Seats, marcher: int, marks: list[int], events: _Events) -> None:
        """Butzen, a march: the marcher erases up to 2 (only 1 with one excess mark); without
        excess marks each other player adds one."""
        excess = sum(marks) - SLATE
        if len(deal) == 2 or excess <= 0 or excess >= MARCH_ERASES:
            _erase(marks, events, marcher, MARCH_ERASES)
        else:  # one excess mark: the marcher erases only that one
            _erase(marks, events, marcher, 1)
        if len(deal) > 2 and excess <= 0:
            _add(marks, events, [p for p in deal if p != marcher])

    @staticmethod
    def _butzen(deal: Seats, scores: list[int], playoffs: _Playoffs, marks: list[int],
                events: _Events) -> None:
        """Butzen without a march: fewest points erase, most points add (rules: Butzen)."""
        points = [scores[p] for p in deal]
        k = len(deal)
        if k == 2:  # the final stage: fewer points erases 1, nobody adds
            (winner,) = playoffs.pick(deal, scores, 1, lowest=True)
            _erase(marks, events, winner, 1)
        elif max(points) == min(points):
            events += ("tie", -1, 0)
        elif (excess := sum(marks) - SLATE) > 0:  # only erasing, never the highest scorer
            for p in playoffs.pick(deal, scores, min(excess, k - 1), lowest=True):
                _erase(marks, events, p, 1)
        else:
            (lowest,) = playoffs.pick(deal, scores, 1, lowest=True)
            (highest,) = playoffs.pick(deal, scores, 1, lowest=False)
            _erase(marks, events, lowest, 1)
            _add(marks, events, [highest])

    def _commit(self, deal: Seats, scores: list[int], playoffs: _Playoffs, marks: list[int],
                events: _Events) -> Deal:
        phase = self.phase
        game = self.game_number
        self.marks = marks
        self._last = playoffs.last
        self.hands_played += 1
        for i in range(0, len(events), 3):  # flat (type, seat, count) triples
            if events[i] in ("march", "all_tricks"):
                self.marches[events[i + 1]] += 1
                self._march_hand[events[i + 1]] = self.hands_played
        loser: int | None = None
        lines = 1
        if phase == VIER_STRICH:
            if sum(marks) >= SLATE:
                self.phase = BUTZEN
                outs: _Events = []
                loser = self._drop_out(deal, marks, outs)
                if loser is None:  # Butzen begins (not when the game ends with phase 1)
                    events += ("butzen", -1, 0)
                else:  # one player took all four marks: the game is lost in Vier-Strich
                    self.vier_strich[loser] += 1
                    self._vier_strich_hand[loser] = self.hands_played
                    if self.rules["four_losses_double"]:
                        lines = FOUR_LOSSES_LINES
                events += outs
        elif 0 in marks:
            loser = self._drop_out(deal, marks, events)
        if loser is not None:
            events += ("line", loser, lines)
            self._end_game(loser, lines)
        return Deal(game, phase, deal, bytes(scores), tuple(playoffs.log), bytes(marks),
                    tuple(events))

    def _drop_out(self, deal: Seats, marks: list[int], events: _Events) -> int | None:
        """Take out who has no mark left; return the last one in, if only one is left."""
        still = []
        for p in deal:
            if marks[p]:
                still.append(p)
            else:
                self._in &= ~(1 << p)
                events += ("out", p, 0)
        return still[0] if len(still) == 1 else None

    def _end_game(self, loser: int, lines: int) -> None:
        self.lines[loser] += lines
        self.games.append({"game": self.game_number, "loser": self.players[loser],
                           "lines": lines, "hands": self.hands_played - self._game_start})
        self._game_start = self.hands_played
        self.marks = [0] * self._n
        self.phase = VIER_STRICH
        self.games_played += 1
        if self.games_played >= self.rules["rubber_games"]:
            self.finished = True
            self._in = 0
        else:
            self.game_number += 1
            self._in = self._everybody

    # --- report -----------------------------------------------------------------------------

    @property
    def next_dealer(self) -> str:
        return self.players[self._orders[self._last][self._everybody if self.finished
                                                     else self._in][0]]

    @property
    def excess_marks(self) -> int:
        return max(0, sum(self.marks) - SLATE)

    def balances_cents(self) -> list[int]:
        """Money from the lines so far: each line pays the tariff to every other player."""
        tariff = self.rules["tariff_cents"]
        total = sum(self.lines)
        n = self._n
        return [tariff * (total - lines * n) for lines in self.lines]

    def report_extras(self) -> dict[str, Any]:
        """The games over since the table was made or restored."""
        return {"games": [dict(g) for g in self.games]}

    def summary(self) -> dict[str, Any]:
        """The report without the history."""
        players = self.players
        in_deal = self.in_deal()
        balances = self.balances_cents()
        ins = self.ins
        return {
            "game": NAME,
            "hands_played": self.hands_played,
            "next_dealer": self.next_dealer,
            "finished": self.finished,
            "phase": self.phase,
            "game_number": self.game_number,
            "players": [
                {"name": name, "marks": self.marks[i], "lines": self.lines[i],
                 "in": ins[i], "balance_cents": balances[i], "marches": self.marches[i],
                 "march_hand": self._march_hand[i], "vier_strich": self.vier_strich[i],
                 "vier_strich_hand": self._vier_strich_hand[i]}
                for i, name in enumerate(players)
            ],
            "in_deal": in_deal,
            "final_stage": self.phase == BUTZEN and len(in_deal) == 2,
            "excess_marks": self.excess_marks,
            "all_tricks_allowed": not self.finished,
            "rubber_games": self.rules["rubber_games"],
            "games_played": self.games_played,
            "rules": dict(self.rules),
        }


def _add(marks: list[int], events: _Events, seats: Sequence[int]) -> None:
    for seat in seats:
        marks[seat] += 1
        events += ("mark", seat, 1)


def _erase(marks: list[int], events: _Events, seat: int, up_to: int) -> None:
    erased = min(up_to, marks[seat])
    marks[seat] -= erased
    events += ("erase", seat, erased)
