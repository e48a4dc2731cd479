"""Server time of the season chronicle (/g/<slug>/seasons/<year>) of a group with ten years
of weekly evenings (about 50,000 hands), against a floor: a bare Flask GET rendering a small
cached template (bench/common.py).

    .venv/bin/python bench/season.py
    BENCH_DATABASE_URL=postgresql+psycopg://postgres@127.0.0.1:5432/test_season \\
        .venv/bin/python bench/season.py

    BENCH_YEARS=10       years of weekly evenings (52 a year)
    BENCH_WEEKS=52       evenings a year
    BENCH_GAMES=2        games an evening, the three games in turn
    BENCH_GAME_HANDS=48  hands a game (at most: a rubber may end sooner)
    BENCH_REQUESTS=20    requests of each page in each run (its median is the run's figure)
    BENCH_RUNS=3         runs; printed as min / median / max of the runs' medians

    smoke: BENCH_YEARS=2 BENCH_WEEKS=2 BENCH_GAME_HANDS=6 BENCH_REQUESTS=2 BENCH_RUNS=1

The group is filled as tests/season_data.py does (each game imported as a record and ended as
at closing time, by changing company from eight players); the phone joins it
(tests/support.phone); then the last season's page (it reads the year before too, for the
climbers), a season in the middle, and the floor take turns, request by request. Target: the
median run's median <= 300 ms for each season; exits 1 when it is missed.
"""

from __future__ import annotations

import datetime as dt
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import bench_app, compare_pages  # noqa: E402
from season_data import fill  # noqa: E402
from support import phone  # noqa: E402

from scorekeeper.db import db  # noqa: E402
from scorekeeper.models import Group  # noqa: E402

YEARS = int(os.environ.get("BENCH_YEARS", "10"))
WEEKS = int(os.environ.get("BENCH_WEEKS", "52"))
GAMES = int(os.environ.get("BENCH_GAMES", "2"))
GAME_HANDS = int(os.environ.get("BENCH_GAME_HANDS", "48"))
REQUESTS = int(os.environ.get("BENCH_REQUESTS", "20"))
RUNS = int(os.environ.get("BENCH_RUNS", "3"))
TARGET_MS = 300
FIRST = 2017


def main() -> int:
    app = bench_app()
    start = time.perf_counter()
    with app.app_context():
        db.session.add(Group(slug="tanne", name="Stammtisch Tanne"))
        db.session.commit()
    hands = sum(fill(app, "tanne", dt.date(FIRST + year, 1, 6), WEEKS, GAMES, GAME_HANDS,
                     seed=year + 1) for year in range(YEARS))
    print(f"{hands:,} hands in {YEARS * WEEKS} evenings of {YEARS} years, stored in "
          f"{time.perf_counter() - start:.0f} s")
    last = FIRST + YEARS - 1
    pages = list(dict.fromkeys([f"/g/tanne/seasons/{last}",
                                f"/g/tanne/seasons/{FIRST + YEARS // 2}"]))
    kind = "PostgreSQL: " if os.environ.get("BENCH_DATABASE_URL") else "SQLite: "
    return compare_pages(phone(app), pages, RUNS, REQUESTS, TARGET_MS, kind)


if __name__ == "__main__":
    sys.exit(main())
