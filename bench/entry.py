"""Server time of one hand entry (POST, redirect, GET of the table view) in a 200-hand game.

    .venv/bin/python bench/entry.py                     # SQLite in a temporary folder
    BENCH_DATABASE_URL=postgresql+psycopg://postgres@127.0.0.1:5432/test \
        .venv/bin/python bench/entry.py

Measured twice: with the group holding 20,000 hands in 100 other games, and on an otherwise
empty database. Prints the median of 40 entries for each and their ratio (target <= 1.5).
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "bench"), str(ROOT / "tests")]

import records_hartenjagen  # noqa: E402
import records_hintersche  # noqa: E402
import records_vier_anderle  # noqa: E402
from support import make_app  # noqa: E402

from scorekeeper import entry_forms, records  # noqa: E402

GAME_HANDS = 200
OTHER_HANDS = 20_000
ENTRIES = 40
GENERATORS = (records_hartenjagen, records_hintersche, records_vier_anderle)


def measure(other_hands: int) -> float:
    """Median seconds for one entry; `other_hands` hands lie in other games of the group."""
    kind = "postgresql" if os.environ.get("BENCH_DATABASE_URL") else "sqlite"
    if kind == "postgresql":
        os.environ["TEST_DATABASE_URL"] = os.environ["BENCH_DATABASE_URL"]
    app = make_app(kind, Path(tempfile.mkdtemp()), WTF_CSRF_ENABLED=False)
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
