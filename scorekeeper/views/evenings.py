"""Evenings: the games of one night at the table and their settlement."""

from __future__ import annotations

from flask import Blueprint, abort, jsonify, make_response, redirect, render_template, url_for
from flask_babel import gettext as _
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from .. import accounts, club, games, ledger, versions
from ..db import db
from ..display import money
from ..i18n import localized
from ..models import Evening, PaidPayment
from .common import get_evening_or_404, get_group_or_404
from .forms import EveningForm, PaymentForm, RoundingForm

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
    place = (form.place.data or "").strip()
    today = club.evening_day()
    evening = db.session.scalar(select(Evening).where(
        Evening.group_id == group.id, Evening.date == today, Evening.place == place))
    if evening is None:
        evening = Evening(group_id=group.id, date=today, place=place)
        db.session.add(evening)
        try:
            db.session.commit()
        except IntegrityError:  # a second tap at the same moment made it already
            db.session.rollback()
            return redirect(url_for("evenings.index", slug=slug))
    return redirect(url_for("evenings.show", slug=slug, evening_id=evening.id))


@bp.get("/<int:evening_id>")
def show(slug: str, evening_id: int):
    group = get_group_or_404(slug, view=True)
    evening = get_evening_or_404(group, evening_id)
    result = accounts.settle(evening, group.rounding_cents)
    return render_template("evenings/show.html", group=group, evening=evening,
                           games=result.games, settlement=result, kasse=accounts.KASSE,
                           kasse_part=ledger.evening_part(group, evening),
                           rounding_form=_rounding_form(group.rounding_cents),
                           live_version=versions.group_version(group))


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
    group.rounding_cents = form.rounding.data
    ledger.store_group(group)  # every evening's rounding in the Kasse's book follows
    db.session.commit()
    return redirect(url_for("evenings.show", slug=slug, evening_id=evening.id) + "#payments")


@bp.post("/<int:evening_id>/paid")
def mark_paid(slug: str, evening_id: int):
    """Tick one of the payments still to pay as paid, or take the tick back ("undo"); either
    way back to the settlement."""
    group = get_group_or_404(slug)
    evening = get_evening_or_404(group, evening_id)
    form = PaymentForm()
    if not form.validate_on_submit():
        abort(400)
    back = url_for("evenings.show", slug=slug, evening_id=evening.id) + "#payments"
    key = (form.payer.data, form.payee.data, form.cents.data)
    if form.paid.data == 0:
        row = next((r for r in accounts.paid_rows(evening)
                    if (r.payer, r.payee, r.cents) == key), None)
        if row is not None:
            db.session.delete(row)
    else:
        payment = next((p for p in accounts.settle(evening, group.rounding_cents).payments
                        if (p.payer, p.payee, p.cents) == key), None)
        if payment is None:  # already ticked, or the amounts changed meanwhile
            return redirect(back)
        db.session.add(PaidPayment(evening_id=evening.id, payer=payment.payer,
                                   payee=payment.payee, cents=payment.cents))
    db.session.commit()
    return redirect(back)


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
        title = localized(games.get(game.kind).title)
        played[title] = played.get(title, 0) + 1
    response = make_response(render_template(
        "evenings/card.svg", group=group, evening=evening, rows=rows,
        played=[f"{n} × {title}" if n > 1 else title for title, n in played.items()],
        kasse_cents=result.balances_cents.get(accounts.KASSE, 0),
        unfinished=bool(result.unfinished)))
    response.mimetype = "image/svg+xml"
    response.headers["Cache-Control"] = "no-cache"
    return response
