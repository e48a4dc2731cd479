"""Import of game records (the format of `replay`, export and import)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from . import club, engine, scoring
from .db import db
from .models import Game


def import_game(record: dict[str, Any], slug: str, day: dt.date | None = None) -> Game:
    """Store a whole game record in a group, creating the group and players as needed.

    The record is replayed first, so nothing is stored unless every entry is valid.
    """
    table = engine.replay(record)
    group = club.group_for(slug)
    for name in _names(record, table):
        club.player_for(group, name)
    game = Game(group_id=group.id, evening_id=club.evening_for(group, day).id,
                kind=record["game"], rules=dict(record.get("rules") or {}),
                seating=list(record["players"]),
                first_dealer=record.get("first_dealer") or record["players"][0])
    scoring.start_game(game, record.get("hands", []), table)
    db.session.commit()
    return game


def _names(record: dict[str, Any], table: engine.games.Table) -> list[str]:
    """Everybody who sat at the table, including players who joined in a table change."""
    names = list(record["players"])
    for player in table.report()["players"]:
        if player["name"] not in names:
            names.append(player["name"])
    return names
