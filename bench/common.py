"""What the web benchmarks share: an app on a fresh database, and the floor they are measured
against: a bare Flask app whose POST redirects to a GET that renders a small cached template."""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "bench"), str(ROOT / "tests")]

from flask import Flask, redirect, render_template, request, url_for  # noqa: E402
from jinja2 import DictLoader  # noqa: E402
from support import make_app  # noqa: E402


def bench_app(kind: str | None = None):
    """The app on an empty SQLite file, or on BENCH_DATABASE_URL (PostgreSQL) when it is set;
    `kind` ("sqlite" or "postgresql") chooses the database regardless."""
    if kind is None:
        kind = "postgresql" if os.environ.get("BENCH_DATABASE_URL") else "sqlite"
    if kind == "postgresql":
        os.environ["TEST_DATABASE_URL"] = os.environ["BENCH_DATABASE_URL"]
        return make_app("postgresql", Path(tempfile.mkdtemp()), WTF_CSRF_ENABLED=False)
    return make_app("sqlite", Path(tempfile.mkdtemp()), WTF_CSRF_ENABLED=False)


def spread(values: list[float], scale: float = 1.0) -> str:
    """min / median / max, e.g. of the medians of 3 runs."""
    return " / ".join(f"{v * scale:.2f}" for v in (min(values), statistics.median(values),
                                                     max(values)))


# --- the floor ------------------------------------------------------------------------------------

NAMES = ["Kurt", "Hubert", "Hermann", "Alfred"]
BARE_TABLE = """<!doctype html><html lang="en"><head><title>Table</title></head><body>
<h1>Table</h1><table>{% for name, points in rows %}<tr><td>{{ name }}</td><td>{{ points }}</td>
</tr>{% endfor %}</table><form method="post" action="{{ url_for('entries') }}">
{% for name, _ in rows %}<input name="points-{{ name }}">{% endfor %}<button>Save</button>
</form></body></html>"""
BARE_FORM = {f"points-{name}": "35" for name in NAMES}


def bare_app() -> Flask:
    """The least a hand entry can cost in Flask: no database, a template compiled once (Jinja's
    cache, as for the app's own templates)."""
    app = Flask("bare")
    app.config["TESTING"] = True
    app.jinja_loader = DictLoader({"table.html": BARE_TABLE})
    totals = dict.fromkeys(NAMES, 0)

    @app.post("/entries")
    def entries():
        for name in totals:
            totals[name] += int(request.form.get(f"points-{name}", 0))
        return redirect(url_for("table"))

    @app.get("/table")
    def table():
        return render_template("table.html", rows=list(totals.items()))

    return app


def timed_bare_entry(client) -> float:
    """Seconds of the floor's hand entry: the POST and its redirect's GET."""
    start = time.perf_counter()
    response = client.post("/entries", data=BARE_FORM, follow_redirects=True)
    elapsed = time.perf_counter() - start
    assert response.status_code == 200 and len(response.history) == 1
    return elapsed


def timed_bare_page(client) -> float:
    """Seconds of the floor's page: a GET that renders the cached template."""
    start = time.perf_counter()
    response = client.get("/table")
    elapsed = time.perf_counter() - start
    assert response.status_code == 200
    return elapsed


def timed_page(client, url: str) -> float:
    begin = time.perf_counter()
    response = client.get(url)
    elapsed = time.perf_counter() - begin
    assert response.status_code == 200, (url, response.status_code)
    return elapsed


def compare_pages(client, pages: list[str], runs: int, requests: int, target_ms: float,
                  heading: str = "") -> int:
    """Time `pages` (the phone's `client`) against the bare floor's GET, page by page and
    request by request in turns; print min / median / max of the runs' medians against the
    floor and the target. Returns the exit status: 1 when a page's median run misses it."""
    floor = bare_app().test_client()
    for url in pages:  # warm up templates and connections
        timed_page(client, url)
    for _ in range(5):
        timed_bare_page(floor)
    times: dict[str, list[list[float]]] = {url: [] for url in [*pages, "floor"]}
    for _ in range(runs):
        for url in times:
            times[url].append([])
        for _ in range(requests):
            for url in pages:
                times[url][-1].append(timed_page(client, url))
            times["floor"][-1].append(timed_bare_page(floor))
    medians = {url: [statistics.median(run) for run in runs_] for url, runs_ in times.items()}
    print(f"{heading}ms, min / median / max of {runs} runs' medians ({requests} requests each); "
          f"floor {spread(medians['floor'], 1000)} ms; load average {os.getloadavg()[0]:.1f} "
          f"on {os.cpu_count()} cores")
    ok = True
    width = max(len(url) for url in pages) + 2
    for url in pages:
        over = [m / f for m, f in zip(medians[url], medians["floor"], strict=True)]
        met = statistics.median(medians[url]) * 1000 <= target_ms
        ok = ok and met
        print(f"{url:<{width}} {spread(medians[url], 1000)} ms, {spread(over)} x the floor; "
              f"target <= {target_ms} ms: {'met' if met else 'NOT met'}")
    return 0 if ok else 1
