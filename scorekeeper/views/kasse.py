"""The Kasse's page: its book (the games' pots, the evenings' rounding, members' deposits and
withdrawals, fines) year by year, its balance over time, members' entries and the group's
catalogue of fines."""

from __future__ import annotations

import re

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from sqlalchemy import select

from scorekeeper.changes import evenings as change
from scorekeeper.changes.answers import Done, Refused
from scorekeeper.db import db
from scorekeeper.evenings import ledger
from scorekeeper.group import club
from scorekeeper.models import MAX_ID, Fine, Group, KasseEntry
from scorekeeper.views.common import YEARS, device, get_group_or_404, get_owned_or_404, tell
from scorekeeper.views.forms import ConfirmForm, FineForm, KasseForm

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
    day = form.day.data or club.evening_day()
    answer = change.enter_in_kasse(group, form.kind.data, cents, form.note.data.strip(), day,
                                   device(), confirmed=form.confirmed.data == str(cents))
    if isinstance(answer, Refused):
        # asked first: the next tap on the same form (confirmed for this amount) enters it
        form.confirmed.data = str(cents)
        return _page(group, form, 409, below=answer.message)
    flash(answer.message)
    return redirect(url_for("kasse.index", slug=slug, year=day.year))


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
    tell(change.cancel_kasse_entry(entry, device()))
    return redirect(url_for("kasse.index", slug=slug, year=club.evening_day().year))


@bp.post("/<int:entry_id>/delete")
def delete(slug: str, entry_id: int):
    """Delete a wrong entry with a record: it stays in the book, struck through."""
    group = get_group_or_404(slug)
    entry = _entry_or_404(group, entry_id)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    tell(change.delete_kasse_entry(group, entry, device()))
    return redirect(url_for("kasse.index", slug=slug, year=entry.day.year))


# --- the catalogue of fines --------------------------------------------------------------------

@bp.post("/fines")
def add_fine(slug: str):
    """A fine for the catalogue; a form with a problem comes back with what was typed."""
    group = get_group_or_404(slug)
    form = FineForm()
    if form.validate_on_submit():
        assert form.amount.data is not None  # FineForm.validate_amount
        answer = change.add_fine(group, form.name.data.strip(), form.kind.data,
                                 int(form.amount.data * 100))
        if isinstance(answer, Done):
            flash(answer.message)
            return redirect(url_for("kasse.index", slug=slug) + "#fines")
        form.name.errors = [answer.message]
    return _page(group, KasseForm(formdata=None, day=club.evening_day()), 400, fine_form=form)


@bp.post("/fines/<int:fine_id>/archive")
def archive_fine(slug: str, fine_id: int):
    """Take a fine out of the catalogue (what was booked keeps it)."""
    group = get_group_or_404(slug)
    fine = get_owned_or_404(Fine, fine_id, group)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    change.archive_fine(fine)
    return redirect(url_for("kasse.index", slug=slug) + "#fines")
