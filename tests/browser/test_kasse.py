"""The Kasse's page and a player's page with head to head, at 390×844 and on its side
(844×390): money paid in and out typed as Germans type it, a slip refused at the field with
what was typed kept, a wrong entry cancelled and one deleted, both kept in the book."""

import datetime as dt
import re

import pytest
from conftest import open_link
from test_pages import seed
from test_play import save

pytestmark = pytest.mark.browser
SIDE = {"width": 844, "height": 390}


def cents(text):
    """An amount as the German page shows it ("Stand jetzt: 18,90 €", "−4,00 €") in cents."""
    found = re.search(r"([−-]?)([0-9.]+),([0-9]{2})", text)
    sign = -1 if found.group(1) else 1
    return sign * (int(found.group(2).replace(".", "")) * 100 + int(found.group(3)))


def pay(page, kind, amount, note):
    page.select_option('.kasse-form select[name="kind"]', kind)
    page.fill('.kasse-form input[name="amount"]', amount)
    page.fill('.kasse-form input[name="note"]', note)
    save(page, "form.kasse-form")


def test_the_kasse_page_takes_money_in_and_out_and_keeps_every_entry(phone, shots, live_app):
    paths = seed(live_app)
    open_link(phone, f"/join/{paths['token']}")
    phone.goto(paths["group"])
    phone.locator("details.kasse summary").click()
    phone.locator("details.kasse a.button").click()
    assert phone.url.endswith("/kasse")
    held = cents(phone.locator(".kasse-balance").inner_text())  # the games' pots
    amount = phone.locator('.kasse-form input[name="amount"]')
    assert amount.get_attribute("inputmode") == "decimal"
    pay(phone, "deposit", "12,50", "Strafe: Karten geworfen")
    assert "Im Kassenbuch eingetragen." in phone.locator(".flash").inner_text()
    pay(phone, "withdrawal", "4", "Kreide")
    pay(phone, "deposit", "3,00", "Tippfehler")
    # a slip is refused at the field, and what was typed stays
    pay(phone, "deposit", "12,5x", "Strafe")
    field = phone.locator('.kasse-form label.field:has(input[name="amount"])')
    assert field.locator("small.error").count() == 1
    assert amount.input_value() == "12,5x"
    assert phone.locator('input[name="note"]').input_value() == "Strafe"
    shots("refused-at-the-field")
    book = phone.locator("table.kasse-lines")
    text = book.inner_text()
    assert "Strafe: Karten geworfen" in text and "12,50" in text and "-4,00" in text.replace(
        "−", "-")
    # the wrong one cancelled by a counter entry, the chalk deleted with a record
    phone.locator("tr:has-text('Tippfehler') button:has-text('Stornieren')").first.click()
    phone.wait_for_load_state()
    phone.locator("tr:has-text('Kreide') button:has-text('Löschen')").click()
    phone.wait_for_load_state()
    text = phone.locator("table.kasse-lines").inner_text()
    assert "Gegenbuchung" in text and "gelöscht von" in text and "storniert" in text
    assert cents(phone.locator(".kasse-balance").inner_text()) == held + 1250
    phone.locator("details.kasse-split summary").click()
    shots("book")
    phone.set_viewport_size(SIDE)
    shots("book-on-its-side")
    assert phone.evaluate("document.documentElement.scrollWidth") <= SIDE["width"]
    phone.set_viewport_size({"width": 390, "height": 844})
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    # the evening shows the Kasse's part, today's entries with it
    phone.goto(paths["evening"])
    part = phone.locator("table.kasse-part").inner_text()
    assert "Strafe: Karten geworfen" in part and str(dt.date.today().year)  # linked to the book
    shots("evening-kasse")


def test_a_players_page_shows_head_to_head(phone, shots, live_app):
    paths = seed(live_app)
    open_link(phone, f"/join/{paths['token']}")
    phone.goto(f"{paths['group']}/players/1")
    section = phone.locator("#head-to-head")
    assert section.locator("h2").inner_text() == "Direkter Vergleich"
    rows = section.locator("tbody tr, table tr:not(:first-child)")
    assert rows.count() >= 3
    section.scroll_into_view_if_needed()
    shots("player")
    phone.set_viewport_size(SIDE)
    shots("player-on-its-side")
    assert phone.evaluate("document.documentElement.scrollWidth") <= SIDE["width"]
    phone.locator("#head-to-head nav a").nth(1).click()  # this year
    phone.wait_for_url("**year=**")  # the new page, loaded, before it is measured
    phone.wait_for_load_state()
    phone.set_viewport_size({"width": 390, "height": 844})
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    phone.goto(f"{paths['group']}/standings")
    assert "Spielstärke" in phone.locator("main").inner_text()
    shots("standings-ratings")
