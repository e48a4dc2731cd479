"""Zehner in the web app: a form with each player's points, the wins in the standings."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask_babel import gettext

from scorekeeper.engine import RuleError
from scorekeeper.games.base import Adapter, Roster
from scorekeeper.games.forms import GameForm, build, make, numbers

from . import zehner


class HandForm(GameForm):
    GROUPS = frozenset({"points"})

    def entry(self) -> dict[str, Any] | None:
        if self.has_errors():
            return None
        points = {n: v for n in self.names if (v := self[f"points-{n}"].data)}
        if not points:
            self.problems["points"] = gettext("Please enter the points.")
            return None
        return {"points": points}

    @classmethod
    def fill(cls, entry: Mapping[str, Any], before: Mapping[str, Any]) -> dict[str, Any]:
        return {f"points-{n}": v for n, v in (entry.get("points") or {}).items()}


@functools.lru_cache(maxsize=64)
def _hand_form(names: tuple[str, ...]) -> type[GameForm]:
    return build(HandForm, numbers("points", list(names)), list(names))


class Zehner(Adapter):
    engine = zehner
    FORMS = {"hand": HandForm}
    PARTS = frozenset({"state", "describe", "effect", "standings", "result", "ending", "head"})
    TEMPLATES = str(Path(__file__).parent / "templates")
    DOCS = str(Path(__file__).parent / "docs")
    FIGURES = ("hands", "games", "wins", "points")
    EFFECT_KEY = "points"
    SCORED_BY = ("totals",)

    def form(self, kind: str, state: Mapping[str, Any], rules: Mapping[str, Any], roster: Roster,
             formdata: Any = None, data: Mapping[str, Any] | None = None,
             error: RuleError | None = None) -> GameForm:
        names = tuple(p["name"] for p in state["players"])
        return make(_hand_form(names), formdata, data)

    def figures(self, game: Any, player: Mapping[str, Any]) -> dict[str, int]:
        state = game.state
        return {"hands": state["hands_played"], "games": int(state["finished"]),
                "wins": int(state["winner"] == player["name"]), "points": player["total"]}

    def standings(self, rows: list[dict[str, Any]]) -> dict[str, Any]:
        return {"rows": sorted(rows, key=lambda r: (-r["wins"], -r["money_cents"], r["player"]))}
