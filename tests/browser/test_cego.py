"""Cego at 390×844 in German: a 24-game Durchgang entered on the phone, every kind of contract
(Räuber by its losers and by its Augen, a Solo, a fault), the taps of an ordinary game counted,
the sentence that says what a game will write before it is saved, a refusal at its field, a
correction three games back, a second phone that sees the list grow, and the list complete after
game 24. Screenshots at 390×844 and on its side (844×390) go to test-artifacts/."""

import pytest
from conftest import PHONE, Shots
from test_play import chip, quick_group, save, start, state, tap

from scorekeeper import engine

pytestmark = pytest.mark.browser

NAMES = ["Anna", "Bernd", "Carla", "Dieter"]
ON_ITS_SIDE = {"width": 844, "height": 390}
# the Durchgang, as the players tell it: (contract, declarer or caller, result)
GAMES = [
    ("eine", "Carla", {"augen": 41}),  # entered with the taps counted
    ("cego", "Bernd", {"augen": 44}),  # and this one too
    ("raeuber", "Dieter", {"losers": ["Anna"]}),
    ("solo", "Anna", {"augen": 52}),
    ("ultimo", "Carla", {"won": True}),
    ("piccolo", "Dieter", {"won": False}),
    ("bettel", "Anna", {"won": True}),  # corrected after game 10: Anna lost it
    ("halbe", "Bernd", {"augen": 34}),
    ("raeuber", "Bernd", {"augen": {"Anna": 25, "Bernd": 25, "Carla": 18, "Dieter": 11}}),
    ("eine", "Dieter", {"augen": 12}),
    ("cego", "Anna", {"augen": 79}),  # first typed as 78: refused at the field
    ("solo", "Bernd", {"augen": 37}),  # seen on the second phone
    ("piccolo", "Carla", {"tricks": 1}),
    ("halbe", "Anna", {"forfeit": "Bernd"}),
    ("cego", "Carla", {"augen": 40}),
    ("eine", "Bernd", {"augen": 60}),
    ("raeuber", "Anna", {"losers": ["Carla", "Dieter"]}),
    ("ultimo", "Dieter", {"won": False}),
    ("solo", "Carla", {"augen": 70}),
    ("bettel", "Bernd", {"won": True}),
    ("cego", "Dieter", {"augen": 20}),
    ("halbe", "Carla", {"augen": 45}),
    ("eine", "Anna", {"augen": 39}),
    ("raeuber", "Carla", {"losers": ["Bernd"]}),
]
CORRECTED = {7: {"won": False}}


def entry(contract, who, result):
    """The game as the engine's record holds it."""
    key = "announcer" if contract == "raeuber" else "declarer"
    return {"contract": contract, key: who, **result}


class Thumb:
    """The phone in the hand: counts every tap and every key press the test makes."""

    def __init__(self, page):
        self.page, self.count = page, 0

    def tap(self, selector):
        self.page.locator(selector).first.click()
        self.count += 1

    def name(self, field, value):
        self.tap(f'#entry label.chip:has(input[name="{field}"][value="{value}"])')

    def keys(self, typed):
        for key in typed:
            self.page.keyboard.press(key)
            self.count += 1

    def save(self):
        self.count += 1
        save(self.page)


def says(page):
    """The sentence above Save (its words are asked for once a table: waited for)."""
    page.wait_for_function("() => document.querySelector('#entry .says').textContent !== ''")
    return page.locator("#entry .says").inner_text()


def unfold(page, summary):
    fold = page.locator(f"#entry details:not([open]) > summary:has-text('{summary}')")
    if fold.count():
        fold.click()


def play(page, contract, who, result, save_it=True):
    """One game through the form: its button, the name, the result; then Save."""
    chip(page, "contract", contract)
    chip(page, "declarer", who)
    if "forfeit" in result:
        unfold(page, "Ein Fehler?")
        chip(page, "forfeit", result["forfeit"])
    elif isinstance(result.get("augen"), dict):
        unfold(page, "Oder die Augen aller Spieler")
        for name, count in result["augen"].items():
            page.fill(f"input[name='augen-{name}']", str(count))
    elif "augen" in result:
        page.fill("input[name=augen]", str(result["augen"]))
    elif "tricks" in result:
        unfold(page, "Oder die Stiche zählen")
        page.fill("input[name=tricks]", str(result["tricks"]))
    elif "won" in result:
        chip(page, "won", "yes" if result["won"] else "no")
    for name in result.get("losers", []):
        chip(page, "losers", name)
    if save_it:
        save(page)


def ordinary_game(page, contract, who, digits):
    """A game as the thumb enters it: the contract, the name, the digits, Save; its taps."""
    thumb = Thumb(page)
    thumb.name("contract", contract)
    thumb.name("declarer", who)
    # the cursor is in the declarer's count already: no tap on the field
    assert page.evaluate("document.activeElement.name") == "augen"
    thumb.keys(digits)
    return thumb


def test_a_cego_durchgang_on_the_phone(phone, shots, browser):
    page = phone
    quick_group(page, NAMES)
    start(page, shots, "cego", NAMES, {"games": 24})
    table = page.url
    assert page.locator("#entry h2").inner_text() == "Spiel 1 / 24 · Anna gibt"
    shots("first-game")

    # game 1: Eine, Carla, 41 Augen: five taps, the defenders' 38 and the sentence by themselves
    thumb = ordinary_game(page, "eine", "Carla", "41")
    assert page.locator("input[name=defender_augen]").input_value() == "38"
    assert says(page) == "Eine gewonnen, 1 Fach: +60 / −20 −20 −20"
    shots("before-save")
    page.set_viewport_size(ON_ITS_SIDE)  # on its side: Save on the screen with the count
    shots("on-its-side-before-save")
    box = page.locator("#entry button[type=submit]").bounding_box()
    assert box["y"] + box["height"] <= ON_ITS_SIDE["height"]
    page.set_viewport_size(PHONE)
    thumb.save()
    assert thumb.count == 5
    thumb = ordinary_game(page, "cego", "Bernd", "44")
    assert says(page) == "Cego gewonnen, 1 Fach: +30 / −10 −10 −10"
    thumb.save()
    assert thumb.count == 5
    assert [len(state(page)["history"])] == [2]

    for number, (contract, who, result) in enumerate(GAMES[2:10], start=3):
        play(page, contract, who, result)
        if number == 5:
            shots("list")
        if number == 9:  # Räuber by its Augen: the most lose, the caller Bernd ties: 80
            assert state(page)["last_game"]["losers"] == ["Bernd"]
    assert page.locator("h1 .saved").inner_text() == "✓ Spiel 10 gespeichert."
    # games 3 to 10 were answered with what they changed, the rows before each left for the
    # phone to fill with its own: every row is there, none empty, in order
    rows = page.locator(".cego-list tbody tr[data-row]")
    assert rows.evaluate_all("(rows) => rows.map((r) => r.dataset.row)") == [
        str(n) for n in range(1, 11)]
    assert page.locator(".cego-list tbody tr[data-row]:empty").count() == 0
    assert rows.first.locator("td.what").inner_text().startswith("Eine")

    # game 11: "4e" is no number (the browser would send the field empty, as if left blank,
    # and the defenders' count alone would decide): nothing is sent, the field says so
    play(page, "cego", "Anna", {}, save_it=False)
    augen = page.locator("input[name=augen]")
    augen.press_sequentially("4e")
    assert augen.evaluate("(i) => i.validity.badInput")
    save(page)
    assert page.locator("#entry .by-augen .error").inner_text() == "Bitte eine ganze Zahl eingeben."
    assert augen.evaluate("(i) => i.validity.badInput")  # what was typed stays
    assert page.locator("h1 .saved").inner_text() == "✓ Spiel 10 gespeichert."
    assert len(state(page)["history"]) == 10
    shots("no-number-at-the-field")
    augen.fill("")
    # game 11: 78 Augen cannot be; the form says so before Save, and at the field after it
    play(page, "cego", "Anna", {"augen": 78}, save_it=False)
    assert says(page).startswith("78 Augen gibt es nicht")
    save(page)
    field = page.locator("input[name=augen]")
    assert field.input_value() == "78" and field.get_attribute("aria-invalid") == "true"
    assert page.locator("#entry .by-augen .error").inner_text().startswith(
        "78 Augen gibt es nicht")
    assert page.locator("input[name=contract][value=cego]").is_checked()
    shots("refused-at-the-field")
    page.fill("input[name=augen]", "79")
    assert says(page) == "Cego gewonnen, 8 Fach: +120 / −40 −40 −40"
    save(page)

    # the correction page of game 1 (Eine, Carla, 41): the defenders' side follows the
    # declarer's as on the table page; left without saving
    tap(page, "a[href$='/history']")
    tap(page, "a[href$='/entries/1']")
    assert page.locator("input[name=augen]").input_value() == "41"
    page.locator("input[name=augen]").fill("45")
    assert page.locator("input[name=defender_augen]").input_value() == "34"
    page.go_back()

    # the correction, three games back (game 8 on: Bettel, game 7, was lost)
    tap(page, "a[href$='/entries/7']")
    assert page.locator("input[name=won][value=yes]").is_checked()
    chip(page, "won", "no")
    save(page, "main form")
    assert page.locator("#changes").is_visible()
    shots("correction-preview")
    save(page, "form.confirm")
    assert page.url.split("?")[0] == table

    # a second phone at the table sees the list grow as the first one saves
    other = browser.new_context(viewport=PHONE, locale="de-DE", has_touch=True,
                                storage_state=page.context.storage_state()).new_page()
    other.goto(table)
    play(page, *GAMES[11])
    other.locator(".cego-list tbody tr:last-child td:first-child", has_text="12").wait_for(
        timeout=5000)
    assert other.locator(".cego-list tbody tr:last-child").inner_text().startswith("12\tSolo")
    other_shots = Shots(other, "cego_second_phone")
    other_shots("game-12-from-the-other-phone")
    other.locator("details.end summary").click()  # what ending the list now would do
    other.locator("details.end table").wait_for()
    other_shots("ending")
    other.context.close()

    for contract, who, result in GAMES[12:]:
        play(page, contract, who, result)
    final = state(page)
    assert final["finished"] and final["hands_played"] == 24
    assert page.locator(".done").inner_text().startswith("Die Liste ist fertig: 24 Spiele.")
    assert page.locator("#entry").count() == 0
    played = [entry(*game) for game in GAMES]
    for number, result in CORRECTED.items():
        played[number - 1] = entry(*GAMES[number - 1][:2], result)
    expected = engine.replay({"format": "scorekeeper-game/1", "game": "cego", "players": NAMES,
                              "rules": {"games": 24}, "hands": played})
    assert [p["score"] for p in final["players"]] == \
        [p["score"] for p in expected.summary()["players"]]
    assert final["history"] == engine.history(expected)
    # the pages that show the list and its figures, upright and on its side
    group = table.split("/games/")[0]
    pages = {"complete": table, "history": table + "/history", "standings": group + "/standings",
             "season": group + "/seasons/" + table_year(page), "tv": table + "/tv"}
    for size, suffix in ((PHONE, ""), (ON_ITS_SIDE, "-on-its-side")):
        page.set_viewport_size(size)
        for name, path in pages.items():
            page.goto(path)
            assert page.evaluate("document.documentElement.scrollWidth") <= size["width"], name
            shots(name + suffix)
    for size in ({"width": 1280, "height": 720}, {"width": 1920, "height": 1080}):
        page.set_viewport_size(size)  # the pub's TV: the list and the evening, no scrolling
        for path in (table + "/tv", group + "/tv"):
            page.goto(path)
            assert page.evaluate("document.documentElement.scrollHeight") <= size["height"], path
            assert page.evaluate("[...document.querySelectorAll('.tv-parts > div')]"
                                 ".every((part) => part.scrollWidth <= part.clientWidth)"), path
    shots("tv-evening-1920")
    page.set_viewport_size(PHONE)
    page.goto(group + "/standings")
    tap(page, "a[href*='/players/']")
    assert "Punkte" in page.locator("main").inner_text()
    shots("player")


def table_year(page):
    return page.evaluate("String(new Date().getFullYear())")


def test_the_sentence_is_asked_for_once_and_is_there_without_network(browser, live_app, network):
    """The words above Save come from one address a table (the answers to a game do not carry
    them): asked for once while the network is there, kept by the phone, and said without
    network when the table is opened again, and after a game kept to be sent later."""
    context = browser.new_context(viewport=PHONE, base_url=network.url, locale="de-DE",
                                  has_touch=True)
    page = context.new_page()
    asked, served = [], []
    page.on("request", lambda request: "/says/" in request.url and asked.append(request.url))
    app = live_app.wsgi_app  # what reaches the server: the phone's cache answers the rest

    def counting(environ, start_response):
        if "/says/" in environ["PATH_INFO"]:
            served.append(environ["PATH_INFO"])
        return app(environ, start_response)

    live_app.wsgi_app = counting
    shots = Shots(page, "cego-offline")
    quick_group(page, NAMES)
    start(page, shots, "cego", NAMES, {})
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()  # the service worker keeps this page (and the words) for when there is none
    play(page, "eine", "Carla", {"augen": 41}, save_it=False)
    assert says(page) == "Eine gewonnen, 1 Fach: +60 / −20 −20 −20"
    save(page)
    play(page, "cego", "Bernd", {"augen": 44}, save_it=False)
    assert says(page) == "Cego gewonnen, 1 Fach: +30 / −10 −10 −10"  # Bernd deals: the same words
    assert len(set(asked)) == 1 and len(asked) >= 3 and len(served) == 1, (asked, served)

    network.cut()
    context.set_offline(True)
    page.reload()
    play(page, "solo", "Anna", {"augen": 52}, save_it=False)
    assert says(page) == "Solo gewonnen, 3 Fach: +90 / −30 −30 −30"
    save(page)  # kept to be sent later; the next form says its game too
    play(page, "halbe", "Dieter", {"augen": 34}, save_it=False)
    assert says(page).startswith("Halbe verloren")
    shots("said-without-network")
    network.restore()
    context.set_offline(False)
    context.close()
