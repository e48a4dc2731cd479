"""Money and points beyond a 32-bit integer (2**31 cents is about 21 million euros): stored,
shown and settled on every database (PostgreSQL's INTEGER is 32-bit)."""

import datetime as dt

from sqlalchemy import select
from support import enter, phone, start_game

from scorekeeper import engine
from scorekeeper.changes import records
from scorekeeper.db import db
from scorekeeper.models import Game, PaidPayment, Result
from scorekeeper.web import display

INT32 = 2**31
THIRTEEN = [f"Spieler {chr(ord('A') + i)}" for i in range(13)]  # the most Vier-Anderle allows
WINNER = THIRTEEN[-1]


def vier_anderle_hands():
    """A type-1 hand, then five type-2 hands in which everybody plays and WINNER takes every
    trick: the twelve others each pay P, so the pot grows twelvefold a hand."""
    return ([{"tricks": {WINNER: 4}}]
            + [{"playing": THIRTEEN, "tricks": {WINNER: 4}} for _ in range(5)])


def game_of(app, path):
    with app.app_context():
        game = db.session.get(Game, int(path.rsplit("/", 1)[1]))
        results = db.session.scalars(select(Result).where(Result.game_id == game.id)).all()
        return game.evening_id, {r.player: r for r in results}


def shown(app, cents):
    with app.test_request_context():  # German, as the pages are by default
        return display.money(cents)


def test_a_vier_anderle_pot_beyond_32_bits_is_stored_shown_settled_and_marked_paid(app, client):
    rules = {"stake_cents": 10000}
    table = engine.get("vier-anderle").Table(THIRTEEN, THIRTEEN[0], rules)
    for hand in vier_anderle_hands():
        engine.apply(table, hand)
    expected = engine.get("vier-anderle").close(engine.report(table))
    balances = expected["balances_cents"]
    best_pot = engine.report(table)["history"][-1]["payments"][WINNER] * 10000
    assert balances[WINNER] > INT32 and min(balances.values()) < -INT32 and best_pot > INT32
    assert expected["kasse_cents"] > INT32

    path = start_game(client, "vier-anderle", THIRTEEN, rules={"stake_cents": "100"})  # euros
    for seq, hand in enumerate(vier_anderle_hands(), start=1):
        fields = {f"tricks-{n}": t for n, t in hand["tricks"].items()}
        fields |= {f"playing-{n}": "on" for n in hand.get("playing", [])}
        assert enter(client, path, fields, seq=seq).status_code == 302
    state = client.get(path + "/state.json").get_json()
    assert {p["name"]: p["balance_cents"] for p in state["players"]} == balances
    assert state["pot_cents"] == expected["kasse_cents"]

    # its standings rows are stored (BIGINT) once it ends; running, they are worked out
    assert game_of(app, path)[1] == {}
    assert client.post(path + "/close").status_code == 302
    evening, results = game_of(app, path)
    assert {n: r.money_cents for n, r in results.items()} == balances
    assert results[WINNER].figures["best_pot_cents"] == best_pot

    page = client.get(path)
    assert page.status_code == 200
    assert shown(app, balances[WINNER]) in page.get_data(as_text=True)
    assert shown(app, expected["kasse_cents"]) in page.get_data(as_text=True)
    page = client.get("/g/tanne/standings")
    assert page.status_code == 200
    assert shown(app, balances[WINNER]) in page.get_data(as_text=True)
    assert shown(app, best_pot) in page.get_data(as_text=True)

    settlement_path = f"/g/tanne/evenings/{evening}/settlement.json"
    settled = client.get(settlement_path)
    assert settled.status_code == 200
    assert settled.get_json()["balances_cents"] == balances | {"Kasse": expected["kasse_cents"]}
    payments = settled.get_json()["payments"]
    biggest = max(payments, key=lambda p: p["cents"])
    assert biggest["cents"] > INT32

    marked = client.post(f"/g/tanne/evenings/{evening}/paid", data={
        "payer": biggest["from"], "payee": biggest["to"], "cents": biggest["cents"]})
    assert marked.status_code == 302
    with app.app_context():
        assert db.session.scalars(select(PaidPayment.cents)).all() == [biggest["cents"]]
    after = client.get(settlement_path).get_json()["payments"]
    assert {**biggest, "paid": True} in after
    assert sorted(p["cents"] for p in after) == sorted(p["cents"] for p in payments)
    assert client.get(f"/g/tanne/evenings/{evening}").status_code == 200


def test_a_hartenjagen_game_at_100_euros_a_point_is_stored_shown_and_settled_beyond_32_bits(
        app):
    # ten players, two packs and Black Maria: a moon is worth 86 to each of the other nine
    names = [f"P{i}" for i in range(10)]
    rules = {"decks": 2, "black_maria": True, "target": 215_000, "cents_per_point": 10_000}
    record = {"format": "scorekeeper-game/1", "game": "hartenjagen", "rules": rules,
              "players": names, "first_dealer": names[0],
              "hands": [{"points": {names[0]: 86}} for _ in range(2500)]}
    report = engine.report(engine.replay(record))
    balances = {p["name"]: p["balance_cents"] for p in report["players"]}
    assert report["finished"] and report["winner"] == names[0]
    assert balances[names[0]] > INT32 and max(balances.values()) == balances[names[0]]
    assert all(cents < -INT32 for name, cents in balances.items() if name != names[0])

    with app.app_context():
        game = records.import_game(record, "tanne", dt.date(2026, 11, 27))
        path, evening = f"/g/tanne/games/{game.id}", game.evening_id
    client = phone(app)  # the group was made by the import: this phone joins it by its link
    _, results = game_of(app, path)
    assert {n: r.money_cents for n, r in results.items()} == balances
    assert {n: r.figures["points"] for n, r in results.items()} == {
        p["name"]: p["score"] for p in report["players"]}

    page = client.get(path)
    assert page.status_code == 200
    assert shown(app, balances[names[0]]) in page.get_data(as_text=True)
    assert shown(app, balances[names[1]]) in page.get_data(as_text=True)
    page = client.get("/g/tanne/standings")
    assert page.status_code == 200
    assert shown(app, balances[names[0]]) in page.get_data(as_text=True)
    settled = client.get(f"/g/tanne/evenings/{evening}/settlement.json")
    assert settled.status_code == 200
    assert settled.get_json()["balances_cents"] == balances
    assert sorted((p["from"], p["to"], p["cents"]) for p in settled.get_json()["payments"]) == [
        (name, names[0], -balances[name]) for name in names[1:]]
