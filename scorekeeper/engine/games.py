"""The registry of games, looked up by the code used in the game record."""

from __future__ import annotations

from types import ModuleType
from typing import Any, Protocol

from .errors import RuleError


class Table(Protocol):
    """The state of one game at the table, built by applying entries in order.

    `apply` checks the whole entry before it changes anything, so a RuleError leaves the
    table as it was.
    """

    ENTRY_WORD: str
    players: list[str]
    finished: bool

    def __init__(self, players: list[str], first_dealer: Any, rules: Any) -> None: ...
    def apply(self, entry: dict[str, Any]) -> None: ...
    def report(self) -> dict[str, Any]: ...


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
