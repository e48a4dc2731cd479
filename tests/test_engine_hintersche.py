"""Hintersche (4-Strich): marks, phases, Butzen, playoffs, lines and money (rules/hintersche.md)."""

from __future__ import annotations

import copy
import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import DE, NL

from scorekeeper import engine
from scorekeeper.engine import base, errors, record
from scorekeeper.engine import hintersche as hs
from scorekeeper.engine.errors import RuleError

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from records_hintersche import physical_deal, play_entry, random_record  # noqa: E402

P = ["A", "B", "C", "D"]
TOTAL = hs.TOTAL

WORKED_EXAMPLE = [
    {"points": {"A": 30, "B": 45, "C": 35, "D": 30}},
    {"points": {"A": 20, "B": 21, "C": 99, "D": 0}},
    {"points": {"A": 105, "B": 10, "C": 15, "D": 10}},
    {"points": {"B": 50, "C": 40, "D": 50}},
    {"points": {"B": 30, "C": 60, "D": 50}},
    {"points": {"B": 55, "C": 55, "D": 20}, "playoffs": [{"B": 40, "C": 30}]},
    {"points": {"B": 50, "C": 70}},
    {"points": {"B": 70, "C": 60}},
    {"points": {"B": 0, "C": 72}, "all_tricks": "C"},
]


# --- helpers -------------------------------------------------------------------------------------


def make_record(hands: list[Any], rules: dict[str, Any] | None = None,
                first_dealer: str | None = None) -> dict[str, Any]:
    rec: dict[str, Any] = {"format": record.FORMAT, "game": hs.NAME, "rules": rules or {},
                           "players": list(P), "hands": hands}
    if first_dealer is not None:
        rec["first_dealer"] = first_dealer
    return rec


def replay(rec: dict[str, Any]) -> hs.Table:
    """record.replay, but straight through this module."""
    players = rec["players"]
    table = hs.Table(players, rec.get("first_dealer", players[0]), rec.get("rules"))
    record.apply_all(table, rec["hands"])
    return table


def play(hands: list[Any], **rules: Any) -> hs.Table:
    return replay(make_record(hands, rules))


def fails(hands: list[Any], **rules: Any) -> RuleError:
    with pytest.raises(RuleError) as info:
        play(hands, **rules)
    return info.value


def marks(table: hs.Table) -> dict[str, int]:
    """The marks of the players still in the game."""
    return {p["name"]: p["marks"] for p in engine.report(table)["players"] if p["in"]}


def lines(table: hs.Table) -> dict[str, int]:
    return {p["name"]: p["lines"] for p in engine.report(table)["players"]}


def most(name: str, high: int = 50, rest: tuple[str, ...] = tuple(P)) -> dict[str, Any]:
    """A four-player deal where `name` has most points and the others share the rest."""
    others = [p for p in rest if p != name]
    share = (TOTAL - high) // len(others)
    points = dict.fromkeys(others, share)
    points[others[0]] += TOTAL - high - share * len(others)
    points[name] = high
    return {"points": points}


def march(name: str) -> dict[str, Any]:
    others = [p for p in P if p != name]
    points = dict.fromkeys(others, 10)
    points[name] = TOTAL - 10 * len(others)
    return {"points": points}


ALL_35 = {"points": dict.fromkeys(P, TOTAL // len(P))}
# Phase 1 positions that start Butzen in a known state (A deals the first deal).
BUTZEN_3_NO_EXCESS = [most("B"), most("C"), most("D"), most("B")]  # B2 C1 D1, A out
BUTZEN_4_NO_EXCESS = [ALL_35]  # everybody 1
BUTZEN_3_EXCESS_2 = [march("A"), march("A")]  # B2 C2 D2, A out
BUTZEN_4_EXCESS_3 = [most("B"), most("C"), most("D"), ALL_35]  # A1 B2 C2 D2
FINAL_B2_C2 = [most("B"), most("C"), most("B"), most("C")]  # A and D out


def event_types(table: hs.Table, hand: int = -1) -> list[tuple[str, str | None, int]]:
    return [(e["type"], e["player"], e["count"]) for e in engine.history(table)[hand]["events"]]


# --- the worked example --------------------------------------------------------------------------


def test_worked_example_marks_after_each_deal() -> None:
    expected = [
        {"A": 0, "B": 1, "C": 0, "D": 0},
        {"A": 0, "B": 1, "C": 1, "D": 0},
        {"A": 0, "B": 2, "C": 2, "D": 1},
        {"A": 0, "B": 2, "C": 1, "D": 1},
        {"A": 0, "B": 1, "C": 2, "D": 1},
        {"A": 0, "B": 2, "C": 2, "D": 0},
        {"A": 0, "B": 1, "C": 2, "D": 0},
        {"A": 0, "B": 1, "C": 1, "D": 0},
        {"A": 0, "B": 1, "C": 0, "D": 0},  # C erases his last mark; B is left with 1
    ]
    history = engine.history(play(WORKED_EXAMPLE))
    assert [row["marks"] for row in history] == expected
    assert [row["phase"] for row in history] == ["vier-strich"] * 3 + ["butzen"] * 6
    assert [row["final_stage"] for row in history] == [False] * 6 + [True] * 3


def test_worked_example_events() -> None:
    table = play(WORKED_EXAMPLE)
    assert event_types(table, 1) == [("mark", "C", 1)]  # 99 is no march
    assert event_types(table, 2) == [("march", "A", 0), ("mark", "C", 1), ("mark", "D", 1),
                                     ("mark", "B", 1), ("butzen", None, 0), ("out", "A", 0)]
    assert event_types(table, 3) == [("erase", "C", 1)]  # one excess mark: only erasing
    assert event_types(table, 4) == [("erase", "B", 1), ("mark", "C", 1)]
    assert event_types(table, 5) == [("erase", "D", 1), ("mark", "B", 1), ("out", "D", 0)]
    assert event_types(table, 6) == [("erase", "B", 1)]
    assert event_types(table, 7) == [("erase", "C", 1)]
    assert event_types(table, 8) == [("all_tricks", "C", 0), ("erase", "C", 1),
                                     ("out", "C", 0), ("line", "B", 1)]


def test_worked_example_exact_report() -> None:
    report = engine.report(play(WORKED_EXAMPLE))
    spec_keys = {k: report[k] for k in ("game", "hands_played", "next_dealer", "finished",
                                          "phase", "game_number", "players")}
    assert spec_keys == {
        "game": "hintersche",
        "hands_played": 9,
        # Dealers: A B C D, then B C (B deals the playoff), C B C; the deal passes on to D.
        "next_dealer": "D",
        "finished": False,
        "phase": "vier-strich",
        "game_number": 2,
        "players": [
            # the season's records: A marched in deal 3, C took all tricks in deal 9
            {"name": "A", "marks": 0, "lines": 0, "in": True, "balance_cents": 500,
             "marches": 1, "march_hand": 3, "vier_strich": 0, "vier_strich_hand": 0},
            {"name": "B", "marks": 0, "lines": 1, "in": True, "balance_cents": -1500,
             "marches": 0, "march_hand": 0, "vier_strich": 0, "vier_strich_hand": 0},
            {"name": "C", "marks": 0, "lines": 0, "in": True, "balance_cents": 500,
             "marches": 1, "march_hand": 9, "vier_strich": 0, "vier_strich_hand": 0},
            {"name": "D", "marks": 0, "lines": 0, "in": True, "balance_cents": 500,
             "marches": 0, "march_hand": 0, "vier_strich": 0, "vier_strich_hand": 0},
        ],
    }
    assert report["games"] == [{"game": 1, "loser": "B", "lines": 1, "hands": 9}]
    assert report["in_deal"] == ["D", "A", "B", "C"]
    assert report["excess_marks"] == 0 and report["final_stage"] is False


def test_worked_example_dealers_and_playoff() -> None:
    history = engine.history(play(WORKED_EXAMPLE))
    assert [row["dealer"] for row in history] == ["A", "B", "C", "D", "B", "C", "C", "B", "C"]
    assert history[5]["playoffs"] == [{"dealer": "B", "points": {"B": 40, "C": 30}}]
    assert history[8]["all_tricks"] == "C"
    assert history[3]["points"] == {"D": 50, "B": 50, "C": 40}  # in dealing order


def test_worked_example_through_the_json_record() -> None:
    text = json.dumps(make_record(WORKED_EXAMPLE))
    report = engine.report(record.replay(record.load(text)))
    assert report == engine.report(play(WORKED_EXAMPLE))


def _lose(loser: str, other: str) -> list[dict[str, Any]]:
    """A game that `loser` loses with one line: 3 marks to the loser, 1 to `other`, then
    `other` wins the final stage."""
    return [most(loser), most(loser), most(loser), most(other),
            {"points": {loser: 50, other: 30}}]


def test_worked_example_rubber_money() -> None:
    hands = _lose("B", "A") + _lose("B", "C") + _lose("A", "B") + _lose("C", "D")
    table = play(hands)
    report = engine.report(table)
    assert report["finished"] is True
    assert [g["loser"] for g in report["games"]] == ["B", "B", "A", "C"]
    assert {p["name"]: p["balance_cents"] for p in report["players"]} == {
        "A": 0, "B": -2000, "C": 0, "D": 2000}


def test_money_example_three_lines_and_one() -> None:
    hands = _lose("A", "B") + _lose("A", "C") + _lose("A", "D") + _lose("B", "C")
    report = engine.report(play(hands))
    assert {p["name"]: p["balance_cents"] for p in report["players"]} == {
        "A": -4000, "B": 0, "C": 2000, "D": 2000}


# --- phase 1 -------------------------------------------------------------------------------------


def test_most_points_gets_the_mark() -> None:
    table = play([{"points": {"A": 30, "B": 45, "C": 35, "D": 30}}])
    assert marks(table) == {"A": 0, "B": 1, "C": 0, "D": 0}


def test_march_gives_each_opponent_a_mark() -> None:
    table = play([{"points": {"A": 101, "B": 10, "C": 29, "D": 0}}])
    assert marks(table) == {"A": 0, "B": 1, "C": 1, "D": 1}


def test_exactly_100_is_no_march_by_default() -> None:
    table = play([{"points": {"A": 100, "B": 10, "C": 30, "D": 0}}])
    assert marks(table) == {"A": 1, "B": 0, "C": 0, "D": 0}


def test_march_at_100_makes_100_a_march() -> None:
    table = play([{"points": {"A": 100, "B": 10, "C": 30, "D": 0}}], march_at=100)
    assert marks(table) == {"A": 0, "B": 1, "C": 1, "D": 1}


def test_all_35_gives_everybody_a_mark_and_ends_phase_1() -> None:
    table = play([ALL_35])
    assert marks(table) == dict.fromkeys(P, 1)
    report = engine.report(table)
    assert report["phase"] == "butzen"
    assert report["in_deal"] == ["B", "C", "D", "A"]
    assert event_types(table)[0] == ("all_equal", None, 0)


def test_phase_1_ends_at_four_marks_and_markless_players_drop_out() -> None:
    table = play([most("B"), most("C"), most("B")])
    assert table.phase == "vier-strich"
    engine.apply(table, most("D"))
    report = engine.report(table)
    assert report["phase"] == "butzen"
    assert {p["name"]: p["in"] for p in report["players"]} == {
        "A": False, "B": True, "C": True, "D": True}
    assert report["in_deal"] == ["B", "C", "D"]  # A dealt deal 1 .. D deal 4; A is out
    assert report["excess_marks"] == 0


def test_march_in_deal_3_makes_excess_marks() -> None:
    table = play(WORKED_EXAMPLE[:3])
    assert engine.report(table)["excess_marks"] == 1


def test_tie_for_most_needs_a_playoff() -> None:
    error = fails([{"points": {"A": 30, "B": 40, "C": 30, "D": 40}}])
    assert error.code == "hintersche.playoff_needed"
    assert error.field == "playoffs"
    assert error.params["tied"] == ["B", "D"]
    assert error.params["dealer"] == "B"
    assert error.params["kind"] == "most"
    assert error.params["playoff"] == 1
    assert error.message() == ("hand 1: B and D tie for the most points: enter their playoff "
                               "deal")
    assert error.message(DE) == ("Hand 1: B und D liegen mit den meisten Augen gleichauf: "
                                   "bitte ihr Stechen eintragen")


def test_three_way_tie_lists_names_in_dealing_order() -> None:
    error = fails([{"points": {"A": 40, "B": 20, "C": 40, "D": 40}}], )
    assert error.params["tied"] == ["C", "D", "A"]  # A dealt: the dealing order starts at B
    assert "C, D and A tie" in error.message()
    assert "C, D und A liegen" in error.message(DE)


def test_playoff_decides_the_mark() -> None:
    table = play([{"points": {"A": 30, "B": 40, "C": 30, "D": 40},
                   "playoffs": [{"B": 40, "D": 60}]}])
    assert marks(table) == {"A": 0, "B": 0, "C": 0, "D": 1}


def test_tie_in_playoff_needs_another_among_those_still_tied() -> None:
    hand = {"points": {"A": 40, "B": 20, "C": 40, "D": 40},
            "playoffs": [{"A": 50, "C": 50, "D": 20}]}
    error = fails([hand])
    # C dealt playoff 1 (first of C, D, A after the dealer A); counting on after C: A, C.
    assert error.params["tied"] == ["A", "C"]
    assert error.params["playoff"] == 2
    hand["playoffs"].append({"A": 30, "C": 40})
    table = play([hand])
    assert marks(table) == {"A": 0, "B": 0, "C": 1, "D": 0}
    assert [p["dealer"] for p in engine.history(table)[0]["playoffs"]] == ["C", "A"]
    assert engine.report(table)["next_dealer"] == "B"


def test_playoff_is_dealt_by_the_first_tied_player_and_the_deal_passes_on() -> None:
    # A deals; B and D tie: B is first after A, deals the playoff, and C deals next.
    table = play([{"points": {"A": 30, "B": 40, "C": 30, "D": 40},
                   "playoffs": [{"B": 40, "D": 60}]}])
    assert engine.history(table)[0]["playoffs"][0]["dealer"] == "B"
    assert engine.report(table)["next_dealer"] == "C"
    # A deals; A and C tie: C comes before A in the dealing order, so D deals next.
    table = play([{"points": {"A": 40, "B": 30, "C": 40, "D": 30},
                   "playoffs": [{"A": 40, "C": 20}]}])
    assert engine.history(table)[0]["playoffs"][0]["dealer"] == "C"
    assert engine.report(table)["next_dealer"] == "D"
    assert marks(table)["A"] == 1


def test_playoff_where_none_is_needed_is_an_error() -> None:
    error = fails([{"points": {"A": 30, "B": 45, "C": 35, "D": 30},
                    "playoffs": [{"B": 40, "C": 30}]}])
    assert error.code == "hintersche.playoff_not_needed"
    assert error.field == "playoffs"
    assert error.params["needed"] == 0
    error = fails([{"points": {"A": 30, "B": 40, "C": 30, "D": 40},
                    "playoffs": [{"B": 40, "D": 60}, {"B": 40, "D": 60}]}])
    assert error.code == "hintersche.playoff_not_needed"
    assert error.params["needed"] == 1
    assert error.message(DE) == "Hand 1: zu viele Stechen eingetragen: hier braucht es 1"


def test_four_losses_cost_two_lines_and_end_the_game() -> None:
    table = play([most("C")] * 4)
    report = engine.report(table)
    assert lines(table) == {"A": 0, "B": 0, "C": 2, "D": 0}
    assert report["games"] == [{"game": 1, "loser": "C", "lines": 2, "hands": 4}]
    assert report["game_number"] == 2 and report["phase"] == "vier-strich"
    assert event_types(table)[-1] == ("line", "C", 2)
    c = report["players"][2]  # lost in Vier-Strich, in deal 4 (for the season's records)
    assert (c["vier_strich"], c["vier_strich_hand"]) == (1, 4)


@pytest.mark.parametrize("double", [True, False])
def test_losing_all_four_deals_does_not_announce_butzen(double: bool) -> None:
    table = play([most("C")] * 4, four_losses_double=double)
    types = [e[0] for e in event_types(table)]
    assert "butzen" not in types and types[-1] == "line"


def test_butzen_announced_when_phase_1_ends_with_players_left() -> None:
    assert ("butzen", None, 0) in event_types(play(WORKED_EXAMPLE[:3]))


def test_a_tie_of_the_highest_scorers_is_a_tie_for_most_even_when_fewest_decides() -> None:
    # Two excess marks, three players: the two lowest erase. C and D tie with the most points
    # for the second place that erases: the fewest playoff points decide.
    hand = {"points": {"B": 20, "C": 60, "D": 60}}
    error = fails(BUTZEN_3_EXCESS_2 + [hand])
    assert (error.params["tied"], error.params["tie"], error.params["kind"]) == (
        ["D", "C"], "most", "fewest")
    assert error.message() == ("hand 3: D and C tie for the most points: enter their playoff "
                               "deal (the fewest playoff points decide)")
    assert "tie for the fewest" not in error.message()


def test_a_playoff_that_ties_again_says_so() -> None:
    hand = {"points": {"A": 30, "B": 40, "C": 30, "D": 40}, "playoffs": [{"B": 30, "D": 30}]}
    error = fails([hand])
    assert error.params["tie"] == "again" and error.params["playoff"] == 2
    assert "D and B tie again in the playoff" in error.message()


def test_a_playoff_must_name_every_tied_player() -> None:
    error = fails([{"points": {"A": 30, "B": 40, "C": 30, "D": 40}, "playoffs": [{"B": 40}]}])
    assert (error.code, error.params["player"]) == ("hintersche.playoff_missing", "D")


def test_taking_all_tricks_is_its_own_event_not_a_march_by_points() -> None:
    table = play(BUTZEN_3_NO_EXCESS + [{"points": {"B": 0, "C": 0, "D": 60}, "all_tricks": "D"}])
    assert event_types(table)[0] == ("all_tricks", "D", 0)
    table = play(BUTZEN_3_NO_EXCESS + [{"points": {"B": 0, "C": 30, "D": 110}}])
    assert event_types(table)[0] == ("march", "D", 0)


def test_four_losses_without_the_option_cost_one_line() -> None:
    table = play([most("C")] * 4, four_losses_double=False)
    assert lines(table) == {"A": 0, "B": 0, "C": 1, "D": 0}
    assert engine.report(table)["game_number"] == 2


# --- Butzen with three or four players ----------------------------------------------------------


def test_butzen_lowest_erases_and_highest_adds() -> None:
    table = play(BUTZEN_3_NO_EXCESS + [{"points": {"B": 30, "C": 60, "D": 50}}])
    assert marks(table) == {"B": 1, "C": 2, "D": 1}


def test_butzen_with_excess_only_the_lowest_erase() -> None:
    # 6 marks: two excess, so the two lowest erase and nobody adds.
    table = play(BUTZEN_3_EXCESS_2 + [{"points": {"B": 20, "C": 60, "D": 40}}])
    assert marks(table) == {"B": 1, "C": 2, "D": 1}


def test_butzen_with_three_excess_all_but_the_highest_erase() -> None:
    table = play(BUTZEN_4_EXCESS_3 + [{"points": {"A": 20, "B": 60, "C": 30, "D": 30}}])
    assert marks(table) == {"B": 2, "C": 1, "D": 1}  # A erased his only mark
    assert engine.report(table)["excess_marks"] == 0


def test_butzen_excess_tie_at_the_edge_is_played_off() -> None:
    # One excess mark; C and D tie for lowest: the lower playoff score erases.
    hand = {"points": {"B": 60, "C": 40, "D": 40}}
    error = fails(WORKED_EXAMPLE[:3] + [hand])
    assert error.params["tied"] == ["C", "D"] and error.params["kind"] == "fewest"
    assert "tie for the fewest points" in error.message()
    assert "mit den wenigsten Augen" in error.message(DE)
    hand["playoffs"] = [{"C": 30, "D": 20}]
    table = play(WORKED_EXAMPLE[:3] + [hand])
    assert marks(table) == {"B": 2, "C": 2}  # D erased his only mark and is out


def test_butzen_excess_tie_below_the_edge_needs_no_playoff() -> None:
    # Two excess marks and three players: the two lowest erase, a tie between them is harmless.
    table = play(BUTZEN_3_EXCESS_2 + [{"points": {"B": 30, "C": 30, "D": 60}}])
    assert marks(table) == {"B": 1, "C": 1, "D": 2}


def test_butzen_march_erases_up_to_two_and_the_others_add() -> None:
    table = play(BUTZEN_3_NO_EXCESS + [{"points": {"B": 110, "C": 10, "D": 20}}])
    assert marks(table) == {"C": 2, "D": 2}  # B erased both marks and is out
    assert event_types(table)[:2] == [("march", "B", 0), ("erase", "B", 2)]


def test_butzen_march_can_make_excess_marks_again() -> None:
    table = play(BUTZEN_4_NO_EXCESS + [{"points": {"A": 10, "B": 110, "C": 10, "D": 10}}])
    assert marks(table) == {"A": 2, "C": 2, "D": 2}
    assert engine.report(table)["excess_marks"] == 2


def test_butzen_march_with_excess_erases_and_nobody_adds() -> None:
    # Two excess marks and the marcher has 2: he erases 2.
    table = play(BUTZEN_3_EXCESS_2 + [{"points": {"B": 110, "C": 10, "D": 20}}])
    assert marks(table) == {"C": 2, "D": 2}
    # One excess mark: the marcher erases only 1.
    table = play(WORKED_EXAMPLE[:3] + [{"points": {"B": 110, "C": 10, "D": 20}}])
    assert marks(table) == {"B": 1, "C": 2, "D": 1}


def test_all_tricks_is_a_march_in_butzen() -> None:
    table = play(BUTZEN_3_NO_EXCESS + [{"points": {"B": 0, "C": 0, "D": 60},
                                        "all_tricks": "D"}])
    assert marks(table) == {"B": 3, "C": 2}
    assert event_types(table)[:2] == [("all_tricks", "D", 0), ("erase", "D", 1)]


def test_all_players_tied_in_butzen_changes_nothing() -> None:
    table = play(BUTZEN_3_NO_EXCESS + [{"points": {"B": 40, "C": 40, "D": 40}}])
    assert marks(table) == {"B": 2, "C": 1, "D": 1}
    assert event_types(table) == [("tie", None, 0)]


def test_butzen_ties_for_lowest_and_highest_are_played_off_lowest_first() -> None:
    # Deal 2 (B deals) after the all-35 deal: A and B tie low, C and D tie high.
    hand: dict[str, Any] = {"points": {"A": 20, "B": 20, "C": 50, "D": 50}}
    error = fails(BUTZEN_4_NO_EXCESS + [hand])
    assert (error.params["tied"], error.params["kind"], error.params["playoff"]) == (
        ["A", "B"], "fewest", 1)
    hand["playoffs"] = [{"A": 30, "B": 40}]
    error = fails(BUTZEN_4_NO_EXCESS + [hand])
    # A dealt the first playoff, so the second starts counting after A: C before D.
    assert (error.params["tied"], error.params["kind"], error.params["playoff"]) == (
        ["C", "D"], "most", 2)
    hand["playoffs"].append({"C": 10, "D": 40})
    table = play(BUTZEN_4_NO_EXCESS + [hand])
    assert marks(table) == {"B": 1, "C": 1, "D": 2}  # A erased and is out
    assert [p["dealer"] for p in engine.history(table)[-1]["playoffs"]] == ["A", "C"]
    assert engine.report(table)["next_dealer"] == "D"


def test_butzen_tie_for_highest_in_worked_example_needs_playoff() -> None:
    hand = dict(WORKED_EXAMPLE[5])
    del hand["playoffs"]
    error = fails(WORKED_EXAMPLE[:5] + [hand])
    assert error.code == "hintersche.playoff_needed"
    assert error.params["tied"] == ["B", "C"]
    assert error.message() == ("hand 6: B and C tie for the most points: enter their playoff "
                               "deal")


# --- the final stage and the end of a game ------------------------------------------------------


def test_final_stage_fewer_points_erases_nobody_adds() -> None:
    table = play(FINAL_B2_C2 + [{"points": {"B": 50, "C": 70}}])
    assert marks(table) == {"B": 1, "C": 2}
    assert engine.report(table)["final_stage"] is True


def test_final_stage_march_erases_two() -> None:
    table = play(FINAL_B2_C2 + [{"points": {"B": 110, "C": 10}}])
    assert lines(table) == {"A": 0, "B": 0, "C": 1, "D": 0}


def test_final_stage_tie_is_played_off_and_fewer_wins() -> None:
    hand: dict[str, Any] = {"points": {"B": 50, "C": 50}}
    error = fails(FINAL_B2_C2 + [hand])
    # B deals; the playoff goes to the next tied player in dealing order: C.
    assert error.params["tied"] == ["C", "B"] and error.params["kind"] == "fewest"
    hand["playoffs"] = [{"B": 60, "C": 20}]
    assert marks(play(FINAL_B2_C2 + [hand])) == {"B": 2, "C": 1}


def test_last_one_in_gets_one_line_the_slate_is_wiped_and_rotation_continues() -> None:
    table = play(FINAL_B2_C2 + [{"points": {"B": 20, "C": 70}}] * 2)
    report = engine.report(table)
    assert lines(table) == {"A": 0, "B": 0, "C": 1, "D": 0}
    assert report["game_number"] == 2 and report["phase"] == "vier-strich"
    assert [p["marks"] for p in report["players"]] == [0, 0, 0, 0]
    assert all(p["in"] for p in report["players"])
    # Dealers: A B C D, then B and C for the final stage; next is D, with A back in.
    assert [row["dealer"] for row in engine.history(table)] == ["A", "B", "C", "D", "B", "C"]
    assert report["in_deal"] == ["D", "A", "B", "C"]


def test_dropped_out_players_neither_deal_nor_play() -> None:
    table = play(BUTZEN_3_NO_EXCESS)
    assert table.in_deal() == ["B", "C", "D"]
    engine.apply(table, {"points": {"B": 30, "C": 60, "D": 50}})
    assert table.in_deal() == ["C", "D", "B"]
    error = _apply_fails(table, {"points": {"A": 0, "B": 30, "C": 60, "D": 50}})
    assert error.code == "hintersche.not_in_deal" and error.field == "A"
    assert error.message() == "A is out of this game and does not play this deal"
    assert error.message(DE) == "A ist in diesem Spiel schon draußen und spielt nicht mit"


def test_first_dealer_can_be_chosen() -> None:
    table = hs.Table(list(P), "C", {})
    assert table.in_deal() == ["C", "D", "A", "B"]
    engine.apply(table, most("A"))
    assert engine.report(table)["next_dealer"] == "D"


# --- the rubber and money -----------------------------------------------------------------------


def test_rubber_games_ends_the_rubber() -> None:
    table = play(_lose("B", "A") + _lose("C", "A"), rubber_games=2)
    report = engine.report(table)
    assert report["finished"] is True and table.finished
    assert report["in_deal"] == [] and report["games_played"] == 2
    assert report["game_number"] == 2
    assert not any(p["in"] for p in report["players"])
    error = _apply_fails(table, most("A"))
    assert error.code == "game_over"


def test_rubber_not_finished_before_its_last_game() -> None:
    table = play(_lose("B", "A") * 3)
    assert engine.report(table)["finished"] is False
    assert engine.report(table)["games_played"] == 3


def test_tariff_sets_the_money_per_line() -> None:
    table = play(_lose("B", "A"), tariff_cents=200)
    assert [p["balance_cents"] for p in engine.report(table)["players"]] == [200, -600, 200, 200]
    table = play(_lose("B", "A"), tariff_cents=0)
    assert [p["balance_cents"] for p in engine.report(table)["players"]] == [0, 0, 0, 0]


def test_options_are_checked() -> None:
    with pytest.raises(RuleError) as info:
        hs.Table(list(P), None, {"march_at": 99})
    assert info.value.code == "bad_option"
    with pytest.raises(RuleError) as info:
        hs.Table(list(P), None, {"rubber_games": 0})
    assert info.value.code == "bad_option"
    with pytest.raises(RuleError) as info:
        hs.Table(list(P), None, {"four_losses_double": "yes"})
    assert info.value.code == "bad_option"
    with pytest.raises(RuleError) as info:
        hs.Table(list(P), None, {"target": 3})
    assert info.value.code == "unknown_option"


def test_exactly_four_players() -> None:
    with pytest.raises(RuleError) as info:
        hs.Table(["A", "B", "C"], None, {})
    assert info.value.code == "player_count_exact"
    with pytest.raises(RuleError) as info:
        hs.Table(list(P), "E", {})
    assert info.value.code == "unknown_player"


# --- card values ----------------------------------------------------------------------------------


def test_every_score_but_1_and_139_is_makeable() -> None:
    assert set(range(TOTAL + 1)) - hs.MAKEABLE == {1, TOTAL - 1}


@pytest.mark.parametrize(("scores", "possible"), [
    ((30, 30, 35, 45), True),
    ((0, 0, 0, 140), True),
    ((2, 2, 2, 134), False),  # only two 2s in the pack
    ((5, 5, 5, 125), False),  # 5 is 3 + 2, and there are only two 2s
    ((0, 0, 1, 139), False),
    ((60, 80), False),  # two players hold 18 cards: at most 136 points
    ((60, 70), True),  # the example's final stage, corrected
    ((2, 2, 2), False),
    ((5, 5, 5), False),
    ((0, 0, 139), False),  # the cards out of play would hold 1 point
    ((0, 0, 0), False),  # 27 cards in play, only 16 of them blanks
    ((10, 11, 20), False),  # three players hold at least 42 points
    ((10, 12, 20), True),
    ((10, 26, 64), True),
])
def test_deal_possible(scores: tuple[int, ...], possible: bool) -> None:
    assert hs.deal_possible(tuple(sorted(scores))) is possible


def test_score_of_1_is_rejected() -> None:
    error = fails([{"points": {"A": 1, "B": 45, "C": 64, "D": 30}}])
    assert (error.code, error.field) == ("hintersche.not_makeable", "A")
    assert error.message() == "hand 1: A: no cards add up to 1 point"
    assert error.message(DE) == "Hand 1: A: 1 Auge kann man mit diesen Karten nicht haben"


def test_139_is_rejected() -> None:
    error = fails([{"points": {"A": 139, "B": 1}}])
    assert error.code == "hintersche.not_makeable"


def test_four_scores_must_add_up_to_the_pack() -> None:
    error = fails([{"points": {"A": 30, "B": 45, "C": 35, "D": 29}}])
    assert (error.code, error.field) == ("hintersche.wrong_total", "points")
    assert error.message() == "hand 1: the points add up to 139, there are 140"
    assert error.message(DE) == "Hand 1: die Augen ergeben 139, es sind aber 140"


def test_four_scores_must_partition_the_pack() -> None:
    error = fails([{"points": {"A": 2, "B": 2, "C": 2, "D": 134}}])
    assert (error.code, error.field) == ("hintersche.impossible", "points")
    assert error.message() == "hand 1: these points cannot all come from one pack of 36 cards"
    assert error.message(DE) == ("Hand 1: so können die Augen nicht verteilt sein: "
                                   "mit den 36 Karten geht das nicht auf")


def test_butzen_scores_may_add_up_to_less_but_not_more() -> None:
    table = play(BUTZEN_3_NO_EXCESS + [{"points": {"B": 10, "C": 20, "D": 30}}])
    assert marks(table) == {"B": 1, "C": 1, "D": 2}
    error = fails(BUTZEN_3_NO_EXCESS + [{"points": {"B": 50, "C": 50, "D": 50}}])
    assert (error.code, error.field) == ("hintersche.in_play_total", "points")
    assert error.message() == ("hand 5: the points add up to 150, but with 3 players only 27 "
                               "cards are in play (9 each): together they hold 42 to 140 points")


@pytest.mark.parametrize(("points", "possible"), [
    ({"B": 80, "C": 60}, False),  # 140 needs all 20 counting cards; 18 are in play
    ({"B": 70, "C": 60}, True),
    ({"B": 0, "C": 136}, True),
    ({"B": 2, "C": 134}, False),  # C's 17 cards need 9 tricks, B's one card another
    ({"B": 2, "C": 4}, True),
    ({"B": 0, "C": 2}, False),  # 18 cards in play, only 16 worth nothing
])
def test_two_players_in_butzen_are_checked_against_the_18_cards_in_play(
        points: dict[str, int], possible: bool) -> None:
    check_butzen_deal(FINAL_B2_C2, points, possible)


@pytest.mark.parametrize(("points", "possible"), [
    ({"B": 20, "C": 11, "D": 10}, False),  # 41: 27 cards in play hold at least 42
    ({"B": 20, "C": 12, "D": 10}, True),
    ({"B": 0, "C": 2, "D": 40}, True),  # all but the 16 blanks count: 42 exactly
    ({"B": 2, "C": 2, "D": 2}, False),
    ({"B": 40, "C": 45, "D": 55}, True),
])
def test_three_players_in_butzen_are_checked_against_the_27_cards_in_play(
        points: dict[str, int], possible: bool) -> None:
    check_butzen_deal(BUTZEN_3_NO_EXCESS, points, possible)


def check_butzen_deal(before: list[Any], points: dict[str, int], possible: bool) -> None:
    hands = before + [{"points": points}]
    if possible:
        play(hands)
    else:
        assert fails(hands).code in ("hintersche.in_play_total", "hintersche.impossible_in_play")


def test_an_impossible_butzen_deal_says_why_in_players_words() -> None:
    error = fails(FINAL_B2_C2 + [{"points": {"B": 80, "C": 60}}])
    assert error.message() == ("hand 5: the points add up to 140, but with 2 players only 18 "
                               "cards are in play (9 each): together they hold 4 to 136 points")
    assert error.message(DE) == ("Hand 5: die Augen ergeben 140, aber bei 2 Spielern sind nur "
                                   "18 Karten im Spiel (9 für jeden): die haben zusammen 4 bis "
                                   "136 Augen")
    error = fails(FINAL_B2_C2 + [{"points": {"B": 2, "C": 134}}])
    assert error.message() == ("hand 5: these points cannot come from the 18 cards in play: "
                               "whoever takes a trick takes 2 cards, and the cards worth nothing "
                               "are only 16")


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 10**9), players=st.sampled_from([2, 3]))
def test_every_physically_dealt_butzen_deal_is_possible(seed: int, players: int) -> None:
    points, _ = physical_deal(P[:players], random.Random(seed))
    assert hs.deal_possible(tuple(sorted(points.values())))


def test_an_entry_that_leaves_out_a_player_in_the_deal_is_refused() -> None:
    error = fails([{"points": {"A": 100, "C": 40}}])
    assert (error.code, error.field) == ("hintersche.points_missing", "B")
    assert error.message() == "hand 1: B plays this deal: please enter B's points"
    error = fails(BUTZEN_3_NO_EXCESS + [{"points": {"B": 70, "C": 50}}])
    assert (error.code, error.field) == ("hintersche.points_missing", "D")


def test_a_correction_that_puts_a_player_back_in_refuses_the_later_hand_that_left_them_out(
) -> None:
    # A marches in hand 3: B, C and D play Butzen and hand 4 names only them. Corrected, hand 3
    # is no march: phase 1 goes on with all four, so hand 4 no longer fits. It is refused, never
    # replayed as "A 0".
    hands = [most("B"), most("C"), march("A"), {"points": {"B": 50, "C": 40, "D": 50}}]
    assert marks(play(hands)) == {"B": 2, "C": 1, "D": 1}
    error = fails(hands[:2] + [most("D")] + hands[3:])
    assert (error.entry, error.code, error.field) == (4, "hintersche.points_missing", "A")


# --- fast entry: three scores typed, the fourth fills itself ------------------------------------


def completed(points: dict[str, Any], in_deal: list[str] = P) -> dict[str, Any]:
    return hs.completed({"points": points}, in_deal)


def refused(points: dict[str, Any], in_deal: list[str] = P) -> RuleError:
    with pytest.raises(RuleError) as info:
        completed(points, in_deal)
    return info.value


@settings(max_examples=400, deadline=None)
@given(order=st.permutations(P),
       scores=st.lists(st.sampled_from(sorted(hs.MAKEABLE)), min_size=3, max_size=3))
def test_three_scores_leave_the_fourth_what_is_left_of_the_pack(order: list[str],
                                                                 scores: list[int]) -> None:
    typed, left_out = dict(zip(order, scores, strict=False)), order[3]
    rest = TOTAL - sum(scores)
    if rest < 0:
        error = refused(typed)
        assert (error.code, error.field) == ("hintersche.rest_over", "points")
        assert error.params["total"] == sum(scores)
        assert sorted(error.params["players"]) == sorted(typed)
        return
    if rest not in hs.MAKEABLE:  # 1 point: no card is worth it
        assert (refused(typed).code, refused(typed).field) == ("hintersche.rest_not_makeable",
                                                               left_out)
        return
    entry = completed(typed)
    assert entry == {"points": {**typed, left_out: rest}}
    assert list(entry["points"]) == P  # in the order of the deal's players, as given
    # the whole deal is then judged like any other: never by its total, which is the pack's
    table = hs.Table(list(P), None, {})
    try:
        engine.apply(table, entry)
    except RuleError as error:
        assert error.code in ("hintersche.impossible", "hintersche.playoff_needed"), error
        assert (error.code == "hintersche.impossible") != hs.deal_possible(
            tuple(sorted(entry["points"].values())))
    else:
        assert engine.history(table)[0]["points"] == {name: entry["points"][name] for name in P}


def test_three_scores_over_the_pack_are_refused_in_players_words() -> None:
    error = refused({"A": 80, "B": 40, "D": 30})
    assert error.message() == "A, B and D already have 150 points together, more than the " \
                              "140 in the pack"
    assert error.message(DE) == "A, B und D haben zusammen schon 150 Augen, die Karten haben " \
                                "nur 140"
    assert error.message(NL).startswith("A, B en D hebben samen al 150 punten")


def test_a_rest_no_cards_make_is_refused_at_the_player_left_out() -> None:
    error = refused({"A": 137, "B": 2, "C": 0})
    assert (error.code, error.field) == ("hintersche.rest_not_makeable", "D")
    assert error.message() == "that leaves D 1 point of the 140, and no cards add up to that"
    assert "D" in error.message(DE) and "1 Auge " in error.message(DE)


def test_the_typed_scores_are_checked_where_they_were_typed() -> None:
    error = refused({"A": 150, "B": 0, "C": 0})
    assert (error.code, error.field) == ("hintersche.bad_points", "A")
    error = refused({"A": 30, "B": 1, "C": 35})
    assert (error.code, error.field) == ("hintersche.not_makeable", "B")
    error = refused({"A": 30, "B": "viel", "C": 35})
    assert (error.code, error.field) == ("not_a_number", "B")
    assert completed({"A": 30.0, "B": 45, "C": 35}) == {
        "points": {"A": 30, "B": 45, "C": 35, "D": 30}}


@pytest.mark.parametrize("points, in_deal", [
    ({"A": 30, "B": 45, "C": 35, "D": 30}, P),  # all typed
    ({"A": 30, "B": 45}, P),  # two left out: the engine asks for each
    ({"A": 30, "B": 45, "Z": 35}, P),  # somebody who does not play
    ({"B": 50, "C": 40}, ["B", "C", "D"]),  # three in the deal: the pack is not all dealt
    ({"B": 50}, ["B", "C"]),
])
def test_only_one_score_left_out_of_four_fills_itself(points: dict[str, Any],
                                                       in_deal: list[str]) -> None:
    entry = {"points": points, "all_tricks": None}
    assert hs.completed(entry, in_deal) == entry
    assert hs.fills_in(in_deal) == (len(in_deal) == 4)


def test_the_rest_of_the_entry_is_kept() -> None:
    entry = {"points": {"A": 40, "B": 40, "C": 30}, "playoffs": [{"A": 50, "B": 40}]}
    assert hs.completed(entry, P) == {**entry, "points": {"A": 40, "B": 40, "C": 30, "D": 30}}
    assert entry["points"] == {"A": 40, "B": 40, "C": 30}  # the entry given is not changed


def test_a_record_hand_that_leaves_a_player_out_is_still_refused() -> None:
    # completing is for typing: a record names every player in the deal, as before, so an old
    # record replays as it did and a stored hand is never filled in behind the players' back
    error = fails([{"points": {"A": 30, "B": 45, "C": 35}}])
    assert (error.code, error.field) == ("hintersche.points_missing", "D")
    # and typing any hand of a record with one score left out gives that hand back
    for hand in [h for h in WORKED_EXAMPLE if len(h["points"]) == 4]:
        for name in P:
            typed = {p: v for p, v in hand["points"].items() if p != name}
            assert completed(typed) == hand


def test_whole_floats_are_accepted() -> None:
    table = play([{"points": {"A": 30.0, "B": 45, "C": 35, "D": 30}}])
    assert engine.history(table)[0]["points"]["A"] == 30


def test_all_tricks_needs_the_others_on_0() -> None:
    error = fails(BUTZEN_3_NO_EXCESS + [{"points": {"B": 10, "C": 0, "D": 60},
                                         "all_tricks": "D"}])
    assert (error.code, error.field) == ("hintersche.all_tricks_others", "B")
    assert error.message() == "hand 5: B has 10 points, but D took all the tricks"
    assert error.message(DE) == "Hand 5: B hat 10 Augen, aber D hat alle Stiche gemacht"


def test_all_tricks_in_vier_strich_is_a_march() -> None:
    table = play([{"points": {"A": 140, "B": 0, "C": 0, "D": 0}, "all_tricks": "A"}])
    row = engine.history(table)[0]
    assert row["all_tricks"] == "A"
    assert {p["name"]: p["marks"] for p in engine.report(table)["players"]} == {
        "A": 0, "B": 1, "C": 1, "D": 1}
    error = fails([{"points": {"A": 130, "B": 10, "C": 0, "D": 0}, "all_tricks": "A"}])
    assert (error.code, error.field) == ("hintersche.all_tricks_others", "B")


def test_all_tricks_by_a_player_who_is_out() -> None:
    error = fails(BUTZEN_3_NO_EXCESS + [{"points": {"B": 0, "C": 0, "D": 60},
                                         "all_tricks": "A"}])
    assert (error.code, error.field) == ("hintersche.not_in_deal", "all_tricks")


def test_playoff_points_are_checked() -> None:
    base = {"points": {"A": 30, "B": 40, "C": 30, "D": 40}}
    error = fails([{**base, "playoffs": [{"B": 40, "C": 60}]}])
    assert (error.code, error.field) == ("hintersche.not_in_playoff", "playoffs")
    assert error.message() == "hand 1: playoff 1: C is not in this playoff"
    error = fails([{**base, "playoffs": [{"B": 1, "D": 60}]}])
    assert (error.code, error.field) == ("hintersche.not_makeable", "playoffs")
    error = fails([{**base, "playoffs": [{"B": 100, "D": 60}]}])
    assert (error.code, error.field) == ("hintersche.playoff_impossible", "playoffs")
    error = fails([{**base, "playoffs": [{"B": 2, "D": 2}, {"B": 80, "D": 80}]}])
    assert error.code == "hintersche.playoff_impossible"
    assert error.params["playoff"] == 2
    assert error.message(DE) == ("Hand 1: Stechen 2: so können die Augen nicht verteilt "
                                   "sein, mit den 18 Karten im Spiel (2 Spieler, je 9 Karten) "
                                   "geht das nicht auf")
    error = fails([{**base, "playoffs": {"B": 40, "D": 60}}])
    assert (error.code, error.field) == ("hintersche.bad_playoffs", "playoffs")
    error = fails([{**base, "playoffs": [[40, 60]]}])
    assert (error.code, error.field) == ("hintersche.bad_playoffs", "playoffs")


# --- hostile input --------------------------------------------------------------------------------


def _apply_fails(table: hs.Table, entry: Any) -> RuleError:
    before = engine.report(table)
    with pytest.raises(RuleError) as info:
        engine.apply(table, entry)
    assert engine.report(table) == before
    return info.value


HOSTILE: list[tuple[Any, str, str | None]] = [
    ([], "entry_not_object", None),
    ("points", "entry_not_object", None),
    ({}, "missing_key", "points"),
    ({"points": None}, "missing_key", "points"),
    ({"points": [30, 45, 35, 30]}, "not_a_mapping", "points"),
    ({"points": {"A": 30, "B": 45, "C": 35, "D": 30}, "extra": 1}, "unknown_key", "extra"),
    ({"points": {"Z": 30, "B": 45, "C": 35, "D": 30}}, "unknown_player", "Z"),
    ({"points": {"A": "30", "B": 45, "C": 35, "D": 30}}, "not_a_number", "A"),
    ({"points": {"A": 30.5, "B": 45, "C": 35, "D": 30}}, "not_a_number", "A"),
    ({"points": {"A": True, "B": 45, "C": 35, "D": 60}}, "not_a_number", "A"),
    ({"points": {"A": None, "B": 45, "C": 35, "D": 60}}, "not_a_number", "A"),
    ({"points": {"A": [30], "B": 45, "C": 35, "D": 30}}, "not_a_number", "A"),
    ({"points": {"A": {"x": 1}, "B": 45, "C": 35, "D": 30}}, "not_a_number", "A"),
    ({"points": {"A": float("nan"), "B": 45, "C": 35, "D": 30}}, "not_a_number", "A"),
    ({"points": {"A": float("inf"), "B": 45, "C": 35, "D": 30}}, "not_a_number", "A"),
    ({"points": {"A": -10, "B": 45, "C": 35, "D": 70}}, "hintersche.bad_points", "A"),
    ({"points": {"A": 10**400, "B": 45, "C": 35, "D": 30}}, "hintersche.bad_points", "A"),
    ({"points": {"A": 1e300, "B": 45, "C": 35, "D": 30}}, "hintersche.bad_points", "A"),
    ({"points": {"A": 141}}, "hintersche.bad_points", "A"),
    ({"points": {"A": 30, "B": 45, "C": 35, "D": 30}, "all_tricks": 3}, "unknown_player",
     "all_tricks"),
    ({"points": {"A": 30, "B": 45, "C": 35, "D": 30}, "all_tricks": ["A"]}, "unknown_player",
     "all_tricks"),
    ({"points": {"A": 30, "B": 45, "C": 35, "D": 30}, "playoffs": "B"},
     "hintersche.bad_playoffs", "playoffs"),
    ({"points": {"A": 30, "B": 40, "C": 30, "D": 40}, "playoffs": [None]},
     "hintersche.bad_playoffs", "playoffs"),
    ({"points": {"A": 30, "B": 40, "C": 30, "D": 40}, "playoffs": [{"B": "x", "D": 1}]},
     "not_a_number", "playoffs"),
    ({"points": {"A": 30, "B": 40, "C": 30, "D": 40}, "playoffs": [{5: 3}]},
     "unknown_player", "playoffs"),
]


@pytest.mark.parametrize(("entry", "code", "field"), HOSTILE)
def test_hostile_entries_are_rule_errors_and_change_nothing(entry: Any, code: str,
                                                            field: str | None) -> None:
    table = play([most("B")])
    error = _apply_fails(table, entry)
    assert (error.code, error.field) == (code, field)
    error.message(DE)  # every message renders


@pytest.mark.parametrize(("entry", "code"), [
    ({"points": {"B": 55, "C": 55, "D": 20}}, "hintersche.playoff_needed"),
    ({"points": {"B": 55, "C": 55, "D": 20}, "playoffs": [{"B": 30, "C": 30}]},
     "hintersche.playoff_needed"),  # the playoff tied again
    ({"points": {"B": 50, "C": 40, "D": 30}, "playoffs": [{"B": 30, "C": 20}]},
     "hintersche.playoff_not_needed"),
    ({"points": {"B": 0, "C": 72, "D": 3}, "all_tricks": "C"}, "hintersche.all_tricks_others"),
])
def test_failed_butzen_entries_change_nothing(entry: dict[str, Any], code: str) -> None:
    table = play(WORKED_EXAMPLE[:5])
    assert _apply_fails(table, copy.deepcopy(entry)).code == code


def test_error_message_carries_the_hand_number() -> None:
    error = fails([most("B"), {"points": {"A": 1, "B": 139}}])
    assert error.entry == 2
    assert str(error).startswith("hand 2: ")


# --- the module contract ------------------------------------------------------------------------


def test_module_contract() -> None:
    assert hs.NAME == "hintersche"
    assert hs.MIN_PLAYERS == hs.MAX_PLAYERS == 4
    for text in (hs.TITLE, hs.SUMMARY):
        assert isinstance(text, errors.Words)
    for option in hs.OPTIONS:
        assert isinstance(option.help, errors.Words)
        assert option.accepts(option.default)
    assert base.resolve(hs.OPTIONS, {}) == {
        "march_at": 101, "four_losses_double": True, "rubber_games": 4, "tariff_cents": 500}
    for code, texts in hs.MESSAGES.items():
        assert code.startswith("hintersche.")
        assert isinstance(texts, errors.Words)


def test_report_before_any_deal() -> None:
    report = engine.report(hs.Table(list(P), None, {}))
    assert report["hands_played"] == 0 and report["next_dealer"] == "A"
    assert report["phase"] == "vier-strich" and report["game_number"] == 1
    assert report["in_deal"] == P and report["history"] == [] and report["games"] == []
    assert report["all_tricks_allowed"] is True
    json.dumps(report)


# --- property tests with real cards --------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(2, 4))
def test_physically_dealt_points_are_always_possible(rng: random.Random, k: int) -> None:
    points, _ = physical_deal(P[:k], rng)
    assert hs.deal_possible(tuple(sorted(points.values())))


def _check_invariants(table: hs.Table) -> None:
    report = engine.report(table)
    players = report["players"]
    assert all(p["marks"] >= 0 and p["lines"] >= 0 for p in players)
    if not report["finished"]:
        in_game = [p["name"] for p in players if p["in"]]
        assert sorted(report["in_deal"]) == sorted(in_game)
        if report["phase"] == "butzen":
            assert len(in_game) >= 2
            assert all(p["marks"] >= 1 for p in players if p["in"])
        else:
            assert len(in_game) == 4
        assert all(p["marks"] == 0 for p in players if not p["in"])
    assert sum(p["balance_cents"] for p in players) == 0


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32), st.booleans(), st.sampled_from([100, 101]))
def test_real_games_are_accepted_and_keep_the_invariants(seed: int, double: bool,
                                                         march_at: int) -> None:
    rng = random.Random(seed)
    rules = {"rubber_games": 3, "four_losses_double": double, "march_at": march_at}
    table = hs.Table(list(P), rng.choice(P), rules)
    hands = []
    while not table.finished:
        hands.append(play_entry(table, rng))  # raises if a real deal were refused
        _check_invariants(table)
        assert len(hands) < 500
    report = engine.report(table)
    assert len(report["games"]) == 3
    for game in report["games"]:
        assert game["lines"] in ((1, 2) if double else (1,))
        if game["lines"] == 2:
            assert game["hands"] == 4
    assert sum(p["lines"] for p in report["players"]) == sum(g["lines"] for g in report["games"])
    for game in report["games"]:
        rows = [row for row in report["history"] if row["game"] == game["game"]]
        assert [e for row in rows for e in row["events"] if e["type"] == "line"] == [
            {"type": "line", "player": game["loser"], "count": game["lines"]}]
        assert sum(row["phase"] == "vier-strich" for row in rows) <= 4
    # Replaying the record gives the same state.
    rec = {"players": list(P), "first_dealer": engine.history(table)[0]["dealer"], "rules": rules,
           "hands": hands}
    assert engine.report(replay(rec)) == report


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 30), st.dictionaries(
    st.sampled_from(["points", "all_tricks", "playoffs", "x"]),
    st.recursive(st.none() | st.booleans() | st.integers(-200, 300) | st.floats()
                 | st.text(max_size=3) | st.sampled_from(P),
                 lambda inner: st.lists(inner, max_size=4)
                 | st.dictionaries(st.sampled_from(P + ["Z"]), inner, max_size=4),
                 max_leaves=10)))
def test_junk_entries_never_break_the_table(seed: int, deals: int, junk: dict[str, Any]
                                            ) -> None:
    rng = random.Random(seed)
    table = hs.Table(list(P), None, {"rubber_games": 100})
    for _ in range(deals):
        play_entry(table, rng)
    before = engine.report(table)
    try:
        engine.apply(table, junk)
    except RuleError as error:
        error.message(DE)
        assert engine.report(table) == before
    _check_invariants(table)


def test_bench_records_are_valid() -> None:
    rec = random_record(300, seed=7)
    assert len(rec["hands"]) == 300
    table = record.replay(json.loads(json.dumps(rec)))
    assert engine.report(table)["hands_played"] == 300
    assert not table.finished


def test_no_message_uses_code_words_of_the_record_format() -> None:
    import re

    code_word = re.compile(r'"[a-z_]+"')  # "moon", "self", "decks" ...
    for code, template in errors.MESSAGES.items():
        if code == "record_bad_format":  # about the file itself
            continue
        for text in (template, DE(template), NL(template)):
            assert not code_word.search(text), (code, text)


def test_a_tie_of_everybody_in_the_final_stage_says_they_are_level() -> None:
    error = fails(FINAL_B2_C2 + [{"points": {"B": 50, "C": 50}}])
    assert error.params["tie"] == "level"
    assert error.message() == ("hand 5: C and B tie with 50 points each: enter their playoff "
                               "deal (the fewest playoff points decide)")
