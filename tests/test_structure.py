"""The package's house: every module sits on a floor, imports only from its floor or below, and
no import loop closes anywhere (also not inside a function)."""

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "scorekeeper"

# from the bottom up; a new module is placed here, or the first test says where it is missing
FLOORS = [
    # the rules of the games: pure Python
    ["engine", "engine.*"],
    # what everything above uses: the tables, names, words, pictures and the live wire; the
    # tournament's pure core (the draw, the ranking: only the engine below it); the rooms
    # themselves (their __init__ holds only their docstring)
    ["db", "models", "i18n", "settings", "group.names", "group.attempts", "web",
     "web.*", "evenings.settlement", "tournament", "tournament.draw", "tournament.ranking",
     "table.live", "table", "group", "evenings", "season", "records", "changes"],
    # each game's adapter and the forms it builds
    ["games", "games.*"],
    # a game at the table, the group, the evening's money, the season
    ["table.*", "group.*", "evenings.*", "season.*", "tournament.*"],
    # the records: export, check and import of games and groups
    ["records.*"],
    # the application layer: every change a person makes, stored, derived and committed
    ["changes.*"],
    # what the pages share
    ["views.forms", "views.common"],
    # the pages and the command line
    ["views", "views.*", "cli"],
    # the app
    [""],
]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in PACKAGE.rglob("*.py")}


def floor(module: str) -> int | None:
    """The floor of a module: its own name listed, else its package's ``name.*``."""
    for number, names in enumerate(FLOORS):
        if module in names:
            return number
    for number, names in enumerate(FLOORS):
        if any(name.endswith(".*") and module.startswith(name[:-1]) for name in names):
            return number
    return None


def imports(module: str) -> set[str]:
    """The package's modules `module` imports, anywhere in its code."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".") if package else []
                base = base[:len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            elif (node.module or "").startswith("scorekeeper"):
                target = node.module.removeprefix("scorekeeper").lstrip(".")
            else:
                continue
            for alias in node.names:
                name = f"{target}.{alias.name}".lstrip(".")
                found.add(name if name in MODULES else target)
        elif isinstance(node, ast.Import):
            found |= {alias.name.removeprefix("scorekeeper").lstrip(".") for alias in node.names
                      if alias.name.split(".")[0] == "scorekeeper"}
    return found - {module}


GRAPH = {module: imports(module) for module in MODULES}


def test_every_module_has_a_floor():
    assert [m for m in MODULES if floor(m) is None] == [], "add them to FLOORS"


def upward(graph: dict[str, set[str]]) -> list[str]:
    return [f"{m or 'scorekeeper'} (floor {floor(m)}) imports {t} (floor {floor(t)})"
            for m, targets in graph.items() for t in sorted(targets)
            if floor(t) is not None and floor(m) is not None and floor(t) > floor(m)]


def loops(graph: dict[str, set[str]]) -> list[str]:
    """Every import loop found walking the graph, as "a -> b -> a"."""
    found, done = [], set()

    def visit(module: str, path: list[str]) -> None:
        if module in path:
            found.append(" -> ".join(path[path.index(module):] + [module]))
            return
        if module in done:
            return
        for target in sorted(graph.get(module, ())):
            visit(target, path + [module])
        done.add(module)

    for module in sorted(graph):
        visit(module, [])
    return found


def test_no_module_imports_from_a_floor_above_it():
    assert upward(GRAPH) == []


def test_the_package_has_no_import_loop():
    assert loops(GRAPH) == []


def test_the_checks_see_a_loop_and_an_upward_import():
    assert loops({"club": {"scoring"}, "scoring": {"standings"}, "standings": {"club"}}) == [
        "club -> scoring -> standings -> club"]
    assert upward({"games.base": {"views.forms"}, "views.forms": {"group.names"}}) == [
        "games.base (floor 2) imports views.forms (floor 6)"]
    # an import inside a function is seen too (the command line imports its work when run)
    assert {"changes.records", "records.export"} <= GRAPH["cli"]
    assert "games.base" in GRAPH["views.games"]


def test_the_tournament_core_imports_only_the_engine():
    # on the floor of the app's plumbing, yet pure: the draw and the ranking need no database
    pure = ("tournament.draw", "tournament.ranking")
    assert {target for module in pure for target in GRAPH[module]
            if not target.startswith("tournament")} <= {
        "engine", "engine.errors"}
    assert "engine.errors" in GRAPH["tournament.draw"]
