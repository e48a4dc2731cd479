"""Replay throughput per game: hands per second on 10,000-hand records, median of 5 runs.

    .venv/bin/python bench/replay.py            # or: make bench

    BENCH_HANDS=10000   hands in each record
    BENCH_RUNS=5        runs of each (the median is printed)

    smoke: BENCH_HANDS=50 BENCH_RUNS=1

Each run replays the whole record through the engine (`engine.replay`, as the `replay` command
and every write in the app do); the second column also builds the replay output (`report()`).
The records are played with real cards by each game's generator (bench/generators.py).
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import generators  # noqa: E402

from scorekeeper import engine  # noqa: E402

HANDS = int(os.environ.get("BENCH_HANDS", "10000"))
RUNS = int(os.environ.get("BENCH_RUNS", "5"))
TARGET = 50_000


def records() -> dict[str, dict]:
    return {name: generators.random_record(name, HANDS, 1) for name in engine.all_games()}


def median_seconds(run) -> float:
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> int:
    print(f"{'game':<14}{'hands':>7}{'replay hands/s':>17}{'+ report hands/s':>19}")
    worst = float("inf")
    for name, record in records().items():
        hands = len(record["hands"])
        replay = median_seconds(lambda record=record: engine.replay(record))
        full = median_seconds(lambda record=record: engine.report(engine.replay(record)))
        worst = min(worst, hands / replay)
        print(f"{name:<14}{hands:>7}{hands / replay:>17,.0f}{hands / full:>19,.0f}")
    print(f"median of {RUNS} runs each; target {TARGET:,} hands/s per game:",
          "met" if worst >= TARGET else "NOT met")
    return 0 if worst >= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
