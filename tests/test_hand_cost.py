"""What a hand costs: every game's hands, entered on the table page, each in at most four SQL
statements and one commit (on SQLite and PostgreSQL), answered with the page's content alone;
a form seldom used is loaded when it is opened. On PostgreSQL the content then goes to the
table's watchers by a NOTIFY after the commit, on the process's own connection
(scorekeeper/table/live.py): not one of the pool's, so no statement counted here."""

import re

import generators
import pytest
from support import counted, entry_fields, rule_fields, start_game
from test_tournaments import draw, set_up, tables

from scorekeeper import engine, games

HANDS = 12


@pytest.mark.parametrize("name", sorted(games.GAMES))
def test_a_hand_costs_at_most_four_statements_and_one_commit(app, client, name):
    adapter = games.get(name)
    record = generators.random_record(name, HANDS, 5)
    tables = [engine.replay({**record, "hands": record["hands"][:n]})
              for n in range(len(record["hands"]) + 1)]
    path = start_game(client, name, record["players"], record["first_dealer"],
                      rule_fields(adapter.engine, record.get("rules") or {}))
    assert client.get(path).status_code == 200  # the page the phone sends its hands from
    measured = 0
    for seq, entry in enumerate(record["hands"], start=1):
        before, after = tables[seq - 1].summary(), tables[seq].summary()
        fields = entry_fields(app, adapter, entry, before)
        part = seq % 2 == 1  # as the page's script sends it, or as a plain form post
        with counted(app) as (statements, commits):
            answer = client.post(path + "/entries", data={"seq": seq, "key": f"k{seq}", **fields},
                                 headers={"X-Part": "content"} if part else {})
        if part:
            html = answer.get_data(as_text=True)
            assert answer.status_code == 200 and answer.headers["X-Part"] == "content", html
            # the table's content, or what the hand changed in it (tests/test_table_changes.py)
            assert "<html" not in html and ("data-table-part" in html
                                            or "data-table-change" in html)
            assert "Set-Cookie" not in answer.headers  # the message is in the answer itself
            if not after["finished"]:
                assert f'name="seq" value="{seq + 1}"' in html or f'data-seq="{seq + 1}"' in html
        else:
            assert answer.status_code == 302, answer.get_data(as_text=True)
        seated = {p["name"] for p in before["players"]}
        if after["finished"] or {p["name"] for p in after["players"]} - seated:
            continue  # the game's standings rows are stored / a newcomer joins the group
        assert len(commits) == 1 and len(statements) <= 4, statements
        measured += 1
    assert measured >= min(len(record["hands"]) - 1, HANDS // 2)  # all but the last, at least
    if app.config["DATABASE_KIND"] == "postgresql":  # the parts went on its own connection
        assert app.extensions["live"].sender is not None
    stored = client.get(path + "/record.json").get_json()  # each hand once, as typed
    assert engine.report(engine.replay(stored)) == engine.report(tables[-1])


@pytest.mark.parametrize("name", sorted(n for n, a in games.GAMES.items() if a.FOLDED))
def test_a_folded_form_comes_when_it_is_opened(client, name):
    adapter = games.get(name)
    record = generators.random_record(name, 2, 5)
    path = start_game(client, name, record["players"], record["first_dealer"])
    page = client.get(path).get_data(as_text=True)
    for kind in adapter.FOLDED:
        loader = f"{path}/form?kind={kind}"
        assert f'data-load="{loader}"' in page
        form = client.get(loader)
        assert form.status_code == 200
        loaded = form.get_data(as_text=True)
        assert "<html" not in loaded and 'name="key"' in loaded
        assert re.search(r'<details class="card" open>', loaded)
        # without JavaScript the fold's link opens the page with the form in place
        opened = client.get(f"{path}?form={kind}").get_data(as_text=True)
        assert f'data-load="{loader}"' not in opened
        assert len(re.findall(r'name="key"', opened)) == \
            len(re.findall(r'name="key"', page)) + 1
    assert client.get(f"{path}/form?kind=hand").status_code == 404
    assert client.get(f"{path}/form?kind=nothing").status_code == 404


def test_a_tournament_tables_phone_pays_no_more_for_a_hand(app, client):
    """A tournament table's phone (in by its table's link) may enter only its table's game: the
    table is read with the game, so its hand costs the same four statements and one commit."""
    path = set_up(client)
    draw(client, path, 1)
    (_id, token, game_id, seats), *_ = tables(app, 1)
    phone = app.test_client()
    assert phone.get(f"/t/{token}").status_code == 302
    table = f"/g/tanne/games/{game_id}"
    assert phone.get(table).status_code == 200
    hand = {"seq": 1, "key": "k1", f"hearts-{seats[0]}": "12", f"hearts-{seats[1]}": "1",
            "queen": seats[3]}
    with counted(app) as (statements, commits):
        answer = phone.post(table + "/entries", data=hand, headers={"X-Part": "content"})
    assert answer.status_code == 200, answer.get_data(as_text=True)
    assert len(commits) == 1 and len(statements) <= 4, statements
