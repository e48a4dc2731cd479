"""Vier-Anderle in the web app: the hand form, table changes, the pot and the Kasse.

The pot carries over: a closed game's pot rule (`pot_at_end`) may leave stakes in the group's
Kasse, and the group's next game of this kind starts with exactly that pot, at the stake it was
won at. In a settlement the Kasse gains what a game leaves in it and pays in what a game takes
out (`money`).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any, ClassVar

from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from wtforms import BooleanField, HiddenField, SelectField, StringField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import Length, Optional

from scorekeeper.engine import RuleError, vier_anderle
from scorekeeper.games.base import Adapter, Record, Roster
from scorekeeper.games.forms import GameForm, build, make, numbers, ticks
from scorekeeper.group.names import name_error
from scorekeeper.i18n import rule_message
from scorekeeper.web.display import money


class HandForm(GameForm):
    GROUPS = frozenset({"tricks", "playing"})
    SHAPED_BY = ("hand_type",)  # type 1 reads no "plays" ticks
    hand_type: ClassVar[int]

    def entry(self) -> dict[str, Any] | None:
        tricks = {n: v for n in self.names if (v := self[f"tricks-{n}"].data)}
        if self.has_errors():
            return None
        if self.hand_type == 1:
            return {"tricks": tricks}
        playing = [n for n in self.names if self[f"playing-{n}"].data]
        if not playing and not tricks and not self.nobody.data:
            # an empty form is a slip of the thumb more often than a hand nobody played
            self.problems["playing"] = gettext("Tick who plays, or “Nobody plays”.")
            return None
        if len(playing) == 1 and not tricks:
            return {"playing": playing}  # who plays alone takes all the tricks
        return {"playing": playing, "tricks": tricks}

    @classmethod
    def fill(cls, entry: Mapping[str, Any], before: Mapping[str, Any]) -> dict[str, Any]:
        data: dict[str, Any] = {f"tricks-{n}": v for n, v in (entry.get("tricks") or {}).items()}
        data.update({f"playing-{n}": True for n in entry.get("playing") or []})
        data["nobody"] = entry.get("playing") == []
        return data


def joined_after(table: list[str], seated: list[str]) -> str:
    """Who the players sitting down in a table change sit after ("" for the end)."""
    for i, name in enumerate(table):
        if name not in seated and i > 0 and table[i - 1] in seated:
            return table[i - 1]
    return ""


class TableForm(GameForm):
    """A table change: who sits at the table, and where those who sit down take their seats.

    Players who stay keep their order; those who sit down (new, or back) sit together after the
    player chosen in `after` (between that player and the next), else after the last one. A seat
    next to a player who gets up is that player's seat: they sit after the nearest player before
    it who stays. The form offers the seats between players who stay and the dealers at the new
    table, as far as it knows them (`offer`).
    """

    PART = "table"
    GROUPS = frozenset({"table", "dealer"})
    seated: ClassVar[list[str]]
    roster: Roster  # the group's players: somebody who sits down keeps the group's spelling

    def entry(self) -> dict[str, Any] | None:
        new_name = (self.new_player.data or "").strip()
        problem = name_error(new_name) if new_name else None
        if problem:
            self.field_error("new_player", problem)
            return None
        if self.has_errors():
            return None
        entry: dict[str, Any] = {"table": self.new_table()}
        if self.dealer.data:
            entry["dealer"] = self.dealer.data
        return entry

    def sides(self) -> tuple[list[str], list[str]]:
        """Who stays (in seating order) and who sits down, as the form holds it."""
        chosen = [n for n in self.names if self[f"seat-{n}"].data]
        new_name = (self.new_player.data or "").strip()
        if new_name and not name_error(new_name):
            new_name = self.roster.spelled(new_name)
            chosen += [] if new_name in chosen else [new_name]
        staying = [n for n in self.seated if n in chosen]
        return staying, [n for n in chosen if n not in staying]

    def seat(self, staying: list[str]) -> str:
        """Who those who sit down sit after ("": after the last who stays): the player chosen,
        or for a player who gets up the nearest one before them who stays (their seat)."""
        after = self.after.data or ""
        if after in self.seated and after not in staying:
            before = self.seated[:self.seated.index(after)]
            after = next((n for n in reversed(before) if n in staying), "")
        return "" if staying and after == staying[-1] else after

    def new_table(self) -> list[str]:
        staying, joining = self.sides()
        seat = self.seat(staying)
        at = staying.index(seat) + 1 if seat in staying else len(staying)
        return staying[:at] + joining + staying[at:]

    def offer(self) -> None:
        """Only what makes sense for the table after the change, as far as the form knows it
        (what was ticked, else the table as it is): the seats between two players who stay,
        and the dealers who sit at the new table."""
        staying, _joining = self.sides()
        if len(staying) > 1:
            self.after.choices = [
                SelectChoice("" if i == len(staying) - 1 else who,
                             _l("between %(a)s and %(b)s", a=who,
                                b=staying[(i + 1) % len(staying)]))
                for i, who in enumerate(staying)]
        else:  # one seat only, or a whole new table
            self.after.choices = [SelectChoice("", _l("next to %(name)s", name=staying[0])
                                               if staying else "–")]
        self.after.data = self.seat(staying)
        self.dealer.choices = [*self.dealer.choices[:1],
                               *(SelectChoice(n, n) for n in self.new_table())]

    @classmethod
    def fill(cls, entry: Mapping[str, Any], before: Mapping[str, Any]) -> dict[str, Any]:
        table = list(entry.get("table") or [])
        return {**{f"seat-{n}": True for n in table}, "table": "1",
                "after": joined_after(table, list(before.get("seated", []))),
                "dealer": entry.get("dealer") or ""}


@functools.lru_cache(maxsize=256)
def _hand_form(seated: tuple[str, ...], hand_type: int) -> type[GameForm]:
    names = list(seated)
    return build(HandForm, {**numbers("tricks", names), **ticks("playing", names),
                            "nobody": BooleanField(_l("Nobody plays"))},
                 names, hand_type=hand_type)


@functools.lru_cache(maxsize=256)
def _table_form(names: tuple[str, ...], seated: tuple[str, ...], last_dealer: str | None
                ) -> type[GameForm]:
    usual = (_l("as usual (after %(name)s)", name=last_dealer)
             if last_dealer else _l("as usual"))
    # the seats and the dealers are the table's after the change: each form offers its own
    fields = {**ticks("seat", list(names)), "table": HiddenField(default="1"),
              "new_player": StringField(_l("Someone new"),
                                        validators=[Optional(), Length(max=40)]),
              "after": SelectField(_l("Whoever sits down takes the seat"), choices=[],
                                   validate_choice=False, default=""),
              "dealer": SelectField(_l("Deals next"), validate_choice=False, default="",
                                    choices=[SelectChoice("", usual)])}
    return build(TableForm, fields, list(names), seated=list(seated))


class VierAnderle(Adapter):
    engine = vier_anderle
    FORMS = {"hand": HandForm, "table": TableForm}
    PARTS = frozenset({"state", "describe", "effect", "changes", "more", "standings", "result",
                       "ending", "head", "style"})
    FIGURES = ("hands", "games", "best_pot_cents", "best_pot_hand")
    BEST = frozenset({"best_pot_cents"})
    WHERE = frozenset({"best_pot_hand"})
    RECORDS = (Record("best_pot_cents", _l("Biggest pot won"), hand="best_pot_hand", money=True),
               *Adapter.RECORDS)
    EFFECT_KEY = "payments"
    SCORED_BY = ("payments", "pot")
    TRICKS = vier_anderle.TRICKS
    FOLDED = frozenset({"table"})  # a table change: seldom, so the table page loads it when opened
    CARRIED_RULES = frozenset({"starting_pot", "stake_cents"})  # the Kasse's pot, at its stake

    def entry_name(self, seq: int, effect: Mapping[str, Any] | None) -> str:
        """A table change is an entry but no hand: entry numbers run ahead of the hands."""
        if (effect or {}).get("kind") == "table":
            return gettext("Table change")
        return super().entry_name(seq, effect)

    def is_hand(self, values: Mapping[str, Any]) -> bool:
        return self.form_kind(values) == "hand"

    def entry_name_of(self, values: Mapping[str, Any], hand: int) -> str:
        return super().entry_name_of(values, hand) if self.is_hand(values) else \
            gettext("Table change")

    def form_kind(self, values: Mapping[str, Any]) -> str:
        return "table" if values.get("table") else "hand"

    def forms(self, state: Mapping[str, Any], rules: Mapping[str, Any], roster: Roster,
              kind: str = "hand", formdata: Any = None, data: Mapping[str, Any] | None = None,
              error: RuleError | None = None, fold: bool = False
              ) -> dict[str, GameForm | None]:
        return {part: None if fold and part in self.FOLDED and part != kind else
                self.form(part, state, rules, roster, *((formdata, data) if part == kind else ()))
                for part in ("hand", "table")}

    def form(self, kind: str, state: Mapping[str, Any], rules: Mapping[str, Any], roster: Roster,
             formdata: Any = None, data: Mapping[str, Any] | None = None,
             error: RuleError | None = None) -> GameForm:
        seated = tuple(state["seated"])
        if kind == "hand":
            return make(_hand_form(seated, state["next_hand_type"]), formdata, data)
        known = [p["name"] for p in state["players"]]
        names = known + [name for name in roster.active if name not in known]
        if formdata is None and data is None:
            data = {f"seat-{n}": True for n in seated}
        form = make(_table_form(tuple(names), seated, state.get("last_dealer")),
                         formdata, data)
        form.roster = roster
        form.offer()
        return form

    def next_game(self, game: Any) -> tuple[list[str], str | None]:
        """The table as it is at the end (after its changes), the deal going on from it."""
        _seating, dealer = super().next_game(game)
        return list(game.state.get("seated") or game.seating), dealer

    def table_context(self, game: Any, state: Mapping[str, Any]) -> dict[str, Any]:
        try:
            return {"close": self.closing(state)}
        except RuleError as error:
            return {"close": {"refused": rule_message(error)}}

    def closing(self, state: Mapping[str, Any]) -> dict[str, Any]:
        """What closing the game now does with its pot (RuleError if it must be played out)."""
        return vier_anderle.close(state)

    @staticmethod
    def pot_rule_text(state: Mapping[str, Any]) -> str:
        """Say what happens to the pot when the game is closed."""
        rule = state["rules"]["pot_at_end"]
        pot = money(state["pot_cents"])
        if rule == "split":
            return gettext("The pot of %(pot)s is shared out equally among the players at the "
                           "table; what cannot be split stays in the Kasse and starts the next "
                           "Vier-Anderle game.", pot=pot)
        if rule == "play-out":
            return gettext("The pot is empty: the game can end.")
        return gettext("The pot of %(pot)s stays in the Kasse and starts the next Vier-Anderle "
                       "game.", pot=pot)

    def new_game_rules(self, last: Any) -> dict[str, Any]:
        """What the Kasse holds for the next game, as its rules: the pot and the stake it was
        won at (empty when it holds nothing). The latest game holds the Kasse's pot while it
        runs; once closed, what its pot rule left in the Kasse."""
        if last is None or last.status != "closed":
            return {}
        pot = self.closing(last.state)["next_starting_pot"]
        return {"starting_pot": pot, "stake_cents": last.state["rules"]["stake_cents"]} \
            if pot else {}

    def check_new_game(self, last: Any, rules: Mapping[str, Any]) -> dict[str, str]:
        """A new game takes in exactly what the Kasse holds, at the stake it was won at."""
        holds = self.new_game_rules(last)
        pot = rules.get("starting_pot", 0)
        if pot != holds.get("starting_pot", 0):
            return {"starting_pot": gettext("The Kasse holds %(held)s stakes, not %(pot)s.",
                                            held=holds.get("starting_pot", 0), pot=pot)}
        stake = rules.get("stake_cents", self.rules({})["stake_cents"])
        if holds and stake != holds["stake_cents"]:
            return {"stake_cents": gettext("The pot in the Kasse was won at a stake of "
                                           "%(stake)s; the next game plays at that stake.",
                                           stake=money(holds["stake_cents"]))}
        return {}

    def money(self, game: Any) -> tuple[dict[str, int], int]:
        """The pot is handled by its `pot_at_end` rule as if the game closed now; a pot that
        must still be played out counts as the Kasse's until it is empty."""
        state = game.state
        stake = state["rules"]["stake_cents"]
        try:
            result = self.closing(state)
        except RuleError:  # play-out with money in the pot: the table still owes it
            balances = {p["name"]: p["balance_cents"] for p in state["players"]}
            return balances, (state["pot"] - state["starting_pot"]) * stake
        return result["balances_cents"], (result["kasse"] - state["starting_pot"]) * stake

    # ranking_key: the default, by money: each player's balance (the pot shared out by its rule)

    def figures(self, game: Any, player: Mapping[str, Any]) -> dict[str, int]:
        return {"hands": player.get("hands", 0), "games": int(game.status == "closed"),
                "best_pot_cents": player.get("best_win", 0) * game.state["rules"]["stake_cents"],
                "best_pot_hand": player.get("best_win_hand", 0)}
