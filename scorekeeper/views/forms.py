"""Flask-WTF forms of the shared pages, on the app's `Form` (scorekeeper/games/forms.py, where
the games' entry forms are built too); the rule options of a new game by `rules_form`."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Collection
from decimal import Decimal
from typing import Any
from urllib.parse import urlsplit

from flask_babel import get_locale, gettext
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    DateField,
    Field,
    HiddenField,
    IntegerField,
    SelectField,
    StringField,
    TextAreaField,
)
from wtforms.fields.choices import SelectChoice
from wtforms.validators import (
    DataRequired,
    InputRequired,
    Length,
    NumberRange,
    Optional,
    Regexp,
    ValidationError,
)
from wtforms.widgets import TextInput

from scorekeeper.games.forms import Form
from scorekeeper.group import names
from scorekeeper.group.names import name_error
from scorekeeper.i18n import is_money, option_label, translate


def valid_name(form, field) -> None:
    problem = name_error(field.data or "")
    if problem:
        raise ValidationError(problem)


def printable(form, field) -> None:
    """No control or invisible characters (bidi controls, zero-width spaces)."""
    if not names.printable(field.data or ""):
        raise ValidationError(_l("Please use letters, digits and spaces."))


NAME = valid_name
PRINTABLE = printable


class GroupForm(Form):
    name = StringField(_l("Name of your Stammtisch"),
                       validators=[DataRequired(), Length(max=60), PRINTABLE])


class PlayerForm(Form):
    name = StringField(_l("Name"), validators=[DataRequired(), Length(max=40), NAME])
    next = HiddenField()  # the page to go back to (a plain path on this site, see local_path)


class SeatingForm(Form):
    """Who plays a new game, in order, and who deals first: one `seat-<name>` box per player
    who may sit down (see `seating_form`); `order` lists the names in the order they were
    tapped."""

    order = TextAreaField()
    first_dealer = StringField(validators=[Optional(), Length(max=40)])
    names: list[str]

    def chosen(self) -> list[str]:
        """The ticked players in the order they were tapped."""
        order = _listed(self.order.data)
        order += [n for n in self.names if n not in order]
        return [n for n in order if n in self.names and self[f"seat-{n}"].data]


def _listed(text: str | None) -> list[str]:
    return [n.strip() for n in (text or "").split("\n") if n.strip()]


def seating_form(names: list[str], formdata: Any = None) -> SeatingForm:
    """The seating form with a box for each of `names` (the group's players) and, when posted,
    for each name the page listed (somebody typed in on the page)."""
    if formdata is not None:
        names = list(dict.fromkeys(_listed(formdata.get("order")) + names))
    fields = {f"seat-{name}": BooleanField(name) for name in names}
    form_class = type("SeatingForm", (SeatingForm,), {**fields, "names": names})
    return form_class(formdata=formdata)


class PaymentForm(Form):
    """Mark a settlement payment as paid (`paid` 1) or take the mark back (0)."""

    payer = StringField(validators=[DataRequired(), Length(max=40)])
    payee = StringField(validators=[DataRequired(), Length(max=40)])
    cents = IntegerField(validators=[DataRequired()])
    paid = IntegerField(validators=[Optional()])


class RoundingForm(Form):
    """What the group rounds settlement payments to (cents; 0: to the cent)."""

    rounding = SelectField(_l("Round payments to"), coerce=int, validate_choice=True)


class ChampionForm(Form):
    """How the group's season champion is decided (Group.champion_by, champion_share)."""

    champion_by = SelectField(_l("The champion is"), validate_choice=True, choices=[
        SelectChoice("money", _l("who won the most money")),
        SelectChoice("average", _l("who won the most per evening"))])
    champion_share = IntegerField(
        _l("Per evening: counts who played at least this share of the evenings, in per cent"),
        validators=[InputRequired(), NumberRange(min=1, max=100)])  # 0 is out of range, not missing


PIN = Regexp(r"^[0-9]{4,8}$", message=_l("Please enter 4 to 8 digits."))


class PinJoinForm(Form):
    """Join a group without its link: the group's name and its PIN."""

    name = StringField(_l("Name of your Stammtisch"), validators=[DataRequired(), Length(max=100)])
    pin = StringField(_l("PIN"), validators=[DataRequired(), PIN],
                      render_kw={"inputmode": "numeric", "autocomplete": "off"})


class PinForm(Form):
    """Set the group's PIN (empty: no PIN)."""

    pin = StringField(_l("PIN (4 to 8 digits, empty for none)"), validators=[Optional(), PIN],
                      render_kw={"inputmode": "numeric", "autocomplete": "off"})


class OwnerForm(Form):
    """Whose phone this is (0: nobody's): the history names the player instead of the phone."""

    player = SelectField(_l("This phone belongs to"), coerce=int, validate_choice=True)


class EveningForm(Form):
    place = StringField(_l("Location"), validators=[Optional(), Length(max=100), PRINTABLE])


class ConfirmForm(Form):
    """A bare form with CSRF protection, for one-button actions (undo, close)."""

    seq = IntegerField(validators=[Optional()])


class RatingsForm(Form):
    """Whether the group's pages show skill ratings."""

    ratings = BooleanField(_l("Show skill ratings"))


def local_path(target: str | None) -> str | None:
    """`target` if it is a plain path on this site, else None (never an open redirect)."""
    if not target or not target.startswith("/") or "\\" in target:
        return None
    if any(ord(c) < 32 for c in target):
        return None
    parts = urlsplit(target)
    return target if not parts.scheme and not parts.netloc and not target.startswith("//") else None


# --- the rule options of a new game --------------------------------------------------------------

class _Between:
    """A number from `low` to `high` (WTForms' NumberRange fails on a number of 309 digits)."""

    def __init__(self, low: Any, high: Any, shown: Any = str) -> None:
        self.low, self.high, self.shown = low, high, shown
        self.field_flags = {"min": low, "max": high}  # a number input's min and max attributes

    def __call__(self, form, field) -> None:
        if field.data is not None and not self.low <= field.data <= self.high:
            raise ValidationError(gettext("Please enter a number from %(low)s to %(high)s.",
                                          low=self.shown(self.low), high=self.shown(self.high)))


def _multiple_of(n: int):
    def check(form, field) -> None:
        if field.data is not None and field.data % n:
            raise ValidationError(gettext("Please enter a multiple of %(n)s.", n=n))
    return check


class EuroField(Field):
    """An amount in euros as people type it: "0,50", "0.50" or "1" (one euro). A text field
    with the decimal keypad (a number field shows no comma and turns a German "0,20" into
    "020"), shown as the phone's language writes it: 0,50 in German and Dutch, 0.50 in English.
    Anything else is refused at the field in words; `data` is a Decimal of whole cents."""

    widget = TextInput()
    AMOUNT = re.compile(r"\s*([0-9]{1,12})(?:[.,]([0-9]{1,12}))?\s*€?\s*")

    def process_formdata(self, valuelist: list[Any]) -> None:
        text = str(valuelist[0]) if valuelist else ""
        self.data = None
        if not text.strip():
            return
        found = self.AMOUNT.fullmatch(text)
        if not found:
            raise ValueError(gettext("Please enter an amount in euros, like %(example)s.",
                                     example=euros(Decimal("0.50"))))
        whole, part = found.groups()
        part = (part or "").rstrip("0")
        if len(part) > 2:
            raise ValueError(gettext("Please enter euros and whole cents, like 0.10."))
        self.data = Decimal(f"{whole}.{part.ljust(2, '0')}")

    def _value(self) -> str:
        if self.raw_data:  # what was typed, as it was typed
            return str(self.raw_data[0])
        return euros(self.data) if self.data is not None else ""


def euros(amount: Decimal) -> str:
    """An amount as the phone's language writes it, without the currency: 0,50 or 0.50."""
    text = f"{amount:.2f}"
    return text.replace(".", ",") if str(get_locale()) in ("de", "nl") else text


class NamesAndNumbersField(Field):
    """A mapping rule option (a table's local bids and their values) typed on one line:
    "leere 4, kleiner_mann 2" ("=" or ":" between a name and its number are fine too); `data` is
    the mapping, checked by the engine. Shown the same way."""

    widget = TextInput()
    PAIR = re.compile(r"\s*([^\s=:,;]+)\s*[=: ]\s*(-?[0-9]{1,9})\s*")

    def process_formdata(self, valuelist: list[Any]) -> None:
        if not valuelist:  # not sent at all: the rules shown stay (an empty field is none)
            return
        text = str(valuelist[0])
        self.data = {}
        for part in filter(str.strip, re.split(r"[,;\n]", text)):
            found = self.PAIR.fullmatch(part)
            if not found:
                raise ValueError(gettext("Please write a name and a number, like %(example)s.",
                                         example="leere 4, halbe 2"))
            self.data[found.group(1).casefold()] = int(found.group(2))

    def _value(self) -> str:
        if self.raw_data:  # what was typed, as it was typed
            return str(self.raw_data[0])
        return ", ".join(f"{name} {number}" for name, number in (self.data or {}).items())


def _option_field(option: Any) -> Field:
    """The field for one rule option: its explanation as the label, its bounds as validators."""
    label = _l(option.help)
    if option.kind == "bool":
        return BooleanField(label)
    if option.kind == "text":
        return StringField(label, filters=[lambda text: text.strip() if text else text],
                           validators=[InputRequired() if option.required else Optional(),
                                       Length(option.minimum, option.maximum), printable],
                           render_kw={"autocomplete": "off"})
    if option.kind == "mapping":
        return NamesAndNumbersField(label)
    if option.kind == "choice":
        return SelectField(label, choices=[SelectChoice(str(c), _l(option.labels.get(c) or str(c)))
                                           for c in option.choices])
    if is_money(option):
        return EuroField(_l("%(what)s, in euros", what=_l(option.help)),
                         validators=[Optional(), _Between(Decimal(option.minimum) / 100,
                                                          Decimal(option.maximum) / 100,
                                                          shown=euros)],
                         render_kw={"inputmode": "decimal"})
    checks = [Optional(), _Between(option.minimum, option.maximum)]
    if option.multiple_of:
        checks.append(_multiple_of(option.multiple_of))
    none = option.labels.get(None)  # what an empty field means ("no target")
    return IntegerField(label, validators=checks,
                        render_kw={"placeholder": _l(none)} if none else None)


def _shown(option: Any, value: Any) -> Any:
    if option.kind == "choice":
        return str(value)
    return Decimal(value) / 100 if is_money(option) else value


def rules_form(game: Any, rules: dict[str, Any], formdata: Any = None, prefix: str = "rule",
               leave_out: Collection[str] = ()) -> FlaskForm:
    """The game's rule options as a form (fields `<prefix>-<option>`), showing `rules`; the
    options in `leave_out` are set otherwise (a tournament's games per Durchgang)."""
    options = [o for o in game.OPTIONS if o.name not in leave_out]
    form_class = type("RulesForm", (Form,), {o.name: _option_field(o) for o in options})
    data = {o.name: _shown(o, rules.get(o.name, o.default)) for o in options}
    return form_class(formdata=formdata, data=data, prefix=prefix, meta={"csrf": False})


def rules_said(game: Any, rules: dict[str, Any], leave_out: Collection[str] = ()
               ) -> list[tuple[str, str]]:
    """The options of `rules` that differ from the game's defaults, each as its field's label
    and its value in words (a tournament's page: what its tables play by)."""
    return [(translate(o.help), option_label(o, rules[o.name])) for o in game.OPTIONS
            if o.name in rules and o.name not in leave_out and rules[o.name] != o.default]


def chosen_rules(form: FlaskForm, game: Any) -> dict[str, Any]:
    """The options of a validated rules form that differ from the defaults, as the engine
    takes them (choices as their values, money in cents)."""
    rules = {}
    for option in (o for o in game.OPTIONS if o.name in form):
        value = form[option.name].data
        if option.kind == "choice":
            value = next((c for c in option.choices if str(c) == value), option.default)
        elif value is None or value == "" and option.kind == "text":
            value = option.default
        elif is_money(option):
            value = int(value * 100)
        if value != option.default:
            rules[option.name] = value
    return rules


class KasseForm(Form):
    """A deposit into the Kasse (a fine, a fee) or a withdrawal from it (what it paid for): an
    amount typed in euros as people type it ("12,50"), what it was, and the day."""

    kind = SelectField(_l("What"), default="deposit",
                       choices=[SelectChoice("deposit", _l("Paid in (fine, fee)")),
                                SelectChoice("withdrawal",
                                             _l("Paid out (what the Kasse paid for)"))])
    amount = EuroField(_l("Amount in euros"),
                       # InputRequired, not DataRequired: that would drop the field's own
                       # words for "12,5x" (its data is None) and say only "enter an amount"
                       validators=[InputRequired(message=_l("Please enter an amount.")),
                                   _Between(Decimal("0.01"), Decimal(10**7), shown=euros)])
    note = StringField(_l("Note"), validators=[DataRequired(message=_l("Please say what it was.")),
                                               Length(max=200), PRINTABLE])
    day = DateField(_l("Day"), validators=[Optional(), _Between(dt.date(1990, 1, 1),
                                                                dt.date(2099, 12, 31))],
                    render_kw={"type": "date"})

    def validate_amount(self, field: EuroField) -> None:
        """Spaces alone pass InputRequired (the text is not empty) but hold no amount."""
        if field.data is None and not field.errors:
            raise ValidationError(gettext("Please enter an amount."))

    # the amount in cents the member saw take the Kasse below zero, and tapped again for
    confirmed = HiddenField()


class SignoffForm(Form):
    """A player's word on the evening's result: it is right ("ok"), or an objection and why."""

    player = StringField(validators=[DataRequired(), Length(max=40)])
    verdict = SelectField(choices=[SelectChoice("ok"), SelectChoice("objection")])
    note = StringField(_l("What is wrong?"), validators=[Length(max=200), PRINTABLE])

    def validate_note(self, field: StringField) -> None:
        if self.verdict.data == "objection" and not (field.data or "").strip():
            raise ValidationError(gettext("Please say what is wrong."))


class ReopenForm(Form):
    reason = StringField(_l("Why reopen it?"),
                         validators=[DataRequired(message=_l("Please say why it is reopened.")),
                                     Length(max=200), PRINTABLE])


class FineForm(Form):
    """A fine of the group's catalogue: its name, its price and who pays it."""

    # ids of their own: the Kasse's page has the deposit form's `amount` too
    name = StringField(_l("Fine"), id="fine-name",
                       validators=[DataRequired(), Length(max=60), PRINTABLE])
    amount = EuroField(_l("Price in euros"), id="fine-amount",
                       validators=[InputRequired(message=_l("Please enter an amount.")),
                                   _Between(Decimal("0.01"), Decimal(10**5), shown=euros)])
    kind = SelectField(_l("Who pays"), id="fine-kind", default="player", choices=[
        SelectChoice("player", _l("the player it is booked on")),
        SelectChoice("others", _l("everybody else at the table (a round on the house)")),
        SelectChoice("all", _l("everybody at the table (an evening fee)"))])

    def validate_amount(self, field: EuroField) -> None:
        if field.data is None and not field.errors:
            raise ValidationError(gettext("Please enter an amount."))


class BookFineForm(Form):
    """One tap at the evening: this fine on this player (none for a fine everybody pays)."""

    fine = IntegerField(validators=[InputRequired(), NumberRange(1, 2**31 - 1)])
    player = StringField(validators=[Optional(), Length(max=40)])


class SignoffHoursForm(Form):
    """How long after the players were asked an evening without objections locks by itself."""

    hours = SelectField(_l("Signed off by itself after"), coerce=int, default=24,
                        choices=[SelectChoice(h, _l("%(n)s hours", n=h)) for h in (6, 12, 24, 48)]
                        + [SelectChoice(168, _l("a week"))])


class TournamentForm(Form):
    """A tournament night: its name, day and game, its Durchgänge and the games a table plays
    in each, the entry fee and prizes in euros, and the start list (a name a line)."""

    name = StringField(_l("Name"), validators=[InputRequired(), Length(1, 100), printable])
    kind = SelectField(_l("Game"), render_kw={"data-shows": ""})  # its rule options (page.js)
    day = DateField(_l("Day"), validators=[InputRequired()])
    rounds = IntegerField(_l("Durchgänge (the seats are drawn again for each)"), default=2,
                          validators=[InputRequired(), NumberRange(1, 10)])
    games = IntegerField(_l("Games a table plays in a Durchgang (Hartenjagen: one game, to its "
                            "target)"), default=24,
                         validators=[InputRequired(), NumberRange(1, 200)])
    entry_fee = EuroField(_l("Entry fee, in euros"), validators=[Optional()],
                          render_kw={"inputmode": "decimal"})
    prizes = StringField(_l("Prizes in euros, first place first (for example 50, 30, 20)"),
                         validators=[Optional(), Length(max=200)])
    entrants = TextAreaField(_l("Entrants, one name a line (start numbers in this order)"),
                             validators=[InputRequired(), Length(max=20_000)],
                             render_kw={"rows": 8})
    # the form's key (a uuid, made with the page): sent twice, it sets up one tournament
    key = HiddenField("", validators=[Optional(), Regexp(r"^[0-9A-Za-z-]{1,64}$")])

    def validate_prizes(self, field: Field) -> None:
        self.prize_cents = []
        typed = filter(str.strip, re.split(r"[;\s]+|,(?=\s)", field.data or ""))
        # "50,30,20": whole amounts run together with commas (a single comma is a decimal one)
        for part in (piece for amount in typed for piece in (
                amount.split(",") if re.fullmatch(r"[1-9][0-9]*(,[1-9][0-9]*){2,}", amount)
                else [amount])):
            found = EuroField.AMOUNT.fullmatch(part)
            if not found:
                raise ValidationError(gettext("Please enter amounts in euros, like %(example)s.",
                                              example="50, 30, 20"))
            whole, cents = found.groups()
            self.prize_cents.append(int(whole) * 100 + int((cents or "0").ljust(2, "0")[:2]))


class EntrantForm(Form):
    name = StringField(_l("Late entrant"), validators=[InputRequired(), valid_name])


class TypedDrawForm(Form):
    """A draw made on paper: a table a line, the start numbers in the order of play."""

    tables = TextAreaField(_l("The draw on paper: a table a line, its start numbers in the order "
                              "of play (for example 3 11 7 2)"),
                           validators=[InputRequired(), Length(max=5000)], render_kw={"rows": 6})

    def validate_tables(self, field: Field) -> None:
        self.seats = []
        for line in filter(str.strip, (field.data or "").splitlines()):
            numbers = re.split(r"[\s,;]+", line.strip())
            if not all(n.isdigit() and len(n) <= 4 for n in numbers):
                raise ValidationError(gettext("Please write start numbers only, a table a line."))
            self.seats.append([int(n) for n in numbers])


class WithdrawForm(Form):
    """Who of the start list withdraws (a choice of the page's list of those still in)."""

    entrant = IntegerField(validators=[InputRequired()])


class VoidForm(Form):
    reason = StringField(_l("Why it is voided"), validators=[DataRequired(), Length(1, 200),
                                                             printable],
                         filters=[lambda text: text.strip() if text else text])
