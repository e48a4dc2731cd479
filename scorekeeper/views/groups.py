"""A group (Stammtisch): create it, its home page and its players."""

from __future__ import annotations

from flask import Blueprint, Response, abort, g, jsonify, redirect, render_template, url_for
from sqlalchemy import select

from scorekeeper import engine
from scorekeeper.changes import groups as change
from scorekeeper.changes.answers import Refused
from scorekeeper.db import db
from scorekeeper.evenings import ledger
from scorekeeper.models import Evening, Game, Tournament
from scorekeeper.records import export
from scorekeeper.table import versions
from scorekeeper.views.common import get_group_or_404, get_player_or_404, live_answer
from scorekeeper.views.forms import (
    ConfirmForm,
    GroupForm,
    OwnerForm,
    PlayerForm,
    RatingsForm,
    local_path,
)
from scorekeeper.web import security

bp = Blueprint("groups", __name__)


@bp.post("/groups")
@security.limiter.limit(security.NEW_GROUPS,  # groups made; a form sent back does not count
                        deduct_when=lambda response: response.status_code == 302)
def create():
    form = GroupForm()
    if not form.validate_on_submit():
        return render_template("main/index.html", games=engine.all_games(), form=form), 400
    group = change.create_group(form.name.data)
    if isinstance(group, Refused):
        form.name.errors = [group.message]
        return render_template("main/index.html", games=engine.all_games(), form=form), 400
    return redirect(url_for("access.invite", slug=group.slug))


@bp.get("/g/<slug>")
def home(slug: str):
    group = get_group_or_404(slug, view=True)
    games = db.session.scalars(select(Game).where(Game.group_id == group.id,
                                                  Game.status != "deleted")
                               .order_by(Game.updated_at.desc()).limit(20)).all()
    evenings = db.session.scalars(select(Evening).where(Evening.group_id == group.id)
                                  .order_by(Evening.date.desc(), Evening.id.desc()).limit(5)).all()
    owner = OwnerForm(player=g.membership.player_id or 0)
    owner.player.choices = [(0, "–")] + [(p.id, p.name) for p in group.players if not p.archived]
    return render_template("groups/home.html", group=group, form=PlayerForm(), evenings=evenings,
                           owner_form=owner, leave_form=ConfirmForm(),
                           ratings_form=RatingsForm(ratings=group.ratings),
                           kasse=ledger.summary(group),
                           running=[g for g in games if g.status == "running"],
                           recent=[g for g in games if g.status != "running"],
                           live_version=versions.group_version(group),
                           tournaments=db.session.scalars(
                               select(Tournament).where(Tournament.group_id == group.id)
                               .order_by(Tournament.id.desc()).limit(5)).all())


@bp.post("/g/<slug>/ratings")
def ratings(slug: str):
    """Switch the group's skill ratings on or off (they are worked out when shown: nothing is
    lost by switching them off)."""
    group = get_group_or_404(slug)
    form = RatingsForm()
    if not form.validate_on_submit():
        abort(400)
    change.switch_ratings(group, form.ratings.data)
    return redirect(url_for("groups.home", slug=slug))


@bp.get("/g/<slug>/live")
def live(slug: str):
    """The group's version for the evening and standings pages that watch it (see games.live)."""
    return live_answer({"version": versions.group_version(get_group_or_404(slug, view=True))})


@bp.post("/g/<slug>/players")
def add_player(slug: str):
    group = get_group_or_404(slug)
    form = PlayerForm()
    if form.validate_on_submit():
        answer = change.add_player(group, form.name.data.strip())
        if isinstance(answer, Refused):
            form.name.errors.append(answer.message)
        else:
            target = local_path(form.next.data)
            return redirect(target or url_for("groups.players", slug=slug))
    return render_template("groups/players.html", group=group, form=form), 400


@bp.get("/g/<slug>/players")
def players(slug: str):
    group = get_group_or_404(slug)
    return render_template("groups/players.html", group=group, form=PlayerForm())


@bp.post("/g/<slug>/players/<int:player_id>/archive")
def archive_player(slug: str, player_id: int):
    group = get_group_or_404(slug)
    player = get_player_or_404(group, player_id)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    change.archive_player(player)
    return redirect(url_for("groups.players", slug=slug))


@bp.get("/g/<slug>/export.json")
def export_json(slug: str):
    group = get_group_or_404(slug)
    response = jsonify(export.group_json(group))
    response.headers["Content-Disposition"] = f"attachment; filename={slug}.json"
    return response


@bp.get("/g/<slug>/export.csv")
def export_csv(slug: str):
    group = get_group_or_404(slug)
    return Response(export.group_csv(group), mimetype="text/csv", headers={
        "Content-Disposition": f"attachment; filename={slug}.csv"})
