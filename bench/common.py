"""What the web benchmarks share: an app on a fresh database."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "bench"), str(ROOT / "tests")]

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
