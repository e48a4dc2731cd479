"""The season chronicle: champion and Rote Laterne, streaks, climber and faller, attendance and
each game's records, against hand-made seasons; the page, its JSON on the command line and
the command's errors."""

import datetime as dt
import json
import re

import pytest
from support import join
from test_stammtisch import HARTENJAGEN, HINTERSCHE, VIER_ANDERLE, import_game

from scorekeeper.db import db
from scorekeeper.models import Evening, Game, Group, Result
from scorekeeper.season import chronicle


def _group(client, name="tanne"):
    assert client.post("/groups", data={"name": name}).status_code == 302


def season(app, nights, slug="tanne", kind="vier-anderle"):
    """Store hand-made evenings: each (date, {player: cents}) or (date, {player: (cents,
    figures)}) becomes one closed game of that evening with those results."""
    with app.app_context():
        group = db.session.scalar(db.select(Group).where(Group.slug == slug))
        ids = []
        for day, money in nights:
            evening = Evening(group_id=group.id, date=day, place="")
            db.session.add(evening)
            db.session.flush()
            game = Game(group_id=group.id, evening_id=evening.id, kind=kind, rules={},
                        seating=list(money), first_dealer=next(iter(money)), status="closed",
                        state={})
            db.session.add(game)
            db.session.flush()
            for player, value in money.items():
                cents, figures = value if isinstance(value, tuple) else (value, {})
                db.session.add(Result(game_id=game.id, group_id=group.id,
                                      evening_id=evening.id, season=day.year, kind=kind,
                                      player=player, figures=figures, money_cents=cents))
            ids.append((evening.id, game.id))
        db.session.commit()
        return ids


def chronicle_of(app, year, slug="tanne", by=None, share=None):
    with app.app_context(), app.test_request_context():
        group = db.session.scalar(db.select(Group).where(Group.slug == slug))
        if by:
            group.champion_by, group.champion_share = by, share or group.champion_share
            db.session.commit()
        return chronicle.chronicle(group, year)


def day(month, date, year=2026):
    return dt.date(year, month, date)


def test_the_champion_has_won_the_most_money_and_the_lantern_the_least(app, client):
    _group(client)
    season(app, [(day(1, 2), {"Anna": 300, "Bernd": -100, "Carla": -200}),
                 (day(1, 9), {"Anna": -50, "Bernd": 150, "Carla": -100})])
    found = chronicle_of(app, 2026)
    assert (found["champion"], found["lantern"]) == (["Anna"], ["Carla"])
    assert [(line["player"], line["rank"], line["money_cents"]) for line in found["ranking"]] \
        == [("Anna", 1, 250), ("Bernd", 2, 50), ("Carla", 3, -300)]
    assert found["evenings"] == 2 and found["games"] == 2


def test_players_level_on_money_share_the_title_and_the_lantern(app, client):
    _group(client)
    season(app, [(day(3, 6), {"Anna": 100, "Bernd": 100, "Carla": -100, "Dora": -100})])
    found = chronicle_of(app, 2026)
    assert (found["champion"], found["lantern"]) == (["Anna", "Bernd"], ["Carla", "Dora"])
    assert [line["rank"] for line in found["ranking"]] == [1, 1, 3, 3]


def test_when_everybody_is_level_there_is_no_lantern(app, client):
    _group(client)
    season(app, [(day(3, 6), {"Anna": 0, "Bernd": 0})])
    found = chronicle_of(app, 2026)
    assert (found["champion"], found["lantern"]) == (["Anna", "Bernd"], [])


def test_by_the_average_a_player_with_one_evening_does_not_count_below_the_share(app, client):
    _group(client)
    season(app, [(day(1, 2), {"Anna": 100, "Bernd": -100}),
                 (day(1, 9), {"Anna": 100, "Bernd": -300, "Gast": 200}),
                 (day(1, 16), {"Anna": 100, "Bernd": -100}),
                 (day(1, 23), {"Anna": -200, "Bernd": 200})])
    by_money = chronicle_of(app, 2026)
    assert by_money["champion"] == ["Gast"]  # 2,00 € against Anna's 1,00 €
    found = chronicle_of(app, 2026, by="average", share=50)
    assert found["by"] == "average"
    assert (found["champion"], found["lantern"]) == (["Anna"], ["Bernd"])
    guest = next(line for line in found["ranking"] if line["player"] == "Gast")
    assert (guest["evenings"], guest["counts"], guest["rank"]) == (1, False, None)
    assert found["attendance"] == {"Anna": 4, "Bernd": 4, "Gast": 1}
    # with a share of 25 % one evening of four is enough: 2,00 € per evening beats 0,25 €
    assert chronicle_of(app, 2026, by="average", share=25)["champion"] == ["Gast"]


def test_the_longest_run_of_evenings_in_the_money_is_a_streak(app, client):
    _group(client)
    ids = season(app, [(day(2, 1), {"Anna": 10, "Bernd": -10}),
                       (day(2, 8), {"Anna": 10, "Bernd": -10}),
                       (day(2, 15), {"Anna": -10, "Bernd": 10}),
                       (day(2, 22), {"Bernd": 10, "Carla": -10}),  # Anna was not there
                       (day(3, 1), {"Anna": 10, "Bernd": 10, "Carla": -20}),
                       (day(3, 8), {"Anna": 10, "Bernd": -10})])
    streaks = {s["player"]: s for s in chronicle_of(app, 2026)["streaks"]}
    assert set(streaks) == {"Anna", "Bernd"}  # Carla never won an evening
    assert streaks["Anna"]["evenings"] == 2 and streaks["Anna"]["first"]["evening_id"] == ids[0][0]
    # Bernd: 15.2., 22.2., 1.3. in a row
    assert (streaks["Bernd"]["evenings"], streaks["Bernd"]["first"]["date"],
            streaks["Bernd"]["last"]["date"]) == (3, "2026-02-15", "2026-03-01")


def test_a_missed_evening_neither_breaks_nor_extends_a_streak(app, client):
    _group(client)
    season(app, [(day(2, 1), {"Anna": 10, "Bernd": -10}),
                 (day(2, 8), {"Bernd": 10, "Carla": -10}),
                 (day(2, 15), {"Anna": 10, "Bernd": -10})])
    streaks = {s["player"]: s["evenings"] for s in chronicle_of(app, 2026)["streaks"]}
    assert streaks == {"Anna": 2, "Bernd": 1}


def test_climber_and_faller_against_the_year_before(app, client):
    _group(client)
    season(app, [(day(6, 5, 2025), {"Anna": 300, "Bernd": 200, "Carla": -100, "Dora": -400}),
                 (day(6, 4), {"Anna": -300, "Bernd": 100, "Carla": 300, "Dora": -100,
                              "Neu": 0})])
    found = chronicle_of(app, 2026)
    assert [(c["player"], c["before"], c["rank"], c["places"]) for c in found["climber"]] == \
        [("Carla", 3, 1, 2)]
    assert [(c["player"], c["places"]) for c in found["faller"]] == [("Anna", -4)]
    # Neu was not ranked last year: neither climber nor faller
    assert "Neu" not in {c["player"] for c in found["climber"] + found["faller"]}


def test_without_a_year_before_there_is_no_climber(app, client):
    _group(client)
    season(app, [(day(6, 4), {"Anna": 100, "Bernd": -100})])
    found = chronicle_of(app, 2026)
    assert (found["climber"], found["faller"], found["had_before"]) == ([], [], False)


def test_a_year_with_no_games_has_no_awards(app, client):
    _group(client)
    season(app, [(day(6, 4, 2025), {"Anna": 100, "Bernd": -100})])
    found = chronicle_of(app, 2026)
    assert (found["champion"], found["lantern"], found["attendance"], found["evenings"],
            found["records"], found["streaks"]) == ([], [], {}, 0, [], [])
    page = client.get("/g/tanne/seasons/2026").get_data(as_text=True)
    assert "Keine Spiele in 2026." in page


def test_an_evening_without_a_game_is_not_held(app, client):
    _group(client)
    season(app, [(day(1, 2), {"Anna": 100, "Bernd": -100})])
    with app.app_context():
        group = db.session.scalar(db.select(Group))
        db.session.add(Evening(group_id=group.id, date=day(1, 9), place=""))
        db.session.commit()
    assert chronicle_of(app, 2026)["attendance"] == {"Anna": 1, "Bernd": 1}


def test_the_biggest_pot_record_names_the_game_and_the_hand(app, client):
    _group(client)
    ids = season(app, [
        (day(4, 3), {"Anna": (500, {"best_pot_cents": 320, "best_pot_hand": 7}),
                     "Bernd": (-500, {"best_pot_cents": 40, "best_pot_hand": 2})}),
        (day(4, 10), {"Anna": (-100, {"best_pot_cents": 80, "best_pot_hand": 3}),
                      "Bernd": (100, {"best_pot_cents": 320, "best_pot_hand": 12})})])
    found = chronicle_of(app, 2026)
    pot = next(r for r in found["records"] if r["figure"] == "best_pot_cents")
    assert (pot["value"], pot["money"], pot["label"]) == (320, True, "Größter gewonnener Pot")
    assert [(h["player"], h["game_id"], h["hand"]) for h in pot["holders"]] == \
        [("Anna", ids[0][1], 7), ("Bernd", ids[1][1], 12)]  # a shared record: both
    most = next(r for r in found["records"] if r["figure"] == "money_cents")
    assert [(h["player"], h["value"]) for h in most["holders"]] == [("Anna", 500)]
    section = found["per_game"]["vier-anderle"]
    assert (section["best"], section["worst"]) == (["Anna"], ["Bernd"])
    page = client.get("/g/tanne/seasons/2026").get_data(as_text=True)
    assert f'/g/tanne/games/{ids[0][1]}/history#hand-7"' in page
    assert f'/g/tanne/games/{ids[1][1]}/history#hand-12"' in page


def test_the_records_of_real_games_come_from_their_stored_results(client, runner, tmp_path):
    _group(client)
    for record in (HINTERSCHE, VIER_ANDERLE, HARTENJAGEN):
        game, _evening = import_game(runner, tmp_path, record, day="2026-11-27")
    assert client.post(re.sub(r"\d+$", "2", game) + "/close").status_code == 302
    result = runner.invoke(args=["chronicle", "tanne", "--year", "2026", "--json"])
    assert result.exit_code == 0, result.output
    found = json.loads(result.output)
    records = {(r["game"], r["figure"], r["fewest"]): r for r in found["records"]}
    marches = records[("hintersche", "marches", False)]  # A in deal 3, C took all tricks in 9
    assert [(h["player"], h["hand"], h["value"]) for h in marches["holders"]] == \
        [("A", 3, 1), ("C", 9, 1)]
    moons = records[("hartenjagen", "moons", False)]  # D shot the moon in hand 2
    assert [(h["player"], h["hand"]) for h in moons["holders"]] == [("D", 2)]
    fewest = records[("hartenjagen", "points", True)]
    assert [(h["player"], h["value"]) for h in fewest["holders"]] == [("D", 6)]
    assert ("hintersche", "vier_strich", False) not in records  # nobody lost in Vier-Strich
    assert found["evenings"] == 1 and found["attendance"] == dict.fromkeys("ABCDE", 1)
    assert set(found) >= {"year", "champion", "lantern", "attendance", "evenings", "records"}


def test_a_running_game_counts_as_it_stands(client, runner, tmp_path):
    _group(client)
    import_game(runner, tmp_path, VIER_ANDERLE, day="2026-11-27")  # not closed: running
    found = json.loads(runner.invoke(args=["chronicle", "tanne", "--year", "2026",
                                           "--json"]).output)
    assert found["evenings"] == 1 and sorted(found["attendance"]) == list("ABCDE")


@pytest.mark.parametrize("args, message", [
    (["chronicle", "nowhere", "--year", "2026"], "there is no group 'nowhere'"),
    (["chronicle", "tanne", "--year", "20x6"], "'20x6' is not a year like 2026"),
    (["chronicle", "tanne", "--year", "99999"], "'99999' is not a year like 2026"),
    (["chronicle", "Bad Slug!"], "there is no group 'Bad Slug!'"),
])
def test_the_command_says_what_is_wrong_without_a_traceback(client, runner, args, message):
    _group(client)
    result = runner.invoke(args=args)
    assert result.exit_code != 0 and message in result.output
    assert "Traceback" not in result.output and result.exception is None or \
        isinstance(result.exception, SystemExit)


def test_the_command_prints_the_season_as_text(app, client, runner):
    _group(client)
    season(app, [(day(1, 2), {"Anna": 300, "Bernd": -300})])
    result = runner.invoke(args=["chronicle", "tanne", "--year", "2026"])
    assert result.exit_code == 0
    assert "champion: Anna (by money)" in result.output
    assert "Rote Laterne: Bernd" in result.output
    assert "attendance: Anna 1 of 1, Bernd 1 of 1" in result.output


def test_the_page_in_german_with_every_award_linked(app, client):
    _group(client)
    ids = season(app, [(day(1, 2, 2025), {"Anna": -100, "Bernd": 100}),
                       (day(1, 2), {"Anna": 300, "Bernd": -100, "Carla": -200}),
                       (day(1, 9), {"Anna": 100, "Bernd": -100})])
    page = client.get("/g/tanne/seasons/2026")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    for words in ("Saison 2026", "Vereinsmeister", "Rote Laterne", "Aufsteiger",
                  "Serien", "Anwesenheit", "2 von 2 Abenden", "1 von 2 Abenden",
                  "Entschieden nach dem Geld der ganzen Saison."):
        assert words in text, words
    assert f"/g/tanne/evenings/{ids[1][0]}\"" in text  # the streak's first evening
    assert f"/g/tanne/games/{ids[1][1]}/history\"" in text  # the biggest win of a game
    assert "/g/tanne/seasons/2025" in text
    assert "/g/tanne/seasons" in client.get("/g/tanne/standings").get_data(as_text=True)
    assert client.get("/g/tanne/seasons").status_code == 200  # this year by default


def test_the_group_chooses_how_the_champion_is_decided(app, client):
    _group(client)
    season(app, [(day(1, 2), {"Anna": 100, "Bernd": -100})])
    answer = client.post("/g/tanne/seasons/2026/champion",
                         data={"champion_by": "average", "champion_share": "60"})
    assert answer.status_code == 302 and answer.location.endswith("/g/tanne/seasons/2026")
    with app.app_context():
        group = db.session.scalar(db.select(Group))
        assert (group.champion_by, group.champion_share) == ("average", 60)
    text = client.get("/g/tanne/seasons/2026").get_data(as_text=True)
    assert "mindestens 60 % der Abende" in text
    for bad, said in (({"champion_by": "lines", "champion_share": "50"}, "keine gültige auswahl"),
                      ({"champion_by": "money", "champion_share": "0"}, "zwischen 1 und 100"),
                      ({"champion_by": "money", "champion_share": "abc"}, "keine gültige, ganze")):
        answer = client.post("/g/tanne/seasons/2026/champion", data=bad)
        text = answer.get_data(as_text=True)
        # the season's page again, with the message at the field and what was typed kept
        assert answer.status_code == 400 and "Saison 2026" in text
        field = re.search(r'<label class="field has-error">.*?</label>', text, re.S)
        assert field and said.lower() in field.group(0).lower(), (bad, field)
        assert f'value="{bad["champion_share"]}"' in text
    with app.app_context():  # nothing was stored
        group = db.session.scalar(db.select(Group))
        assert (group.champion_by, group.champion_share) == ("average", 60)


def test_every_link_of_the_season_page_opens_for_a_view_link_too(app, client, runner, tmp_path):
    _group(client)
    for record in (HINTERSCHE, HARTENJAGEN):  # closed games with hands: records link to them
        game, _evening = import_game(runner, tmp_path, record, day="2026-11-27")
    with app.app_context():
        view = db.session.scalar(db.select(Group.view_token))
    tv = app.test_client()
    join(tv, f"/join/{view}")
    for phone, role in ((client, "member"), (tv, "view link")):
        text = phone.get("/g/tanne/seasons/2026").get_data(as_text=True)
        links = set(re.findall(r'href="(/g/tanne/[^"#]*)', text))
        assert any("/games/" in link for link in links), role  # the records' links are there
        for link in links:
            assert phone.get(link).status_code == 200, (role, link)


def test_bad_years_and_strangers_get_a_404(app, client):
    _group(client)
    assert client.get("/g/tanne/seasons/99999").status_code == 404
    assert client.get("/g/tanne/seasons/abc").status_code == 404
    assert app.test_client().get("/g/tanne/seasons/2026").status_code in (302, 404)


VIER_STRICH = {  # C takes the single mark of all four deals: the game is lost in Vier-Strich
    "format": "scorekeeper-game/1", "game": "hintersche", "rules": {"rubber_games": 1},
    "players": ["A", "B", "C", "D"],
    "hands": [{"points": {"A": 30, "B": 30, "C": 50, "D": 30}}] * 4,
}


def test_vier_strich_losses_add_up_over_the_season_with_the_latest_hand(client, runner,
                                                                         tmp_path):
    _group(client)
    for date in ("2026-03-06", "2026-03-13"):
        import_game(runner, tmp_path, VIER_STRICH, day=date)
    found = json.loads(runner.invoke(args=["chronicle", "tanne", "--year", "2026",
                                           "--json"]).output)
    lost = next(r for r in found["records"] if r["figure"] == "vier_strich")
    assert (lost["value"], lost["season"]) == (2, True)
    assert [(h["player"], h["date"], h["hand"]) for h in lost["holders"]] == \
        [("C", "2026-03-13", 4)]
    lines = next(r for r in found["records"] if r["figure"] == "lines")  # two lines each time
    assert [(h["player"], h["value"]) for h in lines["holders"]] == [("C", 2), ("C", 2)]
    assert "marches" not in {r["figure"] for r in found["records"]}  # nobody marched
