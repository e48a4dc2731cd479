"""Whatever the phones do -- add, correct, undo -- what is stored equals a full replay."""

import generators
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from scorekeeper import engine
from scorekeeper.db import db
from scorekeeper.group import club
from scorekeeper.models import Entry, Game
from scorekeeper.records import game_record
from scorekeeper.table import scoring

RECORDS = {name: lambda seed, name=name: generators.varied(name, 30, seed)
           for name in engine.all_games()}  # every game, each with its own generator
ACTIONS = st.lists(st.tuples(st.sampled_from(["add", "add", "edit", "undo"]),
                             st.integers(0, 10**6)), min_size=1, max_size=12)


def assert_stored_equals_replay(game: Game) -> None:
    db.session.expire_all()
    entries = db.session.scalars(select(Entry).where(Entry.game_id == game.id)
                                 .order_by(Entry.seq)).all()
    assert [e.seq for e in entries] == list(range(1, game.entry_count + 1))
    full = scoring.replay(game)
    assert game.state == full.summary()
    assert [e.effect for e in entries] == engine.history(full)
    for entry in entries[-3:]:  # the tables stored with the entries
        head = scoring.replay(game, [e.data for e in entries[:entry.seq]])
        assert engine.restore(type(full), entry.snapshot).summary() == head.summary()


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(kind=st.sampled_from(sorted(RECORDS)), seed=st.integers(0, 10**6), actions=ACTIONS)
def test_after_random_adds_edits_and_undos_the_stored_state_is_a_full_replay(
        app, kind, seed, actions):
    rec = RECORDS[kind](seed)
    pool = RECORDS[kind](seed + 1)["hands"]  # other hands to correct entries with
    with app.app_context():
        group = club.group_for(f"g{seed}")
        game = game_record.store_game(group, club.evening_for(group),
                                  {**rec, "hands": rec["hands"][:10]})
        db.session.commit()
        for action, pick in actions:
            try:
                if action == "add" and game.entry_count < len(rec["hands"]):
                    scoring.add_entry(game, rec["hands"][game.entry_count],
                                      expected_seq=game.entry_count + 1)
                elif action == "edit" and game.entry_count:
                    seq = pick % game.entry_count + 1
                    scoring.edit_entry(game, seq, pool[pick % len(pool)])
                elif action == "undo" and game.entry_count:
                    scoring.undo_last(game, game.entry_count)
            except engine.RuleError:  # a correction that no longer fits: nothing changes
                db.session.rollback()
            else:
                db.session.commit()
            assert_stored_equals_replay(game)
