"""The season's streaks as the season page shows them: evenings in a row in the money, where an
evening that broke even (won exactly 0) is not in the money and ends a streak (test_seasons.py
has the chronicle's other awards)."""

import re

from test_seasons import _group, day, season


def streak_rows(client, year=2026):
    """The season page's streaks: (player, evenings, from, to) per row, as shown."""
    page = client.get(f"/g/tanne/seasons/{year}")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    table = re.search(r'<table class="sheet compact streaks">(.*?)</table>', text, re.S)
    if table is None:
        return None, text
    rows = re.findall(r"<tr><td>(.*?)</td><td>(.*?)</td><td>(.*?)</td><td>(.*?)</td></tr>",
                      table.group(1), re.S)
    return [tuple(re.sub(r"<[^>]+>", "", cell).strip() for cell in row) for row in rows], text


def test_an_evening_that_broke_even_ends_a_streak(app, client):
    _group(client)
    season(app, [(day(2, 1), {"Anna": 10, "Bernd": -10}),
                 (day(2, 8), {"Anna": 0, "Bernd": 0}),  # Anna broke even: not in the money
                 (day(2, 15), {"Anna": 10, "Bernd": -10}),
                 (day(2, 22), {"Anna": 20, "Bernd": -20}),
                 (day(3, 1), {"Anna": -10, "Bernd": 10})])
    rows, _text = streak_rows(client)
    # Anna's longest run is 15.2.-22.2. (two evenings), not four from 1.2. through the 0 of 8.2.
    assert rows == [("Anna", "2", "15.02.", "22.02."), ("Bernd", "1", "01.03.", "")]


def test_a_player_who_only_broke_even_has_no_streak(app, client):
    _group(client)
    season(app, [(day(2, 1), {"Anna": 0, "Bernd": 0}),
                 (day(2, 8), {"Anna": 0, "Bernd": 0})])
    rows, text = streak_rows(client)
    assert rows is None and "Niemand hat einen Abend gewonnen." in text
