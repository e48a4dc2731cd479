"""The evening's TV on a long evening (issue 26): ten games of all three kinds, seven people at the
tables, and the whole of it on the screen at 1280×720 and 1920×1080, the last game of the list
included (it used to run 791 px and 1,176 px down, the last games cut off)."""

import pytest
import records_hartenjagen
import records_vier_anderle
from conftest import ARTIFACTS, serving
from support import make_app
from test_pages import add_game, renamed

from scorekeeper.db import db
from scorekeeper.group import club
from scorekeeper.models import Group
from scorekeeper.season import standings
from scorekeeper.table import scoring

pytestmark = pytest.mark.browser

TVS = {"1280x720": (1280, 720), "1920x1080": (1920, 1080)}
FOUR = ["Kurt", "Hubert", "Hermann", "Alfred"]
# one Hintersche game: a march, Butzen, Alfred out, Hermann loses to Hubert: a line
GAME = [{"Kurt": 105, "Hubert": 10, "Hermann": 15, "Alfred": 10},
        {"Kurt": 30, "Hubert": 45, "Hermann": 35, "Alfred": 30},
        {"Hubert": 20, "Hermann": 60, "Alfred": 40}, {"Hubert": 20, "Hermann": 40, "Alfred": 10},
        {"Hubert": 10, "Hermann": 40}]
DEALS = [{"points": points} for points in GAME]
# the bench's names, Walter and Sepp sit in for two of them
SEVEN = {"Erna": "Karl", "Gretl": "Walter", "Toni": "Sepp"}


def rubber(rules, hands):
    return {"game": "hintersche", "players": FOUR, "first_dealer": "Kurt", "rules": rules,
            "hands": hands}


def evening(app, last):
    """Tonight: nine games played before (finished or ended), then `last` running, large on
    the TV. Returns the group's path."""
    with app.app_context():
        group = Group(slug="linde", name="Stammtisch Linde")
        db.session.add(group)
        db.session.flush()
        tonight = club.evening_for(group)
        db.session.flush()
        pot = renamed(records_vier_anderle.random_record(14, seed=4, players=6), SEVEN)
        seven = renamed(records_vier_anderle.random_record(12, seed=8, players=7), SEVEN)
        hearts = renamed(records_hartenjagen.random_record(10, seed=3), SEVEN)
        six = renamed(records_hartenjagen.random_record(9, seed=5, players=6, decks=2), SEVEN)
        games = {
            "hintersche": lambda: add_game(group, tonight, rubber({"rubber_games": 2},
                                                                DEALS + DEALS[:3])),
            "vier-anderle": lambda: add_game(group, tonight, pot),
            "hartenjagen": lambda: add_game(group, tonight, six),
        }
        played = [
            add_game(group, tonight, rubber({"rubber_games": 1, "tariff_cents": 50}, DEALS)),
            add_game(group, tonight, pot), add_game(group, tonight, hearts),
            add_game(group, tonight, rubber({"rubber_games": 1}, DEALS)),
            add_game(group, tonight, seven), add_game(group, tonight, six),
            add_game(group, tonight, rubber({"rubber_games": 1, "tariff_cents": 20}, DEALS)),
            add_game(group, tonight, hearts), add_game(group, tonight, pot)]
        for game in played:
            if game.status == "running":
                scoring.end_game(game, device="Android · Chrome")  # closing time
            standings.store(game)
        games[last]()
        db.session.commit()
        return group.token, f"/g/{group.slug}"


@pytest.mark.parametrize("last", ["hintersche", "vier-anderle", "hartenjagen"])
def test_the_evening_tv_fits_ten_games_and_shows_the_last_of_them(browser, tmp_path, last):
    with serving(make_app("sqlite", tmp_path)) as app:
        token, group = evening(app, last)
        context = browser.new_context(viewport={"width": 1280, "height": 720},
                                      device_scale_factor=1, locale="de-DE",
                                      base_url=app.config["BASE_URL"])
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(f"/join/{token}")
        with page.expect_navigation():
            page.locator("main form button[type=submit]").click()
        tall = {}
        for size, (width, height) in TVS.items():
            page.set_viewport_size({"width": width, "height": height})
            page.goto(f"{group}/tv")
            page.wait_for_load_state("load")
            page.screenshot(path=str(ARTIFACTS / f"tv-evening-ten-games-{last}-{size}.jpeg"),
                            quality=80)
            games = page.locator(".tv-evening aside li")
            assert games.count() == 10
            assert games.last.get_attribute("aria-current") == "true"  # the one running
            scrolled = page.evaluate("document.documentElement.scrollHeight")
            lowest = page.evaluate("Math.max(...[...document.querySelectorAll('.tv-screen *')]"
                                   ".map((e) => e.getBoundingClientRect().bottom))")
            box = games.last.bounding_box()
            if scrolled > height or lowest > height or box["y"] + box["height"] > height:
                tall[size] = (scrolled, round(lowest), round(box["y"] + box["height"]))
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            # nothing cut at the side of its part of the screen
            assert page.evaluate("[...document.querySelectorAll('.tv-parts > div')]"
                                 ".every((part) => part.scrollWidth <= part.clientWidth)")
        context.close()
        assert errors == []
        assert tall == {}, "page height, lowest box, end of the last game (px)"
