"""Playing a game: apply entries to a table, spell out its history, report it, take a snapshot
of it and restore one.

The same for every game; what a game says comes from its `Table` (the contract in `base`). A
game's module never imports this one, so every call from here into a game goes down, never back
up.

A snapshot is plain JSON: the arguments the table was made with and the values of the
attributes its game lists in ``SNAPSHOT``. It holds no history: each entry's row of the history
is stored with the entry (`step`), so a snapshot stays the same size however long the game runs.
The replay of the record stays the source of truth; a snapshot only saves the work of getting
back to where the game stands.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any, TypeVar

from . import errors
from .base import Row, Table
from .errors import RuleError

T = TypeVar("T", bound=Table)


def apply(table: Table, entry: Mapping[str, Any]) -> Row:
    """Apply one entry and return its row of the history (what it did). The whole entry is
    checked before anything changes: a RuleError leaves the table as it was."""
    if table.finished:
        over = getattr(table, "game_over", None)
        raise over() if over else RuleError("game_over")
    if type(entry) is not dict and not isinstance(entry, Mapping):
        raise RuleError("entry_not_object")
    narrowed = getattr(table, "entry_keys", None)
    allowed = narrowed(entry) if narrowed else table.ENTRY_KEYS
    for key in entry:
        if key not in allowed:
            refusal = getattr(table, "unknown_key", None)
            raise refusal(entry, key) if refusal else errors.unknown_key(key, table.TITLE)
    row = table.play_entry(entry)
    table.rows.append(row)
    return row


def apply_numbered(table: Table, entry: Any, number: int) -> Row:
    """`apply` entry `number` of a game's record: a RuleError carries the number and the word
    for an entry of this game."""
    try:
        if not isinstance(entry, dict):
            raise RuleError("entry_not_object")
        return apply(table, entry)
    except RuleError as error:
        error.entry = number
        error.entry_word = table.ENTRY_WORD
        raise


def step(table: Table, entry: Any, number: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """Apply entry `number` of a game's record; what it did (its row of the history, spelled
    out) and the table after it (a snapshot)."""
    row = apply_numbered(table, entry, number)
    return row.spelled(table.players, table.hands_played), snapshot(table)


def history(table: Table, since: int = 0) -> list[dict[str, Any]]:
    """Every entry's row so far (since the table was made or restored; from the `since`-th of
    those on), spelled out."""
    rows = table.rows[since:]
    hand = table.hands_played - sum(1 for row in rows if row.HAND)
    out = []
    for row in rows:
        if row.HAND:
            hand += 1
        out.append(row.spelled(table.players, hand))
    return out


def last_rows(table: Table, count: int = 1) -> list[dict[str, Any]]:
    """The history rows of the last `count` entries (applied since the table was made or
    restored), without spelling out the earlier ones."""
    return history(table, since=max(0, len(table.rows) - count)) if count else []


def report(table: Table) -> dict[str, Any]:
    """The summary, what the game adds to it (its `report_extras`) and the history."""
    extras = getattr(table, "report_extras", None)
    return {**table.summary(), **(extras() if extras else {}), "history": history(table)}


def snapshot(table: Table) -> dict[str, Any]:
    """The table as plain JSON, without its history."""
    players, first_dealer, rules = table.made_with
    return {"players": list(players), "first_dealer": first_dealer,
            "rules": copy.deepcopy(rules),
            "state": {name: copy.deepcopy(getattr(table, name)) for name in table.SNAPSHOT}}


def restore(cls: type[T], taken: dict[str, Any]) -> T:
    """The table of class `cls` a snapshot was `taken` of, with an empty history."""
    table = cls(taken["players"], taken["first_dealer"], taken["rules"])
    for name, value in taken["state"].items():
        setattr(table, name, copy.deepcopy(value))
    restored = getattr(table, "restored", None)
    if restored:
        restored()
    return table
