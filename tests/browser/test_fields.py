"""What a tap on a count does: never changes another player's count, and a tap that cannot be
taken says why."""

import pytest
from test_play import quick_group, start

pytestmark = pytest.mark.browser


def test_a_trick_tap_that_would_pass_the_total_changes_nothing_and_says_why(phone, shots):
    four = ["Anna", "Berti", "Carl", "Dora"]
    quick_group(phone, four)
    start(phone, shots, "vier-anderle", four)
    tally = ".tally:has(input[name='tricks-{}']) button[data-set='{}']"
    phone.locator(tally.format("Berti", 1)).click()
    phone.locator(tally.format("Anna", 4)).click()  # only 3 are left
    counts = {n: phone.input_value(f"input[name='tricks-{n}']") for n in four}
    assert counts == {"Anna": "0", "Berti": "1", "Carl": "0", "Dora": "0"}
    note = phone.locator("[data-over-note]")
    assert note.is_visible() and "nur noch 3 Stiche frei" in note.inner_text()
    shots("four-refused")
    phone.locator(tally.format("Anna", 3)).click()  # what is left is taken
    assert phone.input_value("input[name='tricks-Anna']") == "3"
    phone.locator(tally.format("Anna", 3)).click()  # the same number again takes it back
    assert phone.input_value("input[name='tricks-Anna']") == "0"


def test_a_heart_that_would_pass_thirteen_is_refused_in_words(phone, shots):
    four = ["Anna", "Berti", "Carl", "Dora"]
    quick_group(phone, four)
    start(phone, shots, "hartenjagen", four)
    phone.fill("input[name='hearts-Anna']", "13")
    phone.locator(".stepper:has(input[name='hearts-Berti']) .plus").click()
    assert phone.input_value("input[name='hearts-Berti']") == "0"
    note = phone.locator("[data-over-note]")
    assert note.is_visible() and "Alle 13 Herzen sind verteilt" in note.inner_text()
    shots("heart-refused")
    phone.locator(".stepper:has(input[name='hearts-Anna']) .minus").click()  # one is free
    assert phone.input_value("input[name='hearts-Anna']") == "12" and not note.is_visible()


def test_the_hands_rows_show_names_whole_in_two_lines_at_most(phone, shots):
    """Hartenjagen with two packs: the rows of the hand cut each name to its first eight letters
    ("Josefine …"); they show it whole in two lines, the rows no higher than their buttons."""
    five = ["Josefine Klein", "Josefine Kleinert", "Emil Becker", "Carl Schmid", "Ignaz Richter"]
    quick_group(phone, five)
    start(phone, shots, "hartenjagen", five, rules={"decks": 2})
    rows = phone.evaluate("""() => [...document.querySelectorAll("table.cards tbody tr")].map(
        (tr) => {
          const name = tr.querySelector("th .name");
          const button = tr.querySelector(".stepper button");
          return [name.textContent, name.scrollHeight <= name.clientHeight + 1,
                  tr.getBoundingClientRect().height, button.getBoundingClientRect().height];
        })""")
    assert [name for name, *_ in rows] == five
    assert all(whole and height <= button + 2 for _name, whole, height, button in rows), rows
    shots("names-whole")
