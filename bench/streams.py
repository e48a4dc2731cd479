"""What a hand costs the open streams of one process: a hall of BENCH_TABLES tables in one
group, BENCH_WATCHERS phones watching each table and BENCH_TVS the group's ranking, each
stream a greenlet reading scorekeeper/table/live.py's `Live.stream` as gunicorn's gevent
worker runs it. Each hand is delivered as a game's hand is: its change, then its part; a TV is
told to ask at most every `live.ASK_EVERY` seconds (the CPU it then spends asking is not
measured here, but by bench/tournament.py).

    .venv/bin/python bench/streams.py

    BENCH_TABLES=50  BENCH_WATCHERS=3  BENCH_TVS=2  BENCH_HANDS=2000  BENCH_RUNS=5

    smoke: BENCH_TABLES=4 BENCH_HANDS=50 BENCH_RUNS=1

Printed: the process's CPU per hand (min / median / max of the runs, taken in turn), with the
streams kept by game as the app keeps them, as they were kept before (every stream of the group
woken by every change), and with no stream open.
"""

from __future__ import annotations

from gevent import monkey

monkey.patch_all()

import os  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import gevent  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper.table.live import Change, Hub, Live, Part  # noqa: E402

TABLES = int(os.environ.get("BENCH_TABLES", "50"))
WATCHERS = int(os.environ.get("BENCH_WATCHERS", "3"))
TVS = int(os.environ.get("BENCH_TVS", "2"))
HANDS = int(os.environ.get("BENCH_HANDS", "2000"))
RUNS = int(os.environ.get("BENCH_RUNS", "5"))
GROUP, VIEW, HTML = 1, "de member", "<div data-table-part>" + "x" * 28_000 + "</div>"


class GroupHub(Hub):
    """The hub as it was: every change of a group to every stream of the group."""

    def deliver(self, change: Change | Part) -> None:
        with self.lock:
            inboxes = [inbox for (group, _game), kept in self.streams.items()
                       if group == change.group for inbox in kept]
        for inbox in inboxes:
            inbox.put(change)


def one_run(streams: str) -> float:
    """CPU ms per hand; `streams`: "by game", "by group" or "none"."""
    live = Live("memory://")
    if streams == "by group":
        live.hub = GroupHub()
    heard = {"table": 0, "group": 0}

    def watch(game: int | None) -> None:
        inbox = live.hub.subscribe(GROUP, game)
        for _event in live.stream(inbox, GROUP, game, "0", VIEW):
            heard["group" if game is None else "table"] += 1

    readers = [] if streams == "none" else \
        [gevent.spawn(watch, game) for game in range(1, TABLES + 1) for _ in range(WATCHERS)] + \
        [gevent.spawn(watch, None) for _ in range(TVS)]
    gevent.sleep(0.05)
    # a table's watcher hears each of its hands, after the version it starts with; a TV is told
    # to ask of the first hand at once and of the others together later (live.ASK_EVERY)
    expected = {"table": TABLES * WATCHERS + HANDS * WATCHERS, "group": 2 * TVS} if readers \
        else {"table": 0, "group": 0}
    start = time.process_time()
    for hand in range(HANDS):
        game, version = hand % TABLES + 1, hand // TABLES + 1
        live.hub.deliver(Change(GROUP, game, version, follows=True))
        live.hub.deliver(Part(GROUP, game, version, VIEW, HTML))
        gevent.sleep(0)  # the worker's loop runs the woken streams
    deadline = time.monotonic() + 60
    while any(heard[k] < expected[k] for k in heard) and time.monotonic() < deadline:
        gevent.sleep(0.001)  # each stream sent its events
    used = time.process_time() - start
    live.close()
    gevent.joinall(readers, timeout=5)
    # (a stream woken late may say a version, too, when its part seems to be late)
    assert all(heard[k] >= expected[k] for k in heard), (streams, heard, expected)
    return used * 1000 / HANDS


def main() -> int:
    print(f"{TABLES} tables, {WATCHERS} phones watching each, {TVS} TVs; {HANDS} hands a run; "
          f"CPU ms per hand, min / median / max of {RUNS} runs")
    results: dict[str, list[float]] = {"none": [], "by game": [], "by group": []}
    for _ in range(RUNS):
        for streams, times in results.items():  # in turn: the machine's moods fall on each
            times.append(one_run(streams))
    for streams, times in results.items():
        print(f"  streams {streams:<9} {min(times):7.3f} {statistics.median(times):7.3f} "
              f"{max(times):7.3f}")
    ratio = statistics.median(results["by group"]) / statistics.median(results["by game"])
    print(f"  by group / by game: {ratio:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
