"""Game records (the format of `replay`, of a group's export and of `import`): checked as JSON
the forms would make, and stored as a game of an evening."""

from __future__ import annotations

import json
import math
import re
from typing import Any

from scorekeeper import engine
from scorekeeper.group import club, names
from scorekeeper.models import Evening, Game, Group
from scorekeeper.season import standings
from scorekeeper.table import scoring

DEEPEST = 32  # nesting far beyond any entry or rule option; deeper is not a record
PLAIN_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")


def show(value: Any) -> str:
    """A value as the file has it, short and on one line, hidden characters escaped."""
    if isinstance(value, dict | list):
        return "an object" if isinstance(value, dict) else "a list"
    text = json.dumps(value, ensure_ascii=False)
    text = "".join(c if names.printable(c) else ascii(c)[1:-1] for c in text)
    return text if len(text) <= 50 else text[:47] + "..."


def step(path: str, key: str | int) -> str:
    """The path one step further: `hands[2]`, `hands[2].queen`, `hands[2].points["Jürgen"]`."""
    if isinstance(key, int):
        return f"{path}[{key}]"
    if PLAIN_KEY.fullmatch(key):
        return f"{path}.{key}" if path else key
    return f"{path}[{show(key)}]"


def check_json(value: Any, path: str = "", depth: int = 0) -> None:
    """JSON as the forms make it and every database stores it (rules, entries, a revision's
    data): texts without invisible or control characters (PostgreSQL refuses a NUL), no NaN or
    infinity, nested no deeper than DEEPEST. Raises ValueError naming the place, e.g.
    `hands[2].queen: "\\u0000" has an invisible or control character`."""
    where = path or "the record"
    if depth > DEEPEST:
        raise ValueError(f"{where}: is nested too deeply")
    if isinstance(value, str) and not names.printable(value):
        raise ValueError(f"{where}: {show(value)} has an invisible or control character")
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"{where}: {value} is not a number")
    if isinstance(value, dict | list):
        for key, item in value.items() if isinstance(value, dict) else enumerate(value):
            if isinstance(key, str) and not names.printable(key):
                raise ValueError(f"{where}: the key {show(key)} has an invisible or control "
                                 "character")
            check_json(item, step(path, key), depth + 1)


def store_game(group: Group, evening: Evening, record: dict[str, Any],
               revisions: bool = True) -> Game:
    """Replay a record and store it as a game of the evening; everybody who sat at the table
    (also who joined in a table change) becomes a player of the group.

    A RuleError or ValueError may come after rows were added: the caller rolls back
    (changes.records)."""
    engine.record.start(record)  # the header: format, game, players, first dealer, rules
    hands = record.get("hands", [])
    if not isinstance(hands, list):
        raise engine.RuleError("bad_hands", field="hands")
    game = Game(group_id=group.id, evening_id=evening.id, kind=record["game"],
                rules=dict(record.get("rules") or {}), seating=list(record["players"]),
                first_dealer=record.get("first_dealer") or record["players"][0])
    scoring.start_game(game, hands, revisions=revisions)  # each hand is replayed once
    for player in game.state["players"]:
        name = player["name"]
        if names.name_problem(name) or name != name.strip():
            raise ValueError(f"{name!r} cannot be a player's name: up to 40 letters, digits "
                             "and spaces, and not the Kasse")
    club.join(group, [player["name"] for player in game.state["players"]])
    standings.store(game)
    return game
