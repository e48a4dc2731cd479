"""A table stored after any hand and picked up again plays on exactly as the full replay."""

import dataclasses
import json
import random
from pathlib import Path

import generators
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from records_hintersche import play_entry as play_hintersche

from scorekeeper import engine
from scorekeeper.engine import base, games, hartenjagen, hintersche, record
from scorekeeper.engine.errors import RuleError

RECORDS = {name: lambda seed, name=name: generators.varied(name, 60, seed)
           for name in games.all_games()}  # every game, each with its own generator


@settings(max_examples=40, deadline=None)
@given(game=st.sampled_from(sorted(RECORDS)), seed=st.integers(0, 10**6),
       cut=st.integers(0, 60))
def test_a_restored_snapshot_plays_on_exactly_as_the_full_replay(game, seed, cut):
    rec = RECORDS[game](seed)
    full = record.replay(rec)
    head = record.replay({**rec, "hands": rec["hands"][:cut]})
    stored = json.loads(json.dumps(engine.snapshot(head)))  # as the database keeps it
    table = engine.restore(type(head), stored)
    assert table.summary() == head.summary()
    record.apply_all(table, rec["hands"][cut:], first=cut + 1)
    assert table.summary() == full.summary()
    assert engine.history(table) == engine.history(full)[cut:]
    if cut < len(rec["hands"]):
        assert engine.play.last_rows(table, 1) == engine.history(full)[-1:]
    report = engine.report(full)  # the summary is the report without the history (and the games)
    assert {key: report[key] for key in full.summary()} == full.summary()
    assert report["history"] == engine.history(full) and set(report) - set(full.summary()) <= {
        "history", "games"}


def test_a_snapshot_holds_no_history():
    def size(table):
        return len(json.dumps(engine.snapshot(table)))

    for rec in (generators.random_record(name, 400, 3) for name in games.all_games()):
        short = record.replay({**rec, "hands": rec["hands"][:20]})
        assert size(record.replay(rec)) < 1.5 * size(short)


# --- the game contract: one base class, the same shared checks in every game -----------------

FIRST_ENTRIES = {name: make(7)["hands"][0] for name, make in RECORDS.items()}


def fresh_table(game):
    rec = RECORDS[game](7)
    return record.start(rec)


def test_every_game_implements_the_base_class_and_names_itself_the_same_way():
    assert games.Table is base.Table
    for name, module in games.all_games().items():
        assert issubclass(module.Table, base.Table)
        for attr in ("NAME", "TITLE", "OPTIONS", "MIN_PLAYERS", "MAX_PLAYERS"):
            assert getattr(module.Table, attr) == getattr(module, attr), (name, attr)
        assert module.Table.NAME == name
        assert module.Table.ENTRY_WORD in ("hand", "entry")
        assert isinstance(module.Table.ENTRY_KEYS, frozenset) and module.Table.ENTRY_KEYS
        assert set(module.Table.SNAPSHOT) >= {"hands_played", "finished"}


def test_a_table_that_does_not_say_what_the_contract_asks_is_refused():
    with pytest.raises(TypeError, match="ENTRY_KEYS"):
        class Half(base.Table):  # noqa: F841 - the class statement is what is refused
            NAME = "half"
            TITLE = "Half"
            OPTIONS = ()
            ENTRY_WORD = "hand"
            MIN_PLAYERS = MAX_PLAYERS = 2
            SNAPSHOT = ()


def _refusal(table, entry):
    before = (table.summary(), len(table.rows))
    try:
        engine.apply(table, entry)
    except RuleError as error:
        assert (table.summary(), len(table.rows)) == before  # a refused entry changes nothing
        return error
    raise AssertionError(f"{entry!r} was accepted")


def test_the_shared_checks_of_apply_are_the_same_in_every_game():
    for game in RECORDS:
        table = fresh_table(game)
        title = type(table).TITLE
        for entry in ([], "points", 7, None, ["tricks"]):
            error = _refusal(table, entry)
            assert (error.code, error.field) == ("entry_not_object", None), (game, entry)
            assert error.message() == "the entry is not a JSON object"
        entry = {**FIRST_ENTRIES[game], "zzz": 1}
        error = _refusal(table, entry)
        assert (error.code, error.field, error.params["game"]) == ("unknown_key", "zzz", title)
        assert error.message() == f"\u201czzz\u201d: there is no such thing in {title}"
        # over: the same entry that a running game takes is refused, and so is anything else,
        # in the game's own words where it has them (game_over)
        stored = json.loads(json.dumps(engine.snapshot(table)))
        stored["state"]["finished"] = True
        over = engine.restore(type(table), stored)
        own = getattr(over, "game_over", None)
        words = own().message() if own else "the game is over, no more hands can be entered"
        for entry in (FIRST_ENTRIES[game], [], {"zzz": 1}):
            error = _refusal(over, entry)
            assert error.code == (own().code if own else "game_over"), (game, entry)
            assert error.message() == words


def test_a_game_that_ends_refuses_the_next_entry():
    rubber = hintersche.Table(["A", "B", "C", "D"], None, {"rubber_games": 1})
    rng = random.Random(5)
    while not rubber.finished:
        play_hintersche(rubber, rng)
    hearts = hartenjagen.Table(["A", "B", "C", "D"], None, {"target": 1})
    engine.apply(hearts, {"points": {"A": 13, "B": 6, "C": 7}})
    assert hearts.finished and hearts.summary()["winner"] == "D"
    for table in (rubber, hearts):
        assert _refusal(table, {"points": {}}).code == "game_over"


def test_apply_says_what_it_did_with_a_frozen_row():
    for game in RECORDS:
        table = fresh_table(game)
        row = engine.apply(table, FIRST_ENTRIES[game])
        assert isinstance(row, base.Row) and dataclasses.is_dataclass(row)
        assert not hasattr(row, "__dict__")  # slots: rows stay small in a long game
        field = dataclasses.fields(row)[0].name
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(row, field, None)
        assert engine.play.last_rows(table, 1) == [row.spelled(table.players, table.hands_played)]
        last = engine.play.last_rows(table, 1)
        assert engine.history(table) == engine.report(table)["history"] == last
        assert len(table.rows) == 1


def test_no_shared_engine_module_names_a_game():
    folder = Path(record.__file__).parent
    words = set()
    for module in games.all_games().values():
        words |= {module.NAME, module.__name__.rsplit(".", 1)[-1],
                  str(module.TITLE).split()[0].lower()}
    own = {Path(module.__file__).name for module in games.all_games().values()}
    for path in folder.glob("*.py"):
        if path.name in own or path.name == "games.py":  # the games, and the registry
            continue
        text = path.read_text().lower()
        assert [word for word in sorted(words) if word in text] == [], path.name
