"""When a step fails half way (a bug, a database that went away), the phone gets a page in its
language that says nothing of the step was stored, and nothing of it is: the session is rolled
back, and the next step works."""

import generators
from support import entry_fields, start_game

from scorekeeper import engine, games


def test_a_failure_half_way_shows_the_500_page_and_stores_nothing(app, client, monkeypatch):
    app.config["PROPAGATE_EXCEPTIONS"] = False  # as served: the failure becomes a page
    record = generators.random_record("hintersche", 2, 1)
    path = start_game(client, "hintersche", record["players"], record["first_dealer"])
    before = engine.replay({**record, "hands": []}).summary()
    fields = {"seq": 1, **entry_fields(app, games.GAMES["hintersche"], record["hands"][0],
                                       before)}

    def fails(*args) -> None:  # the hand and its revision are written, then a step fails
        raise RuntimeError("the database went away")

    monkeypatch.setattr(games.GAMES["hintersche"], "entry_name", fails)
    client.set_cookie("lang", "de")
    failed = client.post(path + "/entries", data=fields)
    assert failed.status_code == 500
    page = failed.get_data(as_text=True)
    assert "Etwas ist schiefgegangen" in page and "nichts davon gespeichert" in page
    assert "Traceback" not in page and "Internal Server Error" not in page
    assert client.get(path + "/record.json").get_json()["hands"] == []  # nothing stored

    monkeypatch.undo()  # the next try goes through, as hand 1
    assert client.post(path + "/entries", data=fields).status_code == 302
    assert len(client.get(path + "/record.json").get_json()["hands"]) == 1
