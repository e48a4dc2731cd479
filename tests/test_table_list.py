"""What the table found (issue 26, item 4), the server's part: one game per new-game form, entries
named as the table names them, a correction preview with the money, a table change that offers
what makes sense, an ended game's state and the join link `import` prints."""

import html
import json
import re

from support import enter, start_game

from scorekeeper.db import db
from scorekeeper.models import Game

JSON = {"Accept": "application/json"}


def text(page):
    """A page's text without tags, its spaces squeezed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def running(app):
    with app.app_context():
        return db.session.scalars(db.select(Game.id).where(Game.status == "running")).all()


# --- Back, then "Spiel starten" again: one game -------------------------------------------------

def new_game(kind, names, **fields):
    return {"kind": kind, "order": "\n".join(names), "first_dealer": names[0],
            **{f"seat-{n}": "on" for n in names}, **fields}


def test_the_same_new_game_form_sent_again_opens_the_game_it_started(app, client):
    first = start_game(client, "hartenjagen", ["A", "B", "C", "D"])
    enter(client, first, {"hearts-A": 13, "queen": "B"})
    again = client.post("/g/tanne/games/new", data=new_game("hartenjagen", ["A", "B", "C", "D"]))
    assert again.status_code == 302 and again.location == first
    assert "Dieses Spiel läuft schon: Hier ist es." in client.get(first).get_data(as_text=True)
    assert running(app) == [1]
    # another table, the same players in another order, or other rules: a game of its own
    assert start_game(client, "hartenjagen", ["B", "A", "C", "D"]) != first
    assert start_game(client, "vier-anderle", ["A", "B", "C", "D"]) != first
    assert start_game(client, "hartenjagen", ["A", "B", "C", "D"], rules={"moon": "choice"}) \
        != first
    assert len(running(app)) == 4


def test_a_second_start_keeps_the_kasse_pot_in_the_one_game(app, client):
    """The Vier-Anderle case: the Kasse holds 12 stakes; the new game takes them in, and the
    form sent a second time opens that game instead of a second one with an empty pot."""
    old = start_game(client, "vier-anderle", ["A", "B", "C"])
    enter(client, old, {"tricks-A": 4})  # B and C pay 4 each: 12 in the pot
    client.post(old + "/close")  # the Kasse keeps them for the next game
    form = client.get("/g/tanne/games/new?kind=vier-anderle").get_data(as_text=True)
    pot = re.search(r'name="rule-starting_pot"[^>]*value="(\d+)"', form).group(1)
    data = new_game("vier-anderle", ["A", "B", "C"], **{"rule-starting_pot": pot})
    game = client.post("/g/tanne/games/new", data=data).location
    again = client.post("/g/tanne/games/new", data=data)
    assert again.status_code == 302 and again.location == game
    assert running(app) == [2]
    assert client.get(game + "/state.json").get_json()["pot"] == 12


# --- entries named as the table names them ------------------------------------------------------

def vier_anderle_with_a_table_change(client):
    """Hand 1, a table change (D gets up, E sits down), hand 2: three entries, two hands."""
    path = start_game(client, "vier-anderle", ["A", "B", "C", "D"])
    enter(client, path, {"tricks-A": 4})
    enter(client, path, {"table": "1", "seat-A": "y", "seat-B": "y", "seat-C": "y",
                         "new_player": "E"})
    enter(client, path, {"tricks-A": 1, "tricks-B": 1, "tricks-C": 1, "tricks-E": 1,
                         "playing-A": "y", "playing-B": "y", "playing-C": "y",
                         "playing-E": "y"})
    assert client.get(path + "/state.json").get_json()["hands_played"] == 2
    return path


def history_rows(client, path):
    """Each history row: the text of its first cell (the number) and of its last."""
    page = client.get(path + "/history").get_data(as_text=True)
    body = re.search(r"<tbody>(.*)</tbody>", page, re.S).group(1)
    return [(text(cells[0]), text(cells[-1]))
            for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)
            if (cells := re.findall(r"<td[^>]*>(.*?)</td>", row, re.S))]


def test_the_history_numbers_the_hands_as_the_table_does(client):
    path = vier_anderle_with_a_table_change(client)
    rows = history_rows(client, path)
    assert [number for number, _ in rows] == ["2", "", "1"]
    assert rows[1][1].startswith("Tischwechsel Tisch: A, B, C, E")
    page = client.get(path + "/history").get_data(as_text=True)
    # the number of hand 2 opens entry 3 (the record keeps its entry numbers)
    assert re.search(r'href="[^"]*/entries/3" aria-label="Korrigieren: Hand 2">2</a>', page)
    assert 'aria-label="Korrigieren: Tischwechsel"' in page


def test_undone_entries_keep_the_names_the_table_gave_them(client):
    path = vier_anderle_with_a_table_change(client)
    for seq in (3, 2):  # hand 2, then the table change
        client.post(path + "/undo", data={"seq": seq})
    rows = history_rows(client, path)
    assert [number for number, _ in rows] == ["2", "", "1"]
    assert "rückgängig" in rows[0][1]
    assert rows[1][1].startswith("Tischwechsel: Tisch: A, B, C, E") and "rückgängig" in rows[1][1]


def test_undo_names_the_hand_another_phone_undid(client):
    path = vier_anderle_with_a_table_change(client)
    client.post(path + "/undo", data={"seq": 3})  # another phone undid hand 2 (entry 3)
    page = client.get(path + "/undo?seq=3", follow_redirects=True).get_data(as_text=True)
    assert "Hand 2 wurde schon rückgängig gemacht" in page and "Eintrag 3" not in page
    page = client.get(path + "/undo?seq=1", follow_redirects=True).get_data(as_text=True)
    assert "Hand 1 ist nicht mehr der letzte Eintrag" in page


def test_a_hand_sent_late_is_named_as_the_table_named_it(client):
    path = vier_anderle_with_a_table_change(client)
    # typed as hand 2 (entry 3) on a phone without network; another phone entered it first
    late = client.post(path + "/entries", data={"seq": 3, "tricks-A": 4, "playing-A": "y"},
                       headers=JSON)
    assert late.status_code == 409
    refused = late.get_json()["refused"]
    assert refused.startswith("Hand 2 passt nicht mehr") and "Eintrag" not in refused


# --- the correction preview: the money, and a rubber it would reopen ----------------------------

FOUR = ["A", "B", "C", "D"]
# a rubber of one game: B and C play the final stage, and the last deal gives one of them the
# line; with their points the other way round nobody loses yet
RUBBER = [{"A": 0, "B": 77, "C": 63, "D": 0}, {"B": 0, "C": 0, "D": 36, "A": 104},
          {"C": 24, "D": 0, "B": 85}, {"B": 35, "C": 12}]
SWAPPED = {"points-B": 12, "points-C": 35}


def rubber(client):
    path = start_game(client, "hintersche", FOUR, rules={"rubber_games": "1"})
    for points in RUBBER:
        assert enter(client, path, {f"points-{n}": v for n, v in points.items()}).status_code \
            == 302
    state = client.get(path + "/state.json").get_json()
    assert state["finished"]
    return path, state


def preview(client, path, seq, fields):
    response = client.post(f"{path}/entries/{seq}", data=fields, follow_redirects=True)
    assert response.status_code == 200
    return response.get_data(as_text=True)


def money_rows(page):
    """The preview's money: per player the text of the row."""
    table = re.search(r'<table class="sheet" id="money">(.*?)</table>', page, re.S).group(1)
    return [text(row) for row in re.findall(r"<tr>(.*?)</tr>", table, re.S)][1:]


def test_the_correction_preview_shows_each_players_money_before_and_after(client):
    path, state = rubber(client)
    loser = next(p for p in state["players"] if p["lines"])
    assert loser["balance_cents"] == -1500  # a line at 5 € to each of three
    rows = money_rows(preview(client, path, 4, SWAPPED))
    assert len(rows) == 4
    assert f"{loser['name']} -15,00 € → 0,00 €" in [row.replace("−", "-") for row in rows]
    assert sum(row.endswith(" 5,00 € → 0,00 €") for row in rows) == 3


def test_the_money_preview_of_a_vier_anderle_correction(client):
    path = start_game(client, "vier-anderle", ["A", "B", "C"])
    enter(client, path, {"tricks-A": 2, "tricks-B": 2})  # C pays 4, A (the dealer) the ante
    rows = money_rows(preview(client, path, 1, {"tricks-A": 2, "tricks-B": 1, "tricks-C": 1}))
    assert rows == ["A -0,40 €", "B 0,00 €", "C -0,40 € → 0,00 €"]


def test_a_correction_of_a_game_played_for_no_money_shows_no_money(client):
    """A Hartenjagen list without money (a tournament's table): no table of 0,00 € (a game
    with money shows it: the Vier-Anderle test above)."""
    path = start_game(client, "hartenjagen", ["A", "B", "C", "D"])
    enter(client, path, {"hearts-A": "12", "hearts-B": "1", "queen": "D"})
    page = preview(client, path, 1, {"hearts-A": "11", "hearts-B": "2", "queen": "D"})
    assert "Was die Korrektur ändert" in page and 'id="money"' not in page


def test_a_correction_that_reopens_a_rubber_warns_when_the_next_one_has_begun(client):
    path, _state = rubber(client)
    page = text(preview(client, path, 4, SWAPPED))
    assert "Diese Korrektur macht die fertige Runde wieder auf" in page
    assert "hat schon angefangen" not in page
    game_id = path.rsplit("/", 1)[1]
    form = client.get(f"/g/tanne/games/new?from={game_id}").get_data(as_text=True)
    order = re.search(r'<textarea name="order" hidden>(.*?)</textarea>', form, re.S).group(1)
    dealer = re.search(r'<option value="([^"]+)" selected>', form).group(1)
    names = order.split("\n")[:4]
    response = client.post(f"/g/tanne/games/new?from={game_id}",
                           data={**new_game("hintersche", names), "first_dealer": dealer})
    following = response.location.rsplit("/", 1)[1]
    assert following != game_id
    page = text(preview(client, path, 4, SWAPPED))
    assert (f"Diese Korrektur macht die fertige Runde wieder auf, dabei hat die nächste Runde "
            f"(#{following}) schon angefangen") in page
    # a correction that leaves the rubber over says nothing of it
    page = text(preview(client, path, 4, {"points-B": 36, "points-C": 11}))
    assert "wieder auf" not in page


# --- the table change: sensible seats and seated dealers ----------------------------------------

def options(page, name):
    select = re.search(rf'<select[^>]*name="{name}"[^>]*>(.*?)</select>', page, re.S).group(1)
    return [(html.unescape(value), text(label))
            for value, label in re.findall(r'<option[^>]*value="([^"]*)"[^>]*>(.*?)</option>',
                                           select, re.S)]


def test_a_fresh_table_change_offers_the_table_as_it_is(client):
    start_game(client, "hartenjagen", ["A", "B", "E", "F"])  # E and F are in the group too
    path = start_game(client, "vier-anderle", ["A", "B", "C", "D"])
    enter(client, path, {"tricks-A": 4})
    form = client.get(path + "/form?kind=table").get_data(as_text=True)
    assert [value for value, _ in options(form, "dealer")] == ["", "A", "B", "C", "D"]
    assert options(form, "after") == [("A", "zwischen A und B"), ("B", "zwischen B und C"),
                                      ("C", "zwischen C und D"), ("", "zwischen D und A")]
    # E and F can still sit down
    assert 'name="seat-E"' in form and 'name="seat-F"' in form


def test_whoever_sits_down_next_to_a_player_who_gets_up_takes_that_seat(client):
    path = start_game(client, "vier-anderle", ["A", "B", "C", "D"])
    enter(client, path, {"tricks-A": 4})
    # B gets up, E sits down "between B and C": in B's seat, between A and C
    enter(client, path, {"table": "1", "seat-A": "y", "seat-C": "y", "seat-D": "y",
                         "new_player": "E", "after": "B"})
    assert client.get(path + "/state.json").get_json()["seated"] == ["A", "E", "C", "D"]


def test_a_table_change_sent_back_offers_only_seats_and_dealers_of_the_new_table(client):
    start_game(client, "hartenjagen", ["A", "B", "E", "F"])
    path = start_game(client, "vier-anderle", ["A", "B", "C", "D"])
    enter(client, path, {"tricks-A": 4})
    # B gets up, E sits down, and B is named to deal: refused, the form comes back
    page = enter(client, path, {"table": "1", "seat-A": "y", "seat-C": "y", "seat-D": "y",
                                "seat-E": "y", "after": "A", "dealer": "B"})
    assert page.status_code == 400
    form = page.get_data(as_text=True)
    assert "B sitzt nicht am neuen Tisch" in text(form)
    assert options(form, "after") == [("A", "zwischen A und C"), ("C", "zwischen C und D"),
                                      ("", "zwischen D und A")]
    assert [value for value, _ in options(form, "dealer")] == ["", "A", "E", "C", "D"]


# --- an ended game's state.json -----------------------------------------------------------------

def test_the_state_of_an_ended_game_says_it_was_ended(client):
    path = start_game(client, "hartenjagen", FOUR, rules={"cents_per_point": "0,05"})
    enter(client, path, {"hearts-A": 3, "hearts-C": 10, "queen": "B"})
    state = client.get(path + "/state.json").get_json()
    assert (state["status"], state["ended"], state["finished"]) == ("running", False, False)
    client.post(path + "/close")
    state = client.get(path + "/state.json").get_json()
    assert (state["status"], state["ended"], state["finished"]) == ("closed", True, False)
    # the money as the game was ended: each pays the leader (D, no points) 5 cents a point
    assert [p["balance_cents"] for p in state["players"]] == [-15, -65, -50, 130]
    assert len(state["history"]) == 1


# --- the join link `import` prints --------------------------------------------------------------

def import_record(app, tmp_path):
    record = tmp_path / "game.json"
    record.write_text(json.dumps({"format": "scorekeeper-game/1", "game": "hartenjagen",
                                  "players": FOUR, "hands": []}))
    return app.test_cli_runner().invoke(args=["import", str(record), "--group", "tanne"])


def test_import_prints_the_join_link_on_the_configured_address(app, tmp_path):
    app.config.update(SERVER_NAME="skat.example.org", PREFERRED_URL_SCHEME="https")
    result = import_record(app, tmp_path)
    assert result.exit_code == 0, result.output
    assert re.search(r"^join link: https://skat\.example\.org/join/[\w-]{32}$", result.stdout,
                     re.M)
    assert result.stderr == ""
    app.config["PUBLIC_URL"] = "https://karten.example.org/tanne"  # SCOREKEEPER_URL wins
    result = import_record(app, tmp_path)
    assert re.search(r"^join link: https://karten\.example\.org/tanne/join/[\w-]{32}$",
                     result.stdout, re.M)


def test_import_says_how_to_set_the_address_when_none_is_configured(app, tmp_path, monkeypatch):
    monkeypatch.delenv("SCOREKEEPER_URL", raising=False)
    result = import_record(app, tmp_path)
    assert result.exit_code == 0, result.output
    assert re.search(r"^join link: http://localhost:5000/join/[\w-]{32}$", result.stdout, re.M)
    assert "SCOREKEEPER_URL" in result.stderr and "SERVER_NAME" in result.stderr
