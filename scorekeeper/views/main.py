"""The home page, the rules pages, the language switch, the service worker and the games'
stylesheets."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import urlsplit

from flask import (
    Blueprint,
    abort,
    current_app,
    jsonify,
    redirect,
    render_template,
    request,
    send_from_directory,
    url_for,
)
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError

from .. import access, engine, games
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
    """Too many new groups from this address (Flask-Limiter): wait, or join by link."""
    return render_template("errors/429.html", what="groups"), 429


@bp.app_errorhandler(CSRFError)
def expired(error):
    """A form older than a day, or from before this phone's session: nothing was saved."""
    referrer = urlsplit(request.referrer or "")
    back = local_path(referrer.path) if referrer.netloc == request.host else None
    return render_template("errors/expired.html", back=back), 400


@bp.app_errorhandler(413)
def too_large(error):
    """A request body over MAX_CONTENT_LENGTH: refused before anything is read or stored."""
    return render_template("errors/413.html"), 413


@bp.get("/docs/rules/<name>.md")
def rules_document(name: str):
    """The game's full rules as the app implements them (docs/rules/<game>.md), as text."""
    adapter = games.GAMES.get(name) or abort(404)
    return send_from_directory(adapter.DOCS or current_app.config["DOCS_FOLDER"],
                               f"rules/{name}.md", mimetype="text/markdown")


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


# --- on the home screen: the manifest, the service worker, the page shown without network -----

def _manifest(name: str, start: str):
    icons = [{"src": url_for("static", filename=f"icon-{size}.png"), "sizes": f"{size}x{size}",
              "type": "image/png", "purpose": "any maskable"} for size in (192, 512)]
    icons.append({"src": url_for("static", filename="favicon.svg"), "sizes": "any",
                  "type": "image/svg+xml"})
    response = jsonify(name=name, short_name=name[:12], start_url=start, scope="/",
                       display="standalone", background_color="#2e3a35", theme_color="#2e3a35",
                       icons=icons)
    response.mimetype = "application/manifest+json"
    return response


@bp.get("/manifest.webmanifest")
def manifest():
    return _manifest(_("scorekeeper"), url_for("main.index"))


@bp.get("/g/<slug>/manifest.webmanifest")
def group_manifest(slug: str):
    """Installed from a group's page, the app opens that group."""
    group = access.group_or_404(slug, view=True)
    return _manifest(group.name, url_for("groups.home", slug=group.slug))


def style_urls() -> list[str]:
    """The stylesheets of the games that have their own (their `style` part)."""
    return [url_for("main.game_style", name=name) for name, adapter in games.GAMES.items()
            if "style" in adapter.PARTS]


@bp.get("/sw.js")
def service_worker():
    """The service worker (static/sw.js), served from the top so that it serves every page,
    told the games' stylesheets to keep for a start without network."""
    folder = Path(current_app.static_folder or "static")
    source = (folder / "sw.js").read_text(encoding="utf-8")
    response = current_app.response_class(
        f"const GAME_STYLES = {json.dumps(style_urls())};\n{source}",
        mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"
    response.add_etag()
    return response.make_conditional(request)


@bp.get("/games/<name>/style.css")
def game_style(name: str):
    """A game's own CSS (its `style` part, templates/games/<game>/style.css), as it is."""
    adapter = games.GAMES.get(name)
    if adapter is None or "style" not in adapter.PARTS:
        abort(404)
    env = current_app.jinja_env
    source, _filename, _uptodate = env.loader.get_source(env, adapter.template("style")) \
        if env.loader else ("", None, None)
    response = current_app.response_class(source, mimetype="text/css")
    response.add_etag()
    return response.make_conditional(request)


@bp.get("/offline")
def offline():
    """What a phone without network shows for a page it has not opened before."""
    return render_template("main/offline.html")
