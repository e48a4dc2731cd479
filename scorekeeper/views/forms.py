"""Flask-WTF forms. Entry forms have one field per player, so their fields are read by
`entry_forms`; these classes give them CSRF protection and the hidden bookkeeping fields."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import HiddenField, IntegerField, StringField
from wtforms.validators import DataRequired, Length, Optional, Regexp, ValidationError

from .. import club


def name_error(name: str) -> str | None:
    """What is wrong with a player's name, in the user's language; None when it is fine."""
    problem = club.name_problem(name)
    if problem == "reserved":
        return gettext("%(name)s is the group's cash box; please choose another name.",
                       name=name.strip())
    if problem:
        return gettext("Please use up to 40 letters, digits and spaces.")
    return None


def valid_name(form, field) -> None:
    problem = name_error(field.data or "")
    if problem:
        raise ValidationError(problem)


def printable(form, field) -> None:
    """No control or invisible characters (bidi controls, zero-width spaces): club.printable."""
    if not club.printable(field.data or ""):
        raise ValidationError(_l("Please use letters, digits and spaces."))


NAME = valid_name
PRINTABLE = printable


class GroupForm(FlaskForm):
    name = StringField(_l("Name of your Stammtisch"),
                       validators=[DataRequired(), Length(max=60), PRINTABLE])


class PlayerForm(FlaskForm):
    name = StringField(_l("Name"), validators=[DataRequired(), Length(max=40), NAME])


class EveningForm(FlaskForm):
    place = StringField(_l("Place"), validators=[Optional(), Length(max=100), PRINTABLE])


class EntryForm(FlaskForm):
    """The hidden fields every entry form carries: the idempotency key and the entry number it
    was made for (a second phone that is late is told, not recorded twice)."""

    key = HiddenField(validators=[Optional(), Regexp(r"^[0-9A-Za-z-]{1,64}$")])  # the page's uuid
    seq = IntegerField(validators=[Optional()])


class ConfirmForm(FlaskForm):
    """A bare form with CSRF protection, for one-button actions (undo, close)."""

    seq = IntegerField(validators=[Optional()])


def local_path(target: str | None) -> str | None:
    """`target` if it is a plain path on this site, else None (never an open redirect)."""
    if not target or not target.startswith("/") or "\\" in target:
        return None
    if any(ord(c) < 32 for c in target):
        return None
    parts = urlsplit(target)
    return target if not parts.scheme and not parts.netloc and not target.startswith("//") else None
