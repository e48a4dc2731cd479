"""One home per game: a game lives in its engine module, its adapter and its templates; the rest
of the app only asks the registry."""

import re
import tomllib
from pathlib import Path

from scorekeeper import engine, games

ROOT = Path(__file__).resolve().parent.parent


def _words(adapter) -> set[str]:
    """How code or a text could name the game: its code, module name and title words."""
    module = adapter.engine.__name__.rsplit(".", 1)[1]
    title = re.findall(r"[A-Za-z][A-Za-z-]{3,}", adapter.engine.TITLE)
    # a title may say where a game comes from ("Dutch Hearts"): the language and the suit are
    # no game of their own
    return {adapter.name, module, *title} - {"Dutch", "Hearts"}


def _own_places(adapter) -> set[Path]:
    module = adapter.engine.__name__.rsplit(".", 1)[1]
    places = {ROOT / "scorekeeper" / "engine" / f"{module}.py",
              ROOT / "scorekeeper" / "games" / f"{module}.py"}
    places |= set((ROOT / "templates" / "games" / adapter.name).rglob("*"))
    return places


# the registries name every game; the Kasse is the cash box of one game and lives beside it
REGISTRIES = {ROOT / "scorekeeper" / "engine" / "games.py",
              ROOT / "scorekeeper" / "games" / "__init__.py",
              ROOT / "scorekeeper" / "games" / "kasse.py"}


def test_no_module_or_template_outside_a_games_own_places_names_it():
    files = [*(ROOT / "scorekeeper").rglob("*.py"), *(ROOT / "templates").rglob("*.html"),
             *(ROOT / "static").rglob("*.js"), *(ROOT / "static").rglob("*.css"),
             *(ROOT / "migrations").rglob("*.py")]
    found = []
    for adapter in games.GAMES.values():
        pattern = re.compile("|".join(re.escape(w) for w in sorted(_words(adapter))),
                             re.IGNORECASE)
        allowed = _own_places(adapter) | REGISTRIES
        for path in files:
            if path in allowed:
                continue
            for number, line in enumerate(path.read_text().splitlines(), start=1):
                if pattern.search(line):
                    found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert found == []


def test_the_registry_holds_every_game_of_the_engine_with_its_adapter():
    assert set(games.GAMES) == set(engine.all_games())
    for name, adapter in games.GAMES.items():
        assert adapter.engine is engine.get(name)
        for part in ("state", "hand", "standings", "result"):
            assert (ROOT / "templates" / f"games/{name}/{part}.html").is_file(), (name, part)
        assert set(adapter.FORMS) >= {"hand"}


def test_the_wheel_lists_every_package():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(config["packages"])
    for init in (ROOT / "scorekeeper").rglob("__init__.py"):
        package = ".".join(init.parent.relative_to(ROOT).parts)
        assert package in listed, f"{package} is missing from pyproject.toml's packages"
