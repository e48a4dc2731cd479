"""A hand's trip: the package's files one hand's POST passes through, from the request to the
database and back (the redirect), as the calls run.

    .venv/bin/python bench/trip.py

    smoke: as it is (one hand per game)

The trip is the order in which the calls enter the package's files (a file entered again right
after itself counts once). It prints the files passed, how many times the trip came back into a
file it had left (re-entries), how many calls climbed back up (a call from a module into one
that imports it, directly or through others: a call back into a layer above, or round an import
loop), and the trip itself; per game of the registry.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "bench"), str(ROOT / "tests")]

import generators  # noqa: E402
from support import enter, entry_fields, make_app, rule_fields, start_game  # noqa: E402

from scorekeeper import engine, games  # noqa: E402

PACKAGE = str(ROOT / "scorekeeper") + "/"
# a comprehension runs inside the function that holds it (Python 3.12 inlines it, PEP 709; 3.11
# gives it a frame of its own, and a generator's every step is a "call"): it is not a call into
# a file, nor a way back into one
INLINE = {"<listcomp>", "<setcomp>", "<dictcomp>", "<genexpr>"}


def module(filename: str) -> str:
    parts = list(Path(filename).relative_to(PACKAGE).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def above() -> dict[str, set[str]]:
    """For each module, the modules that import it, directly or through others."""
    from test_structure import GRAPH  # the package's imports, read from its code

    importers: dict[str, set[str]] = {m: set() for m in GRAPH}
    for start in GRAPH:
        seen, todo = set(), [start]
        while todo:
            for target in GRAPH.get(todo.pop(), ()):
                if target not in seen:
                    seen.add(target)
                    todo.append(target)
        for target in seen:
            importers.setdefault(target, set()).add(start)
    return importers


def trip_of(run) -> tuple[list[str], int]:
    """The package files that `run()` calls into, in order (repeats in a row folded), and how
    many calls climbed back up."""
    files: list[str] = []
    importers = above()
    climbs = 0

    def profile(frame, event, arg):
        nonlocal climbs
        if event != "call" or not frame.f_code.co_filename.startswith(PACKAGE) \
                or frame.f_code.co_name in INLINE:
            return
        callee = module(frame.f_code.co_filename)
        caller = frame.f_back
        while caller is not None and not caller.f_code.co_filename.startswith(PACKAGE):
            caller = caller.f_back
        if caller is not None and callee != module(caller.f_code.co_filename) \
                and callee in importers.get(module(caller.f_code.co_filename), ()):
            climbs += 1
        name = frame.f_code.co_filename.removeprefix(str(ROOT) + "/")
        if not files or files[-1] != name:
            files.append(name)

    sys.setprofile(profile)
    try:
        run()
    finally:
        sys.setprofile(None)
    return files, climbs


def trips() -> dict[str, tuple[list[str], int]]:
    """Each registered game's trip (the files in order) and its calls back up: the first hand
    of a new game, posted as the table page posts it."""
    app = make_app("sqlite", Path(tempfile.mkdtemp()), WTF_CSRF_ENABLED=False)
    client = app.test_client()
    found = {}
    for name in engine.all_games():
        adapter = games.get(name)
        record = generators.random_record(name, 2, 1)
        path = start_game(client, name, record["players"], record["first_dealer"],
                          rule_fields(adapter.engine, record.get("rules") or {}),
                          slug=f"trip-{name}")
        before = engine.replay({**record, "hands": []}).summary()
        fields = entry_fields(app, adapter, record["hands"][0], before)
        answers = []
        found[name] = trip_of(lambda: answers.append(enter(client, path, fields, seq=1)))  # noqa: B023
        assert answers[0].status_code == 302, answers[0].get_data(as_text=True)[:500]
    return found


def main() -> None:
    for name, (trip, climbs) in trips().items():
        print(f"{name}: {len(set(trip))} files passed, {len(trip) - len(set(trip))} re-entries, "
              f"{climbs} calls back up")
        print("   " + " > ".join(Path(f).with_suffix("").as_posix().removeprefix("scorekeeper/")
                                 for f in trip))


if __name__ == "__main__":
    main()
