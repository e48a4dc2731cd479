"""The forms' base classes: every form of the app (`Form`), and the entry forms each game's
adapter builds (`EntryForm` with the hidden fields every entry carries, `GameForm` with the
engine's messages at the fields), with the fields the games' forms are made of."""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Mapping
from typing import Any, ClassVar

from babel import support
from flask_babel import get_locale, gettext
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import BooleanField, Field, HiddenField, IntegerField, RadioField
from wtforms.fields.choices import SelectChoice
from wtforms.i18n import messages_path
from wtforms.validators import Optional, Regexp

from scorekeeper.engine import RuleError
from scorekeeper.i18n import rule_message


@functools.lru_cache(maxsize=8)
def _wtforms_messages(locale: str) -> support.NullTranslations:
    return support.Translations.load(messages_path(), [locale], domain="wtforms")


class _Messages:
    """WTForms' own messages in the user's language, looked up when a message is needed (most
    forms are sent right and need none)."""

    def gettext(self, message: str) -> str:
        return str(_wtforms_messages(str(get_locale() or "de")).gettext(message))

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return str(_wtforms_messages(str(get_locale() or "de")).ngettext(singular, plural, n))


_MESSAGES = _Messages()


class Form(FlaskForm):
    """Every form of the app: Flask-WTF, with WTForms' own messages in the user's language,
    read once per language rather than on every request."""

    class Meta:
        def get_translations(self, form: Any) -> Any:
            return _MESSAGES


class EntryForm(Form):
    """The hidden fields every entry form carries: the idempotency key, the entry number it was
    made for (a second phone that is late is told, not recorded twice) and its shape. The app's
    CSRFProtect checks the token of every POST before the view, so these forms, built twice for
    every hand (the one sent, the next one), do not check it again; the template writes it."""

    class Meta:
        csrf = False

    # (hidden: no label, so WTForms does not make one from the name and translate it)
    key = HiddenField("", validators=[Optional(), Regexp(r"^[0-9A-Za-z-]{1,64}$")])  # a uuid
    seq = IntegerField("", validators=[Optional()])
    shape = HiddenField("")
    SHAPED_BY: tuple[str, ...] = ()  # the form's attributes that change what its fields mean

    def fields_shape(self) -> str:
        """Which fields the form has and what they mean (who deals in, the type of hand): a
        hand typed on a form of another shape, for a table that has changed since, is refused
        rather than read as something else."""
        names = sorted(f.name for f in self if f.name not in ("csrf_token", "key", "seq",
                                                               "shape", "confirm"))
        names += [f"{a}={getattr(self, a)}" for a in self.SHAPED_BY]
        return hashlib.sha256("\n".join(names).encode()).hexdigest()[:16]


class Number(IntegerField):
    """A whole number as typed, negative ones with "-" or the typographic "−"; empty is None. A
    typing slip is told in players' words and what was typed is shown again."""

    def process_formdata(self, valuelist: list[Any]) -> None:
        text = str(valuelist[0]).strip().replace("\u2212", "-") if valuelist else ""
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
    confirm = IntegerField("", validators=[Optional()])

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.problems: dict[str, str] = {}

    def problem(self, key: str) -> str:
        return self.problems.get(key, "")

    def field_error(self, name: str, message: str) -> None:
        self[name].errors = [*self[name].errors, message]

    def has_errors(self) -> bool:
        return bool(self.problems) or any(field.errors for field in self)

    def show(self, error: RuleError) -> None:
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


def make(form_class: type[GameForm], formdata: Any, data: Mapping[str, Any] | None) -> GameForm:
    """A game's entry form of this class, filled with what was posted (`formdata`) or, where
    nothing was, with `data`."""
    return form_class(formdata=formdata, data=dict(data or {}))


def build(base: type[GameForm], fields: dict[str, Field], names: list[str], **attrs: Any
          ) -> type[GameForm]:
    """A form class of `base` with these fields (one per player, so built per state)."""
    return type(base.__name__, (base,), {**fields, "names": names, **attrs})


def numbers(prefix: str, names: list[str]) -> dict[str, Field]:
    return {f"{prefix}-{name}": Number(name) for name in names}


def ticks(prefix: str, names: list[str]) -> dict[str, Field]:
    return {f"{prefix}-{name}": BooleanField(name) for name in names}


