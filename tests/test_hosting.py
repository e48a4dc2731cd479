"""Two app processes behind one PostgreSQL and one Redis answer alike, share rate limits and
tell each other's watching phones of a change."""

import http.client
import os
import re
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path
from urllib.parse import urlencode

import pytest
from support import drop_schema, postgresql_url

ROOT = Path(__file__).resolve().parent.parent
DATABASE = postgresql_url() if os.environ.get("TEST_DATABASE_URL") else None
REDIS = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


def _reachable(host: str, port: int) -> bool:
    try:
        socket.create_connection((host, port), timeout=1).close()
        return True
    except OSError:
        return False


pytestmark = pytest.mark.skipif(
    not DATABASE or not _reachable("127.0.0.1", 6379),
    reason="needs TEST_DATABASE_URL (PostgreSQL) and Redis on 127.0.0.1:6379")


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Phone:
    """A phone that talks to one of the processes (and keeps its cookie)."""

    def __init__(self, port: int) -> None:
        self.port, self.cookie = port, ""

    def open(self, method: str, path: str, data: dict | None = None):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        headers = {"Cookie": self.cookie}
        body = None
        if data is not None:
            body = urlencode(data)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        conn.request(method, path, body=body, headers=headers)
        response = conn.getresponse()
        text = response.read().decode()
        if response.getheader("Set-Cookie"):
            self.cookie = response.getheader("Set-Cookie").split(";", 1)[0]
        conn.close()
        return response.status, response.getheader("Location"), text


# PIN attempts are counted in the database: shared with Redis and without it
@pytest.fixture(params=[REDIS, "memory://"], ids=["redis", "no-redis"])
def two_processes(tmp_path, request):
    from sqlalchemy import create_engine

    engine = create_engine(DATABASE)
    with engine.begin() as conn:
        drop_schema(conn)
    engine.dispose()
    env = {**os.environ, "DATABASE_URL": DATABASE, "RATELIMIT_STORAGE_URI": request.param,
           "RATELIMIT_KEY_PREFIX": f"test-{uuid.uuid4().hex}", "SCOREKEEPER_WORKERS": "1",
           "SCOREKEEPER_THREADS": "2"}
    flask = Path(sys.executable).parent / "flask"
    subprocess.run([str(flask), "--app", "scorekeeper", "db", "upgrade"], cwd=ROOT, env=env,
                   check=True, capture_output=True)
    ports, servers = [_port(), _port()], []
    for port in ports:
        servers.append(subprocess.Popen(
            [str(Path(sys.executable).parent / "gunicorn"), "--config", "gunicorn.conf.py",
             "--bind", f"127.0.0.1:{port}", "scorekeeper:create_app()"],
            cwd=ROOT, env=env, stderr=subprocess.DEVNULL))
    for port in ports:
        for _ in range(100):
            if _reachable("127.0.0.1", port):
                break
            time.sleep(0.1)
    yield ports
    for server in servers:
        server.terminate()
        server.wait(timeout=20)


def _next_event(response) -> str:
    """The data of a Server-Sent Events stream's next event."""
    while line := response.readline().decode():
        if line.startswith("data: "):
            return line.removeprefix("data: ").strip()
    raise AssertionError("the stream ended")


def _csrf(page: str) -> str:
    return re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)


def test_two_processes_give_the_same_answers_and_share_the_rate_limits(two_processes):
    one, two = two_processes
    host = Phone(one)
    _, _, start = host.open("GET", "/")
    status, location, _ = host.open("POST", "/groups", {"csrf_token": _csrf(start),
                                                          "name": "Tanne"})
    assert status == 302 and location.endswith("/g/tanne/invite")
    _, _, invite = host.open("GET", "/g/tanne/invite")
    pin_form = invite[invite.index('action="/g/tanne/invite/pin"'):]
    assert host.open("POST", "/g/tanne/invite/pin",
                     {"csrf_token": _csrf(pin_form), "pin": "4711"})[0] == 302
    join = re.search(r'data-join-link="http://[^/]+(/join/[^"]+)"', invite).group(1)
    host.open("GET", "/g/tanne/invite")  # shows (and so clears) "The PIN is set."

    other = Phone(two)  # a phone served by the other process joins with the link
    _, _, asked = other.open("GET", join)  # the link's page, then the tap on "Join"
    assert other.open("POST", join, {"csrf_token": _csrf(asked)})[0] == 302
    for path in ("/g/tanne", "/g/tanne/standings"):
        assert re.sub(r'value="[^"]+"', "", host.open("GET", path)[2]) == \
            re.sub(r'value="[^"]+"', "", other.open("GET", path)[2])
    # a game started on one process, a hand entered on the other: both show the same table
    new = host.open("GET", "/g/tanne/games/new?kind=hartenjagen")[2]
    seating = new[new.index("data-seating"):]
    status, game, _ = host.open("POST", "/g/tanne/games/new?kind=hartenjagen", {
        "csrf_token": _csrf(seating), "kind": "hartenjagen", "order": "A\nB\nC\nD",
        "first_dealer": "A", **{f"seat-{n}": "on" for n in "ABCD"}})
    assert status == 302
    table = other.open("GET", game)[2]
    assert other.open("POST", game + "/entries", {"csrf_token": _csrf(table), "seq": "1",
                                                  "key": uuid.uuid4().hex, "hearts-A": "13",
                                                  "queen": "B"})[0] == 302
    assert host.open("GET", game + "/state.json")[2] == other.open("GET", game + "/state.json")[2]
    assert '"hands_played":1' in host.open("GET", game + "/state.json")[2].replace(" ", "")
    # the host's table hears over its stream (on one process) of a hand entered on the other
    stream = http.client.HTTPConnection("127.0.0.1", one, timeout=10)
    stream.request("GET", game + "/live/stream", headers={"Cookie": host.cookie})
    events = stream.getresponse()
    assert _next_event(events) == "1"
    assert other.open("POST", game + "/entries", {"csrf_token": _csrf(table), "seq": "2",
                                                  "key": uuid.uuid4().hex, "hearts-A": "13",
                                                  "queen": "B"})[0] == 302
    assert _next_event(events) == "2"
    stream.close()
    assert Phone(two).open("GET", "/g/tanne")[0] == 404  # a stranger, on either process
    assert Phone(one).open("GET", "/g/tanne")[0] == 404

    # wrong PINs from one address: three on one process, two on the other, then both refuse
    guesser_one, guesser_two = Phone(one), Phone(two)
    page = guesser_one.open("GET", "/join")[2]
    csrf_one = _csrf(page)
    csrf_two = _csrf(guesser_two.open("GET", "/join")[2])
    for phone, csrf in ((guesser_one, csrf_one),) * 3 + ((guesser_two, csrf_two),) * 2:
        assert phone.open("POST", "/join", {"csrf_token": csrf, "name": "Tanne",
                                            "pin": "0000"})[0] == 400
    for phone, csrf in ((guesser_one, csrf_one), (guesser_two, csrf_two)):
        assert phone.open("POST", "/join", {"csrf_token": csrf, "name": "Tanne",
                                            "pin": "4711"})[0] == 429
