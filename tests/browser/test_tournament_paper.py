"""A tournament's result on paper and as a picture, as an evening's: the organiser's page at
390×844 and on its side, its result printed to A4 (a PDF from Chromium: the ranking with its
places, shared places, lots, the last place and the prizes, nothing of the phone's page; its
pages turned into pictures with poppler's pdftoppm), the spectators' page printed the same,
the result shared as a PNG by the share sheet; and the season's tournament series printed.
Screenshots and the printed pages go to test-artifacts/."""

import base64
import datetime as dt
import random
import re
import shutil
import subprocess

import pytest
from conftest import ARTIFACTS, open_link
from test_season import SHARE_SHEET

from scorekeeper.changes import tournaments as change
from scorekeeper.db import db
from scorekeeper.models import Group, Tournament
from scorekeeper.table import scoring
from scorekeeper.tournament import night

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not shutil.which("pdftoppm"), reason="needs poppler-utils")]

NAMES = [f"{first} {last}" for last in ("Maier", "Huber", "Kienzle", "Schwarzwälder")
         for first in ("Anna", "Bernd", "Carla", "Dieter", "Erika", "Franz", "Gerda", "Hans",
                       "Ilse", "Jörg")]
NAMES[1] = "Hansjürgenmaximilian Schwarzwälder"  # a word too long for the phone's column


def play(tournament, round_, rng):
    """Durchgang `round_` drawn and played: three hands of Hartenjagen at each table."""
    group = db.session.get(Group, tournament.group_id)
    change.draw_round(group, tournament, round_, seed=round_)
    for table in night.tables(tournament, round_):
        seats = list(table.game.seating)
        for _ in range(3):
            taker, other = rng.sample(seats, 2)
            hearts = rng.randrange(14)
            scoring.add_entry(table.game, {"points": {taker: 13 + hearts, other: 13 - hearts}})
    db.session.commit()


def nights(app, count=1, close=True):
    """The group's tournament nights of 2026, 40 entrants each, two Durchgänge played, the
    lots drawn where a prize depends on a tie; the first closed (if `close`). Returns the
    group's join link's token and the first night's id."""
    rng = random.Random(5)
    with app.test_request_context():
        group = Group(slug="tanne", name="Stammtisch Tanne")
        db.session.add(group)
        db.session.commit()
        made = []
        for number in range(count):
            entrants = NAMES if number == 0 else rng.sample(NAMES, 36)
            tournament = change.create(group, f"Preisherzeln {number + 1}", "hartenjagen",
                                       dt.date(2026, 11 + number // 2, 7 + number), 2, 3, {},
                                       500, [10000, 5000, 3000], entrants)
            assert isinstance(tournament, Tournament)
            play(tournament, 1, rng)
            play(tournament, 2, rng)
            for place in sorted({night.ranked(tournament)[i].place for tie in
                                 night.ties(tournament, night.ranked(tournament))
                                 for i, row in enumerate(night.ranked(tournament))
                                 if row.entrant in tie}):
                change.draw_lot(tournament, place, "Test")
            made.append(tournament.id)
        if close:
            change.close(db.session.get(Tournament, made[0]), "Test")
        return group.token, made[0], db.session.get(Tournament, made[0]).view_token


def pdf_of(page, name, tmp_path):
    """The page printed to A4: its text, its number of pages, and its pages as pictures."""
    page.emulate_media(media="print")
    pdf = tmp_path / f"{name}.pdf"
    page.pdf(path=str(pdf), prefer_css_page_size=True, print_background=True)
    ARTIFACTS.mkdir(exist_ok=True)
    for old in ARTIFACTS.glob(f"{name}-*.png"):
        old.unlink()
    subprocess.run(["pdftoppm", "-png", "-r", "70", str(pdf), str(ARTIFACTS / name)], check=True)
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True).stdout
    assert re.search(r"^Page size: .* pts \(A4\)$", info, re.M), info
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True,
                          text=True).stdout
    return text, int(re.search(r"^Pages:\s+(\d+)", info, re.M).group(1))


NOTHING_OF_THE_PHONE = """() => [...document.querySelectorAll(
    'header.top, nav, form, button, a.button, details, #history, #entrants, [id^=round-]')]
    .filter(e => e.offsetParent !== null).length"""
WIDER = """() => [...document.querySelectorAll('table')].filter(
    (t) => t.getBoundingClientRect().right > document.documentElement.clientWidth + 1).length"""


def test_a_tournaments_result_prints_on_a4_and_is_shared_as_a_picture(phone, shots, live_app,
                                                                       tmp_path):
    token, tournament_id, view = nights(live_app, close=False)
    open_link(phone, f"/join/{token}")
    phone.add_init_script(SHARE_SHEET)
    path = f"/g/tanne/tournaments/{tournament_id}"
    # a table's Durchgang voided with its reason: its page says so and offers no entry
    phone.goto(path)
    table = phone.locator("#round-2 .tournament-tables li").first
    table.locator("summary").first.click()
    table.locator("input[name=reason]").fill("Liste nicht lesbar")
    phone.once("dialog", lambda dialog: dialog.accept())  # it asks first
    with phone.expect_navigation():
        table.locator("form button[type=submit]").first.click()
    assert "Liste nicht lesbar" in phone.locator("#history").inner_text()
    phone.locator("#round-2 .tournament-tables li a").first.click()
    phone.wait_for_url("**/games/*")
    banner = phone.locator("#voided")
    assert banner.is_visible() and "Liste nicht lesbar" in banner.inner_text()
    assert phone.locator("[data-entry-forms]").count() == 0
    for size, name in (((390, 844), "390x844"), ((844, 390), "844x390")):
        phone.set_viewport_size({"width": size[0], "height": size[1]})
        phone.screenshot(path=str(ARTIFACTS / f"tournament-voided-table-{name}.jpeg"), quality=80)
        assert phone.evaluate("document.documentElement.scrollWidth") <= size[0]
    phone.set_viewport_size({"width": 390, "height": 844})
    # the lots of the places a prize now depends on, and the night closed (it asks first)
    phone.goto(path)
    while (lot := phone.locator("form[action$='/lot'] button")).count():
        phone.once("dialog", lambda dialog: dialog.accept())  # a lot asks first
        with phone.expect_navigation():
            lot.first.click()
    phone.once("dialog", lambda dialog: dialog.accept())
    with phone.expect_navigation():
        phone.locator("form[action$='/close'] button").click()
    assert "Kasse" in phone.locator(".flash").inner_text()
    phone.goto(path)
    shots("organiser-390x844")
    phone.locator("#ranking").screenshot(path=str(ARTIFACTS / "tournament-ranking-390.jpeg"),
                                         quality=80)
    phone.locator("#history").screenshot(path=str(ARTIFACTS / "tournament-history-390.jpeg"),
                                         quality=80)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    phone.set_viewport_size({"width": 844, "height": 390})
    assert phone.evaluate("document.documentElement.scrollWidth") <= 844
    shots("organiser-844x390")
    phone.set_viewport_size({"width": 390, "height": 844})
    # the picture, as the browser draws it, and shared as a PNG of 1080 pixels across
    card = f"/r/{view}/card.svg"
    phone.evaluate("""(src) => { const img = document.createElement("img");
        img.src = src; img.id = "card"; img.style.width = "100%";
        document.querySelector("main").prepend(img); return img.decode(); }""", card)
    ARTIFACTS.mkdir(exist_ok=True)
    phone.locator("#card").screenshot(path=str(ARTIFACTS / "tournament-card-390.jpeg"), quality=80)
    phone.locator("#ranking button[data-share-image]").click()
    phone.wait_for_function("() => window.shared !== null")
    shared = phone.evaluate("window.shared")
    assert shared["type"] == "image/png" and shared["name"] == "rangliste-2026-11-07.png"
    png = base64.b64decode(shared["png"])
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and int.from_bytes(png[16:20], "big") == 1080
    (ARTIFACTS / "tournament-card-shared.png").write_bytes(png)
    # printed: the ranking only, whole, on A4
    phone.goto(path)
    assert phone.locator("#ranking button[data-print]").is_visible()
    phone.emulate_media(media="print")
    assert phone.evaluate(NOTHING_OF_THE_PHONE) == 0
    assert phone.evaluate(WIDER) == 0
    text, pages = pdf_of(phone, "tournament-print", tmp_path)
    assert 1 <= pages <= 2, pages
    for name in NAMES:
        assert name in text, name
    for words in ("Preisherzeln 1", "Platz", "Preis", "100,00 €", "50,00 €", "30,00 €",
                  "letzter Platz", "Endstand"):
        assert words in text, words
    assert "Durchgang 1" not in text and "Startliste" not in text and "auslosen" not in text
    rows = re.findall(r"^\s*(\d+)\.\s", text, re.M)
    assert len(rows) == 40  # a line each, none lost at a page's end
    # the spectators' page prints the same
    spectators = phone.context.browser.new_context(locale="de-DE",
                                                   base_url=live_app.config["BASE_URL"])
    page = spectators.new_page()
    page.goto(f"/r/{view}")
    for size, name in (((390, 844), "390x844"), ((844, 390), "844x390")):
        page.set_viewport_size({"width": size[0], "height": size[1]})
        page.screenshot(path=str(ARTIFACTS / f"tournament-spectators-{name}.jpeg"),
                        quality=80, full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
    text, pages = pdf_of(page, "tournament-spectators-print", tmp_path)
    assert 1 <= pages <= 2 and all(name in text for name in NAMES)
    assert "teilen" not in text and "drucken" not in text
    spectators.close()


def test_the_seasons_tournament_series_prints_on_a4(phone, live_app, tmp_path):
    token, _tournament_id, _view = nights(live_app, count=4)
    open_link(phone, f"/join/{token}")
    phone.goto("/g/tanne/seasons/2026")
    series = phone.locator("section.series")
    assert series.count() == 1 and "4 Turniere" in series.inner_text()
    series.screenshot(path=str(ARTIFACTS / "series-390.jpeg"), quality=80)
    # four nights fit the phone; on a smaller one the series scrolls in its card, not the page
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    assert series.locator(".table-scroll").evaluate("e => e.scrollWidth <= e.clientWidth")
    phone.set_viewport_size({"width": 320, "height": 640})
    assert series.locator(".table-scroll").evaluate("e => e.scrollWidth > e.clientWidth")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 320
    phone.set_viewport_size({"width": 390, "height": 844})
    phone.emulate_media(media="print")
    assert phone.evaluate(WIDER) == 0  # the series' nights across the page
    text, pages = pdf_of(phone, "series-print", tmp_path)
    assert "Turnierserie" in text
    series = re.split(r"\n\s*(Das )?Kassenbuch", text.split("Turnierserie")[1])[0]
    lines = re.findall(r"^\s*\d+\.\s+(\S+ \S+)\s+[-–\d]", series, re.M)
    assert sorted(lines) == sorted(NAMES)  # every player once, no line lost at a page's end
    # the series' head on each of its pages (it runs over a page here)
    spans = series.count("\f") + 1
    heads = re.findall(r"^\s*Platz\s+Name\s+1\s+2\s+3\s+4\s+Summe\s*$", series, re.M)
    assert spans >= 2 and len(heads) == spans, (spans, heads)
