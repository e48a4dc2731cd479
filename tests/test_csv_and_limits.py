"""The CSV never runs a formula in a spreadsheet; a request body over the limit is a friendly
413."""

import csv
import io
from urllib.parse import urlencode

import pytest
from hostile import (
    FOUR,
    _counts,
    _export,
)
from support import enter, start_game

from scorekeeper import engine
from scorekeeper.records import export

# --- 5. the CSV never runs a formula in a spreadsheet -------------------------------------------

@pytest.mark.parametrize("text", ["=1+2", "+1", "-1", "@SUM(A1)", "\tx", "\rx"])
def test_a_csv_cell_that_a_spreadsheet_would_run_starts_with_a_quote(text):
    assert export._cell(text) == "'" + text


def test_plain_csv_cells_are_left_as_they_are():
    for value in ("Kurt", '{"Kurt": -5}', 7, "2026-11-30", "", "Krone = gut"):
        assert export._cell(value) == str(value)


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
        assert row[6].startswith("'") and row[6][1:] in names
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


