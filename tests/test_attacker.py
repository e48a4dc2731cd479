"""The attacker's list: the CSV's header row, PIN attempts (counted per address before any hash,
in sliding windows, a group's own phones never locked out by a stranger), `backup` onto the
live database's files, and the export of a group with a game refused since an upgrade."""

import csv
import dataclasses
import datetime as dt
import io
import os

import pytest
from hostile import FOUR, _copy, _export, _import_group
from sqlalchemy import select
from support import DE, enter, phone, start_game

from scorekeeper.changes import derived
from scorekeeper.db import db
from scorekeeper.engine import hartenjagen
from scorekeeper.group import attempts, pins
from scorekeeper.models import Game, Group
from scorekeeper.records import export

pytestmark = pytest.mark.usefixtures("one_pin_window")


# --- the CSV's header row ----------------------------------------------------------------------

HOSTILE = ["=SUM(1+1)*cmd|' -C calc'!A0", "@SUM(1+1)", "+49 171", "-1"]


def test_the_csv_header_of_player_names_is_escaped_as_every_cell(client):
    path = start_game(client, "hintersche", HOSTILE)
    points = {f"points-{n}": p for n, p in zip(HOSTILE, (30, 45, 35, 30), strict=True)}
    assert enter(client, path, points).status_code == 302
    rows = list(csv.reader(io.StringIO(client.get("/g/tanne/export.csv").get_data(as_text=True))))
    header = rows[0]
    assert sorted(header[8:]) == sorted("'" + name for name in HOSTILE)
    for row in rows:
        assert not any(cell.startswith(export.FORMULA) for cell in row), row


# --- PIN attempts ------------------------------------------------------------------------------

def _pin_group(client):
    client.post("/groups", data={"name": "Tanne"})
    assert client.post("/g/tanne/invite/pin", data={"pin": "4711"}).status_code == 302


def _guess(app, pin="0000", name="Tanne", address="127.0.0.1", phone=None):
    return (phone or app.test_client()).post("/join", data={"name": name, "pin": pin},
                                             environ_base={"REMOTE_ADDR": address}).status_code


@pytest.fixture
def hashes(monkeypatch):
    """The PINs whose hash was checked."""
    checked = []
    real = pins.check_password_hash
    monkeypatch.setattr(pins, "check_password_hash",
                        lambda stored, pin: checked.append(pin) or real(stored, pin))
    return checked


def test_made_up_group_names_cost_no_hash_and_one_address_is_capped_across_all_names(
        app, client, hashes):
    _pin_group(client)
    answers = [_guess(app, name=f"Erfunden {n}") for n in range(12)]
    assert hashes == []  # no such group: nothing to hash
    limit = pins.ADDRESS_LIMIT[0]
    assert answers == [400] * limit + [429] * (12 - limit)
    # past the address's cap not even the real group with its right PIN is looked at
    assert _guess(app, pin="4711") == 429
    assert hashes == []
    assert _guess(app, pin="4711", address="10.0.0.7") == 302  # another address is not touched
    assert hashes == ["4711"]


def test_no_second_burst_of_guesses_right_after_a_quarter_hour_boundary(app, client,
                                                                         monkeypatch):
    _pin_group(client)
    clock = [dt.datetime(2026, 12, 4, 20, 14, 50)]
    monkeypatch.setattr(attempts, "now", lambda: clock[0])
    assert [_guess(app) for _ in range(6)] == [400] * 5 + [429]
    clock[0] = dt.datetime(2026, 12, 4, 20, 15, 10)  # twenty seconds later, a new quarter
    assert _guess(app) == 429
    assert _guess(app, pin="4711") == 429
    clock[0] = dt.datetime(2026, 12, 4, 20, 31)  # a quarter of an hour after the guesses
    assert _guess(app, pin="4711") == 302


def test_a_day_counts_the_day_before_in_part_around_midnight(app, monkeypatch):
    day = dt.timedelta(days=1)
    clock = [dt.datetime(2026, 12, 4, 23, 59, 50)]
    monkeypatch.setattr(attempts, "now", lambda: clock[0])
    with app.app_context():
        assert [attempts.count("k", day) for _ in range(20)] == list(range(1, 21))
        clock[0] = dt.datetime(2026, 12, 5, 0, 0, 10)  # twenty seconds later, a new day
        assert attempts.count("k", day) > 20
        clock[0] = dt.datetime(2026, 12, 5, 12)  # half of yesterday's attempts still count
        assert attempts.count("k", day) == pytest.approx(2 + 20 / 2)
        clock[0] = dt.datetime(2026, 12, 6, 0, 0, 1)  # a whole day after the first twenty
        assert attempts.count("k", day) == pytest.approx(1 + 2, abs=0.01)


def test_a_stranger_elsewhere_cannot_use_up_the_pin_of_the_groups_own_phones(app, client):
    _pin_group(client)
    for n in range(30):  # more than a day's attempts for the group, from many addresses
        assert _guess(app, pin=f"{n:04d}", address=f"10.9.{n}.1") == 400
    at_the_pub = app.test_client()
    assert _guess(app, pin="4711", phone=at_the_pub) == 302
    assert at_the_pub.get("/g/tanne").status_code == 200


def test_past_its_limit_an_address_still_joins_with_the_link(app, client):
    _pin_group(client)
    for _ in range(pins.ADDRESS_LIMIT[0]):
        _guess(app)
    assert _guess(app, pin="4711") == 429
    assert phone(app).get("/g/tanne").status_code == 200  # the join link, from that address


def test_a_phone_hopping_between_addresses_is_counted_by_its_cookie(app, client):
    _pin_group(client)
    hopper = app.test_client()
    assert hopper.post("/groups", data={"name": "Linde"}).status_code == 302  # it has a cookie
    for n in range(20):  # four from each of five addresses: within each address's limits
        assert _guess(app, pin=f"{n:04d}", address=f"10.8.{n // 4}.1", phone=hopper) == 400
    assert _guess(app, pin="4711", address="10.8.9.1", phone=hopper) == 429
    assert _guess(app, pin="4711", address="10.8.9.1") == 302  # another phone there may


# --- backup refuses the live database and its files --------------------------------------------

@pytest.mark.parametrize("suffix", ["", "-wal", "-shm", "-journal"])
def test_backup_refuses_the_live_database_and_its_files_however_they_are_spelled(
        app, client, runner, tmp_path, suffix):
    if app.config["DATABASE_KIND"] != "sqlite":
        pytest.skip("backup copies SQLite only")
    client.post("/groups", data={"name": "Tanne"})
    (tmp_path / "folder").symlink_to(tmp_path)
    target = f"test.sqlite{suffix}"
    (tmp_path / "alias").symlink_to(tmp_path / target)
    spellings = [str(tmp_path / target), f"{tmp_path}/../{tmp_path.name}/./{target}",
                 str(tmp_path / "folder" / target), str(tmp_path / "alias")]

    def files():
        return {p.name: (p.stat().st_size, p.stat().st_mtime_ns)
                for p in tmp_path.iterdir() if p.name.startswith("test.sqlite")}

    with app.app_context():
        db.engine.dispose()  # the app stopped: no -wal or -shm file (a backup would make one)
        before = files()
        for path in spellings:
            result = runner.invoke(args=["backup", path])
            assert result.exit_code == 1, (path, result.output)
            assert "database" in result.stderr and "Traceback" not in result.output
            assert files() == before, path
        db.session.execute(select(Group.id)).all()  # the app has the database open: its -wal
        before = files()
        for path in spellings:
            result = runner.invoke(args=["backup", path])
            assert result.exit_code == 1, (path, result.output)
            assert "database" in result.stderr and "Traceback" not in result.output
            assert files() == before, path
    assert os.path.exists(tmp_path / "test.sqlite")
    assert client.get("/g/tanne").status_code == 200
    assert runner.invoke(args=["backup", str(tmp_path / "copy.sqlite")]).exit_code == 0


# --- a group with a game refused since an upgrade ----------------------------------------------

def _refuse_a_target_of_500(monkeypatch):
    """The new version allows a Hartenjagen target of at most 200."""
    options = tuple(dataclasses.replace(o, maximum=200) if o.name == "target" else o
                    for o in hartenjagen.OPTIONS)
    monkeypatch.setattr(hartenjagen, "OPTIONS", options)
    monkeypatch.setattr(hartenjagen.Table, "OPTIONS", options)


def test_a_group_with_a_game_refused_since_an_upgrade_exports_a_file_import_group_takes_back(
        app, client, runner, tmp_path, monkeypatch):
    refused = start_game(client, "hartenjagen", FOUR, rules={"target": "500"})
    assert enter(client, refused, {"hearts-Kurt": 13, "queen": "Hubert"}).status_code == 302
    fine = start_game(client, "hintersche", FOUR)
    points = {f"points-{n}": p for n, p in zip(FOUR, (30, 45, 35, 30), strict=True)}
    assert enter(client, fine, points).status_code == 302
    _refuse_a_target_of_500(monkeypatch)
    with app.app_context():
        assert derived.rebuild_all()  # a warning: the game no longer replays
        kept = db.session.get(Game, int(refused.rsplit("/", 1)[1]))
        problem, state = kept.problem, kept.state
    export = _export(client)
    result = _import_group(runner, tmp_path, _copy(export))
    assert result.exit_code == 0, result.output
    assert _export(client, "kopie") == _copy(export)  # and back again: the same file

    with app.app_context():
        copy = db.session.scalar(select(Group.id).where(Group.slug == "kopie"))
        game = db.session.scalar(select(Game).where(Game.group_id == copy,
                                                    Game.kind == "hartenjagen"))
        assert (game.problem, game.state, game.entry_count) == (problem, state, 1)
        game_id = game.id
    path = f"/g/kopie/games/{game_id}"
    page = client.get(path).get_data(as_text=True)
    assert DE("Since an update of the app this game no longer fits its rules (%(why)s). It is "
              "shown as it was and takes no more hands; it can still be exported and ended."
              ).split("(")[0] in page
    assert 'name="hearts-Kurt"' not in page  # read-only
    for url in ("/tv", "/history", "/entries/1", "/undo", "/record.json", "/state.json"):
        assert client.get(path + url).status_code in (200, 302), url
    for url in ("/g/kopie", "/g/kopie/standings", "/g/kopie/tv", "/g/kopie/kasse",
                "/g/kopie/export.csv"):
        assert client.get(url).status_code == 200, url
    assert enter(client, path, {"hearts-Kurt": 13, "queen": "Hubert"}).status_code == 302
    assert client.get(path + "/record.json").get_json()["hands"] == [
        {"hearts": {"Kurt": 13}, "queen": "Hubert"}]  # no hand taken
    assert client.post(path + "/close").status_code == 302  # it can still be ended

    monkeypatch.undo()  # an app whose engine takes the game again replays it as any other
    result = _import_group(runner, tmp_path, _copy(export, "wieder"))
    assert result.exit_code == 0, result.output
    assert "kept" not in _export(client, "wieder")["evenings"][0]["games"][0]


def test_a_refused_game_without_what_the_app_kept_of_it_is_still_a_refused_import(
        app, client, runner, tmp_path, monkeypatch):
    refused = start_game(client, "hartenjagen", FOUR, rules={"target": "500"})
    assert enter(client, refused, {"hearts-Kurt": 13, "queen": "Hubert"}).status_code == 302
    _refuse_a_target_of_500(monkeypatch)
    with app.app_context():
        derived.rebuild_all()
    document = _copy(_export(client))
    game = document["evenings"][0]["games"][0]
    for broken in ({}, {**game["kept"], "effects": []}, {**game["kept"], "state": "x"}):
        game["kept"] = broken
        result = _import_group(runner, tmp_path, document)
        assert result.exit_code == 1 and "evenings[0].games[0]" in result.stderr, result.output
    del game["kept"]
    result = _import_group(runner, tmp_path, document)
    assert result.exit_code == 1 and "evenings[0].games[0]" in result.stderr, result.output
    assert _export(client, "kopie") is None
