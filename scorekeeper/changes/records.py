"""What enters the app from a file, in the words of the command line: import a game record into
a group (`import`), import a whole group from its export (`import-group`).

Each stores everything or nothing: the records room checks and stores (`records.game_record`,
`records.group_import`), this commits, or rolls back on any problem and lets it rise to the
caller, which says it in one line.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from scorekeeper.db import db
from scorekeeper.evenings import signoff
from scorekeeper.group import club
from scorekeeper.models import Game, Group
from scorekeeper.records import game_record, group_import


def import_game(record: dict[str, Any], slug: str, day: dt.date | None = None) -> Game:
    """Store a whole game record in the group `slug` on the evening of `day` (today's evening
    by default), creating the group, the evening and the players as needed.

    The record is replayed first, so nothing is stored unless every entry is valid (the
    engine's RuleError); a ValueError says what else is wrong: a hidden character, a name that
    cannot be a player's, an evening signed off."""
    game_record.check_json(record)
    try:
        group = club.group_for(slug)
        evening = club.evening_for(group, day)
        if signoff.locked(evening, group):
            raise ValueError(f"the evening of {evening.date} has been signed off: a member "
                             "can reopen it on its page")
        game = game_record.store_game(group, evening, record)
        db.session.commit()
    except Exception:
        db.session.rollback()
        raise
    return game


def import_group(data: dict[str, Any]) -> Group:
    """Create a group from its export (`records.export.group_json`). The whole file is checked
    first and every game is replayed before anything is kept; on any problem nothing is stored
    (ValueError, saying where and why)."""
    try:
        group = group_import.store_group(data)
        db.session.commit()
    except Exception:
        db.session.rollback()
        raise
    return group
