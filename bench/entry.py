"""Server time of one hand entry (POST of the entry form, the redirect, the GET of the table page)
in games that already hold 20, 2,000 and 20,000 hands, for each game, against a floor: a bare
Flask app (no database) whose POST redirects to a GET rendering a small cached template.

    .venv/bin/python bench/entry.py                     # SQLite in a temporary folder
    BENCH_DATABASE_URL=postgresql+psycopg://postgres@127.0.0.1:5432/test \\
        .venv/bin/python bench/entry.py                 # SQLite, then PostgreSQL

    BENCH_N=30        entries per game and size in each run (its median is the run's figure)
    BENCH_RUNS=3      runs; each figure is printed as min / median / max of the runs' medians
    BENCH_SIZES=20,2000,20000   hands in the games before the entries (short, middle, long)
    BENCH_BUDGET=20   seconds of timed entries in a run after which it stops early
                      (after at least BENCH_MIN=5 rounds); 0 for no limit

    smoke: BENCH_SIZES=2,4,8 BENCH_N=2 BENCH_RUNS=1

Per database, one fresh app (tests/support.make_app, CSRF off) holds all nine games: the long
ones are generated records (each game's own generator, bench/generators.py) imported with
`records.import_game`; the phone joins the group first (tests/support.phone). Each entry posted
is the record's next hand, typed into the game's entry form before anything is timed (the
adapter fills the form from the entry, as for a correction, with the engine's summary before
it, played on from the imported hands), with a fresh idempotency key and the entry number.
The games and sizes take turns entry by entry, with the floor's entry after each round (in an
order that moves on each round), so that the machine's slow moments fall on all of them alike;
nothing but the timed entries reaches the app in between. Only the POST and the followed
redirect are timed.

Targets (on the median run): 2,000-hand entry / 20-hand entry <= 1.5, 20,000-hand entry
< 50 ms, 20-hand entry / floor < 5. Exits 1 when one is missed.
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
from common import bare_app, bench_app, spread, timed_bare_entry  # noqa: E402
from support import entry_fields, phone  # noqa: E402

from scorekeeper import engine, games  # noqa: E402
from scorekeeper.changes import records

SIZES = tuple(int(n) for n in os.environ.get("BENCH_SIZES", "20,2000,20000").split(","))
N = int(os.environ.get("BENCH_N", "30"))
RUNS = int(os.environ.get("BENCH_RUNS", "3"))
MIN_ROUNDS = min(N, int(os.environ.get("BENCH_MIN", "5")))
BUDGET = float(os.environ.get("BENCH_BUDGET", "20"))
SLUG = "tanne"

RATIO_TARGET = 1.5  # 2,000-hand entry : 20-hand entry
LONG_TARGET_MS = 50.0  # the 20,000-hand entry
BARE_TARGET = 5.0  # 20-hand entry : floor

Fields = dict[str, str]
Key = tuple[str, int]  # a game and its size
GAMES = list(engine.all_games())  # every game of the registry
FLOOR = ("floor", 0)


# --- the next hands: the generated record's, typed into their forms ------------------------------

def forms(app, kind: str, record: dict[str, Any], size: int, count: int) -> list[Fields]:
    """The entry forms that hold the record's hands after its first `size`, as a browser posts
    them, each with its entry number and a fresh idempotency key; the summary before each hand is
    the engine's, played on hand by hand (no replay between them)."""
    adapter = games.get(kind)
    table = engine.replay(dict(record, hands=record["hands"][:size]))
    made = []
    for seq, hand in enumerate(record["hands"][size:size + count], size + 1):
        before = table.summary()
        assert not before["finished"], f"{kind} {size}: finished before entry {seq}"
        made.append({**entry_fields(app, adapter, hand, before), "seq": str(seq),
                     "key": uuid.uuid4().hex})
        engine.apply(table, hand)
    return made


# --- timing --------------------------------------------------------------------------------------

def timed_entry(client, path: str, form: Fields) -> float:
    start = time.perf_counter()
    response = client.post(path + "/entries", data=form, follow_redirects=True)
    elapsed = time.perf_counter() - start
    if response.status_code != 200 or len(response.history) != 1:
        raise AssertionError(f"{path}: entry {form.get('seq')} refused "
                             f"({response.status_code}): {response.get_data(as_text=True)[:2000]}")
    return elapsed


def measure(client, paths: dict[Key, str], posted: dict[Key, list[Fields]]
            ) -> dict[Key, list[list[float]]]:
    """Per game and size (and the floor), the seconds of each entry in each run: one entry of
    each in turn, round after round."""
    floor = bare_app().test_client()
    for _ in range(5):  # Jinja compiles the floor's template once
        timed_bare_entry(floor)
    keys = list(paths)
    times: dict[Key, list[list[float]]] = {key: [] for key in [*keys, FLOOR]}
    left = {key: iter(posted[key]) for key in keys}
    for _ in range(RUNS):
        for key in times:
            times[key].append([])
        spent = 0.0
        for round_ in range(N):
            turn = round_ % len(keys)
            for key in keys[turn:] + keys[:turn]:
                elapsed = timed_entry(client, paths[key], next(left[key]))
                times[key][-1].append(elapsed)
                spent += elapsed
            times[FLOOR][-1].append(timed_bare_entry(floor))
            if BUDGET > 0 and round_ + 1 >= MIN_ROUNDS and spent > BUDGET:
                break
    return times


# --- one database --------------------------------------------------------------------------------

def generate() -> dict[Key, dict[str, Any]]:
    """The records, per game and size, each with the hands posted later (each game's own
    generator, bench/generators.py)."""
    made = {}
    for kind in GAMES:
        for size in SIZES:
            start = time.perf_counter()
            made[kind, size] = generators.random_record(kind, size + N * RUNS, size)
            print(f"  generated {kind} {size:,} hands in {time.perf_counter() - start:.1f} s")
    return made


def run_database(database: str, made: dict[Key, dict[str, Any]]) -> bool:
    begin = time.perf_counter()
    print(f"\n{database}:")
    app = bench_app(database)
    paths, posted = {}, {}
    with app.app_context():
        for (kind, size), record in made.items():
            start = time.perf_counter()
            game = records.import_game(dict(record, hands=record["hands"][:size]), SLUG)
            paths[kind, size] = f"/g/{SLUG}/games/{game.id}"
            posted[kind, size] = forms(app, kind, record, size, N * RUNS)
            print(f"  imported {kind} {size:,} hands in {time.perf_counter() - start:.1f} s")
    client = phone(app, SLUG)  # the phone joins the group
    for path in paths.values():  # warm up templates and connections
        assert client.get(path).status_code == 200
    start = time.perf_counter()
    times = measure(client, paths, posted)
    print(f"  measured {sum(map(len, times[FLOOR]))} rounds of {len(paths)} entries in "
          f"{time.perf_counter() - start:.1f} s")
    for (kind, size), path in paths.items():
        stored = len(client.get(path + "/record.json").get_json()["hands"])
        assert stored == size + sum(map(len, times[kind, size])), (kind, size, stored)
    with app.app_context():
        from scorekeeper.db import db
        db.engine.dispose()
    return report(database, times, time.perf_counter() - begin)


def report(database: str, times: dict[Key, list[list[float]]], seconds: float) -> bool:
    medians = {key: [statistics.median(run) for run in runs] for key, runs in times.items()}
    floor = medians[FLOOR]
    short, middle, long = SIZES
    print(f"\n{database}: hand entry (POST + redirect + GET of the table), ms, min / median / max "
          f"of {RUNS} runs' medians; floor {spread(floor, 1000)} ms")
    ok = True
    for kind in GAMES:
        ratio = [m / s for m, s in zip(medians[kind, middle], medians[kind, short], strict=True)]
        over = [s / f for s, f in zip(medians[kind, short], floor, strict=True)]
        met = {f"{middle}:{short} <= {RATIO_TARGET}": statistics.median(ratio) <= RATIO_TARGET,
               f"{long:,}-hand entry < {LONG_TARGET_MS:.0f} ms":
                   statistics.median(medians[kind, long]) * 1000 < LONG_TARGET_MS,
               f"entry/floor < {BARE_TARGET:.0f}": statistics.median(over) < BARE_TARGET}
        ok = ok and all(met.values())
        print(f"  {kind}")
        for size in SIZES:
            print(f"    {f'{size:,} hands':<22}{spread(medians[kind, size], 1000)} ms")
        print(f"    {f'{middle}:{short}':<22}{spread(ratio)}")
        print(f"    {f'{short} hands / floor':<22}{spread(over)}")
        print("    targets: " + ", ".join(f"{label} {'met' if m else 'NOT met'}"
                                          for label, m in met.items()))
    print(f"{database} run: {seconds:.0f} s (N={N}, {RUNS} runs)")
    return ok


def main() -> int:
    begin = time.perf_counter()
    print("records:")
    made = generate()
    databases = ["sqlite"] + (["postgresql"] if os.environ.get("BENCH_DATABASE_URL") else [])
    ok = True
    for database in databases:
        ok = run_database(database, made) and ok
    print(f"\ntotal {time.perf_counter() - begin:.0f} s")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
