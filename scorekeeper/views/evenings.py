"""Evenings: the games of one night at the table, their settlement, the fines booked at the
table, and signing the evening off."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import (
    Blueprint,
    abort,
    jsonify,
    make_response,
    redirect,
    render_template,
    url_for,
)
from flask_babel import gettext as _
from sqlalchemy import select

from scorekeeper import games
from scorekeeper.changes import evenings as change
from scorekeeper.changes.answers import Done, Refused
from scorekeeper.db import db
from scorekeeper.evenings import accounts, ledger, signoff
from scorekeeper.models import Evening, Fine, Group, KasseEntry
from scorekeeper.table import versions
from scorekeeper.views.common import (
    device,
    get_evening_or_404,
    get_group_or_404,
    get_owned_or_404,
    tell,
)
from scorekeeper.views.forms import (
    BookFineForm,
    ConfirmForm,
    EveningForm,
    PaymentForm,
    ReopenForm,
    RoundingForm,
    SignoffForm,
    SignoffHoursForm,
)
from scorekeeper.web.display import money

bp = Blueprint("evenings", __name__, url_prefix="/g/<slug>/evenings")


@bp.get("")
def index(slug: str):
    group = get_group_or_404(slug, view=True)
    evenings = db.session.scalars(select(Evening).where(Evening.group_id == group.id)
                                  .order_by(Evening.date.desc(), Evening.id.desc())).all()
    return render_template("evenings/index.html", group=group, evenings=evenings,
                           form=EveningForm())


@bp.post("")
def create(slug: str):
    """'Neuer Abend': one tap opens today's evening (at a place, if one is given)."""
    group = get_group_or_404(slug)
    form = EveningForm()
    if not form.validate_on_submit():
        abort(400)
    evening = change.open_tonight(group, (form.place.data or "").strip())
    if evening is None:  # a second tap at the same moment made it already
        return redirect(url_for("evenings.index", slug=slug))
    return redirect(url_for("evenings.show", slug=slug, evening_id=evening.id))


@bp.get("/<int:evening_id>")
def show(slug: str, evening_id: int):
    group = get_group_or_404(slug, view=True)
    return _show(group, get_evening_or_404(group, evening_id))


def _show(group: Group, evening: Evening, status: int = 200,
          signoff_form: SignoffForm | None = None, reopen_form: ReopenForm | None = None,
          action_form: ConfirmForm | None = None):
    result = accounts.settle(evening, group.rounding_cents)
    asked = signoff.status(evening, group, signoff.settled_players(result))
    return render_template("evenings/show.html", group=group, evening=evening,
                           games=result.games, settlement=result, kasse=accounts.KASSE,
                           kasse_part=ledger.evening_part(group, evening),
                           rounding_form=_rounding_form(group.rounding_cents),
                           signoff=asked, fines=ledger.catalogue(group),
                           signoff_form=signoff_form or SignoffForm(),
                           reopen_form=reopen_form or ReopenForm(),
                           action_form=action_form or ConfirmForm(),
                           hours_form=SignoffHoursForm(hours=group.signoff_hours),
                           booked=_booked(evening),
                           live_version=versions.group_version(group)), status


def _booked(evening: Evening) -> list[list[KasseEntry]]:
    """The fines booked at the evening, each booking's lines together (deleted ones too)."""
    bookings: dict[str, list[KasseEntry]] = {}
    for line in db.session.scalars(select(KasseEntry).where(
            KasseEntry.evening_id == evening.id, KasseEntry.kind == "fine")
            .order_by(KasseEntry.id)):
        bookings.setdefault(line.batch or str(line.id), []).append(line)
    return list(bookings.values())


def _rounding_form(current: int) -> RoundingForm:
    form = RoundingForm(rounding=current)
    form.rounding.choices = [(cents, money(cents) if cents else _("to the cent"))
                             for cents in accounts.ROUNDINGS]
    return form


@bp.post("/<int:evening_id>/rounding")
def rounding(slug: str, evening_id: int):
    """Round this group's settlement payments to coins (for every evening), or not."""
    group = get_group_or_404(slug)
    evening = get_evening_or_404(group, evening_id)
    form = _rounding_form(group.rounding_cents)
    if not form.validate_on_submit():
        abort(400)
    change.round_payments(group, form.rounding.data)
    return redirect(url_for("evenings.show", slug=slug, evening_id=evening.id) + "#payments")


@bp.post("/<int:evening_id>/paid")
def mark_paid(slug: str, evening_id: int):
    """Tick one of the payments still to pay as paid, or take the tick back ("undo"); either
    way back to the settlement. Also once the evening is signed off: a tick records money
    handed over (as the table pays up after checking the slate), it changes no amount."""
    group = get_group_or_404(slug)
    evening = get_evening_or_404(group, evening_id)
    form = PaymentForm()
    if not form.validate_on_submit():
        abort(400)
    change.tick_payment(group, evening, form.payer.data, form.payee.data, form.cents.data,
                        paid=form.paid.data != 0)
    return redirect(url_for("evenings.show", slug=slug, evening_id=evening.id) + "#payments")


@bp.get("/<int:evening_id>/settlement.json")
def settlement_json(slug: str, evening_id: int):
    group = get_group_or_404(slug, view=True)
    return jsonify(accounts.settle(get_evening_or_404(group, evening_id),
                                   group.rounding_cents).as_json())


@bp.get("/<int:evening_id>/card.svg")
def card(slug: str, evening_id: int):
    """The evening's result as a picture (SVG) to share: each player's money, the winner
    first; the share button turns it into a PNG where the phone can share a file."""
    group = get_group_or_404(slug, view=True)
    evening = get_evening_or_404(group, evening_id)
    result = accounts.settle(evening, group.rounding_cents)
    rows = sorted(((name, cents) for name, cents in result.balances_cents.items()
                   if name != accounts.KASSE), key=lambda row: (-row[1], row[0]))
    played: dict[str, int] = {}
    for game in result.games:
        title = games.title(game)
        played[title] = played.get(title, 0) + 1
    response = make_response(render_template(
        "evenings/card.svg", group=group, evening=evening, rows=rows,
        played=[f"{n} × {title}" if n > 1 else title for title, n in played.items()],
        kasse_cents=result.balances_cents.get(accounts.KASSE, 0),
        unfinished=bool(result.unfinished)))
    response.mimetype = "image/svg+xml"
    response.headers["Cache-Control"] = "no-cache"
    return response


# --- fines at the table ------------------------------------------------------------------------

@bp.post("/<int:evening_id>/fines")
def book_fine(slug: str, evening_id: int):
    """One tap: a fine of the catalogue on a player (or on everybody), into the Kasse."""
    group = get_group_or_404(slug)
    evening = get_evening_or_404(group, evening_id)
    back = url_for("evenings.show", slug=slug, evening_id=evening.id) + "#fines"
    form = BookFineForm()
    if not form.validate_on_submit():
        abort(400)
    fine = get_owned_or_404(Fine, form.fine.data, group)
    if fine.archived:
        abort(404)
    tell(change.book_fine(group, evening, fine, form.player.data, device()))
    return redirect(back)


@bp.post("/<int:evening_id>/fines/<int:entry_id>/undo")
def undo_fine(slug: str, evening_id: int, entry_id: int):
    """Take a booked fine back: its lines stay in the book, struck through."""
    group = get_group_or_404(slug)
    evening = get_evening_or_404(group, evening_id)
    back = url_for("evenings.show", slug=slug, evening_id=evening.id) + "#fines"
    if not ConfirmForm().validate_on_submit():
        abort(400)
    entry = db.session.get(KasseEntry, entry_id) if 1 <= entry_id <= 2**31 - 1 else None
    if entry is None or entry.evening_id != evening.id or entry.kind != "fine":
        abort(404)
    tell(change.undo_fine(group, evening, entry, device()))
    return redirect(back)


# --- signing the evening off -------------------------------------------------------------------

def _signoff_step(slug: str, evening_id: int, form: Any,
                  step: Callable[[Group, Evening], Done | Refused], field: str) -> Any:
    """A sign-off step from `form`: a form with a problem comes back with it at the field
    (the evening's `field`, as typed); else the step is taken (it may refuse, with a sentence
    why) and the phone goes back to the evening with what it said."""
    group = get_group_or_404(slug)
    evening = get_evening_or_404(group, evening_id)
    if not form.validate_on_submit():
        return _show(group, evening, 400, **{field: form})
    tell(step(group, evening))
    return redirect(url_for("evenings.show", slug=slug, evening_id=evening_id) + "#signoff")


@bp.post("/<int:evening_id>/signoff/ask")
def ask(slug: str, evening_id: int):
    """"Abend abschließen": every player of the evening is asked to confirm the result."""
    return _signoff_step(slug, evening_id, ConfirmForm(),
                         lambda group, evening: change.ask_signoff(group, evening, device()),
                         "action_form")


@bp.post("/<int:evening_id>/signoff")
def verdict(slug: str, evening_id: int):
    """A player's "right" or objection (from their phone, or a shared phone naming them)."""
    form = SignoffForm()
    return _signoff_step(slug, evening_id, form, lambda group, evening: change.answer_signoff(
        group, evening, form.player.data, form.verdict.data, form.note.data or "", device()),
        "signoff_form")


@bp.post("/<int:evening_id>/reopen")
def reopen(slug: str, evening_id: int):
    """A member reopens a signed-off evening with a reason; every player is asked again."""
    form = ReopenForm()
    return _signoff_step(slug, evening_id, form, lambda group, evening: change.reopen(
        group, evening, form.reason.data, device()), "reopen_form")


@bp.post("/<int:evening_id>/signoff/hours")
def signoff_hours(slug: str, evening_id: int):
    """The group's window: how long after asking an evening nobody objected to locks."""
    group = get_group_or_404(slug)
    evening = get_evening_or_404(group, evening_id)
    form = SignoffHoursForm()
    if not form.validate_on_submit():
        abort(400)
    change.set_signoff_hours(group, form.hours.data)
    return redirect(url_for("evenings.show", slug=slug, evening_id=evening.id) + "#signoff")
