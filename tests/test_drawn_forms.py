"""The table page's entry forms are drawn once while what they read of the game's state stays
the same (scorekeeper.web.drawn, views.games._entry_forms): for every game, each hand's answer
holds the forms a fresh drawing of the same state gives."""

import generators
import pytest
from support import entry_fields, rule_fields, start_game

from scorekeeper import engine, games
from scorekeeper.web import drawn

HANDS = 12


class Checked(drawn.Drawings):
    """Every drawing handed out, kept or new, is compared with a fresh one of the same state."""

    def drawing(self, key, state, draw, inputs):
        found = super().drawing(key, state, draw, inputs)
        html, _inputs, extra = draw(drawn.Reads(state))
        assert (found.html, found.extra) == (html, extra)
        return found


@pytest.mark.parametrize("name", sorted(games.GAMES))
def test_the_forms_kept_from_a_hand_before_are_those_drawn_anew(app, client, name):
    checked = Checked()
    app.extensions["drawn_forms"] = checked
    adapter = games.get(name)
    for seed in (1, 2, 3):
        record = generators.random_record(name, HANDS, seed)
        rules = rule_fields(adapter.engine, record.get("rules") or {})
        path = start_game(client, name, record["players"], record["first_dealer"], rules,
                          slug=f"tanne{seed}")
        table = engine.replay({**record, "hands": []})
        for seq, entry in enumerate(record["hands"], start=1):
            fields = entry_fields(app, adapter, entry, table.summary())
            answer = client.post(path + "/entries", data={"seq": seq, **fields},
                                 headers={"X-Part": "content"})
            assert answer.status_code == 200, answer.get_data(as_text=True)
            table = engine.replay({**record, "hands": record["hands"][:seq]})
        assert client.get(path).status_code == 200
    # how many answers put in kept forms is the game's affair (Hintersche's points go in the
    # order of the deal: drawn anew each deal); Cego's: tests/test_web_cego.py


def test_a_drawing_is_kept_while_what_it_read_stays_the_same():
    """Down to each value read inside the state: a list's length when it was counted or gone
    through, a mapping's keys when it was, a key that was missing; what it did not read may
    change."""
    drawings, drew = drawn.Drawings(), []

    def draw(state):
        drew.append(True)
        names = [p["name"] for p in state["players"]]
        seated = state["seats"] == ["Anna", "Bernd"]  # a list compared as a list
        return f"{names} {state.get('sits_out')} {list(state['cards'])} {seated}", None, None

    def drawing(state):
        drew.clear()
        return drawings.drawing("table", state, draw, lambda: None).html, bool(drew)

    state = {"players": [{"name": "Anna", "score": 0}, {"name": "Bernd", "score": 0}],
             "cards": {"queen": 1}, "dealer": "Anna", "seats": ["Anna", "Bernd"]}
    assert drawing(state) == ("['Anna', 'Bernd'] None ['queen'] True", True)
    state = {**state, "players": [{"name": "Anna", "score": 5}, {"name": "Bernd", "score": -5}],
             "dealer": "Bernd", "history": [1, 2]}
    assert drawing(state) == ("['Anna', 'Bernd'] None ['queen'] True", False)
    for changed in ({"players": [{"name": "Anna"}, {"name": "Carla"}]},
                    {"players": [{"name": "Anna"}, {"name": "Bernd"}, {"name": "Carla"}]},
                    {"sits_out": "Anna"}, {"cards": {"queen": 1, "jack": 1}},
                    {"seats": ["Bernd", "Anna"]}, {"seats": ["Anna", "Bernd", "Carla"]}):
        drawn_anew = drawing({**state, **changed})
        assert drawn_anew[1] and drawn_anew != drawing(state)
    assert drawing({**state, "cards": {"queen": 2}})[1] is False  # its count was not read
