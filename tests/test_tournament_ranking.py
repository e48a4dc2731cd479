"""The tournament's ranking: the rules' example 19 (Anna and Bernd share the first place, a lot
orders them for the first prize, the series after two nights), a voided Durchgang, a late
entrant, the lowest total first, the refusals of a lot, and property tests of the places."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support import DE, NL

from scorekeeper.engine.errors import RuleError
from scorekeeper.tournament.ranking import (
    TableResult,
    draw_lot,
    evening,
    lots_needed,
    series,
)

ENTRANTS = ["Anna", "Bernd", "Carla", "Dieter", "Erika", "Franz", "Gerd", "Hanna"]
# example 19: Anna +250 +180, Bernd +610 -180, Carla 120 in all, Dieter -20 in all; each table
# of four adds up to 0, as a Cego table's each-opponent totals do
NIGHT_ONE = [
    [TableResult({"Anna": 250, "Carla": 60, "Erika": -100, "Franz": -210}),
     TableResult({"Bernd": 610, "Dieter": -200, "Gerd": -180, "Hanna": -230})],
    [TableResult({"Anna": 180, "Bernd": -180, "Gerd": 40, "Erika": -40}),
     TableResult({"Carla": 60, "Dieter": 180, "Franz": -100, "Hanna": -140})],
]


def refused(code: str, call, *args, **kwargs) -> RuleError:
    with pytest.raises(RuleError) as info:
        call(*args, **kwargs)
    assert info.value.code == code
    return info.value


def lines(standings):
    return [(s.place, s.entrant, s.total) for s in standings]


def test_example_19_the_evening():
    standings = evening(ENTRANTS, NIGHT_ONE)
    assert lines(standings) == [
        (1, "Anna", 430), (1, "Bernd", 430), (3, "Carla", 120), (4, "Dieter", -20),
        (5, "Erika", -140), (5, "Gerd", -140), (7, "Franz", -310), (8, "Hanna", -370)]
    anna, bernd = standings[0], standings[1]
    assert anna.durchgaenge == (250, 180) and bernd.durchgaenge == (610, -180)
    assert [s.entrant for s in standings if s.last] == ["Hanna"]
    # the first prize depends on the order of Anna and Bernd: a lot; Erika and Gerd's does not
    assert lots_needed(standings, prizes=3) == [("Anna", "Bernd")]
    assert lots_needed(standings, prizes=5) == [("Anna", "Bernd"), ("Erika", "Gerd")]


def test_example_19_the_lot_for_the_first_prize():
    tie = ("Anna", "Bernd")
    seed = next(seed for seed in range(100) if draw_lot(tie, seed) == ("Bernd", "Anna"))
    standings = evening(ENTRANTS, NIGHT_ONE, lots=[draw_lot(tie, seed)])
    assert [(s.place, s.entrant, s.lot, s.prize_place) for s in standings[:3]] == [
        (1, "Bernd", 1, 1), (1, "Anna", 2, 2), (3, "Carla", None, 3)]
    assert lots_needed(standings, prizes=3) == []
    other = next(seed for seed in range(100) if draw_lot(tie, seed) == tie)
    assert [s.entrant for s in evening(ENTRANTS, NIGHT_ONE, lots=[draw_lot(tie, other)])][:2] \
        == ["Anna", "Bernd"]


def test_example_19_the_series_after_two_nights():
    night_two = evening(["Anna", "Bernd", "Erika", "Ida"], [
        [TableResult({"Anna": 260, "Bernd": -150, "Erika": 10, "Ida": -120})]])
    nights = [{s.entrant: s.total for s in night}
              for night in (evening(ENTRANTS, NIGHT_ONE), night_two)]
    standings = series(nights)
    assert lines(standings)[:2] == [(1, "Anna", 690), (2, "Bernd", 280)]
    carla = next(s for s in standings if s.entrant == "Carla")
    assert (carla.place, carla.total, carla.nights, carla.played) == (3, 120, (120, None), 1)
    ida = next(s for s in standings if s.entrant == "Ida")
    assert (ida.total, ida.nights) == (-120, (None, -120))
    erika = next(s for s in standings if s.entrant == "Erika")
    assert erika.total == -130


def test_equal_series_totals_share_a_place():
    standings = series([{"Anna": 100, "Bernd": 50}, {"Bernd": 50, "Carla": 100, "Dieter": -5}])
    assert lines(standings) == [(1, "Anna", 100), (1, "Bernd", 100), (1, "Carla", 100),
                                (4, "Dieter", -5)]


def test_a_voided_durchgang_counts_the_worst_result_of_the_durchgang():
    """Dieter, Franz, Hanna and Carla's table voided in the second Durchgang: each of them
    counts that Durchgang's worst result at the tables not voided (Bernd's -180)."""
    voided = [NIGHT_ONE[0], [NIGHT_ONE[1][0], TableResult(NIGHT_ONE[1][1].totals, voided=True)]]
    standings = {s.entrant: s for s in evening(ENTRANTS, voided)}
    assert (standings["Carla"].total, standings["Carla"].durchgaenge) == (-120, (60, -180))
    assert standings["Carla"].voided == standings["Carla"].stood_in == (2,)
    assert standings["Dieter"].total == -380 and standings["Hanna"].total == -410
    assert standings["Anna"].voided == () and standings["Anna"].total == 430
    assert standings["Franz"].total == -390 and standings["Franz"].voided == (2,)
    assert [(s.place, s.entrant) for s in evening(ENTRANTS, voided)][-3:] == [
        (6, "Dieter"), (7, "Franz"), (8, "Hanna")]


def test_a_voided_durchgang_never_helps_where_the_fewest_points_win():
    """Hartenjagen: 0 would be the best result; a voided table's players count the highest."""
    tables = [[TableResult({"Anna": 40, "Bernd": 60, "Carla": 80, "Dieter": 100}),
               TableResult({"Erika": 55, "Franz": 70, "Gerd": 90, "Hanna": 105}, voided=True)]]
    standings = {s.entrant: s for s in evening(ENTRANTS, tables, lowest_wins=True)}
    assert {name: standings[name].total for name in ("Erika", "Hanna")} == {"Erika": 100,
                                                                            "Hanna": 100}
    assert standings["Anna"].place == 1 and standings["Erika"].place == 4


def test_a_late_entrant_and_one_who_has_not_played():
    """A Durchgang somebody was not seated in counts its worst result (-10); one nobody has a
    result in yet, 0."""
    tables = [[TableResult({"Anna": 30, "Bernd": -10, "Carla": -10, "Dieter": -10})],
              [TableResult({"Anna": -30, "Bernd": 10, "Carla": 10, "Erika": 10})]]
    standings = {s.entrant: s for s in evening(["Anna", "Bernd", "Carla", "Dieter", "Erika",
                                                "Franz"], tables)}
    assert standings["Erika"].durchgaenge == (-10, 10) and standings["Erika"].total == 0
    assert standings["Erika"].missed == (1,) and standings["Erika"].voided == ()
    assert standings["Franz"].durchgaenge == (-10, -30) and standings["Franz"].total == -40
    assert standings["Dieter"].durchgaenge == (-10, -30) and standings["Dieter"].last
    assert standings["Franz"].last and standings["Anna"].missed == ()
    assert evening(["Anna"], [[]])[0].durchgaenge == (0,)


def test_the_lowest_total_first_where_the_fewest_points_win():
    tables = [[TableResult({"Anna": 12, "Bernd": 40, "Carla": 12, "Dieter": 40})]]
    standings = evening(["Anna", "Bernd", "Carla", "Dieter"], tables, lowest_wins=True)
    assert lines(standings) == [(1, "Anna", 12), (1, "Carla", 12), (3, "Bernd", 40),
                                (3, "Dieter", 40)]
    assert [s.entrant for s in standings if s.last] == ["Bernd", "Dieter"]
    assert lines(series([{"Anna": 12, "Bernd": 40}, {"Bernd": -3}], lowest_wins=True)) == [
        (1, "Anna", 12), (2, "Bernd", 37)]


def test_nobody_is_last_when_everyone_shares_the_first_place():
    standings = evening(["Anna", "Bernd"], [[TableResult({"Anna": 0, "Bernd": 0})]])
    assert [(s.place, s.last) for s in standings] == [(1, False), (1, False)]


def test_a_lot_for_someone_who_shares_no_place():
    err = refused("tournament.no_tie", evening, ENTRANTS, NIGHT_ONE, lots=[("Carla", "Anna")])
    assert err.message() == "Carla shares place 3 with nobody: there is no lot to draw"
    assert err.message(DE) == "Carla teilt Platz 3 mit niemandem: es gibt nichts zu losen"


def test_a_lot_that_is_not_the_whole_tie():
    err = refused("tournament.bad_lot", evening, ENTRANTS, NIGHT_ONE, lots=[("Anna",)])
    assert err.message() == "the lot for place 1 must put Anna and Bernd in an order, each once"
    assert err.message(NL) == ("het lot voor plaats 1 moet Anna en Bernd in een volgorde zetten, "
                               "ieder één keer")
    for lot in (("Anna", "Carla"), ("Anna", "Anna"), ("Anna", "Bernd", "Carla")):
        refused("tournament.bad_lot", evening, ENTRANTS, NIGHT_ONE, lots=[lot])
    refused("tournament.bad_lot", evening, ENTRANTS, NIGHT_ONE,
            lots=[("Anna", "Bernd"), ("Bernd", "Anna")])


def test_a_lot_for_someone_not_entered():
    err = refused("tournament.not_entered", evening, ENTRANTS, NIGHT_ONE, lots=[("Zoe", "Anna")])
    assert err.message() == "Zoe is not entered"


def test_tables_that_do_not_fit_the_start_list():
    with pytest.raises(ValueError, match="plays twice in Durchgang 1"):
        evening(ENTRANTS, [[TableResult({"Anna": 1}), TableResult({"Anna": 2})]])
    with pytest.raises(ValueError, match="'Zoe' plays in Durchgang 1 but is not entered"):
        evening(ENTRANTS, [[TableResult({"Zoe": 1})]])


@given(st.lists(st.integers(0, 9), min_size=1, max_size=8))
def test_a_lot_is_an_order_of_the_tie_and_the_same_seed_gives_the_same(seeds):
    tie = ("Anna", "Bernd", "Carla", "Dieter")
    for seed in seeds:
        assert sorted(draw_lot(tie, seed)) == sorted(tie)
        assert draw_lot(tie, seed) == draw_lot(list(tie), seed)
    assert len({draw_lot(tie, seed) for seed in range(60)}) > 12


# --- properties ------------------------------------------------------------------------------

def check_places(totals: list[int], places: list[int], lowest_wins: bool) -> None:
    """Places shared by equal totals, one more than the number of better totals: 1..n with
    gaps, in order."""
    assert places == sorted(places) and (not places or places[0] == 1)
    for total, place in zip(totals, places, strict=True):
        better = sum(t < total if lowest_wins else t > total for t in totals)
        assert place == better + 1
    for a, pa in zip(totals, places, strict=True):
        for b, pb in zip(totals, places, strict=True):
            assert (a == b) == (pa == pb)


@st.composite
def nights(draw_):
    """A night: entrants, Durchgänge of tables with small totals (ties likely), some voided,
    some not started yet."""
    entrants = [f"P{i}" for i in range(draw_(st.integers(1, 16)))]
    durchgaenge = []
    for _ in range(draw_(st.integers(1, 3))):
        seated = draw_(st.permutations(entrants))
        seated = seated[:draw_(st.integers(0, len(seated)))]
        tables = [TableResult({p: draw_(st.integers(-3, 3)) for p in seated[i:i + 4]},
                              voided=draw_(st.booleans()), started=draw_(st.booleans()))
                  for i in range(0, len(seated), 4)]
        durchgaenge.append(tables)
    return entrants, durchgaenge


@given(nights(), st.booleans())
def test_the_evening_places_are_consistent(night, lowest_wins):
    entrants, durchgaenge = night
    standings = evening(entrants, durchgaenge, lowest_wins=lowest_wins)
    assert sorted(s.entrant for s in standings) == sorted(entrants)
    check_places([s.total for s in standings], [s.place for s in standings], lowest_wins)
    for s in standings:
        # each Durchgang: the entrant's result at a table not voided that has played (any, as
        # long as none has), else the Durchgang's worst result at those tables (0 if none),
        # which no result is worse than
        results, waiting = [], []
        for tables in durchgaenge:
            begun = any(t.started and not t.voided for t in tables)
            kept = [t.totals for t in tables if not t.voided and (t.started or not begun)]
            waiting.append([t.totals for t in tables if begun and not t.voided and not t.started])
            everyone = [total for totals in kept for total in totals.values()]
            worst = (max if lowest_wins else min)(everyone, default=0)
            mine = [totals[s.entrant] for totals in kept if s.entrant in totals]
            results.append(mine[0] if mine else worst)
            assert all(worst >= total if lowest_wins else worst <= total for total in everyone)
        assert s.total == sum(results) and s.durchgaenge == tuple(results)
        assert s.voided == tuple(d for d, tables in enumerate(durchgaenge, 1)
                                 for table in tables if table.voided and s.entrant in table.totals)
        assert s.missed == tuple(d for d, tables in enumerate(durchgaenge, 1)
                                 if all(s.entrant not in table.totals for table in tables)
                                 or any(s.entrant in totals for totals in waiting[d - 1]))
    worst = standings[-1].place
    assert [s.entrant for s in standings if s.last] == (
        [s.entrant for s in standings if s.place == worst] if worst > 1 else [])


@given(nights(), st.integers(1, 5), st.integers(0, 2**31))
def test_lots_order_the_ties_for_the_prizes(night, prizes, seed):
    entrants, durchgaenge = night
    before = evening(entrants, durchgaenge)
    ties = lots_needed(before, prizes)
    lots = [draw_lot(tie, seed) for tie in ties]
    after = evening(entrants, durchgaenge, lots=lots)
    assert lots_needed(after, prizes) == []
    assert [(s.place, s.total) for s in after] == [(s.place, s.total) for s in before]
    for lot in lots:
        drawn = [s for s in after if s.entrant in lot]
        assert [s.entrant for s in drawn] == list(lot)
        assert [s.prize_place for s in drawn] == list(range(drawn[0].place,
                                                            drawn[0].place + len(lot)))
        assert drawn[0].place <= prizes and len(lot) > 1


@given(st.lists(st.dictionaries(st.sampled_from("ABCDEFGH"), st.integers(-20, 20)),
                max_size=5), st.booleans())
def test_the_series_adds_every_night_played_and_nothing_for_a_night_missed(season, lowest_wins):
    standings = series(season, lowest_wins=lowest_wins)
    played = {p for night in season for p in night}
    assert sorted(s.entrant for s in standings) == sorted(played)
    check_places([s.total for s in standings], [s.place for s in standings], lowest_wins)
    for s in standings:
        assert s.total == sum(night.get(s.entrant, 0) for night in season)
        assert s.nights == tuple(night.get(s.entrant) for night in season)
    # a night with other players only leaves everyone's total as it was
    assert {s.entrant: s.total for s in series([*season, {"Z": 5}])} == {
        **{s.entrant: s.total for s in standings}, "Z": 5}
