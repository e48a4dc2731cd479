"""The free list in the web app, as a German table uses it: the new game named by the group, its
options as typed ("0,05", empty for none), hands with negative points, a list that must add up
to 0, and standings, ratings and records per name (Skat apart from Doppelkopf)."""

import csv
import html
import io
import re

from support import enter, start_game

from scorekeeper.db import db
from scorekeeper.models import Game, Result

SKAT = ["Kurt", "Hubert", "Hermann"]


def new_game(client, **fields):
    """Post the new-game form of a free list for the three players, with these fields."""
    client.post("/groups", data={"name": "tanne"})
    data = {"kind": "free-list", "order": "\n".join(SKAT), "first_dealer": "Kurt",
            **{f"seat-{n}": "on" for n in SKAT}, **fields}
    return client.post("/g/tanne/games/new", data=data)


def field(page, name):
    """The input of field `name`, its error (if any) and what it shows."""
    found = re.search(rf'<label class="field[^"]*">(?:(?!</label>).)*?name="{name}"'
                      rf'(?:(?!</label>).)*</label>', page, re.S)
    assert found, name
    return found.group(0)


def hand(**points):
    return {f"points-{name}": str(value) for name, value in points.items()}


def state(client, path):
    return client.get(path + "/state.json").get_json()


def offered(page):
    """The names the phone offers for the name field."""
    assert 'name="rule-name"' in page and 'list="rule-name-offered"' in page
    listed = re.search(r'<datalist id="rule-name-offered">(.*?)</datalist>', page, re.S).group(1)
    return re.findall(r'<option value="([^"]+)">', listed)


def test_the_new_game_asks_the_name_first_and_offers_the_usual_ones(client):
    client.post("/groups", data={"name": "tanne"})
    page = client.get("/g/tanne/games/new?kind=free-list").get_data(as_text=True)
    name = field(page, "rule-name")
    assert 'type="text"' in name and "der Name des Spiels" in name
    # above the players and outside the folded options, which hold the rest
    assert page.index('name="rule-name"') < page.index('name="first_dealer"') < page.index(
        "Regeln einstellen") < page.index('name="rule-winner"')
    assert offered(page) == ["Skat", "Doppelkopf", "Schafkopf", "Binokel", "Jass"]
    assert "(2–8)" in page
    # an empty number field means none, and says so
    assert 'placeholder="kein Ziel"' in field(page, "rule-target")
    assert 'placeholder="keine Grenze"' in field(page, "rule-hands")
    assert 'inputmode="decimal"' in field(page, "rule-cents_per_point")
    # the group's last free list's name comes first
    path = start_game(client, "free-list", SKAT, rules={"name": "Binokel"})
    assert client.post(path + "/close").status_code == 302
    page = client.get("/g/tanne/games/new?kind=free-list").get_data(as_text=True)
    assert offered(page)[:2] == ["Binokel", "Skat"]


def test_the_rules_page_says_no_target_and_no_limit(client):
    page = client.get("/rules/free-list").get_data(as_text=True)
    assert re.search(r"<b>target</b>.*?</td>\s*<td>kein Ziel</td>", page, re.S)
    assert re.search(r"<b>hands</b>.*?</td>\s*<td>keine Grenze</td>", page, re.S)
    assert re.search(r"<b>name</b>.*?</td>\s*<td>–</td>", page, re.S)
    client.get("/lang/nl")
    page = client.get("/rules/free-list").get_data(as_text=True)
    assert "geen doel" in page and "geen grens" in page


def test_a_game_without_a_name_is_refused_at_the_field_with_what_was_typed_kept(app, client):
    for typed in ("", "   "):
        answer = new_game(client, **{"rule-name": typed, "rule-cents_per_point": "0,05",
                                     "rule-target": "500", "rule-winner": "lowest"})
        assert answer.status_code == 400
        page = answer.get_data(as_text=True)
        name = field(page, "rule-name")
        assert "has-error" in name and '<small class="error">' in name
        # the rest stays as it was typed: the players, the money, the target, the choice
        assert 'value="0,05"' in field(page, "rule-cents_per_point")
        assert 'value="500"' in field(page, "rule-target")
        assert re.search(r'<option selected value="lowest">|<option value="lowest" selected',
                         page)
        assert all(re.search(rf'name="seat-{n}" value="{n}" checked', page) for n in SKAT)
    long = "Doppelkopf mit Armut, Hochzeit und Schweinchen 1"  # 48 letters
    page = new_game(client, **{"rule-name": long}).get_data(as_text=True)
    assert "has-error" in field(page, "rule-name") and f'value="{long}"' in page
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(Game.id))) == 0


def test_the_game_is_called_by_its_name_everywhere(client):
    answer = new_game(client, **{"rule-name": "  Skat ", "rule-cents_per_point": "0,05"})
    assert answer.status_code == 302
    path = answer.location
    game_id = path.rsplit("/", 1)[1]
    table = client.get(path).get_data(as_text=True)
    assert f"<title>Skat #{game_id}</title>" in table
    assert re.search(rf'<h1 class="compact">Skat <span class="muted">#{game_id}</span>', table)
    assert enter(client, path, hand(Kurt=48)).status_code == 302
    evening = client.get("/g/tanne").get_data(as_text=True)
    assert re.search(rf"<span>Skat <span class=\"muted\">#{game_id} · Kurt, Hubert, Hermann",
                     evening)
    history = client.get(path + "/history").get_data(as_text=True)
    assert f"Skat #{game_id}" in history and "Freie Liste" not in history
    assert f"Skat <span class=\"muted\">#{game_id}</span>" in client.get(path + "/tv").get_data(
        as_text=True)
    rows = list(csv.DictReader(io.StringIO(client.get("/g/tanne/export.csv").get_data(
        as_text=True))))
    assert [(r["game"], r["name"], r["Kurt"]) for r in rows] == [("free-list", "Skat", "48")]


def test_negative_points_as_a_german_player_types_them(client):
    path = new_game(client, **{"rule-name": "Skat"}).location
    # the table page's fields: digits on the phone's pad, a ± beside each, empty for nobody
    page = client.get(path).get_data(as_text=True)
    assert page.count("data-negate") == 3
    assert 'inputmode="numeric"' in page and 'name="points-Kurt"' in page
    assert "data-fill" not in page  # no hand need add up to 0
    for typed in ("-23", " -23 ", "\u221223"):  # with the typographic minus too
        assert enter(client, path, {"points-Hubert": typed}).status_code == 302
    assert enter(client, path, hand(Kurt=59, Hermann=0)).status_code == 302
    found = state(client, path)
    assert {p["name"]: p["score"] for p in found["players"]} == {"Kurt": 59, "Hubert": -69,
                                                                  "Hermann": 0}
    assert found["history"][-1]["points"] == {"Kurt": 59, "Hubert": 0, "Hermann": 0}
    table = client.get(path).get_data(as_text=True)
    assert '<small class="neg">-23</small>' in table and "<b>-69</b>" in table


def test_a_slip_or_an_empty_hand_is_told_at_the_field_and_nothing_is_stored(client):
    path = new_game(client, **{"rule-name": "Skat"}).location
    answer = enter(client, path, {"points-Kurt": "23x", "points-Hubert": "-5"})
    assert answer.status_code == 400
    page = answer.get_data(as_text=True)
    assert "Bitte eine ganze Zahl eingeben." in field(page, "points-Kurt")
    assert 'value="23x"' in page and 'value="-5"' in page
    answer = enter(client, path, {"points-Kurt": "", "points-Hubert": ""})
    assert answer.status_code == 400
    assert "bitte die Punkte von mindestens einem Spieler eingeben" in answer.get_data(
        as_text=True)
    assert state(client, path)["hands_played"] == 0


def test_a_zero_sum_hand_that_does_not_add_up_is_refused_with_the_engines_words(client):
    path = new_game(client, **{"rule-name": "Doppelkopf", "rule-zero_sum": "y"}).location
    page = client.get(path).get_data(as_text=True)
    assert re.search(r'<div class="grid2 points" data-fill="0">', page)
    answer = enter(client, path, hand(Kurt=3, Hubert=-1, Hermann=-1))
    assert answer.status_code == 400
    page = answer.get_data(as_text=True)
    error = re.search(r'<small class="error" role="alert">([^<]*)</small>', page).group(1)
    assert html.unescape(error) == "die Punkte ergeben 1, in diesem Spiel ergibt jede Hand 0"
    assert all(f'value="{v}"' in page for v in ("3", "-1"))
    assert state(client, path)["hands_played"] == 0
    assert enter(client, path, hand(Kurt=3, Hubert=-1, Hermann=-2)).status_code == 302
    assert [p["balance_cents"] for p in state(client, path)["players"]] == [0, 0, 0]


def test_money_per_point_as_typed_and_the_evenings_settlement(client):
    """Skat at 5 cents a point: everyone settles the difference with everyone."""
    path = new_game(client, **{"rule-name": "Skat", "rule-cents_per_point": "0,05"}).location
    assert enter(client, path, hand(Kurt=23, Hubert=-23)).status_code == 302
    assert enter(client, path, hand(Hermann=48)).status_code == 302
    found = state(client, path)
    assert found["rules"]["cents_per_point"] == 5
    assert [p["balance_cents"] for p in found["players"]] == [105, -585, 480]
    assert client.post(path + "/close").status_code == 302
    with client.application.app_context():
        evening = db.session.scalar(db.select(Game.evening_id))
    settled = client.get(f"/g/tanne/evenings/{evening}/settlement.json").get_json()
    assert settled["balances_cents"] == {"Kurt": 105, "Hubert": -585, "Hermann": 480}
    assert sorted((p["from"], p["to"], p["cents"]) for p in settled["payments"]) == [
        ("Hubert", "Hermann", 480), ("Hubert", "Kurt", 105)]
    # the next game at the table: the same name and money, the deal passed on
    page = client.get(f"/g/tanne/games/new?from={path.rsplit('/', 1)[1]}").get_data(as_text=True)
    assert 'value="Skat"' in field(page, "rule-name")
    assert 'value="0,05"' in field(page, "rule-cents_per_point")
    assert re.search(r'<option value="Hermann" selected>', page)


def test_the_standings_count_each_name_on_its_own(app, client):
    skat = start_game(client, "free-list", SKAT, rules={"name": "Skat", "target": "100"})
    assert enter(client, skat, hand(Kurt=120)).status_code == 302  # over: Kurt wins
    doko = start_game(client, "free-list", SKAT + ["Alfred"],
                      rules={"name": "Doppelkopf", "zero_sum": "y", "winner": "lowest"})
    assert enter(client, doko, hand(Kurt=6, Hubert=-2, Hermann=-2, Alfred=-2)).status_code == 302
    assert client.post(doko + "/close").status_code == 302  # ended: the lowest, 3 share it
    with app.app_context():
        stored = {(r.name, r.player): (r.figures["wins"], r.figures["ahead"])
                  for r in db.session.scalars(db.select(Result))}
    assert stored[("Skat", "Kurt")] == (1, 2) and stored[("Skat", "Hubert")] == (0, 0)
    assert stored[("Doppelkopf", "Kurt")] == (0, 0) and stored[("Doppelkopf", "Alfred")] == (0, 1)
    page = client.get("/g/tanne/standings").get_data(as_text=True)
    sections = re.findall(r"<h2>([^<]*)</h2>\s*<table class=\"sheet compact\">", page)
    assert sections[1:] == ["Doppelkopf", "Skat"]  # a game's names in alphabetical order
    doppelkopf = page[page.index("<h2>Doppelkopf</h2>"):page.index("<h2>Skat</h2>")]
    skat = page[page.index("<h2>Skat</h2>"):page.index("Spielstärke")]
    assert "Alfred" in doppelkopf and "Alfred" not in skat
    ratings = page[page.index("Spielstärke"):]
    assert "<h3>Skat</h3>" in ratings and "<h3>Doppelkopf</h3>" in ratings
    with app.test_request_context():
        from scorekeeper.models import Group
        from scorekeeper.season import chronicle

        group = db.session.scalar(db.select(Group))
        year = db.session.scalar(db.select(Result.season))
        season = chronicle.chronicle(group, year)
    assert list(season["per_game"]) == ["free-list:Doppelkopf", "free-list:Skat"]
    (wins,) = [r for r in season["records"] if r["figure"] == "wins"]  # Doppelkopf had none
    assert (wins["game"], [h["player"] for h in wins["holders"]]) == ("free-list:Skat", ["Kurt"])
    player = client.get("/g/tanne/players/1").get_data(as_text=True)
    assert "· Skat" in player and "· Doppelkopf" in player
