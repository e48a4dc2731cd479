"""Back, then "Spiel starten" again: the table gets the game it started, not a second one (the
Vier-Anderle case: the second one had an empty pot instead of the Kasse's). At 390×844 in
German; screenshots go to test-artifacts/."""

import re

import pytest
from conftest import PHONE
from test_play import chip, quick_group, save, start, state, tap, tricks

pytestmark = pytest.mark.browser


def test_back_and_start_again_opens_the_game_that_was_started(phone, shots):
    page = phone
    quick_group(page, ["Anna", "Bert", "Carl", "Dora"])
    # an earlier game leaves 12 stakes in the Kasse
    start(page, shots, "vier-anderle", ["Anna", "Bert", "Carl"])
    tricks(page, "Anna", 4)
    save(page)
    page.locator("details summary").last.click()
    save(page, "form[action$='/close']")
    # the next game takes them in
    page.goto(page.url.split("/games/")[0] + "/games/new?kind=vier-anderle")
    assert page.input_value("input[name='rule-starting_pot']") == "12"
    for name in ("Anna", "Bert", "Carl"):
        chip(page, f"seat-{name}", name)
    save(page, "form[data-seating]")
    game = page.url
    assert state(page)["pot"] == 12
    # Back, and the same form sent again
    page.go_back()
    page.wait_for_load_state()
    assert "/games/new" in page.url
    shots("back")
    save(page, "form[data-seating]")
    assert page.url == game
    note = page.locator("p.flash", has_text="Dieses Spiel läuft schon")
    assert note.is_visible()
    assert state(page)["pot"] == 12
    shots("same-game")
    page.set_viewport_size({"width": PHONE["height"], "height": PHONE["width"]})
    shots("same-game-on-its-side")
    page.set_viewport_size(PHONE)
    # the group page lists one running game
    page.goto(game.split("/games/")[0])
    running = page.locator("h2", has_text="Laufende Spiele") \
        .locator("xpath=following-sibling::ul[1]/li")
    assert running.count() == 1
    assert re.search(r"/games/\d+$", running.locator("a").get_attribute("href")).group(0) \
        == re.search(r"/games/\d+$", game).group(0)
    shots("group")


def both_ways(page, shots, label):
    """A screenshot upright and one on its side."""
    shots(label)
    page.set_viewport_size({"width": PHONE["height"], "height": PHONE["width"]})
    shots(label + "-on-its-side")
    page.set_viewport_size(PHONE)


def options(page, name):
    return page.locator(f"details form select[name={name}] option").all_inner_texts()


def test_the_table_change_history_and_correction_speak_as_the_table(phone, shots):
    page = phone
    quick_group(page, ["Anna", "Bert", "Carl", "Dora", "Emil"])
    start(page, shots, "vier-anderle", ["Anna", "Bert", "Carl", "Dora"])
    tricks(page, "Anna", 4)
    save(page)
    # the table change offers the seats at this table and its players as dealers
    page.locator("details[data-load] summary", has_text="Jemand kommt dazu").click()
    page.wait_for_selector("details form select[name=dealer]")
    assert options(page, "dealer")[1:] == ["Anna", "Bert", "Carl", "Dora"]
    assert options(page, "after") == ["zwischen Anna und Bert", "zwischen Bert und Carl",
                                      "zwischen Carl und Dora", "zwischen Dora und Anna"]
    # Bert gets up, Emil sits down where Bert sat
    page.locator("details form label.chip:has(input[name='seat-Bert'])").click()
    page.locator("details form label.chip:has(input[name='seat-Emil'])").click()
    page.select_option("details form select[name=after]", label="zwischen Bert und Carl")
    both_ways(page, shots, "table-change")
    save(page, "details form")
    assert state(page)["seated"] == ["Anna", "Emil", "Carl", "Dora"]
    for name in ("Anna", "Emil", "Carl", "Dora"):
        chip(page, f"playing-{name}", "on")
    for name in ("Anna", "Emil", "Carl", "Dora"):
        tricks(page, name, 1)
    save(page)
    # the history numbers the hands as the table does; the table change is named
    tap(page, "a[href$='/history']")
    numbers = page.locator("table.history tbody tr td:first-child").all_inner_texts()
    assert [n.strip() for n in numbers] == ["2", "", "1"]
    assert page.locator("table.history a", has_text="Tischwechsel").is_visible()
    both_ways(page, shots, "history")
    # correcting hand 1: the preview shows each player's money before and after
    tap(page, "table.history a[aria-label='Korrigieren: Hand 1']")
    tricks(page, "Anna", 3)
    tricks(page, "Bert", 1)
    save(page, "main form")
    money = page.locator("#money tbody tr")
    assert money.count() == 5  # Bert got up: his money still counts
    both_ways(page, shots, "correction-money")
    # undo names the hand as the table does
    page.goto(page.url.split("/entries/")[0])
    tap(page, "a[href*='/undo']")
    assert page.locator("main .card b", has_text="Hand 2").is_visible()
    save(page, "main form")
    assert page.locator("p.flash", has_text="Hand 2").is_visible()


RUBBER = [{"A": 0, "B": 77, "C": 63, "D": 0}, {"B": 0, "C": 0, "D": 36, "A": 104},
          {"C": 24, "D": 0, "B": 85}, {"B": 35, "C": 12}]


def test_a_correction_that_reopens_a_rubber_warns_first(phone, shots):
    page = phone
    quick_group(page, ["A", "B", "C", "D"])
    start(page, shots, "hintersche", ["A", "B", "C", "D"], {"rubber_games": 1})
    for points in RUBBER:
        for name, value in points.items():
            page.fill(f"input[name='points-{name}']", str(value))
        save(page)
    rubber = page.url
    assert state(page)["finished"]
    tap(page, ".done a.button")  # "Nächste Runde"
    save(page, "form[data-seating]")
    following = page.url.rsplit("/", 1)[1]
    page.goto(rubber + "/history")
    tap(page, "table.history a[aria-label='Korrigieren: Hand 4']")
    page.fill("input[name='points-B']", "12")
    page.fill("input[name='points-C']", "35")
    save(page, "main form")
    warning = page.locator("#changes .banner")
    assert warning.is_visible()
    assert f"die nächste Runde (#{following}) schon angefangen" in warning.inner_text()
    assert page.locator("#money tbody tr").count() == 4
    both_ways(page, shots, "reopen-warning")
