"""What the web app asks of a game: one adapter per game, next to its engine module.

An adapter owns everything of its game that the shared views, templates and standings must not
know: the entry forms (built per state, and filled again from a stored entry for an edit), the
templates under ``templates/games/<name>/``, the standings figures, the money and the extras of
a new game or of closing one. The views only ever call the methods below.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import ModuleType
from typing import Any, ClassVar

from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from wtforms import BooleanField, Field, IntegerField, RadioField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import Optional

from .. import engine
from ..i18n import rule_message
from ..views.forms import EntryForm


class Number(IntegerField):
    """A whole number as typed; empty is None. A typing slip is told in players' words and what
    was typed is shown again."""

    def process_formdata(self, valuelist: list[Any]) -> None:
        text = str(valuelist[0]).strip() if valuelist else ""
        self.data = None
        if text:
            try:
                self.data = int(text)
            except ValueError:
                raise ValueError(gettext("Please enter a whole number.")) from None


def pick(label: Any, names: list[str], optional: bool = False) -> RadioField:
    """One of `names` (or nobody): the engine checks the name, so any value is kept as typed."""
    choices = [SelectChoice("", _l("nobody"))] if optional else []
    return RadioField(label, choices=choices + [SelectChoice(n, n) for n in names],
                      validate_choice=False, default="")


class GameForm(EntryForm):
    """An entry form of one game. Besides the fields' own errors it keeps `problems`: the
    engine's messages for a group of fields (``points``), a player (by name) or the whole form
    (``_form``), shown where `problem(key)` is asked for."""

    PART: ClassVar[str] = "hand"  # which of the game's forms (Adapter.form_kind)
    GROUPS: ClassVar[frozenset[str]] = frozenset()  # error fields the form shows as a group
    names: list[str]  # the players the form asks about
    # a correction is shown with what it changes first; confirming it posts the form again with
    # the game's version it was shown at (scoring.edit_entry refuses it if the game moved on)
    confirm = IntegerField(validators=[Optional()])

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.problems: dict[str, str] = {}

    def problem(self, key: str) -> str:
        return self.problems.get(key, "")

    def field_error(self, name: str, message: str) -> None:
        self[name].errors = [*self[name].errors, message]

    def has_errors(self) -> bool:
        return bool(self.problems) or any(field.errors for field in self)

    def show(self, error: engine.RuleError) -> None:
        """Put the engine's message where the player will see it: at the field it names (a part
        of the form, or a player), else above the form."""
        field = error.field if error.field in self.GROUPS or error.field in self.names else "_form"
        self.problems[field] = rule_message(error)

    def entry(self) -> dict[str, Any] | None:
        """The game-record entry the form holds, or None (with errors at the fields)."""
        raise NotImplementedError

    def posted(self) -> list[tuple[str, str]]:
        """The values of the form's fields as they were posted, to post them again."""
        return [(field.name, value) for field in self
                if field.name not in ("csrf_token", "confirm") for value in field.raw_data or ()]

    @classmethod
    def fill(cls, entry: Mapping[str, Any], before: Mapping[str, Any]) -> dict[str, Any]:
        """The form's data that shows a stored entry again; `before` is the game's summary
        before the entry."""
        raise NotImplementedError


def build(base: type[GameForm], fields: dict[str, Field], names: list[str], **attrs: Any
          ) -> type[GameForm]:
    """A form class of `base` with these fields (one per player, so built per state)."""
    return type(base.__name__, (base,), {**fields, "names": names, **attrs})


def numbers(prefix: str, names: list[str]) -> dict[str, Field]:
    return {f"{prefix}-{name}": Number(name) for name in names}


def ticks(prefix: str, names: list[str]) -> dict[str, Field]:
    return {f"{prefix}-{name}": BooleanField(name) for name in names}


class Adapter:
    """The web side of one game; subclasses fill in the class attributes and override what their
    game does differently."""

    engine: ClassVar[ModuleType]
    FORMS: ClassVar[dict[str, type[GameForm]]]  # the entry forms by kind (see form_kind)
    SEATING_HINT: ClassVar[Any] = _l("Who plays? Tap in seating order.")
    FIGURES: ClassVar[tuple[str, ...]] = ()  # what the standings add up per player
    BEST: ClassVar[frozenset[str]] = frozenset()  # figures the standings take the most of
    EFFECT_KEY: ClassVar[str] = ""  # the key of a history row that says what it did to each player
    # what of a history row says how the entry scored: a correction's preview lists the later
    # entries where it differs (empty: the whole row)
    SCORED_BY: ClassVar[tuple[str, ...]] = ()

    @property
    def name(self) -> str:
        return str(self.engine.NAME)

    @property
    def title(self) -> str:
        return str(self.engine.TITLE)

    def template(self, part: str) -> str:
        return f"games/{self.name}/{part}.html"

    def rules(self, rules: Mapping[str, Any]) -> dict[str, Any]:
        """All of a game's rule options, the defaults filled in (as stored, unchecked, for a
        game kept from before an upgrade whose rules the engine now refuses)."""
        return engine.options.as_stored(self.engine.OPTIONS, rules)

    # --- entries -------------------------------------------------------------------------------

    def form_kind(self, values: Mapping[str, Any]) -> str:
        """Which of the game's entry forms posted `values` or shows a stored entry: ``hand``, or
        another part the game has (its template is ``games/<name>/<kind>.html``)."""
        return "hand"

    def forms(self, state: Mapping[str, Any], rules: Mapping[str, Any], group: Any,
              kind: str = "hand", formdata: Any = None, data: Mapping[str, Any] | None = None,
              error: engine.RuleError | None = None) -> dict[str, GameForm]:
        """The entry forms the table page shows, by kind; the one of `kind` holds `formdata`
        (posted) or `data` (a stored entry), the others are empty."""
        return {kind: self.form(kind, state, rules, group, formdata, data, error)}

    def form(self, kind: str, state: Mapping[str, Any], rules: Mapping[str, Any], group: Any,
             formdata: Any = None, data: Mapping[str, Any] | None = None,
             error: engine.RuleError | None = None) -> GameForm:
        """The entry form of `kind` for the game in `state`, played by `rules` (all options)."""
        raise NotImplementedError

    def fill(self, kind: str, entry: Mapping[str, Any], before: Mapping[str, Any]
             ) -> dict[str, Any]:
        """The data of the `kind` form that shows a stored entry again (for an edit)."""
        return self.FORMS[kind].fill(entry, before)

    def entry_name(self, seq: int, effect: Mapping[str, Any] | None) -> str:
        """Entry `seq` as the history and the table call it ("Hand 2"), from what it did."""
        hand = (effect or {}).get("hand")
        return gettext("Hand %(n)s", n=hand) if hand is not None else gettext("Entry %(n)s", n=seq)

    def changed(self, before: Mapping[str, Any], after: Mapping[str, Any]) -> bool:
        """Whether an entry scores differently after a correction (its history rows)."""
        keys = self.SCORED_BY or {*before, *after}
        return any(before.get(key) != after.get(key) for key in keys)

    def make(self, form_class: type[GameForm], formdata: Any, data: Mapping[str, Any] | None
             ) -> GameForm:
        return form_class(formdata=formdata, data=dict(data or {}))

    # --- the table page, a new game, closing ------------------------------------------------

    def table_context(self, game: Any, state: Mapping[str, Any]) -> dict[str, Any]:
        """What the game's own table templates need besides the state."""
        return {}

    def new_game_rules(self, group: Any) -> dict[str, Any]:
        """Rule values a new game of the group starts with (besides the previous game's)."""
        return {}

    def check_new_game(self, group: Any, rules: Mapping[str, Any]) -> dict[str, str]:
        """What is wrong with these rules for a new game of this group, by option."""
        return {}

    def closing(self, state: Mapping[str, Any]) -> dict[str, Any]:
        """What ending the game now does besides what its engine's `ended` says (nothing by
        default); RuleError when it cannot be ended now."""
        return {}

    # --- money and standings ------------------------------------------------------------------

    def money(self, game: Any) -> tuple[dict[str, int], int]:
        """Each player's money from a game in cents, and what the group's cash box gains."""
        return {p["name"]: p["balance_cents"] for p in game.state["players"]}, 0

    def figures(self, game: Any, player: Mapping[str, Any]) -> dict[str, int]:
        """One player's standings figures from a game (its summary's row of the player)."""
        raise NotImplementedError

    def standings(self, rows: list[dict[str, Any]]) -> dict[str, Any]:
        """The game's section of the standings from the summed rows (one per player, with
        ``player``, ``played``, ``money_cents`` and the FIGURES): what its template shows."""
        return {"rows": sorted(rows, key=lambda r: (-r["money_cents"], r["player"]))}

    def player_section(self, history: list[Any], args: Mapping[str, str], group: Any
                       ) -> dict[str, Any] | None:
        """The game's part of a player's page (``games/<name>/player.html``), from the player's
        (result, evening) rows, oldest first; None for none."""
        return None
