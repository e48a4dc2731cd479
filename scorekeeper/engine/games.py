"""The registry of games, looked up by the code used in the game record.

Every game is one module with a `Table` that implements the game contract, `base.Table`.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from .base import Row, Table
from .errors import RuleError

__all__ = ["GAMES", "Row", "Table", "all_games", "get"]


def _modules() -> dict[str, ModuleType]:
    from . import hartenjagen, hintersche, vier_anderle

    return {m.NAME: m for m in (hintersche, vier_anderle, hartenjagen)}


GAMES: dict[str, ModuleType] = {}


def all_games() -> dict[str, ModuleType]:
    if not GAMES:
        GAMES.update(_modules())
    return GAMES


def get(name: Any) -> ModuleType:
    game = all_games().get(name) if isinstance(name, str) else None
    if game is None:
        raise RuleError("unknown_game", field="game", game=str(name))
    return game
