"""The Kasse's book: the games' pots and rounding, members' deposits and withdrawals typed as
Germans type money, counter entries and deletions with a record, the balance over time, the
share-out by attendance, and the book in the group's export."""

import copy
import datetime as dt
import json
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select
from support import enter, start_game
from test_stammtisch import HARTENJAGEN, evening_of_three_games, import_game

from scorekeeper import games
from scorekeeper.changes import records
from scorekeeper.db import db
from scorekeeper.evenings import ledger
from scorekeeper.models import Game, Group, KasseEntry
from scorekeeper.records import export
from scorekeeper.season import ratings


def group(app):
    return db.session.scalar(select(Group).where(Group.slug == "tanne"))


def balances(client, evening):
    return client.get(evening + "/settlement.json").get_json()["balances_cents"]


def pay(client, kind, amount, note, day="2026-11-28"):
    return client.post("/g/tanne/kasse", data={"kind": kind, "amount": amount, "note": note,
                                               "day": day})


def test_the_book_holds_the_games_pot_and_the_group_page_reads_it(app, client, runner, tmp_path):
    evening = evening_of_three_games(client, runner, tmp_path)
    pot = balances(client, evening)["Kasse"]
    assert pot == 320
    with app.test_request_context():
        rows = db.session.scalars(select(KasseEntry)).all()
        assert [(r.kind, r.cents) for r in rows] == [("game", 320)]
        assert ledger.balance(group(app)) == 320
    page = client.get("/g/tanne/kasse?year=2026").get_data(as_text=True)
    assert "Vier-Anderle #2" in page and "3,20" in page


def test_deposits_and_withdrawals_typed_in_german_change_the_balance(app, client, runner,
                                                                    tmp_path):
    evening_of_three_games(client, runner, tmp_path)
    assert pay(client, "deposit", "12,50", "Strafe: zu spät").status_code == 302
    assert pay(client, "withdrawal", "4", "Kreide").status_code == 302
    assert pay(client, "deposit", "0.30", "Gebühr").status_code == 302
    with app.test_request_context():
        assert ledger.balance(group(app)) == 320 + 1250 - 400 + 30
        book = ledger.book(group(app), 2026)
        assert (book.deposits_cents, book.withdrawals_cents, book.games_cents) == (1280, -400, 320)
        assert [line.balance for line in book.lines] == [320, 1570, 1170, 1200]
        note = db.session.scalar(select(KasseEntry).where(KasseEntry.kind == "deposit"))
        assert note.note == "Strafe: zu spät" and note.entered_by  # who entered it
    page = client.get("/g/tanne/kasse?year=2026").get_data(as_text=True)
    assert "12,00" in page and "Strafe: zu spät" in page and "−4,00" in page.replace("-", "−")
    home = client.get("/g/tanne").get_data(as_text=True)
    assert "12,00" in home.split('class="card kasse"', 1)[1].split("</details>", 1)[0]


def test_bad_amounts_are_refused_at_the_field_and_what_was_typed_stays(app, client, runner,
                                                                      tmp_path):
    evening_of_three_games(client, runner, tmp_path)
    for typed, said in (("12,5x", "Bitte einen Betrag in Euro eingeben, etwa 0,50."),
                        ("abc", "Bitte einen Betrag in Euro eingeben, etwa 0,50."),
                        ("1,234", "Bitte Euro und ganze Cent eingeben, etwa 0,10."),
                        ("0", "Bitte eine Zahl von 0,01 bis 10000000,00 eingeben."),
                        ("-5", "Bitte einen Betrag in Euro eingeben, etwa 0,50."),
                        ("99999999999", "Bitte eine Zahl von 0,01 bis 10000000,00 eingeben."),
                        ("", "Bitte einen Betrag eingeben."),
                        ("   ", "Bitte einen Betrag eingeben.")):
        response = pay(client, "deposit", typed, "Strafe")
        assert response.status_code == 400, typed
        page = response.get_data(as_text=True)
        field = re.search(r'<label class="field has-error">\s*<span>Betrag in Euro</span>.*?'
                          r'</label>', page, re.S)
        assert field, typed
        assert f'value="{typed}"' in field.group(0), typed
        assert f'<small class="error">{said}</small>' in field.group(0), (typed, field.group(0))
        assert 'value="Strafe"' in page  # the note stays too
    response = pay(client, "deposit", "5", "")
    assert response.status_code == 400 and "Bitte angeben, wofür." in response.get_data(
        as_text=True)
    assert pay(client, "bribe", "5", "x").status_code == 400
    assert pay(client, "deposit", "5", "x", day="31.12.2026").status_code == 400
    with app.test_request_context():
        assert ledger.balance(group(app)) == 320  # nothing entered


def test_a_wrong_entry_is_cancelled_or_deleted_and_stays_in_the_book(app, client, runner,
                                                                    tmp_path):
    evening_of_three_games(client, runner, tmp_path)
    pay(client, "deposit", "10,00", "falsch")
    pay(client, "withdrawal", "3,00", "Kerzen")
    with app.test_request_context():
        wrong, candles = db.session.scalars(select(KasseEntry).where(
            KasseEntry.kind != "game").order_by(KasseEntry.id)).all()
        wrong_id, candles_id = wrong.id, candles.id
    assert client.post(f"/g/tanne/kasse/{wrong_id}/cancel").status_code == 302
    assert client.post(f"/g/tanne/kasse/{wrong_id}/cancel").status_code == 302  # once only
    assert client.post(f"/g/tanne/kasse/{wrong_id}/delete").status_code == 302  # cancelled: no
    assert client.post(f"/g/tanne/kasse/{candles_id}/delete").status_code == 302
    with app.test_request_context():
        rows = db.session.scalars(select(KasseEntry).where(KasseEntry.kind != "game")
                                  .order_by(KasseEntry.id)).all()
        assert [(r.cents, r.cancels_id, r.deleted_at is not None) for r in rows] == [
            (1000, None, False), (-300, None, True), (-1000, wrong_id, False)]
        assert rows[1].deleted_by
        assert ledger.balance(group(app)) == 320
    page = client.get(f"/g/tanne/kasse?year={dt.date.today().year}").get_data(as_text=True)
    assert "Kerzen" in page and "gelöscht von" in page and "Gegenbuchung" in page
    # a game's line is no member's entry: it cannot be cancelled or deleted
    with app.test_request_context():
        game_line = db.session.scalar(select(KasseEntry.id).where(KasseEntry.kind == "game"))
    assert client.post(f"/g/tanne/kasse/{game_line}/delete").status_code == 404


def test_the_balance_follows_a_running_game_without_storing_on_each_hand(app, client, runner,
                                                                        tmp_path):
    evening_of_three_games(client, runner, tmp_path)
    table = start_game(client, "vier-anderle", ["A", "B", "C", "D", "E"],
                       rules={"starting_pot": "32", "stake_cents": "0,10"})
    with app.test_request_context():
        stored = [(r.kind, r.cents) for r in db.session.scalars(select(KasseEntry))]
    assert enter(client, table, {"playing-A": "on"}).status_code == 302  # A takes the pot
    with app.test_request_context():
        game = db.session.get(Game, int(table.rsplit("/", 1)[1]))
        _money, house = games.get("vier-anderle").money(game)
        assert house != 0  # the pot changed: the Kasse's part of the running game
        assert ledger.balance(group(app)) == 320 + house
        # the hand wrote nothing into the book: the running game's line is read from its state
        assert [(r.kind, r.cents) for r in db.session.scalars(select(KasseEntry))] == stored


def test_rounding_lines_follow_the_groups_setting(app, client, runner, tmp_path):
    evening = evening_of_three_games(client, runner, tmp_path)
    client.post(evening + "/rounding", data={"rounding": 100})
    kasse = balances(client, evening)["Kasse"]
    with app.test_request_context():
        assert ledger.balance(group(app)) == kasse
        kinds = sorted(r.kind for r in db.session.scalars(select(KasseEntry)))
        assert kinds == ["game", "rounding"]
    # to the nearest euro the Kasse may lose on an evening: the page says it makes up the
    # difference either way (it used to say it takes what is left over)
    page = client.get(evening).get_data(as_text=True)
    assert "die Kasse gleicht den Unterschied aus, ob sie dabei gewinnt oder verliert" in page
    client.post(evening + "/rounding", data={"rounding": 0})
    with app.test_request_context():
        assert ledger.balance(group(app)) == 320


def test_the_evening_page_shows_the_kasses_part(client, runner, tmp_path):
    evening = evening_of_three_games(client, runner, tmp_path)
    pay(client, "deposit", "2,00", "Strafe Hubert", day="2026-11-27")
    page = client.get(evening).get_data(as_text=True)
    part = page.split('class="sheet compact kasse-part"', 1)[1].split("</table>", 1)[0]
    assert "3,20" in part and "Strafe Hubert" in part and "5,20" in part


def test_the_book_of_a_year_carries_the_balance_in(app, client, runner, tmp_path):
    evening_of_three_games(client, runner, tmp_path)  # 2026-11-27: 3,20
    pay(client, "deposit", "1,00", "Beitrag 2025", day="2025-03-01")
    pay(client, "withdrawal", "4,20", "Essen", day="2027-01-10")
    with app.test_request_context():
        book = ledger.book(group(app), 2026)
        assert (book.opening, book.closing) == (100, 420)
        later = ledger.book(group(app), 2027)
        assert (later.opening, later.closing) == (420, 0)
        assert ledger.book(group(app)).closing == 0 == ledger.balance(group(app))
        assert book.years == [2027, 2026, 2025]


def test_the_balance_is_shared_out_by_evenings_attended(app, client, runner, tmp_path):
    evening_of_three_games(client, runner, tmp_path)  # A B C D E on 2026-11-27
    import_game(runner, tmp_path, HARTENJAGEN, day="2026-12-04")  # A B C D again
    pay(client, "deposit", "0,80", "Strafen", day="2026-12-04")  # 4,00 in all
    with app.test_request_context():
        book = ledger.book(group(app), 2026)
        assert book.closing == 400
        shares = {s.player: (s.evenings, s.cents) for s in book.split}
        # 9 evenings attended: 400 * 2/9 = 88.9 each for A-D, 400/9 = 44.4 for E
        assert shares == {"A": (2, 89), "B": (2, 89), "C": (2, 89), "D": (2, 89), "E": (1, 44)}
        assert sum(s.cents for s in book.split) == book.closing
    page = client.get("/g/tanne/kasse?year=2026").get_data(as_text=True)
    assert "Aufteilen nach Anwesenheit" in page and "0,89" in page


def test_the_chronicle_carries_the_book_and_the_ratings(app, client, runner, tmp_path):
    """`chronicle --json` has the year's book (what the page shows, in cents) and the ratings;
    the text says the balances and the share-out."""
    evening_of_three_games(client, runner, tmp_path)  # A B C D E on 2026-11-27: 3,20
    pay(client, "deposit", "1,00", "Beitrag 2025", day="2025-03-01")
    pay(client, "deposit", "0,80", "Strafen", day="2026-12-04")
    pay(client, "withdrawal", "0,50", "Kreide", day="2026-12-04")
    found = json.loads(runner.invoke(args=["chronicle", "tanne", "--year", "2026",
                                           "--json"]).output)
    kasse = found["kasse"]
    assert (kasse["opening"], kasse["games"], kasse["paid_in"], kasse["paid_out"],
            kasse["closing"]) == (100, 320, 80, -50, 450)
    assert [(line["kind"], line["cents"], line["balance"], line["note"])
            for line in kasse["lines"]] == [("game", 320, 420, ""), ("deposit", 80, 500, "Strafen"),
                                            ("withdrawal", -50, 450, "Kreide")]
    assert sum(share["cents"] for share in kasse["share_out"]) == kasse["closing"]
    assert {share["player"] for share in kasse["share_out"]} == set("ABCDE")
    with app.test_request_context():
        shown = ratings.season(group(app), 2026)
    assert set(found["ratings"]) == set(shown) and found["ratings"]
    for kind, rows in shown.items():
        assert [(r["player"], r["rating"], r["games"]) for r in found["ratings"][kind]] == \
            [(r.player, r.number, r.games) for r in rows]
    text = runner.invoke(args=["chronicle", "tanne", "--year", "2026"]).output
    assert "Kasse: 1.00 € carried in, games 3.20 €, paid in 0.80 €, paid out -0.50 €, " \
        "4.50 € at the end" in text
    assert "share-out by evenings: " in text and "rating vier-anderle: " in text
    quiet = runner.invoke(args=["chronicle", "tanne", "--year", "2025"]).output  # no games
    assert "no games this year" in quiet and "Kasse: 0.00 € carried in" in quiet and \
        "1.00 € at the end" in quiet


@given(st.dictionaries(st.text("ABCDEFG", min_size=1, max_size=3), st.integers(0, 60),
                       max_size=8), st.integers(-10**6, 10**9))
def test_a_share_out_adds_up_to_the_balance_to_the_cent(evenings, cents):
    shares = ledger.share_out(cents, evenings)
    if cents <= 0 or not sum(evenings.values()):
        assert shares == []
        return
    assert sum(s.cents for s in shares) == cents
    total = sum(evenings.values())
    for share in shares:  # nobody is more than a cent from the exact share
        assert abs(share.cents - cents * share.evenings / total) < 1


ENTRY = st.tuples(st.sampled_from(["deposit", "withdrawal", "cancel", "delete"]),
                  st.integers(1, 10**7), st.integers(0, 40))


@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(ENTRY, max_size=12))
def test_the_balance_is_the_sum_of_the_entries_and_the_games_pots(app, client, runner,
                                                                 tmp_path, actions):
    """Whatever members enter, cancel and delete: the balance is what the games put in plus
    every entry that counts, each year's book carries on from the one before, and each game's
    money with the Kasse's part adds up to nothing (money is neither made nor lost)."""
    with app.test_request_context():
        if group(app) is None:
            evening_of_three_games(client, runner, tmp_path)
        group_ = group(app)
        for kind, cents, pick in actions:
            entries = db.session.scalars(select(KasseEntry).where(
                KasseEntry.kind.in_(ledger.ENTERED)).order_by(KasseEntry.id)).all()
            if kind in ledger.ENTERED:
                ledger.enter(group_, kind, cents, "x", dt.date(2025 + pick % 3, 1, 1 + pick % 28),
                             "test")
            elif entries:
                entry = entries[pick % len(entries)]
                if kind == "cancel" and ledger.cancellable(entry):
                    ledger.cancel(entry, dt.date(2027, 6, 1), "test")
                elif kind == "delete" and ledger.deletable(entry):
                    ledger.delete_entry(entry, "test")
        db.session.commit()
        rows = db.session.scalars(select(KasseEntry)).all()
        counted = sum(r.cents for r in rows if r.deleted_at is None)
        games_part = sum(r.cents for r in rows if r.kind in ledger.FROM_GAMES)
        assert ledger.balance(group_) == counted
        assert ledger.book(group_).closing == counted
        carried = ledger.book(group_, 2024).closing
        for year in (2025, 2026, 2027):
            book = ledger.book(group_, year)
            assert book.opening == carried
            assert book.closing == book.opening + book.games_cents + book.deposits_cents \
                + book.withdrawals_cents
            carried = book.closing
        assert carried == counted
        for game in db.session.scalars(select(Game)):
            money, house = games.get(game.kind).money(game)
            assert sum(money.values()) + house == 0
        assert games_part == sum(games.get(g.kind).money(g)[1]
                                 for g in db.session.scalars(select(Game)))
        # a counter entry always takes back exactly what it cancels
        by_id = {r.id: r for r in rows}
        assert all(r.cents == -by_id[r.cancels_id].cents for r in rows if r.cancels_id)


def test_the_book_travels_with_the_groups_export(app, client, runner, tmp_path):
    evening_of_three_games(client, runner, tmp_path)
    pay(client, "deposit", "10,00", "falsch")
    pay(client, "withdrawal", "3,00", "Kerzen")
    pay(client, "deposit", "1,50", "Strafe")
    with app.test_request_context():
        first, second, _third = db.session.scalars(select(KasseEntry.id).where(
            KasseEntry.kind != "game").order_by(KasseEntry.id)).all()
    client.post(f"/g/tanne/kasse/{first}/cancel")
    client.post(f"/g/tanne/kasse/{second}/delete")
    exported = client.get("/g/tanne/export.json").get_json()
    assert [(e["kind"], e["cents"], e.get("cancels"), "deleted_at" in e)
            for e in exported["kasse"]] == [("deposit", 1000, None, False),
                                            ("withdrawal", -300, None, True),
                                            ("deposit", 150, None, False),
                                            ("deposit", -1000, 0, False)]
    copy_ = copy.deepcopy(exported)
    copy_["slug"] = "kopie"
    with app.test_request_context():
        before = ledger.book(group(app), None)
        imported = records.import_group(copy_)
        after = ledger.book(imported, None)
        assert after.closing == before.closing == 320 + 150
        assert [(line.kind, line.cents, line.counted) for line in after.lines] == \
            [(line.kind, line.cents, line.counted) for line in before.lines]
        again = export.group_json(imported)
    assert again["kasse"] == exported["kasse"]
    for bad, where in (({"cancels": 3}, "kasse[0].cancels"), ({"kind": "fine"}, "kasse[0].kind"),
                       ({"cents": "12,50"}, "kasse[0].cents"), ({"cents": 0}, "kasse[0].cents"),
                       ({"day": "gestern"}, "kasse[0].day")):
        document = copy.deepcopy(exported)
        document["slug"] = "kaputt"
        document["kasse"][0].update(bad)
        with app.test_request_context():
            try:
                records.import_group(document)
            except ValueError as error:
                assert str(error).startswith(where), error
            else:
                raise AssertionError(f"{bad} was imported")


def test_a_year_no_calendar_holds_shows_the_usual_page_not_a_500(app, client, runner, tmp_path):
    """datetime holds no year 0 or 1 before it: ?year=0000 is this year's book, ?season=0000
    all seasons, a head to head of ?year=0000 all years."""
    evening_of_three_games(client, runner, tmp_path)
    for path in ("/g/tanne/kasse?year=0000", "/g/tanne/kasse?year=0001",
                 "/g/tanne/standings?season=0000", "/g/tanne/players/1?year=0000"):
        assert client.get(path).status_code == 200, path
