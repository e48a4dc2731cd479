"""import-group: one check of the whole file, then all or nothing."""

import re

import sqlalchemy
from hostile import RECORD, _at, _copy, _counts, _export, _import_group, _refused, _write

# --- 3. import-group: one check of the whole file, then all or nothing --------------------------

def test_import_group_restores_a_real_export_exactly(client, runner, tmp_path, real_export):
    result = _import_group(runner, tmp_path, real_export)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == "/g/tanne"
    assert re.fullmatch(r"join link: http://localhost:5000/join/[\w-]{32}",
                        result.stdout.splitlines()[1])
    assert _export(client) == real_export


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
    from scorekeeper.records import game_record

    document = _copy(real_export)
    store_game = game_record.store_game

    def refused_late(group, evening, record, revisions=True):
        if record["game"] == "vier-anderle":
            raise sqlalchemy.exc.DataError("INSERT", {}, Exception("integer out of range"))
        return store_game(group, evening, record, revisions)

    monkeypatch.setattr(game_record, "store_game", refused_late)
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


