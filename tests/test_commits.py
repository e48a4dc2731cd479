"""Only the application layer commits (scorekeeper/changes/): the pages, the command line, the
records, the group, the evening, the season and the table store through it. The exceptions are
named here with their reason."""

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "scorekeeper"

# (module, function): why it commits outside the application layer
ALLOWED = {
    # a PIN attempt's count stands even when the request fails after it (group/pins.py)
    ("group.pins", "attempt"): "counting PIN attempts",
    ("group.attempts", "clean"): "removing old counts, in a transaction of its own",
}


def commits(source: str, module: str) -> set[tuple[str, str]]:
    """Each (module, function) of `source` that calls `.commit()`."""
    found = set()

    def visit(node: ast.AST, function: str) -> None:
        for child in ast.iter_child_nodes(node):
            name = child.name if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef) \
                else function
            if isinstance(child, ast.Call) and isinstance(child.func, ast.Attribute) \
                    and child.func.attr == "commit":
                found.add((module, function))
            visit(child, name)

    visit(ast.parse(source), "")
    return found


def everywhere() -> set[tuple[str, str]]:
    found = set()
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found |= commits(path.read_text(), module)
    return found


def test_only_the_application_layer_commits():
    outside = {(module, function) for module, function in everywhere()
               if module.split(".")[0] != "changes"}
    assert outside - ALLOWED.keys() == set()
    assert ALLOWED.keys() - outside == set()  # an exception no longer needed goes


def test_the_application_layer_commits_what_the_pages_and_the_command_line_change():
    found = everywhere()
    for module in ("changes.tables", "changes.evenings", "changes.groups", "changes.records"):
        assert any(m == module for m, _ in found), module


def test_the_check_sees_a_commit_in_a_page():
    page = "def tick(group):\n    group.ratings = True\n    db.session.commit()\n"
    assert commits(page, "views.groups") == {("views.groups", "tick")}
    nested = "class A:\n    def send(self):\n        with x() as conn:\n            conn.commit()\n"
    assert commits(nested, "table.live") == {("table.live", "send")}
