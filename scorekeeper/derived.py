"""Rebuild what is derived from the entries: every game's state, status, results, and what each
entry did and the table after it.

`games.state`, `games.status`, the entries' `effect` and `snapshot` and the `results` rows are
caches of the engine's replay. After a
schema upgrade (migrations/env.py) they are rebuilt with the current code, so no migration needs
data-fill code of its own.
"""

from __future__ import annotations

import json
import sys

from sqlalchemy import select

from . import engine, scoring, standings
from .db import db
from .models import Game, Group


def rebuild_game(game: Game) -> str | None:
    """Replay the game and store its state, status and results.

    A game whose entries the engine refuses now keeps its entries and its old state, and its
    results come from the old state; the warning saying so is returned.
    """
    try:
        scoring.rebuild(game)
    except engine.RuleError as error:
        game.problem = {"code": error.code, "params": json.loads(json.dumps(error.params,
                                                                            default=str)),
                        "entry": error.entry, "entry_word": error.entry_word}
        slug = db.session.scalar(select(Group.slug).where(Group.id == game.group_id))
        warning = f"game {game.id} (group {slug}): {error}"
        try:
            standings.store(game)
        except (KeyError, TypeError):
            warning += " (its old state gives no standings)"
        return warning
    game.problem = None
    standings.store(game)
    return None


def rebuild_all() -> list[str]:
    """Rebuild every game, print a warning line for each game that no longer replays (also
    returned) and commit."""
    warnings = []
    for game in db.session.scalars(select(Game).order_by(Game.id)):
        warning = rebuild_game(game)
        if warning:
            print(warning, file=sys.stderr)
            warnings.append(warning)
    db.session.commit()
    return warnings
