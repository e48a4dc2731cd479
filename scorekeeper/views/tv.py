"""The big screen: the pub's TV shows the table or the evening, read-only, and keeps itself up to
date like every watching phone (static/js/live.js polls the version)."""

from __future__ import annotations

import re

from flask import Blueprint, render_template, request
from sqlalchemy import select

from scorekeeper.db import db
from scorekeeper.evenings import accounts
from scorekeeper.group import club
from scorekeeper.models import Evening, Group
from scorekeeper.table import versions
from scorekeeper.views.common import (
    get_evening_or_404,
    get_game_or_404,
    get_group_or_404,
    state_context,
)

bp = Blueprint("tv", __name__, url_prefix="/g/<slug>")


def _tonight(group: Group) -> Evening | None:
    """Today's evening (the one a new game joins), else the latest; never makes one."""
    return club.find_evening(group) or db.session.scalar(
        select(Evening).where(Evening.group_id == group.id)
        .order_by(Evening.date.desc(), Evening.id.desc()).limit(1))


@bp.get("/tv")
def evening(slug: str):
    """The evening (`?evening=<id>`, else tonight's): its newest running game large (else its
    last game) and the money so far. It watches the group's version, which changes with every
    hand and every new game."""
    group = get_group_or_404(slug, view=True)
    chosen = request.args.get("evening", "")
    tonight = get_evening_or_404(group, int(chosen)) if re.fullmatch(r"[0-9]{1,9}", chosen) \
        else _tonight(group)
    result = accounts.settle(tonight, group.rounding_cents) if tonight is not None else None
    played = result.games if result is not None else []
    running = [game for game in played if game.status == "running"]
    shown = (running or played)[-1] if played else None
    table = state_context(group, shown) if shown is not None else {"group": group}
    return render_template("tv/evening.html", evening=tonight, settlement=result,
                           kasse=accounts.KASSE, live_version=versions.group_version(group),
                           **table)


@bp.get("/games/<int:game_id>/tv")
def game(slug: str, game_id: int):
    """One table large; it watches the game's version."""
    group = get_group_or_404(slug, view=True)
    return render_template("tv/game.html", **state_context(group, get_game_or_404(group, game_id)))
