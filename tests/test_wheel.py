"""The built wheel is the whole app: installed into a fresh virtual environment outside the repo,
it creates its database and serves a German page with its stylesheet."""

import os
import re
import shutil
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
import zipfile
from contextlib import closing
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
# what the build reads: the package and the folders beside it that the wheel carries
SOURCES = ["pyproject.toml", "README.md", "MANIFEST.in", "scorekeeper", "templates", "static",
           "migrations", "docs"]


def run(args, **kwargs):
    result = subprocess.run([str(a) for a in args], capture_output=True, text=True, timeout=300,
                            **kwargs)
    assert result.returncode == 0, f"{args}\n{result.stdout}\n{result.stderr}"
    return result


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """(wheel, source copy, venv): the wheel built from a copy of the sources (the checkout gets
    no build/ or egg-info, and a stale build/ cannot leak in), installed into a plain venv."""
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"
    src.mkdir()
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.mo")
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, src / name, ignore=ignore)
        elif (ROOT / name).exists():
            shutil.copy2(ROOT / name, src / name)
    # the .mo files are not in git: compile them as `make translations` does
    run([BIN / "pybabel", "compile", "-d", src / "scorekeeper" / "translations"])

    pip_env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    # build isolation: the backend (setuptools>=68 with bdist_wheel) comes from the configured
    # index, as it does for `pip install -e .`
    run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", tmp / "dist", src],
        env=pip_env, cwd=tmp)
    (wheel,) = (tmp / "dist").glob("scorekeeper-*.whl")

    # a plain venv (no system or repo site-packages); this pip installs the wheel and its
    # dependencies from the configured index into it
    venv = tmp / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", venv])
    run([sys.executable, "-m", "pip", "--python", venv / "bin" / "python", "install", "--quiet",
         "--no-compile",  # the server compiles what it imports; the rest need not be
         wheel], env=pip_env, cwd=tmp)
    return wheel, src, venv


def test_the_wheel_carries_templates_static_migrations_and_translations(built):
    wheel, src, _ = built
    names = set(zipfile.ZipFile(wheel).namelist())
    for name in ["templates/base.html", "templates/games/hintersche/state.html",
                 "static/app.css", "static/js/main.js", "static/favicon.svg",
                 "migrations/env.py", "migrations/alembic.ini", "migrations/script.py.mako",
                 "translations/de/LC_MESSAGES/messages.mo",
                 "translations/nl/LC_MESSAGES/messages.mo", "docs/rules/hintersche.md"]:
        assert f"scorekeeper/{name}" in names
    versions = [n for n in names if re.fullmatch(r"scorekeeper/migrations/versions/\w+\.py", n)]
    assert len(versions) == len(list((src / "migrations" / "versions").glob("*.py"))) > 0
    # nothing of the checkout is left out: every module and every template
    for path in (src / "scorekeeper").rglob("*.py"):
        assert f"scorekeeper/{path.relative_to(src / 'scorekeeper')}" in names
    for folder in ("templates", "static"):  # every file: static/js/, each game's style.css
        for path in (src / folder).rglob("*"):
            if path.is_file():
                assert f"scorekeeper/{folder}/{path.relative_to(src / folder)}" in names


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(url):
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.status, response.headers.get("Content-Type", ""), response.read()


def test_the_installed_wheel_upgrades_the_database_and_serves_a_page(built, tmp_path):
    _, src, venv = built
    empty = tmp_path / "empty"
    empty.mkdir()
    database = tmp_path / "x.sqlite"
    env = {"PATH": f"{venv / 'bin'}:/usr/bin:/bin", "HOME": str(tmp_path),
           "DATABASE_URL": f"sqlite:///{database}"}

    # the installed package is the one in use, with its folders inside the venv
    where = run([venv / "bin" / "python", "-c",
                 "import scorekeeper; app = scorekeeper.create_app(); "
                 "print(scorekeeper.__file__, app.template_folder, app.static_folder, "
                 "app.extensions['migrate'].directory, sep='\\n')"],
                cwd=empty, env=env).stdout.split()
    assert len(where) == 4
    for path in where:
        assert Path(path).is_relative_to(venv), where
        assert not Path(path).is_relative_to(ROOT), where

    run([venv / "bin" / "flask", "--app", "scorekeeper", "db", "upgrade"], cwd=empty, env=env)
    with closing(sqlite3.connect(database)) as conn:
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
        versions = conn.execute("SELECT version_num FROM alembic_version").fetchall()
    assert {"alembic_version", "groups", "players", "games", "entries"} <= tables
    assert len(versions) == 1

    port = free_port()
    server = subprocess.Popen(
        [str(venv / "bin" / "flask"), "--app", "scorekeeper", "run", "--port", str(port)],
        cwd=empty, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 20
        while True:
            try:
                status, kind, body = get(base + "/")
                break
            except (urllib.error.URLError, ConnectionError):
                assert server.poll() is None, server.stdout.read()
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.2)
        page = body.decode()
        assert status == 200 and kind.startswith("text/html")
        assert '<html lang="de">' in page
        assert "Die Tafel für den Stammtisch" in page  # from the compiled German catalog
        # the app's CSS, then each game's own (its style part)
        first, *games = re.findall(r'<link rel="stylesheet" href="([^"]+)"', page)
        status, kind, css = get(base + first)
        assert status == 200 and kind.startswith("text/css")
        assert css == (src / "static" / "app.css").read_bytes()
        assert games and all(get(base + href)[:2] == (200, "text/css; charset=utf-8")
                             for href in games)
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        server.stdout.close()
