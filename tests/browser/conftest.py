"""A live app on a free port and Debian's Chromium driven by Playwright, at a phone's size."""

import os
import shutil
import threading
from pathlib import Path

import pytest
from support import make_app
from werkzeug.serving import make_server

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
PHONE = {"width": 390, "height": 844}
TAKEN: list[str] = []  # every screenshot of this run, listed at the end of the test output


def pytest_terminal_summary(terminalreporter):
    if TAKEN:
        terminalreporter.section("screenshots (390×844)")
        for path in TAKEN:
            terminalreporter.write_line(path)


@pytest.fixture
def live_app(tmp_path):
    app = make_app("sqlite", tmp_path)  # CSRF on, as in production
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    app.config["BASE_URL"] = f"http://127.0.0.1:{server.server_port}"
    yield app
    server.shutdown()
    thread.join()


@pytest.fixture(scope="session")
def browser():
    if not CHROMIUM:
        pytest.skip("browser tests need Debian's chromium package (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run"])
        yield browser
        browser.close()


@pytest.fixture
def phone(browser, live_app):
    context = browser.new_context(viewport=PHONE, device_scale_factor=1, has_touch=True,
                                  base_url=live_app.config["BASE_URL"], locale="de-DE")
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("dialog", lambda dialog: dialog.accept())  # "Close the game?" — yes
    yield page
    context.close()
    assert errors == [], f"JavaScript errors: {errors}"


class Shots:
    """Full-page screenshots, saved under test-artifacts/ and printed with their paths."""

    def __init__(self, page, name):
        self.page, self.name, self.count = page, name, 0
        ARTIFACTS.mkdir(exist_ok=True)

    def __call__(self, label):
        self.count += 1
        path = ARTIFACTS / f"{self.name}-{self.count:02d}-{label}.png"
        self.page.screenshot(path=str(path), full_page=True)
        TAKEN.append(os.path.relpath(path))
        return path


@pytest.fixture
def shots(phone, request):
    return Shots(phone, request.node.name.removeprefix("test_"))
