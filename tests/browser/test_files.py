"""The app's files on a phone, in a real Chromium: named after their content, kept by the service
worker; when they change, the phone drops the old ones, and a page it kept from before still
opens without network, styled and working."""

import pytest
from conftest import PHONE, Shots
from test_play import save, set_up_group, start

from scorekeeper import create_app
from scorekeeper.web import assets

pytestmark = pytest.mark.browser

CACHES = "async () => (await caches.keys()).sort()"
# the rules of each stylesheet of the page (none: it did not load)
RULES = ("[...document.styleSheets].map((s) => { try { return s.cssRules.length } catch { return 0 "
         "} })")


def wait_for_caches(page, expected):
    for _ in range(100):
        if page.evaluate(CACHES) == expected:
            return
        page.wait_for_timeout(100)
    assert page.evaluate(CACHES) == expected


def test_new_files_replace_the_old_and_a_page_kept_before_still_works_offline(
        browser, live_app, network, monkeypatch):
    context = browser.new_context(viewport=PHONE, base_url=network.url, locale="de-DE",
                                  has_touch=True)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    shots = Shots(page, "files_change")
    four = ["A", "B", "C", "D"]
    set_up_group(page, shots, four)
    start(page, shots, "hintersche", four)
    table = page.url
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()  # the service worker keeps the table as it is now, naming today's files
    old = live_app.static_url_path + "/"
    wait_for_caches(page, [f"scorekeeper-files{old}", "scorekeeper-pages"])

    # the app is updated: its files have a new name (as after any change of one of them)
    monkeypatch.setattr(assets, "version", lambda folder, styles: "0123456789ab")
    newer = create_app({"TESTING": True, "SECRET_KEY": "test",
                        "SQLALCHEMY_DATABASE_URI": live_app.config["SQLALCHEMY_DATABASE_URI"]})
    live_app.wsgi_app = newer.wsgi_app  # type: ignore[method-assign]
    page.goto("/")  # a page that is not kept: it names the new worker, which drops the old files
    wait_for_caches(page, ["scorekeeper-files/static/0123456789ab/", "scorekeeper-pages"])

    network.cut()
    context.set_offline(True)
    cdp = context.new_cdp_session(page)
    cdp.send("Network.clearBrowserCache")  # only the service worker has the files now
    page.goto(table)  # the page kept before the update, naming the old files
    assert old in page.content()
    sheets = page.evaluate(RULES)
    assert len(sheets) == 2 and all(sheets)  # app.css and the game's own, as they are now
    for name, points in {"A": 30, "B": 45, "C": 35}.items():  # the modules work: the hand waits
        page.fill(f"input[name='points-{name}']", str(points))
    save(page)
    assert page.locator("[data-waiting-list] li").count() == 1
    shots("kept-page-offline-after-update")
    assert errors == []
    context.close()
