"""Server time of the standings page with 100,000 hands in the group.

    .venv/bin/python bench/standings.py
    BENCH_DATABASE_URL=postgresql+psycopg://postgres@127.0.0.1:5432/test \
        .venv/bin/python bench/standings.py

The group gets 500 games of 200 hands (the three games in turn, over evenings in two seasons);
then the all-time and one season's standings are each requested 30 times. Prints the medians
(target <= 150 ms).
"""

from __future__ import annotations

import datetime as dt
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import generators  # noqa: E402
from common import bench_app  # noqa: E402

from scorekeeper import engine, records  # noqa: E402

HANDS = 100_000
GAME_HANDS = 200
REQUESTS = 30


def main() -> None:
    app = bench_app()
    start = time.perf_counter()
    with app.app_context():
        for i in range(HANDS // GAME_HANDS):
            day = dt.date(2025, 1, 3) + dt.timedelta(days=7 * (i // 3))  # three games a week
            kinds = sorted(engine.all_games())  # the games take turns
            record = generators.random_record(kinds[i % len(kinds)], GAME_HANDS, i)
            records.import_game(record, "tanne", day)
    print(f"{HANDS:,} hands stored in {time.perf_counter() - start:.0f} s")
    client = app.test_client()
    for url in ("/g/tanne/standings", "/g/tanne/standings?season=2026"):
        times = []
        for _ in range(REQUESTS):
            begin = time.perf_counter()
            response = client.get(url)
            times.append(time.perf_counter() - begin)
            assert response.status_code == 200
        print(f"{url:<32} median {statistics.median(times) * 1000:6.1f} ms "
              f"(of {REQUESTS}; target <= 150 ms)")


if __name__ == "__main__":
    main()
