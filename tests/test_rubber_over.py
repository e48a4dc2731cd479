"""After the rubber (issue 26): the table and its TV no longer say "Spiel 4 / 4" as if a game were
still on; they say that the rubber is over (or was ended early) and how many of its games were
played."""

import re

from support import enter, start_game

NAMES = ["A", "B", "C", "D"]
A, B, C, D = NAMES
# one game: A marches, B's mark starts Butzen, D erases the last mark, C loses to B: a line
GAME = [{"A": 105, "B": 10, "C": 15, "D": 10}, {"A": 30, "B": 45, "C": 35, "D": 30},
        {"B": 20, "C": 60, "D": 40}, {"B": 20, "C": 40, "D": 10}, {"B": 10, "C": 40}]


def words(client, path):
    """What the page says, without its markup."""
    html = client.get(path).get_data(as_text=True)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def deal(client, table, points):
    assert enter(client, table, {f"points-{n}": v for n, v in points.items()}).status_code == 302


def test_after_the_rubber_the_table_says_it_is_over_not_game_4_of_4(client):
    table = start_game(client, "hintersche", NAMES)
    for _game in range(3):
        for points in GAME:
            deal(client, table, points)
    assert "Butzen · Spiel 4 / 4" not in words(client, table)
    for points in GAME[:-1]:
        deal(client, table, points)
    assert "Butzen · Spiel 4 / 4" in words(client, table)  # the last game is on
    deal(client, table, GAME[-1])  # and lost: the rubber is over
    assert client.get(table + "/state.json").get_json()["finished"] is True
    for path in (table, table + "/tv"):
        page = words(client, path)
        assert "Spiel 4 / 4" not in page and "Spiel 4 " not in page, path
        assert "Runde vorbei · Gespielte Spiele 4 / 4" in page, path
        assert "Runde vorbei" in page and "Phase Vier-Strich" not in page, path  # the boxes
    assert "Nächste Runde" in words(client, table)  # which starts at game 1

def test_a_rubber_ended_early_says_so_and_counts_the_games_played(client):
    table = start_game(client, "hintersche", NAMES, rules={"rubber_games": "2"})
    for points in GAME:
        deal(client, table, points)
    deal(client, table, GAME[0])  # game 2 has begun when the table ends the rubber
    assert "Vier-Strich · Spiel 2 / 2" in words(client, table)
    assert client.post(table + "/close").status_code == 302
    page = words(client, table)
    assert "Spiel 2 / 2" not in page
    assert "Runde vorzeitig beendet · Gespielte Spiele 1 / 2" in page
