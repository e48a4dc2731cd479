"""The games the app offers: one engine module and one web adapter each, looked up by the code
used in the game record ("hintersche"). A game joins the app with `register` (see the README's
"Adding a game"); the four below are the app's own."""

from __future__ import annotations

from scorekeeper.games.base import Adapter
from scorekeeper.games.cego import Cego
from scorekeeper.games.hartenjagen import Hartenjagen
from scorekeeper.games.hintersche import Hintersche
from scorekeeper.games.vier_anderle import VierAnderle

GAMES: dict[str, Adapter] = {}


def register(adapter: Adapter) -> Adapter:
    """Offer a game: its adapter, whose engine module is registered with the engine's
    `register`. An app made after this knows the game (its pages, its templates)."""
    GAMES[adapter.name] = adapter
    return adapter


def get(name: str) -> Adapter:
    """The adapter of a stored game's kind (KeyError for a kind the app does not know)."""
    return GAMES[name]


for _adapter in (Hintersche(), VierAnderle(), Hartenjagen(), Cego()):
    register(_adapter)
