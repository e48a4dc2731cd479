"""scorekeeper: the phone on the pub table that replaces the chalk slate.

`create_app` builds the app; each part sets itself up with its own `init_app`. The house's map
(its rooms and a hand's trip through them) is docs/architecture.md."""

import os

from flask import Flask
from flask_wtf.csrf import CSRFProtect

from scorekeeper import settings


def create_app(test_config=None):
    """Create and configure an instance of the Flask application."""
    app = Flask(
        __name__,
        instance_relative_config=True,
        # the folder of the secret key and the SQLite database; beside the code by default
        instance_path=os.environ.get("SCOREKEEPER_INSTANCE") or None,
        template_folder=str(settings.folder("templates")),
        static_folder=None,  # served under a name that changes with the files (web/assets.py)
    )
    settings.init_app(app, test_config)

    from scorekeeper import cli, db, i18n, views
    from scorekeeper.group import access
    from scorekeeper.table import live
    from scorekeeper.web import security

    db.init_app(app, settings.folder("migrations"))
    CSRFProtect(app)
    i18n.init_app(app)
    security.init_app(app)
    access.init_app(app)
    live.init_app(app)
    cli.init_app(app)
    views.init_app(app, settings.folder("static"))
    return app
