"""Standings over evenings and seasons, from the per-game figures in `Result`.

Each game's adapter says what its figures are (`figures`). A game that is no longer running
(finished or closed) has its rows in `Result`, written by `store` when it ends or changes; a
running game's rows are worked out from its state when the standings are read (`running`), so
entering a hand writes none. The standings page adds rows up.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from sqlalchemy import delete, insert, select

from . import games, ledger
from .db import db
from .models import Evening, Game, Result

STORED = ("finished", "closed")  # the games whose rows are kept in Result


def rows(game: Game, season: int) -> list[dict[str, Any]]:
    """The game's rows for the standings (one per player) from its current state."""
    if game.status == "deleted":
        return []
    adapter = games.get(game.kind)
    money, _house = adapter.money(game)
    return [{"game_id": game.id, "group_id": game.group_id, "evening_id": game.evening_id,
             "season": season, "kind": game.kind, "player": player["name"],
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


def table(group_id: int, season: int | None = None) -> dict[str, Any]:
    """The standings: ``money`` (everybody's money over all games, most first) and ``games``,
    each game's section (see `Adapter.standings`) by its name, for the games played."""
    query = (select(Result.kind, Result.player, Result.figures, Result.money_cents)
             .where(Result.group_id == group_id))
    if season is not None:
        query = query.where(Result.season == season)
    sums: dict[str, dict[str, dict[str, Any]]] = {}
    money: dict[str, int] = {}
    live = [(r.kind, r.player, r.figures, r.money_cents) for r, _ in running(group_id, season)]
    for kind, player, figures, cents in [*db.session.execute(query), *live]:
        adapter = games.GAMES.get(kind)
        if adapter is None:
            continue
        summed = [name for name in adapter.FIGURES if name not in adapter.WHERE]
        row = sums.setdefault(kind, {}).setdefault(player, {
            "player": player, "played": 0, "money_cents": 0, **dict.fromkeys(summed, 0)})
        row["played"] += 1
        row["money_cents"] += cents
        for name in summed:
            value = (figures or {}).get(name, 0)
            row[name] = max(row[name], value) if name in adapter.BEST else row[name] + value
        money[player] = money.get(player, 0) + cents
    return {"money": sorted(({"player": p, "money_cents": c} for p, c in money.items()),
                            key=lambda r: (-r["money_cents"], r["player"])),
            "games": {kind: adapter.standings(list(sums[kind].values()))
                      for kind, adapter in games.GAMES.items() if kind in sums}}
