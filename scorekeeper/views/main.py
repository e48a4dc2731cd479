"""The home page, the rules pages and the language switch."""

from __future__ import annotations

from flask import (
    Blueprint,
    abort,
    current_app,
    redirect,
    render_template,
    request,
    send_from_directory,
    url_for,
)

from .. import engine
from ..i18n import COOKIE
from .forms import GroupForm, local_path

bp = Blueprint("main", __name__)


@bp.route("/")
def index():
    return render_template("main/index.html", games=engine.all_games(), form=GroupForm())


@bp.app_errorhandler(404)
def not_found(error):
    return render_template("errors/404.html"), 404


@bp.app_errorhandler(429)
def too_many(error):
    """Too many wrong PINs from this address for this group: wait, or use the join link."""
    return render_template("errors/429.html"), 429


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


THEMES = ("auto", "dark", "light")  # auto: as the phone is set


@bp.route("/theme/<mode>")
def set_theme(mode: str):
    """Dark or light on this phone, or as the phone is set (the header's ◐ switch cycles)."""
    if mode not in THEMES:
        abort(404)
    response = redirect(local_path(request.args.get("next")) or url_for("main.index"))
    response.set_cookie("theme", mode, max_age=3 * 365 * 24 * 3600, samesite="Lax", httponly=True,
                        secure=current_app.config["SESSION_COOKIE_SECURE"])
    return response


@bp.app_context_processor
def theme():
    chosen = request.cookies.get("theme")
    mode = chosen if chosen in THEMES else "auto"
    return {"theme": mode, "next_theme": THEMES[(THEMES.index(mode) + 1) % len(THEMES)]}


@bp.route("/lang/<code>")
def set_language(code: str):
    if code not in current_app.config["LANGUAGES"]:
        abort(404)
    response = redirect(local_path(request.args.get("next")) or url_for("main.index"))
    response.set_cookie(COOKIE, code, max_age=3 * 365 * 24 * 3600, samesite="Lax", httponly=True,
                        secure=current_app.config["SESSION_COOKIE_SECURE"])
    return response
