"""A live app on a free port and Debian's Chromium driven by Playwright, at a phone's size."""

import contextlib
import logging
import shutil
import socket
import threading
from pathlib import Path

import pytest
from support import make_app
from werkzeug.serving import make_server

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
# the phones' browser: Debian's headless shell (package chromium-headless-shell, the same
# Chromium without its windows, made to be driven) takes a third of the whole browser's CPU for
# a page or a screenshot; the whole browser where the shell is not installed. (The whole one has
# what the shell lacks: its back-forward cache.)
HEADLESS = shutil.which("chromium-headless-shell") or CHROMIUM
PHONE = {"width": 390, "height": 844}
# the development server's line per request: not wanted in the test output (and a request a
# browser sends after its test ended would be logged to a closed stream)
logging.getLogger("werkzeug").setLevel(logging.ERROR)


@contextlib.contextmanager
def serving(app):
    """The app on a free port (its address in BASE_URL) while the block runs."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    app.config["BASE_URL"] = f"http://127.0.0.1:{server.server_port}"
    yield app
    app.extensions["live"].close()  # the pages' open streams end
    server.shutdown()
    thread.join()


@pytest.fixture
def live_app(tmp_path):
    with serving(make_app("sqlite", tmp_path)) as app:  # CSRF on, as in production
        yield app


@pytest.fixture(scope="session")
def browser():
    if not HEADLESS:
        pytest.skip("browser tests need Debian's chromium package (apt-get install chromium "
                    "chromium-headless-shell)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=HEADLESS,
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
    """Full-page screenshots, saved under test-artifacts/ and printed with their paths (JPEG:
    half the browser's time of a PNG, for pictures that are only looked at)."""

    def __init__(self, page, name):
        self.page, self.name, self.count = page, name, 0
        ARTIFACTS.mkdir(exist_ok=True)

    def __call__(self, label):
        self.count += 1
        path = ARTIFACTS / f"{self.name}-{self.count:02d}-{label}.jpeg"
        self.page.screenshot(path=str(path), full_page=True, quality=80)
        return path


@pytest.fixture
def shots(phone, request):
    return Shots(phone, request.node.name.removeprefix("test_"))


class Network:
    """The pub's Wi-Fi between the phones and the app: a relay on a port of its own that can be
    cut (every connection dropped, nothing listening) and restored on the same port. Unlike
    Playwright's offline switch it also cuts the service worker off."""

    def __init__(self, target_port):
        self.target = ("127.0.0.1", target_port)
        self.open: list[socket.socket] = []
        self.listener = self._listen(0)
        self.port = self.listener.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"

    def _listen(self, port):
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", port))
        listener.listen(64)
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()
        return listener

    def _accept(self, listener):
        while True:
            try:
                phone, _ = listener.accept()
            except OSError:
                return  # cut
            try:
                app = socket.create_connection(self.target)
            except OSError:
                phone.close()
                continue
            if listener.fileno() == -1:  # cut while this one was let in
                phone.close()
                app.close()
                return
            self.open += [phone, app]
            for source, sink in ((phone, app), (app, phone)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    @staticmethod
    def _pump(source, sink):
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        for end in (source, sink):
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)
            end.close()

    def cut(self):
        with contextlib.suppress(OSError):  # wakes the thread waiting in accept() (Linux)
            self.listener.shutdown(socket.SHUT_RDWR)
        self.listener.close()
        for end in self.open:
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)
            end.close()
        self.open = []

    def restore(self):
        self.listener = self._listen(self.port)


@pytest.fixture
def network(live_app):
    relay = Network(int(live_app.config["BASE_URL"].rsplit(":", 1)[1]))
    yield relay
    relay.cut()


def open_link(page, link):
    """Open a join or view link as the camera app does, then tap its one button ("Beitreten",
    "Ansehen"): the tap is what puts the phone into the group."""
    page.goto(link)
    button = page.locator("main form button[type=submit]")
    if "/join/" in page.url and button.count():
        with page.expect_navigation():
            button.click()
