"""Standings over evenings and seasons, from the per-game figures in `Result`.

Each game's adapter says what its figures are (`figures`). A game that is no longer running
(finished or closed) has its rows in `Result`, written by `store` when it ends or changes; a
running game's rows are worked out from its state when the standings are read (`running`), so
entering a hand writes none. The standings page adds rows up: the games' figures (games, hands,
lines ...) of the ended games only, and the money as each evening's settlement pays it
(`evening_money`), in which a running game counts as it stands, as on the evening's page
(docs/standings.md).
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from sqlalchemy import delete, func, insert, select

from scorekeeper import games
from scorekeeper.db import db
from scorekeeper.evenings import accounts, ledger, signoff
from scorekeeper.group.names import KASSE
from scorekeeper.models import Evening, Game, Group, Result

STORED = ("finished", "closed")  # the games whose rows are kept in Result


def rows(game: Game, season: int) -> list[dict[str, Any]]:
    """The game's rows for the standings (one per player) from its current state."""
    if game.status == "deleted":
        return []
    adapter = games.get(game.kind)
    money, _house = adapter.money(game)
    name = adapter.own_name(game.rules or {})
    return [{"game_id": game.id, "group_id": game.group_id, "evening_id": game.evening_id,
             "season": season, "kind": game.kind, "name": name, "player": player["name"],
             "figures": adapter.figures(game, player),
             "money_cents": money.get(player["name"], 0)}
            for player in game.state["players"]]


def store(game: Game, before: str | None = None, book: bool = True) -> None:
    """Rewrite the game's rows in `Result` after a change (none for a running or deleted game),
    and its evening's lines of the Kasse's book. `before`: the game's status before the change;
    a game that was running and still is has no rows to write (a hand). Without `book` the
    Kasse's lines are left to the caller (derived.rebuild_all: once every game is rebuilt)."""
    if before == "running" and game.status == "running":
        return
    db.session.execute(delete(Result).where(Result.game_id == game.id))
    if game.status in STORED:
        day = db.session.scalar(select(Evening.date).where(Evening.id == game.evening_id))
        assert day is not None, "a game belongs to an evening"
        db.session.execute(insert(Result), rows(game, day.year))
    if book:
        ledger.store_evening(game.evening_id)  # the evening's lines of the Kasse's book
        signoff.changed(game.evening_id)  # its players, if being asked, are asked anew


def running(group_id: int, season: int | None = None,
            player: str | None = None) -> list[tuple[Any, Evening]]:
    """The rows of the group's running games (or of the season's, or the player's), worked
    out from their state, each with its evening: read as `Result` rows are (not stored)."""
    found = []
    for game, evening in db.session.execute(
            select(Game, Evening).join(Evening, Game.evening_id == Evening.id)
            .where(Game.group_id == group_id, Game.status == "running")):
        if season is None or evening.date.year == season:
            found += [(SimpleNamespace(**row), evening) for row in rows(game, evening.date.year)
                      if player is None or row["player"] == player]
    return found


def history(group_id: int, player: str) -> list[tuple[Any, Evening]]:
    """The player's rows with their evenings, oldest first (no stored game state is read but
    that of the running games)."""
    stored = db.session.execute(
        select(Result, Evening).join(Evening, Result.evening_id == Evening.id)
        .where(Result.group_id == group_id, Result.player == player)).all()
    return sorted([*stored, *running(group_id, player=player)],
                  key=lambda pair: (pair[1].date, pair[0].game_id))


def seasons(group_id: int) -> list[int]:
    stored = db.session.scalars(select(Result.season).where(Result.group_id == group_id)
                                .distinct())
    days = db.session.scalars(select(Evening.date).join(Game, Game.evening_id == Evening.id)
                              .where(Game.group_id == group_id, Game.status == "running"))
    return sorted({*stored, *(day.year for day in days)}, reverse=True)


def evening_money(group_id: int, season: int | None = None, player: str | None = None,
                  live: list[Any] | None = None) -> dict[int, dict[str, int]]:
    """Each evening's money (of the season; of one player) as its settlement pays it, by the
    evening's id: each player's money from its games added up and rounded as the evening's
    payments are (accounts.settled, the settlement's own rounding), and, for all players, the
    Kasse's share (KASSE): what the games put into it or took out of it, and the rounding, so
    that an evening adds up to zero. Read from the stored rows, added up by the database, and
    the running games' rows (`live`: those of the season and player, when the caller has read
    them; else `running`): no game's state but a running one's is read. Fines are no game's
    money: they are in the Kasse's book."""
    query = (select(Result.evening_id, Result.player, func.sum(Result.money_cents))
             .where(Result.group_id == group_id, Result.kind.in_(list(games.GAMES)))
             .group_by(Result.evening_id, Result.player))
    if season is not None:
        query = query.where(Result.season == season)
    if player is not None:
        query = query.where(Result.player == player)
    sums: dict[int, dict[str, int]] = {}
    for evening_id, name, cents in db.session.execute(query):
        sums.setdefault(evening_id, {})[name] = int(cents)  # PostgreSQL sums BIGINT as NUMERIC
    if live is None:
        live = [row for row, _evening in running(group_id, season, player)]
    return _settled(group_id, sums, live, everybody=player is None)


def _settled(group_id: int, sums: dict[int, dict[str, int]], live: list[Any],
             everybody: bool = True) -> dict[int, dict[str, int]]:
    """`evening_money` from the stored rows' money added up per evening and player (`sums`,
    changed in place) and the running games' rows (`live`); the Kasse's share if `sums` has
    `everybody` of each evening."""
    for row in live:
        if row.kind in games.GAMES:
            night = sums.setdefault(row.evening_id, {})
            night[row.player] = night.get(row.player, 0) + row.money_cents
    # the group's rounding, and the evenings that keep their own (being signed off, see
    # accounts.rounding_of): few, so read in one query with the group's
    units = db.session.execute(
        select(Group.rounding_cents, Evening.id, Evening.rounding_cents)
        .outerjoin(Evening, (Evening.group_id == Group.id) & Evening.rounding_cents.is_not(None))
        .where(Group.id == group_id)).all()
    rounding = units[0][0] if units else 0
    kept = {evening_id: unit for _group, evening_id, unit in units if unit is not None}
    money: dict[int, dict[str, int]] = {}
    for evening_id, night in sums.items():
        if everybody:  # a game's money and what it put into the Kasse add up to zero
            night[KASSE] = -sum(night.values())
        money[evening_id] = accounts.settled(night, kept.get(evening_id, rounding))
        if not everybody:
            money[evening_id].pop(KASSE, None)
    return money


def table(group_id: int, season: int | None = None) -> dict[str, Any]:
    """The standings: ``money`` (everybody's money over the evenings as settled, most first:
    `evening_money`), ``kasse_cents`` (the Kasse's share of it: with the players' it adds up to
    zero), ``running`` (the games still running: their money counts as it stands, nothing else
    of them yet) and ``games``, each game's section (see `Adapter.standings`) by its key
    (`games.section`: a free list's each name on its own), from the ended games."""
    query = (select(Result.evening_id, Result.kind, Result.name, Result.player, Result.figures,
                    Result.money_cents).where(Result.group_id == group_id))
    if season is not None:
        query = query.where(Result.season == season)
    sums: dict[str, dict[str, dict[str, Any]]] = {}
    adapters: dict[str, games.Adapter] = {}  # each section's game
    nights: dict[int, dict[str, int]] = {}  # the money per evening and player, for _settled
    for evening_id, kind, name, player, figures, cents in db.session.execute(query):
        adapter = games.GAMES.get(kind)
        if adapter is None:
            continue
        night = nights.setdefault(evening_id, {})
        night[player] = night.get(player, 0) + cents
        summed = [figure for figure in adapter.FIGURES if figure not in adapter.WHERE]
        key = games.section(kind, name)
        adapters[key] = adapter
        row = sums.setdefault(key, {}).setdefault(player, {
            "player": player, "played": 0, "money_cents": 0, **dict.fromkeys(summed, 0)})
        row["played"] += 1
        row["money_cents"] += cents
        for figure in summed:
            value = (figures or {}).get(figure, 0)
            row[figure] = max(row[figure], value) if figure in adapter.BEST else row[figure] + value
    live = [row for row, _evening in running(group_id, season)]
    money: dict[str, int] = {}
    for night in _settled(group_id, nights, live).values():
        for player, cents in night.items():
            money[player] = money.get(player, 0) + cents
    kasse = money.pop(KASSE, 0)
    return {"money": sorted(({"player": p, "money_cents": c} for p, c in money.items()),
                            key=lambda r: (-r["money_cents"], r["player"])),
            "kasse_cents": kasse, "running": len({row.game_id for row in live}),
            "games": {key: adapters[key].standings(list(sums[key].values()))
                      for key in games.sections_in_order(sums)}}
