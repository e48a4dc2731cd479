"""The commands never show a traceback: a bad file, a bad path or a database error is one
line on standard error and exit 1."""

import json

import pytest
import sqlalchemy
from hostile import FOUR, _at, _copy, _counts, _import_group, _refused
from support import start_game

from scorekeeper.records import export

# --- 4. no traceback for a bad file, a bad path or a database error -----------------------------

COMMANDS = [["replay"], ["import", "--group", "tanne"], ["import-group"]]


def _run(runner, command, path):
    return runner.invoke(args=[command[0], path, *command[1:]])


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_deeply_nested_json_is_one_line_not_a_traceback(app, runner, tmp_path, command):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000)
    _refused(_run(runner, command, str(path)), "nested too deeply")
    deep = '{"format": "scorekeeper-game/1", "game": "hartenjagen", "players": ["A", "B", "C", ' \
           '"D"], "hands": [' + "[" * 500 + "]" * 500 + "]}"
    path.write_text(deep)
    result = _run(runner, command, str(path))
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert _counts(app)["games"] == 0


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_a_file_that_is_not_utf8_a_directory_or_missing_is_one_line(app, runner, tmp_path,
                                                                     command):
    latin = tmp_path / "latin.json"
    latin.write_bytes('{"name": "Jürgen"}'.encode("latin-1"))
    _refused(_run(runner, command, str(latin)), "cannot read", "utf-8")
    _refused(_run(runner, command, str(tmp_path)), "cannot read", "directory")
    _refused(_run(runner, command, str(tmp_path / "missing.json")), "cannot read")
    digits = tmp_path / "digits.json"
    digits.write_text('{"format": "scorekeeper-game/1", "n": ' + "9" * 5000 + "}")
    _refused(_run(runner, command, str(digits)))
    assert _counts(app)["games"] == 0


def test_a_nul_anywhere_in_an_imported_export_is_refused_on_every_database(app, runner, tmp_path,
                                                                           real_export):
    export = real_export
    before = _counts(app)
    for where in ("name", "players.0.name", "evenings.0.place",
                  "evenings.0.games.0.revisions.0.device", "evenings.0.games.0.first_dealer"):
        document = _copy(export)
        node, key = _at(document, where)
        node[key] = node[key] + "\x00"
        _refused(_import_group(runner, tmp_path, document))
    document = _copy(export)
    document["evenings"][0]["games"][0]["revisions"][0]["data"]["x\x00"] = 1
    _refused(_import_group(runner, tmp_path, document), "revisions[0].data: the key \"x\\u0000\"")
    assert _counts(app) == before


def test_export_group_of_a_group_that_is_not_there_is_one_line(app, runner):
    for slug in ("nope", "tan\x00ne", "", "x" * 100):
        _refused(runner.invoke(args=["export-group", slug]), "there is no group")
        _refused(runner.invoke(args=["export-group", slug, "--csv"]), "there is no group")


def test_export_group_says_so_in_one_line_when_the_database_fails(app, client, runner,
                                                                  monkeypatch):
    start_game(client, "hartenjagen", FOUR)

    def broken(group):
        raise sqlalchemy.exc.OperationalError("SELECT", {}, Exception("connection lost\nmore"))

    monkeypatch.setattr(export, "group_json", broken)
    _refused(runner.invoke(args=["export-group", "tanne"]), "connection lost")


def test_backup_to_a_path_that_cannot_be_written_is_one_line(app, runner, tmp_path):
    (tmp_path / "notes.txt").write_text("not a database")
    for path in ("/nonexistent/dir/x.sqlite", str(tmp_path), str(tmp_path / "notes.txt"),
                 str(tmp_path / "test.sqlite")):
        result = runner.invoke(args=["backup", path])
        line = _refused(result)
        if app.config["DATABASE_KIND"] == "sqlite":
            assert "back up" in line or "the database itself" in line
        else:
            assert "pg_dump" in line
    assert (tmp_path / "notes.txt").read_text() == "not a database"
    if app.config["DATABASE_KIND"] == "sqlite":
        good = runner.invoke(args=["backup", str(tmp_path / "copy.sqlite")])
        assert good.exit_code == 0, good.output


def test_replay_says_a_name_with_a_line_break_on_one_line(runner, tmp_path):
    path = tmp_path / "record.json"
    path.write_text(json.dumps({"format": "scorekeeper-game/1", "game": "hintersche",
                                "players": ["A\nB", "A\nB", "C", "D"], "hands": []}))
    result = runner.invoke(args=["replay", str(path)])
    assert result.exit_code == 1
    assert result.output.strip().splitlines() == ["A\\nB is named twice"]


