"""Live tables: 200 phones watching 50 tables while hands are entered, on gunicorn.

    .venv/bin/python bench/watch.py        # SQLite; BENCH_DATABASE_URL=... for PostgreSQL too

    BENCH_SECONDS=30  BENCH_WATCHERS=200  BENCH_TABLES=50  BENCH_WORKERS=4

    smoke: BENCH_SECONDS=6 BENCH_WATCHERS=4 BENCH_TABLES=2 BENCH_WORKERS=1

Each watching phone does what static/js/live.js does on an open table page: it asks for the game's
version every 2 s with the ETag of its last answer (an unchanged game answers 304). One phone
enters a hand into one table after the other, one hand a second. Measured, against the same
writer with nobody watching:

- the time of the writer's POST (median, 99th percentile);
- how long after a hand was stored its watchers saw the new version (median, maximum);
- the server's CPU time (gunicorn's processes, from /proc) per second, as a share of one core.

Why polling and not Server-Sent Events: an SSE stream holds a gunicorn thread per phone for as
long as the page is open, so 200 phones would need 200 threads, and every dropped pub Wi-Fi
connection is a stream to reopen. A poll holds a thread for a few milliseconds, survives any
network drop and is answered with 304 when nothing changed. Within the 2 s the issue allows,
it is the cheaper design on this setup, and this bench shows what it costs.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import load  # noqa: E402

SECONDS = float(os.environ.get("BENCH_SECONDS", "30"))
WATCHERS = int(os.environ.get("BENCH_WATCHERS", "200"))
TABLES = int(os.environ.get("BENCH_TABLES", "50"))
INTERVAL = 2.0


def cpu_seconds(master: int) -> float:
    """User and system time of gunicorn's master and its workers so far."""
    pids = [master] + [int(p) for p in Path(f"/proc/{master}/task/{master}/children")
                       .read_text().split()]
    total = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


class Watcher(load.Phone):
    def __init__(self, port: int, token: str, game: int, stored: dict[int, float]) -> None:
        super().__init__(port, token, game)
        self.stored, self.seen, self.etag, self.version = stored, [], "", None

    def poll(self) -> str:
        """The game's version, asked with the ETag of the last answer (304 when unchanged)."""
        text = self.request("GET", self.path + "/live",
                            extra={"If-None-Match": self.etag} if self.etag else None)
        if self.status == 200:
            self.etag = self.last_etag
        return text

    def watch(self, until: float, start: float) -> None:
        time.sleep(start)
        while time.perf_counter() < until:
            began = time.perf_counter()
            body = self.poll()
            if self.status == 200:
                version = int(json.loads(body)["version"])
                if self.version is not None and version != self.version:
                    stored = self.stored.get(version)
                    if stored:
                        self.seen.append(time.perf_counter() - stored)
                self.version = version
            time.sleep(max(0.0, INTERVAL - (time.perf_counter() - began)))


def write(phones: list[load.Phone], until: float, stored: list[dict[int, float]]) -> list[float]:
    """One hand a second into the tables in turn; the POST times."""
    times, turn = [], 0
    while time.perf_counter() < until:
        began = time.perf_counter()
        phone = phones[turn % len(phones)]
        phone.request("POST", phone.path + "/entries", phone.hand())
        if phone.status == 302:
            phone.seq += 1
            stored[turn % len(phones)][phone.seq - 1] = time.perf_counter()  # version = seq - 1
            times.append(time.perf_counter() - began)
        turn += 1
        time.sleep(max(0.0, 1.0 - (time.perf_counter() - began)))
    return times


def run(name: str, url: str) -> None:
    token, games = load.prepare_tables(url, TABLES)
    port = load.free_port()
    server = load.serve(url, port)
    try:
        stored: list[dict[int, float]] = [{} for _ in games]
        writers = [load.Phone(port, token, game) for game in games]
        alone = write(writers, time.perf_counter() + min(10.0, SECONDS / 3), stored)
        watchers = [Watcher(port, token, games[i % len(games)], stored[i % len(games)])
                    for i in range(WATCHERS)]
        until = time.perf_counter() + SECONDS
        threads = [threading.Thread(target=w.watch, args=(until, INTERVAL * i / WATCHERS))
                   for i, w in enumerate(watchers)]
        before, began = cpu_seconds(server.pid), time.perf_counter()
        for t in threads:
            t.start()
        watched = write(writers, until, stored)
        for t in threads:
            t.join()
        cpu = (cpu_seconds(server.pid) - before) / (time.perf_counter() - began)
    finally:
        server.terminate()
        server.wait(timeout=30)
    seen = sorted(s for w in watchers for s in w.seen)
    polls = WATCHERS * SECONDS / INTERVAL

    def ms(values, q):
        return (statistics.median(values) if q == 50 else values[int(len(values) * q / 100)]) \
            * 1000
    alone.sort()
    watched.sort()
    print(f"{name}: {WATCHERS} phones watching {TABLES} tables, about {polls / SECONDS:.0f} "
          f"polls/s; server CPU {cpu * 100:.0f} % of one core")
    print(f"  a hand's POST, nobody watching: p50 {ms(alone, 50):.0f} ms, "
          f"p99 {ms(alone, 99):.0f} ms ({len(alone)} hands)")
    print(f"  a hand's POST, while watched:   p50 {ms(watched, 50):.0f} ms, "
          f"p99 {ms(watched, 99):.0f} ms ({len(watched)} hands)")
    print(f"  seen by its watchers after:     p50 {ms(seen, 50):.0f} ms, "
          f"max {seen[-1] * 1000:.0f} ms ({len(seen)} sightings)")


def main() -> int:
    folder = tempfile.mkdtemp()
    run("sqlite", f"sqlite:///{folder}/watch.sqlite")
    if os.environ.get("BENCH_DATABASE_URL"):
        run("postgresql", os.environ["BENCH_DATABASE_URL"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
