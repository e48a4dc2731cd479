"""Standings over evenings and seasons, from the per-game figures in `Result`.

`figures` turns a game's replay output into each player's figures; `store` rewrites a game's
`Result` rows whenever the game changes, so the standings page only adds rows up.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete, func, select

from . import engine
from .db import db
from .models import Evening, Game, Result

FIELDS = ("hands", "games", "rubbers", "wins", "lines", "points", "moons", "money_cents")


def game_money(game: Game) -> tuple[dict[str, int], int]:
    """Each player's money from a game in cents, and what the group's Kasse gains from it.

    A Vier-Anderle pot is handled by its `pot_at_end` rule as if the game closed now; a pot that
    must still be played out counts as the Kasse's until it is empty.
    """
    state = game.state
    money = {p["name"]: p["balance_cents"] for p in state["players"]}
    if game.kind != "vier-anderle":
        return money, 0
    stake = state["rules"]["stake_cents"]
    try:
        closing = engine.get("vier-anderle").close(state)
    except engine.RuleError:  # play-out with money in the pot: the table still owes it
        return money, (state["pot"] - state["starting_pot"]) * stake
    return closing["balances_cents"], (closing["kasse"] - state["starting_pot"]) * stake


def figures(game: Game) -> dict[str, dict[str, int]]:
    """Each player's figures in one game (see `Result` for what they mean)."""
    state = game.state
    money, _ = game_money(game)
    rows: dict[str, dict[str, int]] = {}
    for player in state["players"]:
        name = player["name"]
        row = dict.fromkeys(FIELDS, 0) | {"best_pot_cents": 0, "money_cents": money.get(name, 0)}
        if game.kind == "hintersche":
            row["hands"] = state["hands_played"]
            row["games"] = state.get("games_played", 0)
            row["rubbers"] = int(state["finished"])
            row["lines"] = player["lines"]
        elif game.kind == "vier-anderle":
            row["hands"] = player.get("hands", 0)
            row["games"] = int(game.status == "closed")
            row["best_pot_cents"] = player.get("best_win", 0) * state["rules"]["stake_cents"]
        else:
            row["hands"] = state["hands_played"]
            row["games"] = int(state["finished"])
            row["wins"] = int(state["winner"] == name)
            row["points"] = player["score"]
            row["moons"] = player.get("moons", 0)
        rows[name] = row
    return rows


def store(game: Game) -> None:
    """Rewrite the game's rows in `Result` from its current state."""
    db.session.execute(delete(Result).where(Result.game_id == game.id))
    evening = db.session.get(Evening, game.evening_id)
    for name, row in figures(game).items():
        db.session.add(Result(game_id=game.id, group_id=game.group_id, evening_id=evening.id,
                              season=evening.date.year, kind=game.kind, player=name, **row))


def seasons(group_id: int) -> list[int]:
    return list(db.session.scalars(select(Result.season).where(Result.group_id == group_id)
                                   .distinct().order_by(Result.season.desc())))


def table(group_id: int, season: int | None = None) -> dict[str, list[dict[str, Any]]]:
    """Per game kind, one row per player with the sums (and the best pot), best first."""
    sums = [func.sum(getattr(Result, f)).label(f) for f in FIELDS]
    query = (select(Result.kind, Result.player, func.count(Result.game_id).label("played"),
                    func.max(Result.best_pot_cents).label("best_pot_cents"), *sums)
             .where(Result.group_id == group_id).group_by(Result.kind, Result.player))
    if season is not None:
        query = query.where(Result.season == season)
    by_kind: dict[str, list[dict[str, Any]]] = {"hintersche": [], "vier-anderle": [],
                                                 "hartenjagen": [], "all": []}
    money: dict[str, int] = {}
    for row in db.session.execute(query).mappings():
        data = {key: int(value or 0) if key not in ("kind", "player") else value
                for key, value in row.items()}
        if data["kind"] == "hartenjagen":
            data["average"] = data["points"] / data["hands"] if data["hands"] else 0.0
        by_kind[data["kind"]].append(data)
        money[data["player"]] = money.get(data["player"], 0) + data["money_cents"]
    by_kind["all"] = [{"player": p, "money_cents": c} for p, c in money.items()]
    for rows in by_kind.values():
        rows.sort(key=lambda r: (-r["money_cents"], r["player"]))
    return by_kind


def bollenkoenig(rows: list[dict[str, Any]]) -> list[str]:
    """Whoever has the most lines (Bollen) in Hintersche; several when they share it."""
    most = max((r["lines"] for r in rows), default=0)
    return sorted(r["player"] for r in rows if most and r["lines"] == most)
