"""Random forms on every form route and random files for both imports: never a 500 or a
traceback, and a refusal stores nothing."""

import copy
import itertools

import sqlalchemy
from hostile import (
    FOUR,
    HUGE,
    _copy,
    _counts,
    _export,
    _import_group,
    _stammtisch,
    _write,
)
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from support import enter, join, start_game

from scorekeeper import engine
from scorekeeper.db import db
from scorekeeper.group import club
from scorekeeper.models import Evening, Fine, Game, KasseEntry, Player, Tournament, TournamentTable

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
        if group is None:
            return None
        return {"token": [group.token, group.view_token, "x" * 32],
                "game_id": list(db.session.scalars(sqlalchemy.select(Game.id)
                                                   .where(Game.group_id == group.id))),
                "evening_id": list(db.session.scalars(sqlalchemy.select(Evening.id)
                                                      .where(Evening.group_id == group.id))),
                "player_id": list(db.session.scalars(sqlalchemy.select(Player.id)
                                                     .where(Player.group_id == group.id))),
                "entry_id": list(db.session.scalars(sqlalchemy.select(KasseEntry.id)
                                                    .where(KasseEntry.group_id == group.id))),
                "fine_id": list(db.session.scalars(sqlalchemy.select(Fine.id)
                                                   .where(Fine.group_id == group.id))),
                "seq": [1, 2, 3], "year": [2025, 2026, 99999],
                "tournament_id": list(db.session.scalars(
                    sqlalchemy.select(Tournament.id).where(Tournament.group_id == group.id))),
                "table_id": list(db.session.scalars(
                    sqlalchemy.select(TournamentTable.id).join(Tournament)
                    .where(Tournament.group_id == group.id))),
                "round_": [1, 2, 3], "place": [1, 2]}


@CHEAP
@given(data=st.data())
def test_random_posts_to_every_form_route_never_break_the_app_and_a_refusal_stores_nothing(
        app, client, data):
    if _export(client) is None:
        if _ids(app, "tanne") is None:
            _stammtisch(app, client)
            start_game(client, "hintersche", ["Ann", "Bob", "Cid", "Dan"], slug="andere")
            night = client.post("/g/tanne/tournaments/new", data={  # a tournament night, drawn
                "name": "Preiscego", "kind": "hartenjagen", "day": "2026-12-05", "rounds": "2",
                "games": "4", "entrants": "Ann\nBob\nCid\nDan"}).location
            client.post(f"{night}/rounds/1/draw")
        else:  # the phone left the group (a post to its "leave"): it joins again
            join(client, f"/join/{_ids(app, 'tanne')['token'][0]}")
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
     "game": st.sampled_from([*sorted(engine.all_games()), "poker"]),
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


def test_a_table_change_posted_to_a_game_that_has_none_is_no_500(client):
    path = start_game(client, "hintersche", ["Kurt", "Hubert", "Hermann", "Alfred"])
    response = enter(client, path, {"table": "1", "seat-Kurt": "on"})
    assert response.status_code == 400
    assert client.get(path + "/record.json").get_json()["hands"] == []


def test_a_nul_in_the_idempotency_key_is_refused_not_a_database_error(client):
    path = start_game(client, "hartenjagen", ["Kurt", "Hubert", "Hermann", "Alfred"])
    response = enter(client, path, {"hearts-Kurt": "13", "queen": "Kurt"}, key="ab\x00cd")
    assert response.status_code == 400
    assert client.get(path + "/record.json").get_json()["hands"] == []
