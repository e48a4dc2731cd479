"""Each game's record generator, found by the game's code: `records_<module>.py` beside this
file for the app's games (``random_record(hands, seed)`` and ``varied(hands, seed)``, a game with
the game's harder rules), and what a game that lives elsewhere registers with `register` (the
tests' fourth game does)."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from scorekeeper import engine

Generator = Callable[[int, int], dict[str, Any]]
REGISTERED: dict[str, tuple[Generator, Generator]] = {}


def register(name: str, plain: Generator, varied: Generator | None = None) -> None:
    REGISTERED[name] = (plain, varied or plain)


def _generators(name: str) -> tuple[Generator, Generator]:
    if name in REGISTERED:
        return REGISTERED[name]
    module = engine.get(name).__name__.rsplit(".", 1)[1]
    try:
        found = importlib.import_module(f"records_{module}")
    except ModuleNotFoundError:
        raise LookupError(f"the game {name!r} ships no record generator: write "
                          f"bench/records_{module}.py (random_record, varied) or register "
                          "one") from None
    return found.random_record, getattr(found, "varied", found.random_record)


def random_record(name: str, hands: int, seed: int) -> dict[str, Any]:
    """A valid record of the game with up to `hands` hands, the same for the same seed."""
    return _generators(name)[0](hands, seed)


def varied(name: str, hands: int, seed: int) -> dict[str, Any]:
    """As `random_record`, with the rules and entries that are hardest to get right (table
    changes, penalty cards): what the property tests play."""
    return _generators(name)[1](hands, seed)
