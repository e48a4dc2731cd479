"""One home per game, and one contract: a game lives in its engine module, its adapter and its
templates, keeps everything the shared pages ask of it, and the rest of the app only asks the
registry. The checks run over every registered game, the tests' fourth game too."""

import ast
import functools
import inspect
import re
import shutil
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import generators
import pytest
from fourth_game.adapter import Zehner
from jinja2 import TemplateNotFound
from support import make_app

from scorekeeper import engine, games
from scorekeeper.db import db
from scorekeeper.engine import base
from scorekeeper.games.base import FILE_NAMES, OPTIONAL_PARTS, REQUIRED_PARTS, Roster

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted(games.GAMES)
SHARED = [*(ROOT / "scorekeeper").rglob("*.py"), *(ROOT / "templates").rglob("*.html"),
          *(ROOT / "static").rglob("*.js"), *(ROOT / "static").rglob("*.css"),
          *(ROOT / "migrations").rglob("*.py")]
REGISTRIES = {ROOT / "scorekeeper" / "engine" / "games.py",
              ROOT / "scorekeeper" / "games" / "__init__.py"}


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


# --- what shared code knows of a game ------------------------------------------------------------
#
# Shared code knows a game when it says one of the game's own identifiers where code means it: in
# a string literal, an import, a template's attribute or a CSS selector. Comments, docstrings and
# translated text are what people read: a game's name may be a common word there ("minus").

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
GETTEXT = frozenset({"_", "_l", "gettext", "lazy_gettext", "ngettext", "N_"})
QUOTED = re.compile(r""""([^"\n]*)"|'([^'\n]*)'""")
JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}", re.S)
VALUE, SCRIPT, SELECTOR, CLASSES, IMPORT = "value", "script", "selector", "classes", "import"


@dataclass(frozen=True)
class Knowledge:
    """A game's own identifiers: its codes (its name, its module's name), the keys of its
    entries and the field names its forms post (whole, or the prefixes of per-player fields), the
    CSS classes only its templates put on elements (its code too, unless the shared markup uses
    that word as a class of its own) and its templates that are no part of the contract."""

    game: str
    codes: frozenset[str]
    keys: frozenset[str] = frozenset()
    prefixes: frozenset[str] = frozenset()
    classes: frozenset[str] = frozenset()
    files: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Piece:
    """A bit of code in a shared file: a value (a string literal, an attribute's value), a
    script's string (a value, or a selector), a CSS selector, the classes of a template's class
    attribute, or a part of a module's name that Python imports."""

    line: int
    text: str
    kind: str = VALUE


def _blank(pattern: str, text: str) -> str:
    """`text` with what `pattern` matches blanked out, its lines kept."""
    return re.sub(pattern, lambda m: re.sub(r"[^\n]", " ", m.group()), text, flags=re.S)


def _line(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def python_pieces(text: str) -> list[Piece]:
    """A module's string literals that are no docstring and no translated text, and the parts
    of the names it imports."""
    tree = ast.parse(text)
    prose: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
                and body and isinstance(body[0], ast.Expr)
                and isinstance(body[0].value, ast.Constant)):
            prose.add(id(body[0].value))
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) in GETTEXT:
            prose.update(id(n) for arg in node.args for n in ast.walk(arg))
    found = [Piece(node.lineno, node.value) for node in ast.walk(tree)
             if isinstance(node, ast.Constant) and isinstance(node.value, str)
             and id(node) not in prose]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            names = [getattr(node, "module", None) or "", *(a.name for a in node.names)]
            found += [Piece(node.lineno, part, IMPORT)
                      for name in names for part in name.split(".")]
    return found


def template_pieces(text: str) -> list[Piece]:
    """A template's quoted strings (its attributes, the literals of its expressions, the
    classes of its elements), without its comments and its translated text."""
    text = _blank(r"\{#.*?#\}|<!--.*?-->", text)
    text = _blank(r"""\b(?:_|gettext|ngettext)\((?:\s*("[^"]*"|'[^']*')\s*,?)+""", text)
    found = []
    for match in QUOTED.finditer(text):
        line, value = _line(text, match.start()), match[1] if match[1] is not None else match[2]
        kind = CLASSES if text[:match.start()].endswith("class=") else VALUE
        found.append(Piece(line, JINJA.sub(" ", value), kind))
        for inner in JINJA.findall(value):  # an expression in an attribute: its own literals
            found += [Piece(line, a or b) for a, b in QUOTED.findall(inner)]
    return found


def script_pieces(text: str) -> list[Piece]:
    """A script's string literals, its comments left out."""
    token = re.compile(r"""//[^\n]*|/\*.*?\*/|"((?:\\.|[^"\\\n])*)"|'((?:\\.|[^'\\\n])*)'"""
                       r"""|`((?:\\.|[^`\\])*)`""", re.S)
    return [Piece(_line(text, m.start()), next(g for g in m.groups() if g is not None), SCRIPT)
            for m in token.finditer(text) if any(g is not None for g in m.groups())]


def css_pieces(text: str) -> list[Piece]:
    """A style sheet's selectors, its comments left out."""
    text = _blank(r"/\*.*?\*/", text)
    return [Piece(_line(text, m.start(1)), m[1], SELECTOR)
            for m in re.finditer(r"\s*([^{};\s][^{};]*)\{", text)]


PIECES = {".py": python_pieces, ".html": template_pieces, ".js": script_pieces,
          ".css": css_pieces}


def pieces(path: Path) -> list[Piece]:
    return list(_pieces(path, path.stat().st_mtime_ns))


@functools.cache
def _pieces(path: Path, changed: int) -> tuple[Piece, ...]:
    """A file read once for every game (and read again when a test writes it anew)."""
    return tuple(sorted(PIECES[path.suffix](path.read_text()), key=lambda piece: piece.line))


@functools.cache
def _any(words: frozenset[str]) -> str:
    return "|".join(map(re.escape, sorted(words, key=len, reverse=True)))


def mentions(knowledge: Knowledge, piece: Piece) -> list[str]:
    """What of the game's own identifiers this piece of shared code says."""
    k, text, found = knowledge, piece.text, []
    if piece.kind in (VALUE, SCRIPT):
        if k.codes:  # as a value: "hintersche", "games/hintersche/", not ".minus" (a class)
            found += re.findall(rf"(?<![\w.-])(?:{_any(k.codes)})(?![\w-])", text)
        found += [text] if text in k.keys | k.files else []
        found += [f"{p}-" for p in k.prefixes if text.startswith(f"{p}-")]
    if piece.kind == IMPORT and text in k.codes:  # from scorekeeper.engine import hintersche
        found.append(text)
    if piece.kind == SCRIPT and k.classes:  # querySelector("svg.slate")
        found += re.findall(rf"\.(?:{_any(k.classes)})(?![\w-])", text)
    elif piece.kind == CLASSES and k.classes:
        found += re.findall(rf"(?<![\w-])(?:{_any(k.classes)})(?![\w-])", text)
    elif piece.kind == SELECTOR:
        if k.classes:
            found += re.findall(rf"\.(?:{_any(k.classes)})(?![\w-])", text)
        # an attribute's value: [data-game=hintersche], [name=mode], [name^=tricks-]
        for name, value in re.findall(r"""\[\s*([\w-]+)\s*[~|^$*]?=\s*["']?([\w-]+)""", text):
            if value in k.codes or (name == "name" and value in k.keys):
                found.append(value)
            elif name == "name" and value.endswith("-") and value[:-1] in k.prefixes:
                found.append(value)
    return found


def shared_knowledge(knowledge: Knowledge, paths: Iterable[Path]) -> list[str]:
    """Each place in these files that says one of the game's own identifiers."""
    found: dict[tuple[Path, int, str], str] = {}
    for path in paths:
        where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name
        for piece in pieces(path):
            for word in mentions(knowledge, piece):
                found.setdefault((path, piece.line, word.lstrip(".")),
                                 f"{where}:{piece.line}: {knowledge.game}'s {word!r}: "
                                 f"{piece.text.strip()[:80]}")
    return list(found.values())


def _shared_files() -> list[Path]:
    homes = set().union(*map(_own_places, games.GAMES.values())) | REGISTRIES | NOT_CHECKED
    return [path for path in SHARED if path not in homes]


def _classes_put(paths: Iterable[Path]) -> set[str]:
    """The classes these files put on elements: their templates' class attributes, the markup
    their Python writes (the charts), the strings their scripts set as classes."""
    values: list[str] = []
    for path in paths:
        text = path.read_text()
        if path.suffix == ".html":
            values += [a or b for a, b in re.findall(r"""\bclass=(?:"([^"]*)"|'([^']*)')""", text)]
        elif path.suffix == ".py":
            values += [m for p in python_pieces(text)
                       for m in re.findall(r"""class=["']([^"']*)""", p.text)]
        elif path.suffix == ".js":
            values += [a or b for line in text.splitlines()
                       if re.search(r"\bclass(Name|List)\b", line) for a, b in QUOTED.findall(line)]
    names = set()
    for value in values:  # its words, and the words of the literals in its expressions
        names.update(re.findall(r"(?<![\w-])[A-Za-z_][\w-]*", JINJA.sub(" ", value)))
        names.update(word for inner in JINJA.findall(value)
                     for a, b in QUOTED.findall(inner) for word in (a or b).split())
    return names


def _styled(paths: Iterable[Path]) -> set[str]:
    """The classes these style sheets style."""
    return {name for path in paths if path.suffix == ".css"
            for piece in css_pieces(path.read_text())
            for name in re.findall(r"\.([A-Za-z_][\w-]*)", piece.text)}


def _prefixes_written(adapter) -> set[str]:
    """The prefixes of field names the game's adapter and templates write ("playoff-" of
    ``f"playoff-{i}-{name}"``), for forms the sample state does not show."""
    places = [path for path in _own_places(adapter) if path.suffix in (".py", ".html")]
    return {piece.text[:-1] for path in places for piece in pieces(path)
            if re.fullmatch(r"[a-z][a-z_]*-", piece.text)}


def knowledge_of_every_game(app) -> list[Knowledge]:
    """Each game's own identifiers. Its own classes are those only its markup has, unless only
    the app's style sheets style them: then they are the app's (``.sheet .small``)."""
    shared = _shared_files()
    shared_markup, shared_styled = _classes_put(shared), _styled(shared)
    own = {name: set(_templates(adapter).rglob("*")) for name, adapter in games.GAMES.items()}
    markup = {name: _classes_put(files) for name, files in own.items()}
    contract = {FILE_NAMES.get(part, f"{part}.html")
                for part in (*REQUIRED_PARTS, *OPTIONAL_PARTS)}
    found = []
    for name, adapter in games.GAMES.items():
        exact, prefixes = _field_names(adapter, app)
        prefixes |= _prefixes_written(adapter)
        codes = {name, adapter.engine.__name__.rsplit(".", 1)[1]}
        others = set().union(*(c for n, c in markup.items() if n != name))
        apps = shared_styled - _styled(own[name])
        forms = {f"{kind}.html" for kind in adapter.FORMS}
        found.append(Knowledge(
            game=name, codes=frozenset(codes),
            keys=frozenset((exact | set(adapter.engine.Table.ENTRY_KEYS)) - set(SHARED_WORDS)),
            prefixes=frozenset(prefixes - set(SHARED_WORDS)),
            classes=frozenset((markup[name] - others - apps | codes) - shared_markup
                              - set(SHARED_WORDS)),
            files=frozenset(p.name for p in own[name]
                            if p.is_file() and p.name not in contract | forms)))
    return found


# Known: (file, game, word) of what shared code still knows of a game and is to move to the
# game's own places; strike it here when it has (the test says so). None now.
KNOWN: set[tuple[str, str, str]] = set()


@pytest.fixture
def app(tmp_path):
    """What a game keeps to is the same on either database: these tests run on SQLite alone."""
    app = make_app("sqlite", tmp_path, WTF_CSRF_ENABLED=False)
    yield app
    with app.app_context():
        db.engine.dispose()


@pytest.fixture(scope="module")
def every_games_knowledge(tmp_path_factory):
    """knowledge_of_every_game, found once for the tests that only read it."""
    app = make_app("sqlite", tmp_path_factory.mktemp("contract"), WTF_CSRF_ENABLED=False)
    found = knowledge_of_every_game(app)
    with app.app_context():
        db.engine.dispose()
    return found


def test_no_shared_code_knows_a_game(every_games_knowledge):
    """Shared code asks the registry: it never says a game's code, the keys of its entries
    ("moon"), the fields its forms post ("playing-Anna", "mode"), the classes of its markup
    ("slate") or its templates' names. Each game's own places may."""
    shared = _shared_files()
    found = [line for knowledge in every_games_knowledge
             for line in shared_knowledge(knowledge, shared)]
    known = {line for line in found if _place(line) in KNOWN}
    assert [line for line in found if line not in known] == []
    assert {_place(line) for line in known} == KNOWN  # what has moved: strike it from KNOWN


def _place(line: str) -> tuple[str, str, str]:
    """(file, game, word) of a line of shared_knowledge."""
    where, game, word = re.match(r"(.*?):\d+: (.*?)'s '(.*?)':", line).groups()
    return where, game, word


def test_what_the_check_looks_for_is_each_games_own(every_games_knowledge):
    """So that the check can fail: each game's codes, keys and fields, and the classes that
    only its markup has; none of the app's own classes."""
    knowledge = {k.game: k for k in every_games_knowledge}
    hintersche, vier_anderle = knowledge["hintersche"], knowledge["vier-anderle"]
    assert hintersche.codes == {"hintersche"}
    assert {"points", "all_tricks", "playoffs"} <= hintersche.keys
    assert {"points", "playoff"} <= hintersche.prefixes
    assert {"slate", "seating"} <= hintersche.classes
    assert vier_anderle.codes == {"vier-anderle", "vier_anderle"}
    assert "pot" in vier_anderle.classes
    for k in knowledge.values():  # the app's own classes belong to no game
        assert not k.classes & {"muted", "sheet", "card", "status", "tv", "chart", "minus"}


def test_a_shared_style_sheet_that_styles_a_games_slate_knows_the_game(app, tmp_path):
    """The rule that sat in the TV's style sheet, which every game shares; and the same in a
    script. A comment may say it."""
    (hintersche,) = [k for k in knowledge_of_every_game(app) if k.game == "hintersche"]
    sheet = tmp_path / "tv.css"
    sheet.write_text("/* the svg.slate of a single table, read across the pub */\n"
                     ".tv-big .tv-parts svg.slate { max-height: 46vh; }\n"
                     ".tv-big .tv-parts svg { max-height: 46vh; }\n"
                     "input[name^=playoff-] { width: 3rem; }\n")
    assert shared_knowledge(hintersche, [sheet]) == [
        "tv.css:2: hintersche's '.slate': .tv-big .tv-parts svg.slate",
        "tv.css:4: hintersche's 'playoff-': input[name^=playoff-]"]
    script = tmp_path / "tv.js"
    script.write_text("// fit the svg.slate to the screen\n"
                      "const slate = document.querySelector('svg.slate');\n"
                      "const first = form.elements['playoff-0-' + name];\n")
    assert shared_knowledge(hintersche, [script]) == [
        "tv.js:2: hintersche's '.slate': svg.slate",
        "tv.js:3: hintersche's 'playoff-': playoff-0-"]


def test_a_games_name_in_a_comment_or_in_prose_is_no_knowledge(tmp_path):
    """A game called "minus" (the word is the stepper's class too, and said in comments and
    texts): its code may not be in shared code, the word may."""
    minus = Knowledge(game="minus", codes=frozenset({"minus"}), keys=frozenset({"sign"}))
    assert shared_knowledge(minus, _shared_files()) == []
    module = tmp_path / "settlement.py"
    module.write_text('"""The fewest payments are n minus the largest number of parts."""\n'
                      "# n minus one payments\n"
                      "def fewest(n):\n"
                      '    """Plus or minus one."""\n'
                      '    return _("%(n)s minus one", n=n), "plus_minus", ".minus"\n'
                      "def sign(kind):\n"
                      '    return kind == "minus" or {"sign": 1}\n')
    assert shared_knowledge(minus, [module]) == [
        "settlement.py:7: minus's 'minus': minus", "settlement.py:7: minus's 'sign': sign"]
    page = tmp_path / "page.html"
    page.write_text('{# minus the fines #}<p title="{{ _("minus") }}">{{ _("n minus one") }}'
                    '</p><button class="minus">−</button>\n<!-- minus -->'
                    "<a href=\"{{ url_for('game', kind='minus') }}\">\n")
    assert shared_knowledge(minus, [page]) == ["page.html:2: minus's 'minus': minus"]


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
