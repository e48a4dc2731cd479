"""The free list in the web app: any other game, under the name the group gave it; each
player's points per hand, negative ones too; standings per name."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from flask_babel import lazy_gettext as _l

from scorekeeper.engine import RuleError, free_list
from scorekeeper.games.base import Adapter, Record, Roster
from scorekeeper.games.forms import GameForm, build, make, numbers

# the games a free list is most often kept for: one tap each on the new-game page
USUAL_NAMES = ("Skat", "Doppelkopf", "Schafkopf", "Binokel", "Jass")


class HandForm(GameForm):
    GROUPS = frozenset({"points"})

    def entry(self) -> dict[str, Any] | None:
        """Each player's points as typed; an empty field is left out (scored 0), and a hand
        with none is the engine's to refuse."""
        if self.has_errors():
            return None
        return {"points": {n: v for n in self.names
                           if (v := self[f"points-{n}"].data) is not None}}

    @classmethod
    def fill(cls, entry: Mapping[str, Any], before: Mapping[str, Any]) -> dict[str, Any]:
        return {f"points-{n}": v for n, v in (entry.get("points") or {}).items()}


@functools.lru_cache(maxsize=256)
def _hand_form(names: tuple[str, ...]) -> type[GameForm]:
    return build(HandForm, numbers("points", list(names)), list(names))


def ahead_of(state: Mapping[str, Any], name: str) -> int:
    """How many players `name` is ahead of: their totals are worse (lower, or higher where the
    lowest total wins). Every place of a ranking, ties shared, whichever way the list wins."""
    scores = {p["name"]: p["score"] for p in state["players"]}
    sign = 1 if state["wins"] == free_list.HIGHEST else -1
    return sum(sign * scores[name] > sign * other for other in scores.values())


class FreeList(Adapter):
    engine = free_list
    FORMS = {"hand": HandForm}
    PARTS = frozenset({"state", "describe", "effect", "changes", "more", "standings", "result",
                       "ending", "head", "style"})
    FIGURES = ("hands", "games", "finished", "wins", "points", "ahead")
    PAYS = _l("everybody pays everybody the difference")
    RECORDS = (Record("wins", _l("Most games won"), season=True), *Adapter.RECORDS)
    EFFECT_KEY = "points"
    SCORED_BY = ("totals",)  # a hand's own points never depend on the hands before
    TOURNAMENT_GAMES = "hands"  # a Durchgang: this many hands at each table (a Preisskat's list)

    def lowest_wins(self, rules: Mapping[str, Any]) -> bool:
        return rules.get("winner") == "lowest"

    def own_name(self, rules: Mapping[str, Any]) -> str:
        return str(rules.get("name") or "")

    def suggestions(self, last: Any) -> dict[str, list[str]]:
        """The usual names, after the name of the group's last free list."""
        named = [self.own_name(last.rules)] if last is not None else []
        return {"name": list(dict.fromkeys(n for n in (*named, *USUAL_NAMES) if n))}

    def form(self, kind: str, state: Mapping[str, Any], rules: Mapping[str, Any], roster: Roster,
             formdata: Any = None, data: Mapping[str, Any] | None = None,
             error: RuleError | None = None) -> GameForm:
        names = tuple(p["name"] for p in state["players"])
        return make(_hand_form(names), formdata, data)

    def table_context(self, game: Any, state: Mapping[str, Any]) -> dict[str, Any]:
        """Whether the list goes above the form: its names fit across a small phone (up to
        four short ones). Else the totals go there and the list, its names upright, under it."""
        names = [p["name"] for p in state["players"]]
        return {"list_on_top": len(names) <= 4 and sum(map(len, names)) <= 28}

    def figures(self, game: Any, player: Mapping[str, Any]) -> dict[str, int]:
        """A game counts once it is over or ended; its winner is who alone is ahead then (a
        list the players end themselves has no winner by its rules, and is won all the same)."""
        state = game.state
        over = state["finished"] or game.status == "closed"
        return {"hands": state["hands_played"], "games": int(over),
                "finished": int(state["finished"]),
                "wins": int(over and state["leaders"] == [player["name"]]),
                "points": player["score"], "ahead": ahead_of(state, player["name"])}

    def ranking_key(self, figures: Mapping[str, int], money_cents: int) -> tuple[int, ...]:
        """Ahead of more players is ahead, whichever total wins; equal totals tie."""
        return (figures.get("ahead", 0),)

    def transfers(self, results: Mapping[str, tuple[Mapping[str, int], int]]
                  ) -> list[tuple[str, str, Fraction]]:
        """Every two players settle the difference of their totals: of their money, divided by
        the number at the table (with a list that adds up to 0 as well: each one's payments
        still add up to its money)."""
        table = len(results)
        return [(payer, payee, Fraction(gained - lost, table))
                for payee, (_f, gained) in results.items()
                for payer, (_g, lost) in results.items() if gained > lost]

    def standings(self, rows: list[dict[str, Any]]) -> dict[str, Any]:
        """Wins first, then how many players each finished ahead of (fair whichever total
        wins), then money."""
        return {"rows": sorted(rows, key=lambda r: (-r["wins"], -r["ahead"], -r["money_cents"],
                                                    r["player"]))}
