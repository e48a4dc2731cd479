"""Every screen the app is looked at on (issue 18): on the phone that enters a hand the form and
its Save are on one screen at 390×844, 844×390 and 320×568, every player's name in full; the TV
fits 1280×720 and 1920×1080 with the money on it; and every page at every size, in German, is
saved to test-artifacts/screens-<size>-*.jpeg to be looked at.

One app and one phone for the whole module: the tables are set up once through the app itself
and each size is a resize and a reload."""

import pytest
from conftest import ARTIFACTS, serving
from support import make_app
from test_accessible import every_page
from test_pages import SMALL_TARGETS, WIDTH, seed

from scorekeeper.db import db
from scorekeeper.group import club
from scorekeeper.models import Game, Group
from scorekeeper.table import scoring

pytestmark = pytest.mark.browser

PHONES = {"390x844": (390, 844), "844x390": (844, 390), "320x568": (320, 568)}
TVS = {"1280x720": (1280, 720), "1920x1080": (1920, 1080)}
NAMES = ["Anna", "Bartholomäus", "Christa", "Maximilian", "Erwin", "Franz"]
LONG = "Maximilian-Alexander"  # two names in one: on a narrow form, one under the other
FOUR = NAMES[:4]
# each game as the phone at the table finds it: fresh, and after a hand (Vier-Anderle's next
# hand is then type 2: each says whether they play); Hartenjagen with the jack of diamonds; a
# free list of three with money, and one of seven that adds up to 0
TABLES = {
    "hintersche": ("hintersche", FOUR, {}, []),
    "hintersche-hand-2": ("hintersche", FOUR, {}, [{"points": dict(zip(FOUR, (30, 45, 35, 30),
                                                                        strict=True))}]),
    "vier-anderle": ("vier-anderle", NAMES, {}, []),
    "vier-anderle-type-2": ("vier-anderle", NAMES, {}, [{"tricks": {"Anna": 4}}]),
    "vier-anderle-long-name": ("vier-anderle", [*NAMES[:3], LONG, *NAMES[4:]], {},
                               [{"tricks": {"Anna": 4}}]),
    "hartenjagen": ("hartenjagen", FOUR, {"jack_of_diamonds": True}, []),
    "hartenjagen-hand-2": ("hartenjagen", FOUR, {"jack_of_diamonds": True},
                           [{"hearts": {"Anna": 5, "Bartholomäus": 8}, "queen": "Christa",
                             "jack": "Maximilian"}]),
    # Cego: the list with four games, and five players (the dealer sits out) in Gute and Miese
    "cego": ("cego", FOUR, {}, []),
    "cego-game-5": ("cego", FOUR, {"games": 24},
                    [{"contract": "eine", "declarer": "Christa", "augen": 41},
                     {"contract": "raeuber", "announcer": "Anna", "losers": ["Bartholomäus"]},
                     {"contract": "solo", "declarer": "Maximilian", "augen": 52},
                     {"contract": "ultimo", "declarer": "Anna", "won": True}]),
    "cego-five": ("cego", NAMES[:5], {"display": "gute-miese"},
                  [{"contract": "cego", "declarer": "Bartholomäus", "augen": 44}]),
    "skat-fresh": ("free-list", NAMES[:3], {"name": "Skat", "cents_per_point": 5}, []),
    "skat-hand-6": ("free-list", NAMES[:3], {"name": "Skat", "cents_per_point": 5},
                    [{"points": {NAMES[i % 3]: (-1) ** i * 24 * i}} for i in range(1, 6)]),
    "doppelkopf-seven": ("free-list", [*NAMES, LONG], {"name": "Doppelkopf", "zero_sum": True},
                         [{"points": {"Anna": 120, LONG: -120}},
                          {"points": {"Erwin": -3, "Franz": 3}}]),
}


def tables(app):
    """A second group with the six names, a game per entry of TABLES; returns its join token
    and the tables' paths."""
    with app.app_context():
        group = Group(slug="linde", name="Stammtisch Linde")
        db.session.add(group)
        db.session.flush()
        club.join(group, [*NAMES, LONG])
        evening = club.evening_for(group)
        db.session.flush()
        paths = {}
        for name, (kind, players, rules, hands) in TABLES.items():
            game = Game(group_id=group.id, evening_id=evening.id, kind=kind, rules=rules,
                        seating=players, first_dealer=players[0])
            scoring.start_game(game, hands, device="Android · Chrome")
            db.session.flush()
            paths[name] = f"/g/linde/games/{game.id}"
        db.session.commit()
        return group.token, paths


@pytest.fixture(scope="module")
def site(browser, tmp_path_factory):
    """The app with the pages of test_pages (40-letter names) and the tables above, and a
    German phone that joined both groups."""
    with serving(make_app("sqlite", tmp_path_factory.mktemp("screens"))) as app:
        pages = seed(app)
        token, paths = tables(app)
        context = browser.new_context(viewport={"width": 390, "height": 844},
                                      device_scale_factor=1, has_touch=True, locale="de-DE",
                                      base_url=app.config["BASE_URL"])
        phone = context.new_page()
        errors = []
        phone.on("pageerror", lambda exc: errors.append(str(exc)))
        for link in (f"/join/{pages['token']}", f"/join/{token}"):
            phone.goto(link)
            with phone.expect_navigation():
                phone.locator("main form button[type=submit]").click()
        yield phone, pages, paths
        context.close()
        assert errors == [], f"JavaScript errors: {errors}"


def at(phone, size, path):
    width, height = size
    phone.set_viewport_size({"width": width, "height": height})
    phone.goto(path)
    phone.wait_for_load_state("load")


# The names on the screen that are cut (ellipsis, a clipping box) or broken over two lines:
# each name's letters are one box, inside every box that clips it. What is read aloud only, and
# what is below the form (the sheet, which scrolls by itself), does not count.
NAMES_CUT = """(names) => {
  const problems = [];
  const top = document.querySelector(".table-page");
  const walker = document.createTreeWalker(top, NodeFilter.SHOW_TEXT);
  for (let node; (node = walker.nextNode());) {
    const el = node.parentElement;
    if (!el.getClientRects().length) continue;
    if (el.closest(".sr-only, .quiet, .table-more, [hidden]")) continue;
    for (const name of names) {
      const at = node.data.indexOf(name);
      if (at < 0) continue;
      // a name may go on to the next line at its own space or hyphen ("Maximilian-" /
      // "Alexander"), never inside a word
      let start = at;
      for (const piece of name.split(/(?<=[- ])/)) {
        const range = document.createRange();
        range.setStart(node, start);
        range.setEnd(node, start + piece.trimEnd().length);
        start += piece.length;
        const boxes = [...range.getClientRects()].filter((r) => r.width > 0);
        const where = `${name} in ${el.tagName.toLowerCase()}.${el.className}`;
        if (boxes.length !== 1) {
          problems.push(`${where}: broken over ${boxes.length} lines`);
          continue;
        }
        for (let box = el; box && box !== document.body; box = box.parentElement) {
          const style = getComputedStyle(box);
          if (style.overflowX === "visible") continue;
          const clip = box.getBoundingClientRect();
          const [{ left, right, bottom }] = boxes;
          if (left < clip.left - 1 || right > clip.right + 1) problems.push(`${where}: cut`);
          else if (style.overflowY !== "visible" && bottom > clip.bottom + 1) {
            problems.push(`${where}: cut below`);
          }
        }
      }
    }
  }
  return problems;
}"""


@pytest.mark.parametrize("size", PHONES)
@pytest.mark.parametrize("table", TABLES)
def test_the_form_and_save_are_on_one_screen_with_every_name_in_full(site, table, size):
    phone, _pages, paths = site
    width, height = PHONES[size]
    at(phone, PHONES[size], paths[table])
    save = phone.locator("#entry form button[type=submit]").first.bounding_box()
    assert phone.evaluate("scrollY") == 0
    assert save["y"] + save["height"] <= height, f"Save ends at {save['y'] + save['height']}"
    first = phone.locator("#entry form input:visible, #entry form button:visible").first
    assert first.bounding_box()["y"] >= 0
    assert phone.evaluate("document.documentElement.scrollWidth") <= width
    assert phone.evaluate(NAMES_CUT, TABLES[table][1]) == []
    assert phone.evaluate(SMALL_TARGETS) == []  # 44 px, with the folded parts opened


TV_PAGES = {"tv-hintersche": "short", "tv-hintersche-long": "rubber", "tv-vier-anderle": "pot",
            "tv-hartenjagen": "hearts", "tv-hartenjagen-over": "hearts-over",
            "tv-free-list": "skat"}


@pytest.mark.parametrize("size", TVS)
@pytest.mark.parametrize("tv", [*TV_PAGES, "tv-evening"])
def test_the_tv_fits_the_screen_with_the_money_on_it(site, tv, size):
    phone, pages, _paths = site
    width, height = TVS[size]
    at(phone, TVS[size], pages[TV_PAGES[tv]] + "/tv" if tv in TV_PAGES else pages["group"] + "/tv")
    assert phone.evaluate("document.documentElement.scrollHeight") <= height
    assert phone.evaluate("document.documentElement.scrollWidth") <= width
    # nothing cut at the side of its part of the screen (a TV does not scroll)
    assert phone.evaluate("[...document.querySelectorAll('.tv-parts > div')]"
                          ".every((part) => part.scrollWidth <= part.clientWidth)")
    money = phone.locator(".money")
    if tv != "tv-hartenjagen":  # a running Hartenjagen has no money yet
        assert money.count() > 0
    for i in range(money.count()):  # on the screen, not below it or clipped away
        box = money.nth(i).bounding_box()
        assert box and 0 <= box["y"] <= height - box["height"], money.nth(i).inner_text()
    last_rows = phone.locator(".sheet tr:last-child")
    for i in range(last_rows.count()):
        box = last_rows.nth(i).bounding_box()
        assert box["y"] + box["height"] <= height


def all_pages(pages, paths):
    """Every page there is (as the axe test knows them), with the ones it leaves out."""
    found = every_page(pages)
    group = pages["group"]
    found.update({
        "join-link": f"/join/{pages['token']}",
        "undo": pages["pot"] + "/undo", "new-vier-anderle": f"{group}/games/new?kind=vier-anderle",
        "history-hintersche-long": pages["rubber"] + "/history",
        **{name: pages[key] + "/tv" for name, key in TV_PAGES.items()},
        **{f"table-{name}": path for name, path in paths.items()}})
    return found


@pytest.mark.parametrize("size", [*PHONES, *TVS])
def test_screenshots_of_every_page_at_every_size(site, size):
    """Saved for looking at; and no page is wider than the screen."""
    phone, pages, paths = site
    width, _height = (PHONES | TVS)[size]
    ARTIFACTS.mkdir(exist_ok=True)
    wide = {}
    for name, path in all_pages(pages, paths).items():
        if size in TVS and not name.startswith("tv-"):
            continue
        at(phone, (PHONES | TVS)[size], path)
        # JPEG: a third less of the browser's time than PNG for pictures only looked at
        phone.screenshot(path=str(ARTIFACTS / f"screens-{size}-{name}.jpeg"), full_page=True,
                         quality=80)
        if (scrolled := phone.evaluate(WIDTH)) > width:
            wide[name] = scrolled
    assert wide == {}
