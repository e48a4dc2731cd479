"""How long a wrong PIN takes to be answered: for a group with a PIN, a group without one and a
name no group has. The three should not differ (else the answer's time tells which groups have
a PIN). Prints min / median / max in ms per case, the cases interleaved, over BENCH_N posts each
(default 30; `BENCH_N=3` for a smoke run).

    .venv/bin/python bench/pin_timing.py     # SQLite; PostgreSQL with BENCH_DATABASE_URL set

    smoke: BENCH_N=3
"""

from __future__ import annotations

import os
import statistics
import time

from common import bench_app
from sqlalchemy import delete

from scorekeeper.db import db
from scorekeeper.models import Attempt

CASES = {"a group with a PIN": "Tanne", "a group without a PIN": "Linde",
         "no such group": "Gibtsnicht"}


def main() -> None:
    app = bench_app()
    host = app.test_client()
    host.post("/groups", data={"name": "Tanne"})
    host.post("/g/tanne/invite/pin", data={"pin": "4711"})
    host.post("/groups", data={"name": "Linde"}, environ_base={"REMOTE_ADDR": "10.0.0.2"})
    times: dict[str, list[float]] = {case: [] for case in CASES}
    for _ in range(int(os.environ.get("BENCH_N", "30"))):
        for case, name in CASES.items():  # interleaved: the machine's noise hits each alike
            with app.app_context():  # under the limits: each post is checked, not refused
                db.session.execute(delete(Attempt))
                db.session.commit()
            began = time.perf_counter()
            answer = app.test_client().post("/join", data={"name": name, "pin": "0000"})
            times[case].append((time.perf_counter() - began) * 1000)
            assert answer.status_code == 400, answer.status_code
    kind = app.config["SQLALCHEMY_DATABASE_URI"].split(":")[0]
    print(f"wrong PIN, {kind}: ms min / median / max")
    for case, values in times.items():
        print(f"  {case:22} {min(values):7.1f} {statistics.median(values):7.1f} "
              f"{max(values):7.1f}")


if __name__ == "__main__":
    main()
