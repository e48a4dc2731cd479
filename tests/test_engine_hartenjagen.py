"""Hartenjagen (Dutch Hearts): the rules file's worked example, every rule and option, errors,
hostile input, and property tests with hands dealt from a real pack."""

from __future__ import annotations

import ast
import copy
import itertools
import json
import random
import sys
import tokenize
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import DE, NL

from scorekeeper import engine
from scorekeeper.engine import base, cards, errors, hartenjagen
from scorekeeper.engine import record as record_mod
from scorekeeper.engine.errors import RuleError

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import records_hartenjagen  # noqa: E402

P4 = ["A", "B", "C", "D"]


def make_record(hands: list[Any], rules: dict[str, Any] | None = None,
                players: list[str] | None = None, **extra: Any) -> dict[str, Any]:
    rec = {"format": "scorekeeper-game/1", "game": "hartenjagen", "rules": rules or {},
           "players": players or P4, "hands": hands}
    rec.update(extra)
    return rec


def replay(rec: dict[str, Any]) -> dict[str, Any]:
    """Replay a record the way record.replay does, through this game's Table."""
    table = hartenjagen.Table(rec["players"], rec.get("first_dealer", rec["players"][0]),
                              rec.get("rules"))
    return engine.report(record_mod.apply_all(table, rec["hands"]))


def table(rules: dict[str, Any] | None = None, players: list[str] | None = None,
          first_dealer: str | None = None) -> hartenjagen.Table:
    return hartenjagen.Table(players or P4, first_dealer, rules or {})


def scores(report: dict[str, Any]) -> dict[str, int]:
    return {p["name"]: p["score"] for p in report["players"]}


def last_hand(report: dict[str, Any]) -> dict[str, int]:
    return report["history"][-1]["points"]


def error_of(t: hartenjagen.Table, entry: Any) -> RuleError:
    before = engine.report(t)
    with pytest.raises(RuleError) as info:
        engine.apply(t, entry)
    assert engine.report(t) == before, "a failed apply must leave the table unchanged"
    return info.value


WORKED_EXAMPLE = [
    {"hearts": {"A": 3, "B": 0, "C": 10, "D": 0}, "queen": "B"},
    {"hearts": {"D": 13}, "queen": "D"},
    {"renege": "B"},
    {"hearts": {"A": 0, "B": 5, "C": 2, "D": 6}, "queen": "C"},
    {"hearts": {"A": 4, "B": 9, "C": 0, "D": 0}, "queen": "B"},
    {"hearts": {"A": 1, "B": 8, "C": 4, "D": 0}, "queen": "A"},
]
WORKED_TOTALS = [
    {"A": 3, "B": 13, "C": 10, "D": 0},
    {"A": 29, "B": 39, "C": 36, "D": 0},
    {"A": 29, "B": 65, "C": 36, "D": 0},
    {"A": 29, "B": 70, "C": 51, "D": 6},
    {"A": 33, "B": 92, "C": 51, "D": 6},
    {"A": 47, "B": 100, "C": 55, "D": 6},
]


# --- the worked example ---------------------------------------------------------------------

def test_worked_example_ends_with_d_winning_on_six():
    report = replay(make_record(WORKED_EXAMPLE))
    assert [h["totals"] for h in report["history"]] == WORKED_TOTALS
    assert scores(report) == {"A": 47, "B": 100, "C": 55, "D": 6}
    assert report["finished"] is True
    assert report["winner"] == "D"
    assert report["tiebreak"] == []
    assert report["hands_played"] == 6
    assert report["next_pass"] is None
    assert report["game"] == "hartenjagen"
    assert [p["balance_cents"] for p in report["players"]] == [0, 0, 0, 0]
    assert [h["pass"] for h in report["history"]] == [
        "left", "right", "across", "hold", "left", "right"]
    assert [h["kind"] for h in report["history"]] == [
        "card", "card", "renege", "card", "card", "card"]
    assert report["history"][1]["moon"] == "D"
    assert report["history"][1]["moon_choice"] == "others"
    assert report["history"][1]["points"] == {"A": 26, "B": 26, "C": 26, "D": 0}
    assert report["history"][2]["renege"] == "B"
    assert report["history"][2]["points"] == {"A": 0, "B": 26, "C": 0, "D": 0}
    assert report["history"][4]["points"] == {"A": 4, "B": 22, "C": 0, "D": 0}


def test_worked_example_entered_by_points_gives_the_same_game():
    by_points = [
        {"points": {"A": 3, "B": 13, "C": 10}},
        {"points": {"D": 26}},
        {"renege": "B"},
        {"points": {"B": 5, "C": 15, "D": 6}},
        {"points": {"A": 4, "B": 22}},
        {"points": {"A": 14, "B": 8, "C": 4}},
    ]
    by_cards = replay(make_record(WORKED_EXAMPLE))
    report = replay(make_record(by_points))
    assert [h["totals"] for h in report["history"]] == WORKED_TOTALS
    assert report["winner"] == "D"
    assert report["history"][1]["moon"] == "D"
    assert [h["kind"] for h in report["history"]] == [
        "points", "points", "renege", "points", "points", "points"]
    assert [h["points"] for h in report["history"]] == [h["points"] for h in by_cards["history"]]


def test_worked_example_replays_as_json_through_the_registry():
    pytest.importorskip("scorekeeper.engine.hintersche")
    pytest.importorskip("scorekeeper.engine.vier_anderle")
    rec = record_mod.load(json.dumps(make_record(WORKED_EXAMPLE)))
    report = engine.report(record_mod.replay(rec))
    assert report["winner"] == "D"
    assert scores(report) == {"A": 47, "B": 100, "C": 55, "D": 6}


def test_record_examples_of_the_spec_are_accepted():
    rules = {"jack_of_diamonds": True, "black_maria": True}
    t = table(rules)
    engine.apply(t, {"hearts": {"A": 3, "C": 10}, "queen": "B", "jack": "C", "king": "A",
                     "ace": "D"})
    assert last_hand(engine.report(t)) == {"A": 13, "B": 13, "C": 0, "D": 7}
    t = table({"jack_of_diamonds": True})
    engine.apply(t, {"points": {"A": 3, "B": 13, "C": 10}, "jack": "C"})
    assert last_hand(engine.report(t)) == {"A": 3, "B": 13, "C": 0, "D": 0}
    t = table({"moon": "choice"})
    engine.apply(t, {"hearts": {"D": 13}, "queen": "D", "moon": "self"})
    assert last_hand(engine.report(t)) == {"A": 0, "B": 0, "C": 0, "D": -26}


# --- table, dealing, passing ---------------------------------------------------------------

def test_pass_direction_cycles_left_right_across_hold():
    t = table()
    seen = [engine.report(t)["next_pass"]]
    for _ in range(5):
        engine.apply(t, {"hearts": {"A": 13}, "queen": "B"})
        seen.append(engine.report(t)["next_pass"])
    assert seen == ["left", "right", "across", "hold", "left", "right"]


def test_without_passing_there_is_no_pass_direction():
    t = table({"passing": False})
    assert engine.report(t)["next_pass"] is None
    engine.apply(t, {"hearts": {"A": 13}, "queen": "B"})
    assert engine.report(t)["next_pass"] is None
    assert engine.report(t)["history"][0]["pass"] is None


def test_deal_passes_clockwise_from_the_first_dealer():
    t = table(first_dealer="C")
    assert engine.report(t)["next_dealer"] == "C"
    assert engine.report(t)["dealer"] == "C"
    dealers = []
    for _ in range(4):
        engine.apply(t, {"hearts": {"A": 13}, "queen": "B"})
        dealers.append(engine.report(t)["next_dealer"])
    assert dealers == ["D", "A", "B", "C"]


def test_first_dealer_defaults_to_the_first_player():
    assert engine.report(table())["next_dealer"] == "A"


def test_one_pack_needs_exactly_four_players():
    with pytest.raises(RuleError) as info:
        table(players=["A", "B", "C", "D", "E"])
    assert info.value.code == "hartenjagen.players_one_deck"
    assert info.value.field == "players"
    assert "exactly 4 players, not 5; with two packs 4 to 10" in info.value.message()
    assert "genau 4 Spieler, nicht 5" in info.value.message(DE)
    assert "decks" not in info.value.message()
    with pytest.raises(RuleError) as info:
        table(players=["A", "B", "C"])
    assert info.value.code == "player_count"


def test_two_packs_seat_four_to_ten_players():
    for n in (4, 7, 10):
        names = [f"P{i}" for i in range(n)]
        assert table({"decks": 2}, players=names).players == names
    with pytest.raises(RuleError) as info:
        table({"decks": 2}, players=[f"P{i}" for i in range(11)])
    assert info.value.code == "player_count"
    with pytest.raises(RuleError) as info:
        table({"decks": 2}, players=["A", "B", "C"])
    assert info.value.code == "player_count"


def test_bad_seating_is_refused():
    for players, first, code in [
        ("ABCD", None, "bad_players"),
        (["A", "B", "C", "A"], None, "duplicate_player"),
        (["A", "B", "C", ""], None, "bad_players"),
        (P4, "Z", "unknown_player"),
    ]:
        with pytest.raises(RuleError) as info:
            hartenjagen.Table(players, first, {})
        assert info.value.code == code


# --- scoring a hand --------------------------------------------------------------------------

def test_each_player_scores_hearts_and_the_queen():
    t = table()
    engine.apply(t, {"hearts": {"A": 2, "B": 5, "C": 6}, "queen": "C"})
    assert last_hand(engine.report(t)) == {"A": 2, "B": 5, "C": 19, "D": 0}
    assert engine.report(t)["history"][0]["moon"] is None


def test_moon_others_gives_everyone_else_the_hand():
    t = table()
    engine.apply(t, {"hearts": {"B": 13}, "queen": "B"})
    assert last_hand(engine.report(t)) == {"A": 26, "B": 0, "C": 26, "D": 26}


def test_moon_self_takes_the_hand_off_the_shooter():
    t = table({"moon": "self"})
    engine.apply(t, {"hearts": {"B": 13}, "queen": "B"})
    assert last_hand(engine.report(t)) == {"A": 0, "B": -26, "C": 0, "D": 0}
    assert engine.report(t)["history"][0]["moon_choice"] == "self"


def test_moon_choice_scores_what_the_shooter_chose():
    t = table({"moon": "choice"})
    engine.apply(t, {"hearts": {"B": 13}, "queen": "B", "moon": "others"})
    assert last_hand(engine.report(t)) == {"A": 26, "B": 0, "C": 26, "D": 26}
    engine.apply(t, {"hearts": {"C": 13}, "queen": "C", "moon": "self"})
    assert last_hand(engine.report(t)) == {"A": 0, "B": 0, "C": -26, "D": 0}
    assert [h["moon_choice"] for h in engine.report(t)["history"]] == ["others", "self"]


def test_moon_choice_must_be_given_when_someone_shot_the_moon():
    t = table({"moon": "choice"})
    err = error_of(t, {"hearts": {"B": 13}, "queen": "B"})
    assert err.code == "hartenjagen.moon_missing"
    assert err.field == "moon"
    assert err.params["player"] == "B"
    assert err.message() == ("B shot the moon: choose whether B scores -26 or each of the "
                                 "others 26")
    assert '"self"' not in err.message(DE)
    assert err.message(DE).startswith("B hat den Mond geschossen")
    err = error_of(t, {"hearts": {"B": 13}, "queen": "B", "moon": "nobody"})
    assert err.code == "hartenjagen.bad_moon"
    err = error_of(t, {"hearts": {"B": 13}, "queen": "B", "moon": ["self"]})
    assert err.code == "hartenjagen.bad_moon"


def test_moon_choice_without_a_moon_is_refused():
    t = table({"moon": "choice"})
    err = error_of(t, {"hearts": {"B": 12, "C": 1}, "queen": "B", "moon": "self"})
    assert err.code == "hartenjagen.no_moon"
    assert err.field == "moon"
    assert err.message() == "nobody shot the moon in this hand"


def test_moon_key_only_with_the_choice_rule():
    for rule in ("others", "self"):
        err = error_of(table({"moon": rule}), {"hearts": {"B": 13}, "queen": "B", "moon": "self"})
        assert err.code == "hartenjagen.moon_not_asked"
        assert err.field == "moon"


def test_all_hearts_without_the_queen_is_no_moon():
    t = table()
    engine.apply(t, {"hearts": {"B": 13}, "queen": "A"})
    assert last_hand(engine.report(t)) == {"A": 13, "B": 13, "C": 0, "D": 0}


def test_renege_costs_the_offender_the_hand():
    t = table()
    engine.apply(t, {"renege": "C"})
    report = engine.report(t)
    assert last_hand(report) == {"A": 0, "B": 0, "C": 26, "D": 0}
    assert report["history"][0]["kind"] == "renege"
    assert report["history"][0]["renege"] == "C"
    assert report["next_pass"] == "right"


def test_renege_is_worth_the_hand_without_the_jack():
    for rules, worth in [({"jack_of_diamonds": True}, 26), ({"black_maria": True}, 43),
                         ({"decks": 2}, 52),
                         ({"decks": 2, "jack_of_diamonds": True, "black_maria": True}, 86)]:
        t = table(rules)
        engine.apply(t, {"renege": "A"})
        assert last_hand(engine.report(t)) == {"A": worth, "B": 0, "C": 0, "D": 0}
        assert engine.report(t)["moon_total"] == worth


def test_renege_entry_takes_nothing_else():
    err = error_of(table(), {"renege": "A", "queen": "B"})
    assert err.code == "unknown_key"
    assert error_of(table(), {"renege": "Z"}).code == "unknown_player"
    assert error_of(table(), {"renege": 3}).code == "unknown_player"


# --- options ---------------------------------------------------------------------------------

def test_jack_of_diamonds_counts_minus_ten():
    t = table({"jack_of_diamonds": True})
    assert engine.report(t)["hand_total"] == 16
    assert engine.report(t)["cards"] == {"queen": 1, "jack": 1}
    engine.apply(t, {"hearts": {"A": 3, "B": 10}, "queen": "C", "jack": "B"})
    assert last_hand(engine.report(t)) == {"A": 3, "B": 0, "C": 13, "D": 0}
    assert sum(last_hand(engine.report(t)).values()) == 16


def test_jack_must_be_named_when_it_counts():
    t = table({"jack_of_diamonds": True})
    err = error_of(t, {"hearts": {"A": 13}, "queen": "C"})
    assert err.code == "hartenjagen.jack_missing"
    assert err.field == "jack"
    assert err.message() == "nobody took the jack of diamonds"
    assert err.message(DE) == "niemand hat den Karo-Buben bekommen"


def test_jack_is_refused_when_it_does_not_count():
    err = error_of(table(), {"hearts": {"A": 13}, "queen": "C", "jack": "A"})
    assert err.code == "hartenjagen.jack_unused"
    assert err.field == "jack"
    assert err.message(DE) == "Der Karo-Bube zählt in diesem Spiel nicht"
    err = error_of(table(), {"hearts": {"A": 13}, "queen": "C", "king": "A"})
    assert err.code == "hartenjagen.king_unused"


def test_moon_shooter_keeps_the_jack():
    t = table({"jack_of_diamonds": True})
    engine.apply(t, {"hearts": {"A": 13}, "queen": "A", "jack": "A"})
    assert last_hand(engine.report(t)) == {"A": -10, "B": 26, "C": 26, "D": 26}
    t = table({"jack_of_diamonds": True, "moon": "self"})
    engine.apply(t, {"hearts": {"A": 13}, "queen": "A", "jack": "A"})
    assert last_hand(engine.report(t)) == {"A": -36, "B": 0, "C": 0, "D": 0}


def test_jack_taken_by_another_player_during_a_moon_still_counts():
    t = table({"jack_of_diamonds": True})
    engine.apply(t, {"hearts": {"A": 13}, "queen": "A", "jack": "C"})
    assert last_hand(engine.report(t)) == {"A": 0, "B": 26, "C": 16, "D": 26}
    assert engine.report(t)["history"][0]["moon"] == "A"


def test_black_maria_adds_king_ten_and_ace_seven():
    t = table({"black_maria": True})
    assert engine.report(t)["hand_total"] == 43
    assert engine.report(t)["cards"] == {"queen": 1, "king": 1, "ace": 1}
    engine.apply(t, {"hearts": {"A": 13}, "queen": "B", "king": "C", "ace": "D"})
    assert last_hand(engine.report(t)) == {"A": 13, "B": 13, "C": 10, "D": 7}
    err = error_of(t, {"hearts": {"A": 13}, "queen": "B", "king": "C"})
    assert err.code == "hartenjagen.ace_missing"
    assert err.message() == "nobody took the ace of spades"


def test_black_maria_moon_needs_king_and_ace_too():
    t = table({"black_maria": True})
    engine.apply(t, {"hearts": {"A": 13}, "queen": "A", "king": "A", "ace": "B"})
    assert last_hand(engine.report(t)) == {"A": 36, "B": 7, "C": 0, "D": 0}
    engine.apply(t, {"hearts": {"A": 13}, "queen": "A", "king": "A", "ace": "A"})
    assert last_hand(engine.report(t)) == {"A": 0, "B": 43, "C": 43, "D": 43}


def test_jack_and_black_maria_together_make_thirty_three():
    t = table({"jack_of_diamonds": True, "black_maria": True})
    assert engine.report(t)["hand_total"] == 33
    assert engine.report(t)["moon_total"] == 43
    engine.apply(t, {"hearts": {"A": 13}, "queen": "A", "king": "A", "ace": "A", "jack": "B"})
    assert last_hand(engine.report(t)) == {"A": 0, "B": 33, "C": 43, "D": 43}


def test_two_packs_double_every_penalty_card():
    names = ["A", "B", "C", "D", "E", "F"]
    t = table({"decks": 2}, players=names)
    report = engine.report(t)
    assert report["hand_total"] == 52
    assert report["hearts_total"] == 26
    assert report["cards"] == {"queen": 2}
    engine.apply(t, {"hearts": {"A": 20, "F": 6}, "queen": ["B", "C"]})
    assert last_hand(engine.report(t)) == {"A": 20, "B": 13, "C": 13, "D": 0, "E": 0, "F": 6}
    engine.apply(t, {"hearts": {"A": 20, "F": 6}, "queen": {"E": 2}})
    assert last_hand(engine.report(t))["E"] == 26
    engine.apply(t, {"hearts": {"A": 20, "F": 6}, "queen": ["D", "D"]})
    assert last_hand(engine.report(t))["D"] == 26


def test_two_packs_moon_needs_both_queens_and_all_hearts():
    names = ["A", "B", "C", "D", "E"]
    t = table({"decks": 2, "jack_of_diamonds": True}, players=names)
    engine.apply(t, {"hearts": {"A": 26}, "queen": ["A", "B"], "jack": ["A", "C"]})
    assert last_hand(engine.report(t)) == {"A": 29, "B": 13, "C": -10, "D": 0, "E": 0}
    engine.apply(t, {"hearts": {"A": 26}, "queen": {"A": 2}, "jack": ["A", "C"]})
    assert last_hand(engine.report(t)) == {"A": -10, "B": 52, "C": 42, "D": 52, "E": 52}
    assert engine.report(t)["history"][-1]["moon"] == "A"


def test_two_packs_need_every_copy_named():
    names = ["A", "B", "C", "D", "E"]
    t = table({"decks": 2}, players=names)
    err = error_of(t, {"hearts": {"A": 26}, "queen": "B"})
    assert err.code == "hartenjagen.queen_count"
    assert err.field == "queen"
    assert err.message() == "the queens of spades add up to 1, there are 2"
    assert err.message(DE) == "die Pik-Damen ergeben 1, es gibt aber 2"
    err = error_of(t, {"hearts": {"A": 26}, "queen": ["B", "B", "C"]})
    assert err.params == {"got": 3, "count": 2}
    err = error_of(t, {"hearts": {"A": 26}, "queen": {"B": 3, "C": -1}})
    assert err.code == "hartenjagen.queen_player"
    assert err.field == "B"
    err = error_of(t, {"hearts": {"A": 26}, "queen": []})
    assert err.code == "hartenjagen.queen_missing"
    err = error_of(t, {"hearts": {"A": 27, "B": -1}, "queen": ["A", "B"]})
    assert err.code == "hartenjagen.hearts_player"
    assert err.field == "A"


def test_one_pack_accepts_a_name_a_one_name_list_or_a_mapping():
    for queen in ("B", ["B"], {"B": 1}, {"A": 0, "B": 1}):
        t = table()
        engine.apply(t, {"hearts": {"A": 13}, "queen": queen})
        assert last_hand(engine.report(t)) == {"A": 13, "B": 13, "C": 0, "D": 0}
    err = error_of(table(), {"hearts": {"A": 13}, "queen": ["B", "C"]})
    assert err.code == "hartenjagen.queen_count"


def test_target_ends_the_game_after_the_hand_that_reaches_it():
    t = table({"target": 30})
    engine.apply(t, {"hearts": {"A": 13}, "queen": "B"})
    engine.apply(t, {"hearts": {"A": 13}, "queen": "B"})
    assert not t.finished
    engine.apply(t, {"hearts": {"A": 4, "C": 9}, "queen": "D"})
    report = engine.report(t)
    assert report["finished"] and report["winner"] == "C"
    assert scores(report) == {"A": 30, "B": 26, "C": 9, "D": 13}
    assert report["target"] == 30
    err = error_of(t, {"hearts": {"A": 13}, "queen": "B"})
    assert err.code == "game_over"


def test_default_target_is_a_hundred():
    t = table()
    engine.apply(t, {"renege": "A"})
    engine.apply(t, {"renege": "A"})
    engine.apply(t, {"renege": "A"})
    engine.apply(t, {"hearts": {"A": 13}, "queen": "B"})
    assert scores(engine.report(t))["A"] == 91 and not t.finished
    engine.apply(t, {"hearts": {"A": 9, "B": 4}, "queen": "C"})
    assert t.finished and scores(engine.report(t))["A"] == 100


def test_cents_per_point_make_everyone_pay_the_winner_the_difference():
    rec = make_record(WORKED_EXAMPLE, rules={"cents_per_point": 5})
    partial = replay(make_record(WORKED_EXAMPLE[:5], rules={"cents_per_point": 5}))
    assert [p["balance_cents"] for p in partial["players"]] == [0, 0, 0, 0]
    report = replay(rec)
    balances = {p["name"]: p["balance_cents"] for p in report["players"]}
    assert balances == {"A": -205, "B": -470, "C": -245, "D": 920}
    assert sum(balances.values()) == 0


def test_without_cents_nobody_pays():
    report = replay(make_record(WORKED_EXAMPLE))
    assert all(p["balance_cents"] == 0 for p in report["players"])


def test_options_have_defaults_and_explanations_in_three_languages():
    defaults = {o.name: o.default for o in hartenjagen.OPTIONS}
    assert defaults == {"target": 100, "moon": "others", "jack_of_diamonds": False,
                        "black_maria": False, "passing": True, "decks": 1,
                        "cents_per_point": 0}
    for option in hartenjagen.OPTIONS:
        assert isinstance(option.help, errors.Words) and option.help
    moon = next(o for o in hartenjagen.OPTIONS if o.name == "moon")
    assert set(moon.labels) == set(moon.choices)
    assert table().rules == defaults


def test_bad_options_are_refused():
    for rules, code in [({"decks": 3}, "bad_option"), ({"moon": "never"}, "bad_option"),
                        ({"target": 0}, "bad_option"), ({"target": "100"}, "bad_option"),
                        ({"jack_of_diamonds": 1}, "bad_option"),
                        ({"cents_per_point": -1}, "bad_option"), ({"omnibus": True},
                                                                 "unknown_option"),
                        ("hard", "unknown_option")]:
        with pytest.raises(RuleError) as info:
            hartenjagen.Table(P4, None, rules)
        assert info.value.code == code
    assert base.non_default(hartenjagen.OPTIONS, table({"decks": 2}).rules) == {"decks": 2}


# --- ties -------------------------------------------------------------------------------------

def tied_game(rules: dict[str, Any] | None = None) -> hartenjagen.Table:
    """A and D reach the target of 52 after four hands; B and C are tied lowest on 0."""
    t = table({"target": 52, **(rules or {})})
    engine.apply(t, {"hearts": {"A": 13}, "queen": "D"})  # A 13, D 13
    engine.apply(t, {"hearts": {"A": 13}, "queen": "D"})  # A 26, D 26
    engine.apply(t, {"hearts": {"A": 13}, "queen": "D"})  # A 39, D 39
    engine.apply(t, {"hearts": {"A": 13}, "queen": "D"})  # A 52, D 52
    return t


def test_a_tie_for_lowest_asks_for_a_tiebreak_hand():
    t = tied_game()
    report = engine.report(t)
    assert report["finished"] is False
    assert report["winner"] is None
    assert report["tiebreak"] == ["B", "C"]
    assert report["next_pass"] == "left"


def test_fewest_points_in_the_tiebreak_hand_wins():
    t = tied_game({"cents_per_point": 1})
    engine.apply(t, {"hearts": {"B": 3, "C": 2, "A": 8}, "queen": "D"})
    report = engine.report(t)
    assert report["finished"] and report["winner"] == "C"
    assert report["tiebreak"] == []
    assert report["history"][-1]["tiebreak"] == ["B", "C"]
    assert scores(report) == {"A": 60, "B": 3, "C": 2, "D": 65}
    assert {p["name"]: p["balance_cents"] for p in report["players"]} == {
        "A": -58, "B": -1, "C": 122, "D": -63}


def test_a_tied_tiebreak_hand_needs_another_among_the_still_tied():
    t = table({"target": 20}, players=P4)
    engine.apply(t, {"hearts": {"A": 13}, "queen": "D"})  # A 13, D 13
    engine.apply(t, {"hearts": {"A": 13}, "queen": "D"})  # A 26 -> end, B and C on 0
    assert engine.report(t)["tiebreak"] == ["B", "C"]
    engine.apply(t, {"hearts": {"B": 5, "C": 5, "A": 3}, "queen": "A"})
    assert engine.report(t)["tiebreak"] == ["B", "C"] and not t.finished
    engine.apply(t, {"hearts": {"B": 6, "C": 1, "D": 6}, "queen": "A"})
    assert t.finished and engine.report(t)["winner"] == "C"


def test_tiebreak_narrows_to_those_tied_again():
    t = table({"target": 13, "decks": 2}, players=["A", "B", "C", "D", "E"])
    engine.apply(t, {"hearts": {"A": 26}, "queen": ["E", "E"]})
    assert engine.report(t)["tiebreak"] == ["B", "C", "D"]
    engine.apply(t, {"hearts": {"A": 20, "B": 2, "C": 2, "D": 2}, "queen": ["A", "A"]})
    assert engine.report(t)["tiebreak"] == ["B", "C", "D"]
    engine.apply(t, {"hearts": {"A": 22, "B": 1, "C": 1, "D": 2}, "queen": ["A", "A"]})
    assert engine.report(t)["tiebreak"] == ["B", "C"]
    engine.apply(t, {"renege": "C"})
    assert t.finished and engine.report(t)["winner"] == "B"


def test_a_moon_shooter_in_the_tiebreak_wins_it_with_zero():
    t = tied_game()
    engine.apply(t, {"hearts": {"B": 13}, "queen": "B"})
    assert engine.report(t)["winner"] == "B"


# --- entering by points ------------------------------------------------------------------------

def test_points_entry_scores_what_was_counted():
    t = table()
    engine.apply(t, {"points": {"A": 1, "B": 19, "C": 6}})
    assert last_hand(engine.report(t)) == {"A": 1, "B": 19, "C": 6, "D": 0}
    assert engine.report(t)["history"][0]["kind"] == "points"


def test_points_entry_detects_a_moon():
    t = table({"moon": "self"})
    engine.apply(t, {"points": {"C": 26}})
    assert last_hand(engine.report(t)) == {"A": 0, "B": 0, "C": -26, "D": 0}
    assert engine.report(t)["history"][0]["moon"] == "C"
    t = table({"moon": "choice"})
    assert error_of(t, {"points": {"C": 26}}).code == "hartenjagen.moon_missing"
    engine.apply(t, {"points": {"C": 26}, "moon": "others"})
    assert last_hand(engine.report(t)) == {"A": 26, "B": 26, "C": 0, "D": 26}


def test_points_are_entered_without_the_jack_and_the_engine_counts_it():
    t = table({"jack_of_diamonds": True})
    engine.apply(t, {"points": {"A": 3, "B": 13, "C": 10}, "jack": "C"})
    assert last_hand(engine.report(t)) == {"A": 3, "B": 13, "C": 0, "D": 0}
    engine.apply(t, {"points": {"A": 3, "B": 13, "C": 10}, "jack": "D"})
    assert last_hand(engine.report(t)) == {"A": 3, "B": 13, "C": 10, "D": -10}


def test_points_with_the_jack_already_counted_in_are_refused_and_the_message_says_why():
    t = table({"jack_of_diamonds": True})
    err = error_of(t, {"points": {"A": 3, "B": 13, "C": 0}, "jack": "C"})
    assert (err.code, err.field) == ("hartenjagen.points_with_jack", "points")
    assert err.message() == ("the points add up to 16, so the jack of diamonds was counted "
                                 "in: enter the points without it (a hand then has 26); the app "
                                 "counts the jack's -10 for C itself")
    assert err.message(DE).startswith("die Punkte ergeben 16, also ist der Karo-Bube")
    # a player's own -10 is never a score one can count at the table
    assert error_of(t, {"points": {"A": 3, "B": 13, "C": 10, "D": -10}, "jack": "D"}).code == \
        "hartenjagen.points_player"
    assert engine.report(t)["hands_played"] == 0


def test_points_moon_with_the_jack_elsewhere():
    t = table({"jack_of_diamonds": True})
    engine.apply(t, {"points": {"A": 26}, "jack": "B"})
    assert last_hand(engine.report(t)) == {"A": 0, "B": 16, "C": 26, "D": 26}
    t = table({"jack_of_diamonds": True})
    engine.apply(t, {"points": {"A": 26}, "jack": "A"})
    assert last_hand(engine.report(t)) == {"A": -10, "B": 26, "C": 26, "D": 26}


def test_points_entry_needs_the_jack_when_it_counts():
    t = table({"jack_of_diamonds": True})
    err = error_of(t, {"points": {"A": 3, "B": 13}})
    assert err.code == "hartenjagen.jack_missing"
    assert error_of(table(), {"points": {"A": 13, "B": 13}, "jack": "A"}).code == \
        "hartenjagen.jack_unused"


def test_points_no_hand_can_give_are_refused():
    err = error_of(table(), {"points": {"A": 27, "B": 0, "C": 0, "D": 0}})
    assert err.code == "hartenjagen.points_player"
    assert err.field == "A"
    assert err.message() == "A: 27 points cannot be made from the cards"
    assert err.message(DE) == "A: 27 Punkte kann man mit diesen Karten nicht haben"
    assert error_of(table(), {"points": {"A": -1, "B": 27}}).field == "A"
    # 14 + 13 for one player would need 14 hearts
    assert error_of(table(), {"points": {"B": 14 + 13, "A": -1}}).code == \
        "hartenjagen.points_player"
    # the jack holder's -10 cannot turn into more hearts than the pack has
    t = table({"jack_of_diamonds": True})
    assert error_of(t, {"points": {"A": 3, "B": 13, "C": 30}, "jack": "D"}).field == "C"


def test_points_must_add_up_to_the_hand():
    err = error_of(table(), {"points": {"A": 3, "B": 13, "C": 9}})
    assert err.code == "hartenjagen.points_sum"
    assert err.field == "points"
    assert err.message() == "the points add up to 25, a hand has 26"
    assert err.message(DE) == "die Punkte ergeben 25, eine Hand hat aber 26"
    err = error_of(table({"jack_of_diamonds": True}),
                   {"points": {"A": 3, "B": 13, "C": 9}, "jack": "C"})
    assert err.code == "hartenjagen.points_sum"
    assert err.params["total"] == 26
    assert err.message() == ("the points add up to 25, a hand has 26 (without the jack of "
                                 "diamonds)")


def test_points_that_cannot_split_into_one_pack_are_refused():
    err = error_of(table(), {"points": {"A": 7, "B": 7, "C": 6, "D": 6}})
    assert err.code == "hartenjagen.points_split"
    assert err.field == "points"
    assert err.message() == "these points cannot all come from one hand"
    assert err.message(DE) == "diese Punkte können nicht alle aus einer Hand stammen"
    bm = table({"black_maria": True})
    # 43 split as 13+10 | 7+... needs a split of the three honours and 13 hearts
    assert error_of(bm, {"points": {"A": 11, "B": 11, "C": 11, "D": 10}}).code == \
        "hartenjagen.points_split"
    engine.apply(bm, {"points": {"A": 14, "B": 11, "C": 8, "D": 10}})
    assert last_hand(engine.report(bm)) == {"A": 14, "B": 11, "C": 8, "D": 10}
    two = table({"decks": 2}, players=["A", "B", "C", "D", "E"])
    assert error_of(two, {"points": {"A": 12, "B": 10, "C": 10, "D": 10, "E": 10}}).code == \
        "hartenjagen.points_split"
    engine.apply(two, {"points": {"A": 13, "B": 13, "C": 26}})


# --- errors and hostile input -------------------------------------------------------------------

def test_hearts_must_add_up_to_the_pack():
    err = error_of(table(), {"hearts": {"A": 3, "C": 9}, "queen": "B"})
    assert err.code == "hartenjagen.hearts_sum"
    assert err.field == "hearts"
    assert err.message() == "the hearts add up to 12, there are 13"
    assert err.message(DE) == "die Herzen ergeben 12, es gibt aber 13"
    assert err.message(NL) == "de harten tellen op tot 12, er zijn er 13"


def test_nobody_took_the_queen():
    err = error_of(table(), {"hearts": {"A": 13}})
    assert err.code == "hartenjagen.queen_missing"
    assert err.field == "queen"
    assert err.message() == "nobody took the queen of spades"
    assert err.message(DE) == "niemand hat die Pik-Dame bekommen"


def test_hearts_out_of_range_name_the_player():
    err = error_of(table(), {"hearts": {"A": 14, "B": -1}, "queen": "B"})
    assert err.code == "hartenjagen.hearts_player"
    assert err.field == "A"
    assert err.message() == "A: 14 hearts is impossible, there are 13"
    assert err.message(DE) == "A: 14 Herzen sind unmöglich, es gibt 13"


def test_errors_in_a_record_name_the_hand():
    rec = make_record(WORKED_EXAMPLE[:2] + [{"hearts": {"A": 3, "C": 9}, "queen": "B"}])
    with pytest.raises(RuleError) as info:
        replay(rec)
    assert str(info.value) == "hand 3: the hearts add up to 12, there are 13"
    assert info.value.message(DE) == "Hand 3: die Herzen ergeben 12, es gibt aber 13"


@pytest.mark.parametrize(("entry", "code", "field"), [
    ([], "entry_not_object", None),
    ("hearts", "entry_not_object", None),
    ({}, "missing_key", "hearts"),
    ({"hearts": [3, 10], "queen": "B"}, "not_a_mapping", "hearts"),
    ({"hearts": {"A": "3", "C": 10}, "queen": "B"}, "not_a_number", "A"),
    ({"hearts": {"A": 3.5, "C": 9.5}, "queen": "B"}, "not_a_number", "A"),
    ({"hearts": {"A": True, "C": 12}, "queen": "B"}, "not_a_number", "A"),
    ({"hearts": {"A": None, "C": 13}, "queen": "B"}, "not_a_number", "A"),
    ({"hearts": {"A": float("nan"), "C": 13}, "queen": "B"}, "not_a_number", "A"),
    ({"hearts": {"A": float("inf"), "C": 13}, "queen": "B"}, "not_a_number", "A"),
    ({"hearts": {"A": 10**100, "C": 13}, "queen": "B"}, "hartenjagen.hearts_player", "A"),
    ({"hearts": {"Z": 13}, "queen": "B"}, "unknown_player", "Z"),
    ({"hearts": {"A": 13}, "queen": "Z"}, "unknown_player", "queen"),
    ({"hearts": {"A": 13}, "queen": 1}, "unknown_player", "queen"),
    ({"hearts": {"A": 13}, "queen": ["Z"]}, "unknown_player", "queen"),
    ({"hearts": {"A": 13}, "queen": [["B"]]}, "unknown_player", "queen"),
    ({"hearts": {"A": 13}, "queen": {"B": "one"}}, "not_a_number", "B"),
    ({"hearts": {"A": 13}, "queen": "B", "extra": 1}, "unknown_key", "extra"),
    ({"hearts": {"A": 13}, "queen": "B", "points": {}}, "unknown_key", "hearts"),
    ({"points": {"A": 13, "B": 13}, "queen": "B"}, "unknown_key", "queen"),
    ({"points": None}, "missing_key", "points"),
    ({"points": "26"}, "not_a_mapping", "points"),
    ({"renege": None}, "missing_key", "renege"),
    ({"renege": ["A"]}, "unknown_player", "renege"),
])
def test_hostile_entries_give_rule_errors(entry, code, field):
    err = error_of(table(), entry)
    assert err.code == code
    assert err.field == field


def test_floats_that_are_whole_numbers_are_accepted():
    t = table()
    engine.apply(t, {"hearts": {"A": 3.0, "C": 10.0}, "queen": "B"})
    assert last_hand(engine.report(t)) == {"A": 3, "B": 13, "C": 10, "D": 0}


def test_left_out_players_took_nothing():
    t = table()
    engine.apply(t, {"hearts": {"C": 13}, "queen": "D"})
    assert last_hand(engine.report(t)) == {"A": 0, "B": 0, "C": 13, "D": 13}


def test_messages_exist_in_three_languages_with_the_game_prefix():
    for code, texts in hartenjagen.MESSAGES.items():
        assert code.startswith("hartenjagen.")
        assert isinstance(texts, errors.Words)
        assert code in errors.MESSAGES
    for key in hartenjagen.CARD_KEYS:
        for kind in ("missing", "count", "player", "unused"):
            assert f"hartenjagen.{key}_{kind}" in hartenjagen.MESSAGES


def test_module_metadata():
    assert hartenjagen.NAME == "hartenjagen"
    assert isinstance(hartenjagen.TITLE, errors.Words)
    assert hartenjagen.MIN_PLAYERS == 4 and hartenjagen.MAX_PLAYERS == 10
    assert hartenjagen.Table.ENTRY_WORD == "hand"
    # the numbers written in the texts are the card values
    summary = hartenjagen.SUMMARY
    for value in (hartenjagen.HEART_VALUE, *hartenjagen.VALUE_OF_KEY.values(),
                  hartenjagen.hand_total(), hartenjagen.MAX_PLAYERS):
        assert str(value) in summary
    helps = {o.name: o.help for o in hartenjagen.OPTIONS}
    assert str(hartenjagen.VALUE_OF_KEY["jack"]) in helps["jack_of_diamonds"]
    assert f"king of spades counts {hartenjagen.VALUE_OF_KEY['king']}, the ace of spades " \
           f"{hartenjagen.VALUE_OF_KEY['ace']}" in helps["black_maria"]
    assert f"({hartenjagen.MIN_PLAYERS} to {hartenjagen.MAX_PLAYERS} players)" in helps["decks"]


def test_no_hand_total_is_typed_in_the_scoring_code():
    """The card values are typed once, in `penalty` (the pack model); every total and all the
    scoring code derive from it."""
    source = Path(hartenjagen.__file__)
    (card_values,) = [node for node in ast.walk(ast.parse(source.read_text()))
                      if isinstance(node, ast.FunctionDef) and node.name == "penalty"]
    inside = range(card_values.lineno, (card_values.end_lineno or 0) + 1)
    with source.open() as handle:
        numbers = {tok.string for tok in tokenize.generate_tokens(handle.readline)
                   if tok.type == tokenize.NUMBER and tok.start[0] not in inside}
    assert not numbers & {"13", "26", "16", "43", "33", "52", "7", "-10"}
    text = source.read_text()
    for banned in ("flask", "sqlalchemy", "wtforms", "werkzeug"):
        assert f"import {banned}" not in text and f"from {banned}" not in text


def test_report_is_plain_json():
    report = replay(make_record(WORKED_EXAMPLE))
    assert json.loads(json.dumps(report)) == report


# --- property tests: hands from a physically dealt pack ----------------------------------------

PENALTY_KEY = {hartenjagen.QUEEN_OF_SPADES: "queen", hartenjagen.JACK_OF_DIAMONDS: "jack",
               hartenjagen.KING_OF_SPADES: "king", hartenjagen.ACE_OF_SPADES: "ace"}


def deal_and_play(rng: random.Random, players: int, decks: int,
                  shooter: int | None) -> list[Counter[cards.Card]]:
    """Shuffle the pack, deal it round the table, give each trick to a random player."""
    pack = list(cards.french_pack(decks))
    rng.shuffle(pack)
    hands = [pack[i::players] for i in range(players)]
    taken: list[Counter[cards.Card]] = [Counter() for _ in range(players)]
    for trick in range(len(hands[0])):
        winner = shooter if shooter is not None else rng.randrange(players)
        for hand in hands:
            if trick < len(hand):
                taken[winner][hand[trick]] += 1
    return taken


@st.composite
def dealt_hands(draw: st.DrawFn) -> dict[str, Any]:
    decks = draw(st.sampled_from([1, 2]))
    players = 4 if decks == 1 else draw(st.integers(4, 10))
    jack = draw(st.booleans())
    maria = draw(st.booleans())
    moon = draw(st.sampled_from(["others", "self", "choice"]))
    rng = random.Random(draw(st.integers(0, 2**32)))
    shooter = draw(st.one_of(st.none(), st.integers(0, players - 1)))
    as_mapping = draw(st.booleans())
    names = [f"P{i}" for i in range(players)]
    taken = deal_and_play(rng, players, decks, shooter)
    in_play = hartenjagen.penalty_cards(decks, jack, maria)
    card_entry: dict[str, Any] = {"hearts": {}}
    for name, pile in zip(names, taken, strict=True):
        card_entry["hearts"][name] = sum(n for card, n in pile.items() if card.suit == "hearts")
        for card, n in pile.items():
            if card in in_play and card.suit != "hearts":
                card_entry.setdefault(PENALTY_KEY[card], []).extend([name] * n)
    for key in PENALTY_KEY.values():
        if key in card_entry:
            holders = card_entry[key]
            if decks == 1:
                card_entry[key] = holders[0]
            elif as_mapping:
                card_entry[key] = dict(Counter(holders))
    points = [sum(hartenjagen.penalty(card, jack, maria) * n for card, n in pile.items())
              for pile in taken]
    counted = [sum(hartenjagen.penalty(card, False, maria) * n for card, n in pile.items())
               for pile in taken]  # as counted at the table: without the jack
    points_entry: dict[str, Any] = {"points": dict(zip(names, counted, strict=True))}
    if jack:
        points_entry["jack"] = card_entry["jack"]
    moon_total = hartenjagen.hand_total(decks, False, maria)
    positive = [sum(hartenjagen.penalty(card, False, maria) * n for card, n in pile.items())
                for pile in taken]
    moon_shooter = positive.index(moon_total) if moon_total in positive else None
    choice = moon
    if moon == "choice" and moon_shooter is not None:
        choice = draw(st.sampled_from(["self", "others"]))
        card_entry["moon"] = points_entry["moon"] = choice
    rules = {"decks": decks, "jack_of_diamonds": jack, "black_maria": maria, "moon": moon}
    return {"names": names, "rules": rules, "card_entry": card_entry,
            "points_entry": points_entry, "points": points, "moon_shooter": moon_shooter,
            "choice": choice, "moon_total": moon_total}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(dealt_hands())
def test_dealt_hands_are_accepted_by_cards_and_by_points_and_add_up(hand):
    names, rules = hand["names"], hand["rules"]
    by_cards = hartenjagen.Table(names, None, rules)
    engine.apply(by_cards, copy.deepcopy(hand["card_entry"]))
    by_points = hartenjagen.Table(names, None, rules)
    engine.apply(by_points, copy.deepcopy(hand["points_entry"]))
    scored = last_hand(engine.report(by_cards))
    assert scored == last_hand(engine.report(by_points))
    total = hartenjagen.hand_total(rules["decks"], rules["jack_of_diamonds"],
                                    rules["black_maria"])
    jack_total = total - hand["moon_total"]
    n = len(names)
    shooter = hand["moon_shooter"]
    if shooter is None:
        assert scored == dict(zip(names, hand["points"], strict=True))
        assert sum(scored.values()) == total
    elif hand["choice"] == "others":
        assert sum(scored.values()) == hand["moon_total"] * (n - 1) + jack_total
        assert scored[names[shooter]] <= 0
    else:
        assert sum(scored.values()) == -hand["moon_total"] + jack_total
        assert scored[names[shooter]] < 0
    assert engine.report(by_cards)["history"][0]["moon"] == (names[shooter] if shooter is not None
                                                       else None)


def brute_force_split(points: tuple[int, ...], decks: int, maria: bool) -> bool:
    """Try every way to give the non-heart penalty cards out; the rest must be hearts."""
    honours = [v for k, v in hartenjagen.VALUE_OF_KEY.items()
               if v > 0 and (k == "queen" or maria)] * decks
    hearts = hartenjagen.hearts_in_pack(decks)
    for owners in itertools.product(range(len(points)), repeat=len(honours)):
        rest = list(points)
        for owner, value in zip(owners, honours, strict=True):
            rest[owner] -= value
        if all(0 <= r <= hearts for r in rest) and sum(rest) == hearts:
            return True
    return False


@settings(max_examples=150, deadline=None)
@given(st.sampled_from([1, 2]), st.booleans(), st.data())
def test_point_split_check_agrees_with_brute_force(decks, maria, data):
    total = hartenjagen.hand_total(decks, False, maria)
    players = 4 if decks == 1 else data.draw(st.integers(4, 5))
    cuts = sorted(data.draw(st.lists(st.integers(0, total), min_size=players - 1,
                                     max_size=players - 1)))
    points = tuple(b - a for a, b in zip([0, *cuts], [*cuts, total], strict=True))
    assert hartenjagen.can_split(tuple(sorted(points)), decks, False, maria) == \
        brute_force_split(points, decks, maria)


NAMES_OR_JUNK = st.sampled_from(P4 + ["Z", "", "a"])
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-30, 30) | st.integers() | st.floats()
    | NAMES_OR_JUNK | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(NAMES_OR_JUNK | st.text(max_size=2),
                                                                inner, max_size=4),
    max_leaves=12,
)
ENTRY_KEYS = st.sampled_from(["hearts", "queen", "jack", "king", "ace", "moon", "points",
                              "renege", "x"])


@settings(max_examples=300, deadline=None)
@given(st.sampled_from([{}, {"moon": "choice", "jack_of_diamonds": True},
                        {"decks": 2, "black_maria": True}]),
       st.dictionaries(ENTRY_KEYS, JSON_VALUES, max_size=5) | JSON_VALUES)
def test_junk_entries_raise_rule_errors_and_leave_the_table_alone(rules, entry):
    t = table(rules)
    engine.apply(t, {"renege": "A"})
    before = engine.report(t)
    try:
        engine.apply(t, entry)
    except RuleError as err:
        assert err.code in errors.MESSAGES
        assert err.message(DE) and err.message(NL)
        assert engine.report(t) == before
    else:
        assert engine.report(t)["hands_played"] == 2


# --- the benchmark records ------------------------------------------------------------------

@pytest.mark.parametrize("kwargs", [
    {},
    {"jack_of_diamonds": True, "black_maria": True, "moon": "choice"},
    {"decks": 2, "players": 7, "jack_of_diamonds": True, "moon": "self"},
])
def test_random_records_replay_to_the_end_without_errors(kwargs):
    rec = records_hartenjagen.random_record(1500, seed=7, **kwargs)
    report = replay(rec)
    assert report["hands_played"] == 1500
    assert not report["finished"]
    kinds = Counter(h["kind"] for h in report["history"])
    assert kinds["card"] and kinds["points"] and kinds["renege"]
    assert any(h["moon"] for h in report["history"])
    assert scores(report) == report["history"][-1]["totals"]


def test_random_records_are_reproducible():
    assert records_hartenjagen.random_record(50, seed=3) == \
        records_hartenjagen.random_record(50, seed=3)


@pytest.mark.parametrize(("players", "cycle"), [
    (4, ["left", "right", "across", "hold"]),
    (5, ["left", "right", "hold"]),
    (6, ["left", "right", "across", "hold"]),
    (7, ["left", "right", "hold"]),
])
def test_passing_with_an_odd_number_of_players_has_no_across(players, cycle):
    names = [f"P{i}" for i in range(players)]
    t = hartenjagen.Table(names, None, {"decks": 1 if players == 4 else 2})
    seen = []
    for _ in range(len(cycle) + 1):
        seen.append(engine.report(t)["next_pass"])
        engine.apply(t, {"renege": names[0]})
    assert seen == cycle + cycle[:1]
    assert [h["pass"] for h in engine.report(t)["history"]] == seen


def test_across_is_half_the_table_away():
    assert engine.report(table())["across_seats"] == 2
    six = hartenjagen.Table([f"P{i}" for i in range(6)], None, {"decks": 2})
    assert engine.report(six)["across_seats"] == 3


def test_every_number_option_of_every_game_has_bounds_and_a_huge_target_is_refused():
    from scorekeeper.engine import games

    for game in games.all_games().values():
        for option in game.OPTIONS:
            if option.kind == "int":
                assert option.minimum is not None and option.maximum is not None, option.name
                assert option.maximum < 2**31, option.name
    with pytest.raises(RuleError) as info:
        table({"target": int("9" * 309)})
    assert info.value.code == "bad_option"
    assert "from 1 to 1000000" in info.value.message()


# --- ended early (closing time) ------------------------------------------------------------------

@given(st.lists(st.integers(min_value=0, max_value=500), min_size=4, max_size=10),
       st.integers(min_value=0, max_value=100))
def test_a_game_ended_early_moves_money_to_the_leaders_and_conserves_it(scores, cents) -> None:
    summary = {"finished": False, "next_dealer": "P0", "dealer": "P0", "players": [
        {"name": f"P{i}", "score": s, "balance_cents": 0} for i, s in enumerate(scores)]}
    ended = hartenjagen.Table.ended(summary, {"cents_per_point": cents})
    paid = [p["balance_cents"] for p in ended["players"]]
    assert sum(paid) == 0
    best = min(scores)
    for score, money in zip(scores, paid, strict=True):
        if score > best:
            assert money == (best - score) * cents  # pays the difference
        else:
            assert money >= 0  # a leader gets a share
    leaders = [m for s, m in zip(scores, paid, strict=True) if s == best]
    assert max(leaders) - min(leaders) <= 1  # shared, a cent at most apart
    assert ended["next_dealer"] is None and ended["dealer"] is None


def test_a_finished_game_ended_keeps_its_money() -> None:
    table = hartenjagen.Table(["A", "B", "C", "D"], None, {"target": 20, "cents_per_point": 10})
    engine.apply(table, {"hearts": {"A": 10, "B": 2, "C": 1}, "queen": "A"})
    summary = table.summary()
    assert summary["finished"] and summary["next_dealer"] is None
    ended = hartenjagen.Table.ended(summary, table.rules)
    assert ended["players"] == summary["players"]
