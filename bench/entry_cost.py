"""What a tournament table's entry costs, part by part, in one process: the CPU of a Cego game
entered as the table page sends it (X-Part: content), against the floor POST of
bench/load_app.py, whole and with parts of its work left out. Each variant that leaves a part
out says how much the whole could at most gain by doing that part better (issue 29, item 6:
an entry's CPU <= 3x the floor's; bench/tournament.py measures it at the stress).

    .venv/bin/python bench/entry_cost.py                 # SQLite in a temporary folder
    BENCH_DATABASE_URL=postgresql+psycopg://postgres@127.0.0.1:5432/test \\
        .venv/bin/python bench/entry_cost.py             # SQLite, then PostgreSQL (schema reset)

    BENCH_BLOCKS=6   blocks; in each, every variant and the floor in turn
    BENCH_EACH=15    posts of each in a block (its median is the block's figure)

    smoke: BENCH_BLOCKS=1 BENCH_EACH=2

Variants, each a table's phone of a Preiscego (bench/tournament.py's) posting through Flask's
test client, timed by the thread's CPU time (the test client's own work included, as the
floor's):
- entry:      a game entered as served (the answer: the table's content, kept for its watchers);
- no list:    the same, its list (the game's `state` part) drawn as an empty part;
- no answer:  the same, answered with an empty part: nothing drawn, nothing for the watchers;
- least:      load_app's "best" without its answer (BENCH_BEST_ANSWER=none), at another table:
              the CSRF check, the table read, one entry written, the game updated, one commit;
              no form, no engine, no answer: the least an entry can cost on this stack.
Each table has 24 games entered before anything is timed (a Durchgang's list, full on the
phone's screen). Printed: each variant's CPU per post in ms and its multiple of the floor's,
min / median / max over the blocks. No targets: it tells where an entry's time goes.
"""

from __future__ import annotations

import gzip
import os
import re
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("BENCH_TABLES", "2")  # the Preiscego of bench/tournament.py: two tables

import load  # noqa: E402
import tournament  # noqa: E402

BLOCKS = int(os.environ.get("BENCH_BLOCKS", "6"))
EACH = int(os.environ.get("BENCH_EACH", "15"))
WARM = 24  # games entered at each table before anything is timed
SEQ = re.compile(r'data-seq="(\d+)"')  # a change's: the next game's number


class Table:
    """A table's phone in a test client: in by the table's link, then games entered."""

    def __init__(self, app, token: str, game: int, seats: list[str]) -> None:
        self.client, self.seats, self.count = app.test_client(), seats, 0
        self.client.get(f"/t/{token}")
        self.path = f"/g/{tournament.SLUG}/games/{game}"
        page = self.text(self.client.get(self.path))
        self.csrf, self.fields = load.csrf(page), tournament.TablePhone.hidden(page)

    @staticmethod
    def text(response) -> str:
        body = response.get_data()
        return (gzip.decompress(body) if body[:2] == b"\x1f\x8b" else body).decode()

    def post(self, path: str) -> None:
        self.count += 1
        hand = {**self.fields, "csrf_token": self.csrf, "key": uuid.uuid4().hex,
                "contract": "eine", "declarer": self.seats[self.count % 4], "augen": "41"}
        response = self.client.post(path, data=hand, headers={"X-Part": "content",
                                                              "Accept-Encoding": "gzip"})
        assert response.status_code == 200, self.text(response)[:500]
        answer = self.text(response)
        # the table's content (the next form's fields), what the game changed (the next
        # number), or nothing (no answer: the phone counts on, as queue.js's kept hands)
        seq = SEQ.search(answer)
        self.fields = {**self.fields, "seq": seq.group(1)} if seq else \
            tournament.TablePhone.hidden(answer) or \
            {**self.fields, "seq": str(int(self.fields["seq"]) + 1)}

    def enter(self) -> None:
        self.post(self.path + "/entries")


@contextmanager
def as_served() -> Iterator[None]:
    yield


@contextmanager
def no_list() -> Iterator[None]:
    from scorekeeper.games.base import Adapter
    template = Adapter.template

    def without_list(adapter, part: str) -> str:
        return "games/parts/empty.html" if part == "state" else template(adapter, part)

    with mock.patch.object(Adapter, "template", without_list):
        yield


@contextmanager
def no_answer() -> Iterator[None]:
    from scorekeeper.views import games as views

    def empty(*_args):
        return "<div data-table-part></div>", 200, {views.PART: "content"}

    with mock.patch.object(views, "_shared_part", empty):
        yield


@contextmanager
def least() -> Iterator[None]:
    with mock.patch.dict(os.environ, {"BENCH_BEST_ANSWER": "none"}):
        yield


def measure(url: str) -> dict[str, list[float]]:
    """Per variant (and the floor), its CPU ms per post in each block."""
    from load_app import create

    token, tables = tournament.prepare(url)
    os.environ["DATABASE_URL"] = url
    app = create()
    (first, game, seats), (other, best_game, best_seats) = tables[:2]
    table, best = Table(app, first, game, seats), Table(app, other, best_game, best_seats)
    for _ in range(WARM):
        table.enter()
        best.enter()
    variants: dict[str, tuple[Callable[[], None], Callable]] = {
        "entry": (table.enter, as_served),
        "no list": (table.enter, no_list),
        "no answer": (table.enter, no_answer),
        "least": (lambda: best.post(f"/g/{tournament.SLUG}/bench/best/{best_game}"), least),
        # by the table's phone, with its cookie, as bench/tournament.py's floor
        "floor": (lambda: table.client.post("/bench/floor", data={"n": 1}), as_served),
    }
    found: dict[str, list[float]] = {name: [] for name in variants}
    for block in range(BLOCKS):
        names = list(variants)
        names = names[block % len(names):] + names[:block % len(names)]  # a moving order
        for name in names:
            post, context = variants[name]
            with context():
                post()  # one untimed: what the variant changed is in place
                times = []
                for _ in range(EACH):
                    start = time.thread_time()
                    post()
                    times.append(time.thread_time() - start)
            found[name].append(statistics.median(times) * 1000)
    return found


def spread(values: list[float]) -> str:
    values = sorted(values)
    return "/".join(f"{v:.2f}" for v in (values[0], statistics.median(values), values[-1]))


def report(name: str, found: dict[str, list[float]]) -> None:
    print(f"\n{name}: min/median/max of {BLOCKS} blocks of {EACH} posts each")
    print(f"  {'':<12} {'CPU ms per post':>20} {'÷ floor (same block)':>24}")
    floor = found["floor"]
    for variant, times in found.items():
        ratios = [t / f for t, f in zip(times, floor, strict=True)]
        print(f"  {variant:<12} {spread(times):>20} {spread(ratios):>24}")


def main() -> int:
    report("sqlite", measure(f"sqlite:///{Path(tempfile.mkdtemp()) / 'entry_cost.sqlite'}"))
    if os.environ.get("BENCH_DATABASE_URL"):
        report("postgresql", measure(os.environ["BENCH_DATABASE_URL"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
