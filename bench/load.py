"""Load: 20 phones posting hands into 20 games at once, against gunicorn with 4 workers.

    .venv/bin/python bench/load.py                 # SQLite in a temporary folder
    BENCH_DATABASE_URL=postgresql+psycopg://postgres@127.0.0.1:5432/test \\
        .venv/bin/python bench/load.py             # SQLite, then PostgreSQL (its schema is reset)

    BENCH_SECONDS=30   how long the phones post
    BENCH_PHONES=20    phones, each with its own Vier-Anderle game of four
    BENCH_WORKERS=4    gunicorn worker processes (gevent)

    smoke: BENCH_SECONDS=1 BENCH_PHONES=2 BENCH_WORKERS=1

The server is `make serve`'s: gunicorn with gunicorn.conf.py (4 gevent workers) on a
free port, CSRF on, as in production. Each phone joins the group by its join link, reads its
game's table page once (the CSRF token and the entry number), then posts one hand after the
other over a kept-alive connection, each with a fresh idempotency key: a type-1 hand that one
player wins, then a type-2 hand that the same player plays alone, which empties the pot again.
A hand is counted when the server answers the POST with its redirect (the hand is stored); the
phones do not load the table page again in between (the live table of the next issue updates
it). The phones run in this process, on the same two cores as the server.

Reports hands/s and the median and 99th percentile of the POST's time. Targets: at least 150
hands/s, p99 at most 300 ms. Exits 1 when one is missed.
"""

from __future__ import annotations

import http.client
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
SECONDS = float(os.environ.get("BENCH_SECONDS", "30"))
PHONES = int(os.environ.get("BENCH_PHONES", "20"))
WORKERS = os.environ.get("BENCH_WORKERS", "4")
PLAYERS = ["A", "B", "C", "D"]
TARGET_RATE, TARGET_P99_MS = 150, 300


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def prepare_tables(url: str, count: int = PHONES) -> tuple[str, list[int]]:
    """An empty database with one group and `count` games: the join token and the game ids."""
    from flask_migrate import upgrade
    from sqlalchemy import text

    os.environ["DATABASE_URL"] = url
    from scorekeeper import create_app, records
    from scorekeeper.db import db

    app = create_app({"SQLALCHEMY_DATABASE_URI": url})
    with app.app_context():
        if url.startswith("postgresql"):
            with db.engine.begin() as conn:
                conn.execute(text("DROP SCHEMA public CASCADE; CREATE SCHEMA public"))
        upgrade(directory=str(ROOT / "migrations"))
        record = {"format": "scorekeeper-game/1", "game": "vier-anderle", "players": PLAYERS,
                  "hands": []}
        games = [records.import_game(record, "tanne").id for _ in range(count)]
        from scorekeeper.models import Group

        token = db.session.scalar(db.select(Group.token))
        db.engine.dispose()
    return token, games


def serve(url: str, port: int) -> subprocess.Popen:
    env = {**os.environ, "DATABASE_URL": url, "SCOREKEEPER_BIND": f"127.0.0.1:{port}",
           "SCOREKEEPER_WORKERS": WORKERS, "RATELIMIT_STORAGE_URI": "memory://"}
    server = subprocess.Popen([str(Path(sys.executable).parent / "gunicorn"), "--config",
                               str(ROOT / "gunicorn.conf.py"), "scorekeeper:create_app()"],
                              cwd=ROOT, env=env, stderr=subprocess.DEVNULL)
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return server
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise SystemExit("gunicorn did not start")


def csrf(page: str) -> str:
    return re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)


class Phone:
    def __init__(self, port: int, token: str, game: int) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.cookie = ""
        self.path = f"/g/tanne/games/{game}"
        join = self.request("GET", f"/join/{token}")  # the join link's page, then its one tap
        self.request("POST", f"/join/{token}", {"csrf_token": csrf(join)})
        page = self.request("GET", self.path)
        self.csrf = csrf(page)
        self.seq = int(re.search(r'name="seq" value="(\d+)"', page).group(1))
        self.times: list[float] = []
        self.errors = 0

    def request(self, method: str, path: str, body: dict | None = None,
                extra: dict[str, str] | None = None) -> str:
        headers = {"Cookie": self.cookie, **(extra or {})}
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
        text = response.read().decode()
        cookie = response.getheader("Set-Cookie")
        if cookie and (method == "GET" or "/join/" in path):  # a hand's POST's cookie only adds
            self.cookie = cookie.split(";", 1)[0]  # its "saved", which the table would clear
        self.status = response.status
        self.last_etag = response.getheader("ETag") or ""
        return text

    def hand(self) -> dict:
        fields = {"csrf_token": self.csrf, "key": uuid.uuid4().hex, "seq": self.seq,
                  "tricks-A": 4}
        if self.seq % 2 == 0:  # the pot holds money: A plays alone and takes it
            fields["playing-A"] = "on"
        return fields

    def run(self, until: float) -> None:
        while time.perf_counter() < until:
            start = time.perf_counter()
            self.request("POST", self.path + "/entries", self.hand())
            if self.status == 302:
                self.times.append(time.perf_counter() - start)
                self.seq += 1
            else:
                self.errors += 1


def run(name: str, url: str) -> bool:
    token, games = prepare_tables(url)
    port = free_port()
    server = serve(url, port)
    try:
        phones = [Phone(port, token, game) for game in games]
        until = time.perf_counter() + SECONDS
        threads = [threading.Thread(target=p.run, args=(until,)) for p in phones]
        begin = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        elapsed = time.perf_counter() - begin
    finally:
        server.terminate()
        server.wait(timeout=30)
    times = sorted(t for p in phones for t in p.times)
    errors = sum(p.errors for p in phones)
    rate = len(times) / elapsed
    p50 = statistics.median(times) * 1000
    p99 = times[int(len(times) * 0.99)] * 1000
    met = rate >= TARGET_RATE and p99 <= TARGET_P99_MS
    print(f"{name:<11} {len(times):>6} hands in {elapsed:.1f} s: {rate:6.1f} hands/s, "
          f"p50 {p50:.0f} ms, p99 {p99:.0f} ms, {errors} refused   "
          f"target >= {TARGET_RATE}/s and p99 <= {TARGET_P99_MS} ms: "
          f"{'met' if met else 'NOT met'}")
    return met and errors == 0


def main() -> int:
    print(f"{PHONES} phones, {PHONES} games, gunicorn {WORKERS} gevent workers, "
          f"{SECONDS:.0f} s")
    folder = Path(tempfile.mkdtemp())
    ok = run("sqlite", f"sqlite:///{folder / 'load.sqlite'}")
    if os.environ.get("BENCH_DATABASE_URL"):
        ok = run("postgresql", os.environ["BENCH_DATABASE_URL"]) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
