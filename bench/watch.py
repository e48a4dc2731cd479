"""Live tables: 2,000 phones watching 50 tables over their streams, on `make serve`'s gunicorn.

    .venv/bin/python bench/watch.py     # SQLite, one process (changes go round within it)
    BENCH_DATABASE_URL=postgresql+psycopg://... .venv/bin/python bench/watch.py
        # also PostgreSQL, 2 worker processes: changes travel by LISTEN/NOTIFY
    BENCH_REDIS_URL=redis://127.0.0.1:6379/5 .venv/bin/python bench/watch.py
        # also SQLite with 2 worker processes: changes travel by Redis pub/sub

    BENCH_WATCHERS=2000  BENCH_TABLES=50  BENCH_SECONDS=20  BENCH_RUNS=3  BENCH_IDLE=20

    smoke: BENCH_WATCHERS=20 BENCH_TABLES=2 BENCH_SECONDS=4 BENCH_RUNS=1 BENCH_IDLE=2

Each watching phone holds what static/js/live.js opens on a table page: the game's stream
(Server-Sent Events), which starts with the game's version and then brings every new one. The
phones (raw sockets, all in one thread of this process) connect 200 a second. One phone enters
a hand into one table after the other, one hand a second. Measured, each run:

- idle: the server's CPU (gunicorn's processes, from /proc) as a share of one core over 20 s
  (one keep-alive comment per stream: scorekeeper/live.py) with every phone watching and
  nothing entered, against the same 20 s with nobody watching (the floor); target under half a
  core;
- hands: how long after its POST was sent each watcher of the table saw the hand's version
  (p50, p99, max; target p99 under 1 s), how many watchers missed one, the POST's time, and
  the CPU, against the same writer with nobody watching;
- a dropped stream: 10 % of the phones lose their stream, hands are entered into their tables
  meanwhile, and they connect again: how many then show an older version than their table's
  (target: none), and at the end how many phones show anything but their table's last version.
"""

from __future__ import annotations

import os
import re
import resource
import selectors
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import load  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
WATCHERS = int(os.environ.get("BENCH_WATCHERS", "2000"))
TABLES = int(os.environ.get("BENCH_TABLES", "50"))
SECONDS = float(os.environ.get("BENCH_SECONDS", "20"))
RUNS = int(os.environ.get("BENCH_RUNS", "3"))
IDLE = float(os.environ.get("BENCH_IDLE", "20"))  # s: a keep-alive comment per stream (KEEPALIVE)
DATA = re.compile(rb"data: (\d+)\n")


def cpu_seconds(master: int) -> float:
    """User and system time of gunicorn's master and its workers so far."""
    pids = [master] + [int(p) for p in Path(f"/proc/{master}/task/{master}/children")
                       .read_text().split()]
    total = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def serve(url: str, port: int, workers: int, redis: str = "") -> subprocess.Popen:
    env = {**os.environ, "DATABASE_URL": url, "SCOREKEEPER_BIND": f"127.0.0.1:{port}",
           "SCOREKEEPER_WORKERS": str(workers), "RATELIMIT_STORAGE_URI": redis or "memory://"}
    return load.start(env, port, "scorekeeper:create_app()")


class Watchers:
    """The watching phones: a stream each, read in one thread with a selector. For each phone
    the versions it was told and when."""

    def __init__(self, port: int, cookie: str, games: list[int]) -> None:
        self.port, self.cookie = port, cookie
        self.games = [games[i % len(games)] for i in range(WATCHERS)]
        self.seen: list[list[tuple[int, float]]] = [[] for _ in range(WATCHERS)]
        self.socks: dict[int, socket.socket] = {}
        self.buffers: dict[int, bytes] = {}
        self.selector = selectors.DefaultSelector()
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def connect(self, i: int) -> None:
        sock = socket.create_connection(("127.0.0.1", self.port))
        sock.sendall(f"GET /g/tanne/games/{self.games[i]}/live/stream HTTP/1.1\r\n"
                     f"Host: 127.0.0.1\r\nAccept: text/event-stream\r\n"
                     f"Cookie: {self.cookie}\r\n\r\n".encode())
        sock.setblocking(False)
        with self.lock:
            self.socks[i], self.buffers[i] = sock, b""
            self.selector.register(sock, selectors.EVENT_READ, i)

    def drop(self, i: int) -> None:
        with self.lock:
            sock = self.socks.pop(i, None)
            if sock is None:
                return
            self.selector.unregister(sock)
        sock.close()

    def _read(self) -> None:
        while not self.stop.is_set():
            if not self.socks:
                time.sleep(0.05)
                continue
            ready = self.selector.select(timeout=0.05)
            now = time.perf_counter()
            for key, _ in ready:
                i = key.data
                try:
                    chunk = key.fileobj.recv(65536)  # type: ignore[union-attr]
                except (BlockingIOError, OSError):  # nothing yet, or dropped meanwhile
                    continue
                if not chunk:
                    self.drop(i)
                    continue
                data = self.buffers[i] + chunk
                cut = data.rfind(b"\n")
                for version in DATA.findall(data[:cut + 1]):
                    self.seen[i].append((int(version), now))
                self.buffers[i] = data[cut + 1:]

    def close(self) -> None:
        self.stop.set()
        self.thread.join()
        for i in list(self.socks):
            self.drop(i)

    def last(self, i: int) -> int | None:
        return self.seen[i][-1][0] if self.seen[i] else None


def write(phones: list[load.Phone], seconds: float, posted: dict[tuple[int, int], float],
          turn: int = 0) -> list[float]:
    """One hand a second into the tables in turn: the POST times; `posted` gets (game,
    version) -> when its POST was sent."""
    times, until = [], time.perf_counter() + seconds
    while time.perf_counter() < until:
        began = time.perf_counter()
        phone = phones[turn % len(phones)]
        phone.request("POST", phone.path + "/entries", phone.hand())
        if phone.status == 302:
            phone.seq += 1
            posted[(phone.game, phone.seq - 1)] = began  # the game's version: seq - 1
            times.append(time.perf_counter() - began)
        turn += 1
        time.sleep(max(0.0, 1.0 - (time.perf_counter() - began)))
    return times


def cpu_share(server: subprocess.Popen, during) -> tuple[float, list[float]]:
    """The server's CPU (share of one core) while `during()` runs, and what it returns."""
    before, began = cpu_seconds(server.pid), time.perf_counter()
    result = during()
    return (cpu_seconds(server.pid) - before) / (time.perf_counter() - began), result


def wait(seconds: float) -> list[float]:
    time.sleep(seconds)
    return []


def one_run(url: str, token: str, games: list[int], workers: int, redis: str) -> dict:
    port = load.free_port()
    server = serve(url, port, workers, redis)
    watchers = None
    try:
        writers = [load.Phone(port, token, game) for game in games]
        for phone in writers:
            phone.game = int(phone.path.rsplit("/", 1)[1])
        posted: dict[tuple[int, int], float] = {}
        idle_floor, _ = cpu_share(server, lambda: wait(IDLE))
        hands_floor, alone = cpu_share(server, lambda: write(writers, SECONDS / 2, posted))
        watchers = Watchers(port, writers[0].cookie, games)
        for i in range(WATCHERS):  # 200 a second
            watchers.connect(i)
            if i % 20 == 19:
                time.sleep(0.1)
        deadline = time.perf_counter() + 60
        while any(not s for s in watchers.seen) and time.perf_counter() < deadline:
            time.sleep(0.2)
        connected = sum(bool(s) for s in watchers.seen)
        idle, _ = cpu_share(server, lambda: wait(IDLE))
        posted.clear()
        hands, watched = cpu_share(server, lambda: write(writers, SECONDS, posted))
        time.sleep(1.5)  # the last hand's events
        delays, missed = [], 0
        for i, game in enumerate(watchers.games):
            told = {version: at for version, at in watchers.seen[i]}
            for (g, version), sent in posted.items():
                if g == game:
                    if version in told:
                        delays.append(max(0.0, told[version] - sent))
                    else:
                        missed += 1
        # 10 % of the phones lose their stream; hands go into their tables meanwhile
        dropped = list(range(0, WATCHERS, 10))
        for i in dropped:
            watchers.drop(i)
        tables = sorted({i % len(writers) for i in dropped})
        write([writers[t] for t in tables], len(tables), {})
        marks = {i: len(watchers.seen[i]) for i in dropped}
        for i in dropped:
            watchers.connect(i)
        time.sleep(3)
        current = {phone.game: phone.seq - 1 for phone in writers}
        behind = sum(1 for i in dropped if len(watchers.seen[i]) == marks[i]
                     or watchers.seen[i][marks[i]][0] != current[watchers.games[i]])
        stale = sum(1 for i, game in enumerate(watchers.games)
                    if watchers.last(i) != current[game])
    finally:
        if watchers:
            watchers.close()
        server.terminate()
        server.wait(timeout=60)
    return {"connected": connected, "idle_floor": idle_floor, "idle": idle,
            "hands_floor": hands_floor, "hands": hands, "delays": sorted(delays),
            "missed": missed, "alone": sorted(alone), "watched": sorted(watched),
            "behind": behind, "stale": stale, "dropped": len(dropped)}


def pct(values: list[float], q: float) -> float:
    return values[min(len(values) - 1, int(len(values) * q / 100))] * 1000


def spread(values, digits=0) -> str:
    values = sorted(values)
    return "/".join(f"{v:.{digits}f}" for v in (values[0], statistics.median(values), values[-1]))


def bench(name: str, url: str, workers: int, redis: str = "") -> bool:
    token, games = load.prepare_tables(url, TABLES)
    runs = []
    for _ in range(RUNS):
        run = one_run(url, token, games, workers, redis)
        runs.append(run)
        print(f"    run: {run['connected']}/{WATCHERS} watching; idle CPU {run['idle']:.1%} "
              f"(floor {run['idle_floor']:.1%}); seen p99 {pct(run['delays'], 99):.0f} ms, "
              f"{run['missed']} missed; after a drop {run['behind']} behind, "
              f"{run['stale']} stale", flush=True)
    print(f"{name} ({workers} worker{'s' if workers > 1 else ''}): {WATCHERS} phones watching "
          f"{TABLES} tables, min/median/max of {RUNS} runs")
    print(f"  idle, server CPU of one core: {spread([r['idle'] * 100 for r in runs], 1)} % "
          f"(floor, nobody watching: {spread([r['idle_floor'] * 100 for r in runs], 1)} %); "
          f"target < 50 %")
    print(f"  1 hand/s, server CPU: {spread([r['hands'] * 100 for r in runs], 1)} % "
          f"(floor, nobody watching: {spread([r['hands_floor'] * 100 for r in runs], 1)} %)")
    print(f"  a hand seen by each of its watchers after: p50 "
          f"{spread([pct(r['delays'], 50) for r in runs])} ms, p99 "
          f"{spread([pct(r['delays'], 99) for r in runs])} ms, max "
          f"{spread([r['delays'][-1] * 1000 for r in runs])} ms "
          f"({statistics.median(len(r['delays']) for r in runs):.0f} sightings a run); "
          f"missed {spread([r['missed'] for r in runs])}; target p99 < 1000 ms, none missed")
    print(f"  a hand's POST while watched: p50 {spread([pct(r['watched'], 50) for r in runs])} ms"
          f", p99 {spread([pct(r['watched'], 99) for r in runs])} ms (floor, nobody watching: "
          f"p50 {spread([pct(r['alone'], 50) for r in runs])} ms, p99 "
          f"{spread([pct(r['alone'], 99) for r in runs])} ms)")
    print(f"  {runs[0]['dropped']} streams dropped, hands entered, connected again: behind the "
          f"table {spread([r['behind'] for r in runs])}; at the end, phones not showing their "
          f"table's last version {spread([r['stale'] for r in runs])}; target none")
    met = all(r["idle"] < 0.5 and pct(r["delays"], 99) < 1000 and r["missed"] == 0
              and r["behind"] == 0 and r["stale"] == 0 and r["connected"] == WATCHERS
              for r in runs)
    print(f"  targets in every run (idle < 50 %, p99 < 1 s, nothing missed): "
          f"{'met' if met else 'NOT met'}")
    return met


def main() -> int:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, WATCHERS + 500)), hard))
    ok = bench("sqlite, in-process", f"sqlite:///{tempfile.mkdtemp()}/watch.sqlite", 1)
    if os.environ.get("BENCH_REDIS_URL"):
        ok = bench("sqlite, Redis pub/sub", f"sqlite:///{tempfile.mkdtemp()}/watch.sqlite", 2,
                   os.environ["BENCH_REDIS_URL"]) and ok
    if os.environ.get("BENCH_DATABASE_URL"):
        ok = bench("postgresql, LISTEN/NOTIFY", os.environ["BENCH_DATABASE_URL"], 2) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
