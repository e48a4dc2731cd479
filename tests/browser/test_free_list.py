"""A free list of Skat for three, played at 390×844 in German on two phones: one enters, the
other watches it change; a hand typed wrong is corrected from the history; money at "0,05" a
point and the evening's settlement at the end. And a list that adds up to 0 (Doppelkopf),
whose last field fills itself in below zero. Screenshots at 390×844 and on its side."""

import re

import pytest
from conftest import PHONE, Shots
from playwright.sync_api import expect
from test_play import quick_group, save, state, tap

pytestmark = pytest.mark.browser

SKAT = ["Kurt", "Hubert", "Hermann"]
SIDEWAYS = {"width": PHONE["height"], "height": PHONE["width"]}


def both_ways(shots, label):
    """A screenshot at 390×844 and one of the phone on its side."""
    shots(label)
    shots.page.set_viewport_size(SIDEWAYS)
    shots(label + "-side")
    shots.page.set_viewport_size(PHONE)


def points(page, name, number):
    """Type a player's points on the number pad; a negative number as a phone can: the digits,
    then ± beside the field."""
    field = page.locator(f'input[name="points-{name}"]')
    field.click()
    field.press_sequentially(str(abs(number)))
    if number < 0:
        page.locator(f'.field:has(input[name="points-{name}"]) [data-negate]').click()
    assert field.input_value() == str(number)


def skat_list(page):
    """A group of the three Skat players and a fresh free list "Skat" for them."""
    quick_group(page, SKAT)
    page.goto(page.url.split("/games/")[0] + "/games/new?kind=free-list")
    page.fill('input[name="rule-name"]', "Skat")
    for who in SKAT:
        page.locator(f'label.chip:has(input[name="seat-{who}"])').click()
    save(page, "form[data-seating]")


def totals(page):
    """The list's last row as the page shows it: each player's total."""
    row = page.locator(".table-top .flist tbody tr").last
    return [int(cell.inner_text().split()[0]) for cell in row.locator("td b").all()]


def test_a_skat_list_on_two_phones_with_a_correction_and_the_money(phone, shots, browser,
                                                                    live_app):
    page = phone
    quick_group(page, SKAT)
    page.goto(page.url.split("/games/")[0] + "/games/new?kind=free-list")
    # the name comes first, with the usual ones offered; nothing is started without it
    name = page.locator('input[name="rule-name"]')
    assert name.is_visible() and name.get_attribute("list") == "rule-name-offered"
    assert page.locator("#rule-name-offered option").evaluate_all(
        "(options) => options.map((o) => o.value)")[:2] == ["Skat", "Doppelkopf"]
    for who in SKAT:
        page.locator(f'label.chip:has(input[name="seat-{who}"])').click()
    page.locator("details summary").first.click()  # the other options are folded away
    page.fill('input[name="rule-cents_per_point"]', "0,05")
    assert page.locator('input[name="rule-target"]').get_attribute("placeholder") == "kein Ziel"
    both_ways(shots, "new-game")
    save(page, "form[data-seating]")
    assert "/games/new" in page.url
    assert page.locator(".field.has-error input[name='rule-name']").count() == 1
    assert page.locator('input[name="rule-cents_per_point"]').input_value() == "0,05"
    assert page.locator("input[data-seat]:checked").count() == 3  # the table is kept
    shots("no-name")
    name.fill("Skat")
    save(page, "form[data-seating]")
    assert re.search(r"/games/\d+$", page.url)
    table = page.url
    assert page.title().startswith("Skat #") and page.locator("h1").inner_text().startswith(
        "Skat")
    assert state(page)["rules"]["cents_per_point"] == 5
    both_ways(shots, "fresh-list")

    # the second phone at the table watches the list
    other = browser.new_context(viewport=PHONE, device_scale_factor=1, has_touch=True,
                                locale="de-DE", base_url=live_app.config["BASE_URL"],
                                storage_state=page.context.storage_state()).new_page()
    other.goto(table)
    assert other.locator("#entry h2").inner_text() == "Hand 1 · Kurt gibt"
    # what each hand's answer was, and the pages the other phone asked for meanwhile
    answers, fetched = [], []
    page.on("response", lambda r: answers.append(r.text()) if r.url.endswith("/entries")
            else None)
    other.on("request", lambda r: fetched.append(r.url) if r.url == table else None)

    points(page, "Hubert", 48)  # a Grand won: only the one who played scores
    save(page)
    assert totals(page) == [0, 48, 0]
    points(page, "Hermann", -36)  # a game lost
    save(page)
    points(page, "Kurt", 32)  # a slip: Kurt won 23
    save(page)
    assert totals(page) == [32, 48, -36]
    # the second and third answers: only what the hand changed; the form is empty for hand 4
    assert ["data-table-change" in answer for answer in answers] == [False, True, True]
    assert page.locator('input[name="points-Kurt"]').input_value() == ""
    assert page.locator('#entry input[name="seq"]').first.input_value() == "4"
    assert page.locator(".table-top .brief").inner_text() == "vorn: Hubert"
    assert page.locator("#entry h2").inner_text() == "Hand 4 · Kurt gibt"  # round the table
    assert page.locator(".flist th.lead").inner_text() == "Hubert"
    # the other phone sees every hand without reloading
    expect(other.locator(".table-top .flist tbody tr")).to_have_count(3)
    assert totals(other) == [32, 48, -36] and fetched == []  # put in place, no page asked for
    assert other.locator("#entry h2").inner_text() == "Hand 4 · Kurt gibt"
    assert other.locator('#entry input[name="seq"]').first.input_value() == "4"
    assert other.locator(".flist tfoot").inner_text().split() == [
        "€", "2,60", "€", "5,00", "€", "-7,60", "€"]
    both_ways(shots, "three-hands")
    both_ways(Shots(other, "free-list-other-phone"), "three-hands")

    # the correction, from the history: what it changes first, then the confirm stores it
    tap(page, "a[href$='/history']")
    assert "Skat #" in page.locator("h1").inner_text()
    both_ways(shots, "history")
    tap(page, "a[href$='/entries/3']")
    page.fill('input[name="points-Kurt"]', "23")
    save(page, "main form")
    assert "32 → 23" in page.locator("#changes").inner_text().replace("\n", " ")
    both_ways(shots, "correction-preview")
    save(page, "form.confirm")
    assert totals(page) == [23, 48, -36]
    expect(other.locator(".table-top .flist tbody tr").last.locator("td b").first).to_have_text(
        "23")
    assert totals(other) == [23, 48, -36]

    # closing time: ended as it stands, Hubert ahead; the money settles
    page.locator("details.end summary").click()
    page.locator("details.end form[action$='/close']").wait_for()
    assert "Hubert liegt vorn und gewinnt das Spiel." in page.locator("details.end").inner_text()
    both_ways(shots, "end-box")
    save(page, "form[action$='/close']")
    done = page.locator(".done")
    assert "Hubert gewinnt das Spiel." in done.inner_text()
    assert [p["balance_cents"] for p in state(page)["players"]] == [170, 545, -715]
    both_ways(shots, "ended")
    other.locator(".done").wait_for()
    tap(page, ".done a[href*='#payments']")
    payments = page.locator("ul.payments").inner_text()
    assert re.search(r"Hermann\s*→\s*Hubert\s*5,45", payments), payments
    assert re.search(r"Hermann\s*→\s*Kurt\s*1,70", payments), payments
    assert "Skat #" in page.locator("main").inner_text()
    both_ways(shots, "settlement")
    other.context.close()


def test_a_list_that_adds_up_to_zero_fills_in_the_last_field_below_zero(phone, shots):
    page = phone
    names = ["Anna", "Berta", "Carl", "Dora"]
    quick_group(page, names)
    page.goto(page.url.split("/games/")[0] + "/games/new?kind=free-list")
    page.fill('input[name="rule-name"]', "Doppelkopf")
    for who in names:
        page.locator(f'label.chip:has(input[name="seat-{who}"])').click()
    page.locator("details summary").first.click()
    page.check('input[name="rule-zero_sum"]')
    save(page, "form[data-seating]")
    points(page, "Anna", 3)
    points(page, "Berta", 3)
    points(page, "Carl", -1)
    dora = page.locator('input[name="points-Dora"]')
    assert dora.input_value() == "-5"  # filled in: the hand adds up to 0
    both_ways(shots, "filled-in")
    save(page)
    assert [p["score"] for p in state(page)["players"]] == [3, 3, -1, -5]
    # typed over, it no longer adds up: the engine's words at the fields, nothing stored
    points(page, "Anna", 2)
    points(page, "Berta", -2)
    points(page, "Carl", 1)
    dora.fill("0")
    save(page)
    assert "ergeben 1, in diesem Spiel ergibt jede Hand 0" in page.locator(
        "#entry .error").first.inner_text()
    assert state(page)["hands_played"] == 1
    shots("does-not-add-up")


def test_a_saved_hand_whose_answer_cannot_be_shown_says_it_was_saved(phone, shots):
    """A hand's answer that does not follow what the page shows (a version missed meanwhile):
    the page is fetched and says the hand was saved. If the page cannot be fetched either (the
    network gone right after the save), the page still says so, keeps no form to type the next
    hand into (its number would be taken), and a tap loads the table again."""
    page = phone
    skat_list(page)
    table = page.url
    points(page, "Kurt", 23)
    save(page)
    missed = "document.querySelector('[data-live]').dataset.version = '0'"  # a version missed
    page.evaluate(missed)
    points(page, "Hubert", 18)
    save(page)
    # (the page is fetched after the answer: waited for)
    expect(page.locator("h1 .saved")).to_have_text("✓ Hand 2 gespeichert.")
    expect(page.locator("#entry h2")).to_contain_text("Hand 3")
    page.evaluate(missed)
    page.evaluate("""() => {  // the table's page cannot be fetched: the server is busy
        const real = window.fetch;
        window.fetch = (url, options) => String(url) === location.href && !options?.method
            ? Promise.resolve(new Response("", { status: 503 })) : real(url, options);
    }""")
    points(page, "Hermann", 30)
    save(page)
    expect(page.locator("h1 .saved")).to_have_text("✓ Hand 3 gespeichert.")
    assert page.locator("#entry form").count() == 0
    assert page.locator("#entry .done").inner_text().startswith(
        "Gespeichert. Die Liste zeigt es, sobald das Netz wieder antwortet.")
    both_ways(shots, "saved-not-shown")
    tap(page, "#entry .done a")
    assert page.url == table
    assert state(page)["hands_played"] == 3
    assert page.locator("#entry h2").inner_text().startswith("Hand 4")


def test_an_opened_end_box_shows_the_totals_after_the_next_hand(phone, shots):
    """"Spiel beenden" opened shows who would win with the totals as they stand; a hand saved
    meanwhile (answered with what it changed) folds the box, and opened again it counts that
    hand too: it never shows the totals from before it."""
    page = phone
    skat_list(page)
    points(page, "Kurt", 23)
    save(page)
    points(page, "Hubert", 18)
    save(page)
    page.locator("details.end summary").click()
    box = page.locator("details.end")
    expect(box).to_contain_text("Kurt liegt vorn und gewinnt das Spiel.")
    points(page, "Hubert", 40)
    save(page)
    expect(page.locator("h1 .saved")).to_have_text("✓ Hand 3 gespeichert.")
    assert not box.evaluate("(box) => box.open")  # folded: what it said is gone
    page.locator("details.end summary").click()
    expect(box).to_contain_text("Hubert liegt vorn und gewinnt das Spiel.")
    shots("end-box-after-a-hand")


def test_a_hand_saved_as_the_network_goes_leaves_no_form_for_the_next(browser, live_app,
                                                                     network):
    """The network goes right after a hand's answer came, one the page cannot put in place (a
    version missed): the service worker answers the page's question with its kept copy, from
    before the hand; the page takes that for no answer (X-Kept), says the hand was saved and
    leaves no form whose number is taken already. Back on the network, the table has both."""
    page = browser.new_context(viewport=PHONE, base_url=network.url, locale="de-DE",
                               has_touch=True).new_page()
    skat_list(page)
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()  # the worker in control
    points(page, "Kurt", 23)
    save(page)
    expect(page.locator("h1 .saved")).to_have_text("✓ Hand 1 gespeichert.")
    page.wait_for_timeout(300)  # the worker keeps the page as shown
    page.evaluate("document.querySelector('[data-live]').dataset.version = '0'")
    page.expose_function("cutNetwork", network.cut)
    page.evaluate("""() => {  // the network goes as the hand's answer comes
        const real = window.fetch;
        window.fetch = async (url, options) => {
          if (options?.method !== "POST") return real(url, options);
          const answer = await real(url, options), text = await answer.text();
          await window.cutNetwork();
          return new Response(text, { status: answer.status, headers: answer.headers });
        };
    }""")
    points(page, "Hubert", 18)
    save(page)
    expect(page.locator("#entry .done")).to_contain_text("Gespeichert.")
    expect(page.locator("h1 .saved")).to_have_text("✓ Hand 2 gespeichert.")
    assert page.locator("#entry form").count() == 0
    network.restore()
    page.locator("#entry .done a").click()
    page.wait_for_load_state()
    assert state(page)["hands_played"] == 2
    page.context.close()


def test_the_next_hand_typed_while_the_page_is_fetched_is_not_lost(phone):
    """A hand's answer the page cannot put in place (a version missed): until the page is
    fetched there is no form to type into. Typed into the old one, the next hand went out with
    the old hand's number and key and was taken for a repeat of it: lost."""
    page = phone
    skat_list(page)
    points(page, "Kurt", 23)
    save(page)
    page.evaluate("document.querySelector('[data-live]').dataset.version = '0'")
    page.evaluate("""() => {  // the table's page comes slowly: 1.5 s
        const real = window.fetch;
        window.fetch = async (url, options) => {
          if (String(url) === location.href && !options?.method)
            await new Promise((done) => setTimeout(done, 1500));
          return real(url, options);
        };
    }""")
    points(page, "Hubert", 18)
    save(page)
    points(page, "Hermann", 30)  # at once: into whatever form the page shows
    save(page)
    expect(page.locator("h1 .saved")).to_have_text("✓ Hand 3 gespeichert.")
    assert [p["score"] for p in state(page)["players"]] == [23, 18, 30]
