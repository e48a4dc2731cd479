"""Every bench script under bench/ runs, briefly, so that none can break silently (as entry.py
and standings.py did when groups became private). A script is a file of bench/ that runs as a
program (`if __name__ == "__main__":`); its docstring has a line saying how to run it briefly:

    smoke: BENCH_SECONDS=1 BENCH_PHONES=2     (the variables its short run sets)
    smoke: as it is                           (it is short already)

A missed target is a result, not a break: the script may exit 1 when it printed "NOT met". A
traceback, another exit status or a script that outlives its time is a break.
"""

import ast
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # the benches together: half a minute and more

BENCH = Path(__file__).resolve().parent.parent / "bench"
# a program, not a game's record generator (records_<module>.py, which bench/generators.py finds)
SCRIPTS = sorted(path for path in BENCH.glob("*.py") if not path.name.startswith("records_")
                 and re.search(r'^if __name__ == "__main__":', path.read_text(), re.M))
VARIABLE = re.compile(r"^[A-Z][A-Z0-9_]*=")
SECONDS = 120  # all at once: 25 to 65 s here, on two cores shared with other work


def smoke(script: Path) -> dict[str, str]:
    """The environment of the script's short run, from its docstring's `smoke:` line."""
    doc = ast.get_docstring(ast.parse(script.read_text())) or ""
    line = re.search(r"^\s*smoke:(.*)$", doc, re.M)
    assert line, f"{script.name}: its docstring says nowhere how to run it briefly ('smoke: ...')"
    return dict(word.split("=", 1) for word in line.group(1).split() if VARIABLE.match(word))


def test_the_scripts_are_found_and_the_helpers_are_not():
    names = {path.name for path in SCRIPTS}
    assert {"replay.py", "entry.py", "standings.py", "trip.py", "load.py", "watch.py"} <= names
    assert not names & {"common.py", "generators.py", "records_hintersche.py"}
    assert smoke(BENCH / "load.py")["BENCH_SECONDS"] and smoke(BENCH / "trip.py") == {}


def test_each_bench_runs_briefly():
    """All at once (they mostly wait: for gunicorn to start and stop, for their phones)."""
    # each script's temporary files in a folder of its own, with a short name: Chromium's
    # socket path must fit in 108 bytes (pytest's tmp_path is too long)
    tmp = Path(tempfile.mkdtemp(prefix="bench-"))
    try:
        assert run_all(tmp) == []
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def run_all(tmp: Path) -> list[str]:
    """What broke: each script run briefly, all at once."""
    base = {name: value for name, value in os.environ.items()
            if not name.startswith(("BENCH_", "PYTEST_"))}  # SQLite only, as a program
    running = {}
    for script in SCRIPTS:
        folder = tmp / script.stem
        folder.mkdir()
        running[script.name] = subprocess.Popen(
            [sys.executable, str(script)], env={**base, **smoke(script), "TMPDIR": str(folder)},
            cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            start_new_session=True)  # its gunicorn and Chromium go with it when it is stopped
    deadline = time.monotonic() + SECONDS
    broken = []
    for name, run in running.items():
        try:
            stdout, stderr = run.communicate(timeout=max(1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            os.killpg(run.pid, signal.SIGKILL)
            stdout, stderr = run.communicate()
            broken.append(f"{name} still ran after {SECONDS} s:\n{stdout[-2000:]}{stderr[-2000:]}")
            continue
        if "Traceback" in stderr or not stdout.strip() or run.returncode not in (0, 1) \
                or (run.returncode == 1 and "NOT met" not in stdout):
            broken.append(f"{name} exited {run.returncode}:\n{stdout[-2000:]}\n{stderr[-3000:]}")
    return broken
