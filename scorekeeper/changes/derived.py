"""Rebuild what is derived from the entries: every game's state, status, results, and what each
entry did and the table after it.

`games.state`, `games.status`, the entries' `effect` and `snapshot`, the `results` rows and
the games' lines of the Kasse's book are caches of the engine's replay. After a
schema upgrade (migrations/env.py) they are rebuilt with the current code, so no migration needs
data-fill code of its own.
"""

from __future__ import annotations

import json
import sys

from sqlalchemy import select

from scorekeeper import engine
from scorekeeper.db import db
from scorekeeper.evenings import ledger
from scorekeeper.models import Game, Group
from scorekeeper.season import standings
from scorekeeper.table import scoring


def rebuild_game(game: Game, book: bool = True) -> str | None:
    """Replay the game and store its state, status and results (and, with `book`, its
    evening's lines of the Kasse's book).

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
            standings.store(game, book=book)
        except (KeyError, TypeError):
            warning += " (its old state gives no standings)"
        return warning
    game.problem = None
    standings.store(game, book=book)
    return None


def rebuild_all() -> list[str]:
    """Rebuild every game, print a warning line for each game that no longer replays (also
    returned) and commit."""
    warnings = []
    evenings: dict[int, None] = {}
    for game in db.session.scalars(select(Game).order_by(Game.id)):
        warning = rebuild_game(game, book=False)
        if warning:
            print(warning, file=sys.stderr)
            warnings.append(warning)
        evenings[game.evening_id] = None
    for evening_id in evenings:  # once all its games are rebuilt: each reads the others
        try:
            ledger.store_evening(evening_id)
        except (KeyError, TypeError):
            warning = f"evening {evening_id}: a game's old state gives no Kasse lines"
            print(warning, file=sys.stderr)
            warnings.append(warning)
    db.session.commit()
    return warnings
