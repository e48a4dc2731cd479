"""The pages at the table besides the entry forms: a game's history, the evening's settlement,
the slate, and what a new group's page says first."""

import re

import records_hintersche
from support import enter, start_game
from test_stammtisch import evening_of_three_games, import_game

FOUR = ["Kurt", "Hubert", "Hermann", "Alfred"]
IPHONE = ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 "
          "(KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1")
LONG = "Bartholomäus Maximilian zu Hinterstoißer"  # 40 letters, the longest name allowed


def deal(a, b, c, d):
    return {"points-Kurt": a, "points-Hubert": b, "points-Hermann": c, "points-Alfred": d}


def text(html):
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def rows(client, path):
    """The history's rows, newest first, as the words a player reads."""
    page = client.get(path + "/history").get_data(as_text=True)
    body = page.split("<tbody>")[1].split("</tbody>")[0]
    return [text("<tr" + row) for row in body.split("<tr")[1:]], page


def correct(client, path, seq, fields):
    """A correction as a phone saves it: first the preview of what it changes, then confirmed."""
    client.post(f"{path}/entries/{seq}", data=fields, follow_redirects=True)
    version = client.get(path + "/live").get_json()["version"]
    return client.post(f"{path}/entries/{seq}", data={**fields, "confirm": version})


# --- the history ---------------------------------------------------------------------------------

def test_the_history_is_a_table_of_every_entry_newest_first(client):
    path = start_game(client, "hintersche", FOUR)
    client.environ_base["HTTP_USER_AGENT"] = IPHONE
    enter(client, path, deal(30, 45, 35, 30))  # Kurt deals; Hubert gets the mark
    enter(client, path, deal(20, 21, 97, 2))  # a slip: undone and entered again
    client.post(path + "/undo", data={"seq": 2})
    enter(client, path, deal(20, 21, 99, 0))
    assert correct(client, path, 1, deal(30, 44, 36, 30)).status_code == 302
    found, page = rows(client, path)
    assert len(found) == 3
    again, undone, first = found
    # number, dealer, what was entered (in seating order, never by the deal), what it did, when
    assert again.startswith("2 Hubert Kurt 20 · Hubert 21 · Hermann 99 · Alfred 0")
    assert "Hermann bekommt einen Strich" in again and "iPhone · Safari" in again
    assert undone.startswith("2 ") and "Hermann 97" in undone and "rückgängig gemacht" in undone
    assert "<s>" in page  # the undone entry is struck through
    assert first.startswith("1 Kurt Kurt 30 · Hubert 44 · Hermann 36 · Alfred 30")
    assert "Hubert bekommt einen Strich" in first and "korrigiert" in first
    assert "korrigiert" not in again  # entered again after the undo: nothing was corrected
    # each live row links to its correction; the browser's whole string is never shown
    assert f'href="{path}/entries/1"' in page and f'href="{path}/entries/2"' in page
    assert "Mozilla" not in page


def test_the_history_names_each_hands_dealer_and_says_what_it_did(client):
    hearts = start_game(client, "hartenjagen", ["A", "B", "C", "D"])
    enter(client, hearts, {"hearts-A": 3, "hearts-C": 10, "queen": "B"})
    enter(client, hearts, {"hearts-D": 13, "queen": "D"})  # D shoots the moon
    enter(client, hearts, {"kind": "renege", "renege": "B"})
    renege, moon, first = rows(client, hearts)[0]
    assert first.startswith("1 A ") and "A 3 · B 13 · C 10 · D 0" in first
    assert moon.startswith("2 B ") and "☾ Mond: D" in moon and "A 26 · B 26 · C 26 · D 0" in moon
    assert renege.startswith("3 C ") and "Nicht bedient: B" in renege

    pot = start_game(client, "vier-anderle", FOUR)
    enter(client, pot, {"tricks-Kurt": 2, "tricks-Hubert": 1, "tricks-Hermann": 1})
    change = {"table": "1", "order": "\n".join(FOUR), "new_player": "Zenzi",
              **{f"seat-{n}": "on" for n in FOUR}}
    assert enter(client, pot, change).status_code == 302
    table, hand = rows(client, pot)[0]
    assert hand.startswith("1 Kurt ") and "Kurt -4 · Alfred -4 · Pot 8" in hand
    # a table change has no hand number: it is named, as the table names it
    assert table.startswith("Tischwechsel Tisch") and "+ Zenzi" in table \
        and "Gibt als Nächstes" in table


def test_an_empty_history_says_so(client):
    path = start_game(client, "hintersche", FOUR)
    assert rows(client, path)[0] == ["Noch nichts eingetragen."]


# --- the settlement ------------------------------------------------------------------------------

def payments(client, evening):
    page = client.get(evening).get_data(as_text=True)
    return re.findall(r'<li class="payment( paid)?">(.*?)</li>', page, re.S)


def test_the_settlement_ticks_a_payment_off_and_takes_the_tick_back(client, runner, tmp_path):
    evening = evening_of_three_games(client, runner, tmp_path)
    listed = payments(client, evening)
    assert listed and all(paid == "" for paid, _ in listed)
    assert all('class="toggle"' in row and 'class="box"' in row and "bezahlt" in text(row)
               for _, row in listed)
    first = client.get(evening + "/settlement.json").get_json()["payments"][0]
    form = {"payer": first["from"], "payee": first["to"], "cents": first["cents"], "paid": "1"}
    response = client.post(evening + "/paid", data=form)
    assert response.status_code == 302 and response.location.endswith("#payments")
    again = client.post(evening + "/paid", data=form)  # a double tap: still one tick
    assert again.location.endswith("#payments")
    paid = [row for done, row in payments(client, evening) if done]
    assert len(paid) == 1 and len(payments(client, evening)) == len(listed)
    words = text(paid[0])
    assert first["from"] in words and first["to"] in words and "bezahlt ✓" in words
    assert "↶ rückgängig" in words and 'name="paid" value="0"' in paid[0]
    client.post(evening + "/paid", data={**form, "paid": "0"})  # undo
    assert [done for done, _ in payments(client, evening)] == [""] * len(listed)


# --- the slate -----------------------------------------------------------------------------------

def test_the_slate_says_every_corner_and_draws_long_rubbers_in_tallies(client, runner, tmp_path):
    record = records_hintersche.random_record(330, seed=5)  # 12, 15, 12 and 19 lines
    game, _ = import_game(runner, tmp_path, record)
    page = client.get(game).get_data(as_text=True)
    svg = re.search(r"<svg class=\"slate\".*?</svg>", page, re.S).group(0)
    label = re.search(r'aria-label="([^"]*)"', svg).group(1)
    assert 'role="img"' in svg
    assert label.startswith("Die Tafel: Kurt: 1 Strich, 12 Striche am Rahmen, gibt; Hubert:")
    assert "Alfred: 1 Strich, 19 Striche am Rahmen" in label
    assert "= 19" in svg and "= 15" not in svg  # past 15 lines the number is written
    frame = svg.count('stroke="#fbf3dc"')
    assert frame == 12 + 15 + 12 + 10  # Alfred's 19: two tallies of five and the number
    assert svg.count(">gibt</text>") == 1


def test_a_long_name_is_cut_on_the_slate_and_said_in_full(client):
    path = start_game(client, "hintersche", [LONG, "Anni", "Sepp", "Franz"])
    page = client.get(path).get_data(as_text=True)
    svg = re.search(r"<svg class=\"slate\".*?</svg>", page, re.S).group(0)
    assert ">Bartholomäus…</text>" in svg and f"{LONG}: 0 Striche" in svg


# --- a new group ---------------------------------------------------------------------------------

def test_a_new_group_asks_for_the_players_first(client):
    client.post("/groups", data={"name": "tanne"})
    page = client.get("/g/tanne").get_data(as_text=True)
    assert "Zuerst die Spieler" in page and "bevor ihr auf „Neues Spiel“ tippt" in page
    form = re.search(r'<form method="post" action="/g/tanne/players".*?</form>', page, re.S)
    assert form and 'name="next" value="/g/tanne"' in form.group(0)
    response = client.post("/g/tanne/players", data={"name": "Anni", "next": "/g/tanne"})
    assert response.status_code == 302 and response.location.endswith("/g/tanne")
    page = client.get("/g/tanne").get_data(as_text=True)  # one name after the other
    assert "Zuerst die Spieler" in page and "Anni" in page
    start_game(client, "hartenjagen", ["Anni", "Bert", "Carl", "Dora"])
    page = client.get("/g/tanne").get_data(as_text=True)  # the first game started: done
    assert "Zuerst die Spieler" not in page and "Anni" in page
