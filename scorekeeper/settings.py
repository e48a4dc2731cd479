"""The app's settings: the defaults, what the environment and `instance/config.py` set, and the
instance folder that holds the secret key and the SQLite database."""

from __future__ import annotations

import datetime as dt
import os
import secrets
import time
from pathlib import Path
from typing import Any

from flask import Flask

PACKAGE = Path(__file__).resolve().parent
ROOT = PACKAGE.parent


def folder(name: str) -> Path:
    """templates/, static/, migrations/ or docs/: inside the package when installed from a
    wheel, beside it in a checkout (and with `pip install -e .`)."""
    inside = PACKAGE / name
    return inside if inside.is_dir() else ROOT / name


def _switch(name: str) -> bool:
    return os.environ.get(name, "").lower() in ("1", "true", "yes", "on")


def defaults(instance_path: str) -> dict[str, Any]:
    """The settings every app starts from; the environment's SCOREKEEPER_* and DATABASE_URL."""
    return dict(
        SQLALCHEMY_DATABASE_URI=os.environ.get("DATABASE_URL")
        or "sqlite:///" + os.path.join(instance_path, "scorekeeper.sqlite"),
        BABEL_DEFAULT_LOCALE="de",
        BABEL_DEFAULT_TIMEZONE="Europe/Berlin",
        BABEL_TRANSLATION_DIRECTORIES=str(PACKAGE / "translations"),
        LANGUAGES=("de", "en", "nl"),
        # no upload route: the largest real form, a new game in a group of 60 players with
        # long names, is about 10 KB (tests/test_bad_input.py); a bigger body is refused (413)
        MAX_CONTENT_LENGTH=64 * 1024,
        # a phone keeps the groups it joined in the session cookie, for years
        PERMANENT_SESSION_LIFETIME=dt.timedelta(days=5 * 365),
        SESSION_REFRESH_EACH_REQUEST=False,  # five years from joining; no new cookie per poll
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_SECURE=_switch("SCOREKEEPER_HTTPS"),  # served over HTTPS only
        BEHIND_PROXY=_switch("SCOREKEEPER_BEHIND_PROXY"),  # trust one proxy's X-Forwarded-*
        # where the join link points when printed on the command line
        PUBLIC_URL=os.environ.get("SCOREKEEPER_URL", "http://localhost:5000"),
        # rate limits: in memory for one process; shared (redis://...) for several
        RATELIMIT_STORAGE_URI=os.environ.get("RATELIMIT_STORAGE_URI", "memory://"),
        RATELIMIT_KEY_PREFIX=os.environ.get("RATELIMIT_KEY_PREFIX", "scorekeeper"),
        RATELIMIT_HEADERS_ENABLED=False,
        # a table page stays open all evening; a hand kept on a phone without network takes a
        # fresh token when it is sent (static/js/queue.js)
        WTF_CSRF_TIME_LIMIT=24 * 3600,
        # live updates: pushed over a stream (SCOREKEEPER_LIVE_STREAMS=0: the pages poll), sent
        # to the other processes through this Redis or PostgreSQL (default: the rate limits'
        # Redis, else a PostgreSQL database, else within the one process)
        LIVE_STREAMS=os.environ.get("SCOREKEEPER_LIVE_STREAMS", "1") != "0",
        LIVE_URL=os.environ.get("SCOREKEEPER_LIVE_URL", ""),
        # the channel's name there: apps that share a database or Redis keep theirs apart
        LIVE_CHANNEL=os.environ.get("SCOREKEEPER_LIVE_CHANNEL", "scorekeeper_live"),
        DOCS_FOLDER=str(folder("docs")),
        # PostgreSQL: how many requests of a process use the database at once (`_pool`)
        DATABASE_CONNECTIONS=int(os.environ.get("SCOREKEEPER_DB_CONNECTIONS", "4")),
    )


def init_app(app: Flask, test_config: dict[str, Any] | None = None) -> None:
    """Settle the app's settings: the defaults, then `instance/config.py` (or, for a test, the
    test's own), and make the instance folder private."""
    app.config.from_mapping(defaults(app.instance_path))
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
    else:
        app.config.from_mapping(test_config)
    _pool(app)
    _private_instance(app)


def _pool(app: Flask) -> None:
    """On PostgreSQL at most DATABASE_CONNECTIONS requests of a process use the database at
    once; the others wait for a connection, in about the order they came. Under gevent a request
    that waits for PostgreSQL lets the others run, and which one runs next is nearly luck: with
    50 tables entering at once, a quarter of the games took 20 ms and the others 220-350 ms;
    waiting in line, nearly all 150-190 ms (bench/tournament.py). SQLite's calls do not wait."""
    if app.config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql"):
        app.config["SQLALCHEMY_ENGINE_OPTIONS"] = {
            "pool_size": app.config["DATABASE_CONNECTIONS"], "max_overflow": 0,
            **app.config.get("SQLALCHEMY_ENGINE_OPTIONS", {})}


def _private_instance(app: Flask) -> None:
    """The instance folder holds the secret key and the SQLite database: readable by the app's
    own user only (the folder 0700, its files 0600). A missing secret key is made there on the
    first start, never a fixed one that would let anybody sign cookies."""
    instance = Path(app.instance_path)
    instance.mkdir(mode=0o700, parents=True, exist_ok=True)
    if not app.config.get("SECRET_KEY"):
        key_file = instance / "secret_key"
        try:  # the first of several workers starting at once writes it; the others read it
            handle = os.open(key_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            os.write(handle, secrets.token_hex(32).encode())
            os.close(handle)
        except FileExistsError:
            pass
        for _ in range(50):  # written a moment ago by another worker
            app.config["SECRET_KEY"] = key_file.read_text().strip()
            if app.config["SECRET_KEY"]:
                break
            time.sleep(0.01)
    database = instance / "scorekeeper.sqlite"
    if app.config["SQLALCHEMY_DATABASE_URI"] == f"sqlite:///{database}" and not database.exists():
        os.close(os.open(database, os.O_WRONLY | os.O_CREAT, 0o600))  # an empty SQLite file
    for path in (instance, *instance.iterdir()):
        if path.stat().st_uid == os.getuid():
            path.chmod(0o700 if path.is_dir() else 0o600)
