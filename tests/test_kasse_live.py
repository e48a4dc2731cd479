"""Every entry in the Kasse's book is news for the other phones: a deposit, a withdrawal, a
counter entry, a deletion, a fine booked at the evening and one undone each change the group's
live version and tell the group's open streams to ask for it (the evening, standings and TV
pages show the Kasse). test_kasse_book.py has the book itself, test_live_stream.py the streams."""

from sqlalchemy import select
from support import phone, start_game
from test_live_stream import events, waiting

from scorekeeper.db import db
from scorekeeper.models import Fine, KasseEntry

EVENING = "/g/tanne/evenings/1"  # today's, the group's first


def _id(app, model, *where):
    with app.app_context():
        return db.session.scalar(select(model.id).where(*where).order_by(model.id.desc()))


def test_each_kasse_entry_reaches_the_other_phones(app, client):
    start_game(client, "hartenjagen", ["A", "B", "C", "D"])  # the evening's players
    assert client.post("/g/tanne/kasse/fines", data={"name": "zu spät", "amount": "1,50",
                                                     "kind": "player"}).status_code == 302
    fine = _id(app, Fine)
    other = phone(app)  # the evening page on another phone, its stream open
    stream, response = events(other, "/g/tanne/live/stream")
    seen = [next(stream)]
    assert seen == [other.get("/g/tanne/live").get_json()["version"]]

    def entered(what, path, data):
        assert client.post(path, data=data).status_code == 302, what
        assert waiting(app, [1]) == [1], what  # the entry's commit told the stream
        assert next(stream) == "?", what
        version = other.get("/g/tanne/live").get_json()["version"]
        assert version not in seen, what  # and the other phone, asking, finds it new
        seen.append(version)

    entered("a deposit", "/g/tanne/kasse",
            {"kind": "deposit", "amount": "10,00", "note": "Strafen"})
    deposit = _id(app, KasseEntry, KasseEntry.kind == "deposit")
    entered("a withdrawal", "/g/tanne/kasse",
            {"kind": "withdrawal", "amount": "3", "note": "Kreide"})
    withdrawal = _id(app, KasseEntry, KasseEntry.kind == "withdrawal")
    entered("a counter entry", f"/g/tanne/kasse/{deposit}/cancel", {})
    entered("a deletion", f"/g/tanne/kasse/{withdrawal}/delete", {})
    entered("a fine booked", EVENING + "/fines", {"fine": fine, "player": "B"})
    booked = _id(app, KasseEntry, KasseEntry.kind == "fine")
    entered("a fine undone", f"{EVENING}/fines/{booked}/undo", {})
    with app.app_context():  # each did what it says
        rows = db.session.execute(select(KasseEntry.kind, KasseEntry.cents,
                                         KasseEntry.deleted_at.is_not(None))
                                  .where(KasseEntry.kind != "game").order_by(KasseEntry.id)).all()
    assert [tuple(row) for row in rows] == [("deposit", 1000, False), ("withdrawal", -300, True),
                                            ("deposit", -1000, False), ("fine", 150, True)]
    response.close()
