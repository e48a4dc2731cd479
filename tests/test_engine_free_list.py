"""The free list (any other game the table plays): the spec's example, the text and null rule
options, every refusal with its words, how a game ends, who wins, the money, and property tests
(money adds up to 0, totals are the sums of the points)."""

from __future__ import annotations

import json
from typing import Any

import pytest
import records_free_list
from hypothesis import given
from hypothesis import strategies as st
from support import DE, NL

from scorekeeper import engine
from scorekeeper.engine import base, errors, free_list
from scorekeeper.engine.base import Option
from scorekeeper.engine.errors import RuleError

P3 = ["A", "B", "C"]
SKAT = {"name": "Skat"}


def record(hands: list[Any], rules: dict[str, Any] | None = None,
           players: list[str] | None = None, **extra: Any) -> dict[str, Any]:
    return {"format": engine.FORMAT, "game": "free-list",
            "rules": SKAT if rules is None else rules, "players": players or P3,
            "hands": hands, **extra}


def summary(hands: list[Any], rules: dict[str, Any] | None = None,
            players: list[str] | None = None, **extra: Any) -> dict[str, Any]:
    return engine.replay(record(hands, {**SKAT, **(rules or {})}, players, **extra)).summary()


def table(rules: dict[str, Any] | None = None, players: list[str] | None = None
          ) -> free_list.Table:
    return free_list.Table(players or P3, None, {**SKAT, **(rules or {})})


def refusal(rules: dict[str, Any] | None, *entries: Any, players: list[str] | None = None
            ) -> RuleError:
    """The error of the last entry, after the others were played."""
    t = table(rules, players)
    for entry in entries[:-1]:
        engine.apply(t, entry)
    before = (t.summary(), len(t.rows))
    with pytest.raises(RuleError) as info:
        engine.apply(t, entries[-1])
    assert (t.summary(), len(t.rows)) == before  # a refused hand changes nothing
    return info.value


def scores(s: dict[str, Any]) -> dict[str, int]:
    return {p["name"]: p["score"] for p in s["players"]}


def money(s: dict[str, Any]) -> dict[str, int]:
    return {p["name"]: p["balance_cents"] for p in s["players"]}


# --- the spec's example ---------------------------------------------------------------------

def test_the_specs_example_replays_to_the_sums_of_the_points():
    rec = {"format": "scorekeeper-game/1", "game": "free-list",
           "rules": {"name": "Skat", "winner": "highest"}, "players": ["A", "B", "C"],
           "hands": [{"points": {"A": 23, "B": -23}}, {"points": {"C": 48}}]}
    t = engine.replay(json.loads(json.dumps(rec)))
    s = t.summary()
    assert s["game"] == "free-list" and s["name"] == "Skat"
    assert scores(s) == {"A": 23, "B": -23, "C": 48}
    assert money(s) == {"A": 0, "B": 0, "C": 0}  # cents_per_point defaults to 0
    assert s["hands_played"] == 2 and s["finished"] is False and s["winner"] is None
    assert s["leaders"] == ["C"] and s["wins"] == "highest"
    assert s["target"] is None and s["hands_left"] is None and s["zero_sum"] is False
    # the deal goes round: A dealt the first hand, B the second, C deals next
    assert (s["next_dealer"], s["dealer"], s["deals_on"]) == ("C", "C", "C")
    assert engine.report(t)["history"] == [
        {"hand": 1, "dealer": "A", "points": {"A": 23, "B": -23, "C": 0},
         "totals": {"A": 23, "B": -23, "C": 0}},
        {"hand": 2, "dealer": "B", "points": {"A": 0, "B": 0, "C": 48},
         "totals": {"A": 23, "B": -23, "C": 48}},
    ]


def test_the_game_is_registered_under_its_record_code():
    assert engine.get("free-list") is free_list
    assert free_list.Table.NAME == "free-list"
    assert (free_list.MIN_PLAYERS, free_list.MAX_PLAYERS) == (2, 8)
    assert str(free_list.TITLE) == "Free list" and isinstance(free_list.TITLE, errors.Words)
    assert DE(free_list.TITLE) == "Freie Liste" and NL(free_list.TITLE) == "Vrije lijst"


def test_the_first_dealer_deals_first_and_the_deal_goes_round():
    t = free_list.Table(P3, "C", SKAT)
    dealers = []
    for _ in range(4):
        dealers.append(t.summary()["dealer"])
        engine.apply(t, {"points": {"A": 1}})
    assert dealers == ["C", "A", "B", "C"]
    assert [row["dealer"] for row in engine.history(t)] == dealers


# --- the rule options -------------------------------------------------------------------------

def test_the_defaults_and_the_stored_options():
    rules = table().rules
    assert rules == {"name": "Skat", "winner": "highest", "zero_sum": False, "target": None,
                     "hands": None, "cents_per_point": 0}
    assert base.non_default(free_list.OPTIONS, rules) == {"name": "Skat"}
    given = {"name": "Doppelkopf", "winner": "lowest", "zero_sum": True, "target": 100,
             "hands": 20, "cents_per_point": 5}
    assert base.non_default(free_list.OPTIONS, table(given).rules) == given
    assert table({"target": None, "hands": None}).rules["target"] is None  # null is allowed


def test_a_game_without_a_name_is_refused():
    for rules in ({}, None, {"winner": "lowest"}):
        with pytest.raises(RuleError) as info:
            free_list.Table(P3, None, rules)
        error = info.value
        assert (error.code, error.field) == ("missing_option", "name")
        assert error.message() == ("the rule “the name of the game (Skat, Doppelkopf, "
                                   "Binokel...)” must be given")
        assert error.message(DE) == ("die Regel „der Name des Spiels (Skat, Doppelkopf, "
                                     "Binokel...)“ muss angegeben werden")
    with pytest.raises(RuleError) as info:
        engine.replay(record([], rules={}))
    assert info.value.code == "missing_option"


@pytest.mark.parametrize(("name", "shown"), [
    ("", '""'), ("   ", '"   "'), ("x" * 41, '"' + "x" * 41 + '"'),
    ("Skat\nDoppelkopf", '"Skat\nDoppelkopf"'), (7, "7"), (None, "null"),
    (["Skat"], '["Skat"]')])  # shown as in the record (JSON)
def test_a_name_that_is_not_1_to_40_characters_on_one_line_is_refused(name, shown):
    with pytest.raises(RuleError) as info:
        free_list.Table(P3, None, {"name": name})
    error = info.value
    assert (error.code, error.field) == ("bad_text_option", "name")
    assert error.params["value"] == shown
    assert error.message() == (f"the rule “the name of the game (Skat, Doppelkopf, Binokel...)” "
                               f"cannot be {error.params['value']}: enter 1 to 40 characters on "
                               "one line")
    assert "1 bis 40 Zeichen" in error.message(DE) and "1 tot 40 tekens" in error.message(NL)


def test_a_name_of_1_and_of_40_characters_is_taken_and_a_long_one_is_cut_short_in_the_message():
    assert table({"name": "J"}).summary()["name"] == "J"
    assert table({"name": "ß" * 40}).summary()["name"] == "ß" * 40
    assert table({"name": " Jass "}).summary()["name"] == " Jass "  # blanks around: kept
    with pytest.raises(RuleError) as info:
        table({"name": "y" * 5000})
    assert info.value.params["value"] == '"' + "y" * 60 + '…"'
    assert len(info.value.message()) < 200


@pytest.mark.parametrize(("rules", "kind", "words"), [
    ({"winner": "most"}, "choice", "choose “the highest total wins” or “the lowest total wins”"),
    ({"winner": None}, "choice", "choose"),
    ({"zero_sum": 0}, "yes_no", "it is yes or no"),
    ({"target": 0}, "number", "enter a whole number from 1 to 100000"),
    ({"target": 100_001}, "number", "from 1 to 100000"),
    ({"target": "100"}, "number", "from 1 to 100000"),
    ({"target": True}, "number", "from 1 to 100000"),
    ({"hands": 0}, "number", "enter a whole number from 1 to 10000"),
    ({"hands": 2.5}, "number", "from 1 to 10000"),
    ({"cents_per_point": -1}, "number", "enter a whole number from 0 to 10000"),
    ({"cents_per_point": None}, "number", "from 0 to 10000"),
])
def test_bad_option_values_are_refused_with_what_is_allowed(rules, kind, words):
    with pytest.raises(RuleError) as info:
        table(rules)
    error = info.value
    (option,) = rules
    assert (error.code, error.field, error.params["kind"]) == ("bad_option", option, kind)
    assert words in error.message()


def test_an_unknown_option_is_refused():
    with pytest.raises(RuleError) as info:
        table({"players": 4})
    assert info.value.code == "unknown_option"
    assert info.value.message() == "there is no rule option \"players\" in this game"


def test_the_option_class_knows_text_required_and_none():
    text = Option("title", None, help="a title", text=True, minimum=2, maximum=3)
    assert text.kind == "text" and text.may_be_none
    assert [text.accepts(v) for v in ("ab", "abc", "a", "abcd", " a ", None, 12)] == [
        True, True, False, False, False, True, False]
    required = Option("title", None, help="a title", text=True, minimum=1, maximum=3,
                      required=True)
    assert not required.may_be_none and not required.accepts(None)
    assert base.resolve((required,), {"title": "ab"}) == {"title": "ab"}
    with pytest.raises(RuleError, match="must be given"):
        base.resolve((required,), {})
    number = Option("limit", None, help="a limit", minimum=1, maximum=9)
    assert number.kind == "int" and number.accepts(None) and number.accepts(9)
    assert not number.accepts(0) and not number.accepts(10)
    assert not Option("limit", 3, help="a limit", minimum=1, maximum=9).accepts(None)
    with pytest.raises(ValueError, match="minimum and a maximum"):
        Option("title", None, help="a title", text=True)
    with pytest.raises(ValueError, match="no default"):
        Option("title", "x", help="a title", text=True, minimum=1, maximum=3, required=True)
    # a stored game whose required option went missing is shown with it at None
    assert base.as_stored((required,), {}) == {"title": None}


# --- entries and their refusals ------------------------------------------------------------------

def test_points_may_be_negative_zero_and_whole_floats_and_left_out_players_score_0():
    t = table(players=["A", "B", "C", "D"])
    engine.apply(t, {"points": {"A": -5, "B": 0, "C": 7.0}})
    assert scores(t.summary()) == {"A": -5, "B": 0, "C": 7, "D": 0}
    assert engine.history(t)[0]["points"] == {"A": -5, "B": 0, "C": 7, "D": 0}


def test_refusals_say_what_is_wrong():
    cases = [
        ({}, {}, "missing_key", "points", "nothing was entered for points"),
        ({}, {"points": None}, "missing_key", "points", "nothing was entered for points"),
        ({}, {"points": [23, -23]}, "not_a_mapping", "points",
         "points: give a whole number for each player"),
        ({}, {"points": {}}, "free-list.no_points", "points",
         "enter the points of at least one player"),
        ({}, {"points": {"A": 3, "Zoe": 2}}, "unknown_player", "Zoe",
         "Zoe does not play in this game"),
        ({}, {"points": {"A": "12"}}, "not_a_number", "A", "A: \"12\" is not a whole number"),
        ({}, {"points": {"A": 1.5}}, "not_a_number", "A", "A: \"1.5\" is not a whole number"),
        ({}, {"points": {"A": True}}, "not_a_number", "A", "A: \"True\" is not a whole number"),
        ({}, {"points": {"B": 1_000_001}}, "free-list.too_many_points", "B",
         "B: a hand's points go from -1000000 to 1000000"),
        ({}, {"points": {"B": -(10**400)}}, "free-list.too_many_points", "B",
         "B: a hand's points go from -1000000 to 1000000"),
        ({"zero_sum": True}, {"points": {"A": 23, "B": -20}}, "free-list.not_zero", "points",
         "the points add up to 3, in this game every hand adds up to 0"),
        ({"zero_sum": True}, {"points": {"A": -5}}, "free-list.not_zero", "points",
         "the points add up to -5, in this game every hand adds up to 0"),
        ({}, {"points": {"A": 1}, "bock": 2}, "unknown_key", "bock",
         "“bock”: there is no such thing in Free list"),
    ]
    for rules, entry, code, field, message in cases:
        error = refusal(rules, entry)
        assert (error.code, error.field, error.message()) == (code, field, message), entry


def test_the_limit_itself_is_allowed():
    t = table()
    engine.apply(t, {"points": {"A": free_list.POINTS_LIMIT, "B": -free_list.POINTS_LIMIT}})
    assert scores(t.summary())["A"] == 1_000_000


def test_the_game_specific_messages_are_translated():
    error = refusal({"zero_sum": True}, {"points": {"A": 2}})
    assert error.message(DE) == "die Punkte ergeben 2, in diesem Spiel ergibt jede Hand 0"
    assert error.message(NL) == "de punten tellen op tot 2, in dit spel telt elke hand op tot 0"
    assert refusal({}, {"points": {}}).message(DE) == (
        "bitte die Punkte von mindestens einem Spieler eingeben")
    for code in free_list.MESSAGES:
        assert DE(free_list.MESSAGES[code]) != free_list.MESSAGES[code]
        assert NL(free_list.MESSAGES[code]) != free_list.MESSAGES[code]


def test_a_replayed_record_names_the_wrong_hand():
    with pytest.raises(RuleError) as info:
        engine.replay(record([{"points": {"A": 1}}, {"points": {"A": 1}},
                              {"points": {"A": 1, "B": 1}}], {**SKAT, "zero_sum": True}))
    assert info.value.message() == (
        "hand 1: the points add up to 1, in this game every hand adds up to 0")


@pytest.mark.parametrize("players", [["A"], [f"P{i}" for i in range(9)]])
def test_two_to_eight_players(players):
    with pytest.raises(RuleError) as info:
        free_list.Table(players, None, SKAT)
    assert info.value.code == "player_count"
    assert info.value.message() == f"this game needs 2 to 8 players, not {len(players)}"
    assert table(players=[f"P{i}" for i in range(8)]).summary()["hands_played"] == 0


def test_a_zero_sum_hand_that_adds_up_to_0_is_taken():
    s = summary([{"points": {"A": 60, "B": -30, "C": -30}}, {"points": {"B": 5, "C": -5}}],
                {"zero_sum": True})
    assert scores(s) == {"A": 60, "B": -25, "C": -35} and sum(scores(s).values()) == 0


# --- the end of the game -----------------------------------------------------------------------

def test_a_target_ends_the_game_after_the_hand_that_reaches_it_highest_wins():
    hands = [{"points": {"A": 40, "B": 20}}, {"points": {"B": 40, "C": 10, "A": 9}}]
    s = summary(hands, {"target": 50})
    assert scores(s) == {"A": 49, "B": 60, "C": 10}
    assert s["finished"] and s["winner"] == "B" and s["hands_played"] == 2  # 60 >= 50
    assert (s["next_dealer"], s["dealer"], s["deals_on"]) == (None, None, "C")
    # one short of the target goes on; exactly the target ends it
    assert summary([{"points": {"A": 49}}], {"target": 50})["finished"] is False
    exactly = summary([{"points": {"A": 49}}, {"points": {"A": 1}}], {"target": 50})
    assert exactly["finished"] and exactly["winner"] == "A"


def test_the_hand_after_the_end_is_refused():
    error = refusal({"target": 10}, {"points": {"A": 10}}, {"points": {"B": 1}})
    assert error.code == "game_over"
    assert error.message() == "the game is over, no more hands can be entered"
    with pytest.raises(RuleError) as info:
        engine.replay(record([{"points": {"A": 10}}, {"points": {"B": 1}}],
                             {**SKAT, "target": 10}))
    assert info.value.message() == "hand 2: the game is over, no more hands can be entered"


def test_with_the_lowest_winning_a_total_that_climbs_to_the_target_ends_the_game():
    hands = [{"points": {"A": 13, "B": 6, "C": 7}}, {"points": {"A": 26}},
             {"points": {"A": 30, "C": 20}}, {"points": {"A": 60, "B": 10}}]
    s = summary(hands, {"winner": "lowest", "target": 100})
    assert scores(s) == {"A": 129, "B": 16, "C": 27}
    assert s["finished"] and s["winner"] == "B"  # A reached 100: the lowest total wins
    assert s["hands_left"] is None and s["leaders"] == ["B"]
    # totals below the target, however low, do not end it
    assert summary([{"points": {"A": -500}}], {"winner": "lowest", "target": 100})[
        "finished"] is False


def test_a_number_of_hands_ends_the_game():
    hands = [{"points": {"A": 5}}, {"points": {"B": 7}}, {"points": {"C": 6}}]
    before = summary(hands[:2], {"hands": 3, "winner": "lowest"})
    assert not before["finished"] and before["hands_left"] == 1
    assert before["leaders"] == ["C"] and before["winner"] is None  # ahead, not yet the winner
    s = summary(hands, {"hands": 3, "winner": "lowest"})
    assert s["finished"] and s["hands_left"] == 0 and s["winner"] == "A"
    assert summary(hands, {"hands": 3})["winner"] == "B"  # the highest wins


def test_the_target_or_the_number_of_hands_whichever_comes_first():
    rules = {"hands": 5, "target": 30}
    by_target = summary([{"points": {"A": 30}}], rules)
    assert by_target["finished"] and by_target["hands_left"] == 0 and by_target["winner"] == "A"
    by_hands = summary([{"points": {"A": 1}}] * 5, rules)
    assert by_hands["finished"] and scores(by_hands)["A"] == 5


def test_a_tie_at_the_end_has_no_winner():
    s = summary([{"points": {"A": 20, "B": 20}}], {"hands": 1})
    assert s["finished"] and s["winner"] is None and s["leaders"] == ["A", "B"]
    low = summary([{"points": {"A": 30}}, {"points": {"B": 5, "C": 5}}],
                  {"hands": 2, "winner": "lowest"})
    assert low["finished"] and low["winner"] is None and low["leaders"] == ["B", "C"]


def test_an_open_list_never_ends_by_itself_and_ended_keeps_the_money():
    t = table({"cents_per_point": 10})
    for _ in range(50):
        engine.apply(t, {"points": {"A": 100, "B": -50}})
    s = t.summary()
    assert not s["finished"] and s["winner"] is None and s["leaders"] == ["A"]
    ended = free_list.Table.ended(s, t.rules)
    assert ended["players"] == s["players"] and ended["winner"] is None
    assert (ended["next_dealer"], ended["dealer"], ended["deals_on"]) == (None, None, "C")


def test_no_leaders_before_the_first_hand():
    s = table().summary()
    assert s["leaders"] == [] and s["winner"] is None and s["dealer"] == "A"


# --- money --------------------------------------------------------------------------------------

def test_money_everyone_settles_the_difference_with_everyone():
    hands = [{"points": {"A": 23, "B": -23}}, {"points": {"C": 48}}]
    # scores 23, -23, 48; sum 48; n 3: A 3*23-48 = 21, B -69-48 = -117, C 144-48 = 96
    s = summary(hands, {"cents_per_point": 5})
    assert money(s) == {"A": 21 * 5, "B": -117 * 5, "C": 96 * 5}
    # pairwise: A gets 46 from B and pays 25 to C, and so on
    assert money(s)["A"] == 5 * ((23 - -23) + (23 - 48))
    low = summary(hands, {"cents_per_point": 5, "winner": "lowest"})
    assert money(low) == {"A": -21 * 5, "B": 117 * 5, "C": -96 * 5}


def test_money_with_zero_sum_is_each_total_at_the_rate():
    hands = [{"points": {"A": 60, "B": -20, "C": -40}}, {"points": {"B": 30, "C": -30}}]
    s = summary(hands, {"zero_sum": True, "cents_per_point": 2})
    assert money(s) == {"A": 120, "B": 20, "C": -140}
    low = summary(hands, {"zero_sum": True, "cents_per_point": 2, "winner": "lowest"})
    assert money(low) == {"A": -120, "B": -20, "C": 140}


def test_money_shows_at_every_moment_and_is_0_without_a_rate():
    t = table({"cents_per_point": 1})
    engine.apply(t, {"points": {"A": 2}})
    assert money(t.summary()) == {"A": 4, "B": -2, "C": -2}
    assert money(summary([{"points": {"A": 2}}])) == {"A": 0, "B": 0, "C": 0}


# --- snapshots and renaming -----------------------------------------------------------------------

def test_a_restored_snapshot_plays_on_as_the_replay():
    hands = [{"points": {"A": 3, "B": -1}}, {"points": {"C": 9}}, {"points": {"A": 22}}]
    rules = {"target": 25, "cents_per_point": 3, "winner": "lowest"}
    head = table(rules)
    engine.apply(head, hands[0])
    restored = engine.restore(free_list.Table, json.loads(json.dumps(engine.snapshot(head))))
    full = table(rules)
    for entry in hands:
        engine.apply(full, entry)
    for entry in hands[1:]:
        engine.apply(restored, entry)
    assert restored.summary() == full.summary() and restored.summary()["finished"]
    assert engine.history(restored) == engine.history(full)[1:]


def test_a_renamed_player_is_renamed_in_the_points():
    assert free_list.Table.renamed({"points": {"A": 3, "B": -3}}, "A", "Anna") == {
        "points": {"Anna": 3, "B": -3}}


# --- properties ----------------------------------------------------------------------------------

NAMES = [f"P{i}" for i in range(8)]
POINTS = st.integers(-free_list.POINTS_LIMIT, free_list.POINTS_LIMIT)
SMALL = st.integers(-free_list.POINTS_LIMIT // 8, free_list.POINTS_LIMIT // 8)


@st.composite
def games(draw: st.DrawFn, zero_sum: bool) -> tuple[list[str], list[dict[str, int]]]:
    players = NAMES[:draw(st.integers(2, 8))]
    hands = []
    for _ in range(draw(st.integers(0, 12))):
        named = draw(st.lists(st.sampled_from(players), min_size=2 if zero_sum else 1,
                              unique=True))
        if zero_sum:  # the others' points small enough that the first one's fit the limit
            points = {name: draw(SMALL) for name in named[1:]}
            points = {named[0]: -sum(points.values()), **points}
        else:
            points = {name: draw(POINTS) for name in named}
        hands.append(points)
    return players, hands


@given(game=st.booleans().flatmap(lambda zero: st.tuples(st.just(zero), games(zero))),
       lowest=st.booleans(), cents=st.integers(0, 10_000))
def test_money_adds_up_to_0_and_totals_are_the_sums_of_the_points(game, lowest, cents):
    zero_sum, (players, hands) = game
    rules = {"zero_sum": zero_sum, "cents_per_point": cents,
             "winner": "lowest" if lowest else "highest"}
    s = summary([{"points": h} for h in hands], rules, players)
    assert sum(money(s).values()) == 0
    assert scores(s) == {p: sum(h.get(p, 0) for h in hands) for p in players}
    n = len(players)
    sign = -1 if lowest else 1
    for p in s["players"]:
        expected = p["score"] if zero_sum else n * p["score"] - sum(scores(s).values())
        assert p["balance_cents"] == sign * cents * expected
    if zero_sum:
        assert sum(scores(s).values()) == 0
    # the better total never gets less money
    ranked = sorted(s["players"], key=lambda p: sign * p["score"])
    assert [p["balance_cents"] for p in ranked] == sorted(p["balance_cents"] for p in ranked)


@given(players=st.integers(2, 8).map(lambda n: NAMES[:n]),
       points=st.lists(POINTS, min_size=1, max_size=8))
def test_zero_sum_refuses_every_hand_that_does_not_add_up_to_0(players, points):
    entry = {"points": dict(zip(players, points, strict=False))}
    total = sum(entry["points"].values())
    t = table({"zero_sum": True}, players)
    if total == 0:
        engine.apply(t, entry)
        assert t.hands_played == 1
        return
    with pytest.raises(RuleError) as info:
        engine.apply(t, entry)
    assert (info.value.code, info.value.params["got"]) == ("free-list.not_zero", total)
    assert f"add up to {total}," in info.value.message()
    assert t.hands_played == 0 and len(t.rows) == 0


@given(seed=st.integers(0, 10**6))
def test_generated_records_replay_and_restore_anywhere(seed):
    rec = records_free_list.varied(30, seed)
    full = engine.replay(rec)
    cut = seed % (len(rec["hands"]) + 1)
    head = engine.replay({**rec, "hands": rec["hands"][:cut]})
    table_ = engine.restore(free_list.Table, json.loads(json.dumps(engine.snapshot(head))))
    for entry in rec["hands"][cut:]:
        engine.apply(table_, entry)
    assert table_.summary() == full.summary()
    s = full.summary()
    if s["finished"] and s["winner"] is not None:
        best = (max if s["wins"] == "highest" else min)(scores(s).values())
        assert scores(s)[s["winner"]] == best and s["leaders"] == [s["winner"]]
