"""The game record (`scorekeeper-game/1`): parse it and replay it through a game's engine."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from . import games, play
from .errors import RuleError

FORMAT = "scorekeeper-game/1"


def load(text: str) -> dict[str, Any]:
    try:
        record = json.loads(text)
    except json.JSONDecodeError as exc:
        detail = f"line {exc.lineno}, column {exc.colno}"
        raise RuleError("record_bad_json", detail=detail) from None
    if not isinstance(record, dict):
        raise RuleError("record_not_object")
    return record


def start(record: Mapping[str, Any]) -> games.Table:
    """Check the record's header and return the game's table before the first hand."""
    if record.get("format") != FORMAT:
        raise RuleError("record_bad_format", field="format")
    game = games.get(record.get("game"))
    players = record.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) and p.strip() for p in players):
        raise RuleError("bad_players", field="players")
    first_dealer = record.get("first_dealer", players[0] if players else None)
    table: games.Table = game.Table(players, first_dealer, record.get("rules"))
    return table


def apply_all(table: games.Table, entries: Iterable[Any], first: int = 1) -> games.Table:
    """Apply entries in order; a RuleError carries the number of the entry that broke a rule."""
    for number, entry in enumerate(entries, start=first):
        play.apply_numbered(table, entry, number)
    return table


def replay(record: Mapping[str, Any]) -> games.Table:
    table = start(record)
    hands = record.get("hands", [])
    if not isinstance(hands, list):
        raise RuleError("bad_hands", field="hands")
    return apply_all(table, hands)
