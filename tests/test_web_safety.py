"""Several phones at once, page weight, CSRF."""

import re
import threading
from pathlib import Path
from urllib.parse import urljoin

import pytest
from support import enter, make_app, phone, start_game

from scorekeeper.db import db

FOUR = ["A", "B", "C", "D"]


def test_phones_racing_for_the_same_hand_record_it_once(app):
    path = start_game(app.test_client(), "hartenjagen", FOUR)
    results = []
    barrier = threading.Barrier(6)

    def tap(i):
        client = phone(app)
        barrier.wait()
        response = enter(client, path, {"hearts-A": i, "hearts-B": 13 - i, "queen": "C"},
                         seq=1, key=f"phone-{i}")
        results.append(response.status_code)

    threads = [threading.Thread(target=tap, args=(i,)) for i in range(1, 7)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [302] * 6
    hands = phone(app).get(path + "/record.json").get_json()["hands"]
    assert len(hands) == 1
    with app.app_context():
        from scorekeeper.models import Revision

        assert len(db.session.scalars(db.select(Revision)).all()) == 1


def test_a_resend_after_a_lost_answer_is_recorded_once_even_in_parallel(app):
    path = start_game(app.test_client(), "hartenjagen", FOUR)
    barrier = threading.Barrier(4)

    def resend():
        barrier.wait()
        enter(phone(app), path, {"hearts-A": 13, "queen": "B"}, seq=1, key="same")

    threads = [threading.Thread(target=resend) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(phone(app).get(path + "/record.json").get_json()["hands"]) == 1


STYLESHEET = re.compile(r'<link rel="stylesheet" href="([^"]+)"')
MODULE = re.compile(r'<script type="module" src="([^"]+)"')
IMPORT = re.compile(r'(?:\bfrom|\bimport)\s*\(?\s*"(\.{1,2}/[^"]+)"')  # static and dynamic


def get(client, url):
    with client.get(url) as response:
        assert response.status_code == 200, url
        return response.get_data(as_text=True)


def page_weight(client, path):
    """Bytes of the table view with everything it loads: the HTML (its inline SVG and the game's
    own CSS), its stylesheets, and its JS modules with every module they import."""
    html = get(client, path)
    total = len(html.encode())
    for url in STYLESHEET.findall(html):
        total += len(get(client, url).encode())
    modules, todo = set(), MODULE.findall(html)
    while todo:
        url = todo.pop()
        if url not in modules:
            modules.add(url)
            source = get(client, url)
            total += len(source.encode())
            todo += [urljoin(url, name) for name in IMPORT.findall(source)]
    # every module of static/js/ is counted (none is loaded by other means)
    static = Path(client.application.static_folder)
    assert modules == {f"{client.application.static_url_path}/{p.relative_to(static).as_posix()}"
                       for p in (static / "js").glob("*.js")}
    return total


def test_a_table_view_weighs_at_most_60_kb(client):
    hearts = start_game(client, "hartenjagen", FOUR, slug="j")
    for hand in range(12):
        enter(client, hearts, {"hearts-A": hand % 13, "hearts-B": 13 - hand % 13, "queen": "C"})
    table = start_game(client, "vier-anderle", [f"Spieler {i}" for i in range(13)], slug="v")
    for hand in range(30):
        enter(client, table, {f"tricks-Spieler {hand % 13}": 4})
    slate = start_game(client, "hintersche", FOUR, slug="h")
    for points in ((30, 45, 35, 30), (20, 21, 99, 0), (105, 10, 15, 10)):
        enter(client, slate, dict(zip([f"points-{n}" for n in FOUR], points, strict=True)))
    for path in (hearts, table, slate):
        assert client.get(path).status_code == 200
        weight = page_weight(client, path)
        print(path, weight)
        assert weight <= 60_000, path


def test_forms_without_the_csrf_token_are_refused(tmp_path):
    app = make_app("sqlite", tmp_path)  # CSRF on
    client = app.test_client()
    assert client.post("/groups", data={"name": "Tanne"}).status_code == 400


def elsewhere(action):
    """Run `action` as another phone would: in its own thread, with its own database session."""
    result = []
    thread = threading.Thread(target=lambda: result.append(action()))
    thread.start()
    thread.join()
    return result[0]


def test_an_edit_made_from_an_outdated_read_is_refused(app):
    """Phone 1 reads the game, phone 2 adds a hand, phone 1's correction must not undo it."""
    from scorekeeper.models import Game
    from scorekeeper.table import scoring

    client = app.test_client()
    path = start_game(client, "vier-anderle", ["A", "B", "C"])
    enter(client, path, {"tricks-A": 4})
    game_id = int(path.rsplit("/", 1)[1])
    with app.app_context():
        game = db.session.get(Game, game_id)
        assert len(game.entries) == 1  # phone 1 has read the game with one hand
        added = elsewhere(lambda: enter(phone(app), path,
                                        {"playing-A": "on", "tricks-A": 4}).status_code)
        assert added == 302
        with pytest.raises(scoring.StaleEntry):
            scoring.edit_entry(game, 1, {"tricks": {"B": 4}})
        db.session.rollback()
    state = client.get(path + "/state.json").get_json()
    assert state["hands_played"] == 2
    assert state["history"][0]["tricks"]["A"] == 4


def test_a_rename_racing_a_new_hand_leaves_the_game_playable(app, monkeypatch):
    from scorekeeper.changes import renaming
    from scorekeeper.models import Player
    from scorekeeper.table import scoring

    client = app.test_client()
    path = start_game(client, "hartenjagen", FOUR)
    claim = scoring.claim
    raced = []

    def late_claim(game, **values):  # a phone enters a hand just before the rename writes
        if not raced:
            raced.append("racing")  # the other phone's own claim goes straight through
            raced[0] = elsewhere(lambda: enter(phone(app), path,
                                               {"hearts-A": 13, "queen": "B"}).status_code)
        return claim(game, **values)

    monkeypatch.setattr(scoring, "claim", late_claim)
    with app.app_context():
        player = db.session.scalar(db.select(Player).where(Player.name == "A"))
        with pytest.raises(scoring.StaleEntry):
            renaming.rename_player(player, "Anton")
        db.session.rollback()
    monkeypatch.setattr(scoring, "claim", claim)
    assert raced == [302]
    assert enter(client, path, {"hearts-A": 13, "queen": "C"}).status_code == 302
    state = client.get(path + "/state.json").get_json()
    assert state["players"][0]["name"] == "A" and state["hands_played"] == 2
