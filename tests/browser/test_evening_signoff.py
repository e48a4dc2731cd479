"""Three phones sign an evening off at 390×844, in German: one phone passed around confirms for
two players, one objects and is answered by a correction, everybody confirms again and the
evening locks; a reopen asks again. A fine tapped at the table lands in the settlement and the
Kasse's book."""

import json
import re

import pytest
from conftest import PHONE, Shots, open_link
from test_play import save, tap

pytestmark = pytest.mark.browser

NAMES = {"A": "Anna", "B": "Bernd", "C": "Carla", "D": "Dieter"}
HARTENJAGEN = {  # D wins with 6; hand 1 was typed with 3 hearts for Anna and 10 for Carla
    "format": "scorekeeper-game/1", "game": "hartenjagen", "rules": {"cents_per_point": 1},
    "players": ["A", "B", "C", "D"],
    "hands": [{"hearts": {"A": 3, "C": 10}, "queen": "B"}, {"hearts": {"D": 13}, "queen": "D"},
              {"renege": "B"}, {"hearts": {"B": 5, "C": 2, "D": 6}, "queen": "C"},
              {"hearts": {"A": 4, "B": 9}, "queen": "B"},
              {"hearts": {"A": 1, "B": 8, "C": 4}, "queen": "A"}]}


def imported(live_app, tmp_path, slug):
    """The game, over, imported into the group as `flask import` does: its table's path and
    its evening's path."""
    text = json.dumps(HARTENJAGEN)
    for short, name in NAMES.items():
        text = text.replace(f'"{short}"', f'"{name}"')
    path = tmp_path / "hartenjagen.json"
    path.write_text(text)
    result = live_app.test_cli_runner().invoke(args=["import", str(path), "--group", slug])
    assert result.exit_code == 0, result.output
    return result.output.splitlines()[:2]


def another_phone(browser, live_app, link):
    page = browser.new_context(viewport=PHONE, device_scale_factor=1, has_touch=True,
                               base_url=live_app.config["BASE_URL"], locale="de-DE").new_page()
    open_link(page, link)
    return page


def verdict(page, name):
    return page.locator("li.verdict").filter(has=page.locator(f"b:text-is('{name}')"))


def right(page, name):
    save(page, f"li.verdict:has(b:text-is('{name}')) form:has(input[value=ok])")


def test_three_phones_sign_off_an_evening_with_an_objection_a_fine_and_a_reopen(
        phone, shots, browser, live_app, tmp_path):
    page = phone
    page.goto("/")
    page.fill('input[name="name"]', "Stammtisch Tanne")
    tap(page, "form[action='/groups'] button")
    link = page.locator("figure[data-join-link]").get_attribute("data-join-link")
    slug = re.search(r"/g/([^/]+)/invite", page.url).group(1)
    table, evening = imported(live_app, tmp_path, slug)
    bernd, carla = (another_phone(browser, live_app, link) for _ in range(2))

    # the group's fines, then "zu spät" on Bernd: two taps at the table
    page.goto(f"/g/{slug}/kasse")
    page.fill("#fines input[name=name]", "zu spät")
    page.fill("#fines input[name=amount]", "0,50")
    save(page, "#fines form:has(input[name=amount])")
    page.goto(evening)
    before = page.context.request.get(evening + "/settlement.json").json()["balances_cents"]
    page.locator(".fine-player summary", has_text="Bernd").click()
    shots("fine-on-bernd")
    save(page, ".fine-player[open] form")
    assert "zu spät gebucht: Bernd, je 0,50\xa0€" in page.locator("main").inner_text()
    after = page.context.request.get(evening + "/settlement.json").json()["balances_cents"]
    assert after["Bernd"] == before["Bernd"] - 50
    assert after["Kasse"] == before.get("Kasse", 0) + 50
    page.goto(f"/g/{slug}/kasse")
    assert "zu spät · Bernd" in page.locator(".kasse-lines").inner_text()

    # "Abend abschließen": Anna's phone is passed to Dieter; Bernd confirms on his own phone
    page.goto(evening)
    save(page, "#signoff form")
    shots("asked")
    for name in ("Anna", "Dieter"):
        right(page, name)
    # Carla objects on hers, with a note; Bernd confirms on his while she types
    carla.goto(evening)
    carla.locator("li.verdict:has(b:text-is('Carla')) details summary").click()
    note = carla.locator("li.verdict:has(b:text-is('Carla')) input[name=note]")
    note.press_sequentially("Hand 1: Anna hatte 4 Herzen, ich 9")
    bernd.goto(evening)
    right(bernd, "Bernd")
    carla.wait_for_timeout(3000)  # the live page has heard of it: what she typed stays
    assert note.input_value() == "Hand 1: Anna hatte 4 Herzen, ich 9"
    save(carla, "li.verdict:has(b:text-is('Carla')) details form")
    Shots(carla, "signoff-carla")("objected")
    page.goto(evening)
    assert "Anna hatte 4 Herzen" in verdict(page, "Carla").inner_text()
    assert "Ein Einspruch hält den Abend offen" in page.locator("#signoff").inner_text()
    shots("objection")

    # the answer: hand 1 corrected on Anna's phone
    page.goto(table + "/history")
    tap(page, "a[href$='/entries/1']")
    page.fill("input[name='hearts-Anna']", "4")
    page.fill("input[name='hearts-Carla']", "9")
    save(page, "main form")
    save(page, "form.confirm")
    page.goto(evening)
    assert "0 von 4 Spielern" in page.locator("#signoff").inner_text()  # asked again
    for name in ("Anna", "Dieter"):
        right(page, name)
    bernd.goto(evening)
    right(bernd, "Bernd")
    carla.goto(evening)
    right(carla, "Carla")
    assert "Abgeschlossen am" in carla.locator("#signoff").inner_text()
    page.goto(evening)
    shots("signed-off")
    page.set_viewport_size({"width": 844, "height": 390})
    shots("signed-off-on-its-side")
    page.set_viewport_size(PHONE)

    # locked: the game takes no correction, the payments no tick, the fines no booking
    page.goto(table)
    assert "Dieser Abend ist abgeschlossen" in page.locator("main").inner_text()
    assert page.locator("a[href*='/undo']").count() == 0
    page.goto(evening)
    assert page.locator(".fine-player").count() == 0
    save(page, ".payment form")  # paying up after signing off: ticked as "bezahlt"
    assert page.locator(".payment.paid").count() == 1

    # a reopen with a reason asks everybody again
    page.locator("#signoff details summary", has_text="Abend wieder öffnen").click()
    save(page, "form[action$='/reopen']")  # without a reason: said at the field
    assert "Bitte sagen, warum" in page.locator("form[action$='/reopen']").inner_text()
    page.fill("form[action$='/reopen'] input[name=reason]", "Dieter hat 2 € zu viel bezahlt")
    save(page, "form[action$='/reopen']")
    signoff = page.locator("#signoff").inner_text()
    assert "0 von 4 Spielern" in signoff
    page.locator("#signoff .signoff-history summary").click()
    assert "Dieter hat 2 € zu viel bezahlt" in page.locator("#signoff").inner_text()
    shots("reopened")
