"""Flask-WTF forms. Entry forms have one field per player, so their fields are read by
`entry_forms`; these classes give them CSRF protection and the hidden bookkeeping fields."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import HiddenField, IntegerField, StringField
from wtforms.validators import DataRequired, Length, Optional, Regexp

NAME = Regexp(r"^[^<>/\\]+$", message=_l("Please use letters, digits and spaces."))


class GroupForm(FlaskForm):
    name = StringField(_l("Name of your Stammtisch"), validators=[DataRequired(), Length(max=60), NAME])


class PlayerForm(FlaskForm):
    name = StringField(_l("Name"), validators=[DataRequired(), Length(max=40), NAME])


class EveningForm(FlaskForm):
    place = StringField(_l("Place"), validators=[Optional(), Length(max=100)])


class EntryForm(FlaskForm):
    """The hidden fields every entry form carries: the idempotency key and the entry number it
    was made for (a second phone that is late is told, not recorded twice)."""

    key = HiddenField()
    seq = IntegerField(validators=[Optional()])


class ConfirmForm(FlaskForm):
    """A bare form with CSRF protection, for one-button actions (undo, close)."""

    seq = IntegerField(validators=[Optional()])
