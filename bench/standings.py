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
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import generators  # noqa: E402
from common import bench_app, compare_pages  # noqa: E402
from support import phone  # noqa: E402

from scorekeeper import engine, games  # noqa: E402
from scorekeeper.changes import records
from scorekeeper.db import db  # noqa: E402
from scorekeeper.season import standings
from scorekeeper.table import scoring

HANDS = int(os.environ.get("BENCH_HANDS", "100000"))
GAME_HANDS = int(os.environ.get("BENCH_GAME_HANDS", "200"))
REQUESTS = int(os.environ.get("BENCH_REQUESTS", "30"))
RUNS = int(os.environ.get("BENCH_RUNS", "3"))
ENDED = os.environ.get("BENCH_ENDED") == "1"
TARGET_MS = 150
# the standings (with the ratings), the group's page (the Kasse's balance) and the Kasse's book
PAGES = ("/g/tanne/standings", "/g/tanne/standings?season=2026", "/g/tanne", "/g/tanne/kasse")


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
    return compare_pages(phone(app), PAGES, RUNS, REQUESTS, TARGET_MS)


if __name__ == "__main__":
    sys.exit(main())
