"""The games the app offers: one engine module and one web adapter each, looked up by the code
used in the game record ("hintersche"). Adding a game is one engine module, one adapter and its
templates under ``templates/games/<name>/``, and a line here."""

from __future__ import annotations

from .base import Adapter
from .hartenjagen import Hartenjagen
from .hintersche import Hintersche
from .vier_anderle import VierAnderle

GAMES: dict[str, Adapter] = {adapter.name: adapter
                             for adapter in (Hintersche(), VierAnderle(), Hartenjagen())}


def get(name: str) -> Adapter:
    """The adapter of a stored game's kind (KeyError for a kind the app does not know)."""
    return GAMES[name]
