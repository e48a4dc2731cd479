"""A table this phone never opened, opened without network (issue 26): the service worker has no
copy of it, and the page says plainly what the table can do instead (paper, or a phone that had
the table open), with a button that opens the table once the network is back."""

import pytest
from conftest import PHONE, Shots
from test_play import set_up_group, start, tap
from test_screens import PHONES

from scorekeeper.db import db
from scorekeeper.group import club
from scorekeeper.models import Game, Group
from scorekeeper.table import scoring

pytestmark = pytest.mark.browser

FOUR = ["A", "B", "C", "D"]


def another_table(app, slug):
    """A table another phone started: this phone never opened it."""
    with app.app_context():
        group = db.session.scalar(db.select(Group).where(Group.slug == slug))
        game = Game(group_id=group.id, evening_id=club.evening_for(group).id, kind="vier-anderle",
                    rules={}, seating=FOUR, first_dealer="A")
        scoring.start_game(game, [], device="iPhone · Safari")
        db.session.commit()
        return f"/g/{slug}/games/{game.id}"


def test_a_table_never_opened_says_offline_what_to_do_and_opens_when_the_network_is_back(
        browser, live_app, network):
    context = browser.new_context(viewport=PHONE, base_url=network.url, locale="de-DE",
                                  has_touch=True)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    shots = Shots(page, "offline_first_visit")
    set_up_group(page, shots, FOUR)
    start(page, shots, "hintersche", FOUR)
    slug = page.url.split("/g/", 1)[1].split("/", 1)[0]
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()  # under the service worker: it keeps this table
    assert page.evaluate("Boolean(navigator.serviceWorker.controller)")
    table = another_table(live_app, slug)

    network.cut()
    context.set_offline(True)
    page.goto(table)
    text = page.locator("main").inner_text()
    assert "Kein Netz" in text
    assert "Diesen Tisch hatte dieses Handy noch nie offen" in text
    assert "auf einen Zettel schreiben" in text and "der Reihe nach eintragen" in text
    assert "auf einem Handy eintragen, das den Tisch schon offen hatte" in text
    for size, (width, height) in PHONES.items():
        page.set_viewport_size({"width": width, "height": height})
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        shots(f"table-never-opened-{size}")
    page.set_viewport_size(PHONE)
    page.goto(f"/g/{slug}/standings")  # any other page never opened: the note as before
    text = page.locator("main").inner_text()
    assert "diese Seite noch nie geöffnet" in text and "Zettel" not in text
    page.goto(table)

    network.restore()
    context.set_offline(False)
    tap(page, "main a.button")  # "Noch einmal": the table's own address, now with network
    assert page.url.endswith(table)
    assert page.locator("h1", has_text="Vier-Anderle").is_visible()
    shots("table-opened-when-back")
    assert errors == []
    context.close()
