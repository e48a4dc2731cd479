"""Every page, as a German phone at 390×844 shows it, checked by axe-core (the npm package,
installed by `make install-test`, injected into the page): no violation of any impact."""

from pathlib import Path

import pytest
from conftest import CHROMIUM, PHONE, open_link
from test_pages import main_pages, seed

pytestmark = pytest.mark.browser

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
# what axe reports: each violated rule, with the first few elements it found it on
RUN = """async () => {
  document.querySelectorAll("details").forEach((d) => { d.open = true; });  // what they fold away
  const result = await axe.run(document, { resultTypes: ["violations"] });
  return result.violations.map((v) => `${v.id} (${v.impact}): ${v.help} — `
    + v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", "));
}"""


def every_page(paths):
    group = paths["group"]
    pages = main_pages(paths)
    pages.update({
        "invite": f"{group}/invite", "join-with-pin": "/join",
        "rules-hintersche": "/rules/hintersche", "rules-vier-anderle": "/rules/vier-anderle",
        "rules-hartenjagen": "/rules/hartenjagen",
        "correction-hintersche": paths["short"] + "/entries/1",
        "correction-vier-anderle": paths["pot"] + "/entries/1",
        "correction-hartenjagen": paths["hearts-over"] + "/entries/1",
        "tv-evening": f"{group}/tv", "tv-hintersche": paths["rubber"] + "/tv",
        "tv-vier-anderle": paths["pot"] + "/tv", "tv-hartenjagen": paths["hearts"] + "/tv",
        "player": f"{group}/players/1", "not-found": "/g/nothing"})
    return pages


@pytest.fixture
def checked_phone(browser, live_app):
    if not AXE.exists():
        pytest.skip("axe-core is not installed (make install-test installs it with npm)")
    # axe comes in as a script of the test's own, which the pages' policy would refuse
    context = browser.new_context(viewport=PHONE, device_scale_factor=1, has_touch=True,
                                  base_url=live_app.config["BASE_URL"], locale="de-DE",
                                  bypass_csp=True)
    yield context.new_page()
    context.close()


def test_axe_finds_nothing_on_any_page(checked_phone, live_app):
    assert CHROMIUM
    paths = seed(live_app)
    page = checked_phone
    invite = page.goto(f"/join/{paths['token']}")
    assert invite.status == 200
    found = {"join-link": _check(page)}
    open_link(page, f"/join/{paths['token']}")
    for name, path in every_page(paths).items():
        page.goto(path)
        found[name] = _check(page)
    problems = [f"{name}: {problem}" for name, found_there in found.items()
                for problem in found_there]
    assert not problems, "\n".join(problems)


def _check(page):
    page.add_script_tag(path=str(AXE))
    return page.evaluate(RUN)
