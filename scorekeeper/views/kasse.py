"""The Kasse's page: its book (the games' pots, the evenings' rounding, members' deposits and
withdrawals) year by year, its balance over time, and members' entries."""

from __future__ import annotations

import re

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from sqlalchemy import select

from .. import club, ledger
from ..db import db
from ..models import MAX_ID, Group, KasseEntry
from .common import YEARS, device, get_group_or_404
from .forms import ConfirmForm, KasseForm

bp = Blueprint("kasse", __name__, url_prefix="/g/<slug>/kasse")


def _year(chosen: str) -> int | None:
    """The year asked for (``?year=2026``; ``all`` for every year), this year by default."""
    if chosen == "all":
        return None
    year = int(chosen) if re.fullmatch(r"[0-9]{4}", chosen) else 0
    return year if year in YEARS else club.evening_day().year


def _page(group: Group, form: KasseForm, status: int = 200):
    year = _year(request.args.get("year", ""))
    book = ledger.book(group, year)
    years = sorted({*book.years, club.evening_day().year}, reverse=True)
    return render_template("kasse/index.html", group=group, book=book, years=years, form=form,
                           balance=ledger.balance(group), action_form=ConfirmForm()), status


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
    if ledger.deletable(entry):
        ledger.delete_entry(entry, device())
        db.session.commit()
        flash(_("Deleted; the book keeps a record of it."))
    return redirect(url_for("kasse.index", slug=slug, year=entry.day.year))
