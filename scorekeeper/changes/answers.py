"""What a change answers: stored (`Saved`, `Done`), refused, too late for the table as it is
now, or sent twice; each with the sentence for the players ("": nothing to say). A page or the
command line only shows it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from scorekeeper.engine import RuleError


@dataclass(frozen=True)
class Done:
    """The change was stored and committed; `message` says so."""

    message: str = ""


@dataclass(frozen=True)
class Saved:
    """An entry of a game was stored: entry `seq`, named as the table names it ("Hand 3"),
    what it did, and what the next entry form keeps of the one just sent."""

    seq: int
    name: str
    effect: dict[str, Any] = field(default_factory=dict)
    kept: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Refused:
    """Nothing was stored, and why (or the question to answer first, for a change that needs
    a second tap). For an entry of a game: `form`, the form again with what is wrong at its
    fields; `error`, the engine's word on the entry, for a form the caller made."""

    message: str
    form: Any = None
    error: RuleError | None = None


@dataclass(frozen=True)
class Stale:
    """Nothing was stored: something it depends on changed meanwhile; the same change sent
    again may go through."""

    message: str


@dataclass(frozen=True)
class Duplicate:
    """Sent again (a second tap, a retry, Back and the form sent again): entry `seq` of a game
    was stored the first time, or (`made`) the id of what the first sending set up."""

    seq: int
    made: int | None = None
