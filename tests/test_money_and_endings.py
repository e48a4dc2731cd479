"""Money as German players type it, deals after a table change, corrections that would re-type a
later hand, ending and deleting games, games refused after an upgrade, and the races and labels
that used to give a 500."""

import dataclasses
import re

import pytest
from sqlalchemy import select
from support import DE, enter, start_game

from scorekeeper.changes import derived, renaming
from scorekeeper.db import db
from scorekeeper.engine import hartenjagen
from scorekeeper.group import club
from scorekeeper.models import Game, Group, Player, Result
from scorekeeper.table import scoring

FOUR = ["Kurt", "Hubert", "Hermann", "Alfred"]
SIX = ["A", "B", "C", "D", "E", "F"]


def record(client, path):
    return client.get(path + "/record.json").get_json()


def state(client, path):
    return client.get(path + "/state.json").get_json()


def field_error(page, name):
    """The error shown at a rule option's field, or None."""
    found = re.search(rf'<label class="field has-error">(?:(?!</label>).)*name="rule-{name}"'
                      r'(?:(?!</label>).)*<small class="error">([^<]*)</small>', page, re.S)
    return found and found.group(1)


# --- money as people type it -------------------------------------------------------------------

@pytest.mark.parametrize("typed, cents", [("0,20", 20), ("0.20", 20), ("1,50", 150), ("1", 100),
                                          ("2,5", 250), (" 0,05 € ", 5)])
def test_money_is_stored_in_cents_as_typed_with_a_comma_or_a_point(client, typed, cents):
    path = start_game(client, "vier-anderle", SIX, rules={"stake_cents": typed})
    assert record(client, path)["rules"].get("stake_cents", 10) == cents


@pytest.mark.parametrize("typed", ["020x", "1.000,50", "1e3", "NaN", "-1", "0,2,0", "zwanzig"])
def test_money_that_is_no_amount_is_refused_at_its_field_in_words(client, typed):
    client.post("/groups", data={"name": "tanne"})
    data = {"kind": "vier-anderle", "order": "\n".join(SIX), "first_dealer": "A",
            "rule-stake_cents": typed, **{f"seat-{n}": "on" for n in SIX}}
    response = client.post("/g/tanne/games/new", data=data)
    page = response.get_data(as_text=True)
    assert response.status_code == 400
    assert field_error(page, "stake_cents") == DE("Please enter an amount in euros, like "
                                                  "%(example)s.") % {"example": "0,50"}
    assert re.search(r'name="rule-stake_cents"[^>]*value="' + re.escape(typed) + '"', page)
    with client.application.app_context():
        assert db.session.scalar(select(Game.id)) is None


def test_a_money_field_is_a_text_field_with_the_decimal_keypad(client):
    client.post("/groups", data={"name": "tanne"})
    page = client.get("/g/tanne/games/new?kind=hintersche").get_data(as_text=True)
    field = re.search(r'<input[^>]*name="rule-tariff_cents"[^>]*>', page).group(0)
    assert 'type="text"' in field and 'inputmode="decimal"' in field and 'value="5,00"' in field


@pytest.mark.parametrize("kind, names, rules, key, shown", [
    ("hintersche", FOUR, {"tariff_cents": "0,50"}, "tariff_cents", "0,50"),
    ("hartenjagen", FOUR, {"cents_per_point": "0,05"}, "cents_per_point", "0,05"),
    ("vier-anderle", SIX, {"stake_cents": "0,20"}, "stake_cents", "0,20"),
])
def test_the_next_game_keeps_its_money_in_german(client, kind, names, rules, key, shown):
    path = start_game(client, kind, names, rules=rules)
    game_id = path.rsplit("/", 1)[1]
    page = client.get(f"/g/tanne/games/new?from={game_id}").get_data(as_text=True)
    assert re.search(rf'name="rule-{key}"[^>]*value="{shown}"', page)
    # posted back as the browser shows it, it is the same money
    data = {"kind": kind, "order": "\n".join(names), "first_dealer": names[1],
            f"rule-{key}": shown, **{f"seat-{n}": "on" for n in names}}
    response = client.post(f"/g/tanne/games/new?from={game_id}", data=data)
    assert response.status_code == 302
    assert record(client, response.location)["rules"][key] == int(shown.replace(",", ""))


# --- the deal after a table change (the seed: "links vom vorigen Geber") ------------------------

def test_after_a_table_change_the_table_page_names_who_sits_after_the_last_dealer(client):
    path = start_game(client, "vier-anderle", SIX)
    assert enter(client, path, {"tricks-A": 2, "tricks-B": 1, "tricks-C": 1}).status_code == 302
    page = client.get(path + "/form?kind=table").get_data(as_text=True)  # opened
    assert DE("as usual (after %(name)s)") % {"name": "A"} in page
    change = {"table": "1", "new_player": "Gustl", "after": "A",
              **{f"seat-{n}": "on" for n in SIX}}
    assert enter(client, path, change).status_code == 302
    assert state(client, path)["next_dealer"] == "Gustl"  # sits right after A, who dealt


# --- corrections that would change what a later hand means ---------------------------------------

def test_a_correction_that_would_make_a_later_type_1_hand_a_type_2_hand_is_refused(client):
    path = start_game(client, "vier-anderle", ["A", "B", "C"])
    enter(client, path, {"tricks-A": 4})  # B and C pay: the pot holds 12
    enter(client, path, {"playing-A": "on"})  # A plays alone and takes it: empty again
    enter(client, path, {"tricks-B": 4})  # so hand 3 is type 1: everybody plays
    before = record(client, path)
    # had C played hand 2 too (and taken no trick), C would have paid in: the pot would stay
    # full, and hand 3, played as a type-1 hand, would be read as a type-2 hand
    response = client.post(path + "/entries/2", data={
        "playing-A": "on", "playing-C": "on", "tricks-A": 4}, follow_redirects=True)
    page = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "Hand 3: " + DE("the correction would make this a type-{now} hand, but it was "
                           "played as a type-{was} hand").format(now=2, was=1) in page
    assert record(client, path) == before


def test_a_correction_of_a_table_change_that_changes_who_played_a_later_hand_is_refused(client):
    path = start_game(client, "vier-anderle", ["A", "B", "C", "D"])
    enter(client, path, {"tricks-A": 4})
    enter(client, path, {"playing-A": "on"})  # the pot is empty again
    enter(client, path, {"table": "1", **{f"seat-{n}": "on" for n in "ABC"}})  # D leaves
    enter(client, path, {"tricks-B": 4})  # hand 3: A, B and C played
    before = record(client, path)
    response = client.post(path + "/entries/3", data={
        "table": "1", **{f"seat-{n}": "on" for n in "ABCD"}}, follow_redirects=True)
    page = response.get_data(as_text=True)
    assert response.status_code == 400 and "Hand 3: " in page
    assert record(client, path) == before


# --- Back after a correction -------------------------------------------------------------------

def test_back_to_a_confirmed_correction_shows_the_table_and_applies_nothing_again(client):
    path = start_game(client, "hartenjagen", FOUR)
    enter(client, path, {"hearts-Kurt": 13, "queen": "Hubert"})
    enter(client, path, {"hearts-Hubert": 13, "queen": "Kurt"})
    fields = {"hearts-Kurt": 12, "hearts-Hermann": 1, "queen": "Hubert"}
    preview = client.post(path + "/entries/1", data=fields)
    assert preview.status_code == 302 and "proposal=" in preview.location  # a page of its own
    page = client.get(preview.location).get_data(as_text=True)
    version = re.search(r'name="confirm" value="([0-9]+)"', page).group(1)
    saved = client.post(path + "/entries/1", data={**fields, "confirm": version})
    assert saved.status_code == 302 and saved.location == path
    after = record(client, path)
    versions = client.get(path + "/live").get_json()["version"]
    again = client.get(preview.location)  # Back (or reload) to the preview
    assert again.status_code == 302 and again.location == path
    assert record(client, path) == after
    assert client.get(path + "/live").get_json()["version"] == versions
    forged = client.get(path + "/entries/1?proposal=x" + preview.location[-20:])
    assert forged.status_code == 200  # a broken address is the plain correction page


# --- ending a game, deleting one started by mistake ----------------------------------------------

def test_hartenjagen_ended_early_pays_the_leader_the_difference_and_nobody_wins(app, client):
    path = start_game(client, "hartenjagen", FOUR, rules={"cents_per_point": "0,10"})
    enter(client, path, {"hearts-Kurt": 13, "queen": "Hubert"})  # Kurt 13, Hubert 13
    page = client.get(path).get_data(as_text=True)
    assert DE("End the game now") not in page  # folded: worked out when it is opened
    assert f'data-load="{path}/ending"' in page
    assert client.get(f"{path}?form=end").get_data(as_text=True).count(DE("End the game now"))
    box = client.get(path + "/ending").get_data(as_text=True)
    assert DE("End the game now") in box
    assert "-1,30\xa0€" in box and "1,30\xa0€" in box  # what ending it now would pay
    assert client.post(path + "/close").status_code == 302
    shown = state(client, path)
    with app.app_context():
        game = db.session.scalar(select(Game))
        assert game.status == "closed"
        money = {p["name"]: p["balance_cents"] for p in game.state["players"]}
        assert money == {"Kurt": -130, "Hubert": -130, "Hermann": 130, "Alfred": 130}
        assert game.state["next_dealer"] is None
        wins = {r.player: r.figures["wins"] for r in db.session.scalars(select(Result))}
        assert wins == dict.fromkeys(FOUR, 0)
        scoring.rebuild(game)  # an upgrade's rebuild keeps the money as it was ended
        assert {p["name"]: p["balance_cents"] for p in game.state["players"]} == money
    assert shown["hands_played"] == 1
    assert enter(client, path, {"hearts-Kurt": 13, "queen": "Hubert"}).status_code == 302
    assert len(record(client, path)["hands"]) == 1  # no more hands
    history = client.get(path + "/history").get_data(as_text=True)
    assert DE("The game was ended early.") in history
    export = client.get("/g/tanne/export.json").get_json()
    played = export["evenings"][0]["games"][0]
    assert played["status"] == "closed" and played["revisions"][-1]["action"] == "end"


def test_hintersche_ended_early_counts_the_lines_so_far_at_the_tariff(app, client):
    path = start_game(client, "hintersche", FOUR, rules={"tariff_cents": "0,50"})
    for _ in range(5):  # Kurt takes the most points five times: a game lost, lines for him
        enter(client, path, {"points-Kurt": 30, "points-Hubert": 45, "points-Hermann": 35,
                             "points-Alfred": 30})
    before = {p["name"]: p["balance_cents"] for p in state(client, path)["players"]}
    page = client.get(path + "/ending").get_data(as_text=True)  # the end box, opened
    assert DE("The lines so far count at the tariff of %(tariff)s a line, as in the table "
              "above.") % {"tariff": "0,50\xa0€"} in page
    assert client.post(path + "/close").status_code == 302
    with app.app_context():
        game = db.session.scalar(select(Game))
        assert game.status == "closed"
        assert {p["name"]: p["balance_cents"] for p in game.state["players"]} == before


def test_a_game_without_hands_can_be_deleted_and_counts_nowhere(app, client):
    path = start_game(client, "vier-anderle", SIX)
    assert DE("Delete the game") in client.get(path).get_data(as_text=True)
    response = client.post(path + "/delete")
    assert response.status_code == 302 and response.location == "/g/tanne"
    assert path not in client.get("/g/tanne").get_data(as_text=True)
    with app.app_context():
        assert db.session.scalar(select(Game.status)) == "deleted"
        assert db.session.scalar(select(Result.id)) is None
    export = client.get("/g/tanne/export.json").get_json()
    assert export["evenings"][0]["games"][0]["status"] == "deleted"
    assert DE("The game was deleted.") in client.get(path + "/history").get_data(as_text=True)


def test_a_game_with_hands_is_never_deleted(app, client):
    path = start_game(client, "vier-anderle", SIX)
    enter(client, path, {"tricks-A": 4})
    assert client.post(path + "/delete").status_code == 302
    with app.app_context():
        assert db.session.scalar(select(Game.status)) == "running"
    assert len(record(client, path)["hands"]) == 1


# --- after an upgrade the engine refuses a stored game --------------------------------------------

def test_a_game_the_engine_refuses_after_an_upgrade_is_read_only_without_a_500(app, client,
                                                                               monkeypatch):
    path = start_game(client, "hartenjagen", FOUR, rules={"target": "500"})
    enter(client, path, {"hearts-Kurt": 13, "queen": "Hubert"})
    # the new version allows a target of at most 200
    options = tuple(dataclasses.replace(o, maximum=200) if o.name == "target" else o
                    for o in hartenjagen.OPTIONS)
    monkeypatch.setattr(hartenjagen, "OPTIONS", options)
    monkeypatch.setattr(hartenjagen.Table, "OPTIONS", options)
    with app.app_context():
        assert derived.rebuild_all()  # a warning: the game no longer replays
    page = client.get(path)
    assert page.status_code == 200
    assert DE("Since an update of the app this game no longer fits its rules (%(why)s). It is "
              "shown as it was and takes no more hands; it can still be exported and ended."
              ).split("(")[0] in page.get_data(as_text=True)
    assert 'name="hearts-Kurt"' not in page.get_data(as_text=True)
    for url in ("/tv", "/history", "/entries/1", "/undo", "/record.json", "/state.json"):
        assert client.get(path + url).status_code in (200, 302), url
    assert client.get("/g/tanne/tv").status_code == 200
    assert client.get("/g/tanne/standings").status_code == 200
    assert client.get(f"/g/tanne/games/new?from={path.rsplit('/', 1)[1]}").status_code == 200
    assert enter(client, path, {"hearts-Kurt": 13, "queen": "Hubert"}).status_code == 302
    assert len(record(client, path)["hands"]) == 1
    assert client.post(path + "/close").status_code == 302
    with app.app_context():
        assert db.session.scalar(select(Game.status)) == "closed"


# --- races and labels --------------------------------------------------------------------------

def test_two_phones_creating_a_group_of_one_name_at_once_get_two_groups(app, client,
                                                                        monkeypatch):
    real = club.find_group
    monkeypatch.setattr(club, "find_group", lambda slug: None)  # both looked before either wrote
    assert client.post("/groups", data={"name": "Krone"}).status_code == 302
    other = app.test_client()
    response = other.post("/groups", data={"name": "Krone"})
    assert response.status_code == 302 and "/g/krone-2/" in response.location
    monkeypatch.setattr(club, "find_group", real)
    with app.app_context():
        assert sorted(db.session.scalars(select(Group.slug))) == ["krone", "krone-2"]


def test_a_device_label_keeps_only_printable_characters(app, client):
    client.environ_base["HTTP_USER_AGENT"] = "Kurts\x07 Handy\x1b[31m"
    path = start_game(client, "vier-anderle", SIX)
    enter(client, path, {"tricks-A": 4})
    export = client.get("/g/tanne/export.json").get_json()
    device = export["evenings"][0]["games"][0]["revisions"][0]["device"]
    assert device == "Kurts Handy[31m"


# --- small ones, and what a review broke on purpose ----------------------------------------------

def test_a_finished_hartenjagen_game_names_nobody_to_deal(client):
    path = start_game(client, "hartenjagen", FOUR, rules={"target": "20"})
    enter(client, path, {"hearts-Kurt": 10, "hearts-Hubert": 2, "hearts-Hermann": 1,
                         "queen": "Kurt"})  # Kurt 23: over; Alfred, with 0, wins
    assert state(client, path)["finished"] and state(client, path)["next_dealer"] is None


def test_a_closed_vier_anderle_game_shows_nobody_dealing(client):
    path = start_game(client, "vier-anderle", SIX)
    enter(client, path, {"tricks-A": 4})
    assert client.post(path + "/close").status_code == 302
    page = client.get(path).get_data(as_text=True)
    assert DE("Deals next") not in page and f"({DE('deals')})" not in page
    # not a dead end: where the pot went, the evening's settlement and the next game
    assert f"/g/tanne/games/new?from={path.rsplit('/', 1)[1]}" in page
    assert re.search(r'href="/g/tanne/evenings/\d+#payments"', page)
    assert state(client, path)["pot"] == 24  # the pot rule "kasse", the default
    assert "Der Pot von 2,40\xa0€ bleibt in der Kasse und kommt ins nächste" in page


def test_the_next_game_after_closing_time_passes_the_deal_on_at_the_table_as_it_is(client):
    """A game ended at closing time has nobody dealing; the next one starts with who would
    have dealt next, at the table as it was at the end (F left it)."""
    path = start_game(client, "vier-anderle", SIX)
    enter(client, path, {"table": "1", **{f"seat-{n}": "on" for n in SIX[:5]}})  # F leaves
    enter(client, path, {"tricks-A": 4})  # A deals and takes the pot; B deals next
    assert state(client, path)["next_dealer"] == "B"
    assert client.post(path + "/close").status_code == 302
    page = client.get(f"/g/tanne/games/new?from={path.rsplit('/', 1)[1]}").get_data(as_text=True)
    assert re.search(r'<option selected value="B">|<option value="B" selected>', page), \
        re.findall(r"<option[^>]*>[^<]*", page)
    assert re.findall(r'name="seat-(\w+)" value="\w+" checked', page) == SIX[:5]


def test_the_saved_line_says_hand_as_the_history_does(client):
    path = start_game(client, "vier-anderle", SIX)
    enter(client, path, {"table": "1", **{f"seat-{n}": "on" for n in SIX[:5]}})
    response = enter(client, path, {"tricks-A": 4})
    page = client.get(response.location).get_data(as_text=True)
    assert DE("%(what)s saved.") % {"what": "Hand 1"} in page


def test_the_standings_take_the_biggest_pot_won_not_their_sum(client):
    for _ in range(2):  # A takes a pot of 16 stakes (1,60 €) in each of two games
        path = start_game(client, "vier-anderle", ["A", "B", "C"])
        enter(client, path, {"tricks-A": 4})
        enter(client, path, {"playing-A": "on"})
        assert client.post(path + "/close").status_code == 302
    page = client.get("/g/tanne/standings").get_data(as_text=True)
    row = re.search(r"<tr><td>A</td><td>[0-9]+</td><td class=\"money\">([^<]*)</td>", page)
    assert row.group(1) == "1,60\xa0€"  # the best pot, not the two added up


def test_the_kasse_share_counts_only_what_a_game_adds_to_the_starting_pot(app, client):
    first = start_game(client, "vier-anderle", ["A", "B", "C"])
    enter(client, first, {"tricks-A": 4})  # the pot holds 12: the Kasse keeps it
    client.post(first + "/close")
    second = start_game(client, "vier-anderle", ["A", "B", "C"],
                        rules={"starting_pot": "12", "stake_cents": "0,10"})
    enter(client, second, {"playing-A": "on"})  # A takes the Kasse's pot back
    client.post(second + "/close")
    with app.app_context():
        game = db.session.get(Game, 2)
        money, kasse = __import__("scorekeeper.games", fromlist=["get"]).get(game.kind).money(game)
        assert kasse == -120 and sum(money.values()) + kasse == 0
    evening = client.get("/g/tanne/evenings/1").get_data(as_text=True)
    assert evening  # the evening settles (it answered 500 when the share ignored the pot)


def test_renaming_a_player_called_self_leaves_a_moon_choice_alone(app, client):
    names = ["self", "Hubert", "Hermann", "Alfred"]
    path = start_game(client, "hartenjagen", names, rules={"moon": "choice"})
    enter(client, path, {"hearts-self": 13, "queen": "self", "moon": "self"})
    with app.app_context():
        player = db.session.scalar(select(Player).where(Player.name == "self"))
        renaming.rename_player(player, "Selma")
        db.session.commit()
    hands = record(client, path)["hands"]
    assert hands == [{"hearts": {"Selma": 13}, "queen": "Selma", "moon": "self"}]


def test_the_list_of_hands_kept_offline_is_on_every_page_of_a_table_finished_or_not(client):
    path = start_game(client, "hartenjagen", FOUR, rules={"target": "20"})
    enter(client, path, {"hearts-Kurt": 13, "queen": "Hubert"})  # Kurt 13, Hubert 13
    for page in ("", "/history", "/entries/1", "/undo"):
        assert f'data-waiting hidden data-table="{path}"' in client.get(path + page).get_data(
            as_text=True), page
    enter(client, path, {"hearts-Kurt": 10, "hearts-Hubert": 2, "hearts-Hermann": 1,
                         "queen": "Kurt"})  # over: no more form, the list stays
    assert state(client, path)["finished"]
    page = client.get(path).get_data(as_text=True)
    assert 'name="hearts-Kurt"' not in page and f'data-waiting hidden data-table="{path}"' in page
