"""The pages besides the entry forms, at a pub table on a phone: the history, the settlement, the
slate, long names; every touch target at least 44 px and no page wider than the phone.

The games are set up through the app itself (faster than tapping), with a 40-letter name at
every table; the phone opens the group's join link. Screenshots go to test-artifacts/."""

import pytest
import records_free_list
import records_hartenjagen
import records_hintersche
import records_vier_anderle
from conftest import Shots, open_link
from test_play import tap

from scorekeeper.db import db
from scorekeeper.evenings import accounts
from scorekeeper.group import club
from scorekeeper.models import Game, Group, PaidPayment
from scorekeeper.season import standings
from scorekeeper.table import scoring

pytestmark = pytest.mark.browser

LONG = "Bartholomäus Maximilian zu Hinterstoißer"  # 40 letters, the longest name allowed
assert len(LONG) == 40
FOUR = {"Kurt": LONG, "Hubert": "Bartholomäus", "Hermann": "Anni", "Alfred": "Sepp"}


def renamed(record, names):
    """A generated record played by other people (`names`: generated name -> new name)."""
    def rename(value):
        if isinstance(value, dict):
            return {names.get(k, k): rename(v) for k, v in value.items()}
        if isinstance(value, list):
            return [rename(v) for v in value]
        return names.get(value, value) if isinstance(value, str) else value
    return rename(record)


def add_game(group, evening, record, hands=None, device="Android · Chrome"):
    game = Game(group_id=group.id, evening_id=evening.id, kind=record["game"],
                rules=record.get("rules", {}), seating=record["players"],
                first_dealer=record["first_dealer"])
    club.join(group, record["players"])
    scoring.start_game(game, record["hands"] if hands is None else hands, device=device)
    return game


def seed(app):
    """Tonight's evening of a group: a finished Hintersche rubber whose history has a correction
    and an undo, a long rubber (lines past 15), Vier-Anderle, a finished and a running Hartenjagen,
    a running free list of Skat, one payment ticked off. Returns the paths."""
    with app.app_context():
        group = Group(slug="tanne", name="Stammtisch Tanne")
        db.session.add(group)
        db.session.flush()
        evening = club.evening_for(group)
        db.session.flush()
        slate = renamed(records_hintersche.random_record(12, seed=5), FOUR)
        slate["rules"] = {"rubber_games": 2, "tariff_cents": 50}
        short = add_game(group, evening, slate, slate["hands"][:11])
        scoring.add_entry(short, slate["hands"][11], device="Android · Chrome")
        scoring.undo_last(short, 12, device="Android · Chrome")  # shown as undone
        scoring.add_entry(short, slate["hands"][11], device="iPhone · Safari")
        scoring.edit_entry(short, 1, slate["hands"][0], device="iPhone · Safari")  # corrected
        rubber = add_game(group, evening, renamed(records_hintersche.random_record(330, seed=5),
                                                  FOUR))
        pot = add_game(group, evening, renamed(
            records_vier_anderle.random_record(12, seed=3, players=5), {**FOUR, "Karl": "Franz"}))
        hearts = renamed(records_hartenjagen.random_record(12, seed=3), FOUR)
        running = add_game(group, evening, hearts, hearts["hands"][:3], device="Android · Firefox")
        hearts["rules"] = {"target": 60, "cents_per_point": 10}
        over = add_game(group, evening, hearts, [])
        for data in hearts["hands"]:  # until somebody reaches 60
            if over.status == "running":
                scoring.add_entry(over, data, device="Android · Firefox")
        skat = add_game(group, evening, renamed(records_free_list.random_record(
            8, seed=2, rules={"name": "Skat", "cents_per_point": 5}, players=3), FOUR))
        for game in (short, rubber, pot, running, over, skat):  # as the pages write them
            standings.store(game)
        db.session.commit()
        first = accounts.settle(evening).payments[0]  # handed over already
        db.session.add(PaidPayment(evening_id=evening.id, payer=first.payer, payee=first.payee,
                                   cents=first.cents))
        db.session.commit()
        games = f"/g/{group.slug}/games"
        return {"token": group.token, "group": f"/g/{group.slug}",
                "evening": f"/g/{group.slug}/evenings/{evening.id}",
                "short": f"{games}/{short.id}", "rubber": f"{games}/{rubber.id}",
                "pot": f"{games}/{pot.id}", "hearts": f"{games}/{running.id}",
                "hearts-over": f"{games}/{over.id}", "skat": f"{games}/{skat.id}"}


def main_pages(paths):
    group = paths["group"]
    return {"start": "/", "group": group, "choose": f"{group}/games/new",
            "new-hintersche": f"{group}/games/new?kind=hintersche",
            "new-hartenjagen": f"{group}/games/new?kind=hartenjagen",
            "table-hintersche": paths["rubber"], "table-hintersche-over": paths["short"],
            "table-vier-anderle": paths["pot"], "table-hartenjagen": paths["hearts"],
            "table-hartenjagen-over": paths["hearts-over"],
            "new-free-list": f"{group}/games/new?kind=free-list", "table-free-list": paths["skat"],
            "history-free-list": paths["skat"] + "/history",
            "history": paths["short"] + "/history",
            "history-vier-anderle": paths["pot"] + "/history",
            "history-hartenjagen": paths["hearts-over"] + "/history",
            "evening": paths["evening"], "evenings": f"{group}/evenings",
            "standings": f"{group}/standings", "players": f"{group}/players",
            "kasse": f"{group}/kasse",
            "season": f"{group}/seasons"}


# Every visible link, button, field and chip (folded-away parts opened): at least 44 px high and
# wide. A box inside a label is tapped through its label. A link in a paragraph of running text
# may be as narrow as its word (never lower than 44 px).
SMALL_TARGETS = """() => {
  document.querySelectorAll("details").forEach((d) => { d.open = true; });  // what they fold away
  const small = [];
  const all = "a, button, input, select, textarea, label.chip, summary";
  for (const el of document.querySelectorAll(all)) {
    if (el.type === "hidden" || !el.getClientRects().length) continue;
    if (getComputedStyle(el).visibility === "hidden") continue;
    const target = (el.tagName === "INPUT" && el.closest("label")) || el;
    const box = target.getBoundingClientRect();
    if (!box.width || !box.height) continue;
    const inText = el.tagName === "A" && el.closest("p");
    if (box.height < 44 || (!inText && box.width < 44))
      small.push(`${el.tagName.toLowerCase()} "${(el.textContent || "").trim().slice(0, 30)}" `
                 + `${el.name || ""} ${Math.round(box.width)}×${Math.round(box.height)}`);
  }
  return small;
}"""
WIDTH = """() => {
  document.querySelectorAll("details").forEach((d) => { d.open = true; });
  return document.documentElement.scrollWidth;
}"""


def test_history_settlement_and_slate_at_the_table(phone, shots, live_app):
    paths = seed(live_app)
    page = phone
    open_link(page, f"/join/{paths['token']}")
    # the history: a table, newest first; entry 12 entered again after an undo, 1 corrected
    page.goto(paths["short"] + "/history")
    rows = page.locator("table.history tbody tr")
    assert rows.count() == 13
    assert rows.nth(0).locator("td").first.inner_text() == "12"
    assert "rückgängig gemacht" in rows.nth(1).inner_text()
    assert rows.nth(1).locator("s").count() == 1
    first = rows.nth(12).inner_text()
    assert "korrigiert" in first and "iPhone · Safari" in first
    assert page.evaluate(WIDTH) <= 390
    shots("history")
    tap(page, "table.history a[href$='/entries/1']")  # every row leads to its correction
    assert page.url.endswith("/entries/1")

    # the settlement: from → to, the amount, a small tick; a ticked one is struck, with "undo"
    page.goto(paths["evening"])
    payments = page.locator("li.payment")
    count = payments.count()
    assert page.locator("li.payment.paid").count() == 1
    toggle = page.locator("li.payment:not(.paid) button.toggle").first.bounding_box()
    assert 44 <= toggle["height"] < 80 and 44 <= toggle["width"] <= 160  # small, not a bar
    page.locator("#payments").scroll_into_view_if_needed()
    shots("settlement")
    tap(page, "li.payment:not(.paid) button.toggle")
    assert page.locator("li.payment.paid").count() == 2 and payments.count() == count
    paid = page.locator("li.payment.paid").first
    assert "bezahlt ✓" in paid.inner_text() and "rückgängig" in paid.inner_text()
    assert paid.locator(".money").evaluate("e => getComputedStyle(e).textDecorationLine") \
        == "line-through"
    shots("settlement-ticked")
    tap(page, "li.payment.paid button.toggle")  # undo
    assert page.locator("li.payment.paid").count() == 1

    # the slate: lines in tallies on each side of the frame, the dealer ringed
    page.goto(paths["rubber"])
    slate = page.locator("svg.slate")
    assert slate.get_attribute("role") == "img"
    assert LONG in slate.get_attribute("aria-label")
    assert "= 19" in slate.inner_html()  # past 15 lines their number is written
    shots("slate")

    # long names at a table: nothing is wider than the phone
    page.goto(paths["hearts"])
    assert page.evaluate(WIDTH) <= 390
    shots("long-names")
    page.set_viewport_size({"width": 320, "height": 700})
    for label in ("hearts", "rubber", "evening"):
        page.goto(paths[label])
        assert page.evaluate(WIDTH) <= 320, label
        shots(f"320-{label}")
    page.goto(paths["short"] + "/history")
    shots("320-history")


def test_every_main_page_has_44px_targets_and_fits_the_phone(phone, live_app):
    paths = seed(live_app)
    open_link(phone, f"/join/{paths['token']}")
    small, wide = {}, {}
    for name, path in main_pages(paths).items():
        phone.goto(path)
        if found := phone.evaluate(SMALL_TARGETS):
            small[name] = found
        if (width := phone.evaluate(WIDTH)) > 390:
            wide[name] = width
    phone.set_viewport_size({"width": 320, "height": 700})
    for name, path in main_pages(paths).items():
        phone.goto(path)
        if (width := phone.evaluate(WIDTH)) > 320:
            wide[f"{name} at 320"] = width
    assert small == {}
    assert wide == {}


def test_a_new_group_asks_for_its_players_first(phone, shots):
    page = phone
    page.goto("/")
    page.fill('input[name="name"]', "Stammtisch Tanne")
    tap(page, "form[action='/groups'] button")
    tap(page, "a.button.secondary.wide[href^='/g/']")  # from the invite page to the group
    hint = page.locator("form.start-here")
    assert "Zuerst die Spieler" in hint.inner_text()
    assert page.evaluate(SMALL_TARGETS) == []
    shots("new-group")
    page.fill("form.start-here input[name=name]", LONG)
    tap(page, "form.start-here button")
    # one name after the other: the field stays, empty, with the cursor in it
    assert page.locator("form.start-here").count() == 1
    assert LONG in page.locator("form.start-here").inner_text()
    assert page.evaluate("document.activeElement.name") == "name"
    page.keyboard.type("Anni")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert "Anni" in page.locator("form.start-here").inner_text()
    shots("two-players")
    page.set_viewport_size({"width": 320, "height": 700})
    assert page.evaluate(WIDTH) <= 320


@pytest.mark.parametrize("width, height", [(844, 390), (1280, 800)])
def test_every_main_page_fits_a_phone_on_its_side_and_a_laptop(phone, live_app, width, height):
    paths = seed(live_app)
    open_link(phone, f"/join/{paths['token']}")
    phone.set_viewport_size({"width": width, "height": height})
    shots = Shots(phone, f"pages-{width}x{height}")
    small, wide = {}, {}
    for name, path in main_pages(paths).items():
        phone.goto(path)
        if name in ("table-vier-anderle", "table-hartenjagen", "history", "evening", "standings"):
            shots(name)
        if found := phone.evaluate(SMALL_TARGETS):
            small[name] = found
        if (scrolled := phone.evaluate(WIDTH)) > width:
            wide[name] = scrolled
    assert small == {}
    assert wide == {}
