"""Cego: the rules file's worked examples, every refusal of its validation table, 3 and 5 players,
counting in threes, the declarer-only list, the options, and property tests with games dealt
from the pack's card values."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest
import records_cego
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import DE, NL

from scorekeeper import engine
from scorekeeper.engine import base, cego
from scorekeeper.engine.errors import RuleError
from scorekeeper.evenings.settlement import payments

P4 = ["A", "B", "C", "D"]


def record(hands: list[Any], rules: dict[str, Any] | None = None,
           players: list[str] | None = None, **extra: Any) -> dict[str, Any]:
    return {"format": "scorekeeper-game/1", "game": "cego", "rules": rules or {},
            "players": players or P4, "hands": hands, **extra}


def replay(hands: list[Any], rules: dict[str, Any] | None = None,
           players: list[str] | None = None, **extra: Any) -> cego.Table:
    table = engine.replay(record(hands, rules, players, **extra))
    assert isinstance(table, cego.Table)
    return table


def scores(table: cego.Table) -> dict[str, int]:
    return {p["name"]: p["score"] for p in table.summary()["players"]}


def field(table: cego.Table, key: str) -> dict[str, int]:
    return {p["name"]: p[key] for p in table.summary()["players"]}


def refusal(hands: list[Any], rules: dict[str, Any] | None = None,
            players: list[str] | None = None) -> RuleError:
    with pytest.raises(RuleError) as info:
        replay(hands, rules, players)
    return info.value


def one_game(entry: dict[str, Any], rules: dict[str, Any] | None = None,
             players: list[str] | None = None, **extra: Any) -> dict[str, Any]:
    """The history row of a single game."""
    row: dict[str, Any] = engine.history(replay([entry], rules, players, **extra))[0]
    return row


# --- the worked examples --------------------------------------------------------------------------

# (entry, V, each-opponent points A B C D, list entry) -- the table of rules/cego.md
WORKED = [
    ({"contract": "cego", "declarer": "B", "augen": 44}, 10, (-10, 30, -10, -10), {"B": 10}),
    ({"contract": "eine", "declarer": "C", "augen": 41, "defender_augen": 38}, 20,
     (-20, -20, 60, -20), {"C": 20}),
    ({"contract": "halbe", "declarer": "D", "augen": 34, "defender_augen": 45}, 20,
     (20, 20, 20, -60), {"D": -20}),
    ({"contract": "solo", "declarer": "A", "augen": 52}, 30, (90, -30, -30, -30), {"A": 30}),
    ({"contract": "solo", "declarer": "B", "augen": 37}, 10, (10, -30, 10, 10), {"B": -10}),
    ({"contract": "ultimo", "declarer": "C", "won": True}, 80, (-80, -80, 240, -80), {"C": 80}),
    ({"contract": "piccolo", "declarer": "D", "tricks": 2}, 40, (40, 40, 40, -120), {"D": -40}),
    ({"contract": "bettel", "declarer": "A", "tricks": 0}, 30, (90, -30, -30, -30), {"A": 30}),
    ({"contract": "raeuber", "announcer": "B", "augen": {"A": 25, "B": 25, "C": 18, "D": 11}},
     80, (80, -240, 80, 80), {"B": -80}),
    ({"contract": "raeuber", "announcer": "C", "augen": {"A": 12, "B": 30, "C": 20, "D": 17}},
     40, (40, -120, 40, 40), {"B": -40}),
    ({"contract": "eine", "declarer": "D", "augen": 12, "defender_augen": 67}, 90,
     (90, 90, 90, -270), {"D": -90}),
    ({"contract": "cego", "declarer": "A", "augen": 79}, 40, (120, -40, -40, -40), {"A": 40}),
]
RUNNING = [(-10, 30, -10, -10), (-30, 10, 50, -30), (-10, 30, 70, -90), (80, 0, 40, -120),
           (90, -30, 50, -110), (10, -110, 290, -190), (50, -70, 330, -310),
           (140, -100, 300, -340), (220, -340, 380, -260), (260, -460, 420, -220),
           (350, -370, 510, -490), (470, -410, 470, -530)]
WORKED_HANDS = [entry for entry, *_ in WORKED]


@pytest.mark.parametrize("number", range(1, len(WORKED) + 1))
def test_each_worked_game_scores_as_the_table_says(number):
    entry, value, each, written = WORKED[number - 1]
    table = replay(WORKED_HANDS[:number])
    row = engine.history(table)[-1]
    assert row["dealer"] == P4[(number - 1) % 4]  # A deals game 1, B game 2, ...
    assert row["value"] == value
    assert tuple(row["points"][p] for p in P4) == each
    assert {p: v for p, v in row["list"].items() if v} == written
    assert tuple(row["totals"][p] for p in P4) == RUNNING[number - 1]
    assert sum(row["points"].values()) == 0


def test_the_worked_games_results_and_fach():
    rows = engine.history(replay(WORKED_HANDS))
    assert [(r["contract"], r["result"], r["fach"]) for r in rows] == [
        ("cego", "won", 1), ("eine", "won", 1), ("halbe", "lost", 2), ("solo", "won", 3),
        ("solo", "lost", 1), ("ultimo", "won", None), ("piccolo", "lost", None),
        ("bettel", "won", None), ("raeuber", None, None), ("raeuber", None, None),
        ("eine", "lost", 6), ("cego", "won", 8)]
    assert rows[8]["losers"] == {"B": 80} and rows[9]["losers"] == {"B": 40}
    assert rows[8]["announcer"] == "B" and rows[8]["declarer"] is None
    assert rows[1]["defender_augen"] == 38 and rows[0]["defender_augen"] == 35


def test_after_twelve_games_the_list_the_identity_and_the_next_dealer():
    table = replay(WORKED_HANDS)
    summary = table.summary()
    assert scores(table) == {"A": 470, "B": -410, "C": 470, "D": -530}
    lists = field(table, "list")
    assert lists == {"A": 100, "B": -120, "C": 100, "D": -150}
    assert sum(lists.values()) == -70
    for name in P4:  # each-opponent = n x list - sum of the list
        assert scores(table)[name] == 4 * lists[name] - sum(lists.values())
    assert summary["next_dealer"] == summary["dealer"] == "A"
    assert summary["hands_played"] == 12 and summary["finished"] is False
    assert summary["games_left"] is None
    ranking = sorted(P4, key=lambda p: -scores(table)[p])
    assert ranking[:2] == ["A", "C"] and ranking[2:] == ["B", "D"]
    assert summary["last_game"] == {"contract": "cego", "title": "Cego", "declarer": "A",
                                    "announcer": None, "result": "won", "fach": 8, "value": 40,
                                    "losers": []}


def test_example_13_rounding_45_to_50():
    row = one_game({"contract": "eine", "declarer": "C", "augen": 50})
    assert (row["fach"], row["value"]) == (3, 50)
    assert row["points"] == {"A": -50, "B": -50, "C": 150, "D": -50}


def test_example_14_a_small_solo_is_10_either_way_and_20_when_rounded_before_doubling():
    won = one_game({"contract": "solo", "declarer": "C", "augen": 43})
    lost = one_game({"contract": "solo", "declarer": "C", "augen": 38})
    assert (won["value"], won["points"]["C"], won["points"]["A"]) == (10, 30, -10)
    assert (lost["value"], lost["points"]["C"], lost["points"]["A"]) == (10, -30, 10)
    doubled = one_game({"contract": "solo", "declarer": "C", "augen": 43},
                       {"solo_rounding": "before-doubling"})
    assert (doubled["value"], doubled["points"]["C"]) == (20, 60)
    lost = one_game({"contract": "solo", "declarer": "C", "augen": 38},
                    {"solo_rounding": "before-doubling"})
    assert lost["value"] == 10


def test_example_15_raeuber_tie_without_the_caller():
    table = replay([{"contract": "raeuber", "announcer": "B",
                     "augen": {"A": 25, "B": 18, "C": 25, "D": 11}}])
    assert scores(table) == {"A": -80, "B": 80, "C": -80, "D": 80}
    assert field(table, "list") == {"A": -40, "B": 0, "C": -40, "D": 0}


def test_example_16_threes_35_of_70_is_the_buergermeister_and_lost():
    table = replay([{"contract": "cego", "declarer": "B", "augen": 35}], {"counting": "threes"})
    row = engine.history(table)[0]
    assert (row["result"], row["fach"], row["value"]) == ("lost", 1, 10)
    assert row["defender_augen"] == 35
    assert scores(table) == {"A": 10, "B": -30, "C": 10, "D": 10}
    assert table.summary()["augen_total"] == 70 and table.summary()["augen_to_win"] == 36


def test_example_17_money_at_a_cent_a_point():
    table = replay(WORKED_HANDS, {"cents_per_point": 1})
    money = field(table, "balance_cents")
    assert money == {"A": 470, "B": -410, "C": 470, "D": -530}
    paid = {(p.payer, p.payee, p.cents) for p in payments(money)}
    assert paid == {("D", "A", 470), ("D", "C", 60), ("B", "C", 410)}


def test_example_18_refused_entries():
    error = refusal([{"contract": "cego", "declarer": "B", "augen": 78}])
    assert error.code == "cego.augen_impossible"
    assert str(error) == ("hand 1: 78 Augen is impossible — the defenders took at least one "
                          "trick, worth at least 2")
    error = refusal([{"contract": "cego", "declarer": "B", "augen": 44, "defender_augen": 36}])
    assert error.code == "cego.augen_sum"
    assert str(error) == "hand 1: 44 + 36 = 80, the two sides must add up to 79"
    error = refusal([{"contract": "piccolo", "declarer": "B", "augen": 41}])
    assert error.code == "cego.not_counted"
    assert "Piccolo is not counted in Augen" in str(error)


# --- the count and the Fach -----------------------------------------------------------------------

def test_the_pack_holds_106_face_points_and_79_70_69_augen():
    assert len(cego.pack(4)) == 54 and sum(cego.pack(4)) == 106
    assert len(cego.pack(3)) == 51
    assert (cego.count(4, "pairs").total, cego.count(4, "pairs").to_win) == (79, 40)
    assert (cego.count(4, "threes").total, cego.count(4, "threes").to_win) == (70, 36)
    assert (cego.count(3, "threes").total, cego.count(3, "threes").to_win) == (69, 35)
    assert cego.count(4, "pairs").least == 2 and cego.count(4, "threes").least == 1
    assert cego.count(4, "pairs").tricks == 11 and cego.count(3, "threes").tricks == 13


# the Fach table of rules/cego.md: (lowest count, highest count, result, Fach)
FACH_TABLE = [(75, 79, "won", 8), (70, 74, "won", 7), (65, 69, "won", 6), (60, 64, "won", 5),
              (55, 59, "won", 4), (50, 54, "won", 3), (45, 49, "won", 2), (40, 44, "won", 1),
              (35, 39, "lost", 1), (30, 34, "lost", 2), (25, 29, "lost", 3), (20, 24, "lost", 4),
              (15, 19, "lost", 5), (10, 14, "lost", 6), (5, 9, "lost", 7), (0, 4, "lost", 8)]


@pytest.mark.parametrize("low, high, result, fach", FACH_TABLE)
def test_the_fach_table(low, high, result, fach):
    table = cego.Table(P4, None, {})
    for augen in range(low, high + 1):
        if augen in (1, 78):
            continue
        engine.apply(table, {"contract": "cego", "declarer": "B", "augen": augen})
        row = engine.history(table)[-1]
        assert (row["result"], row["fach"]) == (result, fach), augen
        assert row["value"] == (5 * fach + 5) // 10 * 10  # half-up to 10


def test_greatest_values_with_pairs():
    def value(contract, augen):
        return one_game({"contract": contract, "declarer": "A", "augen": augen})["value"]

    assert [value(c, 79) for c in ("cego", "halbe", "eine", "solo")] == [40, 80, 120, 80]
    assert value("solo", 0) == 40


def test_rounding_with_another_unit_12_goes_down_to_10():
    row = one_game({"contract": "eine", "declarer": "A", "augen": 41}, {"points_per_fach": 4})
    assert row["value"] == 10  # 4 x 1 x 3 = 12


# --- every refusal of the validation table --------------------------------------------------------

def test_unknown_contract():
    error = refusal([{"contract": "cego", "declarer": "A", "augen": 50}] * 6
                    + [{"contract": "Grebsler", "declarer": "A", "won": True}])
    assert error.code == "cego.unknown_contract" and error.entry == 7
    assert str(error) == "hand 7: “Grebsler” is not a contract in this game's rules"
    for contract in (["solo"], {"x": 1}, 7, True):
        assert refusal([{"contract": contract, "declarer": "A"}]).code == "cego.unknown_contract"
    assert refusal([{"declarer": "A", "augen": 40}]).code == "missing_key"


def test_a_bid_without_a_multiplier():
    error = refusal([{"contract": "leere", "declarer": "A", "augen": 50}])
    assert error.code == "cego.no_multiplier"
    assert error.message(with_entry=False) == "“leere” has no multiplier in this game's rules"
    with_leere = {"bid_multipliers": {"cego": 1, "halbe": 2, "eine": 3, "leere": 4}}
    row = one_game({"contract": "leere", "declarer": "A", "augen": 50}, with_leere)
    assert row["value"] == 60  # 5 x 3 x 4 = 60
    assert row["title"] == "Leere"


def test_a_contract_the_table_does_not_play():
    error = refusal([{"contract": "halbe", "declarer": "A", "augen": 50}],
                    {"bid_multipliers": {"cego": 1, "eine": 3}})
    assert error.code == "cego.not_played"
    assert error.message(with_entry=False) == "this table does not play Halbe"


def test_a_declarer_who_is_not_at_the_table():
    error = refusal([{"contract": "cego", "declarer": "Karl", "augen": 50}])
    assert error.code == "cego.not_playing" and error.field == "declarer"
    assert error.message(with_entry=False) == "Karl is not playing this game"
    for name in (["A"], 3, {"A": 1}):
        assert refusal([{"contract": "cego", "declarer": name, "augen": 50}]).code == \
            "cego.not_playing"
    error = refusal([{"contract": "cego", "augen": 50}])
    assert error.code == "cego.no_declarer"
    assert error.message(with_entry=False) == "enter the declarer, who played Cego"


def test_with_five_the_dealer_sits_out_and_cannot_declare_or_call():
    five = P4 + ["E"]
    error = refusal([{"contract": "cego", "declarer": "A", "augen": 50}], players=five)
    assert error.code == "cego.sits_out"
    assert error.message(with_entry=False) == "A deals this game and sits it out"
    error = refusal([{"contract": "raeuber", "announcer": "A", "losers": ["B"]}], players=five)
    assert error.code == "cego.sits_out"
    for entry in ({"contract": "raeuber", "announcer": "B", "losers": ["A"]},
                  {"contract": "raeuber", "announcer": "B",
                   "augen": {"A": 0, "B": 20, "C": 20, "D": 20, "E": 19}},
                  {"contract": "cego", "declarer": "B", "forfeit": "A"}):
        assert refusal([entry], players=five).code == "cego.sits_out", entry


def test_a_fach_game_without_a_count():
    error = refusal([{"contract": "cego", "declarer": "B"}, ])
    assert error.code == "cego.no_augen" and error.field == "augen"
    assert error.message(with_entry=False) == "enter the declarer's Augen (0 to 79)"
    error = refusal([{"contract": "cego", "declarer": "B", "augen": None}],
                    {"counting": "threes"})
    assert error.message(with_entry=False) == "enter the declarer's Augen (0 to 70)"


def test_a_count_that_is_not_a_whole_number_below_0_or_above_the_total():
    error = refusal([{"contract": "cego", "declarer": "B", "augen": 80}])
    assert error.code == "cego.augen_over"
    assert error.message(with_entry=False) == "80 Augen is more than the 79 in the deck"
    error = refusal([{"contract": "cego", "declarer": "B", "augen": -1}])
    assert error.code == "cego.augen_negative"
    assert error.message(with_entry=False) == "-1 Augen is impossible, a count is never below 0"
    error = refusal([{"contract": "cego", "declarer": "B", "augen": "44"}])
    assert error.code == "cego.not_whole"
    assert error.message(with_entry=False) == "Augen: “44” is not a whole number"
    for value in (44.5, True, [44]):
        assert refusal([{"contract": "cego", "declarer": "B", "augen": value}]).code == \
            "cego.not_whole"
    assert one_game({"contract": "cego", "declarer": "B", "augen": 44.0})["augen"] == 44
    error = refusal([{"contract": "cego", "declarer": "B", "defender_augen": 80}])
    assert error.code == "cego.augen_over" and error.field == "defender_augen"


def test_counts_of_1_and_78_are_impossible_with_pairs_but_not_with_threes():
    error = refusal([{"contract": "cego", "declarer": "B", "augen": 1}])
    assert error.code == "cego.augen_low"
    assert error.message(with_entry=False) == ("1 Auge is impossible — cards taken are worth at "
                                               "least 2")
    error = refusal([{"contract": "cego", "declarer": "B", "defender_augen": 78}])
    assert error.code == "cego.augen_impossible"
    assert error.message(with_entry=False) == ("78 Augen is impossible — the declarer took at "
                                               "least one trick, worth at least 2")
    error = refusal([{"contract": "cego", "declarer": "B", "defender_augen": 1}])
    assert error.code == "cego.augen_low"
    for augen in (1, 69):
        row = one_game({"contract": "cego", "declarer": "B", "augen": augen},
                       {"counting": "threes"})
        assert row["augen"] == augen
    assert one_game({"contract": "cego", "declarer": "B", "augen": 0})["fach"] == 8
    assert one_game({"contract": "cego", "declarer": "B", "defender_augen": 0})["augen"] == 79


def test_augen_given_for_ultimo_piccolo_or_bettel():
    error = refusal([{"contract": "ultimo", "declarer": "C", "augen": 41}])
    assert error.code == "cego.not_counted" and error.field == "augen"
    assert error.message(with_entry=False) == ("Ultimo is not counted in Augen; say whether it "
                                               "was won")
    error = refusal([{"contract": "bettel", "declarer": "C", "defender_augen": 41}])
    assert error.message(with_entry=False) == (
        "Bettel is not counted in Augen; say whether it was won or how many tricks the declarer "
        "took")
    error = refusal([{"contract": "piccolo", "declarer": "C", "augen": 41}])
    assert str(error).startswith("hand 1: Piccolo is not counted in Augen")


def test_tricks_outside_the_tricks_of_a_game():
    error = refusal([{"contract": "piccolo", "declarer": "D", "tricks": 12}])
    assert error.code == "cego.tricks_range"
    assert error.message(with_entry=False) == ("the declarer cannot take 12 tricks: there are "
                                               "only 11 tricks")
    assert refusal([{"contract": "bettel", "declarer": "D", "tricks": -1}]).code == \
        "cego.tricks_range"
    three = {"counting": "threes"}
    assert one_game({"contract": "piccolo", "declarer": "C", "tricks": 13}, three,
                    ["A", "B", "C"])["tricks"] == 13
    error = refusal([{"contract": "piccolo", "declarer": "C", "tricks": 14}], three,
                    ["A", "B", "C"])
    assert "there are only 13 tricks" in str(error)


def test_won_and_tricks_that_disagree():
    error = refusal([{"contract": "piccolo", "declarer": "D", "tricks": 2, "won": True}])
    assert error.code == "cego.won_tricks"
    assert error.message(with_entry=False) == "Piccolo with 2 tricks is lost, not won"
    error = refusal([{"contract": "bettel", "declarer": "D", "tricks": 0, "won": False}])
    assert error.message(with_entry=False) == "Bettel with 0 tricks is won, not lost"
    row = one_game({"contract": "piccolo", "declarer": "D", "tricks": 1, "won": True})
    assert row["result"] == "won" and row["points"]["D"] == 120


def test_a_result_that_is_missing_or_not_yes_or_no():
    error = refusal([{"contract": "ultimo", "declarer": "C"}])
    assert error.code == "cego.no_result"
    assert error.message(with_entry=False) == "say whether Ultimo was won"
    error = refusal([{"contract": "piccolo", "declarer": "C", "won": "yes"}])
    assert error.message(with_entry=False) == ("say whether Piccolo was won or how many tricks "
                                               "the declarer took")
    assert refusal([{"contract": "solo", "declarer": "C", "won": True}]).code == "unknown_key"


def test_raeuber_with_a_player_missing_from_the_augen():
    error = refusal([{"contract": "raeuber", "announcer": "A",
                      "augen": {"A": 20, "B": 20, "C": 20}}])
    assert error.code == "cego.raeuber_missing" and error.field == "D"
    assert error.message(with_entry=False) == "enter the Augen of every player (D is missing)"
    error = refusal([{"contract": "raeuber", "announcer": "A", "augen": [20, 20, 20, 19]}])
    assert error.code == "not_a_mapping"
    error = refusal([{"contract": "raeuber", "announcer": "A",
                      "augen": {"A": 20, "B": 20, "C": 20, "D": 19, "Karl": 0}}])
    assert error.code == "cego.not_playing"


def test_raeuber_counts_that_cannot_be():
    def augen(a, b, c, d):
        return [{"contract": "raeuber", "announcer": "A",
                 "augen": {"A": a, "B": b, "C": c, "D": d}}]

    error = refusal(augen(30, 30, 20, 5))
    assert error.code == "cego.raeuber_over"
    assert error.message(with_entry=False) == "the 4 counts add up to 85, the deck holds 79"
    error = refusal(augen(10, 5, 4, 2))
    assert error.code == "cego.raeuber_under"
    assert error.message(with_entry=False) == ("the 4 counts add up to 21, but the 44 cards in "
                                               "the tricks alone count at least 22")
    error = refusal(augen(30, 1, 20, 10))
    assert error.code == "cego.raeuber_low" and error.field == "B"
    assert error.message(with_entry=False) == ("B cannot have 1 Auge — cards taken are worth at "
                                               "least 2")
    error = refusal(augen(30, -2, 20, 10))
    assert error.code == "cego.raeuber_negative"
    assert error.message(with_entry=False) == "B cannot have -2 Augen, a count is never below 0"
    assert refusal(augen(30, "x", 20, 10)).code == "cego.not_whole"
    assert one_game(augen(79, 0, 0, 0)[0])["losers"] == {"A": 80}
    assert one_game(augen(22, 0, 0, 0)[0])["losers"] == {"A": 80}


def test_raeuber_with_a_caller_who_is_not_a_player():
    error = refusal([{"contract": "raeuber", "announcer": "Karl", "losers": ["B"]}])
    assert error.code == "cego.bad_caller" and error.field == "announcer"
    assert error.message(with_entry=False) == "the caller must be one of the players"
    error = refusal([{"contract": "raeuber", "losers": ["B"]}])
    assert error.code == "cego.no_caller"
    assert error.message(with_entry=False) == "enter who called Räuber"


def test_raeuber_needs_augen_or_losers_and_not_both():
    error = refusal([{"contract": "raeuber", "announcer": "A"}])
    assert error.code == "cego.raeuber_no_result"
    assert error.message(with_entry=False) == "enter the Augen of every player, or who lost"
    error = refusal([{"contract": "raeuber", "announcer": "A", "losers": ["B"],
                      "augen": {"A": 20, "B": 30, "C": 20, "D": 9}}])
    assert error.code == "cego.augen_or_losers"
    for losers in ([], "B", {"B": 1}):
        error = refusal([{"contract": "raeuber", "announcer": "A", "losers": losers}])
        assert error.code == "cego.bad_losers"
        assert error.message(with_entry=False) == "name the players who lost Räuber"
    error = refusal([{"contract": "raeuber", "announcer": "A", "losers": ["B", "B"]}])
    assert error.code == "duplicate_player"
    error = refusal([{"contract": "raeuber", "announcer": "A", "losers": ["B", "Karl"]}])
    assert error.code == "cego.not_playing"


def test_a_durchgang_of_24_games_is_complete():
    hands = [{"contract": "cego", "declarer": "B", "augen": 44}] * 24
    table = replay(hands, {"games": 24})
    summary = table.summary()
    assert summary["finished"] is True and summary["games_left"] == 0
    assert summary["next_dealer"] is None and summary["deals_on"] == "A"
    error = refusal(hands + hands[:1], {"games": 24})
    assert error.code == "cego.complete" and error.entry == 25
    assert str(error) == "hand 25: this Durchgang is complete (24 games)"
    assert error.message(DE, with_entry=False) == "dieser Durchgang ist fertig (24 Spiele)"
    assert replay(hands[:10], {"games": 24}).summary()["games_left"] == 14
    # Schapbach's rounds of 15 say so too
    error = refusal(hands[:16], {"games": 15})
    assert error.message(with_entry=False) == "this Durchgang is complete (15 games)"


def test_score_says_what_a_game_would_write_and_changes_nothing():
    table = replay([{"contract": "cego", "declarer": "B", "augen": 44}])
    before = engine.report(table)
    game = table.score({"contract": "eine", "declarer": "C", "defender_augen": 38})
    assert (game.won, game.fach, game.value, game.points) == (True, 1, 20, (-20, -20, 60, -20))
    assert game.totals == ()
    assert engine.report(table) == before
    with pytest.raises(RuleError) as info:
        table.score({"contract": "cego", "declarer": "B", "augen": 78})
    assert info.value.code == "cego.augen_impossible" and engine.report(table) == before
    # the list says only the declarer's V; Räuber its losers; five players: the dealer sits out
    only = replay([], {"settlement": "declarer-only"})
    assert only.score({"contract": "solo", "declarer": "A", "augen": 52}).points == (30, 0, 0, 0)
    raeuber = table.score({"contract": "raeuber", "announcer": "B", "losers": ["B", "D"]})
    assert raeuber.points == (120, -200, 120, -40) and raeuber.value == 80
    five = replay([], players=["A", "B", "C", "D", "E"])
    assert five.score({"contract": "cego", "declarer": "B", "augen": 44}).points == \
        (-10, 40, -10, -10, -10)
    with pytest.raises(RuleError) as info:
        five.score({"contract": "cego", "declarer": "A", "augen": 44})
    assert info.value.code == "cego.sits_out"
    # what it says is what playing it writes, for every kind of entry, 3 to 5 players and lists
    for players, seed in ((5, 1), (3, 1), (4, 6)):
        rules = records_cego.varied(40, seed)["rules"] if players < 5 else {}
        played = records_cego.random_record(40, seed, players, rules)
        table = replay([], rules, played["players"], first_dealer=played["first_dealer"])
        for entry in played["hands"]:
            said = table.score(entry)
            assert engine.apply(table, entry) == dataclasses.replace(
                said, totals=table.rows[-1].totals)


def test_the_summary_counts_each_players_solos_ultimos_and_biggest_game_won():
    table = replay([{"contract": "solo", "declarer": "A", "augen": 52},  # +90
                    {"contract": "solo", "declarer": "A", "augen": 37},  # lost
                    {"contract": "ultimo", "declarer": "C", "won": True},  # +240
                    {"contract": "ultimo", "declarer": "C", "won": False},
                    {"contract": "eine", "declarer": "A", "augen": 79},  # 8 Fach: +360
                    {"contract": "solo", "declarer": "B", "forfeit": "C"},  # won by a fault: +30
                    {"contract": "raeuber", "announcer": "D", "losers": ["A"]}])
    feats = {p["name"]: [p[key] for key in cego.FEATS] for p in table.summary()["players"]}
    assert feats == {"A": [2, 1, 0, 0, 360, 5], "B": [1, 1, 0, 0, 30, 6],
                     "C": [0, 0, 2, 1, 240, 3], "D": [0, 0, 0, 0, 0, 0]}
    only = replay([{"contract": "ultimo", "declarer": "C", "won": True}],
                  {"settlement": "declarer-only"})
    assert [p["best_game"] for p in only.summary()["players"]] == [0, 0, 80, 0]
    # kept in a snapshot
    restored = engine.restore(cego.Table, engine.snapshot(table))
    assert restored.summary() == table.summary()


def test_three_players_count_in_threes():
    with pytest.raises(RuleError) as info:
        replay([], players=["A", "B", "C"])
    assert info.value.code == "cego.three_pairs" and info.value.field == "players"
    assert info.value.message() == "with 3 players the cards are counted in threes"


def test_the_game_needs_3_to_5_players():
    for players in (["A", "B"], P4 + ["E", "F"]):
        with pytest.raises(RuleError) as info:
            replay([], players=players)
        assert info.value.code == "player_count"


def test_a_forfeit_carries_no_result():
    error = refusal([{"contract": "cego", "declarer": "B", "forfeit": "B", "augen": 40}])
    assert error.code == "cego.forfeit_only" and error.field == "augen"
    assert error.message(with_entry=False) == ("the player at fault decides the game: enter no "
                                               "Augen")
    error = refusal([{"contract": "raeuber", "announcer": "B", "forfeit": "C", "losers": ["C"]}])
    assert error.message(with_entry=False) == ("the player at fault decides the game: enter no "
                                               "who lost")
    error = refusal([{"contract": "cego", "declarer": "B", "forfeit": "Karl"}])
    assert error.code == "cego.not_playing" and error.field == "forfeit"


def test_rule_options_that_clash_or_are_not_names_with_numbers():
    for rules in ({"bid_multipliers": {"solo": 2}}, {"fixed_games": {"ultimo": 100}},
                  {"bid_multipliers": {"cego": 1, "leere": 4}, "fixed_games": {"leere": 30}},
                  {"fixed_games": {"raeuber": 10}}):
        error = refusal([], rules)
        assert error.code == "cego.contract_clash", rules
    assert refusal([], {"bid_multipliers": {"solo": 2}}).message() == (
        "“solo” is already a contract of this game, it cannot be added again")
    for bad in ({"Leere": 4}, {"leere": 0}, {"leere": 101}, {"leere": True}, {"": 1}, [1],
                "cego", {"leere": 2.0}, {f"b{i}": 1 for i in range(31)}):
        error = refusal([], {"bid_multipliers": bad})
        assert error.code == "bad_mapping_option", bad
    assert refusal([], {"bid_multipliers": {"leere": 0}}).message() == (
        "the rule “the Cego bids played and what their Fach are multiplied by” cannot be "
        "{\"leere\": 0}: give each name (small letters, digits and _) a whole number from 1 "
        "to 100")
    assert refusal([], {"games": 0}).code == "bad_option"
    assert refusal([], {"games": "24"}).code == "bad_option"
    assert refusal([], {"counting": "fours"}).code == "bad_option"
    assert refusal([], {"bogus": 1}).code == "unknown_option"


# --- 3 and 5 players ----------------------------------------------------------------------------

def test_three_players_69_augen_35_to_win_and_the_declarer_against_two():
    three = ["A", "B", "C"]
    table = replay([{"contract": "cego", "declarer": "B", "augen": 35},
                    {"contract": "eine", "declarer": "C", "defender_augen": 35},
                    {"contract": "raeuber", "announcer": "A",
                     "augen": {"A": 10, "B": 30, "C": 20}}], {"counting": "threes"}, three)
    summary = table.summary()
    assert (summary["augen_total"], summary["augen_to_win"], summary["tricks"]) == (69, 35, 13)
    rows = engine.history(table)
    assert rows[0]["points"] == {"A": -10, "B": 20, "C": -10}  # 35 of 69 wins
    assert rows[1]["points"] == {"A": 20, "B": 20, "C": -40}  # 34: lost, 1 Fach x 3 = 15 -> 20
    assert rows[2]["points"] == {"A": 40, "B": -80, "C": 40}
    assert summary["sits_out"] is None and summary["next_dealer"] == "A"
    error = refusal([{"contract": "raeuber", "announcer": "A",
                      "augen": {"A": 2, "B": 5, "C": 5}}], {"counting": "threes"}, three)
    assert error.message(with_entry=False) == ("the 3 counts add up to 12, but the 39 cards in "
                                               "the tricks alone count at least 13")


def test_five_players_the_dealer_sits_out_and_pays_as_a_defender():
    five = P4 + ["E"]
    table = replay([{"contract": "cego", "declarer": "B", "augen": 44},
                    {"contract": "raeuber", "announcer": "C",
                     "augen": {"A": 30, "C": 20, "D": 17, "E": 12}},
                    {"contract": "solo", "declarer": "A", "augen": 30}], players=five)
    rows = engine.history(table)
    assert [r["sits_out"] for r in rows] == ["A", "B", "C"]
    assert rows[0]["points"] == {"A": -10, "B": 40, "C": -10, "D": -10, "E": -10}
    assert rows[1]["points"] == {"A": -160, "B": 40, "C": 40, "D": 40, "E": 40}
    assert rows[2]["points"] == {"A": -40, "B": 10, "C": 10, "D": 10, "E": 10}  # 2 Fach
    summary = table.summary()
    assert summary["sits_out"] == summary["next_dealer"] == "D"
    assert summary["augen_total"] == 79 and summary["tricks"] == 11
    assert sum(scores(table).values()) == 0


def test_the_deal_goes_round_from_the_first_dealer():
    table = replay(WORKED_HANDS[:5], first_dealer="C")
    assert [r["dealer"] for r in engine.history(table)] == ["C", "D", "A", "B", "C"]
    assert table.summary()["next_dealer"] == "D"


# --- the declarer-only list --------------------------------------------------------------------

def test_declarer_only_writes_the_list_and_settles_the_same_money():
    each = replay(WORKED_HANDS, {"cents_per_point": 5})
    only = replay(WORKED_HANDS, {"cents_per_point": 5, "settlement": "declarer-only"})
    assert scores(only) == {"A": 100, "B": -120, "C": 100, "D": -150}
    assert field(only, "list") == field(each, "list")
    assert field(only, "balance_cents") == field(each, "balance_cents") == {
        "A": 2350, "B": -2050, "C": 2350, "D": -2650}
    rows = engine.history(only)
    assert rows[0]["points"] == {"A": 0, "B": 10, "C": 0, "D": 0}
    assert rows[-1]["totals"] == {"A": 100, "B": -120, "C": 100, "D": -150}
    assert only.summary()["settlement"] == "declarer-only"


# --- forfeits ------------------------------------------------------------------------------------

def test_a_declarer_at_fault_loses_and_a_defender_at_fault_makes_him_win():
    lost = one_game({"contract": "halbe", "declarer": "D", "forfeit": "D"})
    assert (lost["result"], lost["fach"], lost["value"], lost["forfeit"]) == ("lost", 1, 10, "D")
    won = one_game({"contract": "eine", "declarer": "D", "forfeit": "A"})
    assert (won["result"], won["value"], won["points"]["D"]) == ("won", 20, 60)
    solo = one_game({"contract": "solo", "declarer": "D", "forfeit": "A"}, {"forfeit_fach": 3})
    assert (solo["fach"], solo["value"]) == (3, 30)
    assert one_game({"contract": "solo", "declarer": "D", "forfeit": "D"},
                    {"forfeit_fach": 3})["value"] == 20  # 15 -> 20
    ultimo = one_game({"contract": "ultimo", "declarer": "D", "forfeit": "B"})
    assert (ultimo["result"], ultimo["value"], ultimo["fach"]) == ("won", 80, None)
    assert one_game({"contract": "bettel", "declarer": "D", "forfeit": "D"})["points"]["D"] == -90


def test_in_raeuber_the_player_at_fault_is_the_only_loser():
    row = one_game({"contract": "raeuber", "announcer": "B", "forfeit": "C"})
    assert row["losers"] == {"C": 40} and row["points"]["C"] == -120
    row = one_game({"contract": "raeuber", "announcer": "B", "forfeit": "B"})
    assert row["losers"] == {"B": 80} and row["points"] == {"A": 80, "B": -240, "C": 80, "D": 80}


# --- Räuber's options -------------------------------------------------------------------------

TIE_WITH_CALLER = {"contract": "raeuber", "announcer": "B",
                   "augen": {"A": 25, "B": 25, "C": 18, "D": 11}}
TIE_WITHOUT_CALLER = {"contract": "raeuber", "announcer": "B",
                      "augen": {"A": 25, "B": 18, "C": 25, "D": 11}}


def test_raeuber_tie_all_lose():
    row = one_game(TIE_WITH_CALLER, {"raeuber_tie": "all-lose"})
    assert row["losers"] == {"A": 40, "B": 80}
    # A pays 40 to each and gets 80 from B; B pays 80 to each and gets 40 from A
    assert row["points"] == {"A": -120 + 80, "B": -240 + 40, "C": 120, "D": 120}
    assert row["list"] == {"A": -40, "B": -80, "C": 0, "D": 0}


def test_raeuber_tie_without_the_caller_can_leave_nobody_losing():
    row = one_game(TIE_WITHOUT_CALLER, {"raeuber_no_caller_tie": "nobody-loses"})
    assert row["losers"] == {} and row["value"] == 0
    assert set(row["points"].values()) == {0}
    row = one_game(TIE_WITH_CALLER, {"raeuber_no_caller_tie": "nobody-loses"})
    assert row["losers"] == {"B": 80}  # the caller's tie is raeuber_tie's


def test_raeuber_value_and_caller_factor_and_quick_entry_losers():
    rules = {"raeuber_value": 30, "raeuber_caller_factor": 1}
    row = one_game(TIE_WITH_CALLER, rules)
    assert row["losers"] == {"B": 30}
    row = one_game({"contract": "raeuber", "announcer": "C", "losers": ["D", "B"]})
    assert row["losers"] == {"B": 40, "D": 40}
    assert row["points"] == {"A": 80, "B": -80, "C": 80, "D": -80}


# --- the other options ------------------------------------------------------------------------

def test_every_option_has_its_default():
    assert base.resolve(cego.OPTIONS, {}) == {
        "counting": "pairs", "settlement": "each-opponent",
        "bid_multipliers": {"cego": 1, "halbe": 2, "eine": 3}, "fixed_games": {},
        "points_per_fach": 5, "fach_augen": 5, "round_to": 10, "round_losses": True,
        "solo_win_multiplier": 2, "solo_loss_multiplier": 1, "solo_rounding": "once",
        "ultimo_value": 80, "piccolo_value": 40, "bettel_value": 30, "raeuber_value": 40,
        "raeuber_caller_factor": 2, "raeuber_tie": "caller-loses",
        "raeuber_no_caller_tie": "all-lose", "forfeit_fach": 1, "games": None,
        "display": "plus-minus", "cents_per_point": 0}
    rules = base.resolve(cego.OPTIONS, {"games": 24, "bid_multipliers": {"leere": 4}})
    assert base.non_default(cego.OPTIONS, rules) == {"games": 24,
                                                        "bid_multipliers": {"leere": 4}}
    assert base.resolve(cego.OPTIONS, {"games": None})["games"] is None


def test_fach_width_points_rounding_and_losses():
    entry = {"contract": "cego", "declarer": "B", "augen": 52}
    assert one_game(entry, {"fach_augen": 3})["fach"] == 5  # (52 - 40) // 3 + 1
    assert one_game(entry, {"points_per_fach": 1, "round_to": 1})["value"] == 3
    assert one_game(entry, {"round_to": 1})["value"] == 15
    lost = {"contract": "cego", "declarer": "B", "augen": 39}
    assert one_game(lost)["value"] == 10
    assert one_game(lost, {"round_losses": False})["value"] == 5
    assert one_game({"contract": "cego", "declarer": "B", "augen": 44},
                    {"round_losses": False})["value"] == 10  # wins are still rounded


def test_solo_multipliers_and_fixed_values():
    won = {"contract": "solo", "declarer": "A", "augen": 52}
    assert one_game(won, {"solo_win_multiplier": 3})["value"] == 50  # 45 -> 50
    lost = {"contract": "solo", "declarer": "A", "augen": 30}
    assert one_game(lost, {"solo_loss_multiplier": 2})["value"] == 20
    assert one_game({"contract": "ultimo", "declarer": "A", "won": False},
                    {"ultimo_value": 100})["points"]["A"] == -300
    assert one_game({"contract": "piccolo", "declarer": "A", "won": True},
                    {"piccolo_value": 50})["value"] == 50
    assert one_game({"contract": "bettel", "declarer": "A", "tricks": 3},
                    {"bettel_value": 20})["points"]["A"] == -60


def test_local_fixed_games():
    rules = {"fixed_games": {"grebsler": 50}}
    row = one_game({"contract": "grebsler", "declarer": "A", "won": True}, rules)
    assert (row["value"], row["points"]["A"], row["title"]) == (50, 150, "Grebsler")
    error = refusal([{"contract": "grebsler", "declarer": "A", "augen": 50}], rules)
    assert error.code == "cego.not_counted"
    assert error.message(with_entry=False) == ("Grebsler is not counted in Augen; say whether "
                                               "it was won")
    kinds = {c["contract"]: (c["kind"], c["value"], c["multiplier"])
             for c in replay([], rules).summary()["contracts"]}
    assert kinds["grebsler"] == ("fixed", 50, None) and kinds["eine"] == ("fach", None, 3)
    assert [c["contract"] for c in replay([]).summary()["contracts"]] == [
        "ultimo", "solo", "piccolo", "bettel", "cego", "halbe", "eine", "raeuber"]


def test_the_summary_text_says_the_default_numbers():
    rules = base.resolve(cego.OPTIONS, {})
    count = cego.count(4, "pairs")
    text = cego.SUMMARY
    for said in (f"needs {count.to_win} of {count.total}",
                 f"every {rules['fach_augen']} Augen of the margin are a Fach worth "
                 f"{rules['points_per_fach']} points",
                 f"Halbe {rules['bid_multipliers']['halbe']}, "
                 f"Eine {rules['bid_multipliers']['eine']}",
                 f"rounded to {rules['round_to']}", f"Ultimo is worth {rules['ultimo_value']}",
                 f"Piccolo {rules['piccolo_value']}", f"Bettel {rules['bettel_value']}",
                 f"loses {rules['raeuber_value']}, the caller "
                 f"{rules['raeuber_value'] * rules['raeuber_caller_factor']}"):
        assert said in text, said
    assert rules["solo_win_multiplier"] == 2 and "Solo wins double" in text


def test_a_list_ended_early_keeps_its_money_and_nobody_deals():
    table = replay(WORKED_HANDS[:3], {"cents_per_point": 2}, P4 + ["E"])
    summary = table.summary()
    assert summary["sits_out"] == "D"
    ended = cego.Table.ended(summary, table.rules)
    assert ended["next_dealer"] is ended["dealer"] is ended["sits_out"] is None
    assert ended["deals_on"] == "D" and ended["players"] == summary["players"]


def test_display_and_money_are_carried():
    table = replay(WORKED_HANDS[:1], {"display": "gute-miese", "cents_per_point": 10})
    assert table.summary()["display"] == "gute-miese"
    assert field(table, "balance_cents") == {"A": -100, "B": 300, "C": -100, "D": -100}
    assert field(replay(WORKED_HANDS[:1]), "balance_cents") == dict.fromkeys(P4, 0)


# --- keys, names and snapshots ----------------------------------------------------------------

def test_keys_another_contract_does_not_take():
    for entry in ({"contract": "cego", "declarer": "A", "augen": 50, "tricks": 3},
                  {"contract": "ultimo", "declarer": "A", "won": True, "tricks": 11},
                  {"contract": "raeuber", "announcer": "A", "declarer": "A", "losers": ["B"]},
                  {"contract": "cego", "declarer": "A", "augen": 50, "colour": "red"}):
        assert refusal([entry]).code == "unknown_key", entry
    assert refusal(["cego"]).code == "entry_not_object"


def test_renaming_a_player_leaves_the_contract_alone():
    entry = {"contract": "solo", "declarer": "solo", "augen": 50}
    assert cego.Table.renamed(entry, "solo", "Sepp") == {"contract": "solo", "declarer": "Sepp",
                                                         "augen": 50}
    raeuber = {"contract": "raeuber", "announcer": "A", "augen": {"A": 30, "B": 49}}
    assert cego.Table.renamed(raeuber, "A", "Anna") == {"contract": "raeuber",
                                                        "announcer": "Anna",
                                                        "augen": {"Anna": 30, "B": 49}}


def test_a_restored_snapshot_plays_on_the_same():
    rec = records_cego.random_record(12, 5, players=5, rules={"settlement": "declarer-only"})
    head = engine.replay({**rec, "hands": rec["hands"][:6]})
    table = engine.restore(cego.Table, json.loads(json.dumps(engine.snapshot(head))))
    assert table.summary() == head.summary()
    for entry in rec["hands"][6:]:
        engine.apply(table, entry)
    full = engine.replay(rec)
    assert table.summary() == full.summary()
    assert engine.history(table) == engine.history(full)[6:]


def test_messages_in_german_and_dutch():
    error = refusal([{"contract": "cego", "declarer": "B", "augen": 44, "defender_augen": 36}])
    assert error.message(DE, with_entry=False) != error.message(with_entry=False)
    assert "44 + 36 = 80" in error.message(DE) and "79" in error.message(NL)
    error = refusal([{"contract": "ultimo", "declarer": "C", "augen": 41}])
    assert "Ultimo" in error.message(DE) and "Augen" in error.message(NL)


# --- properties --------------------------------------------------------------------------------

SEEDS = st.integers(0, 10**6)


@settings(max_examples=60, deadline=None)
@given(seed=SEEDS)
def test_each_opponent_every_game_adds_up_to_0_and_money_is_score_times_cents(seed):
    rec = records_cego.varied(40, seed)
    rec["rules"] = {**rec["rules"], "settlement": "each-opponent"}
    table = engine.replay(rec)
    for row in engine.history(table):
        assert sum(row["points"].values()) == 0
    cents = rec["rules"].get("cents_per_point", 0)
    players = table.summary()["players"]
    assert sum(p["score"] for p in players) == 0
    assert all(p["balance_cents"] == p["score"] * cents for p in players)


@settings(max_examples=60, deadline=None)
@given(seed=SEEDS, cents=st.integers(0, 100))
def test_declarer_only_and_each_opponent_give_the_same_money_and_the_identity_holds(seed, cents):
    rec = records_cego.varied(40, seed)
    each = engine.replay({**rec, "rules": {**rec["rules"], "settlement": "each-opponent",
                                           "cents_per_point": cents}})
    only = engine.replay({**rec, "rules": {**rec["rules"], "settlement": "declarer-only",
                                           "cents_per_point": cents}})
    n = len(rec["players"])
    for a, b in zip(engine.history(each), engine.history(only), strict=True):
        assert a["list"] == b["list"] == b["points"]
        assert a["points"] == {p: n * s - sum(a["list"].values()) for p, s in a["list"].items()}
    assert ([p["balance_cents"] for p in each.summary()["players"]]
            == [p["balance_cents"] for p in only.summary()["players"]])
    assert [p["list"] for p in only.summary()["players"]] == \
        [p["score"] for p in only.summary()["players"]]


NAMES = ["Anna", "Bernd", "Carla", "Dieter", "Erna", "Karl", "solo"]
VALUES = st.one_of(st.none(), st.booleans(), st.integers(-3, 90), st.floats(allow_nan=True),
                   st.sampled_from(NAMES), st.text(max_size=3),
                   st.lists(st.sampled_from(NAMES), max_size=4),
                   st.dictionaries(st.sampled_from(NAMES), st.integers(-3, 90), max_size=5),
                   st.sampled_from([10**20, 2**63]))
ENTRY = st.dictionaries(
    st.sampled_from(["contract", "declarer", "announcer", "augen", "defender_augen", "won",
                     "tricks", "losers", "forfeit", "other"]),
    VALUES | st.sampled_from(["cego", "halbe", "eine", "solo", "ultimo", "piccolo", "bettel",
                              "raeuber", "leere", "grebsler"]), max_size=5)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, picks=st.lists(st.tuples(st.integers(0, 40), ENTRY), max_size=4))
def test_replay_of_a_record_with_random_entries_raises_nothing_but_rule_errors(seed, picks):
    rec = records_cego.varied(30, seed)
    hands: list[Any] = list(rec["hands"])
    for at, entry in picks:
        hands.insert(min(at, len(hands)), entry)
    rules = {k: v for k, v in rec["rules"].items() if k != "games"}
    try:
        table = engine.replay({**rec, "rules": rules, "hands": hands})
    except RuleError as error:
        assert error.entry is not None
        assert error.message()
    else:
        assert sum(p["balance_cents"] for p in table.summary()["players"]) == 0


@settings(max_examples=40, deadline=None)
@given(seed=SEEDS)
def test_generated_records_replay_and_their_summaries_are_json(seed):
    rec = records_cego.varied(30, seed)
    table = engine.replay(rec)
    summary = table.summary()
    assert json.loads(json.dumps(summary)) == summary
    assert summary["hands_played"] == len(rec["hands"])
    assert summary["finished"] == (rec["rules"].get("games") == len(rec["hands"]))
