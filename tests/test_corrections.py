"""Corrections you can trust: an edit first shows what it changes in the later hands, and only
the confirm button stores it."""

import html
import re

import pytest
from support import DE, enter, phone, start_game

FOUR = ["Kurt", "Hubert", "Hermann", "Alfred"]


def deal(*points):
    return {f"points-{name}": value for name, value in zip(FOUR, points, strict=True)}


def record(client, path):
    return client.get(path + "/record.json").get_json()


def confirm_form(page):
    """The hidden fields of the confirm button's form, as the phone would post them."""
    form = re.search(r'<form[^>]*class="confirm".*?</form>', page, re.S).group(0)
    return {html.unescape(name): html.unescape(value)
            for name, value in re.findall(r'name="([^"]+)" value="([^"]*)"', form)}


def changes(page):
    """The text of the "what changes" card, without tags."""
    card = re.search(r'<section class="card" id="changes">(.*?)</section>', page, re.S).group(1)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", card)).split())


# each game: the hands, the correction of hand 1 and what its preview says about the rest
GAMES = {
    "hintersche": dict(
        names=FOUR,
        hands=[deal(30, 45, 35, 30), deal(30, 45, 35, 30), deal(30, 45, 35, 30),
               deal(30, 30, 45, 35)],
        # Kurt, not Hubert, had most in deal 1: after deal 4 Kurt is in the Butzen, not out
        correction=deal(45, 30, 35, 30),
        listed=["Hand 4: Hermann bekommt einen Strich · jetzt wird gebutzt · Alfred ist "
                "draußen · Kurt ist draußen → Hermann bekommt einen Strich · jetzt wird gebutzt "
                "· Alfred ist draußen"],
        unlisted=["Hand 2:", "Hand 3:"],
        after=["Kurt 0 → 1", "Hubert 3 → 2", "Gibt als Nächstes: Hubert → Kurt"]),
    "vier-anderle": dict(
        names=["A", "B", "C"],
        hands=[{"tricks-A": 2, "tricks-B": 2}, {"playing-A": "on", "playing-B": "on",
                                                "tricks-A": 3, "tricks-B": 1},
               {"tricks-A": 1, "tricks-B": 1, "tricks-C": 2}],
        # C took a trick in hand 1: nobody pays in, so hand 2 is played for a smaller pot
        correction={"tricks-A": 2, "tricks-B": 1, "tricks-C": 1},
        listed=["Hand 2:", "A +9 · B -1 · Pot 0 → A +6 · B -2 · Pot 0"],
        unlisted=["Hand 3:"],
        after=["C -8 → -4 -0,40 €", "Pot: 4 Einsätze · 0,40 €"]),
    "hartenjagen": dict(
        names=["A", "B", "C", "D"],
        hands=[{"hearts-A": 3, "hearts-C": 10, "queen": "B"},
               {"hearts-A": 13, "queen": "D"}],
        correction={"hearts-A": 4, "hearts-C": 9, "queen": "B"},
        listed=["Nach Hand 2: A 16 → 17 · C 10 → 9"],  # the totals after it
        unlisted=[],
        after=["A 16 → 17", "C 10 → 9"]),
}


def played(client, kind):
    game = GAMES[kind]
    path = start_game(client, kind, game["names"])
    for hand in game["hands"]:
        assert enter(client, path, hand).status_code == 302
    return path, game


@pytest.mark.parametrize("kind", GAMES)
def test_the_preview_lists_the_later_hands_that_change_and_stores_nothing(client, kind):
    path, game = played(client, kind)
    stored = record(client, path)
    response = client.post(path + "/entries/1", data=game["correction"], follow_redirects=True)
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    card = changes(page)
    for text in game["listed"] + game["after"]:
        assert text in card, card
    for text in game["unlisted"]:
        assert text not in card, card
    assert "Korrektur bestätigen" in page
    assert record(client, path) == stored  # nothing stored before the confirm
    history = client.get(path + "/history").get_data(as_text=True)
    assert "korrigiert" not in history


@pytest.mark.parametrize("kind", GAMES)
def test_the_confirm_stores_the_correction(client, kind):
    path, game = played(client, kind)
    preview = client.post(path + "/entries/1", data=game["correction"],
                          follow_redirects=True).get_data(as_text=True)
    posted = confirm_form(preview)
    assert posted["confirm"] == str(client.get(path + "/live").get_json()["version"])
    saved = client.post(path + "/entries/1", data=posted)
    assert saved.status_code == 302
    assert DE("%(what)s was corrected.") % {"what": "Hand 1"} in \
        client.get(saved.location).get_data(as_text=True)
    stored = record(client, path)["hands"]
    assert len(stored) == len(game["hands"])
    again = client.get(path + "/entries/1").get_data(as_text=True)
    for name, value in game["correction"].items():
        assert re.search(rf'name="{name}"[^>]*value="{value}"', again), name


@pytest.mark.parametrize("kind", GAMES)
def test_a_confirm_after_the_game_changed_is_refused_and_stores_nothing(app, client, kind):
    path, game = played(client, kind)
    preview = client.post(path + "/entries/1", data=game["correction"],
                          follow_redirects=True).get_data(as_text=True)
    other = phone(app)  # meanwhile another phone at the table takes back the last hand
    assert other.post(path + "/undo", data={"seq": len(game["hands"])}).status_code == 302
    stored = record(client, path)
    refused = client.post(path + "/entries/1", data=confirm_form(preview))
    assert refused.status_code == 400
    page = refused.get_data(as_text=True)
    assert "in der Zwischenzeit" in page and "nichts gespeichert" in page
    assert 'class="confirm"' not in page  # it asks to save again, to see the changes anew
    assert record(client, path) == stored


def test_nothing_later_changing_is_said_and_still_asked_to_confirm(client):
    path = start_game(client, "hintersche", FOUR)
    enter(client, path, deal(30, 45, 35, 30))
    enter(client, path, deal(30, 30, 45, 35))
    page = client.post(path + "/entries/1", data=deal(30, 46, 34, 30),
                          follow_redirects=True).get_data(as_text=True)
    assert "Keine spätere Hand ändert sich." in changes(page)
    assert client.post(path + "/entries/1", data=confirm_form(page)).status_code == 302
    assert record(client, path)["hands"][0]["points"]["Hubert"] == 46


def test_the_preview_keeps_what_was_typed_in_the_form(client):
    path, game = played(client, "hintersche")
    page = client.post(path + "/entries/1", data=game["correction"],
                          follow_redirects=True).get_data(as_text=True)
    form = page.split('class="confirm"')[1]
    assert re.search(r'name="points-Kurt"\s+value="45"', form)


@pytest.mark.parametrize("kind,hands,seq,correction,later", [
    # a march in deal 1 ends the Vier-Strich after deal 2: Kurt would be out in deal 3
    ("hintersche", [deal(30, 45, 35, 30), deal(20, 21, 99, 0), deal(105, 10, 15, 10)],
     1, deal(105, 10, 15, 10), "Hand 3"),
    # A played hand 2 alone and took the pot: in hand 3 everybody plays, not only A and C
    ("vier-anderle", [{"tricks-A": 2, "tricks-B": 2},
                      {"playing-A": "on", "playing-B": "on", "tricks-A": 4},
                      {"playing-A": "on", "playing-C": "on", "tricks-A": 1, "tricks-C": 3}],
     2, {"playing-A": "on", "tricks-A": 4}, "Hand 3"),
    # 26 points in hand 1 end a game to 20 before hand 2
    ("hartenjagen", [{"hearts-A": 3, "hearts-C": 10, "queen": "B"},
                     {"hearts-A": 3, "hearts-C": 10, "queen": "B"}],
     1, {"mode": "points", "points-A": 26, "points-B": 0, "points-C": 0, "points-D": 0},
     "Hand 2"),
])
def test_a_correction_a_later_hand_no_longer_fits_is_refused_naming_it(
        client, kind, hands, seq, correction, later):
    rules = {"target": 20} if kind == "hartenjagen" else {}
    path = start_game(client, kind, GAMES[kind]["names"], rules=rules)
    for hand in hands:
        assert enter(client, path, hand).status_code == 302
    stored = record(client, path)
    response = client.post(path + f"/entries/{seq}", data=correction, follow_redirects=True)
    page = response.get_data(as_text=True)
    assert response.status_code == 400
    assert later in page and 'class="confirm"' not in page
    assert record(client, path) == stored


def test_a_tied_deal_corrected_into_an_untied_one_and_back_through_the_confirm(client):
    path = start_game(client, "hintersche", FOUR)
    tied = deal(40, 40, 30, 30)
    enter(client, path, {**tied, "playoff-0-Kurt": 50, "playoff-0-Hubert": 40})
    untied = {**deal(50, 30, 30, 30), "playoff-0-Kurt": "", "playoff-0-Hubert": ""}
    page = client.post(path + "/entries/1", data=untied,
                          follow_redirects=True).get_data(as_text=True)
    assert client.post(path + "/entries/1", data=confirm_form(page)).status_code == 302
    assert record(client, path)["hands"] == [{"points": {"Kurt": 50, "Hubert": 30,
                                                         "Hermann": 30, "Alfred": 30}}]
    asked = client.post(path + "/entries/1", data=tied,
                        follow_redirects=True)  # the playoff is asked for first
    assert asked.status_code == 400 and 'class="confirm"' not in asked.get_data(as_text=True)
    page = client.post(path + "/entries/1", data={**tied, "playoff-0-Kurt": 35,
                                                  "playoff-0-Hubert": 50},
                          follow_redirects=True).get_data(as_text=True)
    assert "Keine spätere Hand ändert sich." in changes(page)
    assert client.post(path + "/entries/1", data=confirm_form(page)).status_code == 302
    assert record(client, path)["hands"][0]["playoffs"] == [{"Kurt": 35, "Hubert": 50}]


def test_the_preview_shows_what_the_corrected_hand_itself_now_does(client):
    path = start_game(client, "hintersche", FOUR)
    enter(client, path, deal(30, 45, 35, 30))  # Hubert has most: his mark
    enter(client, path, deal(30, 30, 45, 35))
    page = client.post(path + "/entries/1", data=deal(45, 30, 35, 30),
                          follow_redirects=True).get_data(as_text=True)
    listed = changes(page)
    assert "Hand 1: Hubert bekommt einen Strich → Kurt bekommt einen Strich" in listed
    assert record(client, path)["hands"][0]["points"]["Hubert"] == 45  # nothing stored yet
