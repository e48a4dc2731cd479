"""Signing an evening off, the Kasse's fines and a withdrawal that would empty the Kasse: the
table confirms or objects, a correction asks again, the evening locks and refuses changes, a
member reopens it; fines land in the settlement and the book."""

import copy
import datetime as dt
import html
import re

from sqlalchemy import select, update
from test_corrections import confirm_form
from test_stammtisch import HARTENJAGEN, HINTERSCHE, import_game

from scorekeeper.db import db
from scorekeeper.evenings import ledger, signoff
from scorekeeper.models import Evening, Group, KasseEntry, Player, Signoff

PLAYERS = ["A", "B", "C", "D"]


def evening_of_two_games(runner, tmp_path):
    """Hintersche and Hartenjagen, both over, at one evening: A, B, C and D played."""
    hintersche, evening = import_game(runner, tmp_path, HINTERSCHE)
    hartenjagen, _ = import_game(runner, tmp_path, HARTENJAGEN)
    return evening, hintersche, hartenjagen


def say(client, evening, player, verdict="ok", note=""):
    return client.post(evening + "/signoff", data={"player": player, "verdict": verdict,
                                                   "note": note})


def text(response):
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.get_data(as_text=True))).split())


def balances(client, evening):
    return client.get(evening + "/settlement.json").get_json()["balances_cents"]


def row_of(app, evening):
    with app.app_context():
        return db.session.get(Evening, int(evening.rsplit("/", 1)[1]))


def test_everyone_confirms_and_the_evening_locks_against_every_change(app, client, runner,
                                                                      tmp_path):
    evening, hintersche, hartenjagen = evening_of_two_games(runner, tmp_path)
    page = text(client.get(evening))
    assert "Abend abschließen" in page
    assert client.post(evening + "/signoff/ask").status_code == 302
    asked = text(client.get(evening))
    assert "0 von 4 Spielern haben das Ergebnis" in asked
    for name in PLAYERS[:3]:
        assert say(client, evening, name).status_code == 302
    assert row_of(app, evening).locked_at is None  # D has not confirmed yet
    assert say(client, evening, "D").status_code == 302
    locked = text(client.get(evening))
    assert "Abgeschlossen am" in locked and "Abend wieder öffnen" in locked
    assert row_of(app, evening).locked_at is not None
    stored = client.get(hartenjagen + "/record.json").get_json()
    refused = "Dieser Abend ist abgeschlossen"
    # a correction, an undo and a payment's tick are refused with one sentence why
    response = client.post(hartenjagen + "/entries/1", data={"hearts-A": 4, "hearts-C": 9,
                                                             "queen": "B"}, follow_redirects=True)
    assert refused in text(response)
    response = client.post(hartenjagen + "/undo", data={"seq": 6}, follow_redirects=True)
    assert refused in text(response)
    assert client.get(hartenjagen + "/record.json").get_json() == stored
    # the money is final; ticking off who has paid stays open, as at the table
    settled = balances(client, evening)
    payment = client.get(evening + "/settlement.json").get_json()["payments"][0]
    assert client.post(evening + "/paid", data={"payer": payment["from"], "payee": payment["to"],
                                                "cents": payment["cents"], "paid": 1}
                       ).status_code == 302
    assert [p["paid"] for p in client.get(evening + "/settlement.json")
            .get_json()["payments"]].count(True) == 1
    assert balances(client, evening) == settled
    # a game started from the locked evening starts an evening of its own on that day
    response = client.post("/g/tanne/games/new?evening=" + evening.rsplit("/", 1)[1], data={
        "kind": "hartenjagen", "order": "A\nB\nC\nD", "first_dealer": "A",
        **{f"seat-{n}": "on" for n in PLAYERS}}, follow_redirects=True)
    assert response.status_code == 200 and "eigenen Abend, (2)" in text(response)
    with app.app_context():
        places = db.session.scalars(select(Evening.place).order_by(Evening.id)).all()
    assert places == ["", "(2)"]
    assert balances(client, evening) == settled


def test_an_objection_is_answered_by_a_correction_and_everyone_confirms_again(app, client,
                                                                              runner, tmp_path):
    evening, hintersche, hartenjagen = evening_of_two_games(runner, tmp_path)
    client.post(evening + "/signoff/ask")
    assert say(client, evening, "A").status_code == 302
    empty = say(client, evening, "C", "objection", "  ")
    assert empty.status_code == 400 and "Bitte sagen, was nicht stimmt." in text(empty)
    assert say(client, evening, "C", "objection", "Hand 1: ich hatte 9 Herzen").status_code == 302
    page = text(client.get(evening))
    assert "C widerspricht" in page or "Hand 1: ich hatte 9 Herzen" in page
    for name in ("B", "D"):
        say(client, evening, name)
    assert row_of(app, evening).locked_at is None  # the objection holds it
    before = balances(client, evening)
    preview = client.post(hartenjagen + "/entries/1", data={"hearts-A": 4, "hearts-C": 9,
                                                            "queen": "B"}, follow_redirects=True)
    assert client.post(hartenjagen + "/entries/1",
                       data=confirm_form(preview.get_data(as_text=True))).status_code == 302
    assert balances(client, evening) != before
    # the money changed: everybody is asked again, the earlier "right"s no longer count
    assert "0 von 4 Spielern" in text(client.get(evening))
    for name in PLAYERS:
        say(client, evening, name)
    assert row_of(app, evening).locked_at is not None
    with app.app_context():
        kinds = db.session.scalars(select(Signoff.kind).order_by(Signoff.id)).all()
    assert kinds[:4] == ["ask", "ok", "objection", "ok"] and kinds[-1] == "lock"
    assert "ask" in kinds[5:]  # the correction asked again


def test_the_window_locks_an_evening_nobody_objected_to(app, client, runner, tmp_path,
                                                        monkeypatch):
    evening, *_ = evening_of_two_games(runner, tmp_path)
    client.post(evening + "/signoff/ask")
    say(client, evening, "A")
    later = dt.datetime.now(dt.UTC).replace(tzinfo=None) + dt.timedelta(hours=25)
    monkeypatch.setattr(signoff, "now", lambda: later)
    assert "Abgeschlossen am" in text(client.get(evening))
    reopened = client.post(evening + "/reopen", data={"reason": ""})
    assert reopened.status_code == 400 and "Bitte sagen, warum" in text(reopened)
    assert client.post(evening + "/reopen",
                       data={"reason": "Gabi hat falsch gezählt"}).status_code == 302
    page = text(client.get(evening))
    assert "0 von 4 Spielern" in page and "Gabi hat falsch gezählt" in page
    # an objection keeps it open however long it waits
    say(client, evening, "B", "objection", "Runde 3 fehlt")
    monkeypatch.setattr(signoff, "now", lambda: later + dt.timedelta(days=3))
    assert "Abgeschlossen am" not in text(client.get(evening))


def test_a_running_game_must_end_first_and_a_new_one_withdraws_the_question(app, client, runner,
                                                                           tmp_path):
    record = dict(HARTENJAGEN, hands=HARTENJAGEN["hands"][:2])
    running, evening = import_game(runner, tmp_path, record)
    response = client.post(evening + "/signoff/ask", follow_redirects=True)
    assert "Erst die laufenden Spiele beenden" in text(response)
    assert row_of(app, evening).signoff_at is None
    client.post(running + "/close")
    client.post(evening + "/signoff/ask")
    assert row_of(app, evening).signoff_at is not None
    import_game(runner, tmp_path, record)  # another game at the same evening
    assert row_of(app, evening).signoff_at is None


def test_the_rounding_the_table_was_asked_about_stays(app, client, runner, tmp_path):
    evening, *_ = evening_of_two_games(runner, tmp_path)
    client.post(evening + "/signoff/ask")
    before = balances(client, evening)
    assert client.post(evening + "/rounding", data={"rounding": 100}).status_code == 302
    assert balances(client, evening) == before


def test_fines_from_the_catalogue_land_in_the_settlement_and_the_book(app, client, runner,
                                                                      tmp_path):
    evening, *_ = evening_of_two_games(runner, tmp_path)
    for name, amount, kind in (("zu spät", "1,50", "player"), ("Runde", "0,80", "others"),
                               ("Abendgebühr", "2", "all")):
        assert client.post("/g/tanne/kasse/fines", data={"name": name, "amount": amount,
                                                         "kind": kind}).status_code == 302
    bad = client.post("/g/tanne/kasse/fines", data={"name": "Karten vergessen", "amount": "1,5x",
                                                    "kind": "player"})
    assert bad.status_code == 400 and 'value="1,5x"' in bad.get_data(as_text=True)
    # what was typed stays in the catalogue's form only, not in the deposit form beside it
    deposit = re.search(r'<input[^>]*id="amount"[^>]*>', bad.get_data(as_text=True)).group(0)
    assert 'value=""' in deposit
    again = client.post("/g/tanne/kasse/fines", data={"name": "Zu Spät", "amount": "1",
                                                      "kind": "player"})
    assert again.status_code == 400
    assert "Eine Strafe mit diesem Namen steht schon im Katalog." in text(again)
    with app.app_context():
        fines = {f.name: f.id for f in ledger.catalogue(db.session.scalar(select(Group)))}
    before = balances(client, evening)
    page = text(client.get(evening))
    assert "zu spät · 1,50 €" in page
    assert client.post(evening + "/fines", data={"fine": fines["zu spät"],
                                                 "player": "B"}).status_code == 302
    assert client.post(evening + "/fines", data={"fine": fines["Runde"],
                                                 "player": "C"}).status_code == 302
    assert client.post(evening + "/fines", data={"fine": fines["Abendgebühr"]}).status_code == 302
    after = balances(client, evening)
    assert after["B"] == before["B"] - 150 - 80 - 200
    assert after["C"] == before["C"] - 200  # C's round: the others pay it
    assert after["A"] == before["A"] - 80 - 200
    assert after["Kasse"] == before.get("Kasse", 0) + 150 + 3 * 80 + 4 * 200
    assert sum(after.values()) == 0
    book = text(client.get("/g/tanne/kasse?year=2026"))
    assert "zu spät · B" in book and "Runde (C) · A" in book  # whose round it was
    # undone like any entry: the round's three lines go together, kept struck through
    with app.app_context():
        line = db.session.scalar(select(KasseEntry).where(KasseEntry.note.startswith("Runde")))
    assert client.post(f"{evening}/fines/{line.id}/undo").status_code == 302
    undone = balances(client, evening)
    assert undone["A"] == before["A"] - 200 and undone["C"] == before["C"] - 200
    assert "<s>Runde (C): A, B, D</s>" in client.get(evening).get_data(as_text=True)
    # a fine on somebody who did not play is refused
    response = client.post(evening + "/fines", data={"fine": fines["zu spät"], "player": "Zoe"},
                           follow_redirects=True)
    assert "Zoe hat an diesem Abend nicht gespielt." in text(response)


def test_a_withdrawal_beyond_what_the_kasse_holds_asks_first(app, client, runner, tmp_path):
    evening_of_two_games(runner, tmp_path)
    client.post("/g/tanne/kasse", data={"kind": "deposit", "amount": "7", "note": "Strafen",
                                        "day": "2026-11-28"})
    data = {"kind": "withdrawal", "amount": "10,00", "note": "Brotzeit", "day": "2026-11-28"}
    asked = client.post("/g/tanne/kasse", data=data)
    assert asked.status_code == 409
    said = text(asked)
    assert "Laut Kassenbuch hat die Kasse 7,00 €" in said and "−3,00 €" in said.replace("-", "−")
    with app.app_context():
        assert ledger.balance(db.session.scalar(select(Group))) == 700
    assert client.post("/g/tanne/kasse", data={**data, "amount": "11", "confirmed": "1000"}
                       ).status_code == 409  # confirmed for 10,00 €, not for more
    assert client.post("/g/tanne/kasse", data={**data, "confirmed": "1000"}).status_code == 302
    with app.app_context():
        assert ledger.balance(db.session.scalar(select(Group))) == -300
    # what the Kasse can pay goes straight in
    client.post("/g/tanne/kasse", data={"kind": "deposit", "amount": "5", "note": "x",
                                        "day": "2026-11-28"})
    assert client.post("/g/tanne/kasse", data={**data, "amount": "2"}).status_code == 302


def test_fines_and_the_signing_off_travel_with_the_groups_export(app, client, runner, tmp_path):
    evening, *_ = evening_of_two_games(runner, tmp_path)
    client.post("/g/tanne/kasse/fines", data={"name": "zu spät", "amount": "1", "kind": "player"})
    with app.app_context():
        fine = ledger.catalogue(db.session.scalar(select(Group)))[0].id
    client.post(evening + "/fines", data={"fine": fine, "player": "A"})
    client.post(evening + "/rounding", data={"rounding": 50})
    client.post(evening + "/signoff/ask")
    client.post("/g/tanne/kasse", data={"kind": "withdrawal", "amount": "0,10", "note": "Kreide",
                                        "day": "2026-11-28"})  # the Kasse holds 1,00 €
    say(client, evening, "B", "objection", "zu viel")
    for name in PLAYERS:
        say(client, evening, name)
    exported = client.get("/g/tanne/export.json").get_json()
    item = exported["evenings"][0]
    assert [f["player"] for f in item["fines"]] == ["A"] and exported["fines"][0]["cents"] == 100
    assert item["signoff"]["locked_at"] and item["signoff"]["rounding_cents"] == 50
    assert [s["kind"] for s in item["signoff"]["steps"]] == ["ask", "objection", "ok", "ok",
                                                             "ok", "ok", "lock"]
    client.post(evening + "/rounding", data={"rounding": 100})  # the group's, not the evening's
    exported = client.get("/g/tanne/export.json").get_json()
    from scorekeeper.changes import records
    from scorekeeper.records import export
    exported["slug"] = "kopie"
    with app.test_request_context():
        copy_ = records.import_group(exported)
        again = export.group_json(copy_)
        assert again["evenings"] == exported["evenings"]
        assert again["fines"] == exported["fines"] and again["kasse"] == exported["kasse"]
        imported = db.session.scalars(select(Evening).where(Evening.group_id == copy_.id)).one()
        assert signoff.locked(imported, copy_)
    bad = copy.deepcopy(exported)
    bad["slug"] = "kaputt"
    bad["evenings"][0]["signoff"]["steps"][0]["kind"] = "vielleicht"
    with app.test_request_context():
        try:
            records.import_group(bad)
        except ValueError as error:
            assert str(error).startswith("evenings[0].signoff.steps[0].kind"), error
        else:
            raise AssertionError("a made-up step was imported")


def test_the_group_chooses_its_window(app, client, runner, tmp_path, monkeypatch):
    evening, *_ = evening_of_two_games(runner, tmp_path)
    assert client.post(evening + "/signoff/hours", data={"hours": 6}).status_code == 302
    assert client.post(evening + "/signoff/hours", data={"hours": 5}).status_code == 400
    client.post(evening + "/signoff/ask")
    asked = dt.datetime.now(dt.UTC).replace(tzinfo=None)
    monkeypatch.setattr(signoff, "now", lambda: asked + dt.timedelta(hours=5))
    assert "Abgeschlossen am" not in text(client.get(evening))
    monkeypatch.setattr(signoff, "now", lambda: asked + dt.timedelta(hours=7))
    assert "Abgeschlossen am" in text(client.get(evening))


def test_the_standings_and_the_season_mark_the_evenings_not_signed_off(app, client, runner,
                                                                       tmp_path):
    evening, *_ = evening_of_two_games(runner, tmp_path)
    other, _ = import_game(runner, tmp_path, HARTENJAGEN, day="2026-11-28")
    mark = "Noch nicht abgeschlossen, das Geld kann sich noch ändern:"
    for page in ("/g/tanne/standings", "/g/tanne/seasons/2026"):
        said = text(client.get(page)).replace(" ,", ",")
        assert f"{mark} 27.11.26, 28.11.26" in said, page
    client.post(evening + "/signoff/ask")
    for name in PLAYERS:
        say(client, evening, name)
    for page in ("/g/tanne/standings", "/g/tanne/seasons/2026"):
        said = text(client.get(page))
        assert f"{mark} 28.11.26" in said and f"{mark} 27.11.26" not in said, page


def test_a_window_lock_holds_whatever_the_group_sets_or_renames_later(app, client, runner,
                                                                      tmp_path, monkeypatch):
    evening, *_ = evening_of_two_games(runner, tmp_path)
    client.post("/g/tanne/kasse/fines", data={"name": "zu spät", "amount": "1", "kind": "player"})
    with app.app_context():
        fine = ledger.catalogue(db.session.scalar(select(Group)))[0].id
        bernd = db.session.scalar(select(Player.id).where(Player.name == "B"))
    client.post(evening + "/fines", data={"fine": fine, "player": "B"})
    client.post(evening + "/signoff/ask")
    say(client, evening, "B")
    later = dt.datetime.now(dt.UTC).replace(tzinfo=None) + dt.timedelta(hours=25)
    monkeypatch.setattr(signoff, "now", lambda: later)
    assert "von selbst" in text(client.get(evening))
    kasse = client.get("/g/tanne/kasse?year=2026").get_data(as_text=True)
    assert "zu spät · B" in kasse and "/delete" not in kasse  # signed as it is
    # a longer window counts from the next question on: this one is over
    client.post(evening + "/signoff/hours", data={"hours": 168})
    assert "Abgeschlossen am" in text(client.get(evening))
    # a rename carries the fine and the "right" along and asks nobody again
    assert client.post(f"/g/tanne/players/{bernd}", data={"name": "Bernd"}).status_code == 302
    after = balances(client, evening)
    assert "B" not in after and after["Bernd"] < 0
    page = text(client.get(evening))
    assert "Abgeschlossen am" in page and "Bernd: stimmt" in page
    with app.app_context():
        assert db.session.scalar(select(KasseEntry.player).where(KasseEntry.kind == "fine")) \
            == "Bernd"


def test_players_confirming_at_the_same_moment_lock_it_too(app, client, runner, tmp_path):
    evening, *_ = evening_of_two_games(runner, tmp_path)
    client.post(evening + "/signoff/ask")
    with app.app_context():  # four "right"s written side by side: none of them saw the others
        row = db.session.get(Evening, int(evening.rsplit("/", 1)[1]))
        db.session.add_all(Signoff(evening_id=row.id, round=row.signoff_round, kind="ok",
                                   player=name) for name in PLAYERS)
        db.session.commit()
        assert row.locked_at is None
    assert "Abgeschlossen am" in text(client.get(evening))
    response = client.post(evening + "/fines", data={"fine": 1, "player": "A"})
    assert response.status_code in (302, 404)
    assert balances(client, evening).get("Kasse", 0) == 0


def test_nothing_ends_starts_or_imports_into_a_signed_off_evening(app, client, runner, tmp_path):
    record = dict(HARTENJAGEN, hands=HARTENJAGEN["hands"][:2])
    running, evening = import_game(runner, tmp_path, record)
    with app.app_context():  # signed off with a game running: only an older app let it happen
        row = db.session.get(Evening, int(evening.rsplit("/", 1)[1]))
        row.locked_at = row.signoff_at = dt.datetime(2026, 11, 27, 23)
        row.signoff_round = 1
        db.session.commit()
    refused = "Dieser Abend ist abgeschlossen"
    assert refused in text(client.post(running + "/close", follow_redirects=True))
    assert refused in text(client.post(running + "/delete", follow_redirects=True))
    assert client.get(running + "/state.json").get_json()["status"] == "running"
    path = tmp_path / "more.json"
    path.write_text(__import__("json").dumps(record))
    result = runner.invoke(args=["import", str(path), "--group", "tanne",
                                 "--evening", "2026-11-27"])
    assert result.exit_code != 0 and "signed off" in result.output


def test_a_game_running_meanwhile_withdraws_the_question_and_its_end_asks_again(
        app, client, runner, tmp_path):
    evening, hintersche, hartenjagen = evening_of_two_games(runner, tmp_path)
    client.post(evening + "/signoff/ask")
    say(client, evening, "A")
    record = dict(HARTENJAGEN, hands=HARTENJAGEN["hands"][:2])
    running, _ = import_game(runner, tmp_path, record)
    assert row_of(app, evening).signoff_at is None
    assert "Spiel läuft: die Frage ruht" in text(client.get(evening))
    client.post(running + "/close")
    assert row_of(app, evening).signoff_at is not None
    assert "0 von 4 Spielern" in text(client.get(evening))


def test_a_fine_is_undone_only_with_its_own_evenings_lines(app, client, runner, tmp_path):
    evening, *_ = evening_of_two_games(runner, tmp_path)
    _, other = import_game(runner, tmp_path, HARTENJAGEN, day="2026-11-28")
    client.post("/g/tanne/kasse/fines", data={"name": "Runde", "amount": "1", "kind": "others"})
    with app.app_context():
        fine = ledger.catalogue(db.session.scalar(select(Group)))[0].id
    for night in (evening, other):
        client.post(night + "/fines", data={"fine": fine, "player": "A"})
    with app.app_context():  # one batch name in both evenings, as a file could bring
        db.session.execute(update(KasseEntry).values(batch="same"))
        db.session.commit()
        line = db.session.scalar(select(KasseEntry).where(KasseEntry.kind == "fine")
                                 .order_by(KasseEntry.id))
    assert "Gegenbuchung" not in text(client.get("/g/tanne/kasse?year=2026"))
    client.post(f"{evening}/fines/{line.id}/undo")
    assert balances(client, evening).get("Kasse", 0) == 0
    assert balances(client, other)["Kasse"] == 300


def test_an_export_with_a_made_up_rounding_is_refused_at_its_place(app, client, runner,
                                                                   tmp_path):
    evening, *_ = evening_of_two_games(runner, tmp_path)
    client.post(evening + "/signoff/ask")
    exported = client.get("/g/tanne/export.json").get_json()
    from scorekeeper.changes import records
    for bad in (False, 20, "10"):
        document = copy.deepcopy(exported)
        document["slug"] = "kaputt"
        document["evenings"][0]["signoff"]["rounding_cents"] = bad
        with app.test_request_context():
            try:
                records.import_group(document)
            except ValueError as error:
                assert str(error).startswith("evenings[0].signoff.rounding_cents"), error
            else:
                raise AssertionError(f"{bad!r} was imported")
