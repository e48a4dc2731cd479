"""Migrations with data in the database: an upgrade rebuilds every game's derived data as a fresh
import would have it, and a downgrade goes back one step at a time without losing entries."""

import copy
import datetime as dt

import pytest
import records_hartenjagen
import records_hintersche
import records_vier_anderle
import sqlalchemy as sa
from alembic.script import ScriptDirectory
from flask_migrate import downgrade, upgrade
from support import ROOT, drop_schema, phone

from scorekeeper import engine
from scorekeeper.changes import records
from scorekeeper.db import db
from scorekeeper.models import Game, Player, Result
from scorekeeper.records import export
from scorekeeper.season import standings

MIGRATIONS = str(ROOT / "migrations")
REVISIONS = [s.revision for s in reversed(list(ScriptDirectory(MIGRATIONS).walk_revisions()))]
FIRST, HEAD = REVISIONS[0], REVISIONS[-1]
AT = dt.datetime(2025, 11, 27, 20, 15)


def game(record, status=None):
    """A game of the group export: the record, its status and a revision per entry."""
    status = status or ("finished" if engine.replay(record).finished else "running")
    return {**record, "status": status, "revisions": [
        {"seq": seq, "action": "add", "data": data, "device": "", "at": AT.isoformat()}
        for seq, data in enumerate(record["hands"], start=1)]}


def group_data():
    """A group export with one game of each kind: Hintersche into its Butzen phase, a closed
    Vier-Anderle game whose pot stays in the Kasse, a running Hartenjagen game."""
    hintersche = records_hintersche.random_record(8, seed=1)
    assert "butzen" in [h["phase"] for h in engine.report(engine.replay(hintersche))["history"]]
    vier_anderle = records_vier_anderle.random_record(6, seed=1, players=5)
    assert engine.get("vier-anderle").close(engine.replay(vier_anderle))["kasse"] > 0
    hartenjagen = records_hartenjagen.random_record(6, seed=1)
    names = sorted(set(hintersche["players"] + vier_anderle["players"]
                       + hartenjagen["players"]))
    return {"format": export.FORMAT, "slug": "tanne", "name": "Tanne",
            "players": [{"name": n, "archived": False} for n in names],
            "evenings": [
                {"date": "2025-11-27", "place": "Zur Tanne", "paid": [],
                 "games": [game(hintersche), game(vier_anderle, "closed")]},
                {"date": "2026-01-15", "place": "", "paid": [], "games": [game(hartenjagen)]}]}


def empty_database():
    if db.engine.dialect.name == "postgresql":
        with db.engine.begin() as conn:
            drop_schema(conn)
    else:
        db.drop_all()
        with db.engine.begin() as conn:
            conn.exec_driver_sql("DROP TABLE IF EXISTS alembic_version")


def insert_raw(data, broken_state=None):
    """Write the group as the schema of the current revision has it (read from the database),
    with a wrong cached state and status for every game. A game whose entries break a rule now
    gets `broken_state`."""
    with db.engine.begin() as conn:
        tables = sa.MetaData()
        tables.reflect(conn)

        def insert(table_name, **values):
            table = tables.tables[table_name]
            values = {k: v for k, v in values.items() if k in table.columns}
            return conn.execute(table.insert().values(values)).inserted_primary_key[0]

        group = insert("groups", slug=data["slug"], name=data["name"], created_at=AT,
                       token="t" * 32, view_token="v" * 32)
        for player in data["players"]:
            insert("players", group_id=group, name=player["name"], archived=player["archived"],
                   created_at=AT)
        for item in data["evenings"]:
            evening = insert("evenings", group_id=group, date=dt.date.fromisoformat(item["date"]),
                             place=item["place"], created_at=AT)
            for record in item["games"]:
                try:
                    engine.replay(record)
                    state = {"players": [], "history": [], "stale": True}
                    status = "closed" if record["status"] == "closed" else "finished"
                except engine.RuleError:
                    state, status = broken_state, record["status"]
                game_id = insert(
                    "games", group_id=group, evening_id=evening, kind=record["game"],
                    rules=record["rules"], seating=record["players"],
                    first_dealer=record["first_dealer"], status=status,
                    entry_count=len(record["hands"]), state=state, created_at=AT, updated_at=AT)
                for seq, hand in enumerate(record["hands"], start=1):
                    insert("entries", game_id=game_id, seq=seq, data=hand, created_at=AT,
                           updated_at=AT)
                for revision in record["revisions"]:
                    insert("revisions", game_id=game_id, seq=revision["seq"],
                           action=revision["action"], data=revision["data"], device="",
                           created_at=dt.datetime.fromisoformat(revision["at"]))
                if "results" in tables.tables:  # a stale row the upgrade must replace
                    insert("results", game_id=game_id, group_id=group, evening_id=evening,
                           season=1999, kind=record["game"], player="Nobody", hands=1, games=1,
                           rubbers=1, wins=1, lines=1, points=1, moons=1, best_pot_cents=1,
                           money_cents=1, figures={"hands": 1})


def pages(app, slug="tanne"):
    """What the group shows: standings, every player's page, every game's state, the export."""
    client = phone(app, slug)
    with app.app_context():
        players = db.session.scalars(sa.select(Player.id).order_by(Player.id)).all()
        games = db.session.scalars(sa.select(Game.id).order_by(Game.id)).all()
    shown = {"standings": client.get(f"/g/{slug}/standings").get_data(as_text=True),
             "export": client.get(f"/g/{slug}/export.json").get_json()}
    for year in (2025, 2026):  # the season chronicle reads the records' stored figures
        shown[f"season {year}"] = client.get(f"/g/{slug}/seasons/{year}").get_data(as_text=True)
    for player in players:
        shown[f"player {player}"] = client.get(f"/g/{slug}/players/{player}").get_data(as_text=True)
    for game_id in games:
        shown[f"game {game_id}"] = client.get(f"/g/{slug}/games/{game_id}/state.json").get_json()
    return shown


def table_names():
    return set(sa.inspect(db.engine).get_table_names())


@pytest.mark.slow  # every revision upgraded to the last: n² steps
def test_upgrade_from_each_earlier_revision_shows_the_games_as_a_fresh_import(app):
    data = group_data()
    with app.app_context():
        records.import_group(copy.deepcopy(data))
    fresh = pages(app)
    assert fresh["export"] == data
    assert "Kurt" in fresh["standings"]
    for revision in REVISIONS[:-1]:
        with app.app_context():
            db.session.remove()
            empty_database()
            upgrade(directory=MIGRATIONS, revision=revision)
            insert_raw(data)
            upgrade(directory=MIGRATIONS)
        assert pages(app) == fresh, f"upgraded from {revision}"


def test_downgrade_one_step_at_a_time_keeps_the_entries_and_upgrade_gives_the_same_export(app):
    data = group_data()
    with app.app_context():
        empty_database()
        upgrade(directory=MIGRATIONS, revision=FIRST)
        insert_raw(data)
        upgrade(directory=MIGRATIONS)
        before = pages(app)["export"]
        counts = ("SELECT (SELECT count(*) FROM groups), (SELECT count(*) FROM players), "
                  "(SELECT count(*) FROM entries), (SELECT count(*) FROM revisions)")
        with db.engine.connect() as conn:
            rows = conn.exec_driver_sql(counts).one()
        for revision in reversed(REVISIONS[:-1]):
            db.session.remove()
            downgrade(directory=MIGRATIONS, revision=revision)
            assert not [t for t in table_names() if t.startswith("_alembic_tmp")], revision
            with db.engine.connect() as conn:
                versions = conn.exec_driver_sql("SELECT version_num FROM alembic_version").all()
                assert versions == [(revision,)]
                assert conn.exec_driver_sql(counts).one() == rows, revision
                if conn.dialect.name == "sqlite":
                    assert conn.exec_driver_sql("PRAGMA foreign_key_check").all() == []
                    assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        upgrade(directory=MIGRATIONS)
    assert pages(app)["export"] == before == data


def test_a_game_the_engine_now_refuses_keeps_its_entries_and_old_state_with_a_warning(
        app, capsys):
    data = group_data()
    hartenjagen = data["evenings"][1]["games"][0]
    old_state = engine.report(engine.replay(hartenjagen))
    hartenjagen["hands"][2] = {"hearts": {"Nobody": 13}}  # accepted then, refused now
    with app.app_context():
        empty_database()
        upgrade(directory=MIGRATIONS, revision=FIRST)
        insert_raw(data, broken_state=old_state)
        capsys.readouterr()
        upgrade(directory=MIGRATIONS)
        game = db.session.scalars(sa.select(Game).where(Game.kind == "hartenjagen")).one()
        game_id = game.id
        assert game.state == old_state
        assert [e.data for e in game.entries] == hartenjagen["hands"]
        # the standings count it as it stood: stored if it ended, from its old state if not
        results = db.session.scalars(sa.select(Result).where(Result.game_id == game.id)).all()
        if game.status == "running":
            assert results == []
            results = [r for r, _evening in standings.running(game.group_id)
                       if r.game_id == game.id]
        assert {r.player: r.figures.get("points", 0) for r in results} == {
            p["name"]: p["score"] for p in old_state["players"]}
    warnings = [line for line in capsys.readouterr().err.splitlines()
                if line.startswith("game ")]
    assert len(warnings) == 1
    assert warnings[0].startswith(f"game {game_id} (group tanne): hand 3: Nobody")
    exported = pages(app)["export"]
    kept = exported["evenings"][1]["games"][0].pop("kept")  # what no replay gives back
    assert kept["problem"]["entry"] == 3 and kept["state"] == old_state
    assert exported == data
