"""A tournament night through its pages, as the organiser and the tables' phones use them:
setting one up in German, drawing the tables, a table's phone that sees its own game and nothing
else, a late entrant and a withdrawal, a second Durchgang without repeated pairings, a voided
table, a lot for a shared place, the spectators' ranking, the run sheets and closing the night
with its fees and prizes in the Kasse."""

from __future__ import annotations

import itertools
import re

from sqlalchemy import select
from support import counted
from wtforms.validators import ValidationError

from scorekeeper import engine, games
from scorekeeper.db import db
from scorekeeper.models import Entrant, Game, KasseEntry, Lot, Tournament, TournamentTable

NAMES = ["Anna", "Bernd", "Carla", "Dieter", "Erika", "Franz", "Gerda", "Hans",
         "Ilse", "Jörg", "Karl", "Lena", "Max", "Nina", "Otto", "Paula"]


def set_up(client, names=NAMES, kind="hartenjagen", fee="5,00", prizes="50, 30, 20"):
    client.post("/groups", data={"name": "tanne"})
    answer = client.post("/g/tanne/tournaments/new", data={
        "name": "Preiscego Schapbach", "kind": kind, "day": "2026-12-05", "rounds": "2",
        "games": "4", "entry_fee": fee, "prizes": prizes, "entrants": "\n".join(names)})
    assert answer.status_code == 302, answer.get_data(as_text=True)
    return answer.location


def tables(app, round_):
    with app.app_context():
        found = db.session.scalars(select(TournamentTable).where(TournamentTable.round == round_)
                                   .order_by(TournamentTable.number)).all()
        by_id = {e.id: e.name for e in db.session.scalars(select(Entrant))}
        return [(t.id, t.token, t.game_id, [by_id[s] for s in t.seats]) for t in found]


def section(answer, round_):
    """A Durchgang's section of the organiser's page."""
    return answer.get_data(as_text=True).split(f'id="round-{round_}"')[1].split("</section>")[0]


def draw(client, path, round_):
    answer = client.post(f"{path}/rounds/{round_}/draw")
    assert answer.status_code == 302


def play_out(client, app, game_id, hands=1):
    """A table plays hands of Hartenjagen on its own phone (the first player takes every heart
    but one, the last the queen)."""
    path = f"/g/tanne/games/{game_id}"
    with app.app_context():
        game = db.session.get(Game, game_id)
        seats = list(game.seating)
    for _ in range(hands):
        fields = {f"hearts-{seats[0]}": "12", f"hearts-{seats[1]}": "1", "queen": seats[3]}
        answer = client.post(path + "/entries", data={
            "seq": len(client.get(path + "/record.json").get_json()["hands"]) + 1, **fields})
        assert answer.status_code == 302, answer.get_data(as_text=True)


def test_a_tournament_is_set_up_in_german_and_its_tables_drawn_by_lot(app, client):
    path = set_up(client)
    page = client.get(path).get_data(as_text=True)
    assert "Preiscego Schapbach" in page and "Paula" in page
    draw(client, path, 1)
    drawn = tables(app, 1)
    assert len(drawn) == 4
    assert sorted(name for *_, seats in drawn for name in seats) == sorted(NAMES)
    with app.app_context():
        for _id, _token, game_id, seats in drawn:
            game = db.session.get(Game, game_id)
            assert list(game.seating) == seats and game.kind == "hartenjagen"
            assert game.evening.place == "Preiscego Schapbach"
        tournament = db.session.scalar(select(Tournament))
        assert (tournament.entry_fee_cents, tournament.prizes) == (500, [5000, 3000, 2000])


def test_the_form_keeps_what_was_typed_and_says_what_is_wrong(client):
    client.post("/groups", data={"name": "tanne"})
    answer = client.post("/g/tanne/tournaments/new", data={
        "name": "Preisskat", "kind": "hartenjagen", "day": "2026-12-05", "rounds": "2",
        "games": "4", "prizes": "50 Euro", "entrants": "Anna\nBernd\nanna"})
    page = answer.get_data(as_text=True)
    assert answer.status_code == 400
    assert "Preisskat" in page and "50 Euro" in page  # what was typed stays
    answer = client.post("/g/tanne/tournaments/new", data={
        "name": "Preisskat", "kind": "hartenjagen", "day": "2026-12-05", "rounds": "2",
        "games": "4", "entrants": "Anna\nBernd\nanna"})
    assert answer.status_code == 400 and "anna" in answer.get_data(as_text=True)
    with client.application.app_context():
        assert db.session.scalar(select(Tournament)) is None


def test_prizes_typed_as_a_german_player_types_them_and_the_games_in_german(client):
    """"50,30,20" are three prizes (a single comma is the decimal one: "20,50" is 20,50 €);
    the games to choose from are named in the page's language."""
    client.post("/groups", data={"name": "tanne"})
    page = client.get("/g/tanne/tournaments/new").get_data(as_text=True)
    offered = re.findall(r'<option[^>]*value="([^"]+)"[^>]*>([^<]*)</option>', page)
    assert ("free-list", "Freie Liste") in offered and "Free list" not in page
    assert not any("Dutch" in title for _kind, title in offered)
    for typed, cents in (("50,30,20", [5000, 3000, 2000]), ("50, 30, 20,50", [5000, 3000, 2050]),
                         ("50;30;20", [5000, 3000, 2000]), ("20,50", [2050]),
                         ("50,00,30,00", None)):  # cents run together: refused, not 4 prizes
        with client.application.app_context():
            from scorekeeper.views.forms import TournamentForm
            with client.application.test_request_context(method="POST", data={"prizes": typed}):
                form = TournamentForm()
                try:
                    form.validate_prizes(form.prizes)
                except ValidationError:
                    assert cents is None, typed
                else:
                    assert form.prize_cents == cents, typed


def test_a_tables_phone_opens_its_own_game_and_nothing_else_of_the_group(app, client):
    path = set_up(client)
    draw(client, path, 1)
    (_id, token, game_id, seats), (_id2, _token2, other_game, _seats2), *_ = tables(app, 1)
    table = app.test_client()
    assert table.get(f"/g/tanne/games/{game_id}").status_code == 404  # not yet
    opened = table.get(f"/t/{token}")
    assert opened.status_code == 302 and opened.location.endswith(f"/g/tanne/games/{game_id}")
    page = table.get(f"/g/tanne/games/{game_id}")
    assert page.status_code == 200 and 'name="seq"' in page.get_data(as_text=True)
    # it says which table it is; the group's name at the top leads nowhere (the group's page
    # is not for it)
    heading = re.search(r"<h1[^>]*>(.*?)</h1>", page.get_data(as_text=True), re.S).group(1)
    assert "Durchgang 1, Tisch 1" in heading
    assert '<span class="brand">tanne</span>' in page.get_data(as_text=True)
    assert "Durchgang" not in re.search(r"<h1[^>]*>(.*?)</h1>", client.get(
        f"/g/tanne/games/{game_id}").get_data(as_text=True), re.S).group(1)  # the organiser's
    play_out(table, app, game_id)  # it enters its own hands
    assert table.get(f"/g/tanne/games/{game_id}/history").status_code == 200
    assert table.get(f"/g/tanne/games/{game_id}/undo?seq=1").status_code == 200
    for elsewhere in ("/g/tanne", f"/g/tanne/games/{other_game}", "/g/tanne/standings",
                      "/g/tanne/kasse", path, f"/g/tanne/games/{other_game}/history"):
        assert table.get(elsewhere).status_code == 404, elsewhere
    assert table.post(f"/g/tanne/games/{game_id}/close").status_code == 404
    assert table.post(f"{path}/rounds/2/draw").status_code == 404
    assert app.test_client().get("/t/" + "x" * 32).status_code == 404


def test_a_late_entrant_and_a_withdrawal_and_no_pairing_twice(app, client):
    path = set_up(client, NAMES[:15])
    # 15 players, Hartenjagen with one pack: tables of four only; said in the Durchgang
    refused = client.post(f"{path}/rounds/1/draw")
    assert refused.status_code == 400 and tables(app, 1) == []
    assert "15 Spieler lassen sich nicht auf Tische zu 4 verteilen: Spieler nachmelden" in \
        section(refused, 1)
    assert client.post(f"{path}/entrants", data={"name": "Paula"}).status_code == 302
    draw(client, path, 1)  # Paula came before the first draw: she plays from the first on
    assert len(tables(app, 1)) == 4
    assert client.post(f"{path}/entrants", data={"name": "Quirin"}).status_code == 302
    with app.app_context():
        otto = db.session.scalar(select(Entrant).where(Entrant.name == "Otto"))
        quirin = db.session.scalar(select(Entrant).where(Entrant.name == "Quirin"))
        assert (quirin.number, quirin.first_round) == (17, 2)
    client.post(f"{path}/withdraw", data={"entrant": otto.id})
    draw(client, path, 2)
    second = tables(app, 2)
    seated = [name for *_, seats in second for name in seats]
    assert "Otto" not in seated and "Quirin" in seated and len(seated) == 16
    before = {frozenset(pair) for *_, seats in tables(app, 1)
              for pair in itertools.combinations(seats, 2)}
    assert all(frozenset(pair) not in before for *_, seats in second
               for pair in itertools.combinations(seats, 2) if "Quirin" not in pair)


def test_the_draw_is_made_again_until_a_table_plays_and_a_paper_draw_is_checked(app, client):
    path = set_up(client)
    draw(client, path, 1)
    first = tables(app, 1)
    draw(client, path, 1)  # again: new tables, the old games deleted
    again = tables(app, 1)
    assert {t[1] for t in again}.isdisjoint({t[1] for t in first})  # new tables, new links
    with app.app_context():
        assert {db.session.get(Game, t[2]).status for t in first} == {"deleted"}
    assert "Neu auslosen" in client.get(path).get_data(as_text=True)
    play_out(client, app, again[0][2])
    assert "Neu auslosen" not in client.get(path).get_data(as_text=True)  # one table has played
    answer = client.post(f"{path}/rounds/1/draw")  # said in Durchgang 1, where the page opens
    assert answer.status_code == 400 and "hat begonnen" in section(answer, 1)
    assert tables(app, 1) == again
    # Durchgang 2 from paper: a start number twice is refused in words at the field, nothing
    # seated, what was typed kept
    typed = "\n".join(" ".join(str(n) for n in range(i, i + 4)) for i in range(1, 17, 4))
    bad = typed.replace("16", "15")
    page = client.post(f"{path}/rounds/2/typed", data={"tables": bad})
    assert tables(app, 2) == [] and "15 ist zweimal gesetzt" in section(page, 2)
    assert "13 14 15 15</textarea>" in section(page, 2) and "<details open>" in section(page, 2)
    client.post(f"{path}/rounds/2/typed", data={"tables": typed})
    assert [seats for *_, seats in tables(app, 2)][0] == NAMES[:4]


def test_the_ranking_a_voided_table_a_lot_and_the_night_closed_into_the_kasse(app, client):
    path = set_up(client, NAMES[:8])
    draw(client, path, 1)
    (table_id, _t, game_a, seats_a), (_i, _t2, game_b, seats_b) = tables(app, 1)
    play_out(client, app, game_a)  # seats_a[0] 12 hearts, seats_a[1] 1, seats_a[3] the queen
    play_out(client, app, game_b)
    with app.app_context():
        tournament = db.session.scalar(select(Tournament))
        from scorekeeper.tournament import night
        ranked = night.ranked(tournament)
        names = {e.id: e.name for e in night.entrants(tournament)}
    # Hartenjagen: the fewest points win; the two with 0 at each table share first place
    best = {names[row.entrant] for row in ranked if row.place == 1}
    assert best == {seats_a[2], seats_b[2]}
    assert [row.place for row in ranked] == [1, 1, 3, 3, 5, 5, 7, 7]
    spectators = app.test_client().get(
        re.search(r'href="(http://[^"]*/r/[^"?]+)"', client.get(path).get_data(as_text=True))
        .group(1).replace("http://localhost", ""))
    assert spectators.status_code == 200 and seats_a[2] in spectators.get_data(as_text=True)
    assert "Kasse" not in spectators.get_data(as_text=True)
    # a lot for the shared first place, kept and shown
    assert client.post(f"{path}/places/1/lot").status_code == 302
    with app.app_context():
        lot = db.session.scalar(select(Lot))
        assert lot.place == 1 and {names[i] for i in lot.drawn} == best
        ranked = night.ranked(db.session.get(Tournament, tournament.id))
        assert [(row.place, row.lot) for row in ranked][:2] == [(1, 1), (1, 2)]
        assert [names[row.entrant] for row in ranked][:2] == [names[i] for i in lot.drawn]
    # table A's Durchgang voided: its players count the Durchgang's worst result, table B's 13
    # (0 would be the best, where the fewest points win)
    client.post(f"{path}/tables/{table_id}/void", data={"reason": "Liste unleserlich"})
    with app.app_context():
        ranked = night.ranked(db.session.get(Tournament, tournament.id))
        by_name = {names[row.entrant]: row for row in ranked}
        assert all(by_name[name].durchgaenge[0] == 13 and by_name[name].voided == (1,)
                   for name in seats_a)
        assert sum(by_name[name].total for name in seats_b) == 26  # table B counts
        assert [names[row.entrant] for row in ranked][:2] == [seats_b[2], seats_b[1]]
    page = client.get(path).get_data(as_text=True)
    assert "Kursiv: Ein gestrichener oder nicht gespielter Durchgang zählt das schlechteste" in page
    assert "Liste unleserlich" in client.get(path).get_data(as_text=True)
    # closed, once the places now shared that decide a prize have their lots: the fees in, the
    # prizes out
    while places := re.findall(r"/places/(\d+)/lot", client.get(path).get_data(as_text=True)):
        assert client.post(f"{path}/places/{places[0]}/lot").status_code == 302
    client.post(f"{path}/close")
    with app.app_context():
        lines = db.session.scalars(select(KasseEntry).order_by(KasseEntry.id)).all()
        assert [(line.kind, line.cents) for line in lines] == [
            ("deposit", 4000), ("withdrawal", -5000), ("withdrawal", -3000), ("withdrawal", -2000)]


def test_run_sheets_carry_each_tables_qr_code(app, client):
    path = set_up(client)
    draw(client, path, 1)
    page = client.get(f"{path}/rounds/1/sheets").get_data(as_text=True)
    assert page.count('class="run-sheet"') == 4 and page.count("<svg") >= 4
    assert client.get(f"{path}/rounds/2/sheets").status_code == 404


def test_only_games_played_at_tables_of_four_can_be_chosen(client):
    client.post("/groups", data={"name": "tanne"})
    page = client.get("/g/tanne/tournaments/new").get_data(as_text=True)
    for name, adapter in games.GAMES.items():
        assert (f'value="{name}"' in page) == (adapter.TOURNAMENT_GAMES is not None)
    assert engine.get("vier-anderle") and 'value="vier-anderle"' not in page


def test_a_seasons_tournament_nights_add_up_to_a_series(app, client):
    first = set_up(client, NAMES[:4])
    draw(client, first, 1)
    (_id, _token, game_one, seats_one), = tables(app, 1)
    play_out(client, app, game_one)  # in the drawn order: 12, 1, 0 and 13 (the queen)
    answer = client.post("/g/tanne/tournaments/new", data={
        "name": "Preiscego Rippoldsau", "kind": "hartenjagen", "day": "2026-12-12",
        "rounds": "1", "games": "4", "entrants": "Carla\nAnna\nErika\nBernd"})
    second = answer.location
    draw(client, second, 1)
    with app.app_context():
        tournament = db.session.scalar(select(Tournament).where(
            Tournament.name == "Preiscego Rippoldsau"))
        game_id = db.session.scalar(select(TournamentTable.game_id).where(
            TournamentTable.tournament_id == tournament.id))
        seats = list(db.session.get(Game, game_id).seating)
    play_out(client, app, game_id)
    # a third night set up and drawn, never played: not a night of the series
    never = client.post("/g/tanne/tournaments/new", data={
        "name": "Preisherzeln Wolfach", "kind": "hartenjagen", "day": "2026-12-19",
        "rounds": "1", "games": "4", "entrants": "Carla\nAnna\nErika\nDora"}).location
    draw(client, never, 1)
    night_two = dict(zip(seats, (12, 1, 0, 13), strict=True))
    night_one = dict(zip(seats_one, (12, 1, 0, 13), strict=True))
    with app.app_context():
        from scorekeeper.tournament import night
        lines = night.series(db.session.scalar(select(Tournament.group_id)), 2026)
    totals = {line["player"]: line["total"] for line in lines["hartenjagen"]}
    assert {len(line["nights"]) for line in lines["hartenjagen"]} == {2}
    assert totals == {name: night_one.get(name, 0) + night_two.get(name, 0)
                      for name in {*night_one, *night_two}}
    best = min(totals.values())  # Hartenjagen: the fewest points win
    assert {line["player"] for line in lines["hartenjagen"] if line["place"] == 1} == \
        {name for name, total in totals.items() if total == best}
    page = client.get("/g/tanne/seasons/2026").get_data(as_text=True)
    assert "Turnierserie" in page and "Erika" in page


def test_the_tv_shows_the_ranking_a_page_at_a_time_and_turns_by_itself(app, client):
    path = set_up(client, [f"Spieler {n}" for n in range(1, 25)])
    draw(client, path, 1)
    link = re.search(r'href="http://localhost(/r/[^"?]+)"', client.get(path).get_data(as_text=True))
    tv = app.test_client()
    first = tv.get(link.group(1) + "?tv=1").get_data(as_text=True)
    assert first.count("<tr") == 18  # the head and 17 of 24
    assert re.search(r'http-equiv="refresh" content="10; url=[^"]*page=2', first)
    second = tv.get(link.group(1) + "?tv=1&page=2").get_data(as_text=True)
    assert second.count("<tr") == 8 and "Seite 2 von 2" in second
    assert re.search(r'http-equiv="refresh" content="10; url=[^"]*page=1', second)
    whole = tv.get(link.group(1)).get_data(as_text=True)  # a spectator's phone: all of it
    assert whole.count("<tr") == 25 and "http-equiv" not in whole
    assert tv.get(link.group(1) + "/live").get_json()["version"]


def test_a_draw_that_a_table_beat_to_it_is_refused_and_changes_nothing(app, client, monkeypatch):
    path = set_up(client)
    draw(client, path, 1)
    drawn = tables(app, 1)
    from scorekeeper.table import scoring

    def played_meanwhile(game, device=""):  # a table saved its first game in between
        raise scoring.StaleEntry()

    monkeypatch.setattr(scoring, "delete_game", played_meanwhile)
    page = client.post(f"{path}/rounds/1/draw", follow_redirects=True).get_data(as_text=True)
    assert "inzwischen auf einem anderen Handy" in page
    assert tables(app, 1) == drawn


def test_a_tables_link_taken_back_opens_nothing_and_the_new_one_does(app, client):
    path = set_up(client)
    draw(client, path, 1)
    (table_id, token, game_id, _seats), *_ = tables(app, 1)
    phone_ = app.test_client()
    phone_.get(f"/t/{token}")
    assert phone_.get(f"/g/tanne/games/{game_id}").status_code == 200
    page = client.post(f"{path}/tables/{table_id}/renew", follow_redirects=True)
    assert "neuen Link" in page.get_data(as_text=True)
    (_id, new, _game, _s), *_ = tables(app, 1)
    assert new != token
    assert phone_.get(f"/g/tanne/games/{game_id}").status_code == 404  # out
    assert app.test_client().get(f"/t/{token}").status_code == 404
    assert phone_.get(f"/t/{new}").status_code == 302
    assert phone_.get(f"/g/tanne/games/{game_id}").status_code == 200


def test_the_ranking_is_drawn_once_for_each_of_its_versions(app, client, monkeypatch):
    from scorekeeper.tournament import night

    path = set_up(client, NAMES[:8])
    draw(client, path, 1)
    link = re.search(r'href="http://localhost(/r/[^"?]+)"', client.get(path).get_data(as_text=True))
    drawn = []
    ranked = night.ranked
    monkeypatch.setattr(night, "ranked", lambda t, *more: drawn.append(t.id) or ranked(t, *more))
    tvs = [app.test_client() for _ in range(3)]
    pages = {tv.get(link.group(1) + "?tv=1").get_data(as_text=True) for tv in tvs}
    assert len(pages) == 1 and len(drawn) == 1  # three TVs, one drawing
    (_id, _token, game, seats), _other = tables(app, 1)
    play_out(client, app, game)
    with counted(app) as (read, _commits):
        after = tvs[0].get(link.group(1) + "?tv=1").get_data(as_text=True)
    assert len(drawn) == 2 and after != pages.pop()  # a new version is drawn anew
    # its entrants read once, its games' players with their tables (not their whole states)
    assert sum(re.search(r"SELECT entrants\.id\b", t) is not None for t in read) == 1
    assert not any(re.search(r"(SELECT|,)\s*games\.state\s*(,|FROM)", t) for t in read)
    english = app.test_client()
    english.set_cookie("lang", "en")
    assert "Ranking" in english.get(link.group(1) + "?tv=1").get_data(as_text=True)
    assert len(drawn) == 3  # in another language: a page of its own



def test_a_voided_tables_phone_says_so_and_takes_no_more_entries(app, client):
    path = set_up(client, NAMES[:8])
    draw(client, path, 1)
    (table_id, token, game_id, _seats), *_ = tables(app, 1)
    phone_ = app.test_client()
    phone_.get(f"/t/{token}")
    play_out(phone_, app, game_id)
    page = phone_.get(f"/g/tanne/games/{game_id}").get_data(as_text=True)
    assert 'name="seq"' in page and 'id="voided"' not in page
    # a reason left out: the message at the field of that table's form, nothing voided
    answer = client.post(f"{path}/tables/{table_id}/void", data={"reason": "  "})
    assert answer.status_code == 400
    refused = answer.get_data(as_text=True)
    assert re.search(r'<details open><summary>[^<]*</summary>\s*<form[^>]*'
                     rf'/tables/{table_id}/void', refused)
    form = refused.split(f'/tables/{table_id}/void#round-1" novalidate>')[1].split("</form>")[0]
    assert 'class="error"' in form
    with app.app_context():
        assert db.session.get(TournamentTable, table_id).voided is None
    client.post(f"{path}/tables/{table_id}/void", data={"reason": "Liste unleserlich"})
    page = phone_.get(f"/g/tanne/games/{game_id}").get_data(as_text=True)
    voided = re.search(r'<p class="error banner" role="alert" id="voided">([^<]*)</p>', page)
    assert voided and "Veranstalter" in voided.group(1) and "Liste unleserlich" in voided.group(1)
    assert "Durchgang 1" in voided.group(1) and re.search(r"\d\d:\d\d", voided.group(1))
    assert 'name="seq"' not in page  # no entry form, no undo
    assert f"/g/tanne/games/{game_id}/undo" not in page
    # a hand sent all the same (a phone that still had the form): refused in the same words
    path_game = f"/g/tanne/games/{game_id}"
    with app.app_context():
        game = db.session.get(Game, game_id)
        seats, hands = list(game.seating), game.entry_count
    answer = phone_.post(path_game + "/entries", data={
        "seq": hands + 1, f"hearts-{seats[0]}": "12", f"hearts-{seats[1]}": "1",
        "queen": seats[3]}, follow_redirects=True)
    assert "Liste unleserlich" in answer.get_data(as_text=True)
    queued = phone_.post(path_game + "/entries", headers={"Accept": "application/json"},
                         data={"seq": hands + 1, f"hearts-{seats[0]}": "12",
                               f"hearts-{seats[1]}": "1", "queen": seats[3]})
    assert queued.status_code >= 400 and "Liste unleserlich" in queued.get_data(as_text=True)
    assert phone_.post(path_game + "/undo", data={"seq": hands}).status_code in (302, 400, 409)
    with app.app_context():
        assert db.session.get(Game, game_id).entry_count == hands
        assert db.session.get(Game, game_id).status == "closed"
    # voided twice: refused in words
    page = client.post(f"{path}/tables/{table_id}/void", data={"reason": "nochmal"},
                       follow_redirects=True).get_data(as_text=True)
    assert "schon gestrichen" in page


def test_the_tournament_page_keeps_the_organisers_history_newest_first(app, client):
    path = set_up(client, NAMES[:8])
    draw(client, path, 1)
    draw(client, path, 1)  # again
    (table_id, _token, game_a, _seats), (other, _t, game_b, _s) = tables(app, 1)
    client.post(f"{path}/tables/{other}/renew")
    client.post(f"{path}/entrants", data={"name": "Quirin"})  # number 9, from Durchgang 2
    play_out(client, app, game_a)
    play_out(client, app, game_b)
    client.post(f"{path}/places/1/lot")  # each table's third seat: 0, first place shared
    client.post(f"{path}/tables/{table_id}/void", data={"reason": "Liste unleserlich"})
    with app.app_context():
        hans = db.session.scalar(select(Entrant).where(Entrant.name == "Hans"))
    client.post(f"{path}/withdraw", data={"entrant": hans.id})
    client.post(f"{path}/rounds/2/typed", data={"tables": "1 2 3 4\n5 6 7 9"})
    client.post(f"{path}/close")
    history = client.get(path).get_data(as_text=True).split('id="history"')[1]
    items = re.findall(r'<li><span>(.*?)</span>\s*<small class="muted">([^<]*)</small>',
                       history, re.S)
    said = [re.sub(r"<[^>]+>", "", text).strip() for text, _when in items]
    assert said == [
        "Abgeschlossen: Startgeld und Preise ins Kassenbuch",
        "Durchgang 2 von Papier eingetippt: 2 Tische",
        "Hans hört auf nach Durchgang 1",
        "Tisch 1 von Durchgang 1 gestrichen: Liste unleserlich",
        "Los für Platz 1: " + said[4].split(": ")[1],
        "Quirin nachgemeldet, spielt ab Durchgang 2",
        "Tisch 2 von Durchgang 1 hat einen neuen Link",
        "Durchgang 1 neu ausgelost: 2 Tische",
        "Durchgang 1 ausgelost: 2 Tische",
        "Angelegt mit 8 Teilnehmern",
    ], said
    assert len(said[4].split(": ")[1].split(", ")) >= 2  # the tied, in the order drawn
    assert all(re.search(r"\d\d:\d\d", when) for _text, when in items)  # each with its time


def test_a_tournament_form_sent_twice_sets_up_one_tournament(app, client):
    client.post("/groups", data={"name": "tanne"})
    form = client.get("/g/tanne/tournaments/new").get_data(as_text=True)
    key = re.search(r'name="key" type="hidden" value="([0-9a-f]+)"', form) or \
        re.search(r'type="hidden" name="key" value="([0-9a-f]+)"', form) or \
        re.search(r'name="key"[^>]*value="([0-9a-f]+)"', form)
    assert key, "the form carries its key"
    data = {"name": "Preisskat", "kind": "hartenjagen", "day": "2026-12-05", "rounds": "2",
            "games": "4", "entrants": "\n".join(NAMES[:8]), "key": key.group(1)}
    first = client.post("/g/tanne/tournaments/new", data=data)
    second = client.post("/g/tanne/tournaments/new", data=data)  # a double tap, or Back
    assert first.status_code == second.status_code == 302
    assert first.location == second.location
    page = client.get(second.location).get_data(as_text=True)
    assert "schon angelegt" in page
    with app.app_context():
        assert len(db.session.scalars(select(Tournament)).all()) == 1
        assert len(db.session.scalars(select(Entrant)).all()) == 8
    # a new form (a new key) sets up another one; a refused form keeps its key for the next try
    again = client.get("/g/tanne/tournaments/new").get_data(as_text=True)
    assert key.group(1) not in again
    refused = client.post("/g/tanne/tournaments/new", data={**data, "key": "k2", "rounds": "0"})
    assert refused.status_code == 400 and 'value="k2"' in refused.get_data(as_text=True)
    # another tournament of the same name on the same day: said at the name, nothing stored
    same = client.post("/g/tanne/tournaments/new", data={**data, "key": "k2"})
    assert same.status_code == 400
    assert "schon ein Turnier oder einen Abend" in same.get_data(as_text=True)
    data["name"] = "Preisskat II"
    assert client.post("/g/tanne/tournaments/new", data={**data, "key": "k2"}).status_code == 302
    assert client.post("/g/tanne/tournaments/new", data={**data, "key": "k2"}).status_code == 302
    assert client.post("/g/tanne/tournaments/new",
                       data={**data, "key": "bad key!"}).status_code == 400
    with app.app_context():
        assert len(db.session.scalars(select(Tournament)).all()) == 2


def test_the_result_shows_its_prizes_and_is_shared_as_a_picture(app, client):
    path = set_up(client, NAMES[:8])
    draw(client, path, 1)
    for _id, _t, game_id, _s in tables(app, 1):
        play_out(client, app, game_id)
    page = client.get(path).get_data(as_text=True)
    assert "50,00" in page and "30,00" in page and "20,00" in page  # the prizes, in the ranking
    assert "Los noch zu ziehen" in page  # first place is shared: its prizes by a lot to draw
    link = re.search(r'href="http://localhost(/r/[^"?]+)"', page).group(1)
    assert f'data-share-image="{link}/card.svg"' in page and "data-print" in page
    spectators = app.test_client()
    card = spectators.get(link + "/card.svg")
    assert card.status_code == 200 and card.mimetype == "image/svg+xml"
    svg = card.get_data(as_text=True)
    assert "Preiscego Schapbach" in svg and "50,00" in svg and "Platz 1" in svg
    client.post(f"{path}/places/1/lot")
    svg = spectators.get(link + "/card.svg").get_data(as_text=True)
    assert "Los 1" in svg and "Platz 1" not in svg
    whole = spectators.get(link).get_data(as_text=True)
    assert "data-share-image" in whole and "Kasse" not in whole.split("<main>")[1]
    assert spectators.get(link[:-3] + "xyz/card.svg").status_code == 404


def test_a_closed_tournament_changes_no_more_and_closes_only_when_its_prizes_are_decided(
        app, client):
    """Closing asks first; it waits for the lots of shared prize places; then every table's game
    is closed as it stands and nothing of the night changes any more: no game, lot, void, draw
    or entrant (the Kasse's lines stay those of the ranking they were booked from)."""
    path = set_up(client, NAMES[:8])
    draw(client, path, 1)
    (table_id, token, game_a, _seats), (_i, _t, game_b, _s) = tables(app, 1)
    phone_ = app.test_client()
    phone_.get(f"/t/{token}")
    play_out(phone_, app, game_a)
    play_out(client, app, game_b)
    page = client.get(path).get_data(as_text=True)
    assert re.search(r'/close">\s*<input[^>]*>\s*<button[^>]*data-confirm="Das Turnier jetzt '
                     r"abschließen\?", page)
    assert "2 Tische haben noch nicht alle Spiele gespielt" in page
    spectators = re.search(r'href="http://[^"/]*(/r/[^"?]+)"', page).group(1)
    assert "Endstand" not in app.test_client().get(spectators).get_data(as_text=True)
    # the next Durchgang drawn while this one plays: the draw asks first
    assert re.search(r'/rounds/2/draw#round-2">\s*<input[^>]*>\s*<button[^>]*data-confirm='
                     r'"2 Tische von Durchgang 1 spielen noch. Durchgang 2 jetzt auslosen\?', page)
    # the first and third places are shared (two players with 0 points and two with 1 at each
    # table): not yet
    refused = client.post(f"{path}/close", follow_redirects=True).get_data(as_text=True)
    assert "Plätze 1, 3 sind geteilt und entscheiden über Preise: bitte zuerst die Lose" in refused
    with app.app_context():
        assert db.session.scalar(select(Tournament)).finished_at is None
        assert not db.session.scalars(select(KasseEntry)).all()
        assert db.session.get(Game, game_a).status == "running"
    while places := re.findall(r"/places/(\d+)/lot", client.get(path).get_data(as_text=True)):
        assert client.post(f"{path}/places/{places[0]}/lot").status_code == 302
    client.post(f"{path}/close")
    with app.app_context():
        assert db.session.scalar(select(Tournament)).finished_at is not None
        booked = [(line.kind, line.cents) for line in db.session.scalars(select(KasseEntry))]
        assert {db.session.get(Game, g).status for g in (game_a, game_b)} == {"closed"}
        hands = db.session.get(Game, game_a).entry_count
        lots = len(db.session.scalars(select(Lot)).all())
    page = client.get(path).get_data(as_text=True)
    actions = re.findall(r'action="([^"]*)"', page)
    for form in ("/lot", "/void", "/draw", "/typed", "/entrants", "/withdraw", "/close"):
        assert not any(form in action for action in actions), form
    # the spectators' page and the TV say it is the final ranking
    spectators = re.search(r'href="http://[^"/]*(/r/[^"?]+)"', page).group(1)
    for address in (spectators, spectators + "?tv=1"):
        heading = re.search(r"<h1>(.*?)</h1>", app.test_client().get(address)
                            .get_data(as_text=True), re.S).group(1)
        assert "Endstand" in heading, address
    # the table's phone: its list is closed
    table_page = phone_.get(f"/g/tanne/games/{game_a}").get_data(as_text=True)
    assert 'name="seq"' not in table_page
    with app.app_context():
        seats = list(db.session.get(Game, game_a).seating)
    answer = phone_.post(f"/g/tanne/games/{game_a}/entries", follow_redirects=True, data={
        "seq": hands + 1, f"hearts-{seats[0]}": "12", f"hearts-{seats[1]}": "1",
        "queen": seats[3]})
    assert "geschlossen" in answer.get_data(as_text=True)
    # the organiser's forms, sent all the same: refused in words, nothing changed
    for address, data in ((f"{path}/places/1/lot", {}),
                          (f"{path}/tables/{table_id}/void", {"reason": "zu spät"}),
                          (f"{path}/rounds/2/draw", {}), (f"{path}/entrants", {"name": "Zora"}),
                          (f"{path}/close", {})):
        sent = client.post(address, data=data, follow_redirects=True)
        assert "Dieses Turnier ist abgeschlossen" in sent.get_data(as_text=True), address
    with app.app_context():
        assert db.session.get(Game, game_a).entry_count == hands
        assert len(db.session.scalars(select(Lot)).all()) == lots
        assert db.session.get(TournamentTable, table_id).voided is None
        assert not db.session.scalars(select(TournamentTable)
                                      .where(TournamentTable.round == 2)).all()
        assert "Zora" not in {e.name for e in db.session.scalars(select(Entrant))}
        assert [(line.kind, line.cents)
                for line in db.session.scalars(select(KasseEntry))] == booked


def test_before_the_first_game_the_ranking_is_the_start_list_without_places_or_prizes(app,
                                                                                       client):
    """Drawn, nothing played: nobody stands first beside a prize, no lot is offered (every
    total is 0); the first game brings the places."""
    path = set_up(client, NAMES[:8])
    draw(client, path, 1)
    (_id, _token, game_id, _seats), *_ = tables(app, 1)
    page = client.get(path).get_data(as_text=True)
    spectators = re.search(r'href="http://[^"/]*(/r/[^"?]+)"', page).group(1)
    for shown in (page, app.test_client().get(spectators).get_data(as_text=True)):
        ranking = shown.split('class="sheet ranking"')[1].split("</table>")[0]
        assert "Noch kein Spiel gespielt" in shown and "1." not in ranking
        assert "50,00" not in ranking and "/lot" not in shown
    # nothing to close yet (it would wait for a lot nobody is offered)
    refused = client.post(f"{path}/close", follow_redirects=True).get_data(as_text=True)
    assert "Noch kein Tisch hat ein Spiel gespielt" in refused
    play_out(client, app, game_id)
    page = client.get(path).get_data(as_text=True)
    ranking = page.split('class="sheet ranking"')[1].split("</table>")[0]
    assert "Noch kein Spiel gespielt" not in page and "<td>1." in ranking and "50,00" in ranking


def test_a_tournament_without_prizes_waits_for_the_lot_of_its_winner_in_those_words(app, client):
    """Without prizes a shared first place still has its lot drawn before closing (it names
    the winner); the message speaks of the winner, not of a prize."""
    path = set_up(client, NAMES[:8], fee="", prizes="")
    draw(client, path, 1)
    for _id, _token, game, _seats in tables(app, 1):
        play_out(client, app, game)  # each table's first two seats: 0 points, first place
    refused = client.post(f"{path}/close", follow_redirects=True).get_data(as_text=True)
    assert "Platz 1 ist geteilt: bitte zuerst das Los um den Sieg ziehen." in refused
    assert "entscheidet über einen Preis" not in refused
    assert client.post(f"{path}/places/1/lot").status_code == 302
    closed = client.post(f"{path}/close", follow_redirects=True).get_data(as_text=True)
    assert "Das Turnier ist abgeschlossen" in closed
    with app.app_context():
        assert db.session.scalar(select(Tournament)).finished_at is not None


def test_who_withdrew_before_playing_is_not_ranked_and_pays_no_fee(app, client):
    """Hartenjagen, where the fewest points win: an entrant who withdrew before the first draw
    has 0 points and would stand first with the first prize; he is not in the ranking, wins
    nothing and is not counted among the fees."""
    path = set_up(client, NAMES[:9])
    with app.app_context():
        gone = db.session.scalar(select(Entrant).where(Entrant.name == NAMES[8]))
    client.post(f"{path}/withdraw", data={"entrant": gone.id})
    draw(client, path, 1)
    for _id, _token, game, _seats in tables(app, 1):
        play_out(client, app, game)
    with app.app_context():
        from scorekeeper.tournament import night
        ranked = night.ranked(db.session.scalar(select(Tournament)))
        assert len(ranked) == 8 and gone.id not in {row.entrant for row in ranked}
    spectators = re.search(r'href="http://[^"/]*(/r/[^"?]+)"',
                           client.get(path).get_data(as_text=True)).group(1)
    assert NAMES[8] not in app.test_client().get(spectators).get_data(as_text=True)
    while places := re.findall(r"/places/(\d+)/lot", client.get(path).get_data(as_text=True)):
        assert client.post(f"{path}/places/{places[0]}/lot").status_code == 302
    client.post(f"{path}/close")
    with app.app_context():
        lines = db.session.scalars(select(KasseEntry).order_by(KasseEntry.id)).all()
        assert (lines[0].kind, lines[0].cents) == ("deposit", 8 * 500)
        assert all(NAMES[8] not in line.note for line in lines)
        assert "8 × 5,00" in lines[0].note


def test_a_name_that_cannot_be_entered_is_named_in_the_message(client):
    client.post("/groups", data={"name": "tanne"})
    page = client.post("/g/tanne/tournaments/new", data={
        "name": "Preisherzeln", "kind": "hartenjagen", "day": "2026-12-05", "rounds": "2",
        "games": "4", "entrants": "Anna\nKarl Schmidt/Schmitt\nMaria-Theresia O'Neill"})
    assert page.status_code == 400
    assert ("Karl Schmidt/Schmitt: Bitte höchstens 40 Zeichen, ohne &lt; &gt; / und \\."
            in page.get_data(as_text=True))
    assert "Maria-Theresia O&#39;Neill" in page.get_data(as_text=True)  # kept as typed


def test_a_tournament_set_up_before_the_worst_result_rule_keeps_its_zero(app, client):
    """A tournament from before (missing "zero", as the migration leaves them): a voided
    table's players count 0 and everybody entered is ranked, as when its Kasse lines were
    booked; one set up now counts the Durchgang's worst."""
    path = set_up(client, NAMES[:9])
    with app.app_context():
        gone = db.session.scalar(select(Entrant).where(Entrant.name == NAMES[8]))
    client.post(f"{path}/withdraw", data={"entrant": gone.id})
    draw(client, path, 1)
    (table_id, _t, game_a, seats_a), (_i, _t2, game_b, _s) = tables(app, 1)
    play_out(client, app, game_a)
    play_out(client, app, game_b)
    client.post(f"{path}/tables/{table_id}/void", data={"reason": "Liste unleserlich"})
    from scorekeeper.tournament import night
    with app.app_context():
        tournament = db.session.scalar(select(Tournament))
        assert tournament.missing == "worst"
        now = {row.entrant: row for row in night.ranked(tournament)}
        tournament.missing = "zero"
        before = {row.entrant: row for row in night.ranked(tournament)}
        db.session.commit()
        names = {e.id: e.name for e in night.entrants(tournament)}
    voided = [i for i, name in names.items() if name in seats_a]
    assert {now[i].durchgaenge for i in voided} == {(13,)} and gone.id not in now
    assert {before[i].durchgaenge for i in voided} == {(0,)} and gone.id in before
    page = client.get(path).get_data(as_text=True)
    assert "Kursiv: Ein gestrichener oder nicht gespielter Durchgang zählt 0." in page


def test_who_withdraws_from_a_durchgang_drawn_but_not_started_is_left_out_when_drawn_again(
        app, client):
    """Anna stops after Durchgang 1 is drawn, before anybody played: drawing it again leaves
    her out (seven cannot sit at tables of four: said so in Durchgang 1)."""
    path = set_up(client, NAMES[:8])
    draw(client, path, 1)
    with app.app_context():
        anna = db.session.scalar(select(Entrant).where(Entrant.name == NAMES[0]))
    client.post(f"{path}/withdraw", data={"entrant": anna.id})
    refused = client.post(f"{path}/rounds/1/draw")
    assert refused.status_code == 400 and "7 Spieler" in section(refused, 1)


def test_a_paper_draw_for_a_durchgang_not_next_is_refused_in_its_own_section(app, client):
    """Typed in for Durchgang 2 before Durchgang 1 is drawn: said in Durchgang 2, not put into
    Durchgang 1's open form (one tap would have seated Durchgang 1 with it)."""
    path = set_up(client, NAMES[:8])
    refused = client.post(f"{path}/rounds/2/typed", data={"tables": "1 2 3 4\n5 6 7 8"})
    assert refused.status_code == 400 and "der Reihe nach" in section(refused, 2)
    assert "<details open>" not in section(refused, 1)


def test_the_tv_leaves_the_line_under_the_ranking_out(app, client):
    """A stood-in result is in italics everywhere; the line saying why is not on the TV, whose
    page is as long as the screen."""
    path = set_up(client, NAMES[:8])
    draw(client, path, 1)
    (table_id, _t, game_a, _s), (_i, _t2, game_b, _s2) = tables(app, 1)
    play_out(client, app, game_b)
    client.post(f"{path}/tables/{table_id}/void", data={"reason": "Liste unleserlich"})
    link = re.search(r'href="http://localhost(/r/[^"?]+)"', client.get(path).get_data(as_text=True))
    spectators = app.test_client().get(link.group(1)).get_data(as_text=True)
    tv = app.test_client().get(link.group(1) + "?tv=1").get_data(as_text=True)
    assert "stood-in" in tv and "Kursiv" not in tv and "Kursiv" in spectators


def test_the_organiser_chooses_the_games_rule_options(app, client):
    """Hartenjagen with two packs to 50: 18 players sit at tables of four and five (one pack
    seats only fours, and 18 do not go into fours); the options the tournament sets itself
    (Cego's games a list, the free list's name) are not asked; another game's options that
    came along count for nothing."""
    client.post("/groups", data={"name": "tanne"})
    page = client.get("/g/tanne/tournaments/new").get_data(as_text=True)
    assert 'name="rule-hartenjagen-decks"' in page and 'name="rule-cego-round_to"' in page
    assert 'name="rule-cego-games"' not in page and 'name="rule-free-list-name"' not in page
    assert 'name="rule-hartenjagen-cents_per_point"' not in page  # money: the prizes
    names = [f"Spieler {n}" for n in range(1, 19)]
    answer = client.post("/g/tanne/tournaments/new", data={
        "name": "Preisherzeln", "kind": "hartenjagen", "day": "2026-12-05", "rounds": "1",
        "games": "1", "entrants": "\n".join(names), "rule-hartenjagen-decks": "2",
        "rule-hartenjagen-target": "50", "rule-hartenjagen-passing": "y",
        "rule-cego-round_to": "20"})
    assert answer.status_code == 302, answer.get_data(as_text=True)
    draw(client, answer.location, 1)
    with app.app_context():
        tournament = db.session.scalar(select(Tournament))
        assert tournament.rules == {"decks": 2, "target": 50}
        sizes = sorted(len(db.session.get(Game, t.game_id).seating) for t in
                       db.session.scalars(select(TournamentTable)))
        assert sizes == [4, 4, 5, 5]
        assert {db.session.get(Game, t.game_id).rules["decks"]
                for t in db.session.scalars(select(TournamentTable))} == {2}
    # the organiser's page says what the tables play by (what differs from the usual)
    said = client.get(answer.location).get_data(as_text=True)
    said = said.split('<details class="rules-said">')[1].split("</details>")[0]
    assert "2 Regeln eingestellt" in said
    assert re.findall(r"<li>.*?: <b>(.*?)</b></li>", said) == ["50", "2"]
    assert "zwei Kartenspielen" in said


def test_a_wrong_rule_option_is_said_at_its_field_and_nothing_is_set_up(app, client):
    client.post("/groups", data={"name": "tanne"})
    answer = client.post("/g/tanne/tournaments/new", data={
        "name": "Preisherzeln", "kind": "hartenjagen", "day": "2026-12-05", "rounds": "1",
        "games": "1", "entrants": "\n".join(NAMES), "rule-hartenjagen-decks": "3",
        "rule-hartenjagen-target": "50"})
    page = answer.get_data(as_text=True)
    assert answer.status_code == 400
    fields = {re.search(r'name="([^"]+)"', label)[1]: label for label in
              re.findall(r'<label class="field[^"]*">.*?</label>', page, re.S)}
    decks = fields["rule-hartenjagen-decks"]
    assert "has-error" in decks and 'value="3"' in decks  # what was typed, and why not
    assert "Bitte eine Zahl von 1 bis 2 eingeben." in decks
    assert 'value="50"' in fields["rule-hartenjagen-target"]
    assert '<details class="tournament-rules" open>' in page  # unfolded at the mistake
    with app.app_context():
        assert db.session.scalar(select(Tournament)) is None


def test_the_organisers_page_says_each_kind_of_option_in_words(client):
    set_up(client, NAMES[:4], kind="cego")  # the usual rules: nothing to say
    assert 'class="rules-said"' not in client.get("/g/tanne/tournaments/1").get_data(as_text=True)
    answer = client.post("/g/tanne/tournaments/new", data={
        "name": "Preiscego Wolfach", "kind": "cego", "day": "2026-12-12", "rounds": "1",
        "games": "4", "entrants": "\n".join(NAMES[:4]), "rule-cego-display": "gute-miese",
        "rule-cego-points_per_fach": "10", "rule-cego-bid_multipliers": "cego 1, halbe 3",
        "rule-cego-cents_per_point": "0,10",  # not asked: a tournament's money is its prizes
        "rule-cego-counting": "pairs"})  # round_losses, a box, not sent: unticked
    assert answer.status_code == 302, answer.get_data(as_text=True)
    page = client.get(answer.location).get_data(as_text=True)
    said = dict(re.findall(r"<li>(.*?): <b>(.*?)</b></li>",
                           page.split('<details class="rules-said">')[1].split("</details>")[0]))
    assert said == {"die gespielten Cego-Spiele und womit ihre Fach malgenommen werden":
                    "cego 1, halbe 3",
                    "auch der Wert eines verlorenen Fach-Spiels wird gerundet": "nein",
                    "wie die Punkte gezeigt werden": "Gute und Miese",
                    "Punkte für ein Fach": "10"}


def test_options_that_no_table_could_play_by_are_refused_at_their_field(app, client):
    """Each option alone is fine, together they clash (a Solo among the fixed games, which the
    list plays anyway): said at the field, nothing set up (the night could never be drawn)."""
    client.post("/groups", data={"name": "tanne"})
    answer = client.post("/g/tanne/tournaments/new", data={
        "name": "Preiscego", "kind": "cego", "day": "2026-12-05", "rounds": "1", "games": "4",
        "entrants": "\n".join(NAMES), "rule-cego-fixed_games": "solo 5"})
    page = answer.get_data(as_text=True)
    assert answer.status_code == 400
    field = re.search(r'<label class="field has-error">(?:(?!</label>).)*'
                      r'name="rule-cego-fixed_games".*?</label>', page, re.S)
    assert field and 'class="error"' in field[0] and "solo 5" in field[0]
    with app.app_context():
        assert db.session.scalar(select(Tournament)) is None


def test_a_tournament_table_cannot_be_deleted_as_a_game_started_by_mistake(app, client):
    """The organiser opens a table before it has played: no 'Spiel löschen' (a deleted table
    stayed on the tournament's page, its phone could enter nothing and no new draw could be
    made); sent all the same, it is refused and the table plays on."""
    path = set_up(client, NAMES[:8])
    draw(client, path, 1)
    (_id, _token, game_id, _seats), _other = tables(app, 1)
    page = client.get(f"/g/tanne/games/{game_id}").get_data(as_text=True)
    assert f"/games/{game_id}/delete" not in page
    answer = client.post(f"/g/tanne/games/{game_id}/delete", follow_redirects=True)
    assert "Ein Turniertisch lässt sich nicht löschen" in answer.get_data(as_text=True)
    with app.app_context():
        assert db.session.get(Game, game_id).status == "running"


def test_a_table_that_has_not_played_yet_does_not_lead_where_the_fewest_win(app, client):
    """Hartenjagen: one table has played a hand, the other not yet. Its four counted 0 and
    shared first place with the prizes beside them; they count the Durchgang's worst result
    (13) until their table plays."""
    path = set_up(client, NAMES[:8])
    draw(client, path, 1)
    (_id, _token, game_id, seats), (_id2, _token2, waiting, others) = tables(app, 1)
    play_out(client, app, game_id)  # 12, 1, 0, 13 in the drawn order
    with app.app_context():
        tournament = db.session.scalar(select(Tournament))
        from scorekeeper.tournament import night
        names = {e.id: e.name for e in night.entrants(tournament)}
        lines = {names[row.entrant]: (row.place, row.total, row.stood_in)
                 for row in night.ranked(tournament)}
    assert lines[seats[2]] == (1, 0, ()) and lines[seats[1]][:2] == (2, 1)
    assert {lines[name] for name in others} == {(4, 13, (1,))}  # the worst, in italics
    play_out(client, app, waiting)  # now they have played: their own results
    with app.app_context():
        lines = {names[row.entrant]: row.total for row in night.ranked(tournament)}
    assert sorted(lines[name] for name in others) == [0, 1, 12, 13]


def test_a_lot_drawn_while_tables_play_says_it_may_not_hold(app, client):
    """Hartenjagen: both tables have played a hand alike (two share first place and the first
    prize) and play on: the lot is offered with what it means while the places can change."""
    path = set_up(client, NAMES[:8])
    draw(client, path, 1)
    for _id, _token, game_id, _seats in tables(app, 1):
        play_out(client, app, game_id)
    page = client.get(path).get_data(as_text=True)
    assert "Es wird noch gespielt: Ein jetzt gezogenes Los gilt nur" in page
    assert "Es wird noch gespielt. Das Los für Platz 1 jetzt ziehen?" in page


def test_a_forms_address_opened_as_a_page_leads_to_the_page_of_the_form(client):
    """Reloaded after a draw was sent back, the address of the draw's form is asked for as a
    page: the tournament's page (it was an English 'Method Not Allowed')."""
    path = set_up(client, NAMES[:8])
    answer = client.get(f"{path}/rounds/1/draw")
    assert answer.status_code == 302 and answer.location == path
    assert client.get("/groups").location == "/"  # a form of the start page


def test_a_start_list_mistake_is_said_with_the_forms_other_mistakes(client):
    """A wrong option and a name too long, sent together: both are said at once (the name
    came only after the option was mended)."""
    client.post("/groups", data={"name": "tanne"})
    long = "Hansjürgenmaximilian Schwarzwälder-Kienzlebäuerin"  # 49 letters
    page = client.post("/g/tanne/tournaments/new", data={
        "name": "Preisherzeln", "kind": "hartenjagen", "day": "2026-12-05", "rounds": "1",
        "games": "1", "entrants": "\n".join([*NAMES[:7], long]),
        "rule-hartenjagen-decks": "3"}).get_data(as_text=True)
    assert "Bitte eine Zahl von 1 bis 2 eingeben." in page
    assert f"{long[:40]}: Bitte höchstens 40 Zeichen" in page
