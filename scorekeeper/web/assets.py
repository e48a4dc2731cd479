"""The app's files (static/ and each game's stylesheet) and how they travel: under a folder named
after their content, kept by the browser for a year; every text response compressed.

The whole tree has one name, `/static/<version>/`, the start of a hash of every file in it and
of the games' stylesheets. The ES modules in static/js/ import each other by relative path
(`./state.js`), so they resolve inside the same folder and are cached as long as the page that
loads them. When any file changes, the folder's name changes, and the pages (never cached)
name the new one; the service worker (static/sw.js) keeps the files under that name.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import rjsmin
from flask import Flask, Response, abort, current_app, redirect, request, send_from_directory
from flask_compress import Compress

YEAR = 365 * 24 * 3600
STYLE = "games/<name>/style.css"  # a game's stylesheet, in the tree's folder


def version(folder: Path, styles: dict[str, str]) -> str:
    """The start of a hash of every file under `folder` (its path and bytes) and of the games'
    stylesheets (`styles`: game name to its CSS)."""
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        digest.update(path.relative_to(folder).as_posix().encode() + b"\0" + path.read_bytes())
    for name, source in sorted(styles.items()):
        digest.update(f"{STYLE.replace('<name>', name)}\0{source}".encode())
    return digest.hexdigest()[:12]


def kept_for_a_year(response: Response, public: bool = True) -> Response:
    """An answer whose address changes with its content; `public` False: only this phone's
    browser keeps it (it is for the group's phones alone)."""
    if public:
        response.cache_control.public = True
    else:
        response.cache_control.private = True
    response.cache_control.max_age = YEAR
    response.cache_control.immutable = True  # the name changes with the content: never ask again
    return response


def _file(filename: str):
    script = current_app.extensions["scripts"].get(filename)
    if script is not None:
        response = current_app.response_class(script, mimetype="text/javascript")
        response.add_etag()
        return kept_for_a_year(response).make_conditional(request)
    return kept_for_a_year(send_from_directory(current_app.static_folder or "", filename,
                                                max_age=YEAR))


def scripts(folder: Path) -> dict[str, str]:
    """The page's modules (static/js/) as they are sent: without their comments and the spaces
    nobody needs (rjsmin), a third fewer bytes on a pub's network; the files keep them."""
    return {path.relative_to(folder).as_posix(): rjsmin.jsmin(path.read_text())
            for path in sorted((folder / "js").glob("*.js"))}


def _style(name: str):
    source = current_app.extensions["game_styles"].get(name)
    if source is None:
        abort(404)
    response = current_app.response_class(source, mimetype="text/css")
    response.add_etag()
    return kept_for_a_year(response).make_conditional(request)


def _moved(older: str, filename: str):
    """A file asked for under an older name (a page from before the files changed): the file as
    it is now."""
    return redirect(f"{current_app.static_url_path}/{filename}")


def init_app(app: Flask, folder: Path, styles: dict[str, str]) -> None:
    """Serve `folder` as the `static` endpoint and the games' stylesheets (`styles`: game name
    to its CSS) as `game_style`, under the tree's version; compress what is sent."""
    app.static_folder = str(folder)
    app.static_url_path = prefix = f"/static/{version(folder, styles)}"
    app.extensions["game_styles"] = styles
    app.extensions["scripts"] = {} if app.debug else scripts(folder)  # debugging: as written
    app.add_url_rule(f"{prefix}/<path:filename>", endpoint="static", view_func=_file)
    app.add_url_rule(f"{prefix}/{STYLE}", endpoint="game_style", view_func=_style)
    app.add_url_rule("/static/<older>/<path:filename>", endpoint="moved_file",
                     view_func=_moved)
    # text only (the PNGs are compressed already; a live update's event stream is not listed:
    # it goes out as it is written); a body under 500 bytes or a 304 goes as it is
    app.config.setdefault("COMPRESS_MIMETYPES", [
        "text/html", "text/css", "text/javascript", "application/javascript",
        "application/json", "application/manifest+json", "image/svg+xml", "text/csv",
        "text/markdown", "text/plain"])
    app.config.setdefault("COMPRESS_MIN_SIZE", 500)
    Compress(app)
