"""Promises about the project itself: a pure engine, migrations that match the models."""

import ast
import subprocess
import sys
from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask_migrate import upgrade

from scorekeeper.db import db

ROOT = Path(__file__).resolve().parent.parent
WEB_OR_DB = {"flask", "flask_wtf", "flask_sqlalchemy", "flask_babel", "sqlalchemy", "werkzeug",
             "wtforms", "jinja2"}


def test_the_engine_imports_no_web_or_database_library():
    for path in (ROOT / "scorekeeper" / "engine").glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            for name in names:
                assert name.split(".")[0] not in WEB_OR_DB, f"{path.name} imports {name}"


def test_no_engine_function_is_longer_than_a_screen():
    for path in (ROOT / "scorekeeper" / "engine").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef):
                length = node.end_lineno - node.lineno + 1
                assert length <= 60, f"{path.name}: {node.name} has {length} lines"


def test_migrations_build_exactly_the_models(app):
    with app.app_context():
        db.drop_all()
        with db.engine.begin() as conn:
            conn.exec_driver_sql("DROP TABLE IF EXISTS alembic_version")
        upgrade(directory=str(ROOT / "migrations"))
        with db.engine.connect() as conn:
            diff = compare_metadata(MigrationContext.configure(conn), db.metadata)
        assert diff == []


def test_the_code_passes_the_linter():
    ruff = Path(sys.executable).parent / "ruff"
    result = subprocess.run([str(ruff), "check", "scorekeeper", "tests", "bench"], cwd=ROOT,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout


def test_the_package_passes_mypy_and_the_engine_its_strict_flags():
    mypy = Path(sys.executable).parent / "mypy"
    result = subprocess.run([str(mypy)], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout


def test_every_text_of_the_engine_is_in_the_german_and_dutch_catalogues(tmp_path):
    from babel.messages.pofile import read_po

    from scorekeeper.engine import errors, games

    # the app's games (the tests' fourth game is not the app's: its texts stay English)
    own = [g for g in games.all_games().values() if g.__name__.startswith("scorekeeper.")]
    theirs = [g for g in games.all_games().values() if g not in own]
    stray = {code for g in theirs for code in errors.MESSAGES if code.startswith(f"{g.NAME}.")}
    texts = [*(text for code, text in errors.MESSAGES.items() if code not in stray),
             *errors.KEY_WORDS.values(), errors.AND, errors.OR, *errors.ENTRY_WORDS.values()]
    for game in own:
        texts += [game.TITLE, game.SUMMARY]
        for option in game.OPTIONS:
            texts += [option.help, *option.labels.values()]
    assert all(isinstance(text, errors.Words) for text in texts)
    # `pybabel extract -k N_` finds every one of them: none is built at run time
    pybabel = Path(sys.executable).parent / "pybabel"
    subprocess.run([str(pybabel), "extract", "-F", "babel.cfg", "-k", "N_", "-k", "_l", "-o",
                    str(tmp_path / "messages.pot"), "."], cwd=ROOT, check=True,
                   capture_output=True)
    with (tmp_path / "messages.pot").open("rb") as f:
        extracted = {m.id for m in read_po(f) if m.id}
    assert [text for text in texts if text not in extracted] == []
    for language in ("de", "nl"):
        path = ROOT / "scorekeeper" / "translations" / language / "LC_MESSAGES" / "messages.po"
        with path.open("rb") as f:
            catalog = {m.id: m.string for m in read_po(f, locale=language) if m.id}
        missing = [text for text in texts if not catalog.get(text)]
        assert missing == [], f"{language}: {missing}"
        # and so is every text of the web app: a new one cannot slip through untranslated
        assert sorted(extracted - set(catalog)) == [], language


def test_every_message_is_translated_into_german_and_dutch():
    from babel.messages.pofile import read_po

    for language in ("de", "nl"):
        path = ROOT / "scorekeeper" / "translations" / language / "LC_MESSAGES" / "messages.po"
        with path.open("rb") as f:
            catalog = read_po(f, locale=language)
        missing = [m.id for m in catalog if m.id and not (
            m.string if isinstance(m.string, str) else all(m.string))]
        assert missing == [], f"{language}: {missing}"
