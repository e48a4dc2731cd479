"""The home page, the rules pages, the language switch, the manifest and the service worker."""

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
from werkzeug.exceptions import HTTPException

from scorekeeper import engine, games
from scorekeeper.group import access
from scorekeeper.i18n import COOKIE
from scorekeeper.views.forms import GroupForm, local_path

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


@bp.app_errorhandler(405)
def form_address(error):
    """A form's address opened as a page (reloaded after a form was sent back, typed in): the
    nearest page above it, where the form is (nothing was sent); anything else, the error."""
    if request.method != "GET":
        return error
    urls = current_app.create_url_adapter(request)
    parts = request.path.rstrip("/").split("/")
    while len(parts) > 1:
        parts.pop()
        above = "/".join(parts) or "/"
        try:
            urls.match(above, method="GET")
        except HTTPException:
            continue
        return redirect(request.script_root + above)
    return error


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
    # asked again on every page: answered with a 304 while the group's name and the files stay
    response.headers["Cache-Control"] = "no-cache"
    response.add_etag()
    return response.make_conditional(request)


@bp.get("/manifest.webmanifest")
def manifest():
    return _manifest(_("scorekeeper"), url_for("main.index"))


@bp.get("/g/<slug>/manifest.webmanifest")
def group_manifest(slug: str):
    """Installed from a group's page, the app opens that group."""
    group = access.group_or_404(slug, view=True)
    return _manifest(group.name, url_for("groups.home", slug=group.slug))


def shell() -> list[str]:
    """What the app needs to start without network: the page shown for a page never opened, every
    file of static/ (each module of static/js/, the CSS, the icons) and every game's stylesheet,
    under the files' current names."""
    folder = Path(current_app.static_folder or "static")
    files = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*")
                   if p.is_file() and p.name != "sw.js")
    return [url_for("main.offline"), *(url_for("static", filename=f) for f in files),
            *(url_for("game_style", name=name) for name in current_app.extensions["game_styles"])]


@bp.get("/sw.js")
def service_worker():
    """The service worker (static/sw.js), served from the top so that it serves every page,
    told the folder of the app's files and the files to keep for a start without network. A
    change of any file changes these lines, so the phone installs the worker anew, and the new
    one drops the old files."""
    folder = Path(current_app.static_folder or "static")
    source = (folder / "sw.js").read_text(encoding="utf-8")
    head = (f"const STATIC = {json.dumps(current_app.static_url_path + '/')};\n"
            f"const SHELL = {json.dumps(shell())};\n")
    response = current_app.response_class(head + source, mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"
    response.add_etag()
    return response.make_conditional(request)


@bp.get("/offline")
def offline():
    """What a phone without network shows for a page it has not opened before."""
    return render_template("main/offline.html")
