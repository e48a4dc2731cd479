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


def seat_players(players: Any, first_dealer: Any, low: int, high: int) -> tuple[list[str], str]:
    """Check the list of names and the first dealer; return them."""
    if not isinstance(players, list) or not all(isinstance(p, str) and p.strip() for p in players):
        raise RuleError("bad_players", field="players")
    if not low <= len(players) <= high:
        code = "player_count_exact" if low == high else "player_count"
        raise RuleError(code, field="players", low=low, high=high, count=len(players))
    seen: set[str] = set()
    for name in players:
        if name in seen:
            raise RuleError("duplicate_player", field="players", player=name)
        seen.add(name)
    if first_dealer is None:
        first_dealer = players[0]
    if not isinstance(first_dealer, str) or first_dealer not in seen:
        raise RuleError("unknown_player", field="first_dealer", player=first_dealer)
    return list(players), first_dealer
