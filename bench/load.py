"""Load: phones entering hands at once into gunicorn as `make serve` runs it, against two
floors in the same harness, on SQLite and (with BENCH_DATABASE_URL) PostgreSQL.

    .venv/bin/python bench/load.py                 # SQLite in a temporary folder
    BENCH_DATABASE_URL=postgresql+psycopg://postgres@127.0.0.1:5432/test \\
        .venv/bin/python bench/load.py             # SQLite, then PostgreSQL (its schema is reset)

    BENCH_SECONDS=8    how long each phase runs
    BENCH_ROUNDS=3     rounds; each runs the three phases one after the other
    BENCH_PHONES=20    phones, each with its own Vier-Anderle game of four
    BENCH_CLIENTS=2    processes the phones run in (threads in each)
    BENCH_WORKERS=4    gunicorn worker processes (SCOREKEEPER_WORKERS; gevent, as configured)

    smoke: BENCH_SECONDS=1 BENCH_ROUNDS=1 BENCH_PHONES=2 BENCH_CLIENTS=1 BENCH_WORKERS=1

The server is gunicorn with gunicorn.conf.py on a free port, CSRF on, serving the app with the
two floor endpoints of bench/load_app.py. Each phone joins the group by its join link (its
page, then its button) and reads its game's table page once (the CSRF token and the entry
number), outside the measurement; as a browser, it accepts gzip. Then
each round has three phases of BENCH_SECONDS in which every phone posts, one after the other
over a kept-alive connection:

- ours:  a hand, as the table page's script sends it (X-Part: content), with a fresh
  idempotency key; counted when answered with the table's content (200). A type-1 hand that
  one player wins, then a type-2 hand that the same player plays alone (the pot empties again);
- floor: to a trivial Flask endpoint that writes one row;
- best:  the least a hand entry needs on this stack (load_app.py: CSRF check, read the game,
  insert the hand, update the game, commit, render the same table content), into a game of its
  own.

Per phase: hands/s, the median and 99th percentile of the POST's time, and the server's CPU per
hand (user + system time of gunicorn's master and workers, from /proc, over the phase; a
recycled worker's time is its master's). The phones run on the same cores as the server.
Printed: min / median / max over the rounds, and the ratios of each round (ours against the
floor and the best of the same round). Targets: CPU per hand <= 3x the floor's, hands/s >=
0.3x the floor's, p99 <= 300 ms, CPU per hand <= 1.3x the best's. Exits 1 when one is missed.
Also printed, without a target: the best's CPU per hand against the floor's
(BENCH_BEST_ANSWER=none: the best answers without the table's content, load_app.py).
"""

from __future__ import annotations

import gzip
import http.client
import multiprocessing
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
SECONDS = float(os.environ.get("BENCH_SECONDS", "8"))
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "3"))
PHONES = int(os.environ.get("BENCH_PHONES", "20"))
CLIENTS = int(os.environ.get("BENCH_CLIENTS", "2"))
WORKERS = os.environ.get("BENCH_WORKERS", "4")
PLAYERS = ["A", "B", "C", "D"]
PHASES = ("ours", "floor", "best")
TICK = os.sysconf("SC_CLK_TCK")
MAX_CPU_FLOOR, MIN_RATE_FLOOR, MAX_P99_MS, MAX_CPU_BEST = 3.0, 0.3, 300, 1.3


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def prepare_tables(url: str, count: int = 2 * PHONES) -> tuple[str, list[int]]:
    """An empty database with one group and `count` games (two per phone: one for its hands,
    one for the best floor), and the floor's table: the join token and the game ids."""
    from flask_migrate import upgrade
    from load_app import FLOOR
    from sqlalchemy import text

    from scorekeeper import create_app
    from scorekeeper.changes import records
    from scorekeeper.db import db
    from scorekeeper.models import Group

    app = create_app({"SQLALCHEMY_DATABASE_URI": url})
    with app.app_context():
        if url.startswith("postgresql"):
            with db.engine.begin() as conn:
                conn.execute(text("DROP SCHEMA public CASCADE; CREATE SCHEMA public"))
        upgrade(directory=str(ROOT / "migrations"))
        FLOOR.create(db.engine)
        record = {"format": "scorekeeper-game/1", "game": "vier-anderle", "players": PLAYERS,
                  "hands": []}
        games = [records.import_game(record, "tanne").id for _ in range(count)]
        token = db.session.scalar(db.select(Group.token))
        db.engine.dispose()
    return token, games


def start(env: dict[str, str], port: int, *args: str) -> subprocess.Popen:
    """gunicorn with gunicorn.conf.py and `args` (options, which win over the file, then the
    app), on `port`: returned once it accepts connections."""
    server = subprocess.Popen([str(Path(sys.executable).parent / "gunicorn"), "--config",
                               str(ROOT / "gunicorn.conf.py"), *args],
                              cwd=ROOT, env=env, stderr=subprocess.DEVNULL)
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return server
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise SystemExit("gunicorn did not start")


def serve(url: str, port: int) -> subprocess.Popen:
    env = {**os.environ, "DATABASE_URL": url, "SCOREKEEPER_BIND": f"127.0.0.1:{port}",
           "SCOREKEEPER_WORKERS": WORKERS, "RATELIMIT_STORAGE_URI": "memory://"}
    return start(env, port, "--pythonpath", str(ROOT / "bench"), "load_app:create()")


def cpu_seconds(master: int) -> float:
    """User + system time of the gunicorn master, its reaped workers and its live ones."""
    def fields(pid: int | str) -> list[str]:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()

    total = sum(map(int, fields(master)[11:15]))  # utime stime cutime cstime
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = fields(entry)
            except OSError:
                continue
            if int(stat[1]) == master:  # ppid
                total += sum(map(int, stat[11:15]))
    return total / TICK


def csrf(page: str) -> str:
    return re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)


class Phone:
    def __init__(self, port: int, token: str, game: int, best: int = 0) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.port, self.cookie = port, ""
        self.path, self.best = f"/g/tanne/games/{game}", f"/g/tanne/bench/best/{best}"
        join = self.request("GET", f"/join/{token}")  # the join link's page, then its one tap
        self.request("POST", f"/join/{token}", {"csrf_token": csrf(join)})
        page = self.request("GET", self.path)
        self.csrf = csrf(page)
        self.seq = int(re.search(r'name="seq" value="(\d+)"', page).group(1))
        self.best_seq = 0
        self.times: list[float] = []
        self.errors = 0

    def request(self, method: str, path: str, body: dict | None = None,
                extra: dict[str, str] | None = None) -> str:
        headers = {"Cookie": self.cookie, "Accept-Encoding": "gzip", **(extra or {})}
        data = None
        if body is not None:
            data = urlencode(body)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            self.conn.request(method, path, body=data, headers=headers)
            response = self.conn.getresponse()
        except (ConnectionError, http.client.HTTPException):
            # the server closed the kept-alive connection (a worker was recycled): as a browser
            # does, open a new one and send again (a hand's idempotency key keeps it single)
            self.conn.close()
            self.conn.request(method, path, body=data, headers=headers)
            response = self.conn.getresponse()
        body_bytes = response.read()
        if response.getheader("Content-Encoding") == "gzip":
            body_bytes = gzip.decompress(body_bytes)
        text = body_bytes.decode()
        cookie = response.getheader("Set-Cookie")
        if cookie:
            self.cookie = cookie.split(";", 1)[0]
        self.status, self.part = response.status, response.getheader("X-Part")
        self.last_etag = response.getheader("ETag") or ""
        return text

    def hand(self, seq: int | None = None) -> dict:
        seq = self.seq if seq is None else seq
        fields = {"csrf_token": self.csrf, "key": uuid.uuid4().hex, "seq": seq, "tricks-A": 4}
        if seq % 2 == 0:  # the pot holds money: A plays alone and takes it
            fields["playing-A"] = "on"
        return fields

    def post(self, phase: str) -> bool:
        if phase == "ours":
            self.request("POST", self.path + "/entries", self.hand(self.seq),
                         {"X-Part": "content"})
            stored = self.status == 200 and self.part == "content"
            self.seq += stored
        elif phase == "floor":
            self.request("POST", "/bench/floor", {"n": 1})
            stored = self.status == 200
        else:
            self.best_seq += 1
            self.request("POST", self.best, self.hand(self.best_seq), {"X-Part": "content"})
            stored = self.status == 200 and self.part == "content"
        return stored

    def run(self, phase: str, until: float) -> None:
        while time.perf_counter() < until:
            start = time.perf_counter()
            if self.post(phase):
                self.times.append(time.perf_counter() - start)
            else:
                self.errors += 1


def client(port: int, token: str, pairs: list[tuple[int, int]], pipe) -> None:
    """A process holding some of the phones: set up, then one phase per command."""
    phones = [Phone(port, token, game, best) for game, best in pairs]
    pipe.send("ready")
    while (phase := pipe.recv()) is not None:
        until = time.perf_counter() + SECONDS
        for phone in phones:
            phone.times, phone.errors = [], 0
        threads = [threading.Thread(target=p.run, args=(phase, until)) for p in phones]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        pipe.send(([t for p in phones for t in p.times], sum(p.errors for p in phones)))


def measure(name: str, url: str) -> bool:
    token, games = prepare_tables(url)
    pairs = list(zip(games[:PHONES], games[PHONES:], strict=True))
    port = free_port()
    server = serve(url, port)
    results: dict[str, list[dict[str, float]]] = {phase: [] for phase in PHASES}
    pipes, processes = [], []
    try:
        for i in range(CLIENTS):
            mine, theirs = multiprocessing.Pipe()
            process = multiprocessing.Process(target=client,
                                              args=(port, token, pairs[i::CLIENTS], theirs))
            process.start()
            pipes.append(mine)
            processes.append(process)
        for pipe in pipes:
            assert pipe.recv() == "ready"
        for _ in range(ROUNDS):
            for phase in PHASES:
                before = cpu_seconds(server.pid)
                for pipe in pipes:
                    pipe.send(phase)
                answers = [pipe.recv() for pipe in pipes]
                cpu = cpu_seconds(server.pid) - before
                times = sorted(t for got, _errors in answers for t in got)
                errors = sum(e for _got, e in answers)
                if errors or not times:
                    print(f"{name} {phase}: {errors} refused, {len(times)} stored")
                results[phase].append({
                    "rate": len(times) / SECONDS,
                    "p50": statistics.median(times) * 1000 if times else float("inf"),
                    "p99": times[int(len(times) * 0.99)] * 1000 if times else float("inf"),
                    "cpu": cpu * 1000 / max(len(times), 1), "errors": errors})
        for pipe in pipes:
            pipe.send(None)
    finally:
        for process in processes:
            process.join(timeout=60)
        server.terminate()
        server.wait(timeout=30)
    return report(name, results)


def spread(values: list[float], form: str = "{:.2f}") -> str:
    values = sorted(values)
    return "/".join(form.format(v) for v in (values[0], statistics.median(values), values[-1]))


def report(name: str, results: dict[str, list[dict[str, float]]]) -> bool:
    print(f"\n{name}: min/median/max of {ROUNDS} rounds of {SECONDS:.0f} s")
    print(f"  {'':<6} {'hands/s':>20} {'p50 ms':>16} {'p99 ms':>16} {'CPU ms/hand':>18}")
    for phase in PHASES:
        rows = results[phase]
        print(f"  {phase:<6} {spread([r['rate'] for r in rows], '{:.0f}'):>20} "
              f"{spread([r['p50'] for r in rows], '{:.0f}'):>16} "
              f"{spread([r['p99'] for r in rows], '{:.0f}'):>16} "
              f"{spread([r['cpu'] for r in rows]):>18}")
    ours, floor, best = (results[p] for p in PHASES)
    rounds = range(len(ours))
    cpu_floor = [ours[i]["cpu"] / floor[i]["cpu"] for i in rounds]
    rate_floor = [ours[i]["rate"] / floor[i]["rate"] for i in rounds]
    cpu_best = [ours[i]["cpu"] / best[i]["cpu"] for i in rounds]
    p99 = [r["p99"] for r in ours]
    checks = [
        ("CPU per hand / floor's", cpu_floor, f"<= {MAX_CPU_FLOOR}",
         statistics.median(cpu_floor) <= MAX_CPU_FLOOR),
        ("hands/s / floor's", rate_floor, f">= {MIN_RATE_FLOOR}",
         statistics.median(rate_floor) >= MIN_RATE_FLOOR),
        ("p99 ms (ours)", p99, f"<= {MAX_P99_MS}", statistics.median(p99) <= MAX_P99_MS),
        ("CPU per hand / best's", cpu_best, f"<= {MAX_CPU_BEST}",
         statistics.median(cpu_best) <= MAX_CPU_BEST),
    ]
    best_floor = [best[i]["cpu"] / floor[i]["cpu"] for i in rounds]
    print(f"  {'CPU per hand, best / floor':<24} {spread(best_floor):>18}   (no target: what the "
          f"stack's least costs)")
    errors = sum(r["errors"] for rows in results.values() for r in rows)
    for label, values, target, met in checks:
        print(f"  {label:<24} {spread(values):>18}   target {target}: "
              f"{'met' if met else 'NOT met'} (median)")
    if errors:
        print(f"  {errors} posts refused")
    return all(met for *_, met in checks) and not errors


def main() -> int:
    sys.path.insert(0, str(ROOT / "bench"))
    print(f"{PHONES} phones in {CLIENTS} processes, gunicorn.conf.py with {WORKERS} workers")
    folder = Path(tempfile.mkdtemp())
    ok = measure("sqlite", f"sqlite:///{folder / 'load.sqlite'}")
    if os.environ.get("BENCH_DATABASE_URL"):
        ok = measure("postgresql", os.environ["BENCH_DATABASE_URL"]) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
