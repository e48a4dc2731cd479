"""The standings, the season page and a player's head to head at 390×844 and on its side
(844×390), in German: the money as the evenings were settled with the Kasse's share in a row of
its own, a game still running said so, and head to head adding up to the player's money."""

import datetime as dt
import re

import generators
import pytest
from conftest import ARTIFACTS, open_link
from season_data import fill

from scorekeeper.changes import records
from scorekeeper.db import db
from scorekeeper.models import Group

pytestmark = pytest.mark.browser

WIDTH = "document.documentElement.scrollWidth"
SIZES = (({"width": 390, "height": 844}, "390x844"), ({"width": 844, "height": 390}, "844x390"))


def rounded_season(app):
    """Twelve evenings of 2026 settled to 50 cents, and a Hartenjagen game still running; the
    join link's token."""
    with app.app_context():
        db.session.add(Group(slug="tanne", name="Stammtisch Tanne", rounding_cents=50))
        db.session.commit()
    fill(app, "tanne", dt.date(2026, 1, 9), 12, seed=4)
    with app.app_context():
        record = generators.random_record("hartenjagen", 3, 11)
        records.import_game({**record, "players": ["Anna", "Bernd", "Carla", "Dieter"],
                             "first_dealer": "Anna", "hands": []}, "tanne", dt.date(2026, 4, 3))
        return db.session.scalar(db.select(Group.token))


def test_the_figures_on_a_phone_and_on_its_side(phone, shots, live_app):
    open_link(phone, f"/join/{rounded_season(live_app)}")
    for size, name in SIZES:
        phone.set_viewport_size(size)
        phone.goto("/g/tanne/standings")
        kasse = phone.locator("tr.kasse-share")
        assert kasse.is_visible() and "Pot und Rundung" in kasse.inner_text()
        text = phone.locator("main").inner_text()
        assert "1 Spiel läuft noch" in text
        assert "wie jeder Abend abgerechnet wurde: gerundet" in text
        players = phone.locator("table.sheet").first.locator("tr:not(.kasse-share) td.money")
        for cell in players.all_inner_texts():  # as paid: in 50-cent coins
            assert re.search(r",(\d\d)", cell).group(1) in ("00", "50"), cell
        assert phone.evaluate(WIDTH) <= size["width"]
        shots(f"standings-{name}")
        phone.goto("/g/tanne/seasons/2026")
        assert phone.locator(".season-table tr.kasse-share").is_visible()
        assert "1 Spiel läuft noch" in phone.locator("main").inner_text()
        assert phone.evaluate(WIDTH) <= size["width"]
        shots(f"season-{name}")
        phone.goto("/g/tanne/standings")
        phone.locator("table.sheet a", has_text="Anna").first.click()
        phone.wait_for_load_state()
        section = phone.locator("#head-to-head")
        section.scroll_into_view_if_needed()
        assert "Zusammen: dein Geld aus diesen Spielen" in section.inner_text()
        assert "jeder Strich an jeden Gegner" in section.inner_text()
        assert phone.evaluate(WIDTH) <= size["width"]
        shots(f"head-to-head-{name}")
        section.screenshot(path=str(ARTIFACTS / f"figures-head-to-head-{name}-section.jpeg"),
                           quality=80)
