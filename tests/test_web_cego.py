"""Cego's game form as a phone posts it, in German: each refusal at its field with what was typed
kept, numbers as they are typed, the sentence the form says before Save, five players, a
Durchgang's end, and the list's figures in the standings, the season and head to head."""

import json
import re
from html import unescape

from support import enter, join, rule_fields, start_game
from test_stammtisch import import_game

from scorekeeper import games
from scorekeeper.db import db
from scorekeeper.engine import cego
from scorekeeper.games.cego import _sayings, sayings
from scorekeeper.models import Game, Group, Player
from scorekeeper.season import headtohead

FOUR = ["Anna", "Bernd", "Carla", "Dieter"]


def start(client, names=FOUR, **rules):
    return start_game(client, "cego", names, rules=rule_fields(cego, rules))


def hands(client, path):
    return client.get(path + "/record.json").get_json()["hands"]


def at_field(page: str, name: str) -> str:
    """The form's markup from the field `name` to the end of its label (a field of its own)
    or of its fieldset (a group of buttons)."""
    start = page.index(f'name="{name}"')
    tag = page.rindex("<", 0, start)
    alone = page.startswith("<input type=\"number\"", tag)
    return page[start:page.index("</label>" if alone else "</fieldset>", start)]


def augen_part(page: str) -> str:
    """The part of the form that holds a Fach game's count, its messages under both sides."""
    return page.split('class="result by-augen"', 1)[1].split('class="result by-won"', 1)[0]


def checked(page: str, name: str, value: str) -> bool:
    return bool(re.search(rf'name="{name}" value="{re.escape(value)}"[^>]* checked', page))


def says(client, page: str) -> list:
    """What the page's form looks its sentence up in: asked for at the address it names, which
    the phone may keep for good."""
    answer = client.get(unescape(re.search(r'data-says="([^"]*)"', page).group(1)))
    assert answer.status_code == 200 and answer.mimetype == "application/json"
    assert "immutable" in answer.headers["Cache-Control"]
    return json.loads(answer.get_data(as_text=True))


def lookups(table: list) -> dict[tuple[tuple[str, ...], str], str]:
    """Every sentence of a sayings table by its fields and their values (in any order)."""
    texts, groups = table
    return {(tuple(names), key): texts[number] for names, keys in groups
            for key, number in keys.items()}


def said(table: list, **values: str) -> str:
    """What the form would say for these field values (static/js/fields.js, data-says): the
    first group with a sentence for its fields' values."""
    texts, groups = table
    for names, keys in groups:
        key = "|".join(values.get(name, "") for name in names)
        if key in keys:
            return texts[keys[key]]
    return ""


def test_an_ordinary_game_is_the_contract_the_declarer_and_a_count(client):
    path = start(client)
    answer = enter(client, path, {"contract": "eine", "declarer": "Carla", "augen": "41",
                                  "defender_augen": "38"})
    assert answer.status_code == 302
    assert hands(client, path) == [{"contract": "eine", "declarer": "Carla", "augen": 41,
                                    "defender_augen": 38}]
    page = client.get(path).get_data(as_text=True)
    assert "Eine" in page and "+60" in page and "Spiel 1 gespeichert" in page
    assert "Bernd gibt Spiel 2" in page


def test_each_refusal_stands_at_its_field_and_keeps_what_was_typed(client):
    path = start(client)
    answer = enter(client, path, {"declarer": "Carla", "augen": "41"})  # no contract tapped
    page = answer.get_data(as_text=True)
    assert answer.status_code == 400
    assert "Welches Spiel wurde gespielt? Bitte antippen." in at_field(page, "contract")
    assert checked(page, "declarer", "Carla") and 'value="41"' in at_field(page, "augen")
    # an impossible count: the engine's words at the count, the count kept
    answer = enter(client, path, {"contract": "cego", "declarer": "Bernd", "augen": "78"})
    page = answer.get_data(as_text=True)
    assert answer.status_code == 400
    field = at_field(page, "augen")
    assert 'value="78"' in field and 'aria-invalid="true"' in field
    assert "78 Augen gibt es nicht — die Gegenspieler haben mindestens einen Stich" in \
        augen_part(page)
    assert checked(page, "contract", "cego") and checked(page, "declarer", "Bernd")
    # two sides that do not add up: at the defenders' count
    answer = enter(client, path, {"contract": "halbe", "declarer": "Dieter", "augen": "44",
                                  "defender_augen": "36"})
    page = answer.get_data(as_text=True)
    assert 'aria-invalid="true"' in at_field(page, "defender_augen")
    assert "44 + 36 = 80, die beiden Seiten müssen zusammen 79 ergeben" in augen_part(page)
    # no declarer, no result
    page = enter(client, path, {"contract": "eine", "augen": "50"}).get_data(as_text=True)
    assert "bitte den Spieler eintragen, der Eine gespielt hat" in page
    page = enter(client, path, {"contract": "ultimo", "declarer": "Anna"}).get_data(as_text=True)
    assert "bitte angeben, ob Ultimo gewonnen wurde" in at_field(page, "won")
    # Räuber: a count missing stands at that player, in the fold opened for it
    answer = enter(client, path, {"contract": "raeuber", "declarer": "Bernd", "augen-Anna": "25",
                                  "augen-Bernd": "25", "augen-Carla": "18"})
    page = answer.get_data(as_text=True)
    assert "bitte die Augen jedes Spielers eintragen (Dieter fehlt)" in at_field(page,
                                                                               "augen-Dieter")
    assert 'value="25"' in at_field(page, "augen-Anna")
    assert re.search(r'<details class="fold" open>\s*<summary>Oder die Augen aller', page)
    assert hands(client, path) == []


def test_numbers_are_read_as_they_are_typed(client):
    path = start(client)
    answer = enter(client, path, {"contract": "solo", "declarer": "Anna", "augen": "40,5"})
    page = answer.get_data(as_text=True)
    assert answer.status_code == 400
    assert "Bitte eine ganze Zahl eingeben." in augen_part(page)
    assert 'value="40,5"' in at_field(page, "augen")
    page = enter(client, path, {"contract": "solo", "declarer": "Anna", "augen": "4o"}).get_data(
        as_text=True)
    assert 'value="4o"' in at_field(page, "augen")
    assert enter(client, path, {"contract": "solo", "declarer": "Anna",
                                "augen": " 52 "}).status_code == 302
    # only the defenders' side typed: the engine works the declarer's out
    assert enter(client, path, {"contract": "cego", "declarer": "Bernd",
                                "defender_augen": "35"}).status_code == 302
    # a slip in a field of another contract is not read: Ultimo is won
    assert enter(client, path, {"contract": "ultimo", "declarer": "Carla", "won": "yes",
                                "augen": "4o", "tricks": "x"}).status_code == 302
    assert hands(client, path)[-1] == {"contract": "ultimo", "declarer": "Carla", "won": True}
    assert hands(client, path)[:2] == [{"contract": "solo", "declarer": "Anna", "augen": 52},
                                   {"contract": "cego", "declarer": "Bernd",
                                    "defender_augen": 35}]
    record = client.get(path + "/state.json").get_json()
    assert [p["score"] for p in record["players"]] == [0, -80, 200, -120]


def test_a_contract_reads_only_its_own_result_and_a_fault_decides_the_game(client):
    path = start(client)
    # typed for a Fach game, then Ultimo tapped: the count is not read
    assert enter(client, path, {"contract": "ultimo", "declarer": "Carla", "won": "yes",
                                "augen": "44", "losers": "Anna"}).status_code == 302
    assert enter(client, path, {"contract": "piccolo", "declarer": "Dieter",
                                "tricks": "2"}).status_code == 302
    assert enter(client, path, {"contract": "raeuber", "declarer": "Bernd", "losers": "Anna",
                                "won": "yes"}).status_code == 302
    assert enter(client, path, {"contract": "halbe", "declarer": "Dieter", "augen": "60",
                                "forfeit": "Dieter"}).status_code == 302
    assert hands(client, path) == [
        {"contract": "ultimo", "declarer": "Carla", "won": True},
        {"contract": "piccolo", "declarer": "Dieter", "tricks": 2},
        {"contract": "raeuber", "announcer": "Bernd", "losers": ["Anna"]},
        {"contract": "halbe", "declarer": "Dieter", "forfeit": "Dieter"}]
    history = client.get(path + "/history").get_data(as_text=True)
    assert "Halbe verloren, 1 Fach (Fehler: Dieter)" in history
    assert "Räuber (angesagt von Bernd)" in history


def test_the_form_says_what_the_game_will_write(client):
    path = start(client)
    page = client.get(path).get_data(as_text=True)
    table = says(client, page)
    assert said(table, contract="eine", declarer="Carla", augen="41") == \
        "Eine gewonnen, 1 Fach: +60 / −20 −20 −20"
    assert said(table, contract="solo", declarer="Anna", augen="52") == \
        "Solo gewonnen, 3 Fach: +90 / −30 −30 −30"
    assert said(table, contract="cego", augen="78").startswith("78 Augen gibt es nicht")
    assert said(table, contract="ultimo", won="no") == "Ultimo verloren: −240 / +80 +80 +80"
    assert said(table, contract="piccolo", tricks="2", won="yes") == \
        "Piccolo verloren: −120 / +40 +40 +40"
    assert said(table, contract="raeuber", declarer="Bernd", losers="Anna,Bernd") == \
        "Räuber: Anna −40, Bernd −200 / +120 +120"  # each pays the other too
    assert said(table, contract="raeuber", declarer="Bernd").startswith("Räuber: antippen")
    assert said(table, contract="eine", declarer="Carla", forfeit="Carla") == \
        "Eine verloren (Fehler), 1 Fach: −60 / +20 +20 +20"
    assert said(table, contract="eine", declarer="Carla", forfeit="Anna") == \
        "Eine gewonnen (Fehler), 1 Fach: +60 / −20 −20 −20"
    assert said(table, contract="raeuber", declarer="Bernd", forfeit="Bernd") == \
        "Räuber: Bernd −240 / +80 +80 +80"
    assert said(table, contract="eine") == ""
    # every count of every bid is what the engine writes for it
    table_of = cego.Table(FOUR, "Anna", {})
    for bid in ("solo", "cego", "halbe", "eine"):
        for augen in (0, 2, 39, 40, 77, 79):
            game = table_of.score({"contract": bid, "declarer": "Bernd", "augen": augen})
            text = said(table, contract=bid, declarer="Bernd", augen=str(augen))
            assert text.endswith(f": {'+' if game.won else '−'}{3 * game.value} / " +
                                 " ".join([f"{'−' if game.won else '+'}{game.value}"] * 3))


def test_the_sayings_follow_the_tables_rules(app):
    with app.test_request_context():
        listed = sayings(FOUR, "Anna", {"settlement": "declarer-only", "display": "gute-miese"})
        local = sayings(FOUR, "Anna", {"bid_multipliers": {"cego": 1, "leere": 4},
                                       "fixed_games": {"grebsler": 50}})
        five = sayings(["A", "B", "C", "D", "E"], "C", {})
    assert said(listed, contract="eine", declarer="Carla", augen="41") == \
        "Eine gewonnen, 1 Fach: 20\u202fG"
    assert said(listed, contract="raeuber", declarer="Anna", losers="Bernd") == \
        "Räuber: Bernd 40\u202fM"
    assert said(local, contract="leere", augen="41") == \
        "Leere gewonnen, 1 Fach: +60 / −20 −20 −20"  # 5 x 4 = 20
    assert said(local, contract="grebsler", won="yes") == \
        "Grebsler gewonnen: +150 / −50 −50 −50"
    assert said(local, contract="halbe", augen="41") == ""  # not played here
    # five: the dealer C sits out, pays as a defender, and is nobody's caller or loser
    assert said(five, contract="cego", augen="44") == \
        "Cego gewonnen, 1 Fach: +40 / −10 −10 −10 −10"
    keys = [key for names, found in five[1] if "losers" in names for key in found]
    assert keys and not any("C" in key.split("|", 1)[1].replace(",", "|").split("|")
                            for key in keys)


def test_five_players_the_dealer_sits_out_and_is_not_offered(client):
    names = [*FOUR, "Erna"]
    path = start(client, names)
    page = client.get(path).get_data(as_text=True)
    assert "Anna gibt und setzt aus" in page
    form = page.split('id="entry"', 1)[1]
    assert 'name="declarer" value="Anna"' not in form and 'name="declarer" value="Erna"' in form
    answer = enter(client, path, {"contract": "cego", "declarer": "Anna", "augen": "44"})
    assert "Anna gibt dieses Spiel und setzt aus" in answer.get_data(as_text=True)
    assert enter(client, path, {"contract": "cego", "declarer": "Bernd",
                                "augen": "44"}).status_code == 302
    page = client.get(path).get_data(as_text=True)
    assert "Bernd gibt Spiel 2 und setzt aus" in page
    state = client.get(path + "/state.json").get_json()
    assert [p["score"] for p in state["players"]] == [-10, 40, -10, -10, -10]


def test_the_sayings_are_asked_for_once_and_not_carried_by_each_answer(app, client):
    """Who deals changes nothing of a four-player game's sayings: one address for the whole
    game, which no answer to a hand carries the text of; with five the dealer sits out, and each
    dealer's has its own. A phone not in the group, a made-up version and a game without
    sayings find nothing."""
    path = start(client)
    page = client.get(path).get_data(as_text=True)
    first = re.search(r'data-says="([^"]*)"', page).group(1)
    table = says(client, page)
    answer = client.post(path + "/entries", data={"seq": 1, "contract": "eine",
                                                  "declarer": "Carla", "augen": "41"},
                         headers={"X-Part": "content"})
    part = answer.get_data(as_text=True)
    assert "Bernd" in part and f'data-says="{first}"' in part  # Bernd deals game 2
    with app.test_request_context():  # worked out once for every dealer (not four times)
        cego = games.get("cego")
        worked = _sayings.cache_info().misses
        assert {cego.sayings(FOUR, d, cego.rules({})).version for d in FOUR} == \
            {cego.sayings(FOUR, "Anna", cego.rules({})).version}
        assert _sayings.cache_info().misses <= worked + 1
    assert table[0][0] not in part and len(part) < 15_000
    assert client.get(first.rsplit("/", 1)[0] + "/0123456789abcdef").status_code == 404
    assert app.test_client().get(first).status_code == 404  # a phone not in the group

    five = start(client, [*FOUR, "Erna"])
    page = client.get(five).get_data(as_text=True)
    anna_deals = re.search(r'data-says="([^"]*)"', page).group(1)
    enter(client, five, {"contract": "cego", "declarer": "Bernd", "augen": "44"})
    page = client.get(five).get_data(as_text=True)
    bernd_deals = re.search(r'data-says="([^"]*)"', page).group(1)
    assert bernd_deals != anna_deals
    with app.test_request_context():
        rules = games.get("cego").rules(db.session.get(Game, int(five.rsplit("/", 1)[1])).rules)
        for at, dealer in ((anna_deals, "Anna"), (bernd_deals, "Bernd")):
            assert lookups(json.loads(client.get(at).get_data(as_text=True))) == \
                lookups(sayings([*FOUR, "Erna"], dealer, rules))
    hintersche = start_game(client, "hintersche", FOUR)
    assert client.get(hintersche + "/says/" + first.rsplit("/", 1)[1]).status_code == 404


def test_a_four_player_tables_form_is_drawn_once_and_its_heading_with_each_game(app, client):
    """The form looks the same from one game to the next at four (who deals is in its heading,
    drawn apart): the first answer puts in the form drawn for the page, the next ones are only
    what the game changed (the list, the heading, the next game's number: the phone empties its
    form); at five the dealer sits out and each game's form is drawn anew (its names are
    others)."""
    from flask import template_rendered

    drawn = []

    def rendered(_app, template, **_extra):
        drawn.append(template.name)

    path = start(client)
    with template_rendered.connected_to(rendered, app):
        page = client.get(path).get_data(as_text=True)
        parts = [client.post(path + "/entries", headers={"X-Part": "content"},
                             data={"seq": seq, "contract": "eine", "declarer": who,
                                   "augen": "41"}).get_data(as_text=True)
                 for seq, who in enumerate(["Carla", "Anna", "Bernd", "Dieter"], start=1)]
    assert drawn.count("games/_entry_forms.html") == 1
    dealers = ["Bernd", "Carla", "Dieter", "Anna"]
    for n, (part, dealer) in enumerate(zip(parts, dealers, strict=True), start=2):
        heading = re.search(r'data-change="head">.*?<h2>(.*?)</h2>', part, re.S).group(1)
        assert f"Spiel {n}" in heading and f"{dealer} gibt" in heading
        if n == 2:  # after the first game: the table's content, the form with it
            assert f'name="seq" value="{n}"' in part and 'name="contract" value="eine"' in part
        else:
            assert f'data-seq="{n}"' in part and 'name="contract"' not in part
    keys = re.findall(r'name="key" value="([0-9a-f]{32})"', page + "".join(parts))
    assert len(set(keys)) == len(keys) == 2  # each a key of its own

    five = start(client, [*FOUR, "Erna"])
    drawn.clear()
    with template_rendered.connected_to(rendered, app):
        client.get(five)
        for seq, who in enumerate(["Bernd", "Carla"], start=1):
            client.post(five + "/entries", headers={"X-Part": "content"},
                        data={"seq": seq, "contract": "eine", "declarer": who, "augen": "41"})
    assert drawn.count("games/_entry_forms.html") == 3


def test_the_words_are_for_the_phones_that_have_the_form(app, client):
    """The group's members and a tournament table's own phone; not a phone in by the view link
    (its page has no form), nor another table's phone."""
    from test_tournaments import draw, set_up, tables

    draw(client, set_up(client, kind="cego"), 1)
    (_id, token, game, _seats), (_id2, _token2, other, _seats2), *_ = tables(app, 1)
    table = app.test_client()
    assert table.get(f"/t/{token}").status_code == 302
    address = re.search(r'data-says="([^"]*)"', table.get(f"/g/tanne/games/{game}")
                        .get_data(as_text=True)).group(1)
    theirs = re.search(r'data-says="([^"]*)"', client.get(f"/g/tanne/games/{other}")
                       .get_data(as_text=True)).group(1)
    assert table.get(address).status_code == client.get(theirs).status_code == 200
    assert table.get(theirs).status_code == 404
    invite = client.get("/g/tanne/invite").get_data(as_text=True)
    viewer = app.test_client()
    assert join(viewer, re.search(r'data-view-link="https?://[^/"]+(/join/[^"]+)"', invite)
                .group(1)).status_code == 302
    assert viewer.get(f"/g/tanne/games/{game}").status_code == 200
    assert viewer.get(address).status_code == 404


def test_the_25th_game_of_a_durchgang_is_refused_in_its_words(client):
    path = start(client, games=24)
    for game in range(24):
        assert enter(client, path, {"contract": "cego", "declarer": FOUR[game % 4],
                                    "augen": "44"}).status_code == 302
    page = client.get(path).get_data(as_text=True)
    assert "Die Liste ist fertig: 24 Spiele." in page and 'id="entry"' not in page
    answer = enter(client, path, {"contract": "cego", "declarer": "Anna", "augen": "44"})
    assert answer.status_code == 400
    assert "dieser Durchgang ist fertig (24 Spiele)" in answer.get_data(as_text=True)
    assert len(hands(client, path)) == 24


def test_a_correction_shows_the_totals_it_changes(client):
    path = start(client)
    enter(client, path, {"contract": "eine", "declarer": "Carla", "augen": "41"})
    enter(client, path, {"contract": "solo", "declarer": "Anna", "augen": "52"})
    fields = {"contract": "eine", "declarer": "Carla", "augen": "50"}  # 3 Fach: 45 → 50
    preview = client.post(path + "/entries/1", data=fields, follow_redirects=True)
    page = preview.get_data(as_text=True)
    assert "Eine gewonnen, 1 Fach" in page and "Eine gewonnen, 3 Fach" in page
    assert re.search(r"Carla</td><td><s class=\"muted\">\+30</s> → <b>\+120</b>", page)
    version = client.get(path + "/live").get_json()["version"]
    assert client.post(path + "/entries/1", data={**fields, "confirm": version}).status_code == 302
    state = client.get(path + "/state.json").get_json()
    assert [p["score"] for p in state["players"]] == [40, -80, 120, -80]


def test_the_lists_figures_reach_the_standings_the_season_and_head_to_head(client, runner,
                                                                          tmp_path):
    record = {"format": "scorekeeper-game/1", "game": "cego", "players": FOUR,
              "rules": {"games": 4, "cents_per_point": 10},
              "hands": [{"contract": "solo", "declarer": "Anna", "augen": 52},
                        {"contract": "ultimo", "declarer": "Carla", "won": True},
                        {"contract": "ultimo", "declarer": "Carla", "won": False},
                        {"contract": "raeuber", "announcer": "Dieter", "losers": ["Bernd"]}]}
    client.post("/groups", data={"name": "tanne"})
    game, _evening = import_game(runner, tmp_path, record)
    page = client.get("/g/tanne/standings").get_data(as_text=True)
    section = page.split("<h2>Cego</h2>", 1)[1].split("</table>", 1)[0]
    assert re.search(r"<td>Anna</td><td>4</td><td[^>]*>130</td>\s*<td>1/1</td><td>0/0</td>",
                     section)
    season = json.loads(runner.invoke(args=["chronicle", "tanne", "--year", "2026",
                                            "--json"]).output)
    found = {r["figure"]: r for r in season["records"] if r["game"] == "cego"}
    assert [(h["player"], h["value"], h["hand"]) for h in found["best_game"]["holders"]] == \
        [("Carla", 240, 2)]
    assert [(h["player"], h["value"]) for h in found["ultimos"]["holders"]] == [("Carla", 2)]
    assert [(h["player"], h["value"]) for h in found["solos_won"]["holders"]] == [("Anna", 1)]
    page = client.get("/g/tanne/seasons/2026").get_data(as_text=True)
    assert "Höchstes gewonnenes Spiel" in page and f'{game}/history#hand-2"' in page
    with client.application.test_request_context():
        group = db.session.scalar(db.select(Group))
        anna = {o.player: o for o in headtohead.table(group, "Anna")}
        anna_id = db.session.scalar(db.select(Player.id).where(Player.name == "Anna"))
    # the points: Anna 130, Bernd -150, Carla 10, Dieter 10 at 10 cents; between two players
    # the difference of their points: what the declarer won or lost against each opponent
    # (Anna won 30 off Carla with the Solo, paid her 80 for one Ultimo and got 80 back)
    assert {name: o.money for name, o in anna.items()} == {"Bernd": 700, "Carla": 300,
                                                           "Dieter": 300}
    assert client.get(f"/g/tanne/players/{anna_id}").status_code == 200
    assert client.get("/g/tanne/tv").status_code == 200


def test_a_raeuber_count_that_cannot_be_stands_in_raeubers_part(client):
    path = start(client)
    fields = {"contract": "raeuber", "declarer": "Bernd", **{f"augen-{n}": "30" for n in FOUR}}
    page = enter(client, path, fields).get_data(as_text=True)
    raeuber = page.split('class="result by-losers"', 1)[1].split('class="says"', 1)[0]
    assert "die 4 Zählungen ergeben 120, im Spiel sind 79" in raeuber
    assert "ergeben 120" not in augen_part(page)
    assert re.search(r'<details class="fold" open>\s*<summary>Oder die Augen aller', page)
