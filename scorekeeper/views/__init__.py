"""The pages: one blueprint per feature, and what every page shares (its templates' helpers,
the static files, the page shown when something fails)."""

from pathlib import Path

from flask import Flask, render_template
from jinja2 import ChoiceLoader, FileSystemLoader
from werkzeug.exceptions import InternalServerError

from scorekeeper import games as registry
from scorekeeper.db import db
from scorekeeper.group.access import device_label
from scorekeeper.web import assets, display, drawn


def init_app(app: Flask, static: Path) -> None:
    """The templates' helpers, the static files with each game's stylesheet, the blueprints and
    the page of a failure."""
    from scorekeeper.views import (
        access,
        evenings,
        games,
        groups,
        kasse,
        live,
        main,
        seasons,
        standings,
        tournaments,
        tv,
    )

    app.extensions["drawn_forms"] = drawn.Drawings()  # the table page's (games._entry_forms)
    app.extensions["rankings"] = drawn.Drawings(tournaments.DRAWN_KEPT)  # the spectators' link's
    app.jinja_env.filters.update(display.FILTERS, device=device_label)
    app.jinja_env.globals["url_for"] = display.page_url
    app.jinja_env.globals["games_registry"] = registry.GAMES
    # what the pages call a game (a free list: the name the group gave it), a section of the
    # standings, and the game of a section
    app.jinja_env.globals.update(game_title=registry.title, section_of=registry.section,
                                 section_title=registry.section_title,
                                 section_game=lambda key: registry.of_section(key)[0])
    folders = [a.TEMPLATES for a in registry.GAMES.values() if a.TEMPLATES]
    if folders and app.jinja_loader:  # a game whose templates live outside the app's folder
        app.jinja_loader = ChoiceLoader([app.jinja_loader, *map(FileSystemLoader, folders)])
    env = app.jinja_env
    assets.init_app(app, static, {  # each game's own CSS (its style part)
        a.name: env.loader.get_source(env, a.template("style"))[0] if env.loader else ""
        for a in registry.GAMES.values() if "style" in a.PARTS})
    for blueprint in (main, access, groups, games, evenings, standings, kasse, seasons, tv, live,
                      tournaments):
        app.register_blueprint(blueprint.bp)
    app.register_error_handler(InternalServerError, failed)


def failed(error: InternalServerError):
    """Something failed half way: nothing of this request is stored (the session is rolled
    back), and the page says so in the phone's language."""
    db.session.rollback()
    try:
        return render_template("errors/500.html"), 500
    except Exception:  # the page itself cannot be made: a line of text, still not Werkzeug's
        return "500: nothing of this step was stored; everything stored before is kept.", 500
