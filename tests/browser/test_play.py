"""One whole game of each kind, played by tapping at 390×844, with a mistake, an undo and an edit.

Screenshots go to test-artifacts/ (their paths are printed)."""

import json
import re

import pytest

pytestmark = pytest.mark.browser


def tap(page, selector):
    """Tap something that loads a new page and wait for it. The focus moves first, as with a
    finger: after a full-page screenshot Chromium scrolls the page when the focus leaves a field,
    and a click whose press and release land on different elements would submit nothing."""
    target = page.locator(selector).first
    target.focus()
    with page.expect_navigation():
        target.click()


def save(page, form="#entry form"):
    """Tap a form's save button and wait for the answer. The table page sends its hands itself
    and shows the answer in place (static/js/queue.js); every other form loads a new page."""
    button = page.locator(f"{form} button[type=submit]").first
    if button.locator("xpath=ancestor::*[@data-entry-forms]").count():
        button.click()
        page.wait_for_selector("body:not([data-busy])", state="attached")
    else:
        tap(page, f"{form} button[type=submit]")


def tricks(page, name, count):
    """One tap on a player's number of tricks."""
    page.locator(f".tally:has(input[name='tricks-{name}']) button[data-set='{count}']").click()


def chip(page, name, value):
    page.locator(f'label.chip:has(input[name="{name}"][value="{value}"])').first.click()


def state(page):
    game = re.search(r"/g/[^/]+/games/\d+", page.url).group(0)
    return json.loads(page.context.request.get(game + "/state.json").text())


def set_up_group(page, shots, names):
    page.goto("/")
    page.fill('input[name="name"]', "Stammtisch Tanne")
    shots("start")
    tap(page, "form[action='/groups'] button")
    assert page.url.endswith("/invite")  # a new group shows its join link first
    tap(page, "a.button.secondary.wide[href^='/g/']")  # back to the group
    tap(page, "a[href$='/games/new']")
    for name in names:  # a new group: add the players right on the new-game page
        tap(page, "a[href*='kind=']") if "kind=" not in page.url else None
        page.fill(".add-player input[name=name]", name)
        save(page, ".add-player")


# the start page's form and the new-game page's player form, sent by the page's own fetch
SEND_GROUP = r"""async ([name, players]) => {
  const made = document.querySelector("form[action='/groups']");
  made.querySelector("input[name=name]").value = name;
  const invite = await fetch(made.action, { method: "POST", body: new FormData(made) });
  const group = new URL(invite.url).pathname.replace(/\/invite$/, "");
  const token = made.querySelector("input[name=csrf_token]").value;
  for (const player of players) {
    const added = await fetch(`${group}/players`, { method: "POST",
      body: new URLSearchParams({ csrf_token: token, name: player, next: `${group}/games/new` }) });
    if (!added.ok) throw new Error(`${player}: ${added.status}`);
  }
  return group;
}"""


def quick_group(page, names, name="Stammtisch Tanne"):
    """The group and players of set_up_group, for the tests whose subject comes after: the
    same forms, sent from the start page by its script without drawing the pages in between
    (half a second instead of two). Ends on the new-game page, as set_up_group does."""
    page.goto("/")
    group = page.evaluate(SEND_GROUP, [name, names])
    page.goto(f"{group}/games/new")


def start(page, shots, kind, names, rules=None):
    page.goto(page.url.split("/games/")[0] + f"/games/new?kind={kind}")
    for name in names:
        chip(page, f"seat-{name}", name)
    if rules:
        page.locator("details summary").first.click()  # the rule options are folded away
    for option, value in (rules or {}).items():
        if value is True:
            page.check(f'input[name="rule-{option}"]')
        else:
            page.fill(f'input[name="rule-{option}"]', str(value))
    shots("new-game")
    save(page, "form[data-seating]")


def hintersche_deal(page, points, all_tricks=None):
    for name, value in points.items():
        page.fill(f'input[name="points-{name}"]', str(value))
    if all_tricks:  # folded under "Alle Stiche gemacht?": a tap opens it
        fold = page.locator("#entry details.fold:not([open]) summary")
        if fold.count():
            fold.click()
        chip(page, "all_tricks", all_tricks)
    save(page)


def test_hintersche_rubber(phone, shots):
    page = phone
    set_up_group(page, shots, ["A", "B", "C", "D"])
    start(page, shots, "hintersche", ["A", "B", "C", "D"], {"rubber_games": 1})
    # a mistake: 2, 2, 2 and the rest cannot be made from one pack
    hintersche_deal(page, {"A": 2, "B": 2, "C": 2})
    assert page.locator("input[name='points-D']").input_value() == "134"  # filled in by itself
    assert page.locator(".error").count() >= 1
    shots("impossible-deal")
    hintersche_deal(page, {"A": 30, "B": 45, "C": 35, "D": 30})
    hintersche_deal(page, {"A": 20, "B": 21, "C": 97, "D": 2})  # a slip: C had 99, D 0
    tap(page, "a[href*='/undo']")
    shots("undo-confirm")
    save(page, "main form")
    hintersche_deal(page, {"A": 20, "B": 21, "C": 99, "D": 0})
    hintersche_deal(page, {"A": 105, "B": 10, "C": 15, "D": 10})
    shots("butzen-begins")
    assert state(page)["phase"] == "butzen"
    hintersche_deal(page, {"B": 50, "C": 40, "D": 50})
    hintersche_deal(page, {"B": 30, "C": 60, "D": 50})
    hintersche_deal(page, {"B": 55, "C": 55, "D": 20})  # B and C tie: the page asks for a playoff
    assert page.locator("input[name='playoff-0-B']").is_visible()
    shots("playoff")
    page.fill("input[name='playoff-0-B']", "40")
    page.fill("input[name='playoff-0-C']", "30")
    save(page)
    # correct deal 1 from the history: B had 44 and C 36 (B still has most)
    tap(page, "a[href$='/history']")
    tap(page, "a[href$='/entries/1']")
    page.fill("input[name='points-B']", "44")
    page.fill("input[name='points-C']", "36")
    shots("edit")
    save(page, "main form")
    # first what the correction changes, then the confirm saves it
    assert page.locator("#changes").is_visible()
    shots("edit-preview")
    save(page, "form.confirm")
    hintersche_deal(page, {"B": 50, "C": 70})
    hintersche_deal(page, {"B": 70, "C": 60})
    shots("final-stage")
    hintersche_deal(page, {"B": 0, "C": 72}, all_tricks="C")
    final = state(page)
    assert final["finished"] is True
    assert [p["lines"] for p in final["players"]] == [0, 1, 0, 0]
    assert page.locator(".done").is_visible()
    shots("rubber-over")


def va_hand(page, taken, playing=()):
    for name in playing:
        if not page.locator(f"input[name='playing-{name}']").is_checked():
            chip(page, f"playing-{name}", "on")
    for name, count in taken.items():
        tricks(page, name, count)
    save(page)


def test_vier_anderle_evening(phone, shots):
    page = phone
    names = ["A", "B", "C", "D", "E", "F"]
    set_up_group(page, shots, names + ["G"])
    start(page, shots, "vier-anderle", names)
    # the seed's example: type 1, then type 2 with A and F sitting out
    tricks(page, "A", 3)
    tricks(page, "A", 2)  # one tap on the right number
    tricks(page, "B", 1)
    tricks(page, "C", 1)
    tricks(page, "D", 1)  # capped: 4 tricks in all
    assert page.locator("input[name='tricks-D']").input_value() == "0"
    save(page)
    assert state(page)["pot"] == 16
    for name in ("B", "E"):  # they play without a trick; C and D are ticked by their tricks
        chip(page, f"playing-{name}", "on")
    tricks(page, "C", 1)
    tricks(page, "D", 3)
    assert page.locator("input[name='playing-D']").is_checked()
    save(page)
    assert state(page)["pot"] == 40
    shots("type-2")
    # G joins and F leaves
    page.locator("details summary").first.click()
    page.locator("label.chip:has(input[name='seat-F'])").click()
    page.locator("label.chip:has(input[name='seat-G'])").click()
    save(page, "details form")
    assert "G" in state(page)["seated"] and "F" not in state(page)["seated"]
    # D plays alone and takes the pot; first entered by mistake as C, undone, entered again
    va_hand(page, {"C": 4}, playing=["C"])
    tap(page, "a[href*='/undo']")
    save(page, "main form")
    va_hand(page, {"D": 4}, playing=["D"])
    # correct hand 1 afterwards: A took 1 and D 1 (instead of A 2)
    tap(page, "a[href$='/history']")
    tap(page, "a[href$='/entries/1']")
    tricks(page, "A", 1)
    tricks(page, "D", 1)
    save(page, "main form")
    assert page.locator("#changes").is_visible()
    shots("edit-preview")
    save(page, "form.confirm")
    final = state(page)
    assert sum(p["balance"] for p in final["players"]) + final["pot"] == 0
    shots("before-close")
    page.locator("details summary").last.click()
    save(page, "form[action$='/close']")
    assert page.locator(".done").is_visible()
    shots("closed")
    # not a dead end: the evening's settlement is a tap away
    tap(page, ".done a[href*='#payments']")
    assert "/evenings/" in page.url and page.locator("#payments").is_visible()


def card(page, key, name):
    """Who took a penalty card: a tap in its column of the player's row."""
    page.locator(f'label.dot:has(input[name="{key}"][value="{name}"])').first.click()


def hearts_hand(page, hearts, queen):
    for name, count in hearts.items():
        page.fill(f'input[name="hearts-{name}"]', str(count))
    card(page, "queen", queen)
    save(page)


def test_hartenjagen_game(phone, shots):
    page = phone
    names = ["A", "B", "C", "D"]
    set_up_group(page, shots, names)
    start(page, shots, "hartenjagen", names)
    for _ in range(3):
        page.locator(".stepper:has(input[name='hearts-A']) .plus").click()
    page.fill("input[name='hearts-C']", "10")
    card(page, "queen", "B")
    save(page)
    hearts_hand(page, {"D": 13}, "D")  # the moon
    page.locator("details:has(input[name=renege]) summary").click()
    chip(page, "renege", "B")
    save(page, "details form")
    hearts_hand(page, {"A": 0, "B": 5, "C": 2, "D": 5}, "C")  # a mistake: 12 hearts
    assert page.locator(".error").count() >= 1
    shots("twelve-hearts")
    hearts_hand(page, {"B": 5, "C": 2, "D": 6}, "C")
    hearts_hand(page, {"A": 4, "B": 9, "C": 0, "D": 0}, "A")  # the queen went to B, not A
    tap(page, "a[href*='/undo']")
    save(page, "main form")
    hearts_hand(page, {"A": 4, "B": 9}, "B")
    tap(page, "a[href$='/history']")  # hand 1 was A 4 and C 9
    tap(page, "a[href$='/entries/1']")
    page.fill("input[name='hearts-A']", "4")
    page.fill("input[name='hearts-C']", "9")
    save(page, "main form")
    assert page.locator("#changes").is_visible()
    shots("edit-preview")
    save(page, "form.confirm")
    shots("score-sheet")
    chip(page, "mode", "points")  # the same form, no reload
    for name, points in {"A": 14, "B": 8, "C": 4, "D": 0}.items():
        page.fill(f'input[name="points-{name}"]', str(points))
    save(page)
    final = state(page)
    assert final["finished"] and final["winner"] == "D"
    assert [p["score"] for p in final["players"]] == [48, 100, 54, 6]
    shots("winner")
