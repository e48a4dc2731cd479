"""How the app's files and pages travel: compressed, and the files under a name that changes
with their content, so that a phone keeps them for a year and never asks for them again."""

import gzip
import re
from pathlib import Path
from urllib.parse import urljoin

import brotli
import rjsmin
from support import enter, start_game

from scorekeeper.web import assets

BROWSER = {"Accept-Encoding": "gzip, deflate, br, zstd"}  # what Chromium offers
YEAR = "public, max-age=31536000, immutable"
LINKED = re.compile(r'<(?:link|script)[^>]* (?:href|src)="(/static/[^"]+)"')
IMPORT = re.compile(r'(?:\bfrom|\bimport)\s*\(?\s*"(\.{1,2}/[^"]+)"')


def cache_control(response):
    return ", ".join(sorted(h.strip() for h in response.headers["Cache-Control"].split(",")))


def test_every_file_a_page_loads_is_kept_for_a_year_also_the_modules_it_imports(client, app):
    table = start_game(client, "hintersche", ["A", "B", "C", "D"])
    page = client.get(table).get_data(as_text=True)
    prefix = app.static_url_path
    assert re.fullmatch(r"/static/[0-9a-f]{12}", prefix)
    todo, seen = LINKED.findall(page), set()
    while todo:
        url = todo.pop()
        if url in seen:
            continue
        seen.add(url)
        with client.get(url) as answer:
            assert answer.status_code == 200, url
            assert cache_control(answer) == ", ".join(sorted(YEAR.split(", "))), url
            if url.endswith(".js"):  # `import ... from "./state.js"`: the same folder
                todo += [urljoin(url, name) for name in
                         IMPORT.findall(answer.get_data(as_text=True))]
    assert {f"{prefix}/app.css", f"{prefix}/favicon.svg", f"{prefix}/icon-192.png",
            f"{prefix}/js/main.js", f"{prefix}/js/state.js",
            f"{prefix}/games/hintersche/style.css"} <= seen
    assert all(url.startswith(prefix + "/") for url in seen)


def test_the_files_name_changes_when_any_file_or_a_games_stylesheet_changes(tmp_path):
    (tmp_path / "js").mkdir()
    (tmp_path / "app.css").write_text("body { color: red }")
    (tmp_path / "js" / "main.js").write_text('import { state } from "./state.js";')
    styles = {"hintersche": ".slate { color: red }"}
    first = assets.version(tmp_path, styles)
    assert first == assets.version(tmp_path, dict(styles)) and len(first) == 12
    (tmp_path / "js" / "main.js").write_text('import { state } from "./state.js";\n')
    second = assets.version(tmp_path, styles)
    assert second != first
    assert assets.version(tmp_path, {"hintersche": ".slate { color: blue }"}) != second
    (tmp_path / "js" / "main.js").rename(tmp_path / "js" / "start.js")  # the same bytes renamed
    assert assets.version(tmp_path, styles) not in (first, second)


def test_a_file_asked_for_under_an_older_name_is_sent_on_to_its_current_name(client, app):
    moved = client.get("/static/0123456789ab/js/state.js")
    assert moved.status_code == 302
    assert moved.location.endswith(f"{app.static_url_path}/js/state.js")
    assert client.get("/static/0123456789ab/games/hintersche/style.css").location.endswith(
        f"{app.static_url_path}/games/hintersche/style.css")
    assert client.get(f"{app.static_url_path}/games/nothing/style.css").status_code == 404
    assert client.get(f"{app.static_url_path}/nothing.js").status_code == 404


def test_pages_scripts_and_json_are_compressed_a_304_and_a_small_answer_are_not(client, app):
    table = start_game(client, "hintersche", ["A", "B", "C", "D"])
    for seq in range(1, 11):
        enter(client, table, {"points-A": 30, "points-B": 45, "points-C": 35}, seq=seq)
    client.get(table)  # shows (and clears) the last hand's "saved"
    plain = client.get(table).get_data()
    packed = client.get(table, headers={"Accept-Encoding": "gzip"})
    assert packed.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed.headers["Vary"]
    body = packed.get_data()
    assert int(packed.headers["Content-Length"]) == len(body) < len(plain) / 2
    # the page is the same page (its idempotency keys are new on every request)
    token = re.compile(rb'name="(?:csrf_token|key)"[^>]*value="[^"]*"')
    assert token.sub(b"", gzip.decompress(body)) == token.sub(b"", plain)

    chosen = client.get(table, headers=BROWSER).headers["Content-Encoding"]
    assert chosen in {"zstd", "br"}  # the smaller and faster ones first
    with client.get(f"{app.static_url_path}/js/queue.js", headers={"Accept-Encoding": "br"}) as js:
        assert js.headers["Content-Encoding"] == "br"
        source = (Path(app.static_folder) / "js" / "queue.js").read_text()
        sent = brotli.decompress(js.get_data()).decode()
        assert sent == rjsmin.jsmin(source) and len(sent) < 0.8 * len(source)  # no comments
    with client.get(f"{app.static_url_path}/icon-512.png", headers=BROWSER) as png:
        assert "Content-Encoding" not in png.headers  # compressed already
    record = client.get(table + "/record.json", headers=BROWSER)
    assert record.headers["Content-Encoding"] in {"zstd", "br"}

    live = client.get(table + "/live", headers=BROWSER)  # a poll: a few bytes of JSON
    assert live.status_code == 200 and "Content-Encoding" not in live.headers
    again = client.get(table + "/live", headers={**BROWSER, "If-None-Match": live.headers["ETag"]})
    assert again.status_code == 304 and again.get_data() == b""
    assert "Content-Encoding" not in again.headers


def test_the_manifest_is_answered_with_a_304_while_it_has_not_changed(client):
    start_game(client, "hintersche", ["A", "B", "C", "D"])
    for headers in ({}, BROWSER):
        first = client.get("/g/tanne/manifest.webmanifest", headers=headers)
        assert first.status_code == 200 and first.headers["ETag"]
        assert first.headers["Cache-Control"] == "no-cache"
        again = client.get("/g/tanne/manifest.webmanifest",
                           headers={**headers, "If-None-Match": first.headers["ETag"]})
        assert again.status_code == 304 and again.get_data() == b""
    other = client.get("/manifest.webmanifest")
    assert other.headers["ETag"] != first.headers["ETag"]
