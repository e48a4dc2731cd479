"""scorekeeper: the phone on the pub table that replaces the chalk slate."""

import os
from pathlib import Path

from flask import Flask
from flask_wtf.csrf import CSRFProtect

PACKAGE = Path(__file__).resolve().parent
ROOT = PACKAGE.parent


def _folder(name):
    """templates/, static/ or migrations/: inside the package when installed from a wheel,
    beside it in a checkout (and with `pip install -e .`)."""
    inside = PACKAGE / name
    return inside if inside.is_dir() else ROOT / name


def create_app(test_config=None):
    """Create and configure an instance of the Flask application."""
    app = Flask(
        __name__,
        instance_relative_config=True,
        template_folder=str(_folder("templates")),
        static_folder=str(_folder("static")),
    )
    app.config.from_mapping(
        SECRET_KEY="dev",
        SQLALCHEMY_DATABASE_URI=os.environ.get("DATABASE_URL")
        or "sqlite:///" + os.path.join(app.instance_path, "scorekeeper.sqlite"),
        BABEL_DEFAULT_LOCALE="de",
        BABEL_DEFAULT_TIMEZONE="Europe/Berlin",
        BABEL_TRANSLATION_DIRECTORIES=str(PACKAGE / "translations"),
        LANGUAGES=("de", "en", "nl"),
        # no upload route: the largest real form, a new game in a group of 60 players with
        # long names, is about 10 KB (tests/test_bad_input.py); a bigger body is refused (413)
        MAX_CONTENT_LENGTH=64 * 1024,
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
    else:
        app.config.from_mapping(test_config)
    os.makedirs(app.instance_path, exist_ok=True)

    from . import cli, display, i18n
    from .db import db, migrate
    from .views import evenings, games, groups, main, standings

    db.init_app(app)
    migrate.init_app(app, db, directory=str(_folder("migrations")))
    app.config.setdefault("DOCS_FOLDER", str(_folder("docs")))
    CSRFProtect(app)
    i18n.init_app(app)
    display.init_app(app)
    cli.init_app(app)
    app.register_blueprint(main.bp)
    app.register_blueprint(groups.bp)
    app.register_blueprint(games.bp)
    app.register_blueprint(evenings.bp)
    app.register_blueprint(standings.bp)
    return app
