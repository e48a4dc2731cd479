"""Ids that are not a row of this group: a 404 on every route, whatever the number."""

import re

import pytest
import sqlalchemy
from hostile import FOUR, HUGE, _counts, _evening_of, _export, _stammtisch
from support import enter, start_game

from scorekeeper.db import db
from scorekeeper.group import club
from scorekeeper.models import Game, Group, Player
from scorekeeper.views import common

# --- 1. ids that are not a row of this group ---------------------------------------------------

def _id_routes(app):
    return [rule for rule in app.url_map.iter_rules() if "<int:" in rule.rule]


def test_an_id_that_is_huge_or_of_another_group_is_a_404_on_every_route_that_takes_one(
        app, client):
    paths = _stammtisch(app, client)
    other = start_game(client, "hartenjagen", ["Ann", "Bob", "Cid", "Dan"], slug="andere")
    with app.app_context():
        foreign = {"game_id": int(other.rsplit("/", 1)[1]),
                   "evening_id": _evening_of(app, other),
                   "player_id": db.session.scalar(sqlalchemy.select(Player.id)
                                                  .where(Player.name == "Ann"))}
    mine = client.post("/g/tanne/tournaments/new", data={
        "name": "Preiscego", "kind": "hartenjagen", "day": "2026-12-05", "rounds": "2",
        "games": "4", "entrants": "Ann\nBob\nCid\nDan"}).location
    client.post(f"{mine}/rounds/1/draw")
    theirs = client.post("/g/andere/tournaments/new", data={
        "name": "Preiscego", "kind": "hartenjagen", "day": "2026-12-05", "rounds": "1",
        "games": "4", "entrants": "Ann\nBob\nCid\nDan"}).location
    client.post(f"{theirs}/rounds/1/draw")
    foreign.update(tournament_id=int(theirs.rsplit("/", 1)[1]), table_id=2)
    real = {"game_id": int(paths[0].rsplit("/", 1)[1]), "evening_id": _evening_of(app, paths[0]),
            "player_id": 1, "seq": 1, "entry_id": 1, "tournament_id": int(mine.rsplit("/", 1)[1]),
            "round_": 1, "table_id": 1, "place": 1, "version": "0123456789abcdef"}
    before = _export(client), _counts(app)
    urls = app.url_map.bind("localhost")
    routes = _id_routes(app)
    assert {r.endpoint for r in routes} >= {"games.table", "games.edit", "evenings.show",
                                            "evenings.settlement_json", "standings.player",
                                            "groups.archive_player"}
    checked = 0
    for rule in routes:
        for arg in re.findall(r"<int:(\w+)>", rule.rule):
            for bad in HUGE + [foreign.get(arg, 10**6)]:
                url = urls.build(rule.endpoint, {"slug": "tanne", **real, arg: bad})
                for method in rule.methods - {"HEAD", "OPTIONS"}:
                    response = client.open(url, method=method, data={"name": "Xaver"})
                    assert response.status_code == 404, (method, url, response.status_code)
                    checked += 1
    assert checked > 50
    assert (_export(client), _counts(app)) == before


def test_the_player_page_shows_only_a_game_of_this_group_whatever_game_is_asked_for(app, client):
    hearts = start_game(client, "hartenjagen", FOUR)
    enter(client, hearts, {"hearts-Kurt": 13, "queen": "Hubert"})
    other = start_game(client, "hartenjagen", FOUR, slug="andere")
    enter(client, other, {"hearts-Kurt": 13, "queen": "Hubert"})
    own, foreign = hearts.rsplit("/", 1)[1], other.rsplit("/", 1)[1]
    with app.app_context():
        kurt = db.session.scalar(sqlalchemy.select(Player.id).join(Group)
                                 .where(Group.slug == "tanne", Player.name == "Kurt"))
    for asked in (foreign, "99999999999999999999", "-1", "abc", ""):
        page = client.get(f"/g/tanne/players/{kurt}?game={asked}")
        assert page.status_code == 200
        assert f"#{own}" in page.get_data(as_text=True)
        assert f"Hartenjagen #{foreign}" not in page.get_data(as_text=True)


def test_get_owned_or_404_refuses_ids_outside_what_a_column_holds(app, client):
    from werkzeug.exceptions import NotFound

    start_game(client, "hartenjagen", FOUR)
    with app.test_request_context():
        group = club.find_group("tanne")
        assert common.get_owned_or_404(Game, 1, group).id == 1
        for bad in (0, -1, 2**31, 10**30):
            with pytest.raises(NotFound):
                common.get_owned_or_404(Game, bad, group)


