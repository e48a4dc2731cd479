"""What a phone downloads for a table page: the first visit and the next one, in requests and
bytes as sent (compressed) and as they are, in Debian's Chromium.

    .venv/bin/python bench/transfer.py

    smoke: as it is (about 10 s)

For each game a table with some hands (Vier-Anderle with 13 players, as on a long evening), on
the development server in this process; a phone that joined the group (tests/support.phone)
opens the table page, then the group's page and the table page again (not a reload). Counted
at the app, for everything the table page loads until its `load` event: each request, its
status and the bytes of its body as sent and as they are. The service worker is kept out: this
is the HTTP traffic (the worker's own first download is its shell, every file once). Byte
counts do not vary from run to run; there is no floor to measure against.
"""

from __future__ import annotations

import gzip
import logging
import shutil
import sys
import tempfile
import threading
import zlib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common  # noqa: E402, F401 - tests/ on the path
from support import enter, make_app, phone, start_game  # noqa: E402
from werkzeug.serving import make_server  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
TABLES = {  # game: players, hands (each as a phone posts it)
    "hintersche": (["A", "B", "C", "D"],
                   [{"points-A": 30, "points-B": 45, "points-C": 35}] * 3),
    "vier-anderle": ([f"Spieler {i}" for i in range(13)],
                     [{f"tricks-Spieler {i % 13}": 4} for i in range(30)]),
    "hartenjagen": (["A", "B", "C", "D"],
                    [{"hearts-A": i % 13, "hearts-B": 13 - i % 13, "queen": "C"}
                     for i in range(12)]),
}


def unpacked(body: bytes, encoding: str | None) -> int:
    if not encoding:
        return len(body)
    if encoding == "gzip":
        return len(gzip.decompress(body))
    if encoding == "deflate":
        return len(zlib.decompress(body))
    if encoding == "br":
        import brotli

        return len(brotli.decompress(body))
    if encoding == "zstd":
        from backports import zstd

        return len(zstd.decompress(body))
    raise ValueError(encoding)


class Counter:
    """A WSGI middleware that notes each request: path, status, bytes sent, bytes unpacked."""

    def __init__(self, app) -> None:
        self.app, self.on, self.seen = app, False, []

    def __call__(self, environ, start_response):
        answer = {}

        def start(status, headers, exc_info=None):
            answer.update(status=int(status.split()[0]), headers=dict(headers))
            return start_response(status, headers, exc_info)

        body = b"".join(self.app(environ, start))
        if self.on and environ["PATH_INFO"] != "/live" and not environ["PATH_INFO"].endswith(
                "/live"):  # a poll two seconds later is not the page's
            encoding = answer["headers"].get("Content-Encoding")
            self.seen.append((environ["PATH_INFO"], answer["status"], len(body),
                              unpacked(body, encoding) if answer["status"] == 200 else 0))
        return [body]


def visit(page, counter: Counter, url: str) -> list[tuple[str, int, int, int]]:
    counter.seen, counter.on = [], True
    page.goto(url, wait_until="load")
    page.wait_for_timeout(300)  # what the modules fetch as they start
    counter.on = False
    return counter.seen


def main() -> int:
    if not CHROMIUM:
        print("skipped: no chromium (apt-get install chromium)")
        return 0
    from playwright.sync_api import sync_playwright

    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    app = make_app("sqlite", Path(tempfile.mkdtemp()), WTF_CSRF_ENABLED=False)
    client = app.test_client()
    tables = {}
    for kind, (players, hands) in TABLES.items():
        tables[kind] = start_game(client, kind, players)
        for seq, hand in enumerate(hands, 1):
            enter(client, tables[kind], hand, seq=seq)
    cookie = phone(app).get_cookie("session")
    counter = Counter(app.wsgi_app)
    app.wsgi_app = counter  # type: ignore[method-assign]
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}"
    print(f"{'table page':<14}{'visit':<7}{'requests':>9}{'200':>5}{'304':>5}"
          f"{'sent KB':>9}{'unpacked KB':>13}")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        for kind, path in tables.items():
            context = browser.new_context(viewport={"width": 390, "height": 844},
                                          service_workers="block")
            context.add_cookies([{"name": "session", "value": cookie.value, "url": base}])
            page = context.new_page()
            for label in ("first", "next"):
                if label == "next":  # back at the group's page, then the table once more
                    page.goto(base + path.split("/games/")[0], wait_until="load")
                    page.wait_for_timeout(300)
                seen = visit(page, counter, base + path)
                assert (path, 200) in [(p, status) for p, status, *_ in seen], seen
                print(f"{kind:<14}{label:<7}{len(seen):>9}"
                      f"{sum(s == 200 for _, s, _, _ in seen):>5}"
                      f"{sum(s == 304 for _, s, _, _ in seen):>5}"
                      f"{sum(sent for *_, sent, _ in seen) / 1024:>9.1f}"
                      f"{sum(raw for *_, raw in seen) / 1024:>13.1f}")
            context.close()
        browser.close()
    server.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
