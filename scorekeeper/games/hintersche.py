"""Hintersche in the web app: the deal form with its playoffs, the lines in the standings."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any, ClassVar

from flask_babel import format_date, gettext
from flask_babel import lazy_gettext as _l

from scorekeeper.engine import RuleError, hintersche
from scorekeeper.games.base import Adapter, Record, Roster
from scorekeeper.games.forms import GameForm, build, make, numbers, pick
from scorekeeper.web import charts


def playoff_rows(keys: Any, tied: list[str] | None = None) -> list[list[str]]:
    """The players of each playoff deal among the field names `keys` (`playoff-<i>-<name>`),
    plus a new row for the `tied` players of a playoff still needed."""
    keys = list(keys)
    rows: list[list[str]] = []
    while any(key.startswith(f"playoff-{len(rows)}-") for key in keys):
        prefix = f"playoff-{len(rows)}-"
        rows.append([key.removeprefix(prefix) for key in keys if key.startswith(prefix)])
    if tied:
        rows.append(list(tied))
    return rows


class DealForm(GameForm):
    GROUPS = frozenset({"points", "playoffs", "all_tricks"})
    dealing: ClassVar[list[str]]  # who plays the deal, in seating order
    playoffs: ClassVar[list[list[str]]]

    def entry(self) -> dict[str, Any] | None:
        typed = {name: value for name in self.dealing
                 if (value := self[f"points-{name}"].data) is not None}
        points = self._completed(typed)
        for name in self.dealing:
            if name not in points and not self[f"points-{name}"].errors and not self.problems:
                self.field_error(f"points-{name}", gettext("Please enter the points."))
        deals = []
        for i, row in enumerate(self.playoffs):
            deal = {name: self[f"playoff-{i}-{name}"].data for name in row}
            if all(value is None for value in deal.values()) and not self.has_errors():
                # left empty, as when a tied deal is corrected into one without a tie: the
                # playoffs from here on are dropped, and the engine asks if one is needed
                break
            for name, value in deal.items():
                if value is None and not self[f"playoff-{i}-{name}"].errors:
                    self.field_error(f"playoff-{i}-{name}", gettext("Please enter the points."))
            deals.append(deal)
        if self.has_errors():
            return None
        entry: dict[str, Any] = {"points": points}
        if deals:
            entry["playoffs"] = deals
        if self.all_tricks.data:
            entry["all_tricks"] = self.all_tricks.data
        return entry

    def _completed(self, typed: dict[str, int]) -> dict[str, int]:
        """The points typed, and a score left out filled in as the engine's rules say (only
        once every field typed in reads as a number, else a typing slip would count as left
        out)."""
        if self.has_errors():
            return typed
        try:
            return dict(hintersche.completed({"points": typed}, self.dealing)["points"])
        except RuleError as error:
            self.show(error)
            return typed

    @classmethod
    def fill(cls, entry: Mapping[str, Any], before: Mapping[str, Any]) -> dict[str, Any]:
        data: dict[str, Any] = {f"points-{n}": v for n, v in (entry.get("points") or {}).items()}
        for i, deal in enumerate(entry.get("playoffs") or []):
            data.update({f"playoff-{i}-{n}": v for n, v in deal.items()})
        data["all_tricks"] = entry.get("all_tricks") or ""
        return data


@functools.lru_cache(maxsize=256)
def _deal_form(dealing: tuple[str, ...], rows: tuple[tuple[str, ...], ...]) -> type[GameForm]:
    """The deal form for these players and playoff rows (made once, then reused)."""
    fields = numbers("points", list(dealing))
    for i, row in enumerate(rows):
        fields.update(numbers(f"playoff-{i}", list(row)))
    fields["all_tricks"] = pick(_l("Took all tricks (march)"), list(dealing), optional=True)
    return build(DealForm, fields, list(dealing), dealing=list(dealing),
                 playoffs=[list(row) for row in rows])


class Hintersche(Adapter):
    engine = hintersche
    SEATING_HINT = _l("Who plays? Tap the players in the order of play: anticlockwise round the "
                      "table, starting with the first dealer.")
    FORMS = {"hand": DealForm}
    PARTS = frozenset({"state", "describe", "effect", "changes", "more", "standings", "result",
                       "ending", "head", "details", "seating", "player", "style"})
    FIGURES = ("hands", "games", "rubbers", "lines", "marches", "march_hand", "vier_strich",
               "vier_strich_hand")
    WHERE = frozenset({"march_hand", "vier_strich_hand"})
    PAYS = _l("each line to each opponent")
    RECORDS = (Record("marches", _l("Most marches in a rubber"), hand="march_hand"),
               Record("vier_strich", _l("Vier-Strich lost (games lost with all four marks)"),
                      season=True, hand="vier_strich_hand"),
               Record("lines", _l("Most lines in a rubber")),
               *Adapter.RECORDS)
    EFFECT_KEY = "marks"
    SCORED_BY = ("events",)  # what the deal did (its marks are the whole slate after it)
    # at a tournament a table plays a rubber of this many games; its lines ("Bollen") count,
    # the fewest are best
    TOURNAMENT_GAMES = "rubber_games"
    TOTAL = hintersche.TOTAL

    def form(self, kind: str, state: Mapping[str, Any], rules: Mapping[str, Any], roster: Roster,
             formdata: Any = None, data: Mapping[str, Any] | None = None,
             error: RuleError | None = None) -> GameForm:
        # the fields stay in seating order, deal after deal; the dealer is named above them
        in_deal = state.get("in_deal") or [p["name"] for p in state["players"] if p["in"]]
        dealing = [p["name"] for p in state["players"] if p["name"] in in_deal]
        tied = (error.params.get("tied")
                if error is not None and error.code == f"{self.name}.playoff_needed" else None)
        rows = playoff_rows(formdata.keys() if formdata else (data or {}).keys(), tied)
        return make(_deal_form(tuple(dealing), tuple(map(tuple, rows))), formdata, data)

    def reopening(self, later: int | None) -> str:
        """A table is one rubber: a correction may reopen it after its last game."""
        if later is None:
            return gettext("This correction reopens the finished rubber: it is no longer over.")
        return gettext("This correction reopens the finished rubber, although the next rubber "
                       "(#%(n)s) has already begun: both would be running.", n=later)

    def figures(self, game: Any, player: Mapping[str, Any]) -> dict[str, int]:
        state = game.state
        return {"hands": state["hands_played"], "games": state.get("games_played", 0),
                "rubbers": int(state["finished"]), "lines": player["lines"],
                **{key: player.get(key, 0) for key in ("marches", "march_hand", "vier_strich",
                                                       "vier_strich_hand")}}

    def tournament_score(self, player: Mapping[str, Any]) -> int:
        return int(player["lines"])

    def lowest_wins(self, rules: Mapping[str, Any]) -> bool:
        return True

    def ranking_key(self, figures: Mapping[str, int], money_cents: int) -> tuple[int, ...]:
        """Fewer lines on the frame finish ahead (a line is a game lost); the money follows the
        lines at the tariff, and tells apart nobody else (a game without a tariff is 0)."""
        return (-figures.get("lines", 0), money_cents)

    def transfers(self, results: Mapping[str, tuple[Mapping[str, int], int]]
                  ) -> list[tuple[str, str, Fraction]]:
        """Each line costs its owner the tariff, paid to each opponent: between two players the
        tariff times the difference of their lines, which is the difference of their money
        divided by the number at the table."""
        table = len(results)
        return [(payer, payee, Fraction(gained - lost, table))
                for payee, (_f, gained) in results.items()
                for payer, (_g, lost) in results.items() if gained > lost]

    def standings(self, rows: list[dict[str, Any]]) -> dict[str, Any]:
        rows = sorted(rows, key=lambda r: (-r["lines"], -r["money_cents"], r["player"]))
        # the Bollenkönig: whoever has the most lines (Bollen); several when they share it
        most = max((r["lines"] for r in rows), default=0)
        return {"rows": rows, "koenig": sorted(r["player"] for r in rows
                                               if most and r["lines"] == most)}

    def player_section(self, history: list[Any], args: Mapping[str, str],
                       load: Callable[[int], tuple[Any, list[dict[str, Any]]]]
                       ) -> dict[str, Any] | None:
        sums: dict[int, list[Any]] = {}
        for result, evening in history:
            if result.kind == self.name:
                label = format_date(evening.date, "dd.MM.")
                sums.setdefault(evening.id, [label, 0])[1] += result.figures.get("lines", 0)
        if not sums:
            return None
        return {"chart": charts.bar_chart([(label, n) for label, n in sums.values()],
                                          label=gettext("Lines per evening"),
                                          empty=gettext("No games yet."))}
