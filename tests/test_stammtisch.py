"""Evenings, settlement with the Kasse, standings, player pages, exports and backups."""

import csv
import datetime as dt
import io
import json
import re
import sqlite3

import pytest
from support import enter, make_app, phone, start_game

from scorekeeper.db import db

HINTERSCHE = {  # the worked example of rules/hintersche.md: B loses game 1 (one line)
    "format": "scorekeeper-game/1", "game": "hintersche", "rules": {"rubber_games": 1},
    "players": ["A", "B", "C", "D"],
    "hands": [{"points": {"A": 30, "B": 45, "C": 35, "D": 30}},
              {"points": {"A": 20, "B": 21, "C": 99, "D": 0}},
              {"points": {"A": 105, "B": 10, "C": 15, "D": 10}},
              {"points": {"B": 50, "C": 40, "D": 50}},
              {"points": {"B": 30, "C": 60, "D": 50}},
              {"points": {"B": 55, "C": 55, "D": 20}, "playoffs": [{"B": 40, "C": 30}]},
              {"points": {"B": 50, "C": 70}}, {"points": {"B": 70, "C": 60}},
              {"points": {"B": 0, "C": 72}, "all_tricks": "C"}],
}
VIER_ANDERLE = {  # the seed's example with five players: the pot holds 32 stakes at the end
    "format": "scorekeeper-game/1", "game": "vier-anderle", "players": ["A", "B", "C", "D", "E"],
    "hands": [{"tricks": {"A": 2, "B": 1, "C": 1}},
              {"playing": ["B", "C", "D", "E"], "tricks": {"C": 1, "D": 3}}],
}
HARTENJAGEN = {  # the worked example, 1 cent a point: D wins with 6
    "format": "scorekeeper-game/1", "game": "hartenjagen", "rules": {"cents_per_point": 1},
    "players": ["A", "B", "C", "D"],
    "hands": [{"hearts": {"A": 3, "C": 10}, "queen": "B"}, {"hearts": {"D": 13}, "queen": "D"},
              {"renege": "B"}, {"hearts": {"B": 5, "C": 2, "D": 6}, "queen": "C"},
              {"hearts": {"A": 4, "B": 9}, "queen": "B"},
              {"hearts": {"A": 1, "B": 8, "C": 4}, "queen": "A"}],
}


def import_game(runner, tmp_path, record, day="2026-11-27", slug="tanne"):
    path = tmp_path / f"{record['game']}.json"
    path.write_text(json.dumps(record))
    result = runner.invoke(args=["import", str(path), "--group", slug, "--evening", day])
    assert result.exit_code == 0, result.output
    game, evening = result.output.splitlines()[:2]
    return game, evening


def evening_of_three_games(client, runner, tmp_path):
    for record in (HINTERSCHE, VIER_ANDERLE, HARTENJAGEN):
        game, evening = import_game(runner, tmp_path, record)
    va = re.sub(r"\d+$", "2", game)
    assert client.post(va + "/close").status_code == 302
    client.get(va)  # shows (and so clears) the "closed" message
    return evening


def test_import_puts_the_game_into_the_evening_of_that_date(client, runner, tmp_path):
    game, evening = import_game(runner, tmp_path, HARTENJAGEN, day="2026-11-27")
    assert re.fullmatch(r"/g/tanne/evenings/\d+", evening)
    again, same = import_game(runner, tmp_path, HINTERSCHE, day="2026-11-27")
    assert same == evening and again != game
    page = client.get(evening).get_data(as_text=True)
    assert game in page and again in page and "27. November 2026" in page


def test_settlement_of_an_evening_with_all_three_games_and_the_kasse(client, runner, tmp_path):
    evening = evening_of_three_games(client, runner, tmp_path)
    settlement = client.get(evening + "/settlement.json").get_json()
    balances = settlement["balances_cents"]
    # Hintersche: B's line costs 5.00 to each of A, C, D.
    # Vier-Anderle, 10 cents a stake: A deals (ante 4), D and E pay 4: pot 12. B deals (P = 16),
    # C takes 4, D 12, B and E pay 16: balances A -4, B -20, C +4, D +8, E -20, and the pot of
    # 32 stays with the Kasse, which is owed it.
    # Hartenjagen (totals 47, 100, 55, 6): each pays D the difference, a cent a point.
    assert balances == {
        "A": 500 - 40 - 41, "B": -1500 - 200 - 94, "C": 500 + 40 - 49, "D": 500 + 80 + 184,
        "E": -200, "Kasse": 320}
    assert sum(balances.values()) == 0
    owed = dict(balances)
    for payment in settlement["payments"]:
        assert payment["cents"] > 0
        owed[payment["from"]] += payment["cents"]
        owed[payment["to"]] -= payment["cents"]
    assert set(owed.values()) == {0}
    assert len(settlement["payments"]) <= len(balances) - 1


@pytest.mark.parametrize("unit", [10, 50, 100])
def test_a_group_that_rounds_pays_in_coins_and_the_kasse_takes_the_rest(client, runner, tmp_path,
                                                                       unit):
    evening = evening_of_three_games(client, runner, tmp_path)
    exact = client.get(evening + "/settlement.json").get_json()["balances_cents"]
    assert client.post(evening + "/rounding", data={"rounding": unit}).status_code == 302
    rounded = client.get(evening + "/settlement.json").get_json()
    balances = rounded["balances_cents"]
    assert sum(balances.values()) == 0
    for name, cents in exact.items():
        if name != "Kasse":
            assert balances[name] % unit == 0 and abs(balances[name] - cents) <= unit // 2
    assert balances["Kasse"] - exact["Kasse"] == -sum(balances[n] - exact[n] for n in exact
                                                     if n != "Kasse")
    # the Kasse's balance is then a whole number of coins too (the balances add up to 0)
    assert all(payment["cents"] % unit == 0 for payment in rounded["payments"])
    page = client.get(evening).get_data(as_text=True)
    assert "Rundung" in page  # the differences are lines of their own
    exported = client.get("/g/tanne/export.json").get_json()
    assert exported["rounding_cents"] == unit  # the group's choice travels with its export
    from scorekeeper.records import check

    check.check_group(exported)
    with pytest.raises(ValueError, match="rounding_cents"):
        check.check_group({**exported, "rounding_cents": 7})
    assert client.post(evening + "/rounding", data={"rounding": 7}).status_code == 400
    assert client.post(evening + "/rounding", data={"rounding": 0}).status_code == 302
    assert client.get(evening + "/settlement.json").get_json()["balances_cents"] == exact


def test_the_group_page_shows_what_the_kasse_holds_and_where_it_came_from(client, runner,
                                                                          tmp_path):
    evening = evening_of_three_games(client, runner, tmp_path)
    kasse = client.get("/g/tanne").get_data(as_text=True).split('class="card kasse"', 1)[1]
    kasse = kasse.split("</details>", 1)[0]
    assert "3,20" in kasse and "Vier-Anderle #2" in kasse  # the pot the game left in it
    client.post(evening + "/rounding", data={"rounding": 100})
    balances = client.get(evening + "/settlement.json").get_json()["balances_cents"]
    kasse = client.get("/g/tanne").get_data(as_text=True).split('class="card kasse"', 1)[1]
    kasse = kasse.split("</details>", 1)[0]
    held = f"{balances['Kasse'] // 100},{balances['Kasse'] % 100:02d}"
    assert held in kasse and "Rundung" in kasse  # and what rounding left over


def test_the_evening_page_explains_each_balance_game_by_game(client, runner, tmp_path):
    evening = evening_of_three_games(client, runner, tmp_path)
    page = client.get(evening).get_data(as_text=True)
    assert "Kasse" in page and "3,20" in page  # the carried pot, in euros
    assert page.count("/games/1\"") >= 1 and "Hartenjagen #3" in page


def test_a_payment_marked_as_paid_stays_paid_when_a_hand_is_corrected(client, runner, tmp_path):
    evening = evening_of_three_games(client, runner, tmp_path)
    first = client.get(evening + "/settlement.json").get_json()["payments"][0]
    form = {"payer": first["from"], "payee": first["to"], "cents": first["cents"], "paid": "1"}
    client.post(evening + "/paid", data=form)
    client.post(evening + "/paid", data=form)  # a double tap marks it once
    assert client.get(evening).get_data(as_text=True).count("bezahlt ✓") == 1
    # a correction afterwards: hand 1 of Hartenjagen gave A 4 hearts and C 9
    corrected = {"hearts-A": 4, "hearts-C": 9, "queen": "B"}
    assert client.post("/g/tanne/games/3/entries/1", data=corrected,
                       follow_redirects=True).status_code == 200
    version = client.get("/g/tanne/games/3/live").get_json()["version"]
    client.post("/g/tanne/games/3/entries/1", data={**corrected, "confirm": version})
    settlement = client.get(evening + "/settlement.json").get_json()
    assert [p for p in settlement["payments"] if p["paid"]] == [{**first, "paid": True}]
    owed = dict(settlement["balances_cents"])
    for payment in settlement["payments"]:
        owed[payment["from"]] += payment["cents"]
        owed[payment["to"]] -= payment["cents"]
    assert set(owed.values()) == {0}
    client.post(evening + "/paid", data={**form, "paid": "0"})  # taken back
    assert "bezahlt ✓" not in client.get(evening).get_data(as_text=True)


def test_a_player_cannot_be_called_kasse(client):
    client.post("/groups", data={"name": "tanne"})
    assert client.post("/g/tanne/players", data={"name": "kasse"}).status_code == 400
    data = {"kind": "hartenjagen", "order": "A\nB\nC\nKasse", "first_dealer": "A",
            **{f"seat-{n}": "on" for n in ("A", "B", "C", "Kasse")}}
    assert client.post("/g/tanne/games/new", data=data).status_code == 400


def test_the_kasse_pot_starts_the_next_vier_anderle_game(client, runner, tmp_path):
    evening_of_three_games(client, runner, tmp_path)
    form = client.get("/g/tanne/games/new?kind=vier-anderle").get_data(as_text=True)
    assert re.search(r'<input[^>]*name="rule-starting_pot"[^>]*value="32"', form)


def test_play_out_keeps_the_game_open_until_the_pot_is_empty(client):
    path = start_game(client, "vier-anderle", ["A", "B", "C"], rules={"pot_at_end": "play-out"})
    enter(client, path, {"tricks-A": 4})
    client.post(path + "/close")
    assert client.get(path + "/state.json").get_json()["pot"] > 0
    assert "geschlossen" not in client.get(path).get_data(as_text=True)
    enter(client, path, {"playing-A": "on", "tricks-A": 4})  # A alone takes the whole pot
    client.post(path + "/close")
    assert "abgeschlossen" in client.get(path).get_data(as_text=True)


def test_split_shares_the_pot_among_the_table(client):
    path = start_game(client, "vier-anderle", ["A", "B", "C"], rules={"pot_at_end": "split"})
    enter(client, path, {"tricks-A": 4})  # B and C pay 4 each: pot 12, split 4 each
    client.post(path + "/close")
    evening = client.get("/g/tanne/evenings").get_data(as_text=True)
    evening_path = re.search(r"/g/tanne/evenings/\d+", evening).group(0)
    balances = client.get(evening_path + "/settlement.json").get_json()["balances_cents"]
    assert balances == {"A": 0, "B": 0, "C": 0}


def test_new_evening_is_one_tap_and_its_games_belong_to_it(client):
    client.post("/groups", data={"name": "tanne"})
    response = client.post("/g/tanne/evenings", data={"place": "Gasthaus Tanne"})
    evening = response.location
    data = {"kind": "hartenjagen", "order": "A\nB\nC\nD", "first_dealer": "A",
            **{f"seat-{n}": "on" for n in "ABCD"}}
    game = client.post(f"/g/tanne/games/new?evening={evening.rsplit('/', 1)[1]}", data=data)
    assert game.location in client.get(evening).get_data(as_text=True)
    assert dt.date.today().strftime("%Y") in client.get("/g/tanne/evenings").get_data(as_text=True)


def test_standings_per_season_and_all_time(client, runner, tmp_path):
    import_game(runner, tmp_path, HINTERSCHE, day="2025-03-01")
    import_game(runner, tmp_path, HARTENJAGEN, day="2026-11-27")
    import_game(runner, tmp_path, HINTERSCHE, day="2026-11-27")
    page = client.get("/g/tanne/standings").get_data(as_text=True)
    assert "Bollenkönig" in page and "<b>B</b>" in page
    assert "2025" in page and "2026" in page
    season = client.get("/g/tanne/standings?season=2025").get_data(as_text=True)
    assert "Hartenjagen" not in season
    with client.application.app_context():
        from scorekeeper.season import standings

        rows = standings.table(1)
        hintersche = {r["player"]: r for r in rows["games"]["hintersche"]["rows"]}
        assert hintersche["B"]["lines"] == 2 and hintersche["B"]["rubbers"] == 2
        hearts = {r["player"]: r for r in rows["games"]["hartenjagen"]["rows"]}
        assert hearts["D"]["wins"] == 1 and hearts["D"]["moons"] == 1
        assert hearts["B"]["points"] == 100 and hearts["B"]["average"] == 100 / 6
        money = {r["player"]: r["money_cents"] for r in rows["money"]}
        assert money["B"] == -1500 * 2 - 94


def test_the_player_page_has_history_and_charts(client, runner, tmp_path):
    import_game(runner, tmp_path, HINTERSCHE, day="2026-11-20")
    import_game(runner, tmp_path, HARTENJAGEN, day="2026-11-27")
    page = client.get("/g/tanne/players").get_data(as_text=True)
    player_id = re.search(r"/g/tanne/players/(\d+)\">B<", page).group(1)
    page = client.get(f"/g/tanne/players/{player_id}").get_data(as_text=True)
    ratings = page.split('class="card player-ratings"', 1)[1].split("</section>", 1)[0]
    assert ratings.count("<svg") == 2  # the rating after each evening, in each game
    assert page.count("<svg") == 3 + 2
    assert "20.11." in page and "27.11." in page  # money over time, one point per evening


def test_group_export_imports_into_an_empty_instance_with_the_same_results(
        client, runner, tmp_path):
    evening = evening_of_three_games(client, runner, tmp_path)
    first = client.get(evening + "/settlement.json").get_json()["payments"][0]
    client.post(evening + "/paid", data={"payer": first["from"], "payee": first["to"],
                                         "cents": first["cents"], "paid": "1"})
    exported = client.get("/g/tanne/export.json").get_data(as_text=True)
    standings = client.get("/g/tanne/standings").get_data(as_text=True)
    settlement = client.get(evening + "/settlement.json").get_json()
    (tmp_path / "group.json").write_text(exported)

    (tmp_path / "other").mkdir()
    other = make_app("sqlite", tmp_path / "other", WTF_CSRF_ENABLED=False)
    result = other.test_cli_runner().invoke(args=["import-group", str(tmp_path / "group.json")])
    assert result.exit_code == 0, result.output
    fresh = phone(other)
    def content(page):  # what the page shows (not the version counter it watches)
        return re.sub(r' data-version="[^"]*"', "", page)

    assert content(fresh.get("/g/tanne/standings").get_data(as_text=True)) == content(standings)
    assert fresh.get(evening + "/settlement.json").get_json() == settlement
    assert fresh.get("/g/tanne/export.json").get_json() == json.loads(exported)


def test_group_csv_has_a_row_per_hand(client, runner, tmp_path):
    import_game(runner, tmp_path, HARTENJAGEN)
    text = client.get("/g/tanne/export.csv").get_data(as_text=True)
    rows = list(csv.DictReader(io.StringIO(text)))
    assert len(rows) == len(HARTENJAGEN["hands"])
    assert text.splitlines()[1].startswith("2026-11-27,,1,hartenjagen,,1,")
    players = HARTENJAGEN["players"]
    assert list(rows[0])[-len(players):] == sorted(players)  # a column per player
    state = client.get("/g/tanne/games/1/state.json").get_json()
    for player in state["players"]:  # each player's column adds up to the score sheet's total
        assert sum(int(row[player["name"]]) for row in rows) == player["score"]


def test_backup_copies_the_database_while_it_is_open(app, client, runner, tmp_path):
    if app.config["DATABASE_KIND"] != "sqlite":
        result = runner.invoke(args=["backup", str(tmp_path / "copy.sqlite")])
        assert result.exit_code != 0 and "pg_dump" in result.output
        return
    import_game(runner, tmp_path, HARTENJAGEN)
    with app.app_context():
        db.session.execute(db.text("SELECT 1"))  # a connection of the running app stays open
        result = runner.invoke(args=["backup", str(tmp_path / "copy.sqlite")])
        assert result.exit_code == 0, result.output
    copy = sqlite3.connect(tmp_path / "copy.sqlite")
    assert copy.execute("SELECT count(*) FROM entries").fetchone()[0] == 6
    copy.close()


def test_the_kasse_pot_goes_into_one_game_only(client, runner, tmp_path):
    evening_of_three_games(client, runner, tmp_path)
    data = {"kind": "vier-anderle", "order": "A\nB\nC", "first_dealer": "A",
            "rule-starting_pot": "32", **{f"seat-{n}": "on" for n in "ABC"}}
    game = client.post("/g/tanne/games/new", data=data)
    assert game.status_code == 302
    again = client.post("/g/tanne/games/new", data=data)  # a second phone with the old form
    assert again.status_code == 302 and again.location == game.location  # the same game
    assert client.get(game.location + "/state.json").get_json()["pot"] == 32
    other = client.post("/g/tanne/games/new", data={**data, "order": "B\nA\nC"})
    assert other.status_code == 400  # another table: the Kasse's pot is in the first game
    assert "Kasse" in other.get_data(as_text=True)


def test_while_the_kasse_holds_a_pot_the_next_game_takes_it_in_at_its_stake(client, runner,
                                                                           tmp_path):
    evening_of_three_games(client, runner, tmp_path)  # 32 stakes of 10 cents in the Kasse
    data = {"kind": "vier-anderle", "order": "A\nB\nC", "first_dealer": "A",
            **{f"seat-{n}": "on" for n in "ABC"}}
    for rules, field, words in (({"rule-starting_pot": "0"}, "starting_pot", "32"),
                                ({"rule-starting_pot": "32", "rule-stake_cents": "0,20"},
                                 "stake_cents", "0,10")):
        page = client.post("/g/tanne/games/new", data={**data, **rules})
        assert page.status_code == 400
        label = re.search(rf'<label class="field has-error">(?:(?!</label>).)*rule-{field}.*?'
                          r'</label>', page.get_data(as_text=True), re.S)
        assert label and words in label.group(0)  # told at the field, with the Kasse's figure
    start = client.post("/g/tanne/games/new", data={**data, "rule-starting_pot": "32"})
    assert start.status_code == 302
    state = client.get(start.location + "/state.json").get_json()
    assert state["pot"] == 32 and state["rules"]["stake_cents"] == 10


def test_a_night_past_midnight_is_still_the_same_evening(app, monkeypatch):
    from types import SimpleNamespace

    from scorekeeper.group import club

    class At(dt.datetime):
        moment = None

        @classmethod
        def now(cls, tz=None):
            return cls.moment.astimezone(tz)

    monkeypatch.setattr(club, "dt", SimpleNamespace(datetime=At, timedelta=dt.timedelta,
                                                    date=dt.date))
    berlin = __import__("zoneinfo").ZoneInfo("Europe/Berlin")
    with app.app_context():
        At.moment = dt.datetime(2026, 11, 28, 1, 30, tzinfo=berlin)  # Saturday, 1:30 at night
        assert club.evening_day() == dt.date(2026, 11, 27)
        At.moment = dt.datetime(2026, 11, 28, 7, 0, tzinfo=berlin)
        assert club.evening_day() == dt.date(2026, 11, 28)
