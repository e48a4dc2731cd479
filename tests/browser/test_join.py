"""Joining a private group at the table: the second phone scans the QR code, a third one that
cannot scan types the group's name and PIN, a stranger sees nothing."""

import cv2
import numpy as np
import pytest
from conftest import PHONE, Shots
from test_play import save, tap

pytestmark = pytest.mark.browser


def scan(page, selector):
    """What a camera reads from the QR code on the screen (OpenCV's decoder)."""
    image = cv2.imdecode(np.frombuffer(page.locator(selector).screenshot(), np.uint8),
                         cv2.IMREAD_GRAYSCALE)
    text, _points, _code = cv2.QRCodeDetector().detectAndDecode(image)
    return text


def other_phone(browser, live_app):
    context = browser.new_context(viewport=PHONE, device_scale_factor=1, has_touch=True,
                                  base_url=live_app.config["BASE_URL"], locale="de-DE")
    return context.new_page()


def test_a_second_phone_joins_by_the_qr_code_and_a_third_with_the_pin(phone, shots, browser,
                                                                        live_app):
    phone.goto("/")
    phone.fill('input[name="name"]', "Stammtisch Tanne")
    tap(phone, "form[action='/groups'] button")
    shots("invite")
    link = scan(phone, "figure[data-join-link] svg")
    assert link == phone.locator("figure[data-join-link]").get_attribute("data-join-link")
    assert "/join/" in link
    phone.locator("details:has(input[name=pin]) summary").click()
    phone.fill('input[name="pin"]', "4711")
    save(phone, "form[action$='/invite/pin']")

    stranger = other_phone(browser, live_app)
    assert stranger.goto("/g/stammtisch-tanne").status == 404
    Shots(stranger, "stranger")("nothing-there")

    second = other_phone(browser, live_app)
    second.goto(link)  # what the camera app opens
    assert second.url.endswith("/g/stammtisch-tanne")
    assert "Neues Spiel" in second.locator("main").inner_text()
    Shots(second, "second-phone")("joined-by-qr")

    third = other_phone(browser, live_app)
    third.goto("/")
    tap(third, "a[href='/join']")
    third.fill('input[name="name"]', "Stammtisch Tanne")
    third.fill('input[name="pin"]', "1234")
    save(third, "main form")
    assert "Keine Gruppe hat diesen Namen und diese PIN" in third.locator("main").inner_text()
    Shots(third, "third-phone")("wrong-pin")
    third.fill('input[name="pin"]', "4711")
    save(third, "main form")
    assert third.url.endswith("/g/stammtisch-tanne")
    Shots(third, "third-phone")("joined-by-pin")
    for page in (stranger, second, third):
        page.context.close()
