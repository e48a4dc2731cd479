"""Every registered game, the tests' fourth game too, played through every page as a table
would: start it, enter hands on the table page, look at the history, correct a hand (with its
preview), undo one, the TV, end the game, the standings, a player's page, the evening with its
settlement, the exports, and an import of the export into a new group."""

import json

import generators
import pytest
from support import enter, entry_fields, rule_fields, start_game

from scorekeeper import engine, games
from scorekeeper.changes import records
from scorekeeper.db import db
from scorekeeper.models import Evening, Game, Group, Player, Result
from scorekeeper.season import standings

HANDS = 4


def _standings_written(app, game_id: int) -> None:
    """The game's rows in the standings are what its state gives now: stored by every page that
    ends or changes an ended game, worked out from the state while it runs (a hand writes
    none); the standings page adds them up."""
    with app.app_context():
        game = db.session.get(Game, game_id)
        adapter = games.get(game.kind)
        money, _house = adapter.money(game)
        expected = {p["name"]: (adapter.figures(game, p), money.get(p["name"], 0))
                    for p in game.state["players"]}
        stored = {r.player: (r.figures, r.money_cents) for r in db.session.scalars(
            db.select(Result).where(Result.game_id == game_id))}
        counted = {r.player: (r.figures, r.money_cents) for r, _evening in
                   standings.running(game.group_id) if r.game_id == game_id}
        if game.status == "running":
            assert (stored, counted) == ({}, expected)
        else:
            assert (stored, counted) == (expected, {})


def localized_title(app, adapter, rules) -> str:
    """What the German pages call a game played by `rules` (escaped as in HTML): its title, or
    the name the group gave it."""
    from markupsafe import escape

    with app.test_request_context():
        return str(escape(adapter.title_of(rules)))


def _post_hand(client, path, adapter, entry, before, seq):
    return enter(client, path, entry_fields(client.application, adapter, entry, before), seq=seq)


@pytest.mark.parametrize("name", sorted(games.GAMES))
def test_every_game_plays_through_every_page(app, client, name):
    adapter = games.get(name)
    record = generators.random_record(name, HANDS, 3)
    tables = [engine.replay({**record, "hands": record["hands"][:n]})
              for n in range(len(record["hands"]) + 1)]

    assert client.post("/groups", data={"name": "tanne"}).status_code == 302
    assert f"kind={name}" in client.get("/g/tanne/games/new").get_data(as_text=True)
    assert client.get(f"/g/tanne/games/new?kind={name}").status_code == 200
    assert client.get(f"/rules/{name}").status_code == 200
    with client.get(f"/docs/rules/{name}.md") as document:
        assert document.status_code == 200 and document.mimetype == "text/markdown"
    path = start_game(client, name, record["players"], record["first_dealer"],
                      rule_fields(adapter.engine, record.get("rules") or {}))
    game_id = int(path.rsplit("/", 1)[1])
    _standings_written(app, game_id)  # a game started counts as played

    # the hands, each typed into the table page's form
    for seq, entry in enumerate(record["hands"], start=1):
        page = client.get(path)
        assert page.status_code == 200 and 'name="seq"' in page.get_data(as_text=True)
        answer = _post_hand(client, path, adapter, entry, tables[seq - 1].summary(), seq)
        assert answer.status_code == 302, answer.get_data(as_text=True)
    state = client.get(path + "/state.json").get_json()
    status = "finished" if tables[-1].finished else "running"
    assert (state.pop("status"), state.pop("ended")) == (status, False)
    assert state == json.loads(json.dumps(engine.report(tables[-1])))
    stored = client.get(path + "/record.json").get_json()  # as typed: the same hands
    assert engine.report(engine.replay(stored)) == engine.report(tables[-1])
    _standings_written(app, game_id)

    # the history links every entry to its correction; a correction shows its preview first
    history = client.get(path + "/history").get_data(as_text=True)
    assert all(f"{path}/entries/{seq}\"" in history for seq in range(1, len(tables)))
    assert client.get(path + "/entries/1").status_code == 200
    fields = entry_fields(app, adapter, record["hands"][0], tables[0].summary())
    preview = client.post(path + "/entries/1", data=fields)
    assert preview.status_code == 302 and "proposal=" in preview.location
    shown = client.get(preview.location)
    assert shown.status_code == 200 and 'name="confirm"' in shown.get_data(as_text=True)
    version = client.get(path + "/live").get_json()["version"]
    assert client.post(path + "/entries/1", data={**fields, "confirm": version}).status_code == 302
    assert client.get(path + "/state.json").get_json()["history"] == json.loads(
        json.dumps(engine.report(tables[-1])["history"]))
    _standings_written(app, game_id)

    # undo the last hand, and enter it again
    last = len(record["hands"])
    assert client.get(f"{path}/undo?seq={last}").status_code == 200
    assert client.post(path + "/undo", data={"seq": last}).status_code == 302
    assert client.get(path + "/live").get_json()["entries"] == last - 1
    _standings_written(app, game_id)
    assert _post_hand(client, path, adapter, record["hands"][-1], tables[-2].summary(),
                      last).status_code == 302

    # the big screen, then the end of the game
    assert client.get(f"/g/tanne/games/{game_id}/tv").status_code == 200
    assert client.get("/g/tanne/tv").status_code == 200
    if not tables[-1].finished:
        assert client.post(path + "/close").status_code == 302
    _standings_written(app, game_id)
    with app.app_context():
        game = db.session.get(Game, game_id)
        assert game.status in ("closed", "finished")
        evening_id, final = game.evening_id, game.state
        player_id = db.session.scalar(db.select(Player.id).where(
            Player.name == record["players"][0]))
    assert client.get(path).status_code == 200
    assert client.get(path + "/history").status_code == 200

    # what the group keeps of it: standings, a player's page, the evening and its money
    assert client.get("/g/tanne/standings").status_code == 200
    # the season chronicle reads the game's stored figures, with its records (if any)
    with app.app_context():
        year = db.session.get(Evening, evening_id).date.year
    season = client.get(f"/g/tanne/seasons/{year}")
    title = localized_title(app, adapter, record.get("rules") or {})
    assert season.status_code == 200 and title in season.get_data(as_text=True)
    # the game is called so on its table, in the lists of games, the history and the TV
    for page in (path, "/g/tanne", f"/g/tanne/evenings/{evening_id}", path + "/history",
                 f"/g/tanne/games/{game_id}/tv", "/g/tanne/standings"):
        assert title in client.get(page).get_data(as_text=True), page
    card = client.get(f"/g/tanne/evenings/{evening_id}/card.svg")
    assert card.status_code == 200 and card.mimetype == "image/svg+xml"
    assert record["players"][0] in card.get_data(as_text=True)
    assert client.get(f"/g/tanne/players/{player_id}").status_code == 200
    assert client.get(f"/g/tanne/evenings/{evening_id}").status_code == 200
    settled = client.get(f"/g/tanne/evenings/{evening_id}/settlement.json").get_json()
    assert sum(settled["balances_cents"].values()) == 0
    assert client.get("/g/tanne").status_code == 200

    # the exports, and the group's export imported as another group gives the same game
    assert client.get("/g/tanne/export.csv").status_code == 200
    export = client.get("/g/tanne/export.json").get_json()
    with app.app_context():
        copy = records.import_group({**export, "slug": "kopie", "name": "Kopie"})
        db.session.commit()
        imported = db.session.scalar(db.select(Game).where(Game.group_id == copy.id))
        assert (imported.kind, imported.status, imported.state) == (name, game.status, final)
        assert db.session.scalar(db.select(Group.name).where(Group.slug == "kopie")) == "Kopie"
        imported_id = imported.id
    _standings_written(app, imported_id)
