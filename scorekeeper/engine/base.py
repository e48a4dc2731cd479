"""The game contract: the base class every game's `Table` implements, and its history rows.

A game is one module. It names itself on the module (``NAME``, ``TITLE``, ``SUMMARY``,
``OPTIONS``, ``MIN_PLAYERS``, ``MAX_PLAYERS``: what the registry and the web side read) and
defines a ``Table(base.Table)``, which takes those from its module as class attributes and adds:

- ``ENTRY_WORD``: what an entry is called in messages (``"hand"`` or ``"entry"``);
- ``ENTRY_KEYS``: every key an entry may contain (``entry_keys`` narrows it per entry, when it
  depends on the kind of entry or on the rules);
- ``SNAPSHOT``: the state attributes a snapshot keeps;
- ``__init__``: calls ``super().__init__(players, first_dealer, rules)``, which seats the
  players, resolves the rules and starts an empty history, then sets up the game's own state;
- ``_play(entry) -> Row``: checks the entry (its keys are already checked) and, only when all
  of it is valid, changes the table and returns the entry's row of the history;
- ``summary()``: the report without the history;
- one frozen dataclass per kind of history row, subclassing `Row`.

The base class does the rest the same way for every game: ``apply`` (game over, not a mapping,
unknown keys, then ``_play``, then the row joins the history), ``report``, ``history``,
``kept``, ``last_rows``, ``snapshot`` and ``restore``.

A snapshot is plain JSON: the arguments the table was made with and the values of the
attributes listed in ``SNAPSHOT``. It holds no history: each entry's row of the history is
stored with the entry (``last_rows``), so a snapshot stays the same size however long the game
runs. The replay of the record stays the source of truth; a snapshot only saves the work of
getting back to where the game stands.
"""

from __future__ import annotations

import abc
import copy
import sys
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, TypeVar

from . import entries, errors, options
from .errors import RuleError

T = TypeVar("T", bound="Table")

# What a game's module names itself with; its Table takes them from the module.
FROM_MODULE = ("NAME", "TITLE", "OPTIONS", "MIN_PLAYERS", "MAX_PLAYERS")
# The class attributes a game's Table must have.
CONTRACT = ("NAME", "TITLE", "OPTIONS", "ENTRY_WORD", "MIN_PLAYERS", "MAX_PLAYERS", "ENTRY_KEYS",
            "SNAPSHOT")


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
    OPTIONS: ClassVar[tuple[options.Option, ...]]
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
        self._made_with: tuple[Any, Any, Any] = (players, first_dealer, rules)
        seated, dealer = entries.seat_players(players, first_dealer, self.MIN_PLAYERS,
                                              self.MAX_PLAYERS)
        self.players: list[str] = seated
        self._first_dealer: int = seated.index(dealer)  # seat of the first dealer
        self.rules: dict[str, Any] = options.resolve(self.OPTIONS, rules)
        self.hands_played: int = 0
        self.finished: bool = False
        self._rows: list[Row] = []  # the history since the table was made or restored

    # --- entries ----------------------------------------------------------------------------

    def apply(self, entry: Mapping[str, Any]) -> Row:
        """Apply one entry and return its row of the history (what it did)."""
        if self.finished:
            raise RuleError("game_over")
        if type(entry) is not dict and not isinstance(entry, Mapping):
            raise RuleError("entry_not_object")
        allowed = self.entry_keys(entry)
        for key in entry:
            if key not in allowed:
                raise self._unknown_key(entry, key)
        row = self._play(entry)
        self._rows.append(row)
        return row

    def entry_keys(self, entry: Mapping[str, Any]) -> frozenset[str]:
        """The keys this entry may contain (by default every key in `ENTRY_KEYS`)."""
        return self.ENTRY_KEYS

    def _unknown_key(self, entry: Mapping[str, Any], key: Any) -> RuleError:
        """The refusal of a key this entry may not contain."""
        return errors.unknown_key(key, self.TITLE)

    @abc.abstractmethod
    def _play(self, entry: Mapping[str, Any]) -> Row:
        """Check the entry and, only if all of it is valid, play it; return its row."""

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

    # --- report -----------------------------------------------------------------------------

    @abc.abstractmethod
    def summary(self) -> dict[str, Any]:
        """The report without the history."""

    def report(self) -> dict[str, Any]:
        """The summary, what the game adds to it (`_report_extras`) and the history."""
        return {**self.summary(), **self._report_extras(), "history": self.history()}

    def _report_extras(self) -> dict[str, Any]:
        """What the report shows besides the summary and the history (nothing by default)."""
        return {}

    def history(self, since: int = 0) -> list[dict[str, Any]]:
        """Every entry's row so far (since the table was made or restored; from the `since`-th
        of those on), spelled out."""
        rows = self._rows[since:]
        hand = self.hands_played - sum(1 for row in rows if row.HAND)
        players = self.players
        out = []
        for row in rows:
            if row.HAND:
                hand += 1
            out.append(row.spelled(players, hand))
        return out

    def kept(self) -> int:
        """How many history rows the table keeps (since it was made or restored)."""
        return len(self._rows)

    def apply_numbered(self, entry: Any, number: int) -> Row:
        """`apply` entry `number` of a game's record: a RuleError carries the number and the
        word for an entry of this game."""
        try:
            if not isinstance(entry, dict):
                raise RuleError("entry_not_object")
            return self.apply(entry)
        except RuleError as error:
            error.entry = number
            error.entry_word = self.ENTRY_WORD
            raise

    def play(self, entry: Any, number: int) -> tuple[dict[str, Any], dict[str, Any]]:
        """Apply entry `number` of a game's record; what it did (its row of the history, spelled
        out) and the table after it (a snapshot)."""
        self.apply_numbered(entry, number)
        return self.last_rows(1)[0], self.snapshot()

    def last_rows(self, count: int = 1) -> list[dict[str, Any]]:
        """The history rows of the last `count` entries (applied since the table was made or
        restored), without spelling out the earlier ones."""
        return self.history(since=max(0, self.kept() - count)) if count else []

    # --- snapshots --------------------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        """The table as plain JSON, without its history (see the module docstring)."""
        players, first_dealer, rules = self._made_with
        return {"players": list(players), "first_dealer": first_dealer,
                "rules": copy.deepcopy(rules),
                "state": {name: copy.deepcopy(getattr(self, name)) for name in self.SNAPSHOT}}

    @classmethod
    def restore(cls: type[T], snapshot: dict[str, Any]) -> T:
        """The table a `snapshot` was taken of, with an empty history."""
        table = cls(snapshot["players"], snapshot["first_dealer"], snapshot["rules"])
        for name, value in snapshot["state"].items():
            setattr(table, name, copy.deepcopy(value))
        table._restored()
        return table

    def _restored(self) -> None:
        """Rebuild what is derived from the restored attributes (nothing by default)."""
        return
