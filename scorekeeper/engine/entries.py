"""Checks shared by the games for the shape of an entry and the seating of players."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from . import errors
from .errors import RuleError


def whole_number(player: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, float) and value.is_integer():
            return int(value)
        raise RuleError("not_a_number", field=player, player=player, value=value)
    return value


def player_name(entry: Mapping[str, Any], key: str, players: Iterable[str]) -> str:
    """`entry[key]`, which must name one of `players`."""
    name = entry.get(key)
    if name is None:
        raise errors.missing_key(key)
    if not isinstance(name, str) or name not in set(players):
        raise RuleError("unknown_player", field=key, player=name)
    return name
