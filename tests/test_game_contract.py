"""One home per game, and one contract: a game lives in its engine module, its adapter and its
templates, keeps everything the shared pages ask of it, and the rest of the app only asks the
registry. The checks run over every registered game, the tests' fourth game too."""

import inspect
import re
import shutil
import tomllib
from pathlib import Path

import generators
import pytest
from fourth_game.adapter import Zehner
from jinja2 import TemplateNotFound

from scorekeeper import engine, games
from scorekeeper.engine import base
from scorekeeper.games.base import REQUIRED_PARTS, Roster

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted(games.GAMES)
SHARED = [*(ROOT / "scorekeeper").rglob("*.py"), *(ROOT / "templates").rglob("*.html"),
          *(ROOT / "static").rglob("*.js"), *(ROOT / "static").rglob("*.css"),
          *(ROOT / "migrations").rglob("*.py")]
REGISTRIES = {ROOT / "scorekeeper" / "engine" / "games.py",
              ROOT / "scorekeeper" / "games" / "__init__.py"}


def _words(adapter) -> set[str]:
    """How code or a text could name the game: its code, module name and title words."""
    module = adapter.engine.__name__.rsplit(".", 1)[1]
    title = re.findall(r"[A-Za-z][A-Za-z-]{3,}", adapter.engine.TITLE)
    # a title may say where a game comes from ("Dutch Hearts"): the language and the suit are
    # no game of their own
    return {adapter.name, module, *title} - {"Dutch", "Hearts"}


def _templates(adapter) -> Path:
    return Path(adapter.TEMPLATES or ROOT / "templates") / "games" / adapter.name


def _own_places(adapter) -> set[Path]:
    places = {Path(inspect.getfile(adapter.engine)), Path(inspect.getfile(type(adapter)))}
    return places | set(_templates(adapter).rglob("*"))


def _sample_state(name: str) -> dict:
    """The summary of a short generated game of this kind."""
    record = generators.random_record(name, 3, 1)
    return engine.replay(record).summary()


def _field_names(adapter, app) -> tuple[set[str], set[str]]:
    """The names the game's entry forms post: whole (``mode``), and the prefixes of those that
    end in a player's name (``tricks`` of ``tricks-Anna``)."""
    state = _sample_state(adapter.name)
    players = "|".join(re.escape(p["name"]) for p in state["players"])
    with app.test_request_context():
        forms = adapter.forms(state, adapter.rules(state.get("rules", {})), Roster())
        names = {field.name for form in forms.values() for field in form}
    names -= {"csrf_token", "key", "seq", "shape", "confirm"}
    prefixes = {re.sub(rf"(-\d+)?-({players})$", "", n) for n in names}
    return {n for n in names if n in prefixes}, prefixes - names


def test_no_module_or_template_outside_a_games_own_places_names_it():
    found = []
    for adapter in games.GAMES.values():
        pattern = re.compile("|".join(re.escape(w) for w in sorted(_words(adapter))),
                             re.IGNORECASE)
        allowed = _own_places(adapter) | REGISTRIES
        for path in SHARED:
            if path in allowed:
                continue
            for number, line in enumerate(path.read_text().splitlines(), start=1):
                if pattern.search(line):
                    found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert found == []


# words a game's entries or forms use that are the shared code's own as well
SHARED_WORDS = {
    "dealer": "who deals: every summary's next_dealer, a history row's dealer",
    "kind": "a game's kind (the new-game form, the standings rows)",
    "seat": "the new-game form's seating ticks (a table change ticks the same way)",
}
# files that may spell a game's keys: the names of the suits, and migrations, which keep the
# columns they made at the time
NOT_CHECKED = {ROOT / "scorekeeper" / "engine" / "cards.py",
               *(ROOT / "migrations").rglob("*.py")}


def test_no_shared_code_knows_a_games_entry_keys_or_field_names(app):
    """A key of a game's entries ("moon") or a field its forms post ("playing-Anna", "mode")
    written as a string, a field name or a selector in shared code: it knows that game."""
    found = []
    homes = set().union(*map(_own_places, games.GAMES.values())) | REGISTRIES | NOT_CHECKED
    for adapter in games.GAMES.values():
        exact, prefixes = _field_names(adapter, app)
        exact = (exact | set(adapter.engine.Table.ENTRY_KEYS)) - set(SHARED_WORDS)
        prefixes -= set(SHARED_WORDS)
        either = "|".join(map(re.escape, sorted(exact)))
        pattern = re.compile(
            rf"""(?<!_l\()(?<!_\()(["'])({either})\1|name[\^$*]?=["']?({either})\b"""
            + (rf"""|(["'])({"|".join(map(re.escape, sorted(prefixes)))})-"""
               if prefixes else ""))
        for path in SHARED:
            if path in homes:
                continue
            for number, line in enumerate(path.read_text().splitlines(), start=1):
                for match in pattern.finditer(line):
                    word = next(g for g in match.groups()[1:] if g and g not in "\"'")
                    found.append(f"{path.relative_to(ROOT)}:{number}: {adapter.name}'s "
                                 f"{word!r}: {line.strip()}")
    assert found == []


def contract_problems(adapter, app) -> list[str]:
    """What the game lacks of the contract, each problem naming the part."""
    name, module = adapter.name, adapter.engine
    problems = []
    for constant in ("NAME", "TITLE", "SUMMARY", "OPTIONS", "MIN_PLAYERS", "MAX_PLAYERS"):
        if not hasattr(module, constant):
            problems.append(f"{name}: the engine module has no {constant}")
    table = getattr(module, "Table", None)
    if not (isinstance(table, type) and issubclass(table, base.Table)):
        problems.append(f"{name}: the engine module has no Table of engine.base.Table")
    if engine.all_games().get(name) is not module:
        problems.append(f"{name}: the engine module is not registered (engine.games.register)")
    if "hand" not in getattr(adapter, "FORMS", {}):
        problems.append(f"{name}: the adapter's FORMS has no 'hand' form")
    problems += [f"{name}: the adapter's PARTS lacks the template part {part!r}"
                 for part in adapter.missing_parts()]
    for part in sorted({*adapter.PARTS, *getattr(adapter, "FORMS", {})}):
        try:
            app.jinja_env.get_template(adapter.template(part))
        except TemplateNotFound:
            problems.append(f"{name}: the template of part {part!r} ({adapter.template(part)})"
                            " is missing")
    docs = Path(adapter.DOCS or ROOT / "docs") / "rules" / f"{name}.md"
    if not docs.is_file():
        problems.append(f"{name}: the rules document {docs.name} is missing")
    try:
        engine.replay(generators.random_record(name, 2, 1))
    except (LookupError, ValueError) as error:
        problems.append(f"{name}: no record generator plays the game ({error})")
    return problems


@pytest.mark.parametrize("name", GAMES)
def test_every_game_keeps_the_contract(app, name):
    assert contract_problems(games.GAMES[name], app) == []
    adapter = games.GAMES[name]
    state = _sample_state(name)
    game = type("Game", (), {"state": state, "status": "running", "kind": name})()
    for player in state["players"]:  # every figure the standings add up
        assert set(adapter.figures(game, player)) == set(adapter.FIGURES), name


@pytest.mark.parametrize("part", [*REQUIRED_PARTS, "hand"])
def test_a_game_without_one_of_its_templates_is_told_which(app, tmp_path, part):
    """The fourth game with one template removed: the contract names the part."""
    folder = tmp_path / "templates"
    shutil.copytree(Zehner.TEMPLATES, folder)
    (folder / "games" / "zehner" / f"{part}.html").unlink()
    without = type("Without", (Zehner,), {"TEMPLATES": str(folder)})()
    app.jinja_loader.loaders[-1].searchpath = [str(folder)]  # the app's loader for the game
    assert any(f"part {part!r}" in problem and "missing" in problem
               for problem in contract_problems(without, app)), part


@pytest.mark.parametrize("part", REQUIRED_PARTS)
def test_a_game_that_does_not_declare_a_part_is_told_which(app, part):
    without = type("Without", (Zehner,), {"PARTS": Zehner.PARTS - {part}})()
    assert f"zehner: the adapter's PARTS lacks the template part {part!r}" in \
        contract_problems(without, app)


def test_an_unregistered_engine_or_a_missing_generator_is_told(app):
    from fourth_game import zehner

    stray = type("Stray", (Zehner,), {"engine": type(zehner)("stray")})()
    stray.engine.NAME = "stray"
    problems = contract_problems(stray, app)
    assert "stray: the engine module has no Table of engine.base.Table" in problems
    assert "stray: the engine module is not registered (engine.games.register)" in problems
    assert "stray: the engine module has no OPTIONS" in problems
    assert any(p.startswith("stray: no record generator") for p in problems)


def test_the_registry_holds_every_game_of_the_engine_with_its_adapter():
    assert set(games.GAMES) == set(engine.all_games())
    for name, adapter in games.GAMES.items():
        assert adapter.engine is engine.get(name)


def test_the_wheel_lists_every_package():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(config["packages"])
    for init in (ROOT / "scorekeeper").rglob("__init__.py"):
        package = ".".join(init.parent.relative_to(ROOT).parts)
        assert package in listed, f"{package} is missing from pyproject.toml's packages"


@pytest.mark.parametrize("name", GAMES)
def test_every_games_records_read_figures_it_stores(name):
    """The season chronicle's records (Adapter.RECORDS) read the game's own figures: a record's
    value, the figure that must be set and the hand's number; a hand's number is never added
    up in the standings (WHERE)."""
    adapter = games.get(name)
    stored = {*adapter.FIGURES, "money_cents"}
    assert adapter.RECORDS, name
    for record in adapter.RECORDS:
        assert {record.figure, record.only or record.figure} <= stored, (name, record)
        assert record.hand is None or record.hand in adapter.WHERE, (name, record)
    assert adapter.WHERE <= set(adapter.FIGURES), name
