"""Import of game records (the format of `replay`, export and import)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from . import club, engine, scoring
from .db import db
from .models import Evening, Game, Group


def import_game(record: dict[str, Any], slug: str, day: dt.date | None = None) -> Game:
    """Store a whole game record in a group, creating the group and players as needed.

    The record is replayed first, so nothing is stored unless every entry is valid.
    """
    group = club.group_for(slug)
    game = store_game(group, club.evening_for(group, day), record)
    db.session.commit()
    return game


def store_game(group: Group, evening: Evening, record: dict[str, Any],
               revisions: bool = True) -> Game:
    """Replay a record and store it as a game of the evening; everybody who sat at the table
    (also who joined in a table change) becomes a player of the group."""
    table = engine.replay(record)
    for name in table.players:
        if club.name_problem(name):
            raise ValueError(f"{name!r} cannot be a player's name: up to 40 letters, digits "
                             "and spaces, and not the Kasse")
        club.player_for(group, name)
    game = Game(group_id=group.id, evening_id=evening.id, kind=record["game"],
                rules=dict(record.get("rules") or {}), seating=list(record["players"]),
                first_dealer=record.get("first_dealer") or record["players"][0])
    scoring.start_game(game, record.get("hands", []), table, revisions=revisions)
    return game
