"""Evenings: the games of one night at the table and their settlement."""

from __future__ import annotations

import datetime as dt

from flask import Blueprint, abort, jsonify, redirect, render_template, request, url_for
from sqlalchemy import select

from .. import accounts
from ..db import db
from ..models import Evening, Group
from .forms import ConfirmForm, EveningForm
from .groups import get_group_or_404

bp = Blueprint("evenings", __name__, url_prefix="/g/<slug>/evenings")


def get_evening_or_404(group: Group, evening_id: int) -> Evening:
    evening = db.get_or_404(Evening, evening_id)
    if evening.group_id != group.id:
        abort(404)
    return evening


@bp.get("")
def index(slug: str):
    group = get_group_or_404(slug)
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
    today = dt.date.today()
    evening = db.session.scalar(select(Evening).where(
        Evening.group_id == group.id, Evening.date == today, Evening.place == place))
    if evening is None:
        evening = Evening(group_id=group.id, date=today, place=place)
        db.session.add(evening)
    db.session.commit()
    return redirect(url_for("evenings.show", slug=slug, evening_id=evening.id))


@bp.get("/<int:evening_id>")
def show(slug: str, evening_id: int):
    group = get_group_or_404(slug)
    evening = get_evening_or_404(group, evening_id)
    result = accounts.settle(evening)
    return render_template("evenings/show.html", group=group, evening=evening,
                           games=accounts.games_of(evening), settlement=result,
                           paid=accounts.paid(evening), kasse=accounts.KASSE)


@bp.post("/<int:evening_id>/paid")
def mark_paid(slug: str, evening_id: int):
    group = get_group_or_404(slug)
    evening = get_evening_or_404(group, evening_id)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    try:
        cents = int(request.form.get("cents", ""))
    except ValueError:
        abort(400)
    payer, payee = request.form.get("payer", ""), request.form.get("payee", "")
    if not any((p.payer, p.payee, p.cents) == (payer, payee, cents)
               for p in accounts.settle(evening).payments):
        abort(400)
    accounts.mark_paid(evening, payer, payee, cents)
    db.session.commit()
    return redirect(url_for("evenings.show", slug=slug, evening_id=evening.id) + "#payments")


@bp.get("/<int:evening_id>/settlement.json")
def settlement_json(slug: str, evening_id: int):
    group = get_group_or_404(slug)
    return jsonify(accounts.settle(get_evening_or_404(group, evening_id)).as_json())
