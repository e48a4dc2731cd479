"""Skill ratings: one per player and game across the group's history, with OpenSkill's
Plackett-Luce model (docs/ratings.md says what the number means).

Every ended game (its `Result` rows: nothing is replayed) is one match in which each player is a
team of their own, ranked by the game's result as its adapter reads it (`ranking_key`; equal
keys are a tie, given to OpenSkill as equal ranks). The games are rated in the order they were
played: evening by evening, game by game. A running game counts once it has ended.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from openskill.models import PlackettLuce
from sqlalchemy import select

from scorekeeper import games
from scorekeeper.db import db
from scorekeeper.models import Evening, Group, Result
from scorekeeper.table import versions

MODEL = PlackettLuce()  # OpenSkill's defaults: mu 25, sigma 25/3
PROVISIONAL = 10  # fewer games than this: the rating is shown as provisional
BASE, SCALE = 1000, 40  # the shown number: BASE + SCALE * (mu - 3 sigma)


def shown(mu: float, sigma: float) -> int:
    """The conservative number shown: the estimate less three times its uncertainty, so that
    a player is rated this high or higher with great likelihood; 1000 for a new player."""
    return round(BASE + SCALE * (mu - 3 * sigma))


def ranks(keys: Mapping[str, tuple[int, ...]]) -> dict[str, int]:
    """Ranks from the players' result keys (larger finishes ahead): 1 for first, players with
    equal keys share a rank and the next rank skips as many (1, 2, 2, 4)."""
    ordered = sorted(keys.values(), reverse=True)
    return {player: ordered.index(key) + 1 for player, key in keys.items()}


@dataclass
class EveningChange:
    """A player's rating after one evening of a game and what the evening changed."""

    evening_id: int
    day: dt.date
    number: int
    change: int


@dataclass
class Rating:
    """One player's rating in one game: OpenSkill's `mu` and `sigma`, the games rated, the
    number shown and its uncertainty on the same scale (`plus_minus`: SCALE * sigma), and the
    evenings it changed on (`evenings`, oldest first)."""

    PROVISIONAL: ClassVar[int] = PROVISIONAL
    player: str
    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    games: int = 0
    evenings: list[EveningChange] = field(default_factory=list)

    @property
    def number(self) -> int:
        return shown(self.mu, self.sigma)

    @property
    def plus_minus(self) -> int:
        return round(SCALE * self.sigma)

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL

    @property
    def change(self) -> int:
        """What the player's latest evening changed."""
        return self.evenings[-1].change if self.evenings else 0

    @property
    def evenings_change(self) -> int:
        """What the evenings listed changed together (a season's)."""
        return sum(e.change for e in self.evenings)


def _results(group_id: int, until: dt.date | None) -> list[Any]:
    query = (select(Result.game_id, Result.kind, Result.name, Result.player, Result.figures,
                    Result.money_cents, Evening.id, Evening.date)
             .join(Evening, Result.evening_id == Evening.id).where(Result.group_id == group_id)
             .order_by(Evening.date, Evening.id, Result.game_id, Result.id))
    if until is not None:
        query = query.where(Evening.date <= until)
    return list(db.session.execute(query))


def matches(group_id: int, until: dt.date | None = None
            ) -> list[tuple[str, int, int, dt.date, dict[str, int]]]:
    """The group's ended games in the order they were played, up to the day `until`, each as
    (its section: the game's kind, a free list's with its name; game id, evening id, day,
    {player: rank}); games of a kind no longer known, and games of fewer than two players, are
    left out."""
    found: dict[int, tuple[str, int, dt.date, dict[str, tuple[int, ...]]]] = {}
    for game_id, kind, name, player, figures, cents, evening_id, day in _results(group_id,
                                                                               until):
        adapter = games.GAMES.get(kind)
        if adapter is None:
            continue
        found.setdefault(game_id, (games.section(kind, name), evening_id, day, {}))[3][player] = \
            adapter.ranking_key(figures or {}, cents)
    return [(section, game_id, evening_id, day, ranks(keys))
            for game_id, (section, evening_id, day, keys) in found.items() if len(keys) >= 2]


_RATED: dict[tuple[int, str, dt.date | None, str], dict[str, dict[str, Rating]]] = {}
CACHED = 16  # groups and years whose ratings this process keeps


def rated(group: Group, until: dt.date | None = None) -> dict[str, dict[str, Rating]]:
    """`rate`, kept while the group's games stay as they are (its live version): the standings
    and season pages are read far more often than a game ends. Read it, do not change it."""
    # the token tells apart groups of the same id in different databases (the tests)
    key = (group.id, group.token, until, versions.group_version(group))
    if key not in _RATED:
        while len(_RATED) >= CACHED:  # the oldest goes (pop: another thread may be first)
            _RATED.pop(next(iter(_RATED), key), None)
        _RATED[key] = rate(group.id, until)
    return _RATED[key]


def rate(group_id: int, until: dt.date | None = None) -> dict[str, dict[str, Rating]]:
    """Every player's rating in every game (its section, a free list's per name -> player ->
    Rating), rating the ended games one after the other up to the day `until` (None: all)."""
    table: dict[str, dict[str, Rating]] = {}
    before: dict[tuple[str, str, int], int] = {}  # the number before the player's evening
    for section, _game_id, evening_id, day, placed in matches(group_id, until):
        ratings = table.setdefault(section, {})
        players = list(placed)
        for name in players:
            rating = ratings.setdefault(name, Rating(name))
            if (section, name, evening_id) not in before:
                before[section, name, evening_id] = rating.number
        teams = [[MODEL.rating(mu=ratings[n].mu, sigma=ratings[n].sigma)] for n in players]
        new = MODEL.rate(teams, ranks=[placed[n] for n in players])
        for name, (team,) in zip(players, new, strict=True):
            rating = ratings[name]
            rating.mu, rating.sigma, rating.games = team.mu, team.sigma, rating.games + 1
            change = rating.number - before[(section, name, evening_id)]
            if rating.evenings and rating.evenings[-1].evening_id == evening_id:
                rating.evenings[-1] = EveningChange(evening_id, day, rating.number, change)
            else:
                rating.evenings.append(EveningChange(evening_id, day, rating.number, change))
    return table


def season(group: Group, year: int | None = None) -> dict[str, list[Rating]]:
    """The ratings shown for `year` (None: now), by game, best first: each player who played
    the game that year, rated over the whole history up to its end, with only that year's
    evenings in `evenings`. Empty when the group switched ratings off. The season page shows
    it (include ``ratings/_table.html`` with ``ratings``)."""
    if not group.ratings:
        return {}
    until = dt.date(year, 12, 31) if year is not None else None
    shown_: dict[str, list[Rating]] = {}
    for kind, ratings in rated(group, until).items():
        rows = []
        for rating in ratings.values():
            if year is not None:
                rating = replace(rating, evenings=[e for e in rating.evenings
                                                   if e.day.year == year])
                if not rating.evenings:
                    continue
            rows.append(rating)
        if rows:
            shown_[kind] = sorted(rows, key=lambda r: (-r.number, r.player))
    return {key: shown_[key] for key in games.sections_in_order(shown_)}


def as_json(shown_: Mapping[str, list[Rating]]) -> dict[str, list[dict[str, Any]]]:
    """`season`'s ratings as plain JSON values (the chronicle's ``ratings``), best first; a
    rating's ``change`` is what that season's evenings changed together."""
    return {kind: [{"player": r.player, "rating": r.number, "plus_minus": r.plus_minus,
                    "games": r.games, "provisional": r.provisional,
                    "change": r.evenings_change} for r in rows]
            for kind, rows in shown_.items()}


def player(group: Group, name: str) -> dict[str, Rating]:
    """The player's rating now in each game they played (none when the group switched ratings
    off), with every evening it changed on: the player's page."""
    if not group.ratings:
        return {}
    return {kind: ratings[name] for kind, ratings in rated(group).items() if name in ratings}
