"""The table app: starting games, entering hands, mistakes, undo, edit, two phones at once."""

import json
import re

import pytest
from support import enter, start_game

from scorekeeper import games

FOUR = ["Kurt", "Hubert", "Hermann", "Alfred"]


def deal(a, b, c, d):
    return {"points-Kurt": a, "points-Hubert": b, "points-Hermann": c, "points-Alfred": d}


def record(client, path):
    return client.get(path + "/record.json").get_json()


def state(client, path):
    return client.get(path + "/state.json").get_json()


def correct(client, path, seq, fields):
    """Save a correction as a phone does: it shows what it changes, then the confirm stores it."""
    preview = client.post(f"{path}/entries/{seq}", data=fields, follow_redirects=True)
    if preview.status_code != 200:
        return preview
    version = client.get(path + "/live").get_json()["version"]
    return client.post(f"{path}/entries/{seq}", data={**fields, "confirm": version})


def test_home_names_every_game_and_links_its_rules(client):
    page = client.get("/").get_data(as_text=True)
    for name in games.GAMES:
        assert f'/rules/{name}"' in page
        rules = client.get(f"/rules/{name}")
        assert rules.status_code == 200


def test_rules_page_lists_every_option_with_its_default(client):
    from scorekeeper import engine

    for name, game in engine.all_games().items():
        page = client.get(f"/rules/{name}").get_data(as_text=True)
        for option in game.OPTIONS:
            assert option.name in page
    # money in euros as Germans write it, not in cents without a unit
    page = client.get("/rules/hintersche").get_data(as_text=True)
    assert re.search(r"<b>tariff_cents</b>.*?</td>\s*<td>5,00\xa0€</td>", page, re.S)
    page = client.get("/rules/vier-anderle").get_data(as_text=True)
    assert re.search(r"<b>stake_cents</b>.*?</td>\s*<td>0,10\xa0€</td>", page, re.S)


def test_german_by_default_and_the_language_switch_sticks(client):
    assert "Gruppe anlegen" in client.get("/").get_data(as_text=True)
    client.get("/lang/en")
    assert "Create group" in client.get("/").get_data(as_text=True)
    client.get("/lang/nl")
    assert "Groep aanmaken" in client.get("/").get_data(as_text=True)


def test_group_players_add_rename_archive(client):
    client.post("/groups", data={"name": "Tanne"})
    client.post("/g/tanne/players", data={"name": "Kurt"})
    again = client.post("/g/tanne/players", data={"name": "kurt"})
    assert again.status_code == 400
    page = client.get("/g/tanne/players").get_data(as_text=True)
    player_id = re.search(r"/g/tanne/players/(\d+)\"", page).group(1)
    client.post(f"/g/tanne/players/{player_id}", data={"name": "Kurt B."})
    client.post(f"/g/tanne/players/{player_id}/archive")
    page = client.get("/g/tanne/players").get_data(as_text=True)
    assert "Kurt B." in page and "archiviert" in page


def test_renaming_a_player_keeps_their_games(client):
    path = start_game(client, "hintersche", FOUR)
    enter(client, path, deal(30, 45, 35, 30))
    page = client.get("/g/tanne/players").get_data(as_text=True)
    player_id = re.search(r"/g/tanne/players/(\d+)\">Hubert", page).group(1)
    client.post(f"/g/tanne/players/{player_id}", data={"name": "Schirle"})
    rec = record(client, path)
    assert rec["players"][1] == "Schirle" and rec["hands"][0]["points"]["Schirle"] == 45
    assert state(client, path)["players"][1]["marks"] == 1


def test_hintersche_last_score_fills_itself(client):
    path = start_game(client, "hintersche", FOUR)
    response = enter(client, path, {"points-Kurt": 30, "points-Hubert": 45, "points-Hermann": 35,
                                    "points-Alfred": ""})
    assert response.status_code == 302
    assert record(client, path)["hands"] == [
        {"points": {"Kurt": 30, "Hubert": 45, "Hermann": 35, "Alfred": 30}}]


def test_an_impossible_score_is_shown_at_the_field_and_nothing_is_stored(client):
    path = start_game(client, "hintersche", FOUR)
    response = enter(client, path, {"points-Kurt": 2, "points-Hubert": 2, "points-Hermann": 2,
                                    "points-Alfred": 134})
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert 'class="error' in page
    assert 'value="134"' in page  # what was typed stays
    assert record(client, path)["hands"] == []


def test_letters_in_a_number_field_are_refused_politely(client):
    path = start_game(client, "hintersche", FOUR)
    response = enter(client, path, {"points-Kurt": "dreißig", "points-Hubert": 45,
                                    "points-Hermann": 35, "points-Alfred": 30})
    assert response.status_code == 400
    assert "ganze Zahl" in response.get_data(as_text=True)
    assert record(client, path)["hands"] == []


def test_a_tie_asks_for_the_playoff_then_counts(client):
    path = start_game(client, "hintersche", FOUR)
    fields = {"points-Kurt": 40, "points-Hubert": 40, "points-Hermann": 30, "points-Alfred": 30}
    asked = enter(client, path, fields)
    assert asked.status_code == 400
    page = asked.get_data(as_text=True)
    assert 'name="playoff-0-Kurt"' in page and 'name="playoff-0-Hubert"' in page
    assert 'name="playoff-0-Hermann"' not in page
    # Kurt dealt: of the tied players Hubert comes first after him, and deals the playoff
    assert "<b>Hubert gibt</b></legend>" in page
    done = enter(client, path, {**fields, "playoff-0-Kurt": 50, "playoff-0-Hubert": 40})
    assert done.status_code == 302
    marks = {p["name"]: p["marks"] for p in state(client, path)["players"]}
    assert marks == {"Kurt": 1, "Hubert": 0, "Hermann": 0, "Alfred": 0}


def test_a_tied_deal_can_be_corrected_into_an_untied_one_and_back(client):
    path = start_game(client, "hintersche", FOUR)
    tied = {"points-Kurt": 40, "points-Hubert": 40, "points-Hermann": 30, "points-Alfred": 30}
    assert enter(client, path, {**tied, "playoff-0-Kurt": 50, "playoff-0-Hubert": 40}
                 ).status_code == 302
    edit = client.get(path + "/entries/1").get_data(as_text=True)
    assert re.search(r'name="playoff-0-Kurt"\s+value="50"', edit)  # the playoff is shown
    # no tie any more: the playoff fields are cleared, and the correction is taken
    untied = {"points-Kurt": 50, "points-Hubert": 30, "points-Hermann": 30, "points-Alfred": 30,
              "playoff-0-Kurt": "", "playoff-0-Hubert": ""}
    assert correct(client, path, 1, untied).status_code == 302
    assert record(client, path)["hands"] == [{"points": {"Kurt": 50, "Hubert": 30,
                                                         "Hermann": 30, "Alfred": 30}}]
    # and back into a tie: the form asks for the playoff again, then takes it
    asked = client.post(path + "/entries/1", data=tied)
    assert asked.status_code == 400 and 'name="playoff-0-Kurt"' in asked.get_data(as_text=True)
    assert correct(client, path, 1, {**tied, "playoff-0-Kurt": 35,
                                     "playoff-0-Hubert": 50}).status_code == 302
    assert record(client, path)["hands"][0]["playoffs"] == [{"Kurt": 35, "Hubert": 50}]


def test_the_same_submission_twice_is_recorded_once(client):
    path = start_game(client, "hintersche", FOUR)
    fields = deal(30, 45, 35, 30)
    first = enter(client, path, fields, seq=1, key="k-123")
    second = enter(client, path, fields, seq=1, key="k-123")
    assert first.status_code == second.status_code == 302
    assert len(record(client, path)["hands"]) == 1


def test_two_phones_entering_the_same_hand_the_second_is_told(client):
    path = start_game(client, "hintersche", FOUR)
    phone_a = deal(30, 45, 35, 30)
    phone_b = {"points-Kurt": 31, "points-Hubert": 44, "points-Hermann": 35, "points-Alfred": 30}
    assert enter(client, path, phone_a, seq=1, key="a").status_code == 302
    late = enter(client, path, phone_b, seq=1, key="b")
    assert late.status_code == 302
    table = client.get(late.location).get_data(as_text=True)
    assert "bereits" in table  # "schon auf einem anderen Handy eingetragen"
    assert record(client, path)["hands"] == [{"points": phone_a}] or \
        record(client, path)["hands"][0]["points"]["Kurt"] == 30
    assert len(record(client, path)["hands"]) == 1


def test_undo_says_what_it_undoes_and_keeps_it_in_the_history(client):
    path = start_game(client, "hintersche", FOUR)
    enter(client, path, deal(30, 45, 35, 30))
    confirm = client.get(path + "/undo").get_data(as_text=True)
    assert "Hubert 45" in confirm
    client.post(path + "/undo", data={"seq": 1})
    assert record(client, path)["hands"] == []
    history = client.get(path + "/history").get_data(as_text=True)
    assert "Hubert 45" in history and "rückgängig" in history


def test_undo_from_a_stale_page_changes_nothing(client):
    path = start_game(client, "hintersche", FOUR)
    enter(client, path, deal(30, 45, 35, 30))
    enter(client, path, deal(45, 30, 35, 30))
    client.post(path + "/undo", data={"seq": 1})  # the page was made when there was one entry
    assert len(record(client, path)["hands"]) == 2


def test_editing_an_earlier_hand_replays_everything_after_it(client):
    path = start_game(client, "hintersche", FOUR)
    enter(client, path, deal(30, 45, 35, 30))
    enter(client, path, deal(20, 21, 99, 0))
    form = client.get(path + "/entries/1").get_data(as_text=True)
    assert 'value="45"' in form
    response = correct(client, path, 1, {
        "points-Kurt": 45, "points-Hubert": 30, "points-Hermann": 35, "points-Alfred": 30})
    assert response.status_code == 302
    marks = {p["name"]: p["marks"] for p in state(client, path)["players"]}
    assert marks == {"Kurt": 1, "Hubert": 0, "Hermann": 1, "Alfred": 0}
    assert "korrigiert" in client.get(path + "/history").get_data(as_text=True)


def test_an_edit_that_breaks_a_later_entry_is_refused_with_the_reason(client):
    path = start_game(client, "hintersche", FOUR)
    for points in ((30, 45, 35, 30), (20, 21, 99, 0), (105, 10, 15, 10)):
        assert enter(client, path, deal(*points)).status_code == 302
    # a march in deal 1 would end phase 1 after deal 2: Kurt would be out in deal 3
    response = client.post(path + "/entries/1", data=deal(105, 10, 15, 10))
    assert response.status_code == 400
    assert "Hand 3" in response.get_data(as_text=True)
    assert record(client, path)["hands"][0]["points"]["Kurt"] == 30


def test_vier_anderle_table_change_and_close(client):
    path = start_game(client, "vier-anderle", ["A", "B", "C"], rules={"pot_at_end": "split"})
    enter(client, path, {"tricks-A": 2, "tricks-B": 2})
    response = client.post(path + "/entries", data={
        "seq": 2, "table": "1", "order": "A\nB\nC", "seat-A": "on", "seat-B": "on",
        "new_player": "Gustav"})
    assert response.status_code == 302
    s = state(client, path)
    assert s["seated"] == ["A", "B", "Gustav"]
    assert "Gustav" in client.get("/g/tanne/players").get_data(as_text=True)
    client.post(path + "/close")
    assert client.get("/g/tanne").status_code == 200
    table = client.get(path).get_data(as_text=True)
    assert "geschlossen" in table


def test_hartenjagen_by_cards_by_points_and_renege(client):
    path = start_game(client, "hartenjagen", ["A", "B", "C", "D"])
    enter(client, path, {"hearts-A": 3, "hearts-C": 10, "queen": "B"})
    enter(client, path, {"mode": "points", "points-A": 26, "points-B": 0, "points-C": 0,
                         "points-D": 0})
    enter(client, path, {"kind": "renege", "renege": "C"})
    rec = record(client, path)
    assert rec["hands"][0] == {"hearts": {"A": 3, "C": 10}, "queen": "B"}
    assert rec["hands"][2] == {"renege": "C"}
    assert state(client, path)["hands_played"] == 3


def test_hartenjagen_hearts_that_do_not_add_up_are_shown(client):
    path = start_game(client, "hartenjagen", ["A", "B", "C", "D"])
    response = enter(client, path, {"hearts-A": 3, "hearts-C": 9, "queen": "B"})
    assert response.status_code == 400
    assert '<small class="error">die Herzen ergeben 12, es gibt aber 13</small>' in \
        response.get_data(as_text=True)
    assert record(client, path)["hands"] == []


def test_a_card_nobody_took_is_said_above_the_cards_not_in_its_narrow_column(client):
    path = start_game(client, "hartenjagen", ["A", "B", "C", "D"])
    response = enter(client, path, {"hearts-A": 3, "hearts-B": 4, "hearts-C": 6})
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    message = '<small class="error">niemand hat die Pik-Dame bekommen</small>'
    assert message in page
    assert not re.search(r"<th>(?:(?!</th>).)*niemand hat die Pik-Dame", page, re.S)
    assert record(client, path)["hands"] == []


def test_a_finished_game_says_so_and_offers_the_next(client):
    path = start_game(client, "hartenjagen", ["A", "B", "C", "D"], rules={"target": 13})
    enter(client, path, {"hearts-A": 3, "hearts-C": 10, "queen": "B"})
    page = client.get(path).get_data(as_text=True)
    assert "gewinnt" in page and "from=" in page


def test_the_next_hartenjagen_game_passes_the_deal_on(client):
    """A finished game has no next dealer: the next game's first is who sits after the one
    who dealt its last hand (C dealt hand 2 of B's game: D)."""
    path = start_game(client, "hartenjagen", ["A", "B", "C", "D"], first_dealer="B",
                      rules={"target": 30})
    for _ in range(2):  # B, C deal; A reaches 32 points (the queen), D wins with 4
        points = {"points-A": 16, "points-B": 5, "points-C": 3, "points-D": 2}
        assert enter(client, path, {"mode": "points", **points}).status_code == 302
    assert state(client, path)["finished"] and state(client, path)["next_dealer"] is None
    page = client.get(f"/g/tanne/games/new?from={path.rsplit('/', 1)[1]}").get_data(as_text=True)
    assert re.search(r'<option selected value="D">|<option value="D" selected>', page), \
        re.findall(r"<option[^>]*>[^<]*", page)


def test_record_json_imports_to_the_same_state(client, runner, tmp_path):
    path = start_game(client, "hartenjagen", ["A", "B", "C", "D"])
    enter(client, path, {"hearts-A": 3, "hearts-C": 10, "queen": "B"})
    enter(client, path, {"kind": "renege", "renege": "D"})
    exported = record(client, path)
    import_path = tmp_path / "export.json"
    with open(import_path, "w") as f:
        json.dump(exported, f)
    result = runner.invoke(args=["import", str(import_path), "--group", "zweite"])
    assert result.exit_code == 0, result.output
    game_path = result.output.splitlines()[0]
    assert re.fullmatch(r"/g/zweite/games/\d+", game_path)
    assert state(client, game_path) == state(client, path)


def test_unknown_things_are_404(client):
    path = start_game(client, "hartenjagen", ["A", "B", "C", "D"])
    assert client.get("/g/nobody").status_code == 404
    assert client.get(path.replace("/tanne/", "/other/")).status_code == 404
    assert client.get(path + "/entries/9").status_code == 404
    client.post("/groups", data={"name": "other"})
    assert client.get(path.replace("/tanne/", "/other/")).status_code == 404


@pytest.mark.parametrize("kind", sorted(games.GAMES))
def test_new_game_refuses_a_wrong_table(client, kind):
    client.post("/groups", data={"name": "tanne"})
    data = {"kind": kind, "order": "A", "seat-A": "on"}
    response = client.post("/g/tanne/games/new", data=data)
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    low = games.get(kind).engine.MIN_PLAYERS
    assert re.search(rf'has-error">.*?<small class="error">dieses Spiel braucht {low}\b[^<]*'
                     r'Spieler, nicht 1</small>', page, re.S)


def test_a_renege_without_a_name_asks_who(client):
    path = start_game(client, "hartenjagen", ["A", "B", "C", "D"])
    response = enter(client, path, {"kind": "renege"})
    assert response.status_code == 400
    assert 'fieldset class="pick has-error"' in response.get_data(as_text=True)
    assert record(client, path)["hands"] == []


def test_an_empty_type_2_hand_is_not_taken_for_nobody_plays(client):
    path = start_game(client, "vier-anderle", ["A", "B", "C"])
    enter(client, path, {"tricks-A": 4})
    assert enter(client, path, {}).status_code == 400
    assert enter(client, path, {"nobody": "on"}).status_code == 302
    assert record(client, path)["hands"][1] == {"playing": [], "tricks": {}}
    history = client.get(path + "/history").get_data(as_text=True)
    assert "(Niemand spielt)" in history and "spielen mit: –" not in history


def test_the_table_says_what_the_last_deal_did(client):
    path = start_game(client, "hintersche", FOUR)
    for points in ((30, 45, 35, 30), (20, 21, 99, 0), (105, 10, 15, 10)):
        enter(client, path, deal(*points))
    page = client.get(path).get_data(as_text=True)
    assert "Kurt macht hundert" in page and "Hubert bekommt einen Strich" in page
    assert "Kurt ist draußen" in page and "jetzt wird gebutzt" in page


def test_a_rule_error_about_one_player_lands_at_that_players_field_not_in_the_banner(client):
    path = start_game(client, "hintersche", FOUR)
    page = enter(client, path, deal(1, 45, 64, 30)).get_data(as_text=True)
    field = re.search(r'<label class="field has-error">\s*<span>Kurt</span>.*?</label>', page, re.S)
    assert field and "1 Auge kann man mit diesen Karten nicht haben" in field.group(0)
    assert 'class="error banner"' not in page


def test_a_rule_error_about_the_whole_deal_lands_in_the_banner_of_the_form(client):
    path = start_game(client, "hintersche", FOUR)
    page = enter(client, path, deal(30, 45, 35, 29)).get_data(as_text=True)
    assert re.search(r'class="error banner"[^>]*>die Augen ergeben 139, es sind aber 140<', page)
    assert "has-error" not in page


def test_the_moon_choice_is_on_the_hartenjagen_form_when_the_shooter_chooses(client):
    path = start_game(client, "hartenjagen", ["A", "B", "C", "D"], rules={"moon": "choice"})
    page = client.get(path).get_data(as_text=True)
    for value in ("self", "others"):
        assert f'name="moon" value="{value}"' in page
    plain = start_game(client, "hartenjagen", ["A", "B", "C", "D"])
    assert 'name="moon"' not in client.get(plain).get_data(as_text=True)


def test_the_entry_form_speaks_the_language_of_each_phone(client):
    """The forms are made once per table and reused: their labels still follow each phone's
    language."""
    path = start_game(client, "hartenjagen", ["A", "B", "C", "D"], rules={"moon": "choice"})
    for code, words in (("de", "Pik-Dame"), ("en", "Queen of spades"), ("nl", "Schoppenvrouw"),
                        ("de", "Pik-Dame")):
        client.get(f"/lang/{code}")
        page = client.get(path).get_data(as_text=True)
        assert words in page, code


def test_each_rules_page_links_the_full_rules_document(client):
    for name in games.GAMES:
        page = client.get(f"/rules/{name}").get_data(as_text=True)
        assert f'href="/docs/rules/{name}.md"' in page
        with client.get(f"/docs/rules/{name}.md") as document:
            assert document.status_code == 200 and document.mimetype == "text/markdown"
            assert "worked example" in document.get_data(as_text=True).lower()
    assert client.get("/docs/rules/skat.md").status_code == 404


def test_the_theme_switch_remembers_the_choice_and_goes_back_only_to_this_site(client):
    assert client.get("/theme/sepia").status_code == 404
    answer = client.get("/theme/dark?next=/rules/hintersche")
    assert answer.location == "/rules/hintersche" and "theme=dark" in answer.headers["Set-Cookie"]
    assert '<html lang="de" data-theme="dark">' in client.get("/").get_data(as_text=True)
    assert client.get("/theme/light?next=https://evil.example/").location == "/"
    client.get("/theme/auto")
    assert "data-theme" not in client.get("/").get_data(as_text=True)
