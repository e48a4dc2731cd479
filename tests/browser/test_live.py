"""What static/js/live.js and static/sw.js promise, tested in a real Chromium: a page back from
the back-forward cache polls at once, polling pauses while the screen is off (and comes back at
once), the service worker waits 4 s for the network before it shows the kept page, and another
phone's hand arrives over the page's stream, after the stream dropped, and by polling without
one."""

import threading
import time

import pytest
from conftest import CHROMIUM, PHONE, Shots
from flask import request
from test_play import hintersche_deal, quick_group, save, start

pytestmark = pytest.mark.browser

FOUR = ["A", "B", "C", "D"]
# every pageshow of the page, and whether it came from the browser's memory
PAGESHOWS = "addEventListener('pageshow', (e) => { (window.shows ||= []).push(e.persisted); })"
# the 2 s poll recorded when it fires (its behaviour unchanged)
TICKS = """{
  const every = window.setInterval;
  window.ticks = [];
  window.setInterval = (f, ms, ...args) => every(
    ms === 2000 ? () => { window.ticks.push(performance.now()); f(); } : f, ms, ...args);
}"""
# the 2 s poll never fires (only what an event starts polls)
NO_TICKS = """{
  const every = window.setInterval;
  window.setInterval = (f, ms, ...args) => every(f, ms === 2000 ? 3600000 : ms, ...args);
}"""
# no visibilitychange reaches the page (Chromium sends one on coming back from memory, not
# every browser does): what polls then is the pageshow
NO_VISIBILITY = "addEventListener('visibilitychange', (e) => e.stopImmediatePropagation(), true)"
# no Web Lock held or asked for by the page (its sending of waiting hands done)
UNLOCKED = """async () => {
  for (;;) {
    const { held, pending } = await navigator.locks.query();
    if (!held.length && !pending.length) return;
    await new Promise((done) => setTimeout(done, 20));
  }
}"""
# the screen off and on again, as the browser says it (document.hidden, visibilitychange)
SCREEN = """(off) => {
  Object.defineProperty(document, "hidden", { configurable: true, get: () => off });
  Object.defineProperty(document, "visibilityState", { configurable: true,
    get: () => (off ? "hidden" : "visible") });
  document.dispatchEvent(new Event("visibilitychange"));
}"""


def polls_of(page):
    """The times (time.monotonic) of the page's requests for its game's version."""
    times = []
    page.on("request", lambda r: times.append(time.monotonic()) if r.url.endswith("/live")
            else None)
    return times


def another_phone_deals(browser, page, table):
    """Deal 1 of the game at `table`, entered on a second phone of the same group."""
    other = browser.new_context(viewport=PHONE, locale="de-DE",
                                storage_state=page.context.storage_state()).new_page()
    other.goto(table)
    hintersche_deal(other, {"A": 30, "B": 45, "C": 35})
    save(other)
    assert "Hand 1" in other.locator(".last").inner_text()
    other.context.close()


@pytest.fixture
def bfcache_browser(browser):
    """A Chromium with its back-forward cache on (Playwright turns it off by default)."""
    own = browser.browser_type.launch(
        executable_path=CHROMIUM, ignore_default_args=["--disable-back-forward-cache"],
        args=["--no-sandbox", "--disable-gpu", "--disable-background-networking",
              "--disable-component-update", "--disable-sync", "--no-first-run"])
    yield own
    own.close()


def test_a_page_back_from_the_back_forward_cache_polls_at_once(bfcache_browser, live_app):
    base = live_app.config["BASE_URL"]
    context = bfcache_browser.new_context(viewport=PHONE, base_url=base, locale="de-DE",
                                          has_touch=True)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    shots = Shots(page, "bfcache")
    quick_group(page, FOUR)
    start(page, shots, "hintersche", FOUR)
    table = page.url
    page.add_init_script(PAGESHOWS)
    page.add_init_script(NO_TICKS)  # a poll after Back is the page's answer to coming back
    page.add_init_script(NO_VISIBILITY)
    page.goto(table)
    # its first sending of waiting hands done: a page left while it holds the Web Lock is put out
    # of memory as soon as the next page asks for the lock (weblocks-contention)
    page.evaluate(UNLOCKED)
    page.goto(table.split("/games/")[0])  # the group's page; the table waits in memory
    another_phone_deals(bfcache_browser, page, table)
    polls = polls_of(page)
    page.go_back(wait_until="commit")  # a page from memory fires no load event
    back = time.monotonic()
    page.locator(".last", has_text="Hand 1").wait_for(timeout=1500)  # the other phone's deal
    assert page.evaluate("window.shows") == [False, True], page.evaluate(  # from memory
        "JSON.stringify(performance.getEntriesByType('navigation')[0].notRestoredReasons)")
    assert polls and polls[0] - back < 1.5
    shots("back-up-to-date")
    assert errors == []
    context.close()


def test_polling_pauses_with_the_screen_off_and_comes_back_at_once(phone, shots, browser,
                                                                   live_app):
    live_app.config["LIVE_STREAMS"] = False  # the polling a page falls back on without stream
    quick_group(phone, FOUR)
    start(phone, shots, "hintersche", FOUR)
    phone.add_init_script(TICKS)
    phone.reload()
    polls = polls_of(phone)
    phone.wait_for_function("() => window.ticks.length >= 1")
    phone.wait_for_timeout(300)
    assert polls  # while the screen is on, the page polls
    phone.evaluate(SCREEN, True)
    before, ticks = len(polls), phone.evaluate("window.ticks.length")
    another_phone_deals(browser, phone, phone.url)
    phone.wait_for_timeout(5000)
    assert phone.evaluate("window.ticks.length") >= ticks + 2  # the timer went on ...
    assert len(polls) == before  # ... and asked nothing
    assert phone.locator(".last").count() == 0  # the deal is not shown yet
    # on again just after a tick: the next one is 2 s away, this poll comes at once
    ticks = phone.evaluate("window.ticks.length")
    phone.wait_for_function("(n) => window.ticks.length > n", arg=ticks)
    on = time.monotonic()
    phone.evaluate(SCREEN, False)
    phone.locator(".last", has_text="Hand 1").wait_for(timeout=1500)
    assert len(polls) > before and polls[before] - on < 1.0
    shots("screen-on-again")


def test_the_service_worker_gives_the_network_4_s_before_it_shows_the_kept_page(
        phone, shots, browser, live_app):
    hang, release = threading.Event(), threading.Event()
    table_path = []

    @live_app.before_request
    def no_answer():  # the pub's Wi-Fi that passes nothing: no answer, no error either
        if hang.is_set() and request.method == "GET" and request.path in table_path:
            release.wait(20)

    quick_group(phone, FOUR)
    start(phone, shots, "hintersche", FOUR)
    table = phone.url
    table_path.append("/g/" + table.split("/g/", 1)[1])
    phone.evaluate("navigator.serviceWorker.ready.then(() => true)")
    phone.reload()  # through the service worker, which keeps the page as it is now
    assert phone.evaluate("Boolean(navigator.serviceWorker.controller)")
    for _ in range(50):  # kept before the page reads it, but the test asks from the page
        if phone.evaluate("async () => Boolean(await caches.match(location.href))"):
            break
        phone.wait_for_timeout(100)
    # the screen off: this phone does not poll the other phone's deal into its kept page
    phone.evaluate(SCREEN, True)
    another_phone_deals(browser, phone, phone.url)  # the kept page is older
    hang.set()
    try:
        began = time.monotonic()
        answer = phone.goto(table)
        waited = time.monotonic() - began
        assert answer.from_service_worker
        assert phone.locator(".last").count() == 0  # the kept page, from before deal 1
        assert 3.0 <= waited <= 8.0, waited  # PATIENCE: 4 s
        shots("kept-page-after-4-s")
    finally:
        release.set()


def test_a_hand_reaches_the_other_phone_over_its_stream_and_by_polling_when_it_drops(
        phone, shots, browser, live_app, network):
    quick_group(phone, FOUR)
    start(phone, shots, "hintersche", FOUR)
    table = phone.url
    # the other phone reaches the app through the pub's Wi-Fi (`network`), which can be cut
    other = browser.new_context(viewport=PHONE, locale="de-DE", base_url=network.url,
                                storage_state=phone.context.storage_state()).new_page()
    polls, streams, other_shots = polls_of(other), [], Shots(other, "stream")
    other.on("response", lambda r: streams.append(r.status) if r.url.endswith("/live/stream")
             else None)
    other.goto(network.url + "/g/" + table.split("/g/", 1)[1])
    other.wait_for_function("() => true")
    for _ in range(50):
        if streams:
            break
        other.wait_for_timeout(100)
    assert streams == [200]
    before = len(polls)
    path = "/g/" + table.split("/g/", 1)[1]
    fetched = []  # the other phone's requests for the table page itself
    other.on("request", lambda r: fetched.append(r.url) if r.url.endswith(path) else None)
    hintersche_deal(phone, {"A": 30, "B": 45, "C": 35})
    other.locator(".last", has_text="Hand 1").wait_for(timeout=1500)
    # the stream brought the table's new content itself: no poll, no page fetched
    assert len(polls) == before and fetched == []
    other_shots("hand-from-the-other-phone")
    # ... with this phone's own token in its forms: its next hand is saved, and comes the
    # same way to the first phone
    hintersche_deal(other, {"A": 20, "B": 50, "C": 40})
    assert "Hand 2" in other.locator(".last").inner_text()
    phone.locator(".last", has_text="Hand 2").wait_for(timeout=1500)

    # the Wi-Fi drops: a hand entered meanwhile is shown once it is back (the stream opened
    # again starts with the current version)
    network.cut()
    hintersche_deal(phone, {"A": 20, "B": 21, "C": 99})
    other.wait_for_timeout(500)
    assert other.locator(".last", has_text="Hand 3").count() == 0
    network.restore()
    other.locator(".last", has_text="Hand 3").wait_for(timeout=6000)

    # the server gives no more streams (a proxy that cannot pass them on): the page polls
    live_app.config["LIVE_STREAMS"] = False
    live_app.extensions["live"].hub.end_all()
    other.wait_for_function("() => true")
    for _ in range(60):
        if streams[-1] == 204:
            break
        other.wait_for_timeout(100)
    assert streams[-1] == 204
    before = len(polls)
    hintersche_deal(phone, {"A": 105, "B": 10, "C": 15})
    other.locator(".last", has_text="Hand 4").wait_for(timeout=4000)
    assert len(polls) > before
    other_shots("hand-by-polling")
    other.context.close()
