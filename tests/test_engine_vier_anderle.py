"""Vier-Anderle: pot, hand types, payments, table changes and the end of the evening."""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import DE

from scorekeeper import engine
from scorekeeper.engine import base, errors, record
from scorekeeper.engine import vier_anderle as va
from scorekeeper.engine.errors import RuleError

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from records_vier_anderle import random_record  # noqa: E402

SIX = ["A", "B", "C", "D", "E", "F"]
TRICKS = va.TRICKS


def make_record(hands: list[Any], players: list[str] | None = None, rules: dict[str, Any] | None
                = None, first_dealer: str | None = None) -> dict[str, Any]:
    rec: dict[str, Any] = {"format": record.FORMAT, "game": va.NAME, "rules": rules or {},
                           "players": players or list(SIX), "hands": hands}
    if first_dealer is not None:
        rec["first_dealer"] = first_dealer
    return rec


def replay(rec: dict[str, Any]) -> va.Table:
    """record.replay, but straight through this module (the other games need not exist)."""
    players = rec["players"]
    table = va.Table(players, rec.get("first_dealer", players[0]), rec.get("rules"))
    record.apply_all(table, rec["hands"])
    return table


def play(hands: list[Any], **kwargs: Any) -> dict[str, Any]:
    return engine.report(replay(make_record(hands, **kwargs)))


def balances(report: dict[str, Any]) -> dict[str, int]:
    return {p["name"]: p["balance"] for p in report["players"]}


def fails(hands: list[Any], **kwargs: Any) -> RuleError:
    with pytest.raises(RuleError) as info:
        replay(make_record(hands, **kwargs))
    return info.value


def table_of(players: list[str] | None = None, **rules: Any) -> va.Table:
    players = players or list(SIX)
    return va.Table(players, players[0], rules)


def conserved(report: dict[str, Any]) -> bool:
    return sum(p["balance"] for p in report["players"]) + report["pot"] == report["starting_pot"]


HAND_1 = {"tricks": {"A": 2, "B": 1, "C": 1}}
HAND_2 = {"playing": ["B", "C", "D", "E"], "tricks": {"C": 1, "D": 3}}


# --- the seed examples -----------------------------------------------------------------------


def test_seed_example_type_1_losers_pay_what_was_in_the_pot() -> None:
    report = play([HAND_1])
    assert {k: v for k, v in report.items() if k not in ("history", "rules")} == {
        "game": "vier-anderle",
        "hands_played": 1,
        "next_dealer": "B",
        "finished": False,
        "players": [
            {"name": "A", "balance": -4, "balance_cents": -40, "seated": True,
             "hands": 1, "best_win": 0, "best_win_hand": 0},
            {"name": "B", "balance": 0, "balance_cents": 0, "seated": True,
             "hands": 1, "best_win": 0, "best_win_hand": 0},
            {"name": "C", "balance": 0, "balance_cents": 0, "seated": True,
             "hands": 1, "best_win": 0, "best_win_hand": 0},
            {"name": "D", "balance": -4, "balance_cents": -40, "seated": True,
             "hands": 1, "best_win": 0, "best_win_hand": 0},
            {"name": "E", "balance": -4, "balance_cents": -40, "seated": True,
             "hands": 1, "best_win": 0, "best_win_hand": 0},
            {"name": "F", "balance": -4, "balance_cents": -40, "seated": True,
             "hands": 1, "best_win": 0, "best_win_hand": 0},
        ],
        "pot": 16,
        "next_hand_type": 2,
        "seated": SIX,
        "dealer": "B",
        "last_dealer": "A",
        "pot_cents": 160,
        "starting_pot": 0,
        "can_close": True,
    }
    assert report["history"] == [{
        "kind": "hand", "hand": 1, "dealer": "A", "type": 1, "P": 4,
        "playing": SIX, "tricks": {"A": 2, "B": 1, "C": 1, "D": 0, "E": 0, "F": 0},
        "payments": {"A": -4, "B": 0, "C": 0, "D": -4, "E": -4, "F": -4},
        "pot": 16, "table": None, "joined": None, "left": None,
    }]


def test_seed_example_type_2_tricks_pay_a_quarter_and_players_without_one_pay_p() -> None:
    report = play([HAND_1, HAND_2])
    assert report["pot"] == 40
    assert report["next_hand_type"] == 2
    assert report["next_dealer"] == "C"
    assert report["hands_played"] == 2
    assert balances(report) == {"A": -4, "B": -24, "C": 5, "D": 11, "E": -24, "F": -4}
    assert report["history"][1] == {
        "kind": "hand", "hand": 2, "dealer": "B", "type": 2, "P": 20,
        "playing": ["B", "C", "D", "E"], "tricks": {"B": 0, "C": 1, "D": 3, "E": 0},
        "payments": {"A": 0, "B": -24, "C": 5, "D": 15, "E": -20, "F": 0},
        "pot": 40, "table": None, "joined": None, "left": None,
    }
    assert conserved(report)


def test_seed_examples_replay_through_the_game_registry() -> None:
    for module in ("hintersche", "hartenjagen"):
        pytest.importorskip(f"scorekeeper.engine.{module}")
    table = record.replay(make_record([HAND_1, HAND_2]))
    assert engine.report(table) == play([HAND_1, HAND_2])


def test_seed_record_survives_a_json_round_trip() -> None:
    rec = json.loads(json.dumps(make_record([HAND_1, HAND_2])))
    report = engine.report(replay(rec))
    assert json.loads(json.dumps(report)) == report
    assert report["pot"] == 40


# --- deck, players, dealing ------------------------------------------------------------------


def test_player_limits_come_from_the_cego_pack() -> None:
    assert va.MIN_PLAYERS == 2
    assert va.MAX_PLAYERS == len(va.cego_pack(with_pips=True)) // va.CARDS_PER_PLAYER == 13
    assert va.cego_pack_for(va.MAX_PLAYERS) is not None
    assert va.cego_pack_for(va.MAX_PLAYERS + 1) is None
    assert va.TRICKS == va.CARDS_PER_PLAYER == 4


def test_thirteen_players_may_sit_and_fourteen_may_not() -> None:
    names = [f"P{i}" for i in range(va.MAX_PLAYERS + 1)]
    assert engine.report(table_of(names[:-1]))["seated"] == names[:-1]
    with pytest.raises(RuleError) as info:
        table_of(names)
    assert info.value.code == "player_count"
    with pytest.raises(RuleError) as info:
        table_of(["A"])
    assert info.value.code == "player_count"


def test_first_dealer_deals_first_and_the_deal_passes_to_the_left() -> None:
    table = va.Table(["A", "B", "C"], "C", {})
    assert engine.report(table)["next_dealer"] == "C"
    engine.apply(table, {"tricks": {"A": 4}})
    assert balances(engine.report(table))["C"] == -4 - 4  # ante, and no trick
    assert engine.report(table)["next_dealer"] == "A"
    engine.apply(table, {"tricks": {"A": 4}})
    assert engine.report(table)["next_dealer"] == "B"
    assert engine.report(table)["history"][1]["dealer"] == "A"


def test_the_first_dealer_must_be_a_player() -> None:
    with pytest.raises(RuleError) as info:
        va.Table(["A", "B"], "Z", {})
    assert (info.value.code, info.value.field) == ("unknown_player", "first_dealer")


# --- type 1 ----------------------------------------------------------------------------------


def test_empty_pot_makes_a_type_1_hand_where_only_the_dealer_antes_when_all_take_a_trick(
) -> None:
    report = play([{"tricks": {"A": 1, "B": 1, "C": 1, "D": 1}}], players=["A", "B", "C", "D"])
    assert report["pot"] == 4
    assert balances(report) == {"A": -4, "B": 0, "C": 0, "D": 0}
    assert report["next_hand_type"] == 2


def test_type_1_dealer_without_a_trick_pays_the_ante_and_p() -> None:
    report = play([{"tricks": {"B": 4}}], players=["A", "B", "C"])
    assert balances(report) == {"A": -8, "B": 0, "C": -4}
    assert report["pot"] == 12


def test_type_1_accepts_playing_naming_everybody() -> None:
    assert play([{"playing": list(reversed(SIX)), **HAND_1}]) == play([HAND_1])


def test_type_1_with_somebody_dropping_is_an_error() -> None:
    error = fails([{"playing": ["A", "B", "C"], "tricks": {"A": 2, "B": 1, "C": 1}}])
    assert error.code == "vier-anderle.everybody_plays"
    assert error.field == "playing"
    assert error.params["missing"] == ["D", "E", "F"]
    assert error.message() == "entry 1: the pot is empty, so everybody plays this hand"
    assert error.message(DE) == ("Eintrag 1: der Pot ist leer, deshalb spielen bei dieser "
                                   "Hand alle mit")


def test_after_a_hand_that_empties_the_pot_the_next_hand_is_type_1_again() -> None:
    report = play([HAND_1, {"playing": ["C"]}])
    assert report["pot"] == 0
    assert report["next_hand_type"] == 1
    with pytest.raises(RuleError) as info:
        replay(make_record([HAND_1, {"playing": ["C"]}, {"playing": ["A", "B"],
                                                         "tricks": {"A": 4}}]))
    assert info.value.code == "vier-anderle.everybody_plays"


# --- type 2 ----------------------------------------------------------------------------------


def test_type_2_without_playing_means_everybody_played() -> None:
    report = play([HAND_1, {"tricks": {"A": 2, "F": 2}}])
    # P = 20: A and F get 10 each, B..E pay 20, the dealer B also antes 4
    assert balances(report) == {"A": 6, "B": -24, "C": -20, "D": -24, "E": -24, "F": 6}
    assert report["pot"] == 80


def test_type_2_pot_is_emptied_when_every_player_takes_a_trick() -> None:
    report = play([HAND_1, {"playing": ["A", "D"], "tricks": {"A": 1, "D": 3}}])
    assert report["pot"] == 0
    assert balances(report) == {"A": 1, "B": -4, "C": 0, "D": 11, "E": -4, "F": -4}
    assert report["next_hand_type"] == 1


def test_one_player_alone_takes_the_whole_pot_and_nobody_pays() -> None:
    report = play([HAND_1, {"playing": ["E"], "tricks": {"E": 4}}])
    assert report["pot"] == 0
    assert balances(report)["E"] == -4 + 20
    assert balances(report)["B"] == -4
    assert report["history"][1]["payments"] == {"A": 0, "B": -4, "C": 0, "D": 0, "E": 20, "F": 0}


def test_one_player_alone_may_leave_out_the_tricks() -> None:
    assert play([HAND_1, {"playing": ["E"]}]) == play([HAND_1, {"playing": ["E"],
                                                                "tricks": {"E": 4}}])


def test_one_player_alone_must_take_all_four_tricks() -> None:
    error = fails([HAND_1, {"playing": ["E"], "tricks": {"E": 3}}])
    assert (error.code, error.field) == ("vier-anderle.trick_count", "tricks")


def test_nobody_plays_the_ante_stays_in_the_pot_by_default() -> None:
    report = play([HAND_1, {"playing": []}])
    assert report["pot"] == 20
    assert balances(report)["B"] == -4
    assert report["next_dealer"] == "C"
    assert report["hands_played"] == 2
    assert report["history"][1]["playing"] == []
    assert report["history"][1]["tricks"] == {}


def test_nobody_plays_with_ante_back_the_dealer_gets_it_back() -> None:
    report = play([HAND_1, {"playing": [], "tricks": {}}], rules={"nobody_plays": "ante-back"})
    assert report["pot"] == 16
    assert balances(report)["B"] == 0
    assert report["history"][1]["payments"]["B"] == 0
    assert report["next_dealer"] == "C"


def test_nobody_plays_with_nobody_named_is_fine() -> None:
    assert play([HAND_1, {"playing": [], "tricks": {}}])["pot"] == 20


def test_a_hand_that_names_a_player_who_did_not_play_is_refused_even_with_zero() -> None:
    error = fails([HAND_1, {"playing": [], "tricks": {"A": 0}}])
    assert (error.code, error.field) == ("vier-anderle.not_playing", "A")
    assert error.message() == "entry 2: A did not play this hand"


def test_player_who_did_not_play_cannot_have_a_trick() -> None:
    error = fails([HAND_1, {"playing": ["B", "C", "D"], "tricks": {"C": 1, "D": 2, "Karl": 1}}],
                  players=SIX + ["Karl"])
    assert error.code == "vier-anderle.did_not_play"
    assert error.field == "Karl"
    assert error.message() == "entry 2: Karl did not play this hand but has 1 trick"
    assert error.message(DE) == ("Eintrag 2: Karl hat bei dieser Hand nicht mitgespielt, hat "
                                   "aber 1 Stich")
    error = fails([HAND_1, {"playing": ["B", "C"], "tricks": {"C": 2, "D": 2}}])
    assert error.message() == "entry 2: D did not play this hand but has 2 tricks"


def test_a_player_no_longer_seated_is_refused() -> None:
    error = fails([HAND_1, {"table": ["A", "B", "C"]}, {"tricks": {"A": 2, "D": 2}}])
    assert (error.entry, error.code, error.field) == (3, "vier-anderle.not_seated", "D")


# --- tricks ----------------------------------------------------------------------------------


def test_tricks_must_add_up_to_four() -> None:
    error = fails([{"tricks": {"A": 2, "B": 2, "C": 1}}])
    assert (error.code, error.field) == ("vier-anderle.trick_count", "tricks")
    assert error.params == {"tricks": TRICKS, "total": 5}
    assert error.message() == "entry 1: 4 tricks in a hand, you entered 5"
    assert error.message(DE) == "Eintrag 1: eine Hand hat 4 Stiche, eingetragen sind 5"


def test_too_few_tricks_are_an_error() -> None:
    error = fails([{"tricks": {"A": 3}}])
    assert error.message() == "entry 1: 4 tricks in a hand, you entered 3"


def test_a_player_cannot_have_more_tricks_than_a_hand_has() -> None:
    error = fails([{"tricks": {"A": 5}}])
    assert (error.code, error.field) == ("vier-anderle.bad_tricks", "A")
    assert error.message() == "entry 1: A cannot have 5 tricks, a hand has 4"
    assert error.message(DE) == "Eintrag 1: A kann nicht 5 Stiche haben, eine Hand hat 4"


def test_negative_tricks_are_an_error() -> None:
    error = fails([{"tricks": {"A": 5, "B": -1}}])
    assert (error.code, error.field) == ("vier-anderle.bad_tricks", "A")
    error = fails([{"tricks": {"B": -1, "A": 5}}])
    assert (error.code, error.field) == ("vier-anderle.bad_tricks", "B")


def test_huge_numbers_are_an_error_and_are_not_written_out() -> None:
    error = fails([{"tricks": {"A": 10 ** 5000}}])
    assert error.code == "vier-anderle.bad_tricks"
    assert error.message() == "entry 1: A cannot have >1000000 tricks, a hand has 4"
    error = fails([{"tricks": {"A": 1e300}}])
    assert error.code == "vier-anderle.bad_tricks"


def test_whole_floats_count_as_numbers() -> None:
    assert play([{"tricks": {"A": 2.0, "B": 1, "C": 1}}]) == play([HAND_1])


def test_tricks_are_required_when_more_than_one_plays() -> None:
    error = fails([{}])
    assert (error.code, error.field) == ("missing_key", "tricks")
    error = fails([HAND_1, {"playing": ["A", "B"]}])
    assert (error.code, error.field) == ("missing_key", "tricks")


def test_unknown_player_in_tricks_is_an_error_on_that_name() -> None:
    error = fails([{"tricks": {"A": 2, "Zorro": 2}}])
    assert (error.code, error.field) == ("unknown_player", "Zorro")
    assert error.message() == "entry 1: Zorro does not play in this game"


# --- rule options ----------------------------------------------------------------------------


def test_options_have_the_defaults_of_the_spec() -> None:
    assert table_of().rules == {"ante": 4, "stake_cents": 10, "nobody_plays": "ante-stays",
                                "pot_at_end": "carry", "starting_pot": 0}
    for option in va.OPTIONS:
        assert isinstance(option.help, errors.Words)
        for choice in option.choices:
            assert isinstance(option.labels[choice], errors.Words)


def test_ante_option_sets_what_the_dealer_pays_in() -> None:
    report = play([HAND_1, HAND_2], rules={"ante": 8})
    # hand 1: P = 8, D E F pay 8 -> pot 32; hand 2: P = 40, C gets 10, D 30, B and E pay 40
    assert report["pot"] == 80
    assert balances(report) == {"A": -8, "B": -48, "C": 10, "D": 22, "E": -48, "F": -8}


@pytest.mark.parametrize("rules", [{"ante": 6}, {"ante": 0}, {"ante": -4}, {"ante": "4"},
                                   {"ante": True}, {"starting_pot": 10}, {"starting_pot": -4},
                                   {"stake_cents": -1}, {"nobody_plays": "ante-gone"},
                                   {"pot_at_end": "keep"}, {"stake_cents": 2.5}])
def test_bad_option_values_are_refused(rules: dict[str, Any]) -> None:
    with pytest.raises(RuleError) as info:
        table_of(**rules)
    assert info.value.code == "bad_option"
    assert info.value.field == next(iter(rules))


def test_unknown_option_is_refused() -> None:
    with pytest.raises(RuleError) as info:
        table_of(tarock=True)
    assert info.value.code == "unknown_option"


def test_stake_cents_turns_stakes_into_money() -> None:
    report = play([HAND_1, HAND_2], rules={"stake_cents": 50})
    for player in report["players"]:
        assert player["balance_cents"] == player["balance"] * 50
    assert report["pot_cents"] == 40 * 50
    assert balances(report) == balances(play([HAND_1, HAND_2]))


def test_starting_pot_makes_the_first_hand_type_2() -> None:
    table = table_of(starting_pot=16)
    assert engine.report(table)["next_hand_type"] == 2
    assert engine.report(table)["pot"] == 16
    engine.apply(table, {"playing": ["B", "C", "D", "E"], "tricks": {"C": 1, "D": 3}},)
    report = engine.report(table)
    assert balances(report) == {"A": -4, "B": -20, "C": 5, "D": 15, "E": -20, "F": 0}
    assert report["pot"] == 40
    assert sum(balances(report).values()) + report["pot"] == 16 == report["starting_pot"]


def test_starting_pot_with_everybody_dropping_stays_type_2() -> None:
    error = fails([{"playing": ["B"], "tricks": {"B": 4}}, {"playing": ["A"]}],
                  rules={"starting_pot": 8})
    assert error.code == "vier-anderle.everybody_plays"
    assert error.entry == 2


# --- the end of the evening ------------------------------------------------------------------


def test_pot_at_end_carry_keeps_the_pot_in_the_kasse() -> None:
    table = replay(make_record([HAND_1, HAND_2]))
    result = va.close(table)
    assert result["pot_at_end"] == "carry"
    assert result["kasse"] == 40
    assert result["next_starting_pot"] == 40
    assert result["shares"] == {}
    assert result["balances"] == balances(engine.report(table))
    assert result["kasse_cents"] == 400


def test_pot_at_end_split_shares_among_those_seated_and_keeps_the_remainder() -> None:
    table = replay(make_record([HAND_1, HAND_2], rules={"pot_at_end": "split"}))
    result = va.close(table)
    assert result["shares"] == dict.fromkeys(SIX, 6)
    assert result["kasse"] == 4
    assert result["next_starting_pot"] == 4  # what cannot be split starts the next game
    assert result["balances"] == {"A": 2, "B": -18, "C": 11, "D": 17, "E": -18, "F": 2}
    assert result["balances_cents"]["C"] == 110
    assert sum(result["balances"].values()) + result["kasse"] == 0


def test_split_leaves_the_kasse_a_pot_the_next_game_can_play() -> None:
    # 40 stakes among 3: 13 each would leave 1, which no game can start with (quarters);
    # so 12 each, and the Kasse carries 4 into the next game.
    table = replay(make_record([HAND_1, HAND_2, {"table": ["A", "B", "C"]}],
                               rules={"pot_at_end": "split"}))
    result = va.close(table)
    assert result["shares"] == dict.fromkeys(["A", "B", "C"], 12)
    assert (result["kasse"], result["next_starting_pot"]) == (4, 4)


def test_split_only_pays_players_still_at_the_table() -> None:
    table = replay(make_record([HAND_1, {"table": ["A", "B", "C", "D"]}],
                               rules={"pot_at_end": "split"}))
    result = va.close(table)
    assert result["shares"] == dict.fromkeys(["A", "B", "C", "D"], 4)
    assert result["balances"]["E"] == -4
    assert result["kasse"] == 0


def test_pot_at_end_play_out_blocks_closing_while_the_pot_holds_money() -> None:
    table = replay(make_record([HAND_1], rules={"pot_at_end": "play-out"}))
    assert engine.report(table)["can_close"] is False
    with pytest.raises(RuleError) as info:
        va.close(table)
    assert (info.value.code, info.value.field) == ("vier-anderle.pot_not_empty", "pot")
    assert info.value.message() == ("there are still 16 stakes in the pot: the evening ends "
                                    "only with a hand that empties the pot")
    assert info.value.message(DE) == ("im Pot sind noch 16 Einsätze: der Abend endet erst "
                                        "mit einer Hand, die den Pot leert")
    engine.apply(table, {"playing": ["B"]})
    assert engine.report(table)["can_close"] is True
    result = va.close(table)
    assert result["kasse"] == 0 and result["pot"] == 0


def test_close_takes_a_report_as_well_as_a_table_and_changes_nothing() -> None:
    table = replay(make_record([HAND_1, HAND_2], rules={"pot_at_end": "split"}))
    report = engine.report(table)
    before = copy.deepcopy(report)
    assert va.close(report) == va.close(table)
    assert report == before == engine.report(table)
    assert va.close(report, pot_at_end="carry")["kasse"] == 40


def test_close_refuses_an_unknown_mode() -> None:
    with pytest.raises(RuleError) as info:
        va.close(table_of(), pot_at_end="burn")
    assert info.value.code == "bad_option"


# --- table changes ---------------------------------------------------------------------------


def test_a_table_change_is_an_entry_but_not_a_hand() -> None:
    report = play([HAND_1, {"table": ["A", "B", "C", "D", "E"]}])
    assert report["hands_played"] == 1
    assert len(report["history"]) == 2
    assert report["history"][1] == {
        "kind": "table", "hand": None, "dealer": "B", "type": None, "P": None,
        "playing": None, "tricks": None, "payments": None,
        "pot": 16, "table": ["A", "B", "C", "D", "E"], "joined": [], "left": ["F"],
    }
    assert report["pot"] == 16
    assert report["next_hand_type"] == 2


def test_whoever_leaves_keeps_their_balance_and_is_listed_as_not_seated() -> None:
    report = play([HAND_1, {"table": ["B", "C", "D", "E", "F"]}])
    assert report["seated"] == ["B", "C", "D", "E", "F"]
    assert report["players"][-1] == {"name": "A", "balance": -4, "balance_cents": -40,
                                     "seated": False, "hands": 1, "best_win": 0, "best_win_hand": 0}
    assert conserved(report)


def test_a_new_player_joins_with_nothing() -> None:
    report = play([HAND_1, {"table": ["A", "B", "G", "C", "D", "E", "F"]}, HAND_2])
    assert report["seated"] == ["A", "B", "G", "C", "D", "E", "F"]
    assert balances(report)["G"] == 0
    assert report["history"][1]["joined"] == ["G"]
    assert report["history"][2]["payments"]["G"] == 0
    assert conserved(report)


def test_players_list_seated_first_in_seating_order_then_the_departed() -> None:
    report = play([{"table": ["C", "G", "A"]}, {"tricks": {"G": 4}},
                   {"table": ["G", "H", "B"]}])
    assert [p["name"] for p in report["players"]] == ["G", "H", "B", "A", "C", "D", "E", "F"]
    assert [p["seated"] for p in report["players"]] == [True] * 3 + [False] * 5
    table = replay(make_record([{"table": ["C", "G", "A"]}, {"table": ["G", "H", "B"]}]))
    assert table.players == ["A", "B", "C", "D", "E", "F", "G", "H"]


def test_a_returning_player_keeps_the_old_balance() -> None:
    report = play([HAND_1, {"table": ["A", "B", "C"]}, {"table": ["A", "B", "C", "D"]}])
    assert balances(report)["D"] == -4
    assert report["history"][2]["joined"] == ["D"]


# After a table change the deal goes on as the seed says: "Nach jedem Blatt gibt der nächste
# Spieler links vom vorigen Geber" -- the player seated after the last dealer.

def test_after_a_table_change_the_player_seated_after_the_last_dealer_deals() -> None:
    # A dealt hand 1; in the new order F sits after A (round the table)
    report = play([HAND_1, {"table": ["F", "E", "B", "A"]}])
    assert report["next_dealer"] == "F" and report["last_dealer"] == "A"
    table = replay(make_record([HAND_1, {"table": ["F", "E", "B", "A"]}]))
    engine.apply(table, {"playing": ["A"]})
    assert engine.report(table)["history"][-1]["dealer"] == "F"
    assert engine.report(table)["next_dealer"] == "E"


def test_a_newcomer_seated_right_after_the_last_dealer_deals_next() -> None:
    report = play([HAND_1, {"table": ["A", "G", "B", "C", "D", "E", "F"]}])
    assert report["next_dealer"] == "G"
    assert report["history"][1]["dealer"] == "G"


def test_when_the_last_dealer_leaves_the_next_seated_player_after_them_deals() -> None:
    # B dealt hand 2 and leaves, and so does C, who was due to deal: D is next round the table
    report = play([HAND_1, HAND_2, {"table": ["A", "D", "E", "F"]}])
    assert report["next_dealer"] == "D"
    # A dealt and leaves with B: C, not the first of the new list
    assert play([HAND_1, {"table": ["E", "D", "C"]}])["next_dealer"] == "C"


def test_two_table_changes_in_a_row_go_on_from_the_same_last_dealer() -> None:
    # B dealt and left (C deals), then C leaves too before a hand: D, the next after B's seat
    report = play([HAND_1, HAND_2, {"table": ["A", "C", "D", "E", "F"]},
                   {"table": ["A", "D", "E", "F"]}])
    assert report["next_dealer"] == "D"
    # a newcomer who sits down between A and C does not take the deal C was given
    report = play([HAND_1, HAND_2, {"table": ["A", "C", "D", "E", "F"]},
                   {"table": ["A", "G", "C", "D", "E", "F"]}])
    assert report["next_dealer"] == "C"


def test_before_the_first_hand_the_first_dealer_keeps_the_deal_if_still_seated() -> None:
    assert engine.report(replay(make_record([{"table": ["C", "D", "A"]}])))["next_dealer"] == "A"
    assert play([{"table": ["E", "C", "B"]}])["next_dealer"] == "E"


def test_a_named_dealer_deals_and_the_deal_goes_on_from_them() -> None:
    report = play([HAND_1, {"table": ["A", "B", "C", "D"], "dealer": "D"},
                   {"table": ["A", "B", "C", "D", "G"]}])
    assert report["next_dealer"] == "D"
    table = replay(make_record([HAND_1, {"table": ["A", "B", "C", "D"], "dealer": "D"},
                                {"tricks": {"D": 4}}, {"table": ["A", "B", "C", "D", "G"]}]))
    assert engine.report(table)["next_dealer"] == "G"


def test_table_change_may_name_the_dealer() -> None:
    assert play([HAND_1, {"table": ["A", "B", "C", "G"], "dealer": "G"}])["next_dealer"] == "G"


def test_table_change_dealer_must_sit_at_the_new_table() -> None:
    error = fails([HAND_1, {"table": ["A", "B", "C"], "dealer": "F"}])
    assert (error.code, error.field) == ("vier-anderle.dealer_not_seated", "dealer")
    assert error.message() == "entry 2: F does not sit at the new table and cannot deal"
    error = fails([HAND_1, {"table": ["A", "B", "C"], "dealer": ["A"]}])
    assert (error.code, error.field) == ("vier-anderle.dealer_not_seated", "dealer")


def test_a_table_needs_two_players() -> None:
    error = fails([{"table": ["A"]}])
    assert (error.code, error.field) == ("vier-anderle.table_too_small", "table")
    assert error.message() == "entry 1: at least 2 players must sit at the table, there are 1"
    assert error.message(DE) == ("Eintrag 1: am Tisch müssen mindestens 2 Spieler sitzen, "
                                   "es sind 1")
    assert fails([{"table": []}]).code == "vier-anderle.table_too_small"


def test_a_table_must_fit_the_pack() -> None:
    names = [f"P{i}" for i in range(va.MAX_PLAYERS + 1)]
    error = fails([{"table": names}])
    assert (error.code, error.field) == ("vier-anderle.pack_too_small", "table")
    assert error.params["needed"] == 14 * va.CARDS_PER_PLAYER
    assert error.params["cards"] == len(va.cego_pack(with_pips=True))
    assert error.message() == ("entry 1: 14 players need 56 cards, the Cego pack has only 54 "
                               "even with the pip cards")
    assert play([{"table": names[:-1]}])["seated"] == names[:-1]


@pytest.mark.parametrize("table", ["A,B", ["A", 3], ["A", ""], ["A", "  "], {"A": 1}, None,
                                   ["A", ["B"]]])
def test_a_table_must_be_a_list_of_names(table: Any) -> None:
    error = fails([{"table": table}])
    assert (error.code, error.field) == ("vier-anderle.bad_table", "table")


def test_a_table_cannot_name_anybody_twice() -> None:
    error = fails([{"table": ["A", "B", "A"]}])
    assert (error.code, error.field) == ("duplicate_player", "table")


def test_who_left_cannot_play_or_take_tricks() -> None:
    error = fails([HAND_1, {"table": ["B", "C", "D", "E", "F"]}, HAND_2 | {"tricks": {"A": 4}}])
    assert error.code == "vier-anderle.not_seated"
    error = fails([HAND_1, {"table": ["B", "C", "D", "E", "F"]}, {"tricks": {"A": 4}}])
    assert (error.code, error.field) == ("vier-anderle.not_seated", "A")
    assert error.message() == "entry 3: A is not at the table"
    assert error.message(DE) == "Eintrag 3: A sitzt gerade nicht am Tisch"
    error = fails([HAND_1, {"table": ["B", "C", "D", "E", "F"]}, {"playing": ["A"]}])
    assert (error.code, error.field) == ("vier-anderle.not_seated", "playing")


def test_table_change_entry_keys_are_checked() -> None:
    error = fails([{"table": ["A", "B"], "tricks": {"A": 4}}])
    assert (error.code, error.field) == ("unknown_key", "tricks")


def test_the_pack_grows_with_the_pip_cards_for_ten_players() -> None:
    assert len(va.cego_pack_for(9) or ()) == 38
    assert len(va.cego_pack_for(10) or ()) == 54
    names = [f"P{i}" for i in range(10)]
    report = play([{"tricks": {"P0": 4}}], players=names)
    assert report["pot"] == 4 * 10  # P0 dealt and took all; nine pay 4


# --- hostile input ---------------------------------------------------------------------------

HOSTILE: list[tuple[Any, str, str | None]] = [
    ([], "entry_not_object", None),
    ("tricks", "entry_not_object", None),
    (None, "entry_not_object", None),
    ({"tricks": [2, 1, 1]}, "not_a_mapping", "tricks"),
    ({"tricks": "A"}, "not_a_mapping", "tricks"),
    ({"tricks": {"A": "two", "B": 2}}, "not_a_number", "A"),
    ({"tricks": {"A": True, "B": 3}}, "not_a_number", "A"),
    ({"tricks": {"A": 1.5, "B": 2.5}}, "not_a_number", "A"),
    ({"tricks": {"A": float("nan")}}, "not_a_number", "A"),
    ({"tricks": {"A": float("inf")}}, "not_a_number", "A"),
    ({"tricks": {"A": None, "B": 4}}, "not_a_number", "A"),
    ({"tricks": {"A": {"x": [1]}, "B": 4}}, "not_a_number", "A"),
    ({"tricks": {"A": -4, "B": 8}}, "vier-anderle.bad_tricks", "A"),
    ({"tricks": {"A": 4}, "bid": 3}, "unknown_key", "bid"),
    ({"tricks": {"A": 4}, 7: 3}, "unknown_key", "7"),
    ({"tricks": {1: 4}}, "unknown_player", "1"),
    ({"playing": "B", "tricks": {"B": 4}}, "vier-anderle.bad_playing", "playing"),
    ({"playing": [["B"]], "tricks": {"B": 4}}, "vier-anderle.bad_playing", "playing"),
    ({"playing": [None], "tricks": {"B": 4}}, "vier-anderle.bad_playing", "playing"),
    ({"playing": {"B": 1}, "tricks": {"B": 4}}, "vier-anderle.bad_playing", "playing"),
    ({"playing": ["B", "B"], "tricks": {"B": 4}}, "duplicate_player", "playing"),
    ({"playing": ["Zorro"], "tricks": {"B": 4}}, "unknown_player", "playing"),
    ({"playing": ["B", "C"], "tricks": {"B": 2, "C": 1}}, "vier-anderle.trick_count", "tricks"),
    ({"playing": ["B", "C"], "tricks": {"D": 2, "C": 2}}, "vier-anderle.did_not_play", "D"),
    ({"table": "B"}, "vier-anderle.bad_table", "table"),
    ({"table": ["B", "C"], "dealer": 3}, "vier-anderle.dealer_not_seated", "dealer"),
    ({"table": ["B", "C"], "extra": 1}, "unknown_key", "extra"),
]


@pytest.mark.parametrize(("entry", "code", "field"), HOSTILE)
def test_bad_entries_give_a_rule_error_and_leave_the_table_unchanged(
        entry: Any, code: str, field: str | None) -> None:
    table = replay(make_record([HAND_1]))
    before = engine.report(table)
    with pytest.raises(RuleError) as info:
        record.apply_all(table, [entry], first=2)
    assert (info.value.code, info.value.field) == (code, field)
    assert info.value.entry == 2
    assert info.value.message().startswith("entry 2: ")
    assert info.value.message(DE).startswith("Eintrag 2: ")
    assert engine.report(table) == before


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=3)
    | st.sampled_from(SIX + ["Zorro", "tricks", "playing", "table", "dealer"]),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.sampled_from(SIX + ["Zorro", "tricks", "playing", "table", "dealer"])
                      | st.text(max_size=3), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(entry=JSON, empty_pot=st.booleans())
def test_random_junk_gives_a_rule_error_or_a_valid_change(entry: Any, empty_pot: bool) -> None:
    table = replay(make_record([] if empty_pot else [HAND_1]))
    before = engine.report(table)
    try:
        engine.apply(table, entry)
    except RuleError as error:
        assert error.code in errors.MESSAGES
        error.message(DE)
        assert engine.report(table) == before
    else:
        assert conserved(engine.report(table))


# --- module contract -------------------------------------------------------------------------


def test_messages_exist_in_every_language_and_are_prefixed() -> None:
    for code, texts in va.MESSAGES.items():
        assert code.startswith("vier-anderle.")
        assert isinstance(texts, errors.Words)
        assert errors.MESSAGES[code] is texts
    assert isinstance(va.TITLE, errors.Words) and isinstance(va.SUMMARY, errors.Words)


def test_table_words_are_entries() -> None:
    assert va.Table.ENTRY_WORD == "entry"


def test_engine_imports_nothing_from_the_web() -> None:
    source = Path(va.__file__).read_text(encoding="utf-8")
    for name in ("flask", "sqlalchemy", "wtforms", "werkzeug"):
        assert f"import {name}" not in source and f"from {name}" not in source


def test_option_records_store_only_non_defaults() -> None:
    rules = table_of(ante=8).rules
    assert base.non_default(va.OPTIONS, rules) == {"ante": 8}


# --- properties ------------------------------------------------------------------------------

POOL = ["A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L", "M", "N", "O"]


@st.composite
def games(draw: st.DrawFn) -> tuple[list[str], dict[str, Any], list[dict[str, Any]]]:
    """Players, rules and a list of valid entries: hands of both types and table changes."""
    rules = {
        "ante": draw(st.sampled_from([4, 8, 12])),
        "stake_cents": draw(st.integers(0, 200)),
        "nobody_plays": draw(st.sampled_from(["ante-stays", "ante-back"])),
        "starting_pot": draw(st.sampled_from([0, 0, 4, 40])),
    }
    players = draw(st.lists(st.sampled_from(POOL), min_size=va.MIN_PLAYERS,
                            max_size=va.MAX_PLAYERS, unique=True))
    seated = players
    pot = rules["starting_pot"]
    out: list[dict[str, Any]] = []
    for _ in range(draw(st.integers(0, 25))):
        if draw(st.integers(0, 5)) == 0:
            size = draw(st.integers(va.MIN_PLAYERS, va.MAX_PLAYERS))
            seated = draw(st.permutations(POOL))[:size]
            entry: dict[str, Any] = {"table": seated}
            if draw(st.booleans()):
                entry["dealer"] = draw(st.sampled_from(seated))
            out.append(entry)
            continue
        if pot == 0:
            playing = list(seated)
        else:
            playing = draw(st.lists(st.sampled_from(seated), unique=True, max_size=len(seated)))
        if not playing:
            out.append({"playing": []})
            pot = pot + rules["ante"] if rules["nobody_plays"] == "ante-stays" else pot
            continue
        takers = [draw(st.sampled_from(playing)) for _ in range(TRICKS)]
        tricks = {name: takers.count(name) for name in sorted(set(takers))}
        entry = {"tricks": tricks}
        if pot or draw(st.booleans()):
            entry["playing"] = playing
        out.append(entry)
        stake = pot + rules["ante"]
        losers = len(playing) - len(tricks)
        pot = stake * (1 + losers) if pot == 0 else stake * losers
    return players, rules, out


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=games())
def test_money_is_conserved_and_the_pot_stays_a_multiple_of_four(
        game: tuple[list[str], dict[str, Any], list[dict[str, Any]]]) -> None:
    players, rules, entries = game
    table = va.Table(players, players[0], rules)
    for entry in entries:
        engine.apply(table, entry)
        report = engine.report(table)
        assert conserved(report)
        assert report["pot"] % TRICKS == 0
        assert report["pot"] >= 0
        assert report["next_hand_type"] == (2 if report["pot"] else 1)
        assert report["pot_cents"] == report["pot"] * rules["stake_cents"]
        for player in report["players"]:
            assert player["balance_cents"] == player["balance"] * rules["stake_cents"]
        assert report["dealer"] == report["next_dealer"] in report["seated"]
        assert [p["name"] for p in report["players"] if p["seated"]] == report["seated"]
        assert sorted(p["name"] for p in report["players"]) == sorted(table.players)
    report = engine.report(table)
    assert report["hands_played"] == sum(1 for e in entries if "table" not in e)
    seated = players
    for row in report["history"]:
        assert set(row) == set(report["history"][0])
        if row["kind"] == "table":
            seated = row["table"]
            continue
        assert row["P"] % TRICKS == 0
        assert sum(row["tricks"].values()) in (0, TRICKS)
        assert list(row["payments"]) == seated
        assert list(row["tricks"]) == row["playing"]
    payments = sum(sum(r["payments"].values()) for r in report["history"] if r["payments"])
    assert payments == sum(p["balance"] for p in report["players"])
    split = va.close(table, pot_at_end="split")
    assert sum(split["balances"].values()) + split["kasse"] == rules["starting_pot"]
    assert 0 <= split["kasse"] < TRICKS * len(table.seated) and split["kasse"] % TRICKS == 0
    assert split["next_starting_pot"] == split["kasse"]
    assert set(split["shares"].values()) <= {split["shares"][table.seated[0]]}
    va.Table(["A", "B"], None, {"starting_pot": split["kasse"]})  # the next game can take it
    carry = va.close(table, pot_at_end="carry")
    assert sum(carry["balances"].values()) + carry["kasse"] == rules["starting_pot"]


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(va.MIN_PLAYERS, va.MAX_PLAYERS),
       changes=st.integers(0, 5), ante_back=st.booleans())
def test_bench_records_with_real_cards_are_valid_and_conserve_money(
        seed: int, players: int, changes: int, ante_back: bool) -> None:
    rules = {"nobody_plays": "ante-back", "starting_pot": 8} if ante_back else {}
    rec = random_record(60, seed=seed, players=players, table_changes=changes, rules=rules)
    assert sum(1 for e in rec["hands"] if "table" not in e) == 60
    report = engine.report(replay(json.loads(json.dumps(rec))))
    assert report["hands_played"] == 60
    assert conserved(report)
    assert report["starting_pot"] == rules.get("starting_pot", 0)
