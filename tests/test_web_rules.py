"""The rule cases of the trustworthy core, as the table meets them in the web forms."""

import re

from support import enter, start_game

FOUR = ["Kurt", "Hubert", "Hermann", "Alfred"]


def deal(**points):
    return {f"points-{name}": value for name, value in points.items()}


def record(client, path):
    return client.get(path + "/record.json").get_json()


def state(client, path):
    return client.get(path + "/state.json").get_json()


def test_a_correction_that_puts_a_player_back_in_is_refused_naming_the_later_hand(client):
    path = start_game(client, "hintersche", FOUR)
    # Kurt deals; Hubert, Hermann take a mark; then Kurt marches: Butzen without Kurt.
    for points in ((30, 50, 30, 30), (30, 30, 50, 30), (110, 10, 10, 10)):
        assert enter(client, path, deal(**dict(zip(FOUR, points, strict=True)))).status_code == 302
    assert state(client, path)["in_deal"] == ["Alfred", "Hubert", "Hermann"]
    assert enter(client, path, deal(Hubert=50, Hermann=40, Alfred=50)).status_code == 302
    before = record(client, path)
    # Hand 3 was no march after all: Kurt stays in, and hand 4 no longer names everybody.
    response = client.post(path + "/entries/3", data=deal(Kurt=30, Hubert=30, Hermann=30,
                                                          Alfred=50))
    page = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "Hand 4" in page and "Kurt spielt mit" in page
    assert record(client, path) == before


def test_a_butzen_deal_the_cards_in_play_cannot_give_is_refused_at_the_form(client):
    path = start_game(client, "hintersche", FOUR)
    for points in ((30, 50, 30, 30), (30, 30, 50, 30), (110, 10, 10, 10)):
        enter(client, path, deal(**dict(zip(FOUR, points, strict=True))))
    response = enter(client, path, deal(Hubert=20, Hermann=11, Alfred=10))
    assert response.status_code == 400
    assert "27 Karten im Spiel" in response.get_data(as_text=True)
    assert len(record(client, path)["hands"]) == 3


def test_the_hintersche_new_game_page_explains_the_order_of_play_and_shows_the_table(client):
    client.post("/groups", data={"name": "tanne"})
    for name in FOUR:
        client.post("/g/tanne/players", data={"name": name})
    page = client.get("/g/tanne/games/new?kind=hintersche").get_data(as_text=True)
    assert "gegen den Uhrzeigersinn" in page and "beginnend beim ersten Geber" in page
    assert "data-seating-picture" in page and 'data-seat-pos="3"' in page
    assert "(march_at)" not in page and "(tariff_cents)" not in page


def test_a_table_change_seats_the_newcomer_between_the_chosen_players(client):
    names = ["A", "B", "C", "D"]
    path = start_game(client, "vier-anderle", names)
    fields = {"table": "1", "order": "\n".join(names), "new_player": "Gretl", "after": "B",
              **{f"seat-{n}": "on" for n in names}}
    assert enter(client, path, fields).status_code == 302
    assert record(client, path)["hands"][-1]["table"] == ["A", "B", "Gretl", "C", "D"]
    # D leaves, and comes back between A and B
    enter(client, path, {"table": "1", "order": "A\nB\nGretl\nC\nD",
                         **{f"seat-{n}": "on" for n in ("A", "B", "Gretl", "C")}})
    enter(client, path, {"table": "1", "order": "A\nB\nGretl\nC\nD", "after": "A",
                         **{f"seat-{n}": "on" for n in ("A", "B", "Gretl", "C", "D")}})
    assert state(client, path)["seated"] == ["A", "D", "B", "Gretl", "C"]


def test_a_type_2_hand_with_one_player_gives_them_the_four_tricks_without_typing(client):
    names = ["A", "B", "C", "D"]
    path = start_game(client, "vier-anderle", names)
    enter(client, path, {"tricks-A": "4"})  # type 1: B, C and D pay in
    assert state(client, path)["next_hand_type"] == 2
    assert enter(client, path, {"playing-C": "on"}).status_code == 302
    assert record(client, path)["hands"][-1] == {"playing": ["C"]}
    assert state(client, path)["pot"] == 0


def test_hartenjagen_points_are_entered_without_the_jack_and_the_form_says_so(client):
    path = start_game(client, "hartenjagen", FOUR, rules={"jack_of_diamonds": "1"})
    page = client.get(path + "?mode=points").get_data(as_text=True)
    assert "ohne den Karo-Buben" in page
    counted_in = {"mode": "points", "points-Kurt": "3", "points-Hubert": "13", "jack": "Hermann"}
    response = enter(client, path, counted_in)
    assert response.status_code == 400
    assert "also ist der Karo-Bube schon abgezogen" in response.get_data(as_text=True)
    assert record(client, path)["hands"] == []
    fine = {"mode": "points", "points-Kurt": "3", "points-Hubert": "13", "points-Hermann": "10",
            "jack": "Hermann"}
    assert enter(client, path, fine).status_code == 302
    assert [p["score"] for p in state(client, path)["players"]] == [3, 13, 0, 0]


def test_the_moon_message_has_no_code_words(client):
    path = start_game(client, "hartenjagen", FOUR, rules={"moon": "choice"})
    response = enter(client, path, {"hearts-Kurt": "13", "queen": "Kurt"})
    page = response.get_data(as_text=True)
    assert response.status_code == 400
    message = page[page.index("Kurt hat den Mond geschossen"):].split("<")[0]
    assert message == "Kurt hat den Mond geschossen: bitte wählen, ob Kurt -26 bekommt oder " \
                      "jeder andere 26"


def test_split_leaves_what_cannot_be_shared_to_the_next_game(client):
    names = ["A", "B", "C", "D"]
    path = start_game(client, "vier-anderle", names, rules={"pot_at_end": "split"})
    enter(client, path, {"tricks-A": "4"})  # the pot holds 4 + 3 x 4 = 16
    enter(client, path, {"table": "1", "order": "A\nB\nC\nD",
                         **{f"seat-{n}": "on" for n in ("A", "B", "C")}})
    assert client.post(path + "/close").status_code == 302
    settlement = client.get("/g/tanne/evenings/1/settlement.json").get_json()
    assert settlement["balances_cents"]["Kasse"] == 40  # 16 split among 3: 4 each, 4 stay
    page = client.get("/g/tanne/games/new?kind=vier-anderle").get_data(as_text=True)
    assert re.search(r'<input[^>]*name="rule-starting_pot"[^>]*value="4"', page)


def test_the_score_sheet_carries_the_hands_before_its_last_twelve_over_in_one_row(client):
    path = start_game(client, "hartenjagen", FOUR, rules={"target": "1000"})
    for hand in range(14):
        assert enter(client, path, {"kind": "renege", "renege": FOUR[hand % 4]}).status_code == 302
    page = client.get(path).get_data(as_text=True)
    assert '<tr class="muted"><td>bis 2</td><td>26</td><td>26</td><td>0</td><td>0</td></tr>' in page
    assert '<tr data-row="14"><td>14</td>' in page and 'data-row="2"' not in page


def test_the_new_game_form_asks_for_money_in_euros_and_stores_cents(client):
    path = start_game(client, "hintersche", FOUR, rules={"tariff_cents": "2,50"})
    assert record(client, path)["rules"]["tariff_cents"] == 250
    page = client.get("/g/tanne/games/new?kind=vier-anderle").get_data(as_text=True)
    assert "Geldwert eines Einsatzes, in Cent, in Euro" not in page
    assert re.search(r'<input[^>]*name="rule-stake_cents"[^>]*value="0.10"', page)


def test_a_rule_option_out_of_its_bounds_is_refused_at_its_field(client):
    client.post("/groups", data={"name": "tanne"})
    data = {"kind": "hartenjagen", "order": "\n".join(FOUR), "first_dealer": FOUR[0],
            "rule-target": "9" * 309, **{f"seat-{n}": "on" for n in FOUR}}
    response = client.post("/g/tanne/games/new", data=data)
    page = response.get_data(as_text=True)
    assert response.status_code == 400
    field = re.search(r'<label class="field has-error">.*?name="rule-target".*?</label>', page,
                      re.S)
    assert field and "1000000" in field.group(0)
    data["rule-target"], data["rule-cents_per_point"] = "100", "0,055"
    page = client.post("/g/tanne/games/new", data=data).get_data(as_text=True)
    assert "ganze Cent" in page
    assert client.get("/g/tanne").status_code == 200 and "/games/1" not in client.get(
        "/g/tanne").get_data(as_text=True)


def test_money_in_a_rule_is_shown_with_the_languages_decimal_comma(client):
    client.post("/groups", data={"name": "tanne"})
    page = client.get("/g/tanne/games/new?kind=hartenjagen").get_data(as_text=True)
    assert re.search(r'name="rule-cents_per_point"[^>]*value="0,00"', page)
    client.get("/lang/en")
    page = client.get("/g/tanne/games/new?kind=hartenjagen").get_data(as_text=True)
    assert re.search(r'name="rule-cents_per_point"[^>]*value="0.00"', page)
