"""A table stored after any hand and picked up again plays on exactly as the full replay."""

import json

from hypothesis import given, settings
from hypothesis import strategies as st
from records_hartenjagen import random_record as hearts_record
from records_hintersche import random_record as hintersche_record
from records_vier_anderle import random_record as vier_anderle_record

from scorekeeper.engine import record

RECORDS = {
    "hintersche": lambda seed: hintersche_record(60, seed=seed),
    "vier-anderle": lambda seed: vier_anderle_record(60, seed=seed, table_changes=4),
    "hartenjagen": lambda seed: hearts_record(60, seed=seed, jack_of_diamonds=True),
}


@settings(max_examples=40, deadline=None)
@given(game=st.sampled_from(sorted(RECORDS)), seed=st.integers(0, 10**6),
       cut=st.integers(0, 60))
def test_a_restored_snapshot_plays_on_exactly_as_the_full_replay(game, seed, cut):
    rec = RECORDS[game](seed)
    full = record.replay(rec)
    head = record.replay({**rec, "hands": rec["hands"][:cut]})
    stored = json.loads(json.dumps(head.snapshot()))  # as the database keeps it
    table = type(head).restore(stored)
    assert table.summary() == head.summary()
    record.apply_all(table, rec["hands"][cut:], first=cut + 1)
    assert table.summary() == full.summary()
    assert table.history() == full.history()[cut:]
    if cut < len(rec["hands"]):
        assert table.last_rows(1) == full.history()[-1:]
    report = full.report()  # the summary is the report without the history (and the games)
    assert {key: report[key] for key in full.summary()} == full.summary()
    assert report["history"] == full.history() and set(report) - set(full.summary()) <= {
        "history", "games"}


def test_a_snapshot_holds_no_history():
    def size(table):
        return len(json.dumps(table.snapshot()))

    for rec in (hintersche_record(400, seed=3), vier_anderle_record(400, seed=3),
                hearts_record(400, seed=3)):
        short = record.replay({**rec, "hands": rec["hands"][:20]})
        assert size(record.replay(rec)) < 1.5 * size(short)
