"""A group is private: without its join link (or view link, or PIN) it does not exist."""

import re

import pytest
from support import enter, join, make_app, phone, start_game

from scorekeeper.db import db
from scorekeeper.models import Group
from scorekeeper.web import security

FOUR = ["A", "B", "C", "D"]
pytestmark = pytest.mark.usefixtures("one_pin_window")


def _group(client):
    """A group with a game of each kind, an evening, players, a PIN, an entry in the Kasse's
    book and a fine in its catalogue; the real ids."""
    paths = [start_game(client, kind, FOUR) for kind in ("hartenjagen", "hintersche",
                                                         "vier-anderle")]
    enter(client, paths[0], {"hearts-A": 13, "queen": "B"})
    client.post("/g/tanne/invite/pin", data={"pin": "4711"})
    evening = re.search(r"/evenings/(\d+)", client.get("/g/tanne").get_data(as_text=True))
    assert client.post("/g/tanne/kasse", data={"kind": "deposit", "amount": "2,50",
                                               "note": "Strafe"}).status_code == 302
    entry = re.search(r'id="kasse-(\d+)"', client.get("/g/tanne/kasse").get_data(as_text=True))
    assert client.post("/g/tanne/kasse/fines", data={"name": "zu spät", "amount": "1",
                                                     "kind": "player"}).status_code == 302
    fine = re.search(r'/kasse/fines/(\d+)/archive', client.get("/g/tanne/kasse")
                     .get_data(as_text=True))
    tournament = client.post("/g/tanne/tournaments/new", data={
        "name": "Preiscego", "kind": "hartenjagen", "day": "2026-12-05", "rounds": "2",
        "games": "4", "entrants": "A\nB\nC\nD"}).location
    assert client.post(f"{tournament}/rounds/1/draw").status_code == 302
    return {"game_id": int(paths[0].rsplit("/", 1)[1]), "evening_id": int(evening.group(1)),
            "player_id": 1, "seq": 1, "slug": "tanne", "entry_id": int(entry.group(1)),
            "fine_id": int(fine.group(1)), "year": 2026,
            "tournament_id": int(tournament.rsplit("/", 1)[1]), "round_": 1, "table_id": 1,
            "place": 1, "version": "0123456789abcdef"}


def _everything(client):
    return client.get("/g/tanne/export.json").get_data(as_text=True)


def _group_routes(app):
    return [rule for rule in app.url_map.iter_rules() if "<slug>" in rule.rule]


def _walk(app, client, ids, methods=("GET", "POST")):
    """Every route of the group with every method it takes: the status codes."""
    urls = app.url_map.bind("localhost")
    seen = {}
    for rule in _group_routes(app):
        url = urls.build(rule.endpoint, {k: ids[k] for k in rule.arguments})
        for method in sorted(rule.methods & set(methods)):
            response = client.open(url, method=method, data={"name": "X", "pin": "1234",
                                                             "hearts-A": "13", "queen": "B"})
            seen[method, url] = response.status_code
    return seen


def test_a_stranger_gets_from_every_route_what_a_missing_group_answers(app, client):
    ids = _group(client)
    before = _everything(client)
    stranger = app.test_client()
    seen = _walk(app, stranger, ids)
    assert len(seen) > 25
    assert {code for code in seen.values()} == {404}, seen
    missing = _walk(app, stranger, {**ids, "slug": "gibtsnicht"})
    assert set(missing.values()) == {404}
    for method, url in seen:  # the same page as a group that does not exist (but for its URL)
        other = url.replace("/g/tanne", "/g/gibtsnicht", 1)
        page = stranger.open(url, method=method).get_data(as_text=True)
        assert page.replace("/g/tanne", "/g/gibtsnicht") == \
            stranger.open(other, method=method).get_data(as_text=True)
    assert _everything(client) == before  # and nothing was written


def test_a_forged_token_or_one_replaced_by_renewing_gets_nothing(app, client):
    ids = _group(client)
    assert app.test_client().get("/join/" + "A" * 32).status_code == 404
    assert app.test_client().get("/join/x").status_code == 404
    friend = phone(app)
    tv = app.test_client()
    with app.app_context():
        old, view = db.session.execute(db.select(Group.token, Group.view_token)).one()
    assert join(tv, f"/join/{view}").status_code == 302 and tv.get("/g/tanne").status_code == 200
    assert friend.get("/g/tanne").status_code == 200
    assert client.post("/g/tanne/invite/renew").status_code == 302
    assert set(_walk(app, friend, ids, methods=("GET",)).values()) == {404}
    assert set(_walk(app, tv, ids, methods=("GET",)).values()) == {404}  # the view link too
    assert app.test_client().get(f"/join/{old}").status_code == 404  # the old link is dead
    assert client.get("/g/tanne").status_code == 200  # the phone that renewed stays in
    assert phone(app).get("/g/tanne").status_code == 200  # the new link works
    late = app.test_client()  # the PIN was cleared with the old link
    assert late.post("/join", data={"name": "tanne", "pin": "4711"}).status_code == 400


def test_the_view_link_reads_the_table_evenings_and_standings_and_changes_nothing(app, client):
    ids = _group(client)
    page = client.get("/g/tanne/invite").get_data(as_text=True)
    view = re.search(r'data-view-link="https?://[^/"]+(/join/[^"]+)"', page).group(1)
    tv = app.test_client()
    assert join(tv, view).status_code == 302
    before = _everything(client)
    reads = _walk(app, tv, ids, methods=("GET",))
    allowed = {"/g/tanne", f"/g/tanne/games/{ids['game_id']}",
               f"/g/tanne/games/{ids['game_id']}/state.json", "/g/tanne/evenings",
               f"/g/tanne/evenings/{ids['evening_id']}",
               f"/g/tanne/evenings/{ids['evening_id']}/settlement.json", "/g/tanne/standings",
               f"/g/tanne/players/{ids['player_id']}", "/g/tanne/live",
               f"/g/tanne/games/{ids['game_id']}/live",
               "/g/tanne/live/stream", f"/g/tanne/games/{ids['game_id']}/live/stream",
               "/g/tanne/tv", f"/g/tanne/games/{ids['game_id']}/tv",  # the pub's TV
               "/g/tanne/kasse",  # the Kasse's book
               "/g/tanne/manifest.webmanifest",  # on the home screen
               "/g/tanne/seasons", "/g/tanne/seasons/2026",  # the season chronicle
               f"/g/tanne/evenings/{ids['evening_id']}/card.svg",  # the evening as a picture
               f"/g/tanne/tournaments/{ids['tournament_id']}"}  # a tournament night, to read
    assert {url for (_m, url), code in reads.items() if code == 200} == allowed
    table = tv.get(f"/g/tanne/games/{ids['game_id']}").get_data(as_text=True)
    assert "<form" not in table and "Hand 2" not in table  # nothing to enter
    writes = _walk(app, tv, ids, methods=("POST",))
    assert set(writes.values()) == {404}
    assert _everything(client) == before


def test_pin_failures_are_limited_per_group_and_address(app, client):
    _group(client)
    pub = app.test_client()
    for _ in range(5):
        assert pub.post("/join", data={"name": "Tanne", "pin": "0000"}).status_code == 400
    assert pub.post("/join", data={"name": "Tanne", "pin": "4711"}).status_code == 429
    at_home = app.test_client()  # another address still gets in with the right PIN
    answer = at_home.post("/join", data={"name": "Tanne", "pin": "4711"},
                          environ_base={"REMOTE_ADDR": "10.0.0.7"})
    assert answer.status_code == 302 and at_home.get("/g/tanne").status_code == 200
    # a group's attempts are counted per address (and phone): other addresses' guesses, more
    # than a day's, do not shut out a phone elsewhere (tests/test_attacker.py)
    for i in range(20 - 6):
        address = {"REMOTE_ADDR": f"10.0.1.{i}"}
        assert app.test_client().post("/join", data={"name": "Tanne", "pin": "0000"},
                                      environ_base=address).status_code == 400
    late = app.test_client().post("/join", data={"name": "Tanne", "pin": "4711"},
                                  environ_base={"REMOTE_ADDR": "10.0.2.1"})
    assert late.status_code == 302
    other = app.test_client()  # another group is not touched
    assert other.post("/join", data={"name": "Linde", "pin": "0000"}).status_code == 400


def test_an_ipv6_network_counts_as_one_address_for_pin_failures(app, client):
    _group(client)
    for host in range(5):  # a phone hopping between addresses of its /64
        address = {"REMOTE_ADDR": f"2001:db8:1:2::{host + 1}"}
        assert app.test_client().post("/join", data={"name": "Tanne", "pin": "0000"},
                                      environ_base=address).status_code == 400
    same = {"REMOTE_ADDR": "2001:db8:1:2:ffff::9"}
    other = {"REMOTE_ADDR": "2001:db8:1:3::1"}
    assert app.test_client().post("/join", data={"name": "Tanne", "pin": "4711"},
                                  environ_base=same).status_code == 429
    assert app.test_client().post("/join", data={"name": "Tanne", "pin": "4711"},
                                  environ_base=other).status_code == 302


def test_pin_guesses_sent_all_at_once_are_counted_before_they_are_checked(app, client):
    import threading

    _group(client)
    codes = []

    def guess():
        codes.append(app.test_client().post("/join", data={"name": "Tanne", "pin": "0000"})
                     .status_code)

    threads = [threading.Thread(target=guess) for _ in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(codes) == [400] * 5 + [429] * 7


def test_the_start_page_finds_no_group_by_name(client):
    client.post("/groups", data={"name": "Tanne"})
    page = client.get("/").get_data(as_text=True)
    assert "tanne" not in page.lower().replace("stammtisch tanne", "")
    assert client.get("/open?name=Tanne").status_code == 404


def test_every_response_carries_the_security_headers(app, client):
    ids = _group(client)
    responses = [client.get(url) for url in ("/", f"{app.static_url_path}/app.css", "/g/tanne",
                                             "/g/nothing", "/join/abc", "/g/tanne/invite",
                                             f"/g/tanne/games/{ids['game_id']}/state.json")]
    responses.append(client.post("/groups", data={}))
    for response in responses:
        response.close()
        for name, value in security.HEADERS.items():
            assert response.headers.get(name) == value
        assert "script-src 'self'" in response.headers["Content-Security-Policy"]
        assert "frame-ancestors 'none'" in response.headers["Content-Security-Policy"]


def test_no_page_has_an_inline_script_or_style(client):
    ids = _group(client)
    game = f"/g/tanne/games/{ids['game_id']}"
    pages = {url: client.get(url) for url in (
        "/", "/g/tanne", "/g/tanne/invite", game, f"/g/tanne/evenings/{ids['evening_id']}",
        "/g/tanne/standings", "/join", "/offline", game + "/history", game + "/entries/1",
        game + "/tv", "/g/tanne/tv", "/g/tanne/players", "/g/tanne/evenings")}
    # a correction's preview, and the page of a form that had expired
    pages["preview"] = client.post(game + "/entries/1", data={"hearts-A": 13, "queen": "C"},
                                   follow_redirects=True)
    for url, answer in pages.items():
        assert answer.status_code == 200, url
        page = answer.get_data(as_text=True)
        assert not re.search(r"<script(?![^>]*\bsrc=)", page), url
        assert not re.search(r"\sstyle=|<style|\son[a-z]+=", page), url


def test_the_session_cookie_is_httponly_samesite_and_secure_behind_https(tmp_path, monkeypatch):
    for https in ("", "1"):
        monkeypatch.setenv("SCOREKEEPER_HTTPS", https)
        (tmp_path / f"https{https}").mkdir()
        app = make_app("sqlite", tmp_path / f"https{https}", WTF_CSRF_ENABLED=False)
        created = app.test_client().post("/groups", data={"name": "Tanne"})
        cookie = created.headers["Set-Cookie"]
        assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Expires=" in cookie
        assert ("Secure" in cookie) == bool(https)
        assert ("Strict-Transport-Security" in created.headers) == bool(https)


def test_an_export_keeps_a_short_device_label_never_the_browser_string(app, client):
    path = start_game(client, "hartenjagen", FOUR)
    agent = ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
             "Chrome/131.0.0.0 Mobile Safari/537.36")
    client.post(path + "/entries", data={"hearts-A": 13, "queen": "B", "seq": 1},
                headers={"User-Agent": agent})
    exported = client.get("/g/tanne/export.json").get_json()
    [revision] = exported["evenings"][0]["games"][0]["revisions"]
    assert revision["device"] == "Android · Chrome"
    assert "Mozilla" not in client.get("/g/tanne/export.csv").get_data(as_text=True)


def test_join_link_prints_the_current_link_for_the_host(app, client, runner):
    client.post("/groups", data={"name": "Tanne"})
    result = runner.invoke(args=["join-link", "tanne"])
    assert result.exit_code == 0
    with app.app_context():
        token = db.session.scalar(db.select(Group.token))
    assert result.stdout == f"http://localhost:5000/join/{token}\n"
    assert runner.invoke(args=["join-link", "nothing"]).exit_code != 0


@pytest.mark.parametrize("slug", ["tanne"])
def test_creating_a_group_shows_the_join_link_as_a_qr_code(client, slug):
    created = client.post("/groups", data={"name": "Tanne"})
    assert created.location == f"/g/{slug}/invite"
    page = client.get(created.location).get_data(as_text=True)
    link = re.search(r'data-join-link="(http://localhost/join/([\w-]+))"', page)
    assert link and len(link.group(2)) >= 22  # at least 128 random bits
    assert re.search(r'data-join-link="[^"]+"><svg[^>]*class="qr"', page)


def test_a_watching_phone_polls_a_version_that_answers_304_until_something_changes(app, client):
    path = start_game(client, "hartenjagen", FOUR)
    first = client.get(path + "/live")
    tag = first.headers["ETag"]
    assert first.get_json()["entries"] == 0 and first.headers["Cache-Control"] == "no-cache"
    assert client.get(path + "/live", headers={"If-None-Match": tag}).status_code == 304
    group = client.get("/g/tanne/live")
    group_tag = group.headers["ETag"]
    enter(phone(app), path, {"hearts-A": 13, "queen": "B"})  # another phone enters a hand
    changed = client.get(path + "/live", headers={"If-None-Match": tag})
    assert changed.status_code == 200 and changed.get_json()["entries"] == 1
    assert client.get("/g/tanne/live", headers={"If-None-Match": group_tag}).status_code == 200
    client.post(path + "/undo", data={"seq": 1})  # an undo changes it again
    assert client.get(path + "/live").get_json()["entries"] == 0
    assert client.get(path + "/live").headers["ETag"] not in (tag, changed.headers["ETag"])
