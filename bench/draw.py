"""How long a tournament's draw takes for 200 players (scorekeeper/tournament/draw.py): the
organiser taps "draw" and the hall waits.

    .venv/bin/python bench/draw.py

    BENCH_RUNS=5   runs of each (min / median / max printed)

    smoke: BENCH_RUNS=1

Each run draws, with a seed of its own:
- three Durchgänge one after the other, each avoiding the pairings of those before (tables of
  three to five): the usual night, where a draw without a repeated pairing is found;
- a Durchgang after everyone has met everyone (the search gives up after BUDGET swaps looked at:
  its worst case);
- the floor: the 200 start numbers shuffled by the draw's own shuffle (what any lot costs).

Target: the slowest draw of the median run under 0.5 s ("well under a second"). Exits 1 when
missed.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time

from scorekeeper.tournament.draw import draw, shuffled

RUNS = int(os.environ.get("BENCH_RUNS", "5"))
PLAYERS = list(range(1, 201))
SIZES = (3, 4, 5)
TARGET_S = 0.5


def timed(work) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def one_run(seed: int) -> dict[str, float]:
    earlier: list = []
    nights = []
    for n in range(3):
        nights.append(timed(lambda n=n: earlier.append(draw(PLAYERS, seed * 10 + n, SIZES,
                                                            earlier))))
    everyone = [[PLAYERS], [PLAYERS[:100], PLAYERS[100:]]]
    return {"floor": timed(lambda: shuffled(PLAYERS, random.Random(seed))),
            "usual": max(nights),
            "everyone met": timed(lambda: draw(PLAYERS, seed, SIZES, everyone))}


def main() -> int:
    runs = [one_run(seed) for seed in range(RUNS)]
    print(f"the draw of 200 players, min / median / max of {RUNS} runs")
    floor = statistics.median(run["floor"] for run in runs)
    for name in ("floor", "usual", "everyone met"):
        values = sorted(run[name] * 1000 for run in runs)
        ratio = statistics.median(values) / 1000 / floor
        print(f"  {name:<14} {values[0]:8.3f} / {statistics.median(values):8.3f} / "
              f"{values[-1]:8.3f} ms   {ratio:6.0f}x the floor")
    slowest = statistics.median(max(run["usual"], run["everyone met"]) for run in runs)
    met = slowest < TARGET_S
    print(f"  slowest draw (median run) {slowest * 1000:.0f} ms   target < "
          f"{TARGET_S * 1000:.0f} ms: {'met' if met else 'NOT met'}")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
