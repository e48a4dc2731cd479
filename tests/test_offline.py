"""What the server does for a phone that kept hands while it had no network: each hand sent
later is answered in JSON, stored once, in order, or refused with a reason; and what the phone
needs to open the app from its home screen."""

import json
import re
from pathlib import Path

from support import enter, make_app, start_game

from scorekeeper import games

JSON = {"Accept": "application/json"}
DEAL = {"points-A": 30, "points-B": 45, "points-C": 35, "points-D": 30}


def send(client, path, fields, seq, key):
    """A waiting hand as static/js/queue.js sends it: its key and entry number, asking for JSON."""
    return client.post(path + "/entries", data={"seq": seq, "key": key, **fields}, headers=JSON)


def hands(client, path):
    return client.get(path + "/record.json").get_json()["hands"]


def test_a_waiting_hand_sent_twice_is_stored_once_and_the_next_follows_in_order(client):
    table = start_game(client, "hintersche", ["A", "B", "C", "D"])
    first = send(client, table, DEAL, 1, "k1")
    assert first.status_code == 200 and first.get_json() == {"saved": 1}
    again = send(client, table, DEAL, 1, "k1")  # its answer was lost on the way: sent again
    assert again.status_code == 200 and again.get_json() == {"saved": 1}
    second = send(client, table, {"points-A": 10, "points-B": 20, "points-C": 30}, 2, "k2")
    assert second.get_json() == {"saved": 2}
    assert [h["points"] for h in hands(client, table)] == [
        {"A": 30, "B": 45, "C": 35, "D": 30}, {"A": 10, "B": 20, "C": 30, "D": 80}]


def test_a_waiting_hand_another_phone_entered_first_is_refused_and_names_its_entry(client):
    table = start_game(client, "hintersche", ["A", "B", "C", "D"])
    assert enter(client, table, DEAL).status_code == 302  # the other phone, online
    answer = send(client, table, {"points-A": 60, "points-B": 40, "points-C": 20}, 1, "late")
    assert answer.status_code == 409
    assert "Hand 1 passt nicht mehr" in answer.get_json()["refused"]  # as the table says
    assert len(hands(client, table)) == 1


def test_a_waiting_hand_that_breaks_a_rule_or_a_closed_game_is_refused_in_words(client):
    table = start_game(client, "hintersche", ["A", "B", "C", "D"])
    answer = send(client, table, {"points-A": 2, "points-B": 2, "points-C": 2, "points-D": 2},
                  1, "bad")
    assert answer.status_code == 422
    assert answer.get_json()["refused"] and "Traceback" not in answer.get_data(as_text=True)
    empty = send(client, table, {}, 1, "empty")
    assert empty.status_code == 422 and empty.get_json()["refused"]
    assert hands(client, table) == []
    game = start_game(client, "vier-anderle", ["A", "B", "C", "D"])
    assert client.post(game + "/close", data={}).status_code == 302
    closed = send(client, game, {"tricks-A": 4}, 1, "after")
    assert closed.status_code == 422
    assert closed.get_json() == {"refused": "Dieses Spiel ist abgeschlossen."}


def test_the_phone_installs_the_group_from_its_manifest_and_a_stranger_gets_nothing(client, app):
    start_game(client, "hartenjagen", ["A", "B", "C", "D"])
    manifest = client.get("/g/tanne/manifest.webmanifest")
    assert manifest.mimetype == "application/manifest+json"
    data = manifest.get_json()
    assert data["start_url"] == "/g/tanne" and data["display"] == "standalone"
    assert {icon["sizes"] for icon in data["icons"]} >= {"192x192", "512x512"}
    for icon in data["icons"]:
        with client.get(icon["src"]) as answer:
            assert answer.status_code == 200
    assert app.test_client().get("/g/tanne/manifest.webmanifest").status_code == 404
    assert client.get("/manifest.webmanifest").get_json()["start_url"] == "/"
    page = client.get("/g/tanne").get_data(as_text=True)
    assert 'rel="manifest" href="/g/tanne/manifest.webmanifest"' in page


def test_the_service_worker_is_served_from_the_top_and_never_cached_stale(client):
    with client.get("/sw.js") as worker:
        assert worker.status_code == 200 and worker.mimetype == "text/javascript"
        assert worker.headers["Cache-Control"] == "no-cache"
        assert "/offline" in worker.get_data(as_text=True)
    offline = client.get("/offline", headers={"Accept-Language": "de"})
    assert offline.status_code == 200 and "Kein Netz" in offline.get_data(as_text=True)


def test_the_service_worker_keeps_every_module_and_alone_names_the_caches(client, app):
    """The app starts without network: the worker's shell holds every file the page loads (each
    module of static/js/, each game's CSS) under its current name; the caches' names are written
    in sw.js only (the page hands pages to the worker to keep)."""
    with client.get("/sw.js") as worker:
        source = worker.get_data(as_text=True)
    folder = json.loads(re.search(r"^const STATIC = (.*);$", source, re.M).group(1))
    shell = set(json.loads(re.search(r"^const SHELL = (.*);$", source, re.M).group(1)))
    assert folder == app.static_url_path + "/" and re.fullmatch(r"/static/[0-9a-f]{12}/", folder)
    static = Path(app.static_folder)
    modules = {f"{folder}{p.relative_to(static).as_posix()}" for p in (static / "js").glob("*.js")}
    styles = {f"{folder}games/{name}/style.css" for name, a in games.GAMES.items()
              if "style" in a.PARTS}
    assert modules and styles and modules | styles | {"/offline"} <= shell
    for url in shell:
        with client.get(url) as answer:
            assert answer.status_code == 200, url
    names = re.findall(r'^const (?:FILES|PAGES) = [`"]([^`"$]+)', source, re.M)
    assert len(names) == 2
    spelled = [p for root in (static, Path(app.template_folder)) for p in root.rglob("*")
               if p.is_file() and p.suffix in {".js", ".html", ".css"}
               and any(name in p.read_text(encoding="utf-8") for name in names)]
    assert spelled == [static / "sw.js"]


def test_an_expired_form_says_so_in_words_and_stores_nothing(tmp_path):
    app = make_app("sqlite", tmp_path)  # CSRF on, as in production
    phone = app.test_client()
    phone.get("/")
    # a token from before this phone's session (Flask-WTF refuses an old one the same way)
    answer = phone.post("/groups", data={"csrf_token": "old", "name": "Tanne"},
                        headers={"Referer": "http://localhost/"})
    assert answer.status_code == 400
    page = answer.get_data(as_text=True)
    assert "Die Seite war abgelaufen" in page and '<a class="button wide" href="/">' in page
    assert phone.get("/g/tanne").status_code == 404


def test_a_late_form_is_refused_as_late_before_its_fields_are_checked(client):
    table = start_game(client, "hintersche", ["A", "B", "C", "D"])
    assert enter(client, table, DEAL).status_code == 302  # the first phone saves deal 1
    late = client.post(table + "/entries", data={"seq": 1, "points-B": 30})  # half a deal
    assert late.status_code == 302  # told that the hand was taken, not asked for the rest
    page = client.get(table).get_data(as_text=True)
    assert "Hand 1 wurde bereits auf einem anderen Handy eingetragen" in page  # the game's word
    assert len(hands(client, table)) == 1
    cego = start_game(client, "cego", ["A", "B", "C", "D"], slug="schapbach")
    game = {"contract": "eine", "declarer": "B", "augen": "41"}
    assert client.post(cego + "/entries", data={"seq": 1, **game}).status_code == 302
    client.post(cego + "/entries", data={"seq": 1, **game})  # the second phone, too late
    assert "Spiel 1 wurde bereits auf einem anderen Handy eingetragen" in client.get(cego) \
        .get_data(as_text=True)


def test_a_hand_typed_on_a_form_for_another_table_is_refused_not_read_differently(client):
    table = start_game(client, "vier-anderle", ["A", "B", "C", "D"])
    page = client.get(table).get_data(as_text=True)
    type1 = re.search(r'name="shape" value="([0-9a-f]+)"', page).group(1)
    assert send(client, table, {"tricks-A": 4, "shape": type1}, 1, "h1").get_json() == {"saved": 1}
    # the pot is full: the next hand is type 2, whose form asks who plays; a hand typed on the
    # type-1 form while the phone had no network does not fit it
    assert client.get(table + "/state.json").get_json()["next_hand_type"] == 2
    answer = send(client, table, {"tricks-B": 4, "shape": type1}, 2, "h2")
    assert answer.status_code == 409
    assert "Hand 2 passt nicht mehr" in answer.get_json()["refused"]
    assert len(hands(client, table)) == 1


def test_back_to_the_question_after_undoing_the_only_entry_says_it_was_undone(client):
    table = start_game(client, "hintersche", ["A", "B", "C", "D"])
    assert enter(client, table, DEAL, seq=1).status_code == 302
    assert client.post(table + "/undo?seq=1", data={"seq": 1}).status_code == 302
    assert client.get(table + "/undo?seq=1").status_code == 302  # Back
    assert "Hand 1 wurde schon rückgängig gemacht" in client.get(table).get_data(as_text=True)
    assert hands(client, table) == []


def test_back_to_the_undo_question_after_the_undo_undoes_nothing_more(client):
    table = start_game(client, "hintersche", ["A", "B", "C", "D"])
    for seq, deal in enumerate((DEAL, {"points-A": 10, "points-B": 20, "points-C": 30}), 1):
        assert enter(client, table, deal, seq=seq).status_code == 302
    assert 'undo?seq=2"' in client.get(table).get_data(as_text=True)
    assert client.post(table + "/undo?seq=2", data={"seq": 2}).status_code == 302
    again = client.get(table + "/undo?seq=2")  # Back: the question for entry 2 once more
    assert again.status_code == 302 and again.location.endswith(table.rsplit("/g/", 1)[1])
    # it says the undo was done (not that nothing was undone: it was, the first time)
    assert "Hand 2 wurde schon rückgängig gemacht: Hier ist der Tisch, wie er jetzt ist." in \
        client.get(table).get_data(as_text=True)
    assert len(hands(client, table)) == 1
    assert enter(client, table, DEAL, seq=2).status_code == 302  # another deal 2 is entered
    client.get(table + "/undo?seq=1")  # an old question for entry 1: not the last any more
    assert "nichts wurde rückgängig gemacht" in client.get(table).get_data(as_text=True).lower()
    assert len(hands(client, table)) == 2
