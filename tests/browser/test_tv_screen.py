"""The pub's TV: opened with the view link, it shows the evening and the table large and follows
the phone's hands within two seconds, by itself."""

import re
import time

import pytest
from conftest import Shots, open_link

pytestmark = pytest.mark.browser

NAMES = ["Anna", "Berti", "Carl", "Dora"]
SCREENS = {"tv-1280": {"width": 1280, "height": 800}, "tv-1920": {"width": 1920, "height": 1080}}


class Phone:
    """A member's phone that sends the app's own forms (with their CSRF token), as the table
    page would."""

    def __init__(self, app):
        self.client = app.test_client()
        self.token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"',
                               self.client.get("/").get_data(as_text=True)).group(1)

    def post(self, url, data):
        answer = self.client.post(url, data={"csrf_token": self.token, **data})
        assert answer.status_code == 302, answer.get_data(as_text=True)
        return answer.location

    def start(self, kind):
        data = {"kind": kind, "order": "\n".join(NAMES), "first_dealer": NAMES[0],
                **{f"seat-{n}": "on" for n in NAMES}}
        return self.post("/g/tanne/games/new", data)

    def hand(self, table, hearts, queen):
        seq = self.client.get(table + "/live").get_json()["entries"] + 1
        self.post(table + "/entries", {"seq": seq, "queen": queen,
                                       **{f"hearts-{n}": v for n, v in hearts.items()}})


def television(browser, live_app, size):
    context = browser.new_context(viewport=size, device_scale_factor=1,
                                  base_url=live_app.config["BASE_URL"], locale="de-DE")
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return page, errors


def large(page):
    """What the large table says (whatever the game's own state template looks like)."""
    return page.locator(".tv-table").inner_text()


def test_the_tv_follows_the_hands_and_the_next_game_by_itself(browser, live_app):
    phone = Phone(live_app)
    phone.post("/groups", {"name": "Tanne"})
    for name in NAMES:
        phone.post("/g/tanne/players", {"name": name})
    table = phone.start("hartenjagen")
    phone.hand(table, {"Anna": 5, "Berti": 8}, "Carl")
    phone.hand(table, {"Carl": 13}, "Dora")
    invite = phone.client.get("/g/tanne/invite").get_data(as_text=True)
    view_link = re.search(r'data-view-link="[^"]*?(/join/[^"]+)"', invite).group(1)
    evening = re.search(r"/g/tanne/evenings/\d+", phone.client.get("/g/tanne").get_data(
        as_text=True)).group(0)

    screens = {}
    for name, size in SCREENS.items():
        tv, errors = television(browser, live_app, size)
        open_link(tv, view_link)  # the TV opens the view link, like a phone that scans it
        tv.goto(evening if name == "tv-1280" else table)  # and taps "TV view" there
        with tv.expect_navigation():
            tv.locator("a[href*='/tv']").click()
        assert tv.locator("form, button").count() == 0
        assert "13" in large(tv) and "21" not in large(tv)  # Dora 13 and Anna 5 after two hands
        screens[name] = (tv, errors, Shots(tv, name))
        screens[name][2]("two-hands")

    versions = {name: tv.locator(".tv-screen").get_attribute("data-version")
                for name, (tv, _errors, _shot) in screens.items()}
    phone.hand(table, {"Anna": 3, "Dora": 10}, "Anna")  # hand 3 at the table
    saved = time.perf_counter()
    for name, (tv, _errors, _shot) in screens.items():  # reloaded by itself, not by the test
        tv.locator(f'.tv-screen:not([data-version="{versions[name]}"])').wait_for(timeout=3000)
    assert time.perf_counter() - saved < 3
    for tv, _errors, shot in screens.values():
        assert "21" in large(tv)  # Anna: 5 + 0 + 16
        shot("third-hand")

    # the next game at the table: the evening's TV switches to it, the table's TV stays
    phone.start("hintersche")
    evening_tv, _errors, shot = screens["tv-1280"]
    evening_tv.locator(".tv-table h2", has_text="#2").wait_for(timeout=3000)
    assert evening_tv.locator(".tv-evening li[aria-current]").inner_text().startswith("Hintersche")
    assert evening_tv.locator(".tv-evening li").count() == 2
    shot("next-game")
    assert "#1" in screens["tv-1920"][0].locator(".tv-table h2").inner_text()
    for tv, errors, _shot in screens.values():
        tv.context.close()
        assert errors == [], f"JavaScript errors: {errors}"
