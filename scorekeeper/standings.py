"""Standings over evenings and seasons, from the per-game figures in `Result`.

Each game's adapter says what its figures are (`figures`); `store` rewrites a game's `Result`
rows whenever the game changes, so the standings page only adds rows up.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete, insert, select

from . import games
from .db import db
from .models import Evening, Game, Result


def store(game: Game) -> None:
    """Rewrite the game's rows in `Result` from its current state."""
    adapter = games.get(game.kind)
    db.session.execute(delete(Result).where(Result.game_id == game.id))
    if game.status == "deleted":
        return
    money, _house = adapter.money(game)
    day = db.session.scalar(select(Evening.date).where(Evening.id == game.evening_id))
    assert day is not None, "a game belongs to an evening"
    season = day.year
    db.session.execute(insert(Result), [
        {"game_id": game.id, "group_id": game.group_id, "evening_id": game.evening_id,
         "season": season, "kind": game.kind, "player": player["name"],
         "figures": adapter.figures(game, player), "money_cents": money.get(player["name"], 0)}
        for player in game.state["players"]])


def seasons(group_id: int) -> list[int]:
    return list(db.session.scalars(select(Result.season).where(Result.group_id == group_id)
                                   .distinct().order_by(Result.season.desc())))


def table(group_id: int, season: int | None = None) -> dict[str, Any]:
    """The standings: ``money`` (everybody's money over all games, most first) and ``games``,
    each game's section (see `Adapter.standings`) by its name, for the games played."""
    query = (select(Result.kind, Result.player, Result.figures, Result.money_cents)
             .where(Result.group_id == group_id))
    if season is not None:
        query = query.where(Result.season == season)
    sums: dict[str, dict[str, dict[str, Any]]] = {}
    money: dict[str, int] = {}
    for kind, player, figures, cents in db.session.execute(query):
        adapter = games.GAMES.get(kind)
        if adapter is None:
            continue
        row = sums.setdefault(kind, {}).setdefault(player, {
            "player": player, "played": 0, "money_cents": 0, **dict.fromkeys(adapter.FIGURES, 0)})
        row["played"] += 1
        row["money_cents"] += cents
        for name in adapter.FIGURES:
            value = (figures or {}).get(name, 0)
            row[name] = max(row[name], value) if name in adapter.BEST else row[name] + value
        money[player] = money.get(player, 0) + cents
    return {"money": sorted(({"player": p, "money_cents": c} for p, c in money.items()),
                            key=lambda r: (-r["money_cents"], r["player"])),
            "games": {kind: adapter.standings(list(sums[kind].values()))
                      for kind, adapter in games.GAMES.items() if kind in sums}}
