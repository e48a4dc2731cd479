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
ones are generated records (bench/records_*.py) imported with `records.import_game`, which
stores them through `records.store_game`. Each entry posted is a valid next hand, built outside
the timed part from the game's `/state.json` (Hintersche: by playing the deal with
records_hintersche.play_entry on a replay of `/record.json`, which also yields the playoffs),
with a fresh idempotency key and the entry number from `/record.json`. Only the POST and the
followed redirect are timed. The baseline is a minimal Flask app (no database) whose POST
redirects to a GET that renders a small template, timed the same way.

Targets: 2,000-hand entry / 20-hand entry <= 1.5, 20,000-hand entry < 50 ms, 20-hand entry /
bare Flask < 5. Exits 1 when one is missed.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
import uuid
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import (  # noqa: E402
    bench_app,
    records_hartenjagen,
    records_hintersche,
    records_vier_anderle,
)
from flask import Flask, redirect, render_template_string, request, url_for  # noqa: E402

from scorekeeper import engine, records  # noqa: E402

SIZES = tuple(int(n) for n in os.environ.get("BENCH_SIZES", "20,2000,20000").split(","))
N = int(os.environ.get("BENCH_N", "30"))
MIN_ENTRIES = min(N, int(os.environ.get("BENCH_MIN", "5")))
BUDGET = float(os.environ.get("BENCH_BUDGET", "20"))
SLUG = "tanne"

RATIO_TARGET = 1.5  # 2,000-hand entry : 20-hand entry
LONG_TARGET_MS = 50.0  # the 20,000-hand entry
BARE_TARGET = 5.0  # 20-hand entry : bare Flask

Fields = dict[str, str]
Builder = Callable[[dict[str, Any], Any, random.Random], Fields]


# --- the next hand, from the game's state --------------------------------------------------------

def hintersche_fields(state: dict[str, Any], table: Any, rng: random.Random) -> Fields:
    """Play the next deal (and any playoffs) on the local replay, as the players in `in_deal`."""
    assert table.in_deal() == state["in_deal"], (table.in_deal(), state["in_deal"])
    entry = records_hintersche.play_entry(table, rng)
    fields = {f"points-{name}": str(points) for name, points in entry["points"].items()}
    for i, deal in enumerate(entry.get("playoffs", [])):
        fields.update({f"playoff-{i}-{name}": str(points) for name, points in deal.items()})
    if entry.get("all_tricks"):
        fields["all_tricks"] = entry["all_tricks"]
    return fields


def vier_anderle_fields(state: dict[str, Any], table: Any, rng: random.Random) -> Fields:
    """Type 1: everybody seated plays; type 2: a random few play. The 4 tricks go at random."""
    seated = list(state["seated"])
    if state["next_hand_type"] == 1:
        playing = seated
        fields: Fields = {}
    else:
        chosen = set(rng.sample(seated, rng.randint(1, len(seated))))
        playing = [name for name in seated if name in chosen]
        fields = {f"playing-{name}": "on" for name in playing}
    tricks = Counter(rng.choice(playing) for _ in range(records_vier_anderle.TRICKS))
    fields.update({f"tricks-{name}": str(n) for name, n in tricks.items()})
    return fields


def hartenjagen_fields(state: dict[str, Any], table: Any, rng: random.Random) -> Fields:
    """A hand by cards: the pack's hearts and each penalty card in play to random players."""
    names = [player["name"] for player in state["players"]]
    hearts = Counter(rng.choice(names) for _ in range(state["hearts_total"]))
    fields = {f"hearts-{name}": str(n) for name, n in hearts.items()}
    for key, copies in state["cards"].items():
        for copy in range(1, copies + 1):
            fields[key if copy == 1 else f"{key}-{copy}"] = rng.choice(names)
    return fields


GAMES: dict[str, tuple[Any, Builder]] = {
    "hintersche": (records_hintersche, hintersche_fields),
    "vier-anderle": (records_vier_anderle, vier_anderle_fields),
    "hartenjagen": (records_hartenjagen, hartenjagen_fields),
}


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


def measure_game(client, path: str, kind: str, seed: int) -> tuple[float, int]:
    """Median seconds of the entries posted to the game at `path`, and how many were posted."""
    build = GAMES[kind][1]
    record = client.get(path + "/record.json").get_json()
    seq = len(record["hands"]) + 1  # table changes are entries too
    table = engine.replay(record) if kind == "hintersche" else None
    rng = random.Random(seed)
    times: list[float] = []
    played = None
    while not enough(times):
        state = client.get(path + "/state.json").get_json()
        assert not state["finished"], f"{path} is finished"
        if played is not None:  # the entry before went in: one more hand played
            assert state["hands_played"] == played + 1, (state["hands_played"], played)
        played = state["hands_played"]
        form = {**build(state, table, rng), "seq": str(seq), "key": uuid.uuid4().hex}
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
    totals = dict.fromkeys(records_hintersche.NAMES, 0)

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
    form = {f"points-{name}": "35" for name in records_hintersche.NAMES}
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
    """The records to import, per game and size, each with room for the entries posted later
    (a Hintersche rubber long enough; Hartenjagen's target is the maximum)."""
    made = {}
    for kind, (generator, _) in GAMES.items():
        for size in SIZES:
            start = time.perf_counter()
            record = generator.random_record(size + N, seed=size)
            made[kind, size] = dict(record, hands=record["hands"][:size])
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
            game = records.import_game(record, SLUG)
            paths[kind, size] = f"/g/{SLUG}/games/{game.id}"
            print(f"  imported {kind} {size:,} hands in {time.perf_counter() - start:.1f} s")
    client = app.test_client()
    client.get(paths["hartenjagen", SIZES[0]])  # warm up templates and connections
    medians: dict[tuple[str, int], float] = {}
    counts: dict[tuple[str, int], int] = {}
    for kind in GAMES:
        for size in SIZES:
            start = time.perf_counter()
            medians[kind, size], counts[kind, size] = measure_game(
                client, paths[kind, size], kind, seed=size + 1)
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
