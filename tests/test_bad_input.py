"""Bad input: a clear error, nothing stored. Web forms, JSON routes and the CLI commands
`import`, `import-group`, `export-group` and `backup`, on SQLite and PostgreSQL."""

import copy
import csv
import io
import itertools
import json
import re
from urllib.parse import urlencode

import pytest
import sqlalchemy
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from support import enter, make_app, phone, start_game

from scorekeeper import club, engine, exports, names
from scorekeeper.db import db
from scorekeeper.models import Entry, Evening, Game, Group, PaidPayment, Player, Result, Revision
from scorekeeper.views import common

FOUR = ["Kurt", "Hubert", "Hermann", "Alfred"]
HUGE = [0, 2**31, 2**63, 99999999999999999999]
HIDDEN = (["\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068",
           "\u2069", "\u200b", "\u200c", "\u200d", "\u200e", "\u200f", "\u2060", "\u2061",
           "\u2062", "\u2063", "\u2064", "\ufeff", "\u00ad", "\u034f", "\u115f", "\u1160",
           "\u3164", "\uffa0", "\u180e"]
          + ["\x00", "\x07", "\x1f", "\x7f", "\x85", "\ue000", "\U000f0000", "\u0378",
             "\u2028", "\u2029", "\u00a0", "\u2009", "\u3000", "\u1680", "\ud800"])
RECORD = {"format": "scorekeeper-game/1", "game": "hartenjagen", "players": FOUR,
          "hands": [{"hearts": {"Kurt": 13}, "queen": "Hubert"}]}


# --- helpers -----------------------------------------------------------------------------------

def _evening_of(app, game_path):
    with app.app_context():
        return db.session.get(Game, int(game_path.rsplit("/", 1)[1])).evening_id


def _stammtisch(app, client, slug="tanne"):
    """A group as the table leaves it: one game of each kind (a table change and a closed
    Vier-Anderle among them) and a payment marked as paid. Returns the game paths."""
    hearts = start_game(client, "hartenjagen", FOUR, slug=slug)
    assert enter(client, hearts, {"hearts-Kurt": 13, "queen": "Hubert"}).status_code == 302
    slate = start_game(client, "hintersche", FOUR, slug=slug)
    points = {f"points-{n}": p for n, p in zip(FOUR, (30, 45, 35, 30), strict=True)}
    assert enter(client, slate, points).status_code == 302
    pot = start_game(client, "vier-anderle", FOUR, slug=slug)
    assert enter(client, pot, {"tricks-Kurt": 4}).status_code == 302
    change = {"table": "1", "order": "\n".join(FOUR), "new_player": "Zenzi",
              **{f"seat-{n}": "on" for n in FOUR}}
    assert enter(client, pot, change).status_code == 302
    assert enter(client, pot, {"playing-Kurt": "on", "playing-Zenzi": "on",
                               "tricks-Zenzi": 4}).status_code == 302
    assert client.post(pot + "/close").status_code == 302
    evening = f"/g/{slug}/evenings/{_evening_of(app, pot)}"
    payment = client.get(evening + "/settlement.json").get_json()["payments"][0]
    assert client.post(evening + "/paid", data={"payer": payment["from"], "payee": payment["to"],
                                                "cents": payment["cents"]}).status_code == 302
    return [hearts, slate, pot]


@pytest.fixture(scope="module")
def real_export(tmp_path_factory):
    """The `export-group` document of such a group, made once (on SQLite) for the imports."""
    app = make_app("sqlite", tmp_path_factory.mktemp("export"), WTF_CSRF_ENABLED=False)
    _stammtisch(app, app.test_client())
    document = _export(phone(app))
    with app.app_context():
        db.engine.dispose()
    return document


def _export(client, slug="tanne"):
    response = client.get(f"/g/{slug}/export.json")
    return response.get_json() if response.status_code == 200 else None


def _counts(app):
    """How many rows each table has: a refused input must leave every one as it was."""
    with app.app_context():
        return {model.__tablename__: db.session.scalar(
            sqlalchemy.select(sqlalchemy.func.count()).select_from(model))
            for model in (Group, Player, Evening, Game, Entry, Revision, Result, PaidPayment)}


def _write(tmp_path, document, name="file.json"):
    path = tmp_path / name
    path.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    return str(path)


def _refused(result, *words):
    """Exit 1 with one line on standard error that says what is wrong; never a traceback."""
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


def _import_group(runner, tmp_path, document):
    return runner.invoke(args=["import-group", _write(tmp_path, document)])


def _copy(export, slug="kopie"):
    return dict(copy.deepcopy(export), slug=slug)


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
    real = {"game_id": int(paths[0].rsplit("/", 1)[1]), "evening_id": _evening_of(app, paths[0]),
            "player_id": 1, "seq": 1}
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


# --- 2. names and places: no hidden or control characters, the Kasse is the Kasse ---------------

@pytest.mark.parametrize("char", HIDDEN, ids=[f"U+{ord(c):04X}" for c in HIDDEN])
def test_a_name_with_a_hidden_or_control_character_is_not_a_name(char):
    assert not names.printable(f"An{char}na")
    assert names.name_problem(f"An{char}na") == "format"
    assert names.name_problem(f"Kasse{char}") == "format"


def test_ordinary_names_with_accents_and_scripts_are_fine():
    for name in ("Jürgen", "Zoë", "Łukasz", "Ærøskøbing", "Ólafur Örn", "Дмитрий", "山田",
                 "O'Brien", "Anne-Marie", "Hans 2"):
        assert names.printable(name) and names.name_problem(name) is None, name


@pytest.mark.parametrize("name", ["Kasse", "KASSE", " kasse ", "Ｋａｓｓｅ", "Kaſſe", "ＫＡＳＳＥ"])
def test_the_kasse_in_any_case_or_compatibility_form_is_reserved(name):
    assert names.name_problem(name) == "reserved"


def test_a_name_that_is_only_spaces_is_refused(app, client):
    client.post("/groups", data={"name": "tanne"})
    assert names.name_problem("   ") == "format"
    before = _counts(app)
    assert client.post("/g/tanne/players", data={"name": "   "}).status_code == 400
    assert client.post("/groups", data={"name": "   "}).status_code == 400
    assert _counts(app) == before


def test_names_group_names_and_places_with_hidden_characters_are_refused_and_not_stored(
        app, client):
    client.post("/groups", data={"name": "tanne"})
    before = _counts(app)
    for char in HIDDEN[:-1]:  # not the lone surrogate: no browser can send it
        assert client.post("/g/tanne/players", data={"name": f"Ku{char}rt"}).status_code == 400
        assert client.post("/g/tanne/players", data={"name": f"Kasse{char}"}).status_code == 400
        assert client.post("/groups", data={"name": f"Tan{char}ne"}).status_code == 400
        assert client.post("/g/tanne/evenings", data={"place": f"Kro{char}ne"}).status_code == 400
    assert _counts(app) == before


def test_a_zero_width_kasse_cannot_join_a_game_or_be_renamed_to(app, client):
    path = start_game(client, "vier-anderle", FOUR)
    before = _export(client), _counts(app)
    change = {"table": "1", "order": "\n".join(FOUR), "new_player": "Kasse\u200b",
              **{f"seat-{n}": "on" for n in FOUR}}
    assert enter(client, path, change).status_code == 400
    new = {"kind": "hartenjagen", "order": "Kurt\nHubert\nHermann\nKasse\u200b",
           **{f"seat-{n}": "on" for n in ["Kurt", "Hubert", "Hermann", "Kasse\u200b"]}}
    assert client.post("/g/tanne/games/new", data=new).status_code == 400
    assert client.post("/g/tanne/players/1", data={"name": "\u202eKasse"}).status_code == 200
    assert client.post("/g/tanne/players/1", data={"name": "Ｋasse"}).status_code == 200
    assert (_export(client), _counts(app)) == before


def test_import_refuses_a_record_with_a_hidden_kasse_and_stores_nothing(app, runner, tmp_path):
    before = _counts(app)
    for name in ("Kasse\u200b", "\ufeffKasse", "Ｋasse", " Kurt", "An\u202ena"):
        record = dict(RECORD, players=["Hubert", "Hermann", "Alfred", name], hands=[])
        result = runner.invoke(args=["import", _write(tmp_path, record), "--group", "tanne"])
        line = _refused(result)
        assert "cannot be a player's name" in line or "players[3]: " in line, line
    assert _counts(app) == before


# --- 3. import-group: one check of the whole file, then all or nothing --------------------------

def test_import_group_restores_a_real_export_exactly(client, runner, tmp_path, real_export):
    result = _import_group(runner, tmp_path, real_export)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == "/g/tanne"
    assert re.fullmatch(r"join link: http://localhost:5000/join/[\w-]{32}",
                        result.stdout.splitlines()[1])
    assert _export(client) == real_export


def _at(document, path):
    """The container and key of `path` ("evenings.0.paid.0.cents") in the document."""
    *parents, last = path.split(".")
    node = document
    for key in parents:
        node = node[int(key)] if isinstance(node, list) else node[key]
    return node, int(last) if isinstance(node, list) else last


BAD_FILES = [  # (where, new value, words of the error)
    ("slug", "a/b", 'slug: "a/b" is not a group name'),
    ("slug", "", "slug: "),
    ("slug", "Tanne", "slug: "),
    ("slug", "kopie\n", "slug: "),
    ("slug", 7, "slug: 7 is not"),
    ("name", "", "name: is empty"),
    ("name", "x" * 61, "name: is longer than 60 characters"),
    ("name", "Tan\u202ene", "name: "),
    ("name", ["Tanne"], "name: a list is not a text"),
    ("players", {}, "players: an object is not a list"),
    ("players.0", "Kurt", 'players[0]: "Kurt" is not an object'),
    ("players.0.name", "<script>", "players[0].name: \"<script>\" cannot be a player's name"),
    ("players.0.name", "x" * 10_000, "players[0].name: "),
    ("players.0.name", "Kasse", "players[0].name: \"Kasse\" cannot be a player's name"),
    ("players.0.name", "Kasse\u200b", "players[0].name: \"Kasse\\u200b\" cannot be"),
    ("players.0.name", "   ", "players[0].name: "),
    ("players.0.name", " Alfred", "players[0].name: "),
    ("players.4.name", "hubert", 'players[4].name: there is another player called "hubert"'),
    ("players.0.name", None, "players[0].name: null cannot be a player's name"),
    ("players.0.archived", "yes", 'players[0].archived: "yes" is not true or false'),
    ("players.0.nickname", "Al", "players[0].nickname: is not part of a group export"),
    ("evenings", "none", 'evenings: "none" is not a list'),
    ("evenings.0.date", "2026-13-45", 'evenings[0].date: "2026-13-45" is not a date'),
    ("evenings.0.date", 20261130, "evenings[0].date: 20261130 is not a date"),
    ("evenings.0.place", "x" * 101, "evenings[0].place: is longer than 100 characters"),
    ("evenings.0.place", "Krone\x00", 'evenings[0].place: "Krone\\u0000" has an invisible'),
    ("evenings.0.place", 5, "evenings[0].place: 5 is not a text"),
    ("evenings.0.games", {}, "evenings[0].games: an object is not a list"),
    ("evenings.0.games.0.status", "paused",
     'evenings[0].games[0].status: "paused" is not running, finished, closed or deleted'),
    ("evenings.0.games.0.status", "deleted",
     "evenings[0].games[0].status: a game with hands is ended, never deleted"),
    ("evenings.0.games.0.players.0", "Xaver",
     "evenings[0].games[0].players[0]: \"Xaver\" is not one of the group's players"),
    ("evenings.0.games.0.hands.0.queen", "Xaver", "evenings[0].games[0]: hand 1: "),
    ("evenings.0.games.0.hands.0.moon", "\x00", "evenings[0].games[0].hands[0].moon: "),
    ("evenings.0.games.0.rules", {"target": float("nan")}, "evenings[0].games[0].rules.target"),
    ("evenings.0.games.0.rules", [], "evenings[0].games[0].rules: a list is not an object"),
    ("evenings.0.games.0.hands", {}, "evenings[0].games[0].hands: an object is not a list"),
    ("evenings.0.games.0.hands.0.points", {"Jürgen\n": 1},
     'evenings[0].games[0].hands[0].points: the key "Jürgen\\n" has an invisible'),
    ("evenings.0.games.0.revisions", {}, "evenings[0].games[0].revisions: an object"),
    ("evenings.0.games.0.revisions.0.seq", 0, "revisions[0].seq: 0 is not between 1 and"),
    ("evenings.0.games.0.revisions.0.seq", -1, "revisions[0].seq: -1 is not between"),
    ("evenings.0.games.0.revisions.0.seq", 2**31, "revisions[0].seq: 2147483648 is not"),
    ("evenings.0.games.0.revisions.0.seq", True, "revisions[0].seq: true is not a whole number"),
    ("evenings.0.games.0.revisions.0.seq", "1", 'revisions[0].seq: "1" is not a whole number'),
    ("evenings.0.games.0.revisions.0.action", "remove",
     'revisions[0].action: "remove" is not add, edit, undo, end or delete'),
    ("evenings.0.games.0.revisions.0.data", [], "revisions[0].data: a list is not an object"),
    ("evenings.0.games.0.revisions.0.data", {"moon": "a\x00b"}, "revisions[0].data.moon: "),
    ("evenings.0.games.0.revisions.0.device", "x" * 201, "revisions[0].device: "),
    ("evenings.0.games.0.revisions.0.device", 5, "revisions[0].device: 5 is not a text"),
    ("evenings.0.games.0.revisions.0.device", "Werk\x00zeug",
     'revisions[0].device: "Werk\\u0000zeug" has an invisible or control character'),
    ("evenings.0.games.0.revisions.0.at", "yesterday", 'revisions[0].at: "yesterday" is not'),
    ("evenings.0.games.0.revisions.0.at", "2026-11-30T21:15:00+01:00", "revisions[0].at: "),
    ("evenings.0.paid", {}, "evenings[0].paid: an object is not a list"),
    ("evenings.0.paid.0.cents", "abc", 'evenings[0].paid[0].cents: "abc" is not a whole number '
                                       "of cents"),
    ("evenings.0.paid.0.cents", True, "evenings[0].paid[0].cents: true is not a whole number"),
    ("evenings.0.paid.0.cents", 1.5, "evenings[0].paid[0].cents: 1.5 is not a whole number"),
    ("evenings.0.paid.0.cents", 0, "evenings[0].paid[0].cents: 0 is not between 1 and"),
    ("evenings.0.paid.0.cents", 10**10, "evenings[0].paid[0].cents: 10000000000 is not"),
    ("evenings.0.paid.0.from", "Nobody",
     "evenings[0].paid[0].from: \"Nobody\" is not one of the group's players or the Kasse"),
    ("evenings.0.paid.0.to", "Alfred", "evenings[0].paid[0]: \"Alfred\" cannot pay themselves"),
]


def test_import_group_refuses_a_bad_file_saying_where_and_why_and_stores_nothing(
        app, client, runner, tmp_path, real_export):
    export = real_export
    before = _counts(app)
    for where, value, words in BAD_FILES:  # one group for all: far quicker than one each
        document = _copy(export)
        node, key = _at(document, where)
        node[key] = value
        line = _refused(_import_group(runner, tmp_path, document))
        assert words in line, (where, line)
        assert _counts(app) == before, where
    assert _export(client, "kopie") is None


def test_import_group_refuses_a_player_called_kasse_and_stores_nothing(app, client, runner,
                                                                        tmp_path, real_export):
    document = _copy(real_export)
    document["players"].append({"name": "Kasse", "archived": False})
    before = _counts(app)
    _refused(_import_group(runner, tmp_path, document), "players[5].name", "Kasse")
    assert _counts(app) == before and _export(client, "kopie") is None


def test_import_group_refuses_cents_that_are_not_a_number_and_stores_nothing(
        app, client, runner, tmp_path, real_export):
    document = _copy(real_export)
    document["evenings"][0]["paid"][0]["cents"] = "abc"
    before = _counts(app)
    _refused(_import_group(runner, tmp_path, document),
             'evenings[0].paid[0].cents: "abc" is not a whole number of cents')
    assert _counts(app) == before and _export(client, "kopie") is None


def test_import_group_stores_nothing_when_the_third_game_breaks_a_rule(app, client, runner,
                                                                       tmp_path, real_export):
    document = _copy(real_export)
    document["evenings"][0]["games"][2]["hands"][0] = {"tricks": {"Kurt": 5}}
    before = _counts(app)
    _refused(_import_group(runner, tmp_path, document), "evenings[0].games[2]: entry 1: ")
    assert _counts(app) == before and _export(client, "kopie") is None


def test_import_group_stores_nothing_when_a_late_game_cannot_be_closed(app, client, runner,
                                                                       tmp_path, real_export):
    document = _copy(real_export)
    game = document["evenings"][0]["games"][2]
    game["rules"] = {**game.get("rules", {}), "pot_at_end": "play-out"}
    before = _counts(app)
    _refused(_import_group(runner, tmp_path, document), "evenings[0].games[2]: ", "the pot")
    assert _counts(app) == before and _export(client, "kopie") is None


def test_import_group_refuses_a_newcomer_at_the_table_who_is_not_a_player(app, client, runner,
                                                                         tmp_path, real_export):
    document = _copy(real_export)
    document["players"] = [p for p in document["players"] if p["name"] != "Zenzi"]
    document["evenings"][0]["paid"] = []
    before = _counts(app)
    _refused(_import_group(runner, tmp_path, document),
             "evenings[0].games[2]: \"Zenzi\" plays but is not one of the group's players")
    assert _counts(app) == before and _export(client, "kopie") is None


def test_import_group_refuses_a_group_that_exists_already(app, runner, tmp_path, real_export):
    assert _import_group(runner, tmp_path, real_export).exit_code == 0
    before = _counts(app)
    _refused(_import_group(runner, tmp_path, real_export), "there is already a group")
    assert _counts(app) == before


def test_import_group_refuses_two_evenings_on_one_day_at_one_place(app, client, runner,
                                                                   tmp_path, real_export):
    document = _copy(real_export)
    document["evenings"].append(dict(document["evenings"][0], games=[], paid=[]))
    before = _counts(app)
    _refused(_import_group(runner, tmp_path, document), "evenings[1]: there is another evening")
    assert _counts(app) == before


def test_import_group_stores_nothing_when_the_database_refuses(app, client, runner, tmp_path,
                                                               monkeypatch, real_export):
    from scorekeeper import records

    document = _copy(real_export)
    store_game = records.store_game

    def refused_late(group, evening, record, revisions=True):
        if record["game"] == "vier-anderle":
            raise sqlalchemy.exc.DataError("INSERT", {}, Exception("integer out of range"))
        return store_game(group, evening, record, revisions)

    monkeypatch.setattr(records, "store_game", refused_late)
    before = _counts(app)
    _refused(_import_group(runner, tmp_path, document),
             "the database refused it: integer out of range")
    assert _counts(app) == before and _export(client, "kopie") is None


def test_import_checks_the_group_and_stores_nothing_on_a_rule_error(app, runner, tmp_path):
    before = _counts(app)
    for slug in ("a/b", "", "Tanne", "tanne\n", "x" * 61, "tan\x00ne"):
        result = runner.invoke(args=["import", _write(tmp_path, RECORD), "--group", slug])
        _refused(result, "is not a group name")
    bad = dict(RECORD, hands=[{"hearts": {"Kurt": 12}, "queen": "Hubert"}])
    _refused(runner.invoke(args=["import", _write(tmp_path, bad), "--group", "tanne"]),
             "hand 1: ")
    late = dict(RECORD, hands=RECORD["hands"] * 3 + [{"hearts": {"Kurt": 14}}])
    _refused(runner.invoke(args=["import", _write(tmp_path, late), "--group", "tanne"]),
             "hand 4: ")
    nul = dict(RECORD, hands=[{"hearts": {"Kurt": 13}, "queen": "Hubert", "moon": "\x00"}])
    _refused(runner.invoke(args=["import", _write(tmp_path, nul), "--group", "tanne"]),
             "hands[0].moon: ")
    assert _counts(app) == before
    ok = runner.invoke(args=["import", _write(tmp_path, RECORD), "--group", "tanne"])
    assert ok.exit_code == 0, ok.output


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

    monkeypatch.setattr(exports, "group_json", broken)
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


# --- 5. the CSV never runs a formula in a spreadsheet -------------------------------------------

@pytest.mark.parametrize("text", ["=1+2", "+1", "-1", "@SUM(A1)", "\tx", "\rx"])
def test_a_csv_cell_that_a_spreadsheet_would_run_starts_with_a_quote(text):
    assert exports._cell(text) == "'" + text


def test_plain_csv_cells_are_left_as_they_are():
    for value in ("Kurt", '{"Kurt": -5}', 7, "2026-11-30", "", "Krone = gut"):
        assert exports._cell(value) == str(value)


def test_the_csv_export_neutralises_formulas_in_names_and_places(app, client):
    client.post("/groups", data={"name": "tanne"})
    evening = client.post("/g/tanne/evenings", data={"place": "=HYPERLINK(\"x\")"}).location
    names = ["=Kurt", "+Hubert", "-Hermann", "@Alfred"]
    response = client.post("/g/tanne/games/new", data={
        "kind": "hintersche", "order": "\n".join(names), "evening": evening.rsplit("/", 1)[1],
        **{f"seat-{n}": n for n in names}})
    assert response.status_code == 302
    path = response.location
    for points in ((30, 45, 35, 30), (20, 21, 99, 0), (105, 10, 15, 10), (50, 40, 50, 0)):
        hand = {f"points-{n}": p for n, p in zip(names, points, strict=True)}
        assert enter(client, path, hand).status_code == 302
    rows = list(csv.reader(io.StringIO(client.get("/g/tanne/export.csv").get_data(as_text=True))))
    assert len(rows) == 5
    for row in rows[1:]:
        assert row[1] == "'=HYPERLINK(\"x\")"
        assert row[5].startswith("'") and row[5][1:] in names
        assert all(not cell.startswith(("=", "+", "-", "@", "\t", "\r")) for cell in row)


# --- 6. a request body limit -------------------------------------------------------------------

LONG = [("Jürgen Müller-Lüdenscheid ÄÖÜäöüßéèêñçå")[:36] + f" {i:03d}" for i in range(60)]


def _post(client, url, body):
    return client.post(url, data=urlencode(body),
                       content_type="application/x-www-form-urlencoded")


def test_the_largest_real_forms_fit_well_within_the_body_limit(app, client):
    limit = app.config["MAX_CONTENT_LENGTH"]
    client.post("/groups", data={"name": "tanne"})
    for name in LONG:  # a big group: sixty players with long names full of umlauts
        assert client.post("/g/tanne/players", data={"name": name}).status_code == 302
    token = {"csrf_token": "x" * 91}
    seated = LONG[:13]
    sizes = {}
    new = {**token, "kind": "vier-anderle", "order": "\r\n".join(LONG),
           **{f"seat-{n}": n for n in seated}, "first_dealer": seated[0],
           **{f"rule-{o.name}": str(o.default) for o in engine.get("vier-anderle").OPTIONS}}
    sizes["new game"] = len(urlencode(new))
    response = _post(client, "/g/tanne/games/new", new)
    assert response.status_code == 302, response.get_data(as_text=True)
    path = response.location
    hand = {**token, "key": "k" * 32, "seq": 1, **{f"tricks-{n}": 0 for n in seated[1:]},
            f"tricks-{seated[0]}": 4, **{f"playing-{n}": "on" for n in seated}}
    sizes["hand"] = len(urlencode(hand))
    assert _post(client, path + "/entries", hand).status_code == 302
    change = {**token, "key": "c" * 32, "seq": 2, "table": "1", "order": "\r\n".join(seated),
              **{f"seat-{n}": "on" for n in seated[:12]}, "new_player": LONG[20],
              "dealer": seated[1]}
    sizes["table change"] = len(urlencode(change))
    assert _post(client, path + "/entries", change).status_code == 302
    hearts = {**token, "kind": "hartenjagen", "order": "\r\n".join(LONG),
              **{f"seat-{n}": n for n in LONG[:10]}, "first_dealer": LONG[0], "rule-decks": "2"}
    response = _post(client, "/g/tanne/games/new", hearts)
    assert response.status_code == 302
    hand = {**token, "key": "h" * 32, "seq": 1, "mode": "cards",
            **{f"hearts-{n}": 2 for n in LONG[:10]}, "hearts-" + LONG[0]: 8, "queen": LONG[1],
            "queen-2": LONG[2], "moon": "self"}
    sizes["hearts hand"] = len(urlencode(hand))
    assert _post(client, response.location + "/entries", hand).status_code in (302, 400)
    assert max(sizes.values()) * 4 < limit, sizes  # a margin of four times the largest
    assert limit <= 64 * 1024


def test_a_body_over_the_limit_is_a_friendly_413_and_stores_nothing(app, client):
    path = start_game(client, "hartenjagen", FOUR)
    before = _export(client), _counts(app)
    big = "x" * app.config["MAX_CONTENT_LENGTH"]
    for url, body in (("/g/tanne/players", {"name": big}), ("/groups", {"name": big}),
                      (path + "/entries", {"hearts-Kurt": 13, "queen": "Hubert", "pad": big}),
                      ("/g/tanne/games/new", {"kind": "hartenjagen", "order": big})):
        response = _post(client, url, body)
        assert response.status_code == 413, url
        assert "Zu viel auf einmal" in response.get_data(as_text=True)
    assert (_export(client), _counts(app)) == before


# --- 7. fuzz: random forms on every form route, random files for both imports ------------------

CHEAP = settings(max_examples=30, deadline=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
NAMES = FOUR + ["Zenzi", "Kasse", "Kasse\u200b", "Ｋasse", " Kurt", "<b>", "x" * 41, "",
                "\u202eKurt", "kurt"]
TEXT = st.one_of(st.sampled_from(NAMES + ["0", "4", "13", "-1", "99999999999999999999", "1e9",
                                          "NaN", "self", "on", "1", "\x00", "Kurt\nHubert",
                                          "\u2028"]),
                 st.text(max_size=12))
FIELDS = (["name", "place", "payer", "payee", "cents", "paid", "next", "kind", "order",
           "first_dealer", "evening", "nobody", "table", "new_player", "dealer", "queen", "jack",
           "moon", "mode", "renege", "seq", "key", "all_tricks", "rule-target", "rule-decks",
           "rule-stake_cents", "rule-starting_pot", "rule-tariff_cents", "rule-pot_at_end"]
          + [f"{p}-{n}" for p in ("points", "tricks", "hearts", "playing", "seat")
             for n in FOUR + ["Zenzi", "X"]] + ["playoff-0-Kurt", "playoff-0-Hubert"])
FORMS = st.dictionaries(st.sampled_from(FIELDS), TEXT, max_size=10)


def _ids(app, slug):
    with app.app_context():
        group = club.find_group(slug)
        return {"game_id": list(db.session.scalars(sqlalchemy.select(Game.id)
                                                   .where(Game.group_id == group.id))),
                "evening_id": list(db.session.scalars(sqlalchemy.select(Evening.id)
                                                      .where(Evening.group_id == group.id))),
                "player_id": list(db.session.scalars(sqlalchemy.select(Player.id)
                                                     .where(Player.group_id == group.id))),
                "seq": [1, 2, 3]}


@CHEAP
@given(data=st.data())
def test_random_posts_to_every_form_route_never_break_the_app_and_a_refusal_stores_nothing(
        app, client, data):
    if _export(client) is None:
        _stammtisch(app, client)
        start_game(client, "hintersche", ["Ann", "Bob", "Cid", "Dan"], slug="andere")
    routes = sorted((r for r in app.url_map.iter_rules() if "POST" in r.methods),
                    key=lambda r: r.rule)
    rule = data.draw(st.sampled_from(routes))
    ids = {**_ids(app, "tanne")}
    foreign = _ids(app, "andere")
    values = {}
    for arg in rule.arguments:
        if arg == "slug":  # mostly the real group, so that most posts reach the form
            values[arg] = data.draw(st.sampled_from(["tanne"] * 8 + ["andere", "nope"])
                                    | st.text(min_size=1, max_size=8))
        else:
            pool = ids[arg] * 3 + foreign[arg] + HUGE  # mostly real ids of the group
            values[arg] = pool[data.draw(st.integers(0, 99)) % len(pool)]
    url = app.url_map.bind("localhost").build(rule.endpoint, values)
    query = data.draw(st.dictionaries(st.sampled_from(["kind", "from", "evening", "game"]), TEXT,
                                      max_size=2))
    form = data.draw(FORMS)
    before = _export(client), _counts(app)
    response = client.post(url, data=form, query_string=query)
    assert response.status_code < 500, (url, form, response.status_code)
    event(f"{rule.endpoint} {response.status_code}")
    if response.status_code not in (301, 302, 303, 308):
        assert (_export(client), _counts(app)) == before, (url, form, response.status_code)


JSON = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-10**12, 10**12), st.floats(),
              st.sampled_from([2**31, 2**63, 10**20]), TEXT),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=8)
HAND_KEYS = ["points", "tricks", "hearts", "playing", "playoffs", "queen", "jack", "king", "ace",
             "table", "dealer", "renege", "moon", "all_tricks"]
HAND = st.dictionaries(
    st.sampled_from(HAND_KEYS),
    st.one_of(st.dictionaries(st.sampled_from(NAMES), st.integers(-2, 141), max_size=5),
              st.lists(st.sampled_from(NAMES), max_size=5), st.sampled_from(NAMES), JSON),
    max_size=3)
RECORDS = st.fixed_dictionaries(
    {"format": st.sampled_from(["scorekeeper-game/1"] * 5 + ["scorekeeper-game/2"]),
     "game": st.sampled_from(["hintersche", "vier-anderle", "hartenjagen", "poker"]),
     "players": st.one_of(st.sampled_from([FOUR, FOUR[:3], FOUR + ["Zenzi"]]),
                          st.lists(st.sampled_from(NAMES), max_size=6), JSON)},
    optional={"rules": st.one_of(st.dictionaries(
                  st.sampled_from(["target", "decks", "moon", "stake_cents", "starting_pot",
                                   "march_at", "tariff_cents", "cents_per_point", "bogus"]),
                  JSON, max_size=2), JSON),
              "first_dealer": st.one_of(st.sampled_from(NAMES), JSON),
              "hands": st.one_of(st.lists(HAND, max_size=4), JSON)}) | JSON


def _cli_is_calm(result):
    event(f"exit {result.exit_code} {result.stderr.removeprefix('Error: ')[:24]}")
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        repr(result.exception)
    assert result.exit_code in (0, 1) and "Traceback" not in result.output


def _pages_work(app, client, slug):
    """Every page of an imported group answers: nothing stored that a page cannot show."""
    ids = _ids(app, slug)
    urls = [f"/g/{slug}", f"/g/{slug}/standings", f"/g/{slug}/export.csv",
            f"/g/{slug}/evenings", f"/g/{slug}/players"]
    urls += [f"/g/{slug}/evenings/{e}{end}" for e in ids["evening_id"]
             for end in ("", "/settlement.json")]
    urls += [f"/g/{slug}/games/{g}" for g in ids["game_id"]]
    urls += [f"/g/{slug}/players/{p}" for p in ids["player_id"][:2]]
    for url in urls:
        assert client.get(url).status_code == 200, url


@CHEAP
@given(record=RECORDS, slug=st.sampled_from(["fuzz", "fuzz", "Fuzz", "a/b", ""]))
def test_import_of_a_random_record_never_gives_a_traceback_and_a_refusal_stores_nothing(
        app, client, runner, tmp_path, record, slug):
    before = _counts(app)
    result = runner.invoke(args=["import", _write(tmp_path, record), "--group", slug])
    _cli_is_calm(result)
    if result.exit_code == 1:
        assert _counts(app) == before
    else:
        _pages_work(app, client, slug)


_SLUGS = itertools.count()


@st.composite
def _mutation(draw, export):
    """A real export with one place changed: a value replaced, a key or an item dropped or one
    added."""
    document = _copy(export, f"kopie-{next(_SLUGS)}")
    parent, key, node = None, None, document
    for _ in range(draw(st.integers(0, 8))):
        if not isinstance(node, dict | list) or not node:
            break
        choice = draw(st.sampled_from(list(node) if isinstance(node, dict)
                                      else list(range(len(node)))))
        parent, key, node = node, choice, node[choice]
    action = draw(st.sampled_from(["replace", "replace", "drop", "add"]))
    if parent is None:
        return draw(JSON) if action == "replace" else document
    if action == "replace":
        parent[key] = draw(JSON | st.sampled_from(NAMES + [0, -1, 10**10, "abc", True]))
    elif action == "drop":
        del parent[key]
    elif isinstance(node, list):
        node.append(copy.deepcopy(draw(st.sampled_from(node))) if node else draw(JSON))
    elif isinstance(node, dict):
        node[draw(TEXT)] = draw(JSON)
    return document


@CHEAP
@given(data=st.data())
def test_import_group_of_a_mutated_export_never_gives_a_traceback_and_a_refusal_stores_nothing(
        app, client, runner, tmp_path, real_export, data):
    document = data.draw(_mutation(real_export))
    before = _counts(app)
    result = _import_group(runner, tmp_path, document)
    _cli_is_calm(result)
    if result.exit_code == 1:
        assert _counts(app) == before, result.output
        assert len(result.stderr.strip().splitlines()) == 1
    else:
        _pages_work(app, client, document["slug"])


def test_replay_says_a_name_with_a_line_break_on_one_line(runner, tmp_path):
    path = tmp_path / "record.json"
    path.write_text(json.dumps({"format": "scorekeeper-game/1", "game": "hintersche",
                                "players": ["A\nB", "A\nB", "C", "D"], "hands": []}))
    result = runner.invoke(args=["replay", str(path)])
    assert result.exit_code == 1
    assert result.output.strip().splitlines() == ["A\\nB is named twice"]


def test_a_table_change_posted_to_a_game_that_has_none_is_no_500(client):
    path = start_game(client, "hintersche", ["Kurt", "Hubert", "Hermann", "Alfred"])
    response = enter(client, path, {"table": "1", "seat-Kurt": "on"})
    assert response.status_code == 400
    assert client.get(path + "/record.json").get_json()["hands"] == []


def test_a_new_game_keeps_the_groups_spelling_of_a_name(client):
    client.post("/groups", data={"name": "tanne"})
    client.post("/g/tanne/players", data={"name": "Anna"})
    path = start_game(client, "vier-anderle", ["anna", "Bert"])
    assert client.get(path + "/record.json").get_json()["players"] == ["Anna", "Bert"]


def test_a_nul_in_the_idempotency_key_is_refused_not_a_database_error(client):
    path = start_game(client, "hartenjagen", ["Kurt", "Hubert", "Hermann", "Alfred"])
    response = enter(client, path, {"hearts-Kurt": "13", "queen": "Kurt"}, key="ab\x00cd")
    assert response.status_code == 400
    assert client.get(path + "/record.json").get_json()["hands"] == []
