"""The season chronicle: champion, Rote Laterne, records, streaks and attendance of a year."""

from __future__ import annotations

from flask import Blueprint, abort, redirect, render_template, request, url_for

from scorekeeper.changes import groups as change
from scorekeeper.evenings import ledger, signoff
from scorekeeper.group import club
from scorekeeper.models import Group
from scorekeeper.season import chronicle, ratings, standings
from scorekeeper.table import versions
from scorekeeper.views.common import YEARS, get_group_or_404
from scorekeeper.views.forms import ChampionForm

bp = Blueprint("seasons", __name__, url_prefix="/g/<slug>/seasons")


@bp.get("")
def current(slug: str):
    """This year's season (the evening's year: a night past New Year's midnight is the old)."""
    return show(slug, club.evening_day().year)


@bp.get("/<int:year>")
def show(slug: str, year: int):
    group = get_group_or_404(slug, view=True)
    if year not in YEARS:
        abort(404)
    return _page(group, year, ChampionForm(obj=group))


def _page(group: Group, year: int, form: ChampionForm, status: int = 200):
    """The season's page; `form` the champion form as sent and refused (its errors at the
    fields, what was typed kept), else as the group has it."""
    seasons = sorted({*standings.seasons(group.id), year}, reverse=True)
    return render_template("seasons/show.html", group=group, year=year, seasons=seasons,
                           season=chronicle.chronicle(group, year),
                           unsigned=signoff.not_signed_off(group, year),
                           book=ledger.book(group, year), ratings=ratings.season(group, year),
                           form=form, print_view="print" in request.args,
                           player_ids={p.name: p.id for p in group.players},
                           live_version=versions.group_version(group)), status


@bp.post("/<int:year>/champion")
def champion(slug: str, year: int):
    """Change how the group's champion is decided (every season's page shows it so)."""
    group = get_group_or_404(slug)
    if year not in YEARS:
        abort(404)
    form = ChampionForm()
    if not form.validate_on_submit():
        return _page(group, year, form, 400)
    change.set_champion_rule(group, form.champion_by.data, form.champion_share.data)
    return redirect(url_for("seasons.show", slug=slug, year=year))
