"""Zehner: a game made for the tests only, a fourth game added the way the README says.

Each hand the players share ten points (every player's points, 0 to 10, add up to 10); after
the hand in which somebody reaches the target (30) the game ends, and the highest total wins
(the first of them round the table on a tie). Then every other player pays the winner the
stake. The deal goes round the table.

An entry: ``{"points": {"A": 4, "B": 6}}`` (a player left out took 0).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scorekeeper.engine import base, entries, errors
from scorekeeper.engine.base import Option
from scorekeeper.engine.errors import N_, RuleError

NAME = "zehner"
TITLE = N_("Zehnerspiel")
SUMMARY = N_("Each hand the players share ten points; the first to the target wins the stakes.")
MIN_PLAYERS = 2
MAX_PLAYERS = 6
HAND = 10  # the points of one hand
OPTIONS: tuple[Option, ...] = (
    Option("target", 30, minimum=10, maximum=1000, help=N_("the game ends at this total")),
    Option("stake_cents", 50, minimum=0, maximum=100_000, multiple_of=5,
           help=N_("what each other player pays the winner")),
)
errors.register_messages({
    f"{NAME}.points_sum": N_("the points add up to {got}, a hand has {total}"),
    f"{NAME}.points_player": N_("{player}: {value} points is impossible, a hand has {total}"),
})
errors.register_key_words({"points": N_("points")})


@dataclass(frozen=True, slots=True)
class Hand(base.Row):
    points: tuple[int, ...]
    totals: tuple[int, ...]

    def spelled(self, players: Sequence[str], hand: int) -> dict[str, Any]:
        return {"hand": hand, "points": dict(zip(players, self.points, strict=True)),
                "totals": dict(zip(players, self.totals, strict=True))}


class Table(base.Table):
    ENTRY_WORD = "hand"
    ENTRY_KEYS = frozenset({"points"})
    SNAPSHOT = ("totals", "hands_played", "finished")

    def __init__(self, players: Any, first_dealer: Any, rules: Any) -> None:
        super().__init__(players, first_dealer, rules)
        self.totals: list[int] = [0] * len(self.players)

    def play_entry(self, entry: Mapping[str, Any]) -> Hand:
        given = entry.get("points")
        if not isinstance(given, Mapping):
            raise errors.not_a_mapping("points")
        points = []
        for name in given:
            if name not in self.players:
                raise RuleError("unknown_player", field="points", player=name)
        for name in self.players:
            value = entries.whole_number(name, given.get(name, 0))
            if not 0 <= value <= HAND:
                raise RuleError(f"{NAME}.points_player", field=name, player=name, value=value,
                                total=HAND)
            points.append(value)
        if sum(points) != HAND:
            raise RuleError(f"{NAME}.points_sum", field="points", got=sum(points), total=HAND)
        self.totals = [t + p for t, p in zip(self.totals, points, strict=True)]
        self.hands_played += 1
        self.finished = max(self.totals) >= self.rules["target"]
        return Hand(tuple(points), tuple(self.totals))

    def winner(self) -> str | None:
        if not self.finished:
            return None
        return self.players[self.totals.index(max(self.totals))]

    def summary(self) -> dict[str, Any]:
        winner = self.winner()
        stake = self.rules["stake_cents"]
        dealer = None if self.finished else self.players[
            (self._first_dealer + self.hands_played) % len(self.players)]
        return {
            "game": NAME, "hands_played": self.hands_played, "finished": self.finished,
            "next_dealer": dealer, "winner": winner, "target": self.rules["target"],
            "rules": dict(self.rules),
            "players": [{"name": name, "total": total,
                         "balance_cents": 0 if winner is None else
                         stake * (len(self.players) - 1) if name == winner else -stake}
                        for name, total in zip(self.players, self.totals, strict=True)],
        }
