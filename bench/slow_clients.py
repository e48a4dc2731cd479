"""Slow clients: do normal requests get answered while slow and idle sockets are held open?

    .venv/bin/python bench/slow_clients.py     # SQLite; BENCH_DATABASE_URL=... for PostgreSQL too

    BENCH_RUNS=3  BENCH_SECONDS=8  BENCH_RATE=10  (normal requests a second)

    smoke: BENCH_RUNS=1 BENCH_SECONDS=2

gunicorn starts with the project's config (`make serve`: gunicorn.conf.py) and, for comparison,
with the old one (the same file with `-k gthread --threads 8`, one worker), on a temporary
SQLite database (and PostgreSQL when BENCH_DATABASE_URL is set). Each run:

1. the floor: normal requests alone, BENCH_RATE a second for BENCH_SECONDS, each on a new
   connection (a phone opening the group page: a real page that reads the database);
2. then the same while 64 slow-header sockets (a header line every 2 s), 64 slow-body sockets
   (Content-Length set, a byte every 2 s) and 200 idle sockets are held open; a socket the
   server closes is opened again at once, as an attacker would.

A normal request counts as answered when its 200 arrives within 5 s. Reports answered/total and
p50/p99 (an unanswered request counts as over 5 s) for min/median/max of the runs, and the
server's CPU time per normal request without the slow sockets. Target with
the project's config: all answered, p99 under 1 s.
"""

from __future__ import annotations

import http.client
import os
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
import watch  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
RUNS = int(os.environ.get("BENCH_RUNS", "3"))
SECONDS = float(os.environ.get("BENCH_SECONDS", "8"))
RATE = float(os.environ.get("BENCH_RATE", "10"))
WAIT = 5.0  # a normal request not answered by then counts as unanswered
OLD = ["-k", "gthread", "--threads", "8", "--workers", "1"]  # the config before gevent


def serve(url: str, port: int, extra: list[str]) -> subprocess.Popen:
    """gunicorn with gunicorn.conf.py (and `extra` options, which win over the file)."""
    env = {**os.environ, "DATABASE_URL": url, "SCOREKEEPER_BIND": f"127.0.0.1:{port}",
           "RATELIMIT_STORAGE_URI": "memory://"}
    env.pop("SCOREKEEPER_WORKERS", None)
    return load.start(env, port, *extra, "scorekeeper:create_app()")


class SlowSockets:
    """Sockets that send a request very slowly or nothing at all, held open from a thread of
    their own: every 2 s each sends its next piece; one the server closed is opened again."""

    def __init__(self, port: int, headers: int = 64, bodies: int = 64, idle: int = 200) -> None:
        self.port = port
        self.kinds = ["header"] * headers + ["body"] * bodies + ["idle"] * idle
        self.socks: list[socket.socket | None] = [None] * len(self.kinds)
        self.reopened = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _open(self, kind: str) -> socket.socket | None:
        try:
            sock = socket.create_connection(("127.0.0.1", self.port), timeout=2)
            if kind == "header":
                sock.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\n")
            elif kind == "body":
                sock.sendall(b"POST /join HTTP/1.1\r\nHost: localhost\r\nContent-Type: "
                             b"application/x-www-form-urlencoded\r\nContent-Length: 60000\r\n\r\n")
            sock.setblocking(False)
            return sock
        except OSError:
            return None

    def _tick(self, i: int, kind: str) -> None:
        sock = self.socks[i]
        try:
            if sock is None:
                raise OSError
            try:
                if sock.recv(65536) == b"":  # closed by the server (an answer is left unread)
                    raise OSError
            except BlockingIOError:
                pass
            if kind == "header":
                sock.send(b"X-Slow: %d\r\n" % i)
            elif kind == "body":
                sock.send(b"a")
        except OSError:
            if sock is not None:
                sock.close()
                self.reopened += 1
            self.socks[i] = self._open(kind)

    def _run(self) -> None:
        while not self.stop.is_set():
            for i, kind in enumerate(self.kinds):
                self._tick(i, kind)
            self.stop.wait(2.0)

    def __enter__(self) -> SlowSockets:
        for i, kind in enumerate(self.kinds):
            self.socks[i] = self._open(kind)
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join()
        for sock in self.socks:
            if sock is not None:
                sock.close()

    def held(self) -> int:
        return sum(sock is not None for sock in self.socks)


def ask(port: int, path: str, cookie: str, times: list[float]) -> None:
    """One normal request on a new connection; its time (inf when not answered in time)."""
    began = time.perf_counter()
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT)
        conn.request("GET", path, headers={"Cookie": cookie})
        response = conn.getresponse()
        response.read()
        conn.close()
        took = time.perf_counter() - began
        times.append(took if response.status == 200 and took <= WAIT else float("inf"))
    except OSError:
        times.append(float("inf"))


def normal_requests(port: int, path: str, cookie: str, seconds: float = SECONDS,
                    rate: float = RATE) -> list[float]:
    """`rate` requests a second for `seconds`, each in a thread of its own; their times."""
    times: list[float] = []
    threads = []
    began = time.perf_counter()
    for n in range(int(seconds * rate)):
        time.sleep(max(0.0, began + n / rate - time.perf_counter()))
        thread = threading.Thread(target=ask, args=(port, path, cookie, times))
        thread.start()
        threads.append(thread)
    for thread in threads:
        thread.join()
    return sorted(times)


def summary(times: list[float]) -> tuple[int, float, float]:
    """Answered, p50 and p99 in ms (inf when more than 1 % went unanswered)."""
    answered = sum(t != float("inf") for t in times)
    return answered, statistics.median(times) * 1000, times[int(len(times) * 0.99)] * 1000


def one_run(url: str, token: str, game: int, extra: list[str]) -> tuple:
    port = load.free_port()
    server = serve(url, port, extra)
    try:
        phone = load.Phone(port, token, game)  # joins the group: its cookie opens the page
        phone.conn.close()
        path = "/g/tanne"
        before = watch.cpu_seconds(server.pid)
        floor = normal_requests(port, path, phone.cookie)
        cpu = (watch.cpu_seconds(server.pid) - before) / len(floor)
        with SlowSockets(port) as slow:
            time.sleep(3)  # all of them connected and started
            loaded = normal_requests(port, path, phone.cookie)
            held = slow.held()
    finally:
        server.terminate()
        server.wait(timeout=30)
    print(f"    floor {fmt(floor)}, server CPU {cpu * 1000:.1f} ms a request | with slow "
          f"sockets {fmt(loaded)} ({held} slow sockets open at the end)", flush=True)
    return floor, loaded, cpu


def fmt(times: list[float]) -> str:
    answered, p50, p99 = summary(times)
    return f"{answered}/{len(times)} answered, p50 {p50:.0f} ms, p99 {p99:.0f} ms"


def spread(values: list[float], digits: int = 0) -> str:
    values = sorted(values)
    return "/".join(f"{v:.{digits}f}" if v != float("inf") else "inf" for v in
                    (values[0], statistics.median(values), values[-1]))


def bench(name: str, url: str) -> bool:
    token, games = load.prepare_tables(url, 1)
    met = True
    for label, extra in (("gevent (gunicorn.conf.py)", []), ("gthread (old config)", OLD)):
        print(f"{name}, {label}:", flush=True)
        runs = [one_run(url, token, games[0], extra) for _ in range(RUNS)]
        for phase, i in (("floor", 0), ("slow sockets", 1)):
            got = [summary(run[i]) for run in runs]
            total = len(runs[0][i])
            print(f"  {phase:<13} answered {spread([g[0] for g in got])} of {total}, "
                  f"p50 {spread([g[1] for g in got])} ms, p99 {spread([g[2] for g in got])} ms "
                  f"(min/median/max of {RUNS})")
        print(f"  server CPU per normal request (floor): "
              f"{spread([run[2] * 1000 for run in runs], 1)} ms")
        if not extra:
            met = all(summary(run[1])[0] == len(run[1]) and summary(run[1])[2] < 1000
                      for run in runs)
            p99 = statistics.median(summary(run[1])[2] for run in runs)
            floor = statistics.median(summary(run[0])[2] for run in runs)
            print(f"  p99 with slow sockets / floor: {p99 / floor:.1f}; target all answered, "
                  f"p99 < 1 s: {'met' if met else 'NOT met'}")
    return met


def main() -> int:
    print(f"normal requests: {RATE:.0f}/s for {SECONDS:.0f} s; slow: 64 header, 64 body, "
          f"200 idle sockets; {RUNS} runs", flush=True)
    ok = bench("sqlite", f"sqlite:///{tempfile.mkdtemp()}/slow.sqlite")
    if os.environ.get("BENCH_DATABASE_URL"):
        ok = bench("postgresql", os.environ["BENCH_DATABASE_URL"]) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
