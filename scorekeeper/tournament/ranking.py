"""What a tournament night and a season's nights add up to.

The evening (`evening`): each entrant's total over the Durchgänge, from each table's totals per
Durchgang. A Durchgang an entrant has no result in (their table's voided, or has not played a
game yet while others have, or they were not seated in it: withdrawn before it, entered after
it) counts as that Durchgang's worst result at the tables that have one (the lowest, or the
highest where the fewest points win; 0 while there is none): a missing result never helps (0
would be the best result where the fewest points win, and better than a losing Cego list's).
The best total first (the highest, or the lowest where the game's winner has the fewest
points); equal totals share a place (1, 2, 2, 4). Where a prize depends on the order of equal
totals, a lot is drawn (`draw_lot`, from a seed) and recorded; given back to `evening`, it
orders the tie. The last place is named (unless everyone shares the first). Within a tie
without a lot, entrants stand in start-list order.

The series (`series`): the sum of each player's night totals over a season; a night missed
adds nothing (so where the lowest total wins, a missed night counts as a night of 0); equal
totals share a place.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from scorekeeper.engine import errors
from scorekeeper.engine.errors import N_, RuleError

from .draw import shuffled

E = TypeVar("E", bound=Hashable)

MESSAGES: dict[str, str] = {
    "tournament.no_tie": N_("{entrant} shares place {place} with nobody: there is no lot to "
                            "draw"),
    "tournament.bad_lot": N_("the lot for place {place} must put {entrants:and} in an order, "
                             "each once"),
}

errors.register_messages(MESSAGES)


@dataclass(frozen=True)
class TableResult(Generic[E]):
    """One table's Durchgang: each of its players' total, whether it was voided, and whether
    it has played a game yet (a table that has not has no result yet: its players count as
    missing the Durchgang, not as 0, which where the fewest points win would put them first)."""

    totals: Mapping[E, int]
    voided: bool = False
    started: bool = True


@dataclass(frozen=True)
class Standing(Generic[E]):
    """An entrant's line in the evening's ranking."""

    place: int  # shared by equal totals: 1, 2, 2, 4
    entrant: E
    total: int
    durchgaenge: tuple[int, ...]  # each Durchgang's total as it counts (a stand-in's included)
    voided: tuple[int, ...] = ()  # the Durchgänge (1 = the first) voided at this entrant's table
    lot: int | None = None  # the position a recorded lot drew among the tied: 1 = first
    last: bool = False  # the last place
    missed: tuple[int, ...] = ()  # the Durchgänge without a result: not seated, or not yet

    @property
    def stood_in(self) -> tuple[int, ...]:
        """The Durchgänge counted as their worst result (voided or missed), 1 = the first."""
        return tuple(sorted(self.voided + self.missed))

    @property
    def prize_place(self) -> int:
        """The place for a prize: the shared place, moved on by a recorded lot."""
        return self.place + (self.lot - 1 if self.lot else 0)


@dataclass(frozen=True)
class SeriesStanding(Generic[E]):
    """A player's line in the season's series ranking."""

    place: int  # shared by equal totals
    entrant: E
    total: int
    nights: tuple[int | None, ...]  # each night's total; None: missed

    @property
    def played(self) -> int:
        return sum(night is not None for night in self.nights)


def draw_lot(tied: Sequence[E], seed: int | str) -> tuple[E, ...]:
    """The order of a tie drawn by lot from `seed` (record the seed or the order: the same seed
    gives the same order for the tie listed in the same order)."""
    return tuple(shuffled(tied, random.Random(seed)))


def evening(entrants: Sequence[E], durchgaenge: Sequence[Sequence[TableResult[E]]], *,
            lowest_wins: bool = False, lots: Sequence[Sequence[E]] = (),
            missing: str = "worst") -> tuple[Standing[E], ...]:
    """The night's ranking of the start list `entrants` (late entrants included, withdrawn
    ones too if they played), from each Durchgang's tables; `lots` holds the recorded order of
    each tie a lot was drawn for. `missing`: what a Durchgang without a result counts, its
    "worst" result, or "zero" (the rule before it, kept by the tournaments set up then)."""
    number = {entrant: i for i, entrant in enumerate(entrants)}
    played: list[list[int | None]] = [[None] * len(durchgaenge) for _ in entrants]
    voided: list[list[int]] = [[] for _ in entrants]
    for d, tables in enumerate(durchgaenge):
        begun = any(t.started and not t.voided for t in tables)  # before: everybody at 0
        for table in tables:
            for entrant, total in table.totals.items():
                if entrant not in number:
                    raise ValueError(f"{entrant!r} plays in Durchgang {d + 1} but is not entered")
                i = number[entrant]
                if played[i][d] is not None or d + 1 in voided[i]:
                    raise ValueError(f"{entrant!r} plays twice in Durchgang {d + 1}")
                if table.voided:
                    voided[i].append(d + 1)
                elif table.started or not begun:
                    played[i][d] = total
    worst_of = [worst_result(tables, lowest_wins) if missing == "worst" else 0
                for tables in durchgaenge]
    counted = [[worst_of[d] if t is None else t for d, t in enumerate(line)] for line in played]
    totals = [sum(line) for line in counted]
    places = _places(totals, lowest_wins)
    drawn = _lots(lots, entrants, number, places)
    order = sorted(range(len(entrants)), key=lambda i: (places[i], drawn.get(i, 0), i))
    worst = max(places, default=1)
    return tuple(Standing(places[i], entrants[i], totals[i], tuple(counted[i]), tuple(voided[i]),
                          drawn.get(i), worst > 1 and places[i] == worst,
                          tuple(d + 1 for d, t in enumerate(played[i])
                                if t is None and d + 1 not in voided[i]))
                 for i in order)


def worst_result(tables: Sequence[TableResult[E]], lowest_wins: bool = False) -> int:
    """A Durchgang's worst result at its tables not voided that have played (all of them while
    none has; 0 while there is none): what a voided or missed Durchgang counts."""
    begun = any(t.started and not t.voided for t in tables)
    results = [total for table in tables if not table.voided and (table.started or not begun)
               for total in table.totals.values()]
    return (max if lowest_wins else min)(results, default=0)


def lots_needed(standings: Sequence[Standing[E]], prizes: int) -> list[tuple[E, ...]]:
    """The ties that decide a prize (a shared place among the first `prizes`) and have no
    recorded lot yet: each in ranking order, to be drawn with `draw_lot`."""
    ties: dict[int, list[E]] = {}
    for standing in standings:
        if standing.place <= prizes and standing.lot is None:
            ties.setdefault(standing.place, []).append(standing.entrant)
    return [tuple(tied) for tied in ties.values() if len(tied) > 1]


def series(nights: Sequence[Mapping[E, int]], *,
           lowest_wins: bool = False) -> tuple[SeriesStanding[E], ...]:
    """The season's ranking from each night's totals (in date order; each night a mapping of
    player to total); within a tie, players stand in the order they first played."""
    players: dict[E, list[int | None]] = {}
    for n, night in enumerate(nights):
        for player, total in night.items():
            players.setdefault(player, [None] * len(nights))[n] = total
    names = list(players)
    totals = [sum(t or 0 for t in players[name]) for name in names]
    places = _places(totals, lowest_wins)
    order = sorted(range(len(names)), key=lambda i: (places[i], i))
    return tuple(SeriesStanding(places[i], names[i], totals[i], tuple(players[names[i]]))
                 for i in order)


def _places(totals: Sequence[int], lowest_wins: bool) -> list[int]:
    """Each total's place: one more than the number of better totals (1, 2, 2, 4)."""
    ranked = sorted(totals, reverse=not lowest_wins)
    first: dict[int, int] = {}
    for position, total in enumerate(ranked, 1):
        first.setdefault(total, position)
    return [first[total] for total in totals]


def _lots(lots: Sequence[Sequence[E]], entrants: Sequence[E], number: Mapping[E, int],
          places: Sequence[int]) -> dict[int, int]:
    """Each recorded lot checked against the tie it orders: entrant number -> drawn position."""
    drawn: dict[int, int] = {}
    for lot in lots:
        if not lot:
            raise ValueError("a lot orders the entrants of a tie, not nobody")
        if lot[0] not in number:
            raise RuleError("tournament.not_entered", entrant=lot[0])
        place = places[number[lot[0]]]
        tied = [i for i, p in enumerate(places) if p == place]
        if len(tied) == 1:
            raise RuleError("tournament.no_tie", entrant=lot[0], place=place)
        if sorted(number.get(e, -1) for e in lot) != tied or any(i in drawn for i in tied):
            raise RuleError("tournament.bad_lot", place=place,
                            entrants=[entrants[i] for i in tied])
        drawn.update({number[e]: position for position, e in enumerate(lot, 1)})
    return drawn
