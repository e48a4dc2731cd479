"""A tournament night as stored: the games it can be played in, its start list, its drawn
tables, the lots drawn, what each entrant scored in each Durchgang (from the tables' games
as they stand), and the organiser's history. Reads only; `changes.tournaments` changes it,
`tournament.ranking` ranks it."""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Sequence
from typing import Any

from sqlalchemy import bindparam, func, select

from scorekeeper import games
from scorekeeper.db import db
from scorekeeper.engine import RuleError
from scorekeeper.models import (
    Entrant,
    Evening,
    Game,
    Lot,
    Tournament,
    TournamentEvent,
    TournamentTable,
)
from scorekeeper.tournament import ranking


def by_link(token: str) -> Tournament | None:
    """The tournament whose spectators' link this is."""
    if not 20 <= len(token) <= 64:
        return None
    return db.session.scalar(select(Tournament).where(Tournament.view_token == token))


def playable() -> dict[str, Any]:
    """The games a tournament can be played in (their adapters say so), by name."""
    return {name: adapter for name, adapter in games.GAMES.items()
            if adapter.TOURNAMENT_GAMES is not None}


def table_sizes(kind: str, rules: dict[str, Any]) -> tuple[int, ...]:
    """The table sizes a tournament of this game seats: four, and three or five where the
    numbers need it and the game, played by these rules, allows it (its engine says so)."""
    table = games.GAMES[kind].engine.Table
    allowed = []
    for size in (3, 4, 5):
        try:
            table([f"{seat}" for seat in range(1, size + 1)], None, rules)
        except RuleError:
            continue
        allowed.append(size)
    return tuple(allowed)


def entrants(tournament: Tournament) -> list[Entrant]:
    return list(db.session.scalars(select(Entrant).where(Entrant.tournament_id == tournament.id)
                                   .order_by(Entrant.number)))


def drawn_rounds(tournament: Tournament) -> int:
    """How many Durchgänge are drawn."""
    return db.session.scalar(select(func.max(TournamentTable.round)).where(
        TournamentTable.tournament_id == tournament.id)) or 0


def tables(tournament: Tournament, round_: int | None = None) -> list[TournamentTable]:
    query = select(TournamentTable).where(TournamentTable.tournament_id == tournament.id)
    if round_ is not None:
        query = query.where(TournamentTable.round == round_)
    return list(db.session.scalars(query.order_by(TournamentTable.round,
                                                  TournamentTable.number)))


def table_of(game_id: int) -> TournamentTable | None:
    """The tournament table whose game this is, if it is one."""
    return db.session.scalar(select(TournamentTable).where(TournamentTable.game_id == game_id))


def voided(game_id: int) -> TournamentTable | None:
    """The tournament table whose game this is, if its Durchgang was voided."""
    table = table_of(game_id)
    return table if table is not None and table.voided is not None else None


def history(tournament: Tournament) -> list[TournamentEvent]:
    """What the organiser did, the latest first."""
    return list(db.session.scalars(select(TournamentEvent).where(
        TournamentEvent.tournament_id == tournament.id).order_by(TournamentEvent.id.desc())))


def number_of(table: TournamentTable, entrant_id: int) -> int:
    entrant = db.session.get(Entrant, entrant_id)
    assert entrant is not None and entrant.tournament_id == table.tournament_id
    return entrant.number


def lowest_wins(tournament: Tournament) -> bool:
    return bool(games.GAMES[tournament.kind].lowest_wins(tournament.rules))


def lots(tournament: Tournament) -> list[list[int]]:
    """The lots drawn: each the tied entrants' ids in the order drawn (a tie's latest lot
    counts)."""
    found = db.session.scalars(select(Lot).where(Lot.tournament_id == tournament.id)
                               .order_by(Lot.id))
    return list({lot.place: list(lot.drawn) for lot in found}.values())


def durchgaenge(tournament: Tournament, listed: Sequence[Entrant] | None = None
                ) -> list[list[ranking.TableResult[int]]]:
    """What each table played in each Durchgang drawn: its players' points (entrant ids), from
    the tables' games as they stand, and whether it was voided (`listed`: its entrants, when
    the caller has them)."""
    adapter = games.GAMES[tournament.kind]
    names = {e.id: e.name for e in (entrants(tournament) if listed is None else listed)}
    out: list[list[ranking.TableResult[int]]] = [[] for _ in range(drawn_rounds(tournament))]
    # the tables with their games' players in one query (not a query for each table's game,
    # nor the rest of each game's state: what a TV's ranking page costs)
    for round_, seats, voided, players, count in db.session.execute(
            select(TournamentTable.round, TournamentTable.seats, TournamentTable.voided,
                   Game.state["players"], Game.entry_count)
            .outerjoin(Game, Game.id == TournamentTable.game_id)
            .where(TournamentTable.tournament_id == tournament.id)
            .order_by(TournamentTable.round, TournamentTable.number)):
        by_name = {p["name"]: p for p in players or []}
        totals = {seat: adapter.tournament_score(by_name[names[seat]])
                  if names[seat] in by_name else 0 for seat in seats}
        out[round_ - 1].append(ranking.TableResult(totals, bool(voided), bool(count)))
    return out


def ranked(tournament: Tournament, listed: Sequence[Entrant] | None = None
           ) -> tuple[ranking.Standing[int], ...]:
    """The tournament's ranking as it stands, with the lots drawn for its ties: a lot drawn for
    a tie that a correction (or a voided table) has changed since no longer counts (`listed`:
    its entrants, when the caller has them). An entrant who withdrew before playing is not in
    it."""
    found = entrants(tournament) if listed is None else listed
    results = durchgaenge(tournament, found)
    # who withdrew before being seated at any table is not ranked (nor pays: changes.close);
    # under the rule before (a missing result counts 0) everybody entered was
    seated = {entrant for tables in results for table in tables for entrant in table.totals}
    ids = [e.id for e in found if e.withdrawn_after is None or e.id in seated
           or tournament.missing == "zero"]
    lowest, missing = lowest_wins(tournament), tournament.missing
    plain = ranking.evening(ids, results, lowest_wins=lowest, missing=missing)
    tied: dict[int, set[int]] = {}
    for row in plain:
        tied.setdefault(row.place, set()).add(row.entrant)
    fitting = [lot for lot in lots(tournament) if len(lot) > 1 and set(lot) in tied.values()]
    return ranking.evening(ids, results, lowest_wins=lowest, lots=fitting,
                           missing=missing) if fitting else plain


def played(tournament: Tournament, round_: int | None = None) -> bool:
    """Whether any of its tables (of Durchgang `round_`) has entered a game."""
    query = select(TournamentTable.id).join(Game, Game.id == TournamentTable.game_id).where(
        TournamentTable.tournament_id == tournament.id, Game.entry_count > 0)
    if round_ is not None:
        query = query.where(TournamentTable.round == round_)
    return db.session.scalar(query.limit(1)) is not None


def ties(tournament: Tournament, standings: Sequence[ranking.Standing[int]]
         ) -> list[tuple[int, ...]]:
    """The ties a lot is wanted for: a shared place that decides a prize (or the first, where
    there are no prizes), without a lot yet."""
    return ranking.lots_needed(standings, max(1, len(tournament.prizes)))


def version(tournament: Tournament) -> str:
    """Changes whenever one of its tables enters or corrects a game, a Durchgang is drawn, a
    table voided, a lot drawn or somebody entered or withdrawn: what a ranking page compares."""
    return "-".join(map(str, db.session.execute(
        _versions("id"), {"key": tournament.id}).one()[1:]))


def version_by_link(token: str) -> tuple[int, str] | None:
    """The id and version of the tournament whose spectators' link this is, in one statement
    (what the TVs and phones of a hall ask after every change)."""
    if not 20 <= len(token) <= 64:
        return None
    found = db.session.execute(_versions("view_token"), {"key": token}).first()
    return (found[0], "-".join(map(str, found[1:]))) if found else None


@functools.cache
def _versions(column: str) -> Any:
    """The id of the tournament whose `column` is the parameter "key" and what its version is
    made of: its tables, their games' versions added up, the tables voided, the lots drawn, the
    entrants and the withdrawn. Built once (building its six subqueries anew was most of what a
    TV's question cost)."""
    def of(counted: Any, row: Any, *joined: Any) -> Any:
        query = select(counted).select_from(row)
        for table, on in joined:
            query = query.join(table, on)
        return query.where(row.tournament_id == Tournament.id).scalar_subquery()

    games = (Game, Game.id == TournamentTable.game_id)
    return select(Tournament.id,
                  of(func.count(TournamentTable.id), TournamentTable),
                  of(func.coalesce(func.sum(Game.version), 0), TournamentTable, games),
                  of(func.count(TournamentTable.voided), TournamentTable),
                  of(func.count(Lot.id), Lot),
                  of(func.count(Entrant.id), Entrant),
                  of(func.count(Entrant.withdrawn_after), Entrant)
                  ).where(getattr(Tournament, column) == bindparam("key"))


def series(group_id: int, year: int) -> dict[str, list[dict[str, Any]]]:
    """The season's series of each game the group held tournaments in: each player's totals of
    the year's nights played added up (a night missed adds nothing; equal totals share a
    place), as plain JSON values: per game, lines of place, player, total and each night's
    total."""
    found = db.session.scalars(
        select(Tournament).join(Evening, Evening.id == Tournament.evening_id)
        .where(Tournament.group_id == group_id,
               Evening.date.between(dt.date(year, 1, 1), dt.date(year, 12, 31)))
        .order_by(Evening.date, Tournament.id)).all()
    found = [t for t in found if played(t)]  # a night set up and never played is none
    out: dict[str, list[dict[str, Any]]] = {}
    for kind in dict.fromkeys(t.kind for t in found):
        nights = []
        for tournament in (t for t in found if t.kind == kind):
            listed = entrants(tournament)
            names = {e.id: e.name for e in listed}
            nights.append({names[row.entrant]: row.total for row in ranked(tournament, listed)})
        lowest = lowest_wins(next(t for t in found if t.kind == kind))
        out[kind] = [{"place": line.place, "player": line.entrant, "total": line.total,
                      "nights": list(line.nights)}
                     for line in ranking.series(nights, lowest_wins=lowest)]
    return out
