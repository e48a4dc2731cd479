"""The table page as the phone on the pub table uses it: one screen and few taps per hand, the
Back button, the screen kept on, a phone on its side, and hands saved while the Wi-Fi is gone."""

import time
from urllib.parse import urlsplit

import pytest
from conftest import PHONE, Shots
from test_play import chip, quick_group, save, start, state, tricks

from scorekeeper.db import db
from scorekeeper.models import Game

pytestmark = pytest.mark.browser


class Hand:
    """One hand entered as a player does, counting every tap and key honestly: a typed number
    is one, the keypad's "next" is one, each tap is one, Save is one."""

    def __init__(self, page):
        self.page, self.taps = page, 0

    def type(self, number):
        """A number on the keypad in the field the cursor is in; "next" only where the cursor
        did not move on by itself (the number could still grow)."""
        field = focused(self.page)
        self.page.keyboard.type(str(number))
        self.taps += 1
        if focused(self.page) == field:
            self.page.keyboard.press("Enter")
            self.taps += 1

    def tap(self, selector):
        self.page.locator(selector).first.click()
        self.taps += 1

    def go(self):
        """The keypad's "go" on the last field: saves the hand."""
        self.page.keyboard.press("Enter")
        self.taps += 1
        self.page.wait_for_function("() => !document.body.dataset.busy")

    def save(self):
        button = self.page.locator("#entry form button[type=submit]").first
        box = button.bounding_box()
        assert box["y"] + box["height"] <= self.page.viewport_size["height"], "save is below"
        assert self.page.evaluate("scrollY") == 0  # nothing was scrolled
        self.taps += 1
        save(self.page)


def focused(page):
    return page.evaluate("document.activeElement.name || document.activeElement.tagName")


# the fewest taps and keys for an ordinary hand (docs/at-the-table.md says the same)
TAPS = {"hintersche": 4, "hartenjagen": 6, "vier-anderle type 1": 4, "vier-anderle type 2": 4}


def test_an_ordinary_hand_of_each_game_takes_few_taps_on_one_screen(phone, shots):
    page = phone
    quick_group(page, ["Anna", "Bartholomäus", "Christa", "Dieter", "Erwin", "Franz"])
    four = ["Anna", "Bartholomäus", "Christa", "Dieter"]

    # Hintersche: three numbers (each moves on by itself: no more digit fits) and save; the
    # fourth fills itself in
    start(page, shots, "hintersche", four)
    hand = Hand(page)
    assert focused(page) == "points-Anna"  # a freshly opened table: the cursor is in place
    for number in (30, 45, 35):
        hand.type(number)
    assert focused(page) == "BUTTON"
    hand.save()  # the first deal of the game, as fresh as it gets
    assert hand.taps <= TAPS["hintersche"], hand.taps
    hand = Hand(page)
    assert focused(page) == "points-Anna"  # after a save the cursor waits in the first field
    for number in (20, 50, 40):
        hand.type(number)
    assert page.input_value("input[name='points-Dieter']") == "30"
    assert focused(page) == "BUTTON"  # after the last one: save
    shots("hintersche-before-save")
    hand.save()
    assert hand.taps <= TAPS["hintersche"], hand.taps
    assert state(page)["history"][-1]["points"] == dict(zip(four, [20, 50, 40, 30], strict=True))
    shots("hintersche-after-save")

    # Vier-Anderle, six players: one tap per player who took tricks, "everyone plays", save
    start(page, shots, "vier-anderle", four + ["Erwin", "Franz"])
    hand = Hand(page)  # type 1: everybody plays
    for name, count in (("Anna", 2), ("Christa", 1), ("Erwin", 1)):
        hand.tap(f".tally:has(input[name='tricks-{name}']) button[data-set='{count}']")
    hand.save()
    assert hand.taps <= TAPS["vier-anderle type 1"], hand.taps
    hand = Hand(page)  # type 2: each says whether they play
    assert page.locator("[data-check-all]").is_visible()
    hand.tap("[data-check-all]")
    for name, count in (("Bartholomäus", 2), ("Dieter", 2)):
        hand.tap(f".tally:has(input[name='tricks-{name}']) button[data-set='{count}']")
    shots("vier-anderle-type-2")
    hand.save()
    shots("vier-anderle-after-save")
    assert hand.taps <= TAPS["vier-anderle type 2"], hand.taps
    last = state(page)["history"][-1]
    assert last["type"] == 2 and sorted(last["playing"]) == sorted(four + ["Erwin", "Franz"])

    # Hartenjagen with the jack of diamonds: three heart counts (each moves on by itself), the
    # queen, the jack, save
    start(page, shots, "hartenjagen", four, {"jack_of_diamonds": True})
    hand = Hand(page)
    assert focused(page) == "hearts-Anna"
    for number in (5, 4, 3):
        hand.type(number)
    hand.tap("label.dot:has(input[name='queen'][value='Anna'])")
    hand.tap("label.chip:has(input[name='jack'][value='Dieter'])")
    hand.save()
    assert hand.taps <= TAPS["hartenjagen"], hand.taps
    hand = Hand(page)
    assert focused(page) == "hearts-Anna"
    for number in (2, 6, 4):
        hand.type(number)
    assert page.input_value("input[name='hearts-Dieter']") == "1"  # the last count: by itself
    hand.tap("label.dot:has(input[name='queen'][value='Christa'])")
    hand.tap("label.chip:has(input[name='jack'][value='Bartholomäus'])")
    shots("hartenjagen-before-save")
    hand.save()
    assert hand.taps <= TAPS["hartenjagen"], hand.taps
    assert state(page)["players"][1]["score"] == 4 + 6 - 10
    shots("hartenjagen-after-save")


def test_the_keypads_go_on_the_last_field_saves_the_deal(phone, shots):
    four = ["Anna", "Bert", "Carl", "Dora"]
    quick_group(phone, four)
    start(phone, shots, "hintersche", four)
    hand = Hand(phone)
    for number in (10, 10, 100):  # each could still grow: "next" after each
        hand.type(number)
    assert phone.input_value("input[name='points-Dora']") == "20"
    assert focused(phone) == "BUTTON" and hand.taps == 5
    phone.locator("input[name='points-Carl']").focus()  # back to the last number typed ...
    assert phone.get_attribute("input[name='points-Carl']", "enterkeyhint") == "go"
    hand.go()  # ... its "go" saves
    assert state(phone)["hands_played"] == 1
    assert state(phone)["history"][-1]["points"] == {"Anna": 10, "Bert": 10, "Carl": 100,
                                                     "Dora": 20}
    assert focused(phone) == "points-Anna"


def test_a_refused_hand_shows_its_problem_in_view_with_what_was_typed(phone, shots):
    quick_group(phone, ["A", "B", "C", "D"])
    start(phone, shots, "hintersche", ["A", "B", "C", "D"])
    for name, points in (("A", 50), ("B", 50), ("C", 20), ("D", 20)):
        phone.fill(f"input[name='points-{name}']", str(points))
    save(phone)  # A and B tie: the playoff is asked for at once, in view
    playoff = phone.locator("input[name='playoff-0-A']")
    assert playoff.is_visible() and focused(phone).startswith("playoff-0-")
    box = playoff.bounding_box()
    assert 0 <= box["y"] <= PHONE["height"] - box["height"]
    assert phone.input_value("input[name='points-A']") == "50"
    shots("playoff-in-view")


def test_save_on_an_untouched_form_says_what_is_missing(phone, shots):
    """Save with nothing typed is sent (the server says at the fields what is missing and
    stores nothing); only a second tap right after a save, on the new form, is not."""
    quick_group(phone, ["A", "B", "C", "D"])
    start(phone, shots, "hintersche", ["A", "B", "C", "D"])
    save(phone)
    error = phone.locator("#entry .error:not([hidden])").first
    assert error.is_visible() and "Punkte" in error.inner_text(), error.inner_text()
    assert state(phone)["hands_played"] == 0
    shots("untouched-save")
    phone.context.set_offline(True)  # without network an untouched form is not kept either
    phone.wait_for_timeout(2100)  # past the double-tap window of the answer just shown
    phone.locator("#entry form button[type=submit]").first.click()
    phone.wait_for_selector("body:not([data-busy])", state="attached")
    assert phone.locator("[data-waiting]").is_hidden()
    phone.context.set_offline(False)


def test_a_trick_taken_back_in_a_type_2_hand_unticks_who_plays(phone, shots):
    """In a type 2 hand a trick's tap says its player plays; the same tap again takes the
    trick back, and with it the tick (a mis-tap must not book a player playing alone)."""
    quick_group(phone, ["A", "B", "C", "D"])
    start(phone, shots, "vier-anderle", ["A", "B", "C", "D"])
    tricks(phone, "A", 4)
    save(phone)
    assert state(phone)["next_hand_type"] == 2
    plays = phone.locator("#entry input[name='playing-B']")
    tricks(phone, "B", 1)
    assert plays.is_checked()
    tricks(phone, "B", 1)  # taken back
    assert not plays.is_checked()
    chip_label = phone.locator("label.chip:has(input[name='playing-B'])").first
    chip_label.click()  # said by the player: it stays whatever the tricks do
    tricks(phone, "B", 1)
    tricks(phone, "B", 1)
    assert plays.is_checked()
    shots("type-2-taken-back")


def test_back_and_forward_after_a_save_store_nothing_twice(phone, shots, browser, live_app):
    quick_group(phone, ["A", "B", "C", "D"])
    start(phone, shots, "hintersche", ["A", "B", "C", "D"])
    table = phone.url
    for name, points in (("A", 30), ("B", 45), ("C", 35)):
        phone.fill(f"input[name='points-{name}']", str(points))
    save(phone)
    assert phone.url == table  # the save did not add a page to go back to
    phone.go_back()
    assert "/games/new" in phone.url
    phone.go_forward()
    assert phone.input_value("input[name='points-A']") == ""  # no old numbers to send again
    with live_app.app_context():  # meanwhile another phone enters deal 2
        game = db.session.get(Game, int(table.rsplit("/", 1)[1]))
        assert game.entry_count == 1
    other = browser.new_context(viewport=PHONE, base_url=live_app.config["BASE_URL"],
                                storage_state=phone.context.storage_state()).new_page()
    other.goto(table)
    for name, points in (("A", 10), ("B", 20), ("C", 30)):
        other.fill(f"input[name='points-{name}']", str(points))
    save(other)
    phone.go_back()
    phone.go_forward()  # a page from the back-forward cache brings itself up to date
    phone.locator(".last", has_text="Hand 2").wait_for(timeout=5000)
    save(phone)  # an empty form: refused, nothing stored
    assert len(state(phone)["history"]) == 2
    other.context.close()


def test_back_to_the_group_page_shows_the_hand_just_saved(phone, shots):
    """The group page follows the group's version: back from the table it counts the hand
    that was saved there (it showed the count from before, from the browser's memory)."""
    quick_group(phone, ["A", "B", "C", "D"])
    start(phone, shots, "hintersche", ["A", "B", "C", "D"])
    table = phone.url
    phone.goto(table.split("/games/")[0])  # the group page, then its link to the table
    row = phone.locator(f"a[href='{urlsplit(table).path}']")
    assert row.inner_text().split()[-2] == "0"
    row.click()
    phone.wait_for_url(table)
    for name, points in (("A", 30), ("B", 45), ("C", 35)):
        phone.fill(f"input[name='points-{name}']", str(points))
    save(phone)
    phone.go_back()
    phone.wait_for_function("() => /\\b1 ›/.test(document.querySelector('main').innerText)",
                            timeout=6000)
    shots("group-page-after-back")


def test_the_screen_stays_on_with_a_toggle(browser, live_app):
    context = browser.new_context(viewport=PHONE, base_url=live_app.config["BASE_URL"],
                                  locale="de-DE")
    # headless Chromium has no screen to keep on: the Wake Lock API is stood in for
    context.add_init_script("""
        window.locks = 0;
        Object.defineProperty(navigator, "wakeLock", { value: { request: async () => {
            window.locks += 1;
            const sentinel = new EventTarget();
            sentinel.release = async () => { window.locks -= 1; };
            return sentinel; } } });""")
    page = context.new_page()
    quick_group(page, ["A", "B", "C", "D"])
    start(page, lambda label: None, "hartenjagen", ["A", "B", "C", "D"])
    page.locator("[data-wake-lock][aria-pressed=true]").wait_for()
    assert page.evaluate("window.locks") == 1
    page.locator("[data-wake-lock]").click()
    page.locator("[data-wake-lock][aria-pressed=false]").wait_for()
    assert page.evaluate("window.locks") == 0
    page.reload()
    page.locator("[data-wake-lock][aria-pressed=false]").wait_for()
    assert page.evaluate("window.locks") == 0  # the phone said no: it stays so
    context.close()


@pytest.mark.parametrize("size", [{"width": 844, "height": 390}, {"width": 1280, "height": 800}])
def test_on_its_side_the_slate_is_left_and_the_form_right(browser, live_app, size):
    context = browser.new_context(viewport=size, base_url=live_app.config["BASE_URL"],
                                  locale="de-DE", has_touch=True)
    page = context.new_page()
    shots = Shots(page, f"table-{size['width']}x{size['height']}")
    quick_group(page, ["A", "B", "C", "D"])
    start(page, shots, "hintersche", ["A", "B", "C", "D"])
    slate = page.locator("svg.slate").bounding_box()
    form = page.locator("#entry").bounding_box()
    assert form["x"] >= slate["x"] + slate["width"]  # side by side
    assert form["y"] < size["height"] / 2  # the form starts at the top, not under the slate
    button = page.locator("#entry button[type=submit]").first.bounding_box()
    assert button["y"] + button["height"] <= size["height"]  # Save without scrolling
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
    shots("table")
    context.close()


def test_hands_saved_without_network_wait_and_are_sent_once_in_order(browser, live_app,
                                                                       network):
    context = browser.new_context(viewport=PHONE, base_url=network.url, locale="de-DE",
                                  has_touch=True)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    shots = Shots(page, "offline")
    quick_group(page, ["A", "B", "C", "D"])
    start(page, shots, "hintersche", ["A", "B", "C", "D"])
    table = page.url
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()  # the service worker keeps this page for when there is no network
    assert page.evaluate("Boolean(navigator.serviceWorker.controller)")
    deals = [{"A": 30, "B": 45, "C": 35}, {"A": 10, "B": 20, "C": 30}, {"A": 0, "B": 70, "C": 20}]
    for name, points in deals[0].items():  # one deal while the network is there
        page.fill(f"input[name='points-{name}']", str(points))
    save(page)

    live_app.config["WTF_CSRF_TIME_LIMIT"] = 3  # the tokens the waiting hands carry expire
    network.cut()
    context.set_offline(True)
    page.reload()  # the phone opens the table again without network: from the service worker
    assert page.locator(".last", has_text="Hand 1").is_visible()  # as it was after deal 1
    for deal in deals[1:]:
        for name, points in deal.items():
            page.fill(f"input[name='points-{name}']", str(points))
        save(page)
    waiting = page.locator("[data-waiting-list] li")
    assert waiting.count() == 2
    assert waiting.nth(0).inner_text().startswith("#2: A 10 · B 20 · C 30")
    assert waiting.nth(1).inner_text().startswith("#3: A 0 · B 70 · C 20")
    assert page.input_value("input[name=seq]") == "4"
    page.reload()  # still without network: the hands are still there, the form goes on after them
    page.locator("[data-waiting-list] li").nth(1).wait_for()  # read from IndexedDB after loading
    assert page.locator("[data-waiting-list] li").count() == 2
    assert page.input_value("input[name=seq]") == "4"
    shots("waiting-to-send")
    with live_app.app_context():
        assert db.session.get(Game, int(table.rsplit("/", 1)[1])).entry_count == 1
    time.sleep(4)  # longer than the tokens live

    network.restore()
    context.set_offline(False)
    page.locator("[data-waiting]").wait_for(state="hidden", timeout=15000)
    page.locator(".last", has_text="Hand 3").wait_for(timeout=5000)
    history = state(page)["history"]
    assert [list(deal["points"].values()) for deal in history] == [
        [30, 45, 35, 30], [10, 20, 30, 80], [0, 70, 20, 50]]
    shots("sent")
    assert errors == []
    context.close()


def test_a_waiting_hand_that_another_phone_entered_meanwhile_is_refused_by_name(
        browser, live_app, network):
    context = browser.new_context(viewport=PHONE, base_url=network.url, locale="de-DE")
    page = context.new_page()
    shots = Shots(page, "offline-refused")
    quick_group(page, ["A", "B", "C", "D"])
    start(page, shots, "hintersche", ["A", "B", "C", "D"])
    table = page.url
    network.cut()
    context.set_offline(True)
    for deal in ({"A": 30, "B": 45, "C": 35}, {"A": 10, "B": 20, "C": 30}):  # two wait
        for name, points in deal.items():
            page.fill(f"input[name='points-{name}']", str(points))
        save(page)
    other = browser.new_context(viewport=PHONE, base_url=live_app.config["BASE_URL"],
                                storage_state=context.storage_state()).new_page()
    other.goto(table.replace(network.url, live_app.config["BASE_URL"]))
    for name, points in (("A", 60), ("B", 40), ("C", 20)):
        other.fill(f"input[name='points-{name}']", str(points))
    save(other)
    network.restore()
    context.set_offline(False)
    refused = page.locator("[data-waiting-list] li .error")
    refused.nth(1).wait_for(timeout=10000)
    assert "Hand 1 passt nicht mehr" in refused.nth(0).inner_text()
    assert "Die Hand davor wurde nicht gespeichert" in refused.nth(1).inner_text()  # held back
    assert page.locator("[data-waiting-note]").is_hidden()  # no "no network" any more
    assert [list(deal["points"].values()) for deal in state(page)["history"]] == [[60, 40, 20, 20]]
    page.locator(".last", has_text="Hand 1").wait_for()  # the other phone's deal is on the slate
    shots("refused")
    for left in (1, 0):  # understood, one after the other (each click redraws the list)
        page.locator("[data-waiting-list] li button").first.click()
        page.wait_for_function(
            f"() => document.querySelectorAll('[data-waiting-list] li').length === {left}")
    page.locator("[data-waiting]").wait_for(state="hidden")
    other.context.close()
    context.close()


def test_taps_on_a_half_entered_hand_stay_when_another_phone_saves(phone, shots, browser,
                                                                     live_app):
    quick_group(phone, ["A", "B", "C", "D"])
    start(phone, shots, "vier-anderle", ["A", "B", "C", "D"])
    other = browser.new_context(viewport=PHONE, base_url=live_app.config["BASE_URL"],
                                storage_state=phone.context.storage_state()).new_page()
    other.goto(phone.url)
    phone.locator(".tally:has(input[name='tricks-A']) button[data-set='2']").click()  # half-way
    other.locator(".tally:has(input[name='tricks-B']) button[data-set='4']").click()
    save(other)
    phone.locator("[data-live-notice]").wait_for(state="visible", timeout=4000)
    assert phone.input_value("input[name='tricks-A']") == "2"  # the tap is still there
    assert "Hand 1" in phone.locator("[data-live-part=state]").inner_text()
    shots("kept-taps")
    other.context.close()


def test_two_packs_with_black_maria_fit_the_phone_and_take_a_tap_per_card(phone, shots):
    names = ["Anna", "Bartholomäus", "Christa", "Dieter", "Erwin", "Franz"]
    quick_group(phone, names)
    start(phone, shots, "hartenjagen", names, {"decks": 2, "black_maria": True})
    for width in (390, 320):
        phone.set_viewport_size({"width": width, "height": 844})
        assert phone.evaluate("document.documentElement.scrollWidth") <= width
    shots("two-packs-320")
    for name, hearts in zip(names, (10, 6, 4, 3, 2), strict=False):
        phone.fill(f"input[name='hearts-{name}']", str(hearts))  # Franz: 1, by itself
    for field, name in (("queen", "Anna"), ("queen-2", "Franz"), ("king", "Christa"),
                        ("king-2", "Dieter"), ("ace", "Erwin"), ("ace-2", "Bartholomäus")):
        chip(phone, field, name)
    save(phone)
    assert state(phone)["hands_played"] == 1


def test_a_table_change_kept_without_network_is_listed_with_its_choices(phone, shots):
    quick_group(phone, ["A", "B", "C", "D", "E"])
    start(phone, shots, "vier-anderle", ["A", "B", "C", "D"])
    # the folded form comes from the server when it is opened: opened before the network goes
    phone.locator("details[data-load*='/form'] summary").click()
    change = "details:has(select[name=dealer])"
    phone.locator(change).wait_for()
    phone.context.set_offline(True)
    phone.locator(f'{change} label.chip:has(input[name="seat-E"])').click()
    phone.select_option(f"{change} select[name=dealer]", index=1)
    save(phone, f"{change} form")
    item = phone.locator("[data-waiting-list] li").first.inner_text()
    # the words of the form's own fields: the seats ticked, and each select's choice
    seats = phone.get_attribute(f"{change} fieldset[data-label]", "data-label")
    assert f"{seats}: A, B, C, D, E" in item
    for select in ("after", "dealer"):
        field = phone.locator(f"{change} select[name={select}]")
        text = field.evaluate("(s) => s.selectedOptions[0].text")
        assert f"{field.get_attribute('data-label')}: {text}" in item, item
    shots("table-change-waiting")
    phone.context.set_offline(False)


def test_a_hand_is_answered_with_the_tables_content_and_the_table_change_comes_when_opened(
        phone, shots):
    quick_group(phone, ["A", "B", "C", "D", "E"])
    start(phone, shots, "vier-anderle", ["A", "B", "C", "D"])
    assert phone.locator("select[name=dealer]").count() == 0  # folded: not on the page
    shots("table-change-folded")
    phone.evaluate("document.querySelector('header').dataset.kept = '1'")
    phone.locator(".tally:has(input[name='tricks-A']) button[data-set='4']").click()
    posts = []
    phone.on("request", lambda r: posts.append((r.method, r.url)))
    save(phone)
    # the answer replaced the page's content alone: the header is the same element
    assert phone.locator("header[data-kept]").count() == 1
    table = phone.url.split("?")[0]
    assert [m for m, url in posts if url.split("?")[0] in (table, table + "/entries")] == \
        ["POST"]  # and no page was loaded after it
    assert "✓" in phone.locator(".saved").inner_text()
    assert state(phone)["hands_played"] == 1
    phone.locator("details[data-load*='/form'] summary").click()
    phone.locator("details:has(select[name=dealer])").wait_for()
    shots("table-change-opened")
    phone.locator("details:has(select[name=dealer]) label.chip:has(input[name='seat-E'])").click()
    save(phone, "details:has(select[name=dealer]) form")
    assert [p["name"] for p in state(phone)["players"]][-1] == "E"
