"""The season chronicle at the table and on paper: the page at 390×844 and on its side
(844×390), printed to A4 (a PDF from Chromium, its pages turned into pictures with poppler's
pdftoppm), and an evening's result shared as a picture."""

import base64
import datetime as dt
import re
import shutil
import subprocess

import pytest
from conftest import ARTIFACTS, open_link
from season_data import fill

from scorekeeper.db import db
from scorekeeper.models import Evening, Group

pytestmark = pytest.mark.browser

WIDTH = "document.documentElement.scrollWidth"


# a share sheet that takes files: what it was given, kept in window.shared (the PNG in base64)
SHARE_SHEET = """
    window.shared = null;
    navigator.canShare = (data) => !!(data.files && data.files.length);
    navigator.share = async (data) => {
      const file = data.files[0];
      const bytes = new Uint8Array(await file.arrayBuffer());
      let text = ""; bytes.forEach((b) => { text += String.fromCharCode(b); });
      window.shared = {name: file.name, type: file.type, png: btoa(text), title: data.title};
    };"""


def two_seasons(app):
    """The group's 2025 (eight evenings) and 2026 (twelve), and its join link's token."""
    with app.app_context():
        db.session.add(Group(slug="tanne", name="Stammtisch Tanne"))
        db.session.commit()
    fill(app, "tanne", dt.date(2025, 9, 5), 8, seed=3)
    fill(app, "tanne", dt.date(2026, 1, 9), 12, seed=4)
    with app.app_context():
        return db.session.scalar(db.select(Group.token))


def test_the_season_page_on_a_phone_and_on_its_side(phone, shots, live_app):
    open_link(phone, f"/join/{two_seasons(live_app)}")
    phone.goto("/g/tanne/standings?season=2026")
    phone.locator("a[href='/g/tanne/seasons/2026']").click()
    phone.wait_for_url("**/g/tanne/seasons/2026")
    text = phone.locator("main").inner_text()
    for words in ("Saison 2026", "Vereinsmeister", "Rote Laterne", "Anwesenheit",
                  "von 12 Abenden", "Serien", "Größter gewonnener Pot",
                  "Meiste Märsche in einer Runde", "Mond geschossen"):
        assert words in text, words
    assert phone.evaluate(WIDTH) <= 390
    shots("season-390x844")
    # a record's link opens the hand it happened in on the game's history, marked
    record = phone.locator("table.records a[href*='#hand-']").first
    record.click()
    phone.wait_for_load_state()
    assert phone.evaluate("document.querySelector(':target').tagName") == "TR"
    shots("record-hand")
    phone.goto("/g/tanne/seasons/2026")
    phone.set_viewport_size({"width": 844, "height": 390})
    assert phone.evaluate(WIDTH) <= 844
    shots("season-844x390")


def test_a_refused_champion_rule_opens_at_the_form_with_the_message(phone, shots, live_app):
    open_link(phone, f"/join/{two_seasons(live_app)}")
    for size, name in (({"width": 390, "height": 844}, "390x844"),
                       ({"width": 844, "height": 390}, "844x390")):
        phone.set_viewport_size(size)
        phone.goto("/g/tanne/seasons/2026")
        phone.fill("input[name='champion_share']", "0")
        phone.locator("#champion-rule button[type=submit]").click()
        phone.wait_for_load_state()
        message = phone.locator("#champion-rule .error")
        assert "zwischen 1 und 100" in message.inner_text()
        assert message.is_visible() and phone.evaluate(
            "() => document.querySelector('#champion-rule .error').getBoundingClientRect().top"
        ) < size["height"]  # on screen without scrolling
        assert phone.locator("input[name='champion_share']").input_value() == "0"  # kept
        assert phone.evaluate(WIDTH) <= size["width"]
        shots(f"champion-refused-{name}")
        phone.screenshot(path=f"test-artifacts/champion-refused-{name}-screen.jpeg",
                         quality=80)  # as seen


@pytest.mark.skipif(not shutil.which("pdftoppm"), reason="needs poppler-utils (pdftoppm)")
def test_the_season_prints_as_a_tidy_a4_document(phone, live_app, tmp_path):
    open_link(phone, f"/join/{two_seasons(live_app)}")
    phone.goto("/g/tanne/seasons/2026")
    phone.emulate_media(media="print")
    # nothing of the phone's page on paper: no header, buttons or forms
    hidden = phone.evaluate("""() => [...document.querySelectorAll(
        'header.top, nav, form, button, a.button')].filter(e => e.offsetParent !== null).length""")
    assert hidden == 0
    pdf = tmp_path / "season.pdf"
    phone.pdf(path=str(pdf), prefer_css_page_size=True, print_background=True)
    ARTIFACTS.mkdir(exist_ok=True)
    for old in ARTIFACTS.glob("season-print-*.png"):
        old.unlink()
    subprocess.run(["pdftoppm", "-png", "-r", "80", str(pdf), str(ARTIFACTS / "season-print")],
                   check=True)
    pages = sorted(ARTIFACTS.glob("season-print-*.png"))
    assert 1 <= len(pages) <= 4, pages
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True).stdout
    assert re.search(r"^Page size: .* pts \(A4\)$", info, re.M), info


def test_an_evenings_result_is_shared_as_a_picture(phone, shots, live_app):
    open_link(phone, f"/join/{two_seasons(live_app)}")
    with live_app.app_context():
        evening = db.session.scalar(db.select(Evening.id).order_by(Evening.date.desc()))
    card = f"/g/tanne/evenings/{evening}/card.svg"
    answer = phone.request.get(card)
    assert answer.ok and answer.headers["content-type"].startswith("image/svg+xml")
    # the share sheet takes the picture as a PNG file where the phone can share files
    phone.add_init_script(SHARE_SHEET)
    phone.goto(f"/g/tanne/evenings/{evening}")
    shots("evening-with-share")
    # the picture as the browser draws it (a screenshot of it, shown on the page)
    phone.evaluate("""(src) => { const img = document.createElement("img");
        img.src = src; img.id = "card"; img.style.width = "100%";
        document.querySelector("main").prepend(img); return img.decode(); }""", card)
    ARTIFACTS.mkdir(exist_ok=True)
    phone.locator("#card").screenshot(path=str(ARTIFACTS / "evening-card-390.jpeg"), quality=80)
    phone.locator("button[data-share-image]").click()
    # a function, not an expression: polling an expression is an eval, which the CSP refuses
    phone.wait_for_function("() => window.shared !== null")
    shared = phone.evaluate("window.shared")
    assert shared["type"] == "image/png" and shared["name"].startswith("tanne-2026-")
    png = base64.b64decode(shared["png"])
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and int.from_bytes(png[16:20], "big") == 1080
    (ARTIFACTS / "evening-card-shared.png").write_bytes(png)


def test_without_a_share_sheet_the_link_is_copied(phone, live_app):
    open_link(phone, f"/join/{two_seasons(live_app)}")
    phone.context.grant_permissions(["clipboard-read", "clipboard-write"])
    phone.add_init_script("delete Navigator.prototype.share; delete Navigator.prototype.canShare;")
    with live_app.app_context():
        evening = db.session.scalar(db.select(Evening.id).order_by(Evening.date.desc()))
    phone.goto(f"/g/tanne/evenings/{evening}")
    button = phone.locator("button[data-share-image]")
    button.click()
    phone.wait_for_function("() => document.querySelector('button[data-share-image]')"
                            ".textContent.includes('kopiert')")
    assert phone.evaluate("navigator.clipboard.readText()").endswith(f"/evenings/{evening}")
