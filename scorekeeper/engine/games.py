"""The registry of games, looked up by the code used in the game record.

Every game is one module with a `Table` that implements the game contract, `base.Table`; the
app's own are registered when the engine is first imported, another one with `register`.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from .base import Row, Table
from .errors import RuleError

__all__ = ["GAMES", "Row", "Table", "all_games", "get", "register"]

GAMES: dict[str, ModuleType] = {}


def register(module: ModuleType) -> ModuleType:
    """Add a game's module (its `NAME` and `Table`) to the registry."""
    GAMES[module.NAME] = module
    return module


def all_games() -> dict[str, ModuleType]:
    if not GAMES:
        from . import cego, free_list, hartenjagen, hintersche, vier_anderle

        for module in (hintersche, vier_anderle, hartenjagen, cego, free_list):
            register(module)
    return GAMES


def get(name: Any) -> ModuleType:
    game = all_games().get(name) if isinstance(name, str) else None
    if game is None:
        raise RuleError("unknown_game", field="game", game=str(name))
    return game
