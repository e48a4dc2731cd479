"""The game contract: the base class every game's `Table` implements, its history rows and its
rule options.

A game is one module. It names itself on the module (``NAME``, ``TITLE``, ``SUMMARY``,
``OPTIONS``, ``MIN_PLAYERS``, ``MAX_PLAYERS``: what the registry and the web side read) and
defines a ``Table(base.Table)``, which takes those from its module as class attributes and adds:

- ``ENTRY_WORD``: what an entry is called in messages (``"hand"`` or ``"entry"``);
- ``ENTRY_KEYS``: every key an entry may contain;
- ``SNAPSHOT``: the state attributes a snapshot keeps;
- ``__init__``: calls ``super().__init__(players, first_dealer, rules)``, which seats the
  players, resolves the rules and starts an empty history, then sets up the game's own state;
- ``play_entry(entry) -> Row``: checks the entry (its keys are already checked) and, only when all
  of it is valid, changes the table and returns the entry's row of the history;
- ``summary()``: the report without the history;
- one frozen dataclass per kind of history row, subclassing `Row`, with ``spelled``.

A game may also define ``entry_keys(entry)`` (the keys this entry may contain, when that depends
on the kind of entry or on the rules), ``unknown_key(entry, key)`` (its own refusal of a key),
``restored()`` (rebuild what is derived from the attributes a snapshot restored),
``report_extras()`` (what its report shows besides the summary and the history) and
``game_over()`` (its own refusal of an entry after the game is over).

Rule options (`Option`): their names, defaults, allowed values and one-line explanations. Each
game module lists its options as ``OPTIONS``; the record stores only those that differ from the
defaults (`non_default`), and `resolve` checks them and fills in the rest.

This module only holds the table's state and what a game says; `play` drives a table (applies
entries, spells the history, takes and restores snapshots). Nothing here calls into a game: a
game's module imports this one, so a call from here into it would be a call back up.
"""

from __future__ import annotations

import abc
import json
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from .errors import RuleError

# What a game's module names itself with; its Table takes them from the module.
FROM_MODULE = ("NAME", "TITLE", "OPTIONS", "MIN_PLAYERS", "MAX_PLAYERS")
# The class attributes a game's Table must have.
CONTRACT = ("NAME", "TITLE", "OPTIONS", "ENTRY_WORD", "MIN_PLAYERS", "MAX_PLAYERS", "ENTRY_KEYS",
            "SNAPSHOT")


# --- the rules' options ---------------------------------------------------------------------

@dataclass(frozen=True)
class Option:
    """One rule option. Its kind follows from what it is given: a choice (`choices`), yes or no
    (a bool default), a whole number from `minimum` to `maximum`, a line of text (`text`: from
    `minimum` to `maximum` characters long) or a mapping (a dict default: short lower-case
    names, each with a whole number from `minimum` to `maximum`, such as a game's local bids
    and their values). A number or text option whose default is None may also be None ("no
    target"); with `required` it has no default (None) and the record must give it."""

    name: str
    default: Any
    help: str  # a one-line explanation (English, marked with N_: translated where shown)
    choices: tuple[Any, ...] = ()  # allowed values; empty: any value of the default's type
    minimum: int | None = None
    maximum: int | None = None
    multiple_of: int | None = None
    labels: Mapping[Any, str] = field(default_factory=dict)  # choice (or None) -> label (N_)
    extra_check: Callable[[Any], bool] | None = None
    text: bool = False  # a line of text, `minimum` to `maximum` characters long
    required: bool = False  # no default (None): the record must give a value

    def __post_init__(self) -> None:
        if self.kind in ("int", "text", "mapping") and (self.minimum is None
                                                        or self.maximum is None):
            raise ValueError(f"the option {self.name!r} needs a minimum and a maximum")
        if self.required and self.default is not None:
            raise ValueError(f"the required option {self.name!r} has no default: give None")

    @property
    def kind(self) -> str:
        if self.choices:
            return "choice"
        if self.text:
            return "text"
        if isinstance(self.default, Mapping):
            return "mapping"
        return "bool" if isinstance(self.default, bool) else "int"

    @property
    def may_be_none(self) -> bool:
        """None is a value of the option (none, no limit): its default, unless it is required."""
        return self.default is None and not self.required

    def missing(self) -> RuleError:
        """The refusal of a record that does not give this required option."""
        return RuleError("missing_option", field=self.name, option=self.name, label=self.help)

    def error(self, value: Any) -> RuleError:
        """The refusal of `value`, saying what is allowed instead."""
        if self.kind in ("text", "mapping"):
            return RuleError(f"bad_{self.kind}_option", field=self.name, option=self.name,
                             label=self.help, value=_show(value), low=self.minimum,
                             high=self.maximum)
        kind = {"choice": "choice", "bool": "yes_no"}.get(self.kind) or (
            "multiple" if self.multiple_of else "number")
        return RuleError("bad_option", field=self.name, option=self.name, label=self.help,
                         value=_show(value), kind=kind, low=self.minimum, high=self.maximum,
                         multiple=self.multiple_of, choices=[self.labels.get(c) or _show(c)
                                                             for c in self.choices])

    def accepts(self, value: Any) -> bool:
        if value is None:
            return self.may_be_none
        if self.choices:
            return any(value == c and type(value) is type(c) for c in self.choices)
        if self.kind == "bool":
            return isinstance(value, bool)
        if self.kind == "text":  # one printed line, blanks around it not counted as its length
            return (isinstance(value, str) and value.isprintable()
                    and self.minimum is not None and self.maximum is not None
                    and len(value.strip()) >= self.minimum and len(value) <= self.maximum)
        if self.kind == "mapping":
            if not isinstance(value, Mapping) or len(value) > MAPPING_SIZE or not all(
                    type(k) is str and MAPPING_NAME.fullmatch(k) and self._number(v)
                    for k, v in value.items()):
                return False
        elif not self._number(value):
            return False
        return self.extra_check is None or self.extra_check(value)

    def _number(self, value: Any) -> bool:
        if not isinstance(value, int) or isinstance(value, bool):
            return False
        if self.minimum is not None and value < self.minimum:
            return False
        if self.maximum is not None and value > self.maximum:
            return False
        return not (self.multiple_of and value % self.multiple_of)


MAPPING_NAME = re.compile(r"[a-z][a-z0-9_]{0,29}")  # a name in a mapping option
MAPPING_SIZE = 30  # names in a mapping option at most
_SHOWN_TEXT = 60  # a longer text is cut short in a message


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value[:_SHOWN_TEXT]}…"' if len(value) > _SHOWN_TEXT else f'"{value}"'
    if value is None:
        return "null"
    if isinstance(value, Mapping | list):
        try:
            return json.dumps(value, ensure_ascii=False)
        except (TypeError, ValueError):
            pass
    return str(value)


def resolve(options: tuple[Option, ...], given: Any) -> dict[str, Any]:
    """Return every option's value: the given ones checked, the rest at their defaults."""
    if given is None:
        given = {}
    if not isinstance(given, Mapping):
        raise RuleError("unknown_option", field="rules", option=str(given))
    by_name = {option.name: option for option in options}
    rules = {option.name: option.default for option in options}
    for name, value in given.items():
        option = by_name.get(name)
        if option is None:
            raise RuleError("unknown_option", field=str(name), option=name)
        if not option.accepts(value):
            raise option.error(value)
        rules[name] = value
    for option in options:
        if option.required and rules[option.name] is None:
            raise option.missing()
    return rules


def as_stored(options: tuple[Option, ...], given: Mapping[str, Any]) -> dict[str, Any]:
    """Every option's value of a stored game: `resolve`d, or, for a game kept from before an
    upgrade whose rules the engine now refuses, as stored and unchecked (to show and end it).
    Unknown options are then left out, the missing ones are at their defaults."""
    try:
        return resolve(options, given)
    except RuleError:
        pass
    rules = {option.name: option.default for option in options}
    rules.update((name, value) for name, value in given.items() if name in rules)
    return rules


def non_default(options: tuple[Option, ...], rules: Mapping[str, Any]) -> dict[str, Any]:
    """The options that differ from the defaults, as the game record stores them."""
    return {o.name: rules[o.name] for o in options
            if o.name in rules and rules[o.name] != o.default}


# --- the table -----------------------------------------------------------------------------

class Row:
    """One entry's row of the history: a frozen dataclass of plain values (seat indexes, tuples
    of numbers), kept compact while playing and spelled out by `spelled` for `history()`."""

    __slots__ = ()

    HAND: ClassVar[bool] = True  # the row is a hand and counts in `hands_played`

    def spelled(self, players: Sequence[str], hand: int) -> dict[str, Any]:
        """The row as `history()` shows it; `players` are the table's players, `hand` the
        number of this hand (of the last hand before it, for a row that is not a hand)."""
        raise NotImplementedError


class Table(abc.ABC):
    """The state of one game at the table, built by applying entries in order.

    `apply` checks the whole entry before it changes anything, so a RuleError leaves the table
    as it was.
    """

    NAME: ClassVar[str]
    TITLE: ClassVar[str]
    OPTIONS: ClassVar[tuple[Option, ...]]
    ENTRY_WORD: ClassVar[str]
    MIN_PLAYERS: ClassVar[int]
    MAX_PLAYERS: ClassVar[int]
    ENTRY_KEYS: ClassVar[frozenset[str]]
    SNAPSHOT: ClassVar[tuple[str, ...]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        module = sys.modules[cls.__module__]
        for name in FROM_MODULE:
            if name not in vars(cls) and hasattr(module, name):
                setattr(cls, name, getattr(module, name))
        missing = [name for name in CONTRACT if not hasattr(cls, name)]
        if missing:
            raise TypeError(f"{cls.__qualname__} does not set {', '.join(missing)}")

    def __init__(self, players: Any, first_dealer: Any, rules: Any) -> None:
        self.made_with: tuple[Any, Any, Any] = (players, first_dealer, rules)
        seated, dealer = seat_players(players, first_dealer, self.MIN_PLAYERS, self.MAX_PLAYERS)
        self.players: list[str] = seated
        self._first_dealer: int = seated.index(dealer)  # seat of the first dealer
        self.rules: dict[str, Any] = resolve(self.OPTIONS, rules)
        self.hands_played: int = 0
        self.finished: bool = False
        self.rows: list[Row] = []  # the history since the table was made or restored

    # --- what every game says -------------------------------------------------------------------

    @abc.abstractmethod
    def play_entry(self, entry: Mapping[str, Any]) -> Row:
        """Check the entry (its keys are checked already) and, only if all of it is valid,
        change the table; return the entry's row of the history."""

    @abc.abstractmethod
    def summary(self) -> dict[str, Any]:
        """The report without the history."""

    # --- what a game may say about its entries ---------------------------------------------------

    @classmethod
    def meaning_changed(cls, entered: Mapping[str, Any], now: Mapping[str, Any]
                        ) -> RuleError | None:
        """Whether an entry, played again after a correction of an earlier one, would mean
        something else than what the players entered (`entered` and `now` are its history
        rows, then and now): the error that says what, else None. A correction must never
        silently re-type a later hand. By default an entry always means the same."""
        return None

    @classmethod
    def renamed(cls, entry: Mapping[str, Any], old: str, new: str) -> dict[str, Any]:
        """A stored entry with the player `old` called `new` wherever it names a player. By
        default a name is a key of a per-player mapping, an item of a list or a single value; a
        game whose entries hold other values that could equal a name says so here."""
        def name(value: Any) -> Any:
            return new if value == old else value

        def rename(value: Any) -> Any:
            if isinstance(value, Mapping):
                return {name(k): v for k, v in value.items()}
            if isinstance(value, list):
                return [rename(v) if isinstance(v, Mapping) else name(v) for v in value]
            return name(value)

        return {key: rename(value) for key, value in entry.items()}

    @classmethod
    def ended(cls, summary: Mapping[str, Any], rules: Mapping[str, Any]) -> dict[str, Any]:
        """The summary of a game that the players end now, before its rules end it (closing
        time), played by `rules` (all options): what its money and standings then show, and
        nobody deals any more; `deals_on` keeps who would have dealt next (where the next game
        at the same table starts). By default the money as it stands (it does at every
        moment)."""
        return {**summary, "next_dealer": None, "deals_on": summary.get("next_dealer"),
                **({"dealer": None} if "dealer" in summary else {})}


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
