"""The games the app offers: one engine module and one web adapter each, looked up by the code
used in the game record ("hintersche"). A game joins the app with `register` (see the README's
"Adding a game"); the four below are the app's own."""

from __future__ import annotations

from typing import Any

from scorekeeper.games.base import Adapter
from scorekeeper.games.cego import Cego
from scorekeeper.games.free_list import FreeList
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


def section(kind: str, name: str = "") -> str:
    """Where a game counts in the standings, the ratings and the season: its kind, or for a game
    the group named itself (`Adapter.own_name`) its kind and that name ("free-list:Skat"), so
    that each name counts on its own."""
    return f"{kind}:{name}" if name else kind


def of_section(key: str) -> tuple[Adapter | None, str]:
    """The adapter (None for a kind the app no longer knows) and the own name of a `section`."""
    kind, _colon, name = key.partition(":")
    return GAMES.get(kind), name


def section_title(key: str) -> str:
    """What the pages call a `section`: its own name, else its game's title."""
    adapter, name = of_section(key)
    return name or (adapter.title_of({}) if adapter else key)


def title(game: Any) -> str:
    """What the pages call a stored game (its `kind` and `rules`): its own name, else its title."""
    adapter = GAMES.get(game.kind)
    return adapter.title_of(game.rules or {}) if adapter else str(game.kind)


def sections_in_order(keys: Any) -> list[str]:
    """These sections in the registry's order of their games, each game's names in
    alphabetical order."""
    order = {kind: i for i, kind in enumerate(GAMES)}
    return sorted(keys, key=lambda key: (order.get(key.partition(":")[0], len(order)),
                                         key.partition(":")[2].casefold(), key))


for _adapter in (Hintersche(), VierAnderle(), Hartenjagen(), Cego(), FreeList()):
    register(_adapter)
