"""The page's script without a loop (issue 27): static/js/main.js wires the modules; every other
module imports only modules below it (state.js and store.js at the bottom), none one that
imports it, directly or through others."""

import re
from pathlib import Path

JS = Path(__file__).resolve().parent.parent / "static" / "js"
IMPORT = re.compile(r'^\s*import\b[^;]*?\bfrom\s*"\./([^"]+)"', re.M)


def imports(folder=JS):
    """Each module's name and the modules it imports (`import ... from "./x.js"`)."""
    return {p.name: set(IMPORT.findall(p.read_text(encoding="utf-8")))
            for p in sorted(folder.glob("*.js"))}


def loop(graph):
    """A loop of imports, as the modules along it (the first again at the end), or None."""
    done, path = set(), []

    def visit(name):
        if name in path:
            return path[path.index(name):] + [name]
        if name in done:
            return None
        path.append(name)
        for other in sorted(graph.get(name, ())):
            if found := visit(other):
                return found
        path.pop()
        done.add(name)
        return None

    for name in sorted(graph):
        if found := visit(name):
            return found
    return None


def test_the_check_finds_a_loop_also_one_through_other_modules():
    assert loop({"main.js": {"a.js"}, "a.js": {"b.js"}, "b.js": {"c.js"}, "c.js": {"a.js"}}) == [
        "a.js", "b.js", "c.js", "a.js"]
    assert loop({"a.js": {"b.js"}, "b.js": {"a.js"}}) == ["a.js", "b.js", "a.js"]
    assert loop({"a.js": {"a.js"}}) == ["a.js", "a.js"]
    assert loop({"main.js": {"a.js", "b.js"}, "a.js": {"b.js"}, "b.js": set()}) is None


def test_the_check_reads_the_imports_as_the_browser_does(tmp_path):
    (tmp_path / "main.js").write_text(
        'import { a } from "./a.js";\nimport {\n  b,\n} from "./b.js";\n')
    (tmp_path / "a.js").write_text(
        '// import { x } from "./main.js" is not done here\nexport const a = 1;\n')
    (tmp_path / "b.js").write_text('import { state } from "./main.js";\nexport const b = 2;\n')
    graph = imports(tmp_path)
    assert graph == {"main.js": {"a.js", "b.js"}, "a.js": set(), "b.js": {"main.js"}}
    assert loop(graph) == ["b.js", "main.js", "b.js"]


def test_the_page_script_has_no_loop_and_main_js_alone_wires_it():
    graph = imports()
    assert {"main.js", "state.js", "store.js"} <= set(graph)
    assert all(name in graph for names in graph.values() for name in names), graph
    assert loop(graph) is None, " -> ".join(loop(graph))
    assert not any("main.js" in names for names in graph.values())  # nobody imports the start
    assert graph["state.js"] == graph["store.js"] == set()  # the bottom
    assert set(graph) - {"main.js"} <= set().union(*graph.values())  # each one in use
