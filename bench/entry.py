"""Server time of one hand entry (POST of the entry form, the redirect, the GET of the table page)
in games that already hold 20, 2,000 and 20,000 hands, for each game, against a bare Flask app.

    .venv/bin/python bench/entry.py                     # SQLite in a temporary folder
    BENCH_DATABASE_URL=postgresql+psycopg://postgres@127.0.0.1:5432/test \\
        .venv/bin/python bench/entry.py                 # SQLite, then PostgreSQL

    BENCH_N=30        entries per measurement (the median is reported)
    BENCH_SIZES=20,2000,20000   hands in the games before the entries (short, middle, long)
    BENCH_BUDGET=20   seconds of timed entries after which a slow measurement stops early
                      (after at least BENCH_MIN=5 entries); 0 for no limit

Per database, one fresh app (tests/support.make_app, CSRF off) holds all nine games: the long
ones are generated records (each game's own generator, bench/generators.py) imported with
`records.import_game`. Each entry posted is the record's next hand, typed into the game's entry
form outside the timed part (the adapter fills the form from the entry, as for a correction,
with the game's `/state.json` before it), with a fresh idempotency key and the entry number.
Only the POST and the followed redirect are timed. The baseline is a minimal Flask app (no
database) whose POST redirects to a GET that renders a small template, timed the same way.

Targets: 2,000-hand entry / 20-hand entry <= 1.5, 20,000-hand entry < 50 ms, 20-hand entry /
bare Flask < 5. Exits 1 when one is missed.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import generators  # noqa: E402
from common import bench_app  # noqa: E402
from flask import Flask, redirect, render_template_string, request, url_for  # noqa: E402
from support import entry_fields  # noqa: E402

from scorekeeper import club, engine, games, records  # noqa: E402

SIZES = tuple(int(n) for n in os.environ.get("BENCH_SIZES", "20,2000,20000").split(","))
N = int(os.environ.get("BENCH_N", "30"))
MIN_ENTRIES = min(N, int(os.environ.get("BENCH_MIN", "5")))
BUDGET = float(os.environ.get("BENCH_BUDGET", "20"))
SLUG = "tanne"

RATIO_TARGET = 1.5  # 2,000-hand entry : 20-hand entry
LONG_TARGET_MS = 50.0  # the 20,000-hand entry
BARE_TARGET = 5.0  # 20-hand entry : bare Flask

Fields = dict[str, str]
GAMES = list(engine.all_games())  # every game of the registry
NAMES = ["Kurt", "Hubert", "Hermann", "Alfred"]


# --- the next hand: the generated record's, typed into its form ---------------------------------

def fields(app, kind: str, entry: dict[str, Any], before: dict[str, Any]) -> Fields:
    """The entry form's fields that hold `entry`, as a browser posts them."""
    return entry_fields(app, games.get(kind), entry, before)


# --- timing --------------------------------------------------------------------------------------

def timed_entry(client, path: str, form: Fields) -> float:
    start = time.perf_counter()
    response = client.post(path + "/entries", data=form, follow_redirects=True)
    elapsed = time.perf_counter() - start
    if response.status_code != 200 or len(response.history) != 1:
        raise AssertionError(f"{path}: entry {form.get('seq')} refused "
                             f"({response.status_code}): {response.get_data(as_text=True)[:2000]}")
    return elapsed


def enough(times: list[float]) -> bool:
    return len(times) >= N or (BUDGET > 0 and len(times) >= MIN_ENTRIES and sum(times) > BUDGET)


def measure_game(client, path: str, kind: str, later: list[dict[str, Any]]
                 ) -> tuple[float, int]:
    """Median seconds of the entries posted to the game at `path` (the `later` hands of its
    record, in order), and how many were posted."""
    seq = len(client.get(path + "/record.json").get_json()["hands"]) + 1
    times: list[float] = []
    while not enough(times) and len(times) < len(later):
        state = client.get(path + "/state.json").get_json()
        assert not state["finished"], f"{path} is finished"
        form = {**fields(client.application, kind, later[len(times)], state), "seq": str(seq),
                "key": uuid.uuid4().hex}
        times.append(timed_entry(client, path, form))
        seq += 1
    stored = len(client.get(path + "/record.json").get_json()["hands"])
    assert stored == seq - 1, (stored, seq - 1)
    return statistics.median(times), len(times)


# --- the bare Flask baseline ---------------------------------------------------------------------

BARE_TEMPLATE = """<!doctype html><html lang="en"><head><title>Table</title></head><body>
<h1>Table</h1><table>{% for name, points in rows %}<tr><td>{{ name }}</td><td>{{ points }}</td>
</tr>{% endfor %}</table><form method="post" action="{{ url_for('entries') }}">
{% for name, _ in rows %}<input name="points-{{ name }}">{% endfor %}<button>Save</button>
</form></body></html>"""


def bare_app() -> Flask:
    app = Flask("bare")
    app.config["TESTING"] = True
    totals = dict.fromkeys(NAMES, 0)

    @app.post("/entries")
    def entries():
        for name in totals:
            totals[name] += int(request.form.get(f"points-{name}", 0))
        return redirect(url_for("table"))

    @app.get("/table")
    def table():
        return render_template_string(BARE_TEMPLATE, rows=list(totals.items()))

    return app


def measure_bare() -> float:
    client = bare_app().test_client()
    form = {f"points-{name}": "35" for name in NAMES}
    times = []
    for _ in range(N + 5):  # the first few warm up Jinja's template cache
        start = time.perf_counter()
        response = client.post("/entries", data={**form, "key": uuid.uuid4().hex},
                               follow_redirects=True)
        times.append(time.perf_counter() - start)
        assert response.status_code == 200 and len(response.history) == 1
    return statistics.median(times[5:])


# --- one database --------------------------------------------------------------------------------

def generate() -> dict[tuple[str, int], dict[str, Any]]:
    """The records, per game and size, each with the N hands posted later (each game's own
    generator, bench/generators.py)."""
    made = {}
    for kind in GAMES:
        for size in SIZES:
            start = time.perf_counter()
            made[kind, size] = generators.random_record(kind, size + N, size)
            print(f"  generated {kind} {size:,} hands in {time.perf_counter() - start:.1f} s")
    return made


def run_database(database: str, made: dict[tuple[str, int], dict[str, Any]],
                 bare: float) -> bool:
    begin = time.perf_counter()
    print(f"\n{database}:")
    app = bench_app(database)
    paths = {}
    with app.app_context():
        for (kind, size), record in made.items():
            start = time.perf_counter()
            game = records.import_game(dict(record, hands=record["hands"][:size]), SLUG)
            paths[kind, size] = f"/g/{SLUG}/games/{game.id}"
            print(f"  imported {kind} {size:,} hands in {time.perf_counter() - start:.1f} s")
        token = club.find_group(SLUG).token
    client = app.test_client()
    assert client.get(f"/join/{token}").status_code == 302  # the phone joins the group
    for kind in GAMES:  # warm up templates and connections
        client.get(paths[kind, SIZES[0]])
    medians: dict[tuple[str, int], float] = {}
    counts: dict[tuple[str, int], int] = {}
    for kind in GAMES:
        for size in SIZES:
            start = time.perf_counter()
            medians[kind, size], counts[kind, size] = measure_game(
                client, paths[kind, size], kind, made[kind, size]["hands"][size:])
            print(f"  measured {kind} {size:,} hands ({counts[kind, size]} entries) in "
                  f"{time.perf_counter() - start:.1f} s")
    with app.app_context():
        from scorekeeper.db import db
        db.engine.dispose()

    short, middle, long = SIZES
    ok = True
    print(f"\n{database}: hand entry (POST + redirect + GET of the table), median ms; "
          f"bare Flask {bare * 1000:.2f} ms")
    print(f"{'game':<14}{f'{short:,} hands':>11}{f'{middle:,} hands':>14}{f'{long:,} hands':>15}"
          f"{f'{middle}:{short}':>10}{'20/bare':>9}")
    verdicts = []
    for kind in GAMES:
        ms = {size: medians[kind, size] * 1000 for size in SIZES}
        ratio = ms[middle] / ms[short]
        over_bare = ms[short] / (bare * 1000)
        few = "".join(f" ({counts[kind, s]} entries at {s:,})" for s in SIZES
                      if counts[kind, s] < N)
        print(f"{kind:<14}{ms[short]:>11.1f}{ms[middle]:>14.1f}{ms[long]:>15.1f}"
              f"{ratio:>10.2f}{over_bare:>9.1f}{few}")
        met = (ratio <= RATIO_TARGET, ms[long] < LONG_TARGET_MS, over_bare < BARE_TARGET)
        ok = ok and all(met)
        verdicts.append((kind, met))
    labels = (f"{middle}:{short} <= {RATIO_TARGET}",
              f"{long:,}-hand entry < {LONG_TARGET_MS:.0f} ms", f"entry/bare < {BARE_TARGET:.0f}")
    print("targets:")
    for i, label in enumerate(labels):
        print(f"  {label:<26}" + "  ".join(f"{kind} {'met' if met[i] else 'NOT met'}"
                                          for kind, met in verdicts))
    print(f"{database} run: {time.perf_counter() - begin:.0f} s (N={N})")
    return ok


def main() -> int:
    begin = time.perf_counter()
    print("records:")
    made = generate()
    bare = measure_bare()
    databases = ["sqlite"] + (["postgresql"] if os.environ.get("BENCH_DATABASE_URL") else [])
    ok = True
    for database in databases:
        ok = run_database(database, made, bare) and ok
    print(f"\ntotal {time.perf_counter() - begin:.0f} s")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
