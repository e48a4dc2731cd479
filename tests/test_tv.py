"""The big screen: the evening and one table, read-only, for members and the view link alike."""

import re

from support import enter, join, start_game

from scorekeeper.db import db
from scorekeeper.models import Group

FOUR = ["Anna", "Berti", "Carl", "Dora"]


def viewer(app):
    """The pub's TV: a browser that opened the group's view link."""
    with app.app_context():
        token = db.session.scalar(db.select(Group.view_token))
    tv = app.test_client()
    assert join(tv, f"/join/{token}").status_code == 302
    return tv


def test_members_and_the_view_link_see_the_tv_pages_strangers_nothing(app, client):
    game = start_game(client, "hartenjagen", FOUR)
    for phone in (client, viewer(app)):
        for url in ("/g/tanne/tv", game + "/tv"):
            page = phone.get(url)
            assert page.status_code == 200, url
            text = page.get_data(as_text=True)
            assert "<form" not in text and "<button" not in text and "style=" not in text
            assert "<script>" not in text
    stranger = app.test_client()
    assert stranger.get("/g/tanne/tv").status_code == 404
    assert stranger.get(game + "/tv").status_code == 404
    assert client.get("/g/tanne/games/999/tv").status_code == 404


def test_the_table_tv_shows_the_state_and_watches_the_game(app, client):
    game = start_game(client, "hartenjagen", FOUR)
    tv = viewer(app)
    before = tv.get(game + "/tv").get_data(as_text=True)
    assert "Anna" in before and not re.search(r">13<", before)
    enter(client, game, {"hearts-Anna": 13, "queen": "Berti"})
    page = tv.get(game + "/tv").get_data(as_text=True)
    assert re.search(r">13<", page)  # the new hand on the table
    live = re.search(r'data-live="([^"]+)" data-version="(\d+)"', page)
    assert live.group(1) == game + "/live"
    assert tv.get(live.group(1)).get_json()["version"] == int(live.group(2))


def test_the_evening_tv_shows_the_newest_running_game_and_the_money(app, client):
    first = start_game(client, "hartenjagen", FOUR, rules={"cents_per_point": "0,10"})
    enter(client, first, {"hearts-Anna": 13, "queen": "Berti"})
    tv = viewer(app)
    page = tv.get("/g/tanne/tv").get_data(as_text=True)
    assert 'data-live="/g/tanne/live"' in page and f"#{first.rsplit('/', 1)[1]}" in page
    version = re.search(r'data-version="([^"]+)"', page).group(1)
    second = start_game(client, "hintersche", FOUR)
    assert tv.get("/g/tanne/live").get_json()["version"] != version  # the TV reloads
    page = tv.get("/g/tanne/tv").get_data(as_text=True)
    large = re.search(r'<section class="tv-table">\s*<h2>[^#]*#(\d+)', page).group(1)
    assert large == second.rsplit("/", 1)[1]  # the new game's table is the large one
    current = re.search(r'<li aria-current="true">.*?#(\d+)', page, re.S).group(1)
    assert current == second.rsplit("/", 1)[1]
    evening = re.search(r"/evenings/(\d+)", client.get("/g/tanne").get_data(as_text=True))
    assert tv.get(f"/g/tanne/tv?evening={evening.group(1)}").status_code == 200
    assert tv.get("/g/tanne/tv?evening=999").status_code == 404


def test_the_evening_tv_before_the_first_game_waits_for_it(client):
    client.post("/groups", data={"name": "tanne"})
    page = client.get("/g/tanne/tv")
    assert page.status_code == 200 and 'data-live="/g/tanne/live"' in page.get_data(as_text=True)


def test_the_table_and_the_evening_page_link_the_tv_for_the_view_link_too(app, client):
    game = start_game(client, "hartenjagen", FOUR)
    tv = viewer(app)
    assert f'href="{game}/tv"' in tv.get(game).get_data(as_text=True)
    evening = re.search(r"/g/tanne/evenings/\d+", client.get("/g/tanne").get_data(as_text=True))
    assert "/g/tanne/tv?evening=" in tv.get(evening.group(0)).get_data(as_text=True)
