"""Server time of the standings page (and the group's page) with 100,000 hands in the group,
against a floor: a bare Flask GET rendering a small cached template (bench/common.py).

    .venv/bin/python bench/standings.py
    BENCH_DATABASE_URL=postgresql+psycopg://postgres@127.0.0.1:5432/test \\
        .venv/bin/python bench/standings.py

    BENCH_HANDS=100000   hands in the group, in games of BENCH_GAME_HANDS=200
    BENCH_REQUESTS=30    requests of each page in each run (its median is the run's figure)
    BENCH_RUNS=3         runs; printed as min / median / max of the runs' medians

    BENCH_ENDED=1        every game is ended (closed) after its import, as the games of
                         evenings that are over: their results and Kasse lines are stored
                         (by default every game is left as the generator made it: running)

    smoke: BENCH_HANDS=40 BENCH_GAME_HANDS=10 BENCH_REQUESTS=2 BENCH_RUNS=1 BENCH_ENDED=1

The group gets games of 200 hands (the three games in turn, three a week over two seasons);
the phone joins it (tests/support.phone); then the all-time and one season's standings and the
floor take turns, request by request. Target: the median run's median <= 150 ms; exits 1 when
it is missed.
"""

from __future__ import annotations

import datetime as dt
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import generators  # noqa: E402
from common import bare_app, bench_app, spread, timed_bare_page  # noqa: E402
from support import phone  # noqa: E402

from scorekeeper import engine, games, records, scoring, standings  # noqa: E402
from scorekeeper.db import db  # noqa: E402

HANDS = int(os.environ.get("BENCH_HANDS", "100000"))
GAME_HANDS = int(os.environ.get("BENCH_GAME_HANDS", "200"))
REQUESTS = int(os.environ.get("BENCH_REQUESTS", "30"))
RUNS = int(os.environ.get("BENCH_RUNS", "3"))
ENDED = os.environ.get("BENCH_ENDED") == "1"
TARGET_MS = 150
# the standings (with the ratings), the group's page (the Kasse's balance) and the Kasse's book
PAGES = ("/g/tanne/standings", "/g/tanne/standings?season=2026", "/g/tanne", "/g/tanne/kasse")


def timed_page(client, url: str) -> float:
    begin = time.perf_counter()
    response = client.get(url)
    elapsed = time.perf_counter() - begin
    assert response.status_code == 200, (url, response.status_code)
    return elapsed


def main() -> int:
    app = bench_app()
    start = time.perf_counter()
    with app.app_context():
        kinds = sorted(engine.all_games())  # the games take turns
        for i in range(HANDS // GAME_HANDS):
            day = dt.date(2025, 1, 3) + dt.timedelta(days=7 * (i // 3))  # three games a week
            record = generators.random_record(kinds[i % len(kinds)], GAME_HANDS, i)
            game = records.import_game(record, "tanne", day)
            if ENDED and game.status == "running":  # closed as the table closes it
                try:
                    games.get(game.kind).closing(game.state)
                except engine.RuleError:  # a pot to play out: it stays running
                    continue
                scoring.end_game(game)
                standings.store(game)
                db.session.commit()
    print(f"{HANDS:,} hands stored in {time.perf_counter() - start:.0f} s"
          + (", every game ended" if ENDED else ""))
    client = phone(app)  # the phone joins the group
    floor = bare_app().test_client()
    for url in PAGES:  # warm up templates and connections
        timed_page(client, url)
    for _ in range(5):
        timed_bare_page(floor)
    times: dict[str, list[list[float]]] = {url: [] for url in [*PAGES, "floor"]}
    for _ in range(RUNS):
        for url in times:
            times[url].append([])
        for _ in range(REQUESTS):
            for url in PAGES:
                times[url][-1].append(timed_page(client, url))
            times["floor"][-1].append(timed_bare_page(floor))
    medians = {url: [statistics.median(run) for run in runs] for url, runs in times.items()}
    print(f"ms, min / median / max of {RUNS} runs' medians ({REQUESTS} requests each); "
          f"floor {spread(medians['floor'], 1000)} ms")
    ok = True
    for url in PAGES:
        over = [m / f for m, f in zip(medians[url], medians["floor"], strict=True)]
        met = statistics.median(medians[url]) * 1000 <= TARGET_MS
        ok = ok and met
        print(f"{url:<32} {spread(medians[url], 1000)} ms, {spread(over)} x the floor; "
              f"target <= {TARGET_MS} ms: {'met' if met else 'NOT met'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
