"""The home page, the rules pages and the language switch."""

from __future__ import annotations

from flask import Blueprint, abort, current_app, redirect, render_template, request, url_for

from .. import engine
from ..db import db
from ..i18n import COOKIE
from ..models import Group
from .forms import GroupForm

bp = Blueprint("main", __name__)


@bp.route("/")
def index():
    groups = db.session.scalars(db.select(Group).order_by(Group.created_at.desc()).limit(20)).all()
    return render_template("main/index.html", games=engine.all_games(), form=GroupForm(),
                           groups=groups)


@bp.route("/rules/<name>")
def rules(name: str):
    game = engine.all_games().get(name) or abort(404)
    return render_template("main/rules.html", game=game)


@bp.route("/lang/<code>")
def set_language(code: str):
    if code not in current_app.config["LANGUAGES"]:
        abort(404)
    target = request.args.get("next", "")
    if not target.startswith("/") or target.startswith("//"):
        target = url_for("main.index")
    response = redirect(target)
    response.set_cookie(COOKIE, code, max_age=3 * 365 * 24 * 3600, samesite="Lax")
    return response
