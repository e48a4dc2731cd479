"""Helpers for the tests: an app on a fresh database, and a phone's form posts."""

import functools
import os
import re
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path

from jinja2 import BytecodeCache
from sqlalchemy import event, inspect, select, text
from sqlalchemy.util import LRUCache
from werkzeug.routing import rules

from scorekeeper import create_app, engine
from scorekeeper.db import db
from scorekeeper.web import security

ROOT = Path(__file__).resolve().parent.parent

DATABASES = ["sqlite"] + (["postgresql"] if os.environ.get("TEST_DATABASE_URL") else [])
# the suite runs in parallel (pytest-xdist): each worker keeps its PostgreSQL tables in a schema
# of its own
SCHEMA = os.environ.get("PYTEST_XDIST_WORKER") or "public"


def postgresql_url() -> str:
    url = os.environ["TEST_DATABASE_URL"]
    if SCHEMA != "public":
        url += ("&" if "?" in url else "?") + f"options=-csearch_path%3D{SCHEMA}"
    return url


def drop_schema(conn) -> None:
    """Everything the models or a migration made in this worker's schema is gone."""
    conn.execute(text(f'DROP SCHEMA IF EXISTS "{SCHEMA}" CASCADE; CREATE SCHEMA "{SCHEMA}"'))


def database_url(kind: str, tmp_path: Path) -> str:
    if kind == "postgresql":
        return postgresql_url()
    return f"sqlite:///{tmp_path / 'test.sqlite'}"


class _Templates(BytecodeCache):
    """Each template compiled once per test process, not once per test: every test's app has a
    Jinja environment of its own, which would parse and compile anew each template it renders
    (most of a short test's time). Jinja checks the template's source against its checksum, so
    an edited template is compiled again."""

    def __init__(self):
        self.code = {}

    def load_bytecode(self, bucket):
        checksum, code = self.code.get(bucket.key, (None, None))
        if checksum == bucket.checksum:
            bucket.code = code

    def dump_bytecode(self, bucket):
        self.code[bucket.key] = bucket.checksum, bucket.code


TEMPLATES = _Templates()


def _built_once(compile_builder):
    """Werkzeug compiles each URL rule's builder (Python made from an AST) for every app: nine
    tenths of making an app, made once per test. The builder depends only on the rule's parts
    and its defaults' names (it reaches its converters through the rule it is bound to), so a
    rule like one built before gets that one's builder; a default filling a part of the rule
    (resolved into the code) is built as usual."""
    built = {}

    @functools.wraps(compile_builder)
    def builder(self, append_unknown=True):
        defaults = self.defaults or {}
        if any(dynamic and part in defaults for dynamic, part in self._trace):
            return compile_builder(self, append_unknown)
        key = (self.rule, tuple(self._trace), tuple(map(str, defaults)), append_unknown)
        if key not in built:
            built[key] = compile_builder(self, append_unknown)
        return built[key]

    return builder


if hasattr(rules.Rule, "_compile_builder"):  # Werkzeug's own; without it, apps are made slower
    rules.Rule._compile_builder = _built_once(rules.Rule._compile_builder)


class _Statements(LRUCache):
    """SQL compiled once per test process, not once per test: SQLAlchemy keeps what it compiled
    in its engine, keyed by the engine's dialect, and every test's app has an engine of its own
    (compiling the app's statements anew was a tenth of the tests' time). Here a dialect of the
    same database, driver and server version finds what another one compiled."""

    @staticmethod
    def _same(key: tuple) -> tuple:
        dialect, *rest = key
        return (type(dialect), dialect.server_version_info, *rest)

    def get(self, key, default=None):
        return super().get(self._same(key), default)

    def __setitem__(self, key, value) -> None:
        super().__setitem__(self._same(key), value)


STATEMENTS = _Statements(5000)


def _one_engine_per_url(make_engine):
    """PostgreSQL: one engine per test process and database URL, shared by every test's app,
    so its pool's connections stay open from one test to the next (each test connected anew
    before: a new server process each time, which had to read the catalog again). SQLite's
    database is a new file for each test, and gets a new engine."""
    engines = {}

    @functools.wraps(make_engine)
    def make(bind_key, options, app):
        if not str(options["url"]).startswith("postgresql"):
            return make_engine(bind_key, options, app)
        key = repr(sorted(options.items(), key=str))
        if key not in engines:
            engines[key] = make_engine(bind_key, options, app)
            event.listen(engines[key], "connect", _quick_commits)
        return engines[key]

    return make


db._make_engine = _one_engine_per_url(db._make_engine)


def make_app(kind: str, tmp_path: Path, **config):
    # The rate limiter is one object for every app of the process: after a test whose Redis was
    # away it still counts in its memory fallback, and would go back to the next app's storage
    # at a moment of its own, a count begun in one and ended in the other (a limit missed).
    security.limiter._storage_dead = False
    if kind == "sqlite":  # a copy of the empty schema, made once per test session
        shutil.copyfile(_sqlite_schema(), tmp_path / "test.sqlite")
    app = create_app({
        "TESTING": True,
        "SECRET_KEY": "test",
        "SQLALCHEMY_DATABASE_URI": database_url(kind, tmp_path),
        "SQLALCHEMY_ENGINE_OPTIONS": {"execution_options": {"compiled_cache": STATEMENTS}},
        # each worker's PostgreSQL schema has its own games: and its own channel for them
        "LIVE_CHANNEL": f"scorekeeper_live_{SCHEMA}",
        **config,
    })
    app.jinja_env.bytecode_cache = TEMPLATES
    if kind == "postgresql":
        with app.app_context():
            empty(kind)
    return app


def _quick_commits(dbapi_connection, connection_record) -> None:
    """A test's commit does not wait for the disk: its data need not outlive a crash of the
    server, and waiting for it was most of a PostgreSQL test's time."""
    with dbapi_connection.cursor() as cursor:
        cursor.execute("SET synchronous_commit = off")
    dbapi_connection.commit()


@functools.cache
def _sqlite_schema() -> Path:
    folder = Path(tempfile.mkdtemp(prefix="scorekeeper-schema-"))
    app = create_app({"TESTING": True, "SECRET_KEY": "test",
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'schema.sqlite'}"})
    with app.app_context():
        db.create_all()
        db.engine.dispose()
    return folder / "schema.sqlite"


def empty(kind: str) -> None:
    """The models' tables, empty: made once, then emptied for each test (a test that dropped or
    migrated the schema leaves other tables behind, and the schema is made anew)."""
    if kind != "postgresql":
        reset(kind)
        return
    tables = [table.name for table in db.metadata.sorted_tables]
    if _MADE and set(inspect(db.engine).get_table_names()) == set(tables):
        with db.engine.begin() as conn:
            names = ", ".join("'{}'".format(name.replace("'", "''")) for name in tables[::-1])
            conn.exec_driver_sql(_EMPTY.replace(":tables", f"ARRAY[{names}]"))  # referrers first
    else:
        reset(kind)


# A test's few rows deleted and the sequences it used started again, as TRUNCATE ... RESTART
# IDENTITY does, in one round trip; TRUNCATE makes every table's files anew (a fifth of a second
# a test here), a DELETE of a table the test left empty costs nothing.
_EMPTY = """
DO $$
DECLARE name text;
BEGIN
    FOREACH name IN ARRAY :tables LOOP
        EXECUTE 'DELETE FROM ' || quote_ident(name);
    END LOOP;
    FOR name IN SELECT sequencename FROM pg_sequences
                WHERE schemaname = current_schema() AND last_value IS NOT NULL LOOP
        EXECUTE 'ALTER SEQUENCE ' || quote_ident(name) || ' RESTART';
    END LOOP;
END $$
"""


# whether this process made its PostgreSQL schema from today's models already (a schema left by
# an earlier run may have yesterday's columns)
_MADE: list[bool] = []


def reset(kind: str) -> None:
    """Empty schema: drop everything the models (or a migration) made, create the tables anew."""
    if kind == "postgresql":
        with db.engine.begin() as conn:
            drop_schema(conn)
        _MADE[:] = [True]
    db.drop_all()
    db.create_all()


def start_game(client, kind, names, first_dealer=None, rules=None, slug="tanne"):
    """Start a game through the new-game form; return the table's path."""
    if client.get(f"/g/{slug}").status_code == 404:
        client.post("/groups", data={"name": slug})
    data = {"kind": kind, "order": "\n".join(names), "first_dealer": first_dealer or names[0]}
    data.update({f"seat-{n}": "on" for n in names})
    data.update({f"rule-{k}": v for k, v in (rules or {}).items()})
    response = client.post(f"/g/{slug}/games/new", data=data)
    assert response.status_code == 302, response.get_data(as_text=True)
    return response.location


def rule_fields(game, rules: dict) -> dict[str, str]:
    """The new-game form's rule fields for a record's rules, typed as a German player would."""
    fields = {}
    rules = engine.base.resolve(game.OPTIONS, rules)
    for option in game.OPTIONS:
        value = rules[option.name]
        if value is None:  # an empty field ("no target")
            continue
        if option.kind == "bool":
            if value:
                fields[option.name] = "y"
        elif option.kind == "int" and "cents" in option.name:
            fields[option.name] = f"{value / 100:.2f}".replace(".", ",")
        elif option.kind == "mapping":  # "leere 4, halbe 2"
            fields[option.name] = ", ".join(f"{name} {number}" for name, number in value.items())
        elif value is None:  # none: left empty
            fields[option.name] = ""
        else:
            fields[option.name] = str(value)
    return fields


def entry_fields(app, adapter, entry, before) -> dict[str, str]:
    """The fields of the game's entry form that hold `entry` (its adapter fills the form from an
    entry, as for a correction; `before` is the summary before it), as a browser posts them: a
    ticked box as "y", the values of a group of boxes each, nothing for an empty field."""
    with app.test_request_context():
        data = adapter.fill(adapter.form_kind(entry), entry, before)
    return {k: v if isinstance(v, list) else "y" if v is True else str(v)
            for k, v in data.items() if v is not None and v is not False and v not in ("", [])}


def enter(client, path, fields, seq=None, key=None):
    """Post an entry form as a phone would, with the entry number the table shows."""
    if seq is None:
        seq = len(client.get(path + "/record.json").get_json()["hands"]) + 1
    data = {"seq": seq, **fields}
    if key:
        data["key"] = key
    return client.post(path + "/entries", data=data)


def catalogue(lang: str):
    """The app's translation of the engine's English texts, as the web pages use it."""
    from babel.support import Translations

    return Translations.load(str(ROOT / "scorekeeper" / "translations"), [lang]).gettext


DE = catalogue("de")
NL = catalogue("nl")


def phone(app, slug="tanne"):
    """Another phone at the table: a client that opened the group's join link."""
    from scorekeeper.models import Group

    with app.app_context():
        token = db.session.scalar(select(Group.token).where(Group.slug == slug))
    client = app.test_client()
    assert join(client, f"/join/{token}").status_code == 302
    return client


def join(client, path: str):
    """Open a join (or view) link and tap its one button, as a phone does: the link's page names
    the group, the tap (a POST with the form's CSRF token) joins."""
    page = client.get(path)
    if page.status_code == 302:  # in the group already
        return page
    assert page.status_code == 200, page.status_code
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"',
                      page.get_data(as_text=True))
    return client.post(path, data={"csrf_token": token.group(1)} if token else {})


@contextmanager
def counted(app):
    """The SQL statements and commits sent to the app's database meanwhile."""
    statements, commits = [], []
    with app.app_context():
        bound = db.engine

    def statement(conn, cursor, text, *args):
        statements.append(text)

    def commit(conn):
        commits.append(conn)

    event.listen(bound, "before_cursor_execute", statement)
    event.listen(bound, "commit", commit)
    try:
        yield statements, commits
    finally:
        event.remove(bound, "before_cursor_execute", statement)
        event.remove(bound, "commit", commit)
