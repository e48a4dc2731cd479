"""Hintersche's deal form: three scores typed, the fourth fills itself by the engine's rule, and
what cannot be filled in is told at the right place in players' words (rules: Entering a deal)."""

import html
import re

from support import enter, start_game

FOUR = ["Kurt", "Hubert", "Hermann", "Alfred"]


def typed(kurt, hubert, hermann, alfred=""):
    return {"points-Kurt": kurt, "points-Hubert": hubert, "points-Hermann": hermann,
            "points-Alfred": alfred}


def hands(client, path):
    return client.get(path + "/record.json").get_json()["hands"]


def errors(page: str) -> list[str]:
    return [html.unescape(m) for m in re.findall(r'class="error[^"]*"[^>]*>([^<]*)<', page)]


def test_any_one_score_left_empty_is_stored_filled_in(client):
    path = start_game(client, "hintersche", FOUR)
    assert enter(client, path, {**typed(30, 45, 35, 30), "points-Hubert": ""}).status_code == 302
    assert hands(client, path) == [{"points": {"Kurt": 30, "Hubert": 45, "Hermann": 35,
                                               "Alfred": 30}}]


def test_three_scores_over_the_pack_are_refused_and_nothing_is_stored(client):
    path = start_game(client, "hintersche", FOUR)
    client.get("/lang/en")
    response = enter(client, path, typed(80, 40, 30))
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    # said once, about what was typed, not as "Alfred: -10 points" nor "please enter Alfred's"
    assert errors(page) == ["Kurt, Hubert and Hermann already have 150 points together, more "
                            "than the 140 in the pack"]
    assert 'value="80"' in page  # what was typed stays
    assert hands(client, path) == []


def test_a_rest_no_cards_make_is_told_at_the_empty_field(client):
    path = start_game(client, "hintersche", FOUR)
    response = enter(client, path, typed(137, 2, 0))
    assert response.status_code == 400
    assert errors(response.get_data(as_text=True)) == [
        "dann blieben für Alfred 1 Auge von 140, und die kann man mit diesen Karten nicht haben"]
    assert hands(client, path) == []


def test_two_empty_fields_are_each_asked_for_and_a_typing_slip_is_never_filled_in(client):
    path = start_game(client, "hintersche", FOUR)
    client.get("/lang/en")
    page = enter(client, path, typed(30, 45, "")).get_data(as_text=True)
    assert errors(page) == ["Please enter the points."] * 2
    page = enter(client, path, typed(30, "fünfundvierzig", 35)).get_data(as_text=True)
    assert errors(page) == ["Please enter a whole number."]  # Alfred stays empty, unfilled
    assert hands(client, path) == []


def test_a_queued_hand_over_the_pack_is_refused_with_the_reason(client):
    path = start_game(client, "hintersche", FOUR)
    client.get("/lang/en")
    response = client.post(path + "/entries", data={"seq": 1, **typed(80, 40, 30)},
                           headers={"Accept": "application/json"})
    assert response.status_code == 422
    assert "already have 150 points together" in response.get_json()["refused"]
