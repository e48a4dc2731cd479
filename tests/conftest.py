"""Fixtures: an app with a temporary database per test, on SQLite and (when TEST_DATABASE_URL is
set) on PostgreSQL too."""

import os
import re
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))  # record generators

import fourth_game  # noqa: E402, F401 - the test-only fourth game joins the registries
from hostile import _export, _stammtisch  # noqa: E402
from support import DATABASES, join, make_app, phone  # noqa: E402

from scorekeeper.db import db  # noqa: E402

ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"  # the screenshots
STARTED = time.time()


def pytest_terminal_summary(terminalreporter):
    """Every screenshot of this run, listed at the end (also those the workers took)."""
    taken = sorted(p for p in ARTIFACTS.glob("*.*g") if p.stat().st_mtime >= STARTED) \
        if ARTIFACTS.is_dir() else []
    if taken:
        terminalreporter.section("screenshots (390×844)")
        for path in taken:
            terminalreporter.write_line(os.path.relpath(path))


def pytest_collection_modifyitems(items):
    """The slow tests first (the wheel's build, the benches): started last, one of them would
    keep the whole run waiting while the other workers are done."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


def pytest_addoption(parser):
    parser.addoption(
        "--examples", type=float, default=1.0, metavar="SHARE",
        help="the share of its examples each property (Hypothesis) test tries: all of them in "
             "`make test`, fewer in `make check`; on PostgreSQL a quarter of that share (the "
             "same test on SQLite tries the share itself)")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    """A property test tries the share of its examples that --examples asks for; on
    PostgreSQL a quarter of it: what a property checks is the same on both databases, and the
    SQLite run tries the examples the test asks for."""
    test = getattr(item.obj, "__func__", item.obj)
    chosen = getattr(test, "_hypothesis_internal_use_settings", None)
    share = item.config.getoption("examples")
    callspec = getattr(item, "callspec", None)
    if callspec is not None and callspec.params.get("app") == "postgresql":
        share /= 4
    if chosen is None or share >= 1:
        return (yield)
    from hypothesis import settings

    test._hypothesis_internal_use_settings = settings(
        chosen, max_examples=max(1, round(chosen.max_examples * share)))
    try:
        return (yield)
    finally:
        test._hypothesis_internal_use_settings = chosen


@pytest.fixture(params=DATABASES)
def app(request, tmp_path):
    app = make_app(request.param, tmp_path, WTF_CSRF_ENABLED=False)
    app.config["DATABASE_KIND"] = request.param
    yield app
    with app.app_context():
        db.session.remove()
        if request.param != "postgresql":  # its engine stays for the next test (support.py)
            db.engine.dispose()


@pytest.fixture
def one_pin_window(monkeypatch):
    """PIN attempts count in sliding windows (the last quarter of an hour, the last day), whose
    rows are fixed windows: on a stopped clock the test's attempts all fall into one and count
    alike, also when it runs at a quarter past."""
    import datetime as dt

    from scorekeeper.group import attempts

    monkeypatch.setattr(attempts, "now", lambda: dt.datetime(2026, 12, 4, 20, 5))


@pytest.fixture(autouse=True)
def quick_pins(request, monkeypatch):
    """PINs hashed with the same scrypt at its lowest cost, also the hash checked for a group
    without a PIN: each hash at the real cost takes a twentieth of a second, most of the time
    of a test that sets or tries PINs. The hash itself, as slow for a group with a PIN or
    without, is checked by the tests marked `real_pins`."""
    if request.node.get_closest_marker("real_pins"):
        return
    import functools
    import secrets

    from werkzeug.security import generate_password_hash

    from scorekeeper.group import pins

    def cheap(pin):
        return generate_password_hash(pin, method="scrypt:128:8:1")

    monkeypatch.setattr(pins, "generate_password_hash", cheap)
    monkeypatch.setattr(pins, "_no_pin", functools.cache(lambda: cheap(secrets.token_hex())))


@pytest.fixture
def client(app):
    return app.test_client()


class Runner:
    """The command line; like a host who opens the join link that `import` prints, the test's
    client (the phone) joins every group the command prints a link for."""

    def __init__(self, app, client):
        self.runner, self.client = app.test_cli_runner(), client

    def invoke(self, *args, **kwargs):
        result = self.runner.invoke(*args, **kwargs)
        for path in re.findall(r"^join link: https?://[^/\s]+(/join/\S+)$", result.output, re.M):
            assert join(self.client, path).status_code == 302
        return result


@pytest.fixture
def runner(app, client):
    return Runner(app, client)


@pytest.fixture(scope="session")
def real_export(tmp_path_factory):
    """The `export-group` document of such a group, made once (on SQLite) for the imports."""
    app = make_app("sqlite", tmp_path_factory.mktemp("export"), WTF_CSRF_ENABLED=False)
    _stammtisch(app, app.test_client())
    document = _export(phone(app))
    with app.app_context():
        db.engine.dispose()
    return document
