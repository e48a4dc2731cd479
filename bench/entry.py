"""Server time of one hand entry (POST, redirect, GET of the table view) in a 200-hand game.

    .venv/bin/python bench/entry.py                     # SQLite in a temporary folder
    BENCH_DATABASE_URL=postgresql+psycopg://postgres@127.0.0.1:5432/test \
        .venv/bin/python bench/entry.py

Measured twice: with the group holding 20,000 hands in 100 other games, and on an otherwise
empty database. Prints the median of 40 entries for each and their ratio (target <= 1.5).
"""

from __future__ import annotations

import statistics
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import GENERATORS, bench_app, records_hartenjagen  # noqa: E402

from scorekeeper import entry_forms, records  # noqa: E402

GAME_HANDS = 200
OTHER_HANDS = 20_000
ENTRIES = 40


def measure(other_hands: int) -> float:
    """Median seconds for one entry; `other_hands` hands lie in other games of the group."""
    app = bench_app()
    with app.app_context():
        for i in range(other_hands // GAME_HANDS):
            generator = GENERATORS[i % len(GENERATORS)]
            records.import_game(generator.random_record(GAME_HANDS, seed=i), "tanne")
        played = records_hartenjagen.random_record(GAME_HANDS + ENTRIES, seed=4242)
        upcoming = played["hands"][GAME_HANDS:]
        game = records.import_game(dict(played, hands=played["hands"][:GAME_HANDS]), "tanne")
        path = f"/g/tanne/games/{game.id}"
    client = app.test_client()
    times = []
    for seq, entry in enumerate(upcoming, start=GAME_HANDS + 1):
        form = {**entry_forms.fields_of(entry), "seq": seq, "key": uuid.uuid4().hex}
        start = time.perf_counter()
        response = client.post(path + "/entries", data=form, follow_redirects=True)
        times.append(time.perf_counter() - start)
        assert response.status_code == 200 and len(response.history) == 1, response.status_code
    return statistics.median(times)


def main() -> None:
    empty = measure(0)
    full = measure(OTHER_HANDS)
    print(f"hand entry in a {GAME_HANDS}-hand game, median of {ENTRIES}:")
    print(f"  empty database:                 {empty * 1000:7.1f} ms")
    print(f"  with {OTHER_HANDS:,} hands in other games: {full * 1000:7.1f} ms")
    print(f"  ratio: {full / empty:.2f} (target <= 1.5)")


if __name__ == "__main__":
    main()
