"""A step that fails half way shows the phone a page in German, upright and on its side, that
says nothing of it was stored; the table is as it was. Screenshots go to test-artifacts/."""

import pytest
from conftest import PHONE
from test_play import quick_group, start

from scorekeeper.changes import tables

pytestmark = pytest.mark.browser


def test_a_failure_shows_the_500_page_in_german(phone, shots, live_app, monkeypatch):
    page = phone
    quick_group(page, ["Anna", "Bert", "Carl", "Dora"])
    start(page, shots, "hintersche", ["Anna", "Bert", "Carl", "Dora"])
    table = page.url
    live_app.config["PROPAGATE_EXCEPTIONS"] = False  # as served: the failure becomes a page

    def fails(*args, **kwargs):
        raise RuntimeError("the database went away")

    monkeypatch.setattr(tables, "shut", fails)  # the history page fails half way
    answer = page.goto(table + "/history")
    assert answer is not None and answer.status == 500
    assert page.locator("h1").inner_text() == "Etwas ist schiefgegangen"
    assert "nichts davon gespeichert" in page.locator("main").inner_text()
    shots("failed")
    page.set_viewport_size({"width": PHONE["height"], "height": PHONE["width"]})
    shots("failed-on-its-side")
    page.set_viewport_size(PHONE)
    monkeypatch.undo()
    page.goto(table)
    assert page.locator("form[action$='/entries']").count() >= 1  # the table goes on
