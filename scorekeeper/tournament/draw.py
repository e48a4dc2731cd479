"""The draw: who sits at which table in a Durchgang, by lot, and a draw made on paper checked.

Table sizes (`table_sizes`): tables of four; where the count is not a multiple of four, tables
of the other sizes the game allows (three or five), as few of them as possible, then as few
tables as possible (ten players at (3, 4, 5) sit at two tables of five, not 4 + 3 + 3).

The draw (`draw`) is reproducible from its seed, forever: a stored seed (a whole number or a
text, which Random hashes with SHA-512, not with hash()), the same start list and the same
earlier draws give the same tables. It uses only ``random.Random(seed).random()``, whose
sequence Python keeps across versions (shuffle and randrange may change), never the iteration
order of a set or of a string-keyed dict (that depends on PYTHONHASHSEED):

1. the entrants still in (the start list without the withdrawn, in its order) are numbered
   0..n-1; ``met[a][b]`` counts how often a and b sat at one table in the earlier draws;
2. up to `RESTARTS` times: shuffle 0..n-1 (Fisher-Yates, ``j = int(random() * (i + 1))``), cut
   the order into tables of the sizes in turn, then improve: for each player a (in number
   order) who meets someone again at the table, take the first player b (in number order) at
   another table whose swap with a lowers the repeats and swap them; pass over the players
   again until no swap helps. A draw's repeats: for each two players at one table, how often
   they met before;
3. keep the first draw with the fewest repeats; stop at the first with none, or when `BUDGET`
   swaps have been looked at in all (a count, not a clock: the result stays the same). Only a
   field that has met nearly everyone (200 players after some 40 Durchgänge) gets near it.

A late entrant is simply on the start list of the next draw (with no earlier pairings); a
withdrawn entrant is named in ``withdrawn`` and is not drawn again.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Hashable, Sequence
from typing import TypeVar

from scorekeeper.engine import errors
from scorekeeper.engine.errors import N_, RuleError

E = TypeVar("E", bound=Hashable)
T = TypeVar("T")

USUAL = 4  # the size of a table, where the count allows
RESTARTS = 50  # shuffles tried for a draw without repeats
BUDGET = 400_000  # swaps looked at in all, so that a draw takes well under a second

MESSAGES: dict[str, str] = {
    "tournament.no_entrants": N_("nobody is entered yet"),
    "tournament.no_split": N_("{count:|player|players} cannot sit at tables of {sizes:or}: "
                              "enter or withdraw players until they can"),
    "tournament.entered_twice": N_("{entrant} is entered twice"),
    "tournament.not_entered": N_("{entrant} is not entered"),
    "tournament.withdrawn": N_("{entrant} has withdrawn and cannot be seated"),
    "tournament.seated_twice": N_("{entrant} is seated twice"),
    "tournament.not_seated": N_("no seat for {entrants:and}"),
    "tournament.table_size": N_("table {table} has {count:|player|players}, but a table seats "
                                "{sizes:or}"),
}

errors.register_messages(MESSAGES)

Draw = tuple[tuple[E, ...], ...]


def shuffled(items: Sequence[T], rng: random.Random) -> list[T]:
    """The items in an order drawn by lot (Fisher-Yates on ``rng.random()`` only)."""
    order = list(items)
    for i in range(len(order) - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        order[i], order[j] = order[j], order[i]
    return order


def table_sizes(count: int, sizes: Collection[int] = (USUAL,)) -> tuple[int, ...]:
    """The tables `count` players sit at: tables of four first, then the others, smallest
    first. Refuses when no split into the allowed sizes exists (6 players, tables of 4)."""
    allowed = sorted(set(sizes))
    if count == 0:
        raise RuleError("tournament.no_entrants")
    # best[n]: (tables not of four, tables, the sizes) for n players, or None
    best: list[tuple[int, int, tuple[int, ...]] | None] = [None] * (count + 1)
    best[0] = (0, 0, ())
    for n in range(1, count + 1):
        for size in allowed:
            before = best[n - size] if size <= n else None
            if before is not None:
                odd, tables, split = before
                found = (odd + (size != USUAL), tables + 1, split + (size,))
                current = best[n]
                if current is None or found[:2] < current[:2]:
                    best[n] = found
    result = best[count]
    if result is None:
        raise RuleError("tournament.no_split", count=count, sizes=allowed)
    return tuple(sorted(result[2], key=lambda size: (size != USUAL, size)))


def draw(entrants: Sequence[E], seed: int | str, sizes: Collection[int] = (USUAL,),
         earlier: Sequence[Sequence[Sequence[E]]] = (),
         withdrawn: Collection[E] = ()) -> Draw[E]:
    """Draw the tables of a Durchgang by lot from the start list `entrants` (start numbers or
    names), with as few repeated pairings from the `earlier` draws as found (see the module)."""
    _check_entrants(entrants)
    players = [entrant for entrant in entrants if entrant not in withdrawn]
    split = table_sizes(len(players), sizes)
    met = _meetings(players, earlier)
    rng = random.Random(seed)
    best: tuple[int, list[list[int]]] | None = None
    budget = BUDGET
    for _ in range(RESTARTS):
        order = shuffled(range(len(players)), rng)
        tables, start = [], 0
        for size in split:
            tables.append(order[start:start + size])
            start += size
        repeats, tried = _improve(tables, met, budget)
        budget -= tried
        if best is None or repeats < best[0]:
            best = (repeats, tables)
        if repeats == 0 or budget <= 0:
            break
    assert best is not None
    return tuple(tuple(players[i] for i in table) for table in best[1])


def check_draw(tables: Sequence[Sequence[E]], entrants: Sequence[E],
               sizes: Collection[int] = (USUAL,), withdrawn: Collection[E] = ()) -> Draw[E]:
    """A draw typed in from paper: everyone entered and not withdrawn seated exactly once, at
    tables of the allowed sizes. Returns it as a draw; refuses in players' words."""
    _check_entrants(entrants)
    entered = set(entrants)
    seated: set[E] = set()
    for table in tables:
        for entrant in table:
            if entrant not in entered:
                raise RuleError("tournament.not_entered", field=str(entrant), entrant=entrant)
            if entrant in withdrawn:
                raise RuleError("tournament.withdrawn", field=str(entrant), entrant=entrant)
            if entrant in seated:
                raise RuleError("tournament.seated_twice", field=str(entrant), entrant=entrant)
            seated.add(entrant)
    for number, table in enumerate(tables, 1):
        if len(table) not in sizes:
            raise RuleError("tournament.table_size", table=number, count=len(table),
                            sizes=sorted(set(sizes)))
    missing = [entrant for entrant in entrants if entrant not in seated
               and entrant not in withdrawn]
    if missing:
        raise RuleError("tournament.not_seated", entrants=missing)
    if not tables:
        raise RuleError("tournament.no_entrants")
    return tuple(tuple(table) for table in tables)


def repeated_pairs(tables: Sequence[Sequence[E]],
                   earlier: Sequence[Sequence[Sequence[E]]]) -> list[tuple[E, E, int]]:
    """The players who sit at one table again: (a, b, how often they met before), in seat
    order. The repeats of a draw are the sum of the counts."""
    players = [entrant for table in tables for entrant in table]
    met = _meetings(players, earlier)
    found = []
    start = 0
    for table in tables:
        for i in range(start, start + len(table)):
            for j in range(i + 1, start + len(table)):
                if j in met[i]:
                    found.append((players[i], players[j], met[i][j]))
        start += len(table)
    return found


def _check_entrants(entrants: Sequence[E]) -> None:
    seen: set[E] = set()
    for entrant in entrants:
        if entrant in seen:
            raise RuleError("tournament.entered_twice", field=str(entrant), entrant=entrant)
        seen.add(entrant)


def _meetings(players: Sequence[E],
              earlier: Sequence[Sequence[Sequence[E]]]) -> list[dict[int, int]]:
    """met[a][b]: how often players a and b (numbers in `players`) sat at one table before
    (missing: never); whoever is not in `players` (withdrawn) is left out."""
    number = {player: i for i, player in enumerate(players)}
    met: list[dict[int, int]] = [{} for _ in players]
    for tables in earlier:
        for table in tables:
            here = [number[entrant] for entrant in table if entrant in number]
            for a in here:
                for b in here:
                    if a != b:
                        met[a][b] = met[a].get(b, 0) + 1
    return met


def _improve(tables: list[list[int]], met: list[dict[int, int]],
             budget: int) -> tuple[int, int]:
    """Swap players between tables while a swap lowers the repeats (first improvement, in
    number order), looking at about `budget` swaps; returns the repeats left and the swaps
    looked at.
    """
    count = len(met)
    where = [0] * count
    for t, table in enumerate(tables):
        for player in table:
            where[player] = t
    # near[p][t]: how often p met the players at table t before
    near = [[0] * len(tables) for _ in met]
    for p, partners in enumerate(met):
        for q, times in partners.items():
            near[p][where[q]] += times
    tried = 0
    improved = True
    while improved and tried < budget:
        improved = False
        for a in range(count):
            ta = where[a]
            here = near[a][ta]
            if here == 0:
                continue
            tried += count
            for b in range(count):
                tb = where[b]
                if tb != ta and (here + near[b][tb] - near[a][tb] - near[b][ta]
                                 + 2 * met[a].get(b, 0)) > 0:
                    tables[ta][tables[ta].index(a)], tables[tb][tables[tb].index(b)] = b, a
                    where[a], where[b] = tb, ta
                    for q, times in met[a].items():
                        near[q][ta] -= times
                        near[q][tb] += times
                    for q, times in met[b].items():
                        near[q][tb] -= times
                        near[q][ta] += times
                    improved = True
                    break
            if tried >= budget:
                break
    return sum(near[p][where[p]] for p in range(count)) // 2, tried
