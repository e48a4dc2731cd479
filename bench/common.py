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
