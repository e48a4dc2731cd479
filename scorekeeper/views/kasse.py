"""The Kasse's page: its book (the games' pots, the evenings' rounding, members' deposits and
withdrawals, fines) year by year, its balance over time, members' entries and the group's
catalogue of fines."""

from __future__ import annotations

import re

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from sqlalchemy import select

from scorekeeper.db import db
from scorekeeper.evenings import ledger, signoff
from scorekeeper.group import club
from scorekeeper.models import MAX_ID, Evening, Fine, Group, KasseEntry
from scorekeeper.views.common import YEARS, device, get_group_or_404, get_owned_or_404
from scorekeeper.views.forms import ConfirmForm, FineForm, KasseForm
from scorekeeper.web.display import money

bp = Blueprint("kasse", __name__, url_prefix="/g/<slug>/kasse")


def _year(chosen: str) -> int | None:
    """The year asked for (``?year=2026``; ``all`` for every year), this year by default."""
    if chosen == "all":
        return None
    year = int(chosen) if re.fullmatch(r"[0-9]{4}", chosen) else 0
    return year if year in YEARS else club.evening_day().year


def _page(group: Group, form: KasseForm, status: int = 200, fine_form: FineForm | None = None,
          below: str = ""):
    year = _year(request.args.get("year", ""))
    book = ledger.book(group, year)
    years = sorted({*book.years, club.evening_day().year}, reverse=True)
    return render_template("kasse/index.html", group=group, book=book, years=years, form=form,
                           balance=ledger.balance(group), action_form=ConfirmForm(),
                           fines=ledger.catalogue(group),
                           fine_form=fine_form or FineForm(formdata=None),
                           below=below), status


@bp.get("")
def index(slug: str):
    group = get_group_or_404(slug, view=True)
    return _page(group, KasseForm(day=club.evening_day()))


@bp.post("")
def enter(slug: str):
    """A member's deposit or withdrawal; a form with a problem comes back with what was typed."""
    group = get_group_or_404(slug)
    form = KasseForm()
    if not form.validate_on_submit():
        return _page(group, form, 400)
    assert form.amount.data is not None  # KasseForm.validate_amount
    cents = int(form.amount.data * 100)
    held = ledger.balance(group)
    if form.kind.data == "withdrawal" and cents > held and form.confirmed.data != str(cents):
        # asked first: the next tap on the same form (confirmed for this amount) enters it
        form.confirmed.data = str(cents)
        return _page(group, form, 409, below=_(
            "By its book the Kasse holds %(held)s: paying out %(amount)s leaves it at "
            "%(after)s, %(short)s short. Tap again to pay it out anyway.", held=money(held),
            amount=money(cents), after=money(held - cents), short=money(cents - held)))
    ledger.enter(group, form.kind.data, cents, form.note.data.strip(),
                 form.day.data or club.evening_day(), device())
    db.session.commit()
    flash(_("Entered in the Kasse's book."))
    return redirect(url_for("kasse.index", slug=slug, year=(form.day.data or
                                                             club.evening_day()).year))


def _entry_or_404(group: Group, entry_id: int) -> KasseEntry:
    entry = db.session.scalar(select(KasseEntry).where(KasseEntry.id == entry_id)) \
        if 1 <= entry_id <= MAX_ID else None
    if entry is None or entry.group_id != group.id or entry.kind not in ledger.ENTERED:
        abort(404)
    return entry


@bp.post("/<int:entry_id>/cancel")
def cancel(slug: str, entry_id: int):
    """Cancel a wrong entry by a counter entry of the opposite amount (both stay in the book)."""
    group = get_group_or_404(slug)
    entry = _entry_or_404(group, entry_id)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    if ledger.cancellable(entry):
        ledger.cancel(entry, club.evening_day(), device())
        db.session.commit()
        flash(_("Cancelled by a counter entry."))
    return redirect(url_for("kasse.index", slug=slug, year=club.evening_day().year))


@bp.post("/<int:entry_id>/delete")
def delete(slug: str, entry_id: int):
    """Delete a wrong entry with a record: it stays in the book, struck through."""
    group = get_group_or_404(slug)
    entry = _entry_or_404(group, entry_id)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    evening = db.session.get(Evening, entry.evening_id) if entry.evening_id else None
    shut = signoff.refusal(evening, group) if evening is not None else None
    if shut:
        flash(shut)
    elif ledger.deletable(entry):
        ledger.delete_entry(entry, device())
        if evening is not None:  # a fine of the evening: its players are asked anew
            signoff.changed(evening.id, device())
        db.session.commit()
        flash(_("Deleted; the book keeps a record of it."))
    return redirect(url_for("kasse.index", slug=slug, year=entry.day.year))


# --- the catalogue of fines --------------------------------------------------------------------

@bp.post("/fines")
def add_fine(slug: str):
    """A fine for the catalogue; a form with a problem comes back with what was typed."""
    group = get_group_or_404(slug)
    form = FineForm()
    taken = {fine.name.casefold() for fine in ledger.catalogue(group)}
    if form.validate_on_submit() and form.name.data.strip().casefold() in taken:
        form.name.errors = [_("The catalogue has a fine of that name already.")]
    if form.errors:
        return _page(group, KasseForm(formdata=None, day=club.evening_day()), 400,
                     fine_form=form)
    assert form.amount.data is not None  # FineForm.validate_amount
    db.session.add(Fine(group_id=group.id, name=form.name.data.strip(), kind=form.kind.data,
                        cents=int(form.amount.data * 100)))
    db.session.commit()
    flash(_("The fine is in the catalogue."))
    return redirect(url_for("kasse.index", slug=slug) + "#fines")


@bp.post("/fines/<int:fine_id>/archive")
def archive_fine(slug: str, fine_id: int):
    """Take a fine out of the catalogue (what was booked keeps it)."""
    group = get_group_or_404(slug)
    fine = get_owned_or_404(Fine, fine_id, group)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    fine.archived = True
    db.session.commit()
    return redirect(url_for("kasse.index", slug=slug) + "#fines")
