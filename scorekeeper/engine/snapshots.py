"""Store a table after a hand and pick it up again for the next one, without replaying.

A snapshot is plain JSON: the arguments the table was made with and the values of the
attributes listed in its `SNAPSHOT`. It holds no history: each entry's row of the history is
stored with the entry (`last_rows`), so a snapshot stays the same size however long the game
runs. The replay of the record stays the source of truth; a snapshot only saves the work of
getting back to where the game stands.
"""

from __future__ import annotations

import copy
from typing import Any, TypeVar

T = TypeVar("T", bound="Snapshots")


class Snapshots:
    """Mixed into a game's Table, which lists its state attributes in `SNAPSHOT`, keeps the
    arguments it was made with in `_made_with`, and may rebuild derived attributes in
    `_restored`."""

    SNAPSHOT: tuple[str, ...] = ()
    _made_with: tuple[Any, Any, Any]

    def __init__(self, players: Any, first_dealer: Any, rules: Any) -> None:
        raise NotImplementedError  # each game's Table makes itself

    def snapshot(self) -> dict[str, Any]:
        players, first_dealer, rules = self._made_with
        return {"players": list(players), "first_dealer": first_dealer,
                "rules": copy.deepcopy(rules),
                "state": {name: copy.deepcopy(getattr(self, name)) for name in self.SNAPSHOT}}

    @classmethod
    def restore(cls: type[T], snapshot: dict[str, Any]) -> T:
        table = cls(snapshot["players"], snapshot["first_dealer"], snapshot["rules"])
        for name, value in snapshot["state"].items():
            setattr(table, name, copy.deepcopy(value))
        table._restored()
        return table

    def _restored(self) -> None:
        """Rebuild what is derived from the restored attributes (nothing by default)."""

    def history(self, since: int = 0) -> list[dict[str, Any]]:
        raise NotImplementedError

    def kept(self) -> int:
        """How many history rows the table keeps (since it was made or restored)."""
        raise NotImplementedError

    def last_rows(self, count: int = 1) -> list[dict[str, Any]]:
        """The history rows of the last `count` entries (applied since the table was made or
        restored), without spelling out the earlier ones."""
        return self.history(since=max(0, self.kept() - count)) if count else []
