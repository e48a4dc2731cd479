"""Fixtures: an app with a temporary database per test, on SQLite and (when TEST_DATABASE_URL is
set) on PostgreSQL too."""

import sys
from pathlib import Path

import pytest
from support import DATABASES, make_app

from scorekeeper.db import db

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))  # record generators


@pytest.fixture(params=DATABASES)
def app(request, tmp_path):
    app = make_app(request.param, tmp_path, WTF_CSRF_ENABLED=False)
    app.config["DATABASE_KIND"] = request.param
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()

