"""The trustworthy core at the table, tapped at 390×844: the seating picture, a correction that
no longer fits a later hand, a newcomer seated between two players, points without the jack."""

import pytest
from test_play import chip, hintersche_deal, quick_group, save, start, state

pytestmark = pytest.mark.browser
FOUR = ["Anni", "Karl", "Franz", "Sepp"]


def test_hintersche_seating_picture_and_a_correction_three_hands_back(phone, shots):
    quick_group(phone, FOUR)
    phone.goto(phone.url.split("/games/")[0] + "/games/new?kind=hintersche")
    for name in FOUR:
        chip(phone, f"seat-{name}", name)
    seats = [phone.locator(f"[data-seat-pos='{i}']").text_content() for i in range(4)]
    assert seats == FOUR  # bottom, right, top, left: anticlockwise in the order tapped
    shots("seating-picture")
    save(phone, "form[data-seating]")
    # Karl and Franz take a mark, then Anni marches: Butzen without Anni.
    hintersche_deal(phone, {"Anni": 30, "Karl": 50, "Franz": 30})
    hintersche_deal(phone, {"Anni": 30, "Karl": 30, "Franz": 50})
    hintersche_deal(phone, {"Anni": 110, "Karl": 10, "Franz": 10})
    hintersche_deal(phone, {"Karl": 50, "Franz": 40, "Sepp": 50})
    assert state(phone)["hands_played"] == 4
    # Correct hand 3, three hands back... it was no march: Anni stays in, so hand 4 no longer
    # names everybody. The edit is refused and says which hand and why.
    table = phone.url
    # the correction page of hand 1 comes filled, adding up to 140: the last field follows the
    # others again, as on a new deal's form
    phone.goto(table + "/entries/1")
    assert phone.locator('input[name="points-Sepp"]').input_value() == "30"
    phone.locator('input[name="points-Anni"]').fill("40")
    assert phone.locator('input[name="points-Sepp"]').input_value() == "20"
    phone.goto(table + "/entries/3")
    for name, value in {"Anni": 30, "Karl": 30, "Franz": 30, "Sepp": 50}.items():
        phone.fill(f'input[name="points-{name}"]', str(value))
    save(phone, "form")
    body = phone.locator("main").inner_text()
    assert "Hand 4" in body and "Anni spielt mit" in body
    shots("correction-refused")
    phone.go_back()
    phone.go_back()
    assert state(phone)["hands_played"] == 4


def test_a_butzen_deal_the_cards_cannot_give_is_explained(phone, shots):
    quick_group(phone, FOUR)
    start(phone, shots, "hintersche", FOUR)
    for points in ({"Anni": 30, "Karl": 50, "Franz": 30}, {"Anni": 30, "Karl": 30, "Franz": 50},
                   {"Anni": 110, "Karl": 10, "Franz": 10}):
        hintersche_deal(phone, points)
    hintersche_deal(phone, {"Karl": 20, "Franz": 11, "Sepp": 10})
    assert "27 Karten im Spiel" in phone.locator("main").inner_text()
    shots("butzen-impossible")


def test_a_newcomer_sits_between_the_players_the_table_chooses(phone, shots):
    quick_group(phone, FOUR + ["Gretl"])
    start(phone, shots, "vier-anderle", FOUR)
    phone.locator("details summary").first.click()
    chip(phone, "seat-Gretl", "on")
    phone.select_option("select[name=after]", "Karl")
    shots("table-change")
    save(phone, "form:has(input[name=table])")
    assert state(phone)["seated"] == ["Anni", "Karl", "Gretl", "Franz", "Sepp"]
    shots("after-table-change")


def test_hartenjagen_points_without_the_jack(phone, shots):
    quick_group(phone, FOUR)
    start(phone, shots, "hartenjagen", FOUR, {"jack_of_diamonds": True})
    chip(phone, "mode", "points")
    assert "ohne den Karo-Buben" in phone.locator("main").inner_text()
    for name, value in {"Anni": 3, "Karl": 13}.items():
        phone.fill(f'input[name="points-{name}"]', str(value))
    chip(phone, "jack", "Franz")
    save(phone)
    assert "schon abgezogen" in phone.locator("main").inner_text()
    shots("points-with-jack-refused")
