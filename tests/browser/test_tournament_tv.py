"""The hall's TV at a big tournament (issue 29): 200 entrants, the spectators' ranking with
`?tv=1` at 1280×720 and 1920×1080. It turns its pages by itself; across the pages every entrant
is shown once; nothing runs off the screen (no scrollbars, no row cut off, no name cut short)
and the type is big enough to read across the hall (18 px at least at 1280×720).
Screenshots go to test-artifacts/."""

import datetime as dt
import random
import re

import pytest
from conftest import ARTIFACTS

from scorekeeper.changes import tournaments as change
from scorekeeper.db import db
from scorekeeper.models import Group
from scorekeeper.table import scoring
from scorekeeper.tournament import night

pytestmark = pytest.mark.browser

FIRST = ["Anna", "Bernd", "Carla", "Dieter", "Erika", "Franz", "Gerda", "Hans", "Ilse", "Jörg",
         "Karl", "Lena", "Max", "Nina", "Otto", "Paula", "Quirin", "Rosi", "Sepp", "Traudl"]
LAST = ["Maier", "Huber", "Schwarzwälder", "Kienzle", "Armbruster", "Schmieder-Fehrenbach",
        "Wußler", "Haas", "Dold", "Schätzle"]
TVS = {"1280x720": (1280, 720), "1920x1080": (1920, 1080)}


def big_night(app):
    """A Hartenjagen night of 200 entrants (the longest names of the start list included), its
    first Durchgang drawn and played: four hands at each of its 50 tables. Returns the
    spectators' link."""
    names = [f"{first} {last}" for last in LAST for first in FIRST]
    names[7] = "Maria-Theresia Schmieder-Fehrenbach"  # 35 letters
    names[8] = "Hansjürgenmaximilian Schwarzwälder-Kienz"  # 40, the most: one line on the TV
    with app.test_request_context():  # the changes answer in the phone's words
        group = Group(slug="tanne", name="Stammtisch Tanne")
        db.session.add(group)
        db.session.commit()
        tournament = change.create(group, "Preisherzeln Schapbach", "hartenjagen",
                                   dt.date(2026, 12, 5), 2, 4, {}, 500,
                                   [10000, 5000, 3000, 2000, 1000], names)
        change.draw_round(group, tournament, 1, seed=7)
        rng = random.Random(3)
        for table in night.tables(tournament, 1):
            seats = list(table.game.seating)
            for _ in range(4):
                taker, other = rng.sample(seats, 2)
                hearts = rng.randrange(14)
                scoring.add_entry(table.game, {"points": {taker: 13 + hearts,
                                                          other: 13 - hearts}})
        db.session.commit()
        return f"/r/{tournament.view_token}"


@pytest.mark.parametrize("size", TVS)
def test_the_tv_shows_200_entrants_a_page_at_a_time_on_the_screen(browser, live_app, size):
    link = big_night(live_app)
    width, height = TVS[size]
    tv = browser.new_context(viewport={"width": width, "height": height}, locale="de-DE",
                             base_url=live_app.config["BASE_URL"]).new_page()
    tv.goto(link + "?tv=1")
    pages = int(re.search(r"Seite 1 von (\d+)", tv.locator("h1").inner_text()).group(1))
    refresh = tv.locator("meta[http-equiv=refresh]").get_attribute("content")
    assert re.fullmatch(r"\d+; url=.*page=2", refresh)  # it turns to the next page by itself
    seen, columns = [], []
    for page in range(1, pages + 1):
        tv.goto(f"{link}?tv=1&page={page}")
        found = tv.evaluate("""() => {
            const root = document.documentElement;
            const rows = [...document.querySelectorAll("table.ranking tbody tr")];
            return {
              scroll: [root.scrollWidth, root.scrollHeight, innerWidth, innerHeight],
              columns: [...document.querySelectorAll("table.ranking thead th")].map(
                (th) => Math.round(th.getBoundingClientRect().left)),
              rows: rows.map((row) => {
                const box = row.getBoundingClientRect();
                const name = row.querySelector("td.name");
                return {name: name.firstChild.textContent.trim(), top: box.top,
                        bottom: box.bottom, right: box.right,
                        cut: name.scrollWidth > name.clientWidth,
                        font: parseFloat(getComputedStyle(name).fontSize)};
              }),
            };
        }""")
        scroll_width, scroll_height, inner_width, inner_height = found["scroll"]
        assert scroll_width <= inner_width and scroll_height <= inner_height, (page, found)
        assert found["rows"], page
        for row in found["rows"]:
            assert row["top"] >= 0 and row["bottom"] <= inner_height, (page, row)
            assert row["right"] <= inner_width and not row["cut"], (page, row)
            assert row["font"] >= (18 if size == "1280x720" else 24), (page, row)
        seen += [row["name"] for row in found["rows"]]
        columns.append(found["columns"])
        if page in (1, pages):
            ARTIFACTS.mkdir(exist_ok=True)
            tv.screenshot(path=str(ARTIFACTS / f"tournament-tv-200-{size}-page-{page}.jpeg"),
                          quality=80)
    assert len(seen) == 200 and len(set(seen)) == 200  # every entrant once across the pages
    # the columns stay where they are from page to page (they moved by up to 300 px)
    assert all(abs(x - y) <= 3 for page in columns for x, y in zip(page, columns[0],
                                                                   strict=True)), columns
    tv.context.close()
