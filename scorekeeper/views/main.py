"""The home page, the rules pages and the language switch."""

from __future__ import annotations

from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    send_from_directory,
    url_for,
)
from flask_babel import gettext as _

from .. import club, engine
from ..i18n import COOKIE
from .forms import GroupForm, local_path

bp = Blueprint("main", __name__)


@bp.route("/")
def index():
    return render_template("main/index.html", games=engine.all_games(), form=GroupForm())


@bp.get("/open")
def open_group():
    """Open a group by its name (the list of groups is not public)."""
    group = club.find_group(club.slugify(request.args.get("name", "")))
    if group is None:
        flash(_("There is no group of that name."))
        return redirect(url_for("main.index"))
    return redirect(url_for("groups.home", slug=group.slug))


@bp.app_errorhandler(404)
def not_found(error):
    return render_template("errors/404.html"), 404


@bp.app_errorhandler(413)
def too_large(error):
    """A request body over MAX_CONTENT_LENGTH: refused before anything is read or stored."""
    return render_template("errors/413.html"), 413


@bp.get("/docs/rules/<name>.md")
def rules_document(name: str):
    """The game's full rules as the app implements them (docs/rules/<game>.md), as text."""
    engine.all_games().get(name) or abort(404)
    return send_from_directory(current_app.config["DOCS_FOLDER"], f"rules/{name}.md",
                               mimetype="text/markdown")


@bp.route("/rules/<name>")
def rules(name: str):
    game = engine.all_games().get(name) or abort(404)
    return render_template("main/rules.html", game=game)


@bp.route("/lang/<code>")
def set_language(code: str):
    if code not in current_app.config["LANGUAGES"]:
        abort(404)
    response = redirect(local_path(request.args.get("next")) or url_for("main.index"))
    response.set_cookie(COOKIE, code, max_age=3 * 365 * 24 * 3600, samesite="Lax")
    return response
