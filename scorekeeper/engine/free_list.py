"""The free list: a score sheet for any other game the table plays (Skat, Doppelkopf, Binokel,
Schafkopf, Jass...), which the group names in the rule option `name`.

Entries (one per hand)::

    {"points": {"A": 23, "B": -23}}

- `points`: each named player's points in the hand, whole numbers, negative allowed; a player
  left out scored 0. At least one player must be named, and only players of the game.
- With the rule `zero_sum` the points of every hand must add up to 0.
- Each player's points are at most `POINTS_LIMIT` either way (a typing slip, not a hand).

Rules
-----
`name` (required, 1 to 40 characters), `winner` (`"highest"` or `"lowest"` total wins),
`zero_sum` (false), `target` (null: none), `hands` (null: no limit), `cents_per_point` (0).

The game is over after the hand in which someone's total reaches `target` (is at least it), or
after the `hands`-th hand, whichever comes first; without either it runs until the players end
it. The target means the same for both ways of winning: with `"highest"` whoever gets there
first is ahead; with `"lowest"` it is the limit of a Hearts-like game (whoever climbs to it
ends the game, the lowest total wins). Once over, the `winner` is the one player with the
highest (lowest) total; when two or more share it, nobody (null). The deal goes round the table.

Money (at every moment, so a list the players end themselves is settled as it stands): with
`zero_sum`, each player's total at `cents_per_point` (the negative of that when the lowest
total wins: there the points a player wrote are what they lost); otherwise everyone settles the
difference in totals with everyone, so a player gets ``cents_per_point × (n × score − sum of
scores)`` when the highest wins and the negative of that when the lowest wins (n players).
Either way the money adds up to 0.

Report
------
Common keys: `game`, `hands_played`, `next_dealer` and `dealer` (who deals the next hand; null
once the game is over), `deals_on` (who would deal next: the next game's first dealer),
`finished`, `players` (seating order, each `name`, `score`, `balance_cents`). Game keys:
`name` (the game's name), `wins` (`"highest"` or `"lowest"`), `winner` (name or null),
`leaders` (who has the best total now; empty before the first hand), `target`, `hands_left`
(hands still to play: null without a number of hands, 0 once over), `zero_sum`, `rules` (every
rule option).
`history`: one row per hand: `hand` (from 1), `dealer`, `points` and `totals` (name -> the
hand's points, and the total after it, for every player).

Error codes (besides the generic ones): `free-list.no_points` (field `points`),
`free-list.too_many_points` (field: the player), `free-list.not_zero` (field `points`); a name
that is not a player gives `unknown_player`, a value that is not a whole number `not_a_number`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from . import base, entries, errors
from .base import Option
from .errors import N_, RuleError

NAME = "free-list"
TITLE = N_("Free list")
SUMMARY = N_(
    "A score sheet for any other game the table plays (Skat, Doppelkopf, Binokel, Schafkopf, "
    "Jass...): name the game and write down each player's points per hand; a player left out "
    "scored 0. Choose whether the highest or the lowest total wins; a target total or a number "
    "of hands may end the game. Money: everyone settles the difference in points with everyone "
    "at the agreed rate; in a list where every hand adds up to 0, each player's total is their "
    "money.")
MIN_PLAYERS = 2
MAX_PLAYERS = 8
POINTS_LIMIT = 1_000_000  # a player's points in one hand, either way
HIGHEST, LOWEST = "highest", "lowest"

OPTIONS: tuple[Option, ...] = (
    Option("name", None, required=True, text=True, minimum=1, maximum=40,
           help=N_("the name of the game (Skat, Doppelkopf, Binokel...)")),
    Option("winner", HIGHEST, choices=(HIGHEST, LOWEST),
           help=N_("who wins: the highest or the lowest total"),
           labels={HIGHEST: N_("the highest total wins"), LOWEST: N_("the lowest total wins")}),
    Option("zero_sum", False,
           help=N_("every hand adds up to 0: what one player wins, the others lose")),
    Option("target", None, minimum=1, maximum=100_000, labels={None: N_("no target")},
           help=N_("the game ends after the hand in which someone's total reaches this")),
    Option("hands", None, minimum=1, maximum=10_000, labels={None: N_("no limit")},
           help=N_("the game ends after this many hands")),
    Option("cents_per_point", 0, minimum=0, maximum=10_000,
           help=N_("money: everyone settles the difference in points with everyone, at this "
                   "much a point")),
)

MESSAGES: dict[str, str] = {
    f"{NAME}.no_points": N_("enter the points of at least one player"),
    f"{NAME}.too_many_points": N_("{player}: a hand's points go from -{limit} to {limit}"),
    f"{NAME}.not_zero": N_("the points add up to {got}, in this game every hand adds up to 0"),
}
errors.register_messages(MESSAGES)
errors.register_key_words({"points": N_("points")})


@dataclass(frozen=True, slots=True)
class Hand(base.Row):
    """One hand of the history, in seats."""

    dealer: int  # the seat that dealt it
    points: tuple[int, ...]  # per seat: the hand's points
    totals: tuple[int, ...]  # per seat: the total after the hand

    def spelled(self, players: Sequence[str], hand: int) -> dict[str, Any]:
        return {"hand": hand, "dealer": players[self.dealer],
                "points": dict(zip(players, self.points, strict=True)),
                "totals": dict(zip(players, self.totals, strict=True))}


def balances(scores: Sequence[int], wins: str, zero_sum: bool, cents: int) -> list[int]:
    """Each player's money in cents from the totals (see the module docstring)."""
    sign = 1 if wins == HIGHEST else -1
    if zero_sum:
        return [sign * cents * score for score in scores]
    n, total = len(scores), sum(scores)
    return [sign * cents * (n * score - total) for score in scores]


def leaders(scores: Sequence[int], wins: str) -> list[int]:
    """The seats with the best total."""
    best = max(scores) if wins == HIGHEST else min(scores)
    return [i for i, score in enumerate(scores) if score == best]


class Table(base.Table):
    ENTRY_WORD = "hand"
    ENTRY_KEYS = frozenset({"points"})
    SNAPSHOT = ("scores", "hands_played", "finished")

    def __init__(self, players: Any, first_dealer: Any, rules: Any) -> None:
        super().__init__(players, first_dealer, rules)
        self._n = len(self.players)
        self._index = {name: i for i, name in enumerate(self.players)}
        self.scores: list[int] = [0] * self._n

    def play_entry(self, entry: Mapping[str, Any]) -> Hand:
        given = entry.get("points")
        if given is None:
            raise errors.missing_key("points")
        if not isinstance(given, Mapping):
            raise errors.not_a_mapping("points")
        if not given:
            raise RuleError(f"{NAME}.no_points", field="points")
        points = [0] * self._n
        for name, value in given.items():
            i = self._index.get(name) if type(name) is str else None
            if i is None:
                raise RuleError("unknown_player", field=str(name), player=name)
            # a whole number as it comes (a hand from the app), else checked
            number = value if type(value) is int else entries.whole_number(name, value)
            if not -POINTS_LIMIT <= number <= POINTS_LIMIT:
                raise RuleError(f"{NAME}.too_many_points", field=name, player=name,
                                limit=POINTS_LIMIT)
            points[i] = number
        if self.rules["zero_sum"] and sum(points) != 0:
            raise RuleError(f"{NAME}.not_zero", field="points", got=sum(points))
        dealer = self._dealer_seat()
        self.scores = [s + p for s, p in zip(self.scores, points, strict=True)]
        self.hands_played += 1
        target, hands = self.rules["target"], self.rules["hands"]
        self.finished = ((target is not None and max(self.scores) >= target)
                         or (hands is not None and self.hands_played >= hands))
        return Hand(dealer, tuple(points), tuple(self.scores))

    def _dealer_seat(self) -> int:
        """The seat that deals the next hand: the deal goes round the table."""
        return (self._first_dealer + self.hands_played) % self._n

    def winner(self) -> str | None:
        """The one player ahead once the game is over, else None."""
        if not self.finished:
            return None
        best = leaders(self.scores, self.rules["winner"])
        return self.players[best[0]] if len(best) == 1 else None

    def summary(self) -> dict[str, Any]:
        """The report without the history."""
        rules = self.rules
        deals_on = self.players[self._dealer_seat()]
        dealer = None if self.finished else deals_on
        money = balances(self.scores, rules["winner"], rules["zero_sum"], rules["cents_per_point"])
        ahead = leaders(self.scores, rules["winner"]) if self.hands_played else []
        return {
            "game": NAME,
            "name": rules["name"],
            "hands_played": self.hands_played,
            "next_dealer": dealer,
            "dealer": dealer,
            "deals_on": deals_on,
            "finished": self.finished,
            "wins": rules["winner"],
            "winner": self.winner(),
            "leaders": [self.players[i] for i in ahead],
            "target": rules["target"],
            "hands_left": (None if rules["hands"] is None
                           else 0 if self.finished else rules["hands"] - self.hands_played),
            "zero_sum": rules["zero_sum"],
            "rules": dict(rules),
            "players": [{"name": name, "score": score, "balance_cents": cents}
                        for name, score, cents in zip(self.players, self.scores, money,
                                                      strict=True)],
        }
