"""What the bad-input tests share: names with hidden characters, a Stammtisch as the table
leaves it and its export, and checks that a refusal is one line and stores nothing."""

import copy
import json

import sqlalchemy
from support import enter, start_game

from scorekeeper.db import db
from scorekeeper.models import (
    Entry,
    Evening,
    Game,
    Group,
    KasseEntry,
    PaidPayment,
    Player,
    Result,
    Revision,
)

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
    Vier-Anderle among them), a payment marked as paid, and the Kasse's book with a deposit, a
    withdrawal and a counter entry. Returns the game paths."""
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
    for kind, amount, note in (("deposit", "2,50", "Strafe"), ("withdrawal", "1,00", "Kreide")):
        assert client.post(f"/g/{slug}/kasse", data={"kind": kind, "amount": amount,
                                                     "note": note}).status_code == 302
    with app.app_context():
        wrong = db.session.scalar(sqlalchemy.select(sqlalchemy.func.max(KasseEntry.id)))
    assert client.post(f"/g/{slug}/kasse/{wrong}/cancel").status_code == 302
    return [hearts, slate, pot]


def _export(client, slug="tanne"):
    response = client.get(f"/g/{slug}/export.json")
    return response.get_json() if response.status_code == 200 else None


def _counts(app):
    """How many rows each table has: a refused input must leave every one as it was."""
    with app.app_context():
        return {model.__tablename__: db.session.scalar(
            sqlalchemy.select(sqlalchemy.func.count()).select_from(model))
            for model in (Group, Player, Evening, Game, Entry, Revision, Result, PaidPayment,
                          KasseEntry)}


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


def _at(document, path):
    """The container and key of `path` ("evenings.0.paid.0.cents") in the document."""
    *parents, last = path.split(".")
    node = document
    for key in parents:
        node = node[int(key)] if isinstance(node, list) else node[key]
    return node, int(last) if isinstance(node, list) else last
