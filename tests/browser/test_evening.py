"""An evening with all three games, closed, its settlement and the standings, at 390×844."""

import re

import pytest
from test_play import chip, hearts_hand, hintersche_deal, save, set_up_group, tap, va_hand

pytestmark = pytest.mark.browser


def new_game_here(page, kind, names, rules=None):
    """Start a game from the evening page, so it belongs to this evening."""
    tap(page, "a[href*='/games/new?evening=']")
    tap(page, f"a[href*='kind={kind}']")
    for name in names:
        chip(page, f"seat-{name}", name)
    if rules:
        page.locator("details summary").first.click()
        for option, value in rules.items():
            page.locator(f'[name="rule-{option}"]').fill(str(value)) if isinstance(value, int) \
                else page.select_option(f'select[name="rule-{option}"]', value)
    save(page, "form[data-seating]")


def back_to_evening(page):
    tap(page, "header a.brand")
    tap(page, "a[href*='/evenings/']")


def test_an_evening_settled_and_the_standings(phone, shots):
    page = phone
    names = ["A", "B", "C", "D"]
    set_up_group(page, shots, names)
    tap(page, "header a.brand")
    tap(page, "form[action$='/evenings'] button")  # "Neuer Abend": one tap
    evening = re.search(r"/g/[^/]+/evenings/\d+", page.url).group(0)

    new_game_here(page, "hintersche", names, {"rubber_games": 1})
    for points in ({"A": 30, "B": 45, "C": 35, "D": 30}, {"A": 20, "B": 21, "C": 99, "D": 0},
                   {"A": 105, "B": 10, "C": 15, "D": 10}, {"B": 50, "C": 40, "D": 50},
                   {"B": 30, "C": 60, "D": 50}):
        hintersche_deal(page, points)
    hintersche_deal(page, {"B": 55, "C": 55, "D": 20})
    page.fill("input[name='playoff-0-B']", "40")
    page.fill("input[name='playoff-0-C']", "30")
    save(page)
    for points in ({"B": 50, "C": 70}, {"B": 70, "C": 60}):
        hintersche_deal(page, points)
    hintersche_deal(page, {"B": 0, "C": 72}, all_tricks="C")
    assert page.locator(".done").is_visible()

    back_to_evening(page)
    new_game_here(page, "vier-anderle", names)
    va_hand(page, {"A": 2, "B": 1, "C": 1})  # D pays: the pot holds 8
    va_hand(page, {"C": 4}, playing=["C"])  # C alone takes it
    va_hand(page, {"A": 4})  # B, C and D pay: 16 stay in the pot for the Kasse
    page.locator("details summary").last.click()
    save(page, "form[action$='/close']")

    back_to_evening(page)
    new_game_here(page, "hartenjagen", names, {"target": 20, "cents_per_point": 10})
    hearts_hand(page, {"A": 3, "C": 10}, "B")
    hearts_hand(page, {"B": 7, "C": 3, "D": 3}, "D")  # B reaches 20: A wins with 3
    assert page.locator(".done").is_visible()
    shots("hartenjagen-over")

    page.goto(evening)
    assert page.locator(".flash").count() == 0  # nothing is still running
    shots("settlement")
    count = page.locator("ul.payments li").count()
    assert 1 <= count <= 4  # four players and the Kasse: at most four payments
    save(page, "ul.payments li form")  # the first one is paid
    assert page.locator("ul.payments li", has_text="bezahlt ✓").count() == 1
    assert page.locator("ul.payments li").count() == count
    page.locator("details.card summary").first.click()  # why does the first one owe?
    shots("settlement-paid")

    tap(page, "header a.brand")
    tap(page, "a[href$='/standings']")
    assert "Bollenkönig" in page.inner_text("main")
    shots("standings")
    tap(page, "main a[href*='/players/']")
    assert page.locator("svg.chart").count() >= 2
    shots("player")
