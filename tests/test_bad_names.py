"""Names and places: no hidden or control characters, the Kasse is the Kasse, a known
name keeps the group's spelling."""


import pytest
from hostile import FOUR, HIDDEN, RECORD, _counts, _export, _refused, _write
from support import enter, start_game

from scorekeeper.group import names

# --- 2. names and places: no hidden or control characters, the Kasse is the Kasse ---------------

@pytest.mark.parametrize("char", HIDDEN, ids=[f"U+{ord(c):04X}" for c in HIDDEN])
def test_a_name_with_a_hidden_or_control_character_is_not_a_name(char):
    assert not names.printable(f"An{char}na")
    assert names.name_problem(f"An{char}na") == "format"
    assert names.name_problem(f"Kasse{char}") == "format"


def test_ordinary_names_with_accents_and_scripts_are_fine():
    for name in ("Jürgen", "Zoë", "Łukasz", "Ærøskøbing", "Ólafur Örn", "Дмитрий", "山田",
                 "O'Brien", "Anne-Marie", "Hans 2"):
        assert names.printable(name) and names.name_problem(name) is None, name


@pytest.mark.parametrize("name", ["Kasse", "KASSE", " kasse ", "Ｋａｓｓｅ", "Kaſſe", "ＫＡＳＳＥ"])
def test_the_kasse_in_any_case_or_compatibility_form_is_reserved(name):
    assert names.name_problem(name) == "reserved"


def test_a_name_that_is_only_spaces_is_refused(app, client):
    client.post("/groups", data={"name": "tanne"})
    assert names.name_problem("   ") == "format"
    before = _counts(app)
    assert client.post("/g/tanne/players", data={"name": "   "}).status_code == 400
    assert client.post("/groups", data={"name": "   "}).status_code == 400
    assert _counts(app) == before


def test_names_group_names_and_places_with_hidden_characters_are_refused_and_not_stored(
        app, client):
    client.post("/groups", data={"name": "tanne"})
    before = _counts(app)
    for char in HIDDEN[:-1]:  # not the lone surrogate: no browser can send it
        assert client.post("/g/tanne/players", data={"name": f"Ku{char}rt"}).status_code == 400
        assert client.post("/g/tanne/players", data={"name": f"Kasse{char}"}).status_code == 400
        assert client.post("/groups", data={"name": f"Tan{char}ne"}).status_code == 400
        assert client.post("/g/tanne/evenings", data={"place": f"Kro{char}ne"}).status_code == 400
    assert _counts(app) == before


def test_a_zero_width_kasse_cannot_join_a_game_or_be_renamed_to(app, client):
    path = start_game(client, "vier-anderle", FOUR)
    before = _export(client), _counts(app)
    change = {"table": "1", "order": "\n".join(FOUR), "new_player": "Kasse\u200b",
              **{f"seat-{n}": "on" for n in FOUR}}
    assert enter(client, path, change).status_code == 400
    new = {"kind": "hartenjagen", "order": "Kurt\nHubert\nHermann\nKasse\u200b",
           **{f"seat-{n}": "on" for n in ["Kurt", "Hubert", "Hermann", "Kasse\u200b"]}}
    assert client.post("/g/tanne/games/new", data=new).status_code == 400
    assert client.post("/g/tanne/players/1", data={"name": "\u202eKasse"}).status_code == 200
    assert client.post("/g/tanne/players/1", data={"name": "Ｋasse"}).status_code == 200
    assert (_export(client), _counts(app)) == before


def test_import_refuses_a_record_with_a_hidden_kasse_and_stores_nothing(app, runner, tmp_path):
    before = _counts(app)
    for name in ("Kasse\u200b", "\ufeffKasse", "Ｋasse", " Kurt", "An\u202ena"):
        record = dict(RECORD, players=["Hubert", "Hermann", "Alfred", name], hands=[])
        result = runner.invoke(args=["import", _write(tmp_path, record), "--group", "tanne"])
        line = _refused(result)
        assert "cannot be a player's name" in line or "players[3]: " in line, line
    assert _counts(app) == before


def test_a_new_game_keeps_the_groups_spelling_of_a_name(client):
    client.post("/groups", data={"name": "tanne"})
    client.post("/g/tanne/players", data={"name": "Anna"})
    path = start_game(client, "vier-anderle", ["anna", "Bert"])
    assert client.get(path + "/record.json").get_json()["players"] == ["Anna", "Bert"]


