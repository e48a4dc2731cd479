"""Standings per season and all-time, and each player's page with history and charts."""

from __future__ import annotations

import re

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_babel import format_date
from flask_babel import gettext as _

from scorekeeper import games
from scorekeeper.changes import groups as change
from scorekeeper.changes.answers import Refused
from scorekeeper.evenings import signoff
from scorekeeper.models import Game
from scorekeeper.season import headtohead, ratings, standings
from scorekeeper.table import scoring, versions
from scorekeeper.views.common import (
    YEARS,
    get_game_or_404,
    get_group_or_404,
    get_player_or_404,
)
from scorekeeper.views.forms import PlayerForm
from scorekeeper.web import charts

bp = Blueprint("standings", __name__, url_prefix="/g/<slug>")


@bp.get("/standings")
def index(slug: str):
    group = get_group_or_404(slug, view=True)
    seasons = standings.seasons(group.id)
    chosen = request.args.get("season", "")
    season = int(chosen) if re.fullmatch(r"[0-9]{4}", chosen) else None
    if season not in YEARS:  # a year datetime cannot hold ("0000"): all seasons
        season = None
    return render_template("standings/index.html", group=group, seasons=seasons, season=season,
                           table=standings.table(group.id, season),
                           unsigned=signoff.not_signed_off(group, season),
                           ratings=ratings.season(group, season),
                           live_version=versions.group_version(group),
                           player_ids={p.name: p.id for p in group.players})


def _money_over_time(history, money: dict[int, dict[str, int]], player: str
                     ) -> list[tuple[str, float]]:
    """The player's money after each evening in euros, in date order, labelled with the date:
    as the evenings were settled (`money`: standings.evening_money)."""
    points, total = [], 0
    for evening in {evening.id: evening for _result, evening in history}.values():
        total += money.get(evening.id, {}).get(player, 0)
        points.append((format_date(evening.date, "dd.MM."), total / 100))
    return points


@bp.route("/players/<int:player_id>", methods=["GET", "POST"])
def player(slug: str, player_id: int):
    group = get_group_or_404(slug, view=True)
    player = get_player_or_404(group, player_id)
    form = PlayerForm(obj=player)
    if form.validate_on_submit():
        answer = change.rename_player(group, player, form.name.data.strip())
        if isinstance(answer, Refused):  # the name is taken: said at the field
            form.name.errors.append(answer.message)
        else:  # renamed, or a hand was entered meanwhile and nothing was
            flash(answer.message)
            return redirect(url_for("standings.player", slug=slug, player_id=player.id))
    history = standings.history(group.id, player.name)
    money = _money_over_time(history, standings.evening_money(group.id, player=player.name),
                             player.name)

    def load(game_id: int) -> tuple[Game, list[dict]]:
        game = get_game_or_404(group, game_id)
        return game, scoring.recent_effects(game, game.entry_count)

    sections = {name: section for name, adapter in games.GAMES.items()
                if (section := adapter.player_section(history, request.args, load))}
    rated = ratings.player(group, player.name)
    rating_charts = {kind: charts.line_chart(
        [(player.name, [(format_date(e.day, "dd.MM.yy"), e.number) for e in rating.evenings])],
        label=_("Rating after each evening"), zero_line=False, empty=_("No games yet."))
        for kind, rating in rated.items()}
    chosen = request.args.get("year", "")
    year = int(chosen) if re.fullmatch(r"[0-9]{4}", chosen) and int(chosen) in YEARS else None
    return render_template(
        "standings/player.html", group=group, player=player, form=form, history=history,
        head_to_head=headtohead.table(group, player.name, year), h2h_year=year,
        h2h_years=headtohead.years(group, player.name),
        player_ids={p.name: p.id for p in group.players}, player_ratings=rated,
        rating_charts=rating_charts,
        money_chart=charts.line_chart([(player.name, money)], label=_("Money over time"),
                                      unit="€", empty=_("No games yet.")),
        sections=sections)
