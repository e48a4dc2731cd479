"""Money typed as players type it, in German, Dutch and English, and a Save tapped twice, at
390×844 in a browser set to the language (a German Chromium turned "0,20" in a number field
into "020", which was stored as 20 euros)."""

import pytest
from test_play import hearts_hand, quick_group, save, start, state, tricks

pytestmark = pytest.mark.browser
SIX = ["Anna", "Berta", "Cilli", "Dora", "Emil", "Fritz"]
FOUR = ["Anna", "Berta", "Cilli", "Dora"]


def rules_of(page):
    return page.context.request.get(page.url + "/record.json").json()["rules"]


@pytest.mark.parametrize("lang, comma", [("de", True), ("nl", True), ("en", False)])
def test_money_typed_in_the_phones_language_is_kept_in_the_next_game(phone, shots, lang, comma):
    quick_group(phone, SIX)
    group = phone.url
    phone.goto(f"/lang/{lang}")
    phone.goto(group)
    point = "," if comma else "."
    start(phone, shots, "vier-anderle", SIX, {"stake_cents": f"0{point}20"})
    assert rules_of(phone)["stake_cents"] == 20
    table = phone.url
    start(phone, shots, "hintersche", FOUR, {"tariff_cents": f"1{point}50"})
    assert rules_of(phone)["tariff_cents"] == 150
    rubber = phone.url
    start(phone, shots, "hartenjagen", FOUR, {"cents_per_point": f"0{point}05"})
    assert rules_of(phone)["cents_per_point"] == 5
    hearts = phone.url
    # the next game of each kind shows the money as the language writes it and keeps it
    for path, key, shown, cents in ((table, "stake_cents", f"0{point}20", 20),
                                    (rubber, "tariff_cents", f"1{point}50", 150),
                                    (hearts, "cents_per_point", f"0{point}05", 5)):
        phone.goto(path.split("/games/")[0] + f"/games/new?from={path.rsplit('/', 1)[1]}")
        field = phone.locator(f'input[name="rule-{key}"]')
        assert field.get_attribute("type") == "text"
        assert field.get_attribute("inputmode") == "decimal"
        assert field.input_value() == shown
        shots("next-game")
        save(phone, "form[data-seating]")
        assert rules_of(phone)[key] == cents
    # a slip is told at the field, and what was typed stays
    phone.goto(phone.url.split("/games/")[0] + "/games/new?kind=hintersche")
    for name in FOUR:
        phone.locator(f'label.chip:has(input[name="seat-{name}"])').click()
    phone.locator("details summary").first.click()
    phone.fill('input[name="rule-tariff_cents"]', "1,5,0")
    save(phone, "form[data-seating]")
    field = phone.locator('label.field:has(input[name="rule-tariff_cents"])')
    assert field.locator("small.error").count() == 1
    assert phone.locator('input[name="rule-tariff_cents"]').input_value() == "1,5,0"
    shots("refused-at-the-field")


def test_a_double_tap_on_save_saves_once_and_shows_no_errors(phone, shots):
    quick_group(phone, SIX)
    start(phone, shots, "vier-anderle", SIX)
    tricks(phone, "Anna", 4)
    button = phone.locator("#entry form button[type=submit]").first
    button.dblclick()  # the second tap lands while the answer is on its way, or on the new form
    phone.wait_for_selector("body:not([data-busy])", state="attached")
    phone.wait_for_timeout(300)
    phone.locator("#entry form button[type=submit]").first.click()  # a late third tap
    phone.wait_for_timeout(300)
    assert state(phone)["hands_played"] == 1
    assert phone.locator("#entry .error:not([hidden]), #entry [aria-invalid=true]").count() == 0
    assert phone.locator(".saved").count() == 1  # the "saved" line is still there
    shots("after-a-double-tap")


WIDTH = "() => document.documentElement.scrollWidth"


def test_ending_a_game_at_closing_time_and_deleting_one_started_by_mistake(phone, shots):
    quick_group(phone, FOUR)
    start(phone, shots, "hartenjagen", FOUR, {"cents_per_point": "0,10"})
    hearts_hand(phone, {"Anna": 13}, "Berta")  # Anna 13, Berta 13, Cilli and Dora 0
    box = phone.locator("details.end")
    box.locator("summary").click()
    box.locator("form[action$='/close']").wait_for()  # the box comes when it is opened
    said = box.inner_text().replace("\xa0", " ")
    assert "-1,30 €" in said and "1,30 €" in said  # what ending it now pays
    box.scroll_into_view_if_needed()
    assert phone.evaluate(WIDTH) <= 390
    shots("end-box")
    phone.set_viewport_size({"width": 844, "height": 390})  # on its side
    assert phone.evaluate(WIDTH) <= 844
    shots("end-box-on-its-side")
    phone.set_viewport_size({"width": 390, "height": 844})
    save(phone, "form[action$='/close']")
    shown = state(phone)
    assert shown["finished"] is False and shown["hands_played"] == 1
    assert phone.locator(".done").is_visible()
    assert phone.locator("#entry").count() == 0  # no more hands
    shots("ended")
    phone.goto(phone.url + "/history")
    assert phone.locator("tr.ended").count() == 1
    shots("history-ended")
    # a game started by mistake, without a hand: deleted, gone from the group page
    start(phone, shots, "vier-anderle", FOUR)
    game = phone.url
    phone.locator("details.end summary").click()
    shots("delete-box")
    save(phone, "form[action$='/delete']")
    assert game not in phone.content()
    shots("group-after-delete")
