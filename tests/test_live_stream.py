"""Live streams: a change is pushed to the pages that watch it once it is stored, a stream
starts with the current version, and the changes travel between processes through Redis or
PostgreSQL.

A stream that is never told what the test waits for fails the test within DEADLINE seconds
instead of holding it (and the whole run) for ever."""

import contextlib
import json
import os
import queue
import signal
import socket
import threading
import time
import uuid

import pytest
from support import enter, make_app, phone, start_game

from scorekeeper.db import db
from scorekeeper.i18n import COOKIE
from scorekeeper.table import live

HAND = {"hearts-A": "13", "queen": "B"}
DEADLINE = 5.0  # s a test waits for a stream's next event (it is there at once when it comes)


@contextlib.contextmanager
def deadline(seconds, what):
    """Fail the test with `what` if the block still runs after `seconds`: an alarm interrupts
    whatever the test's thread waits for (a stream's inbox has no end of its own). pytest runs
    the tests in the main thread, xdist's workers too: only it hears the alarm."""
    assert threading.current_thread() is threading.main_thread()

    def expire(signum, frame):
        pytest.fail(f"{what} within {seconds} s")

    before = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)


class Events:
    """A stream's events as an iterator of their data (comments skipped; a "part" event as its
    JSON); each `next` waits DEADLINE seconds at most, and a stream that ends fails the test as
    well."""

    def __init__(self, response):
        self.chunks = response.iter_encoded() if hasattr(response, "iter_encoded") else response
        self.data: list = []

    def __iter__(self):
        return self

    def __next__(self):
        with deadline(DEADLINE, "the stream told nothing"):
            while not self.data:
                chunk = next(self.chunks, None)
                if chunk is None:
                    pytest.fail("the stream ended")
                chunk = chunk.decode() if isinstance(chunk, bytes) else chunk
                for event in chunk.split("\n\n"):
                    lines = event.splitlines()
                    data = [line.removeprefix("data: ") for line in lines
                            if line.startswith("data: ")]
                    if "event: part" in lines:
                        self.data.append(json.loads(data[0]))
                    else:
                        self.data.extend(data)
        return self.data.pop(0)


def events(client, path):
    """The stream at `path` as `Events`, and its response (to close it)."""
    response = client.get(path, buffered=False)
    assert response.status_code == 200
    assert response.mimetype == "text/event-stream"
    return Events(response), response


def waiting(app, expected):
    """How many changes wait for each open stream, once they are `expected` (through
    PostgreSQL they arrive a moment after the commit; a test never waits on a stream for a
    change that never comes)."""
    for _ in range(50 if any(expected) else 10):  # nothing expected: still nothing after 1 s
        now = [inbox.qsize() for group in app.extensions["live"].hub.streams.values()
               for inbox in group]
        if now == expected and any(expected):
            break
        time.sleep(0.1)
    return now


def test_a_table_hears_each_hand_another_phone_enters(app, client):
    table = start_game(client, "hartenjagen", ["A", "B", "C", "D"])
    stream, response = events(phone(app), table + "/live/stream")
    assert next(stream) == "0"  # the version now
    assert enter(client, table, HAND).status_code == 302
    assert waiting(app, [1]) == [1]
    assert next(stream) == "1"
    client.post(table + "/undo", data={"seq": 1})
    assert waiting(app, [1]) == [1]
    assert next(stream) == "2"
    response.close()
    assert app.extensions["live"].hub.streams == {}  # a closed stream is forgotten


def test_a_hand_saved_from_the_table_page_follows_as_the_same_bytes_to_its_watchers(app, client):
    table = start_game(client, "hartenjagen", ["A", "B", "C", "D"])
    same, other = phone(app), phone(app)
    other.set_cookie(COOKIE, "en")  # the table in English: the German part is not for it
    watching = [events(watcher, table + "/live/stream") for watcher in (same, other)]
    assert [next(stream) for stream, _ in watching] == ["0", "0"]
    answer = client.post(table + "/entries", data={"seq": 1, **HAND},
                         headers={"X-Part": "content"})
    assert answer.status_code == 200 and answer.headers["X-Part"] == "content"
    part = next(watching[0][0])
    assert part == {"version": 1, "html": answer.get_data(as_text=True)}
    assert 'data-version="1"' in part["html"]
    # no phone's CSRF token travels to the others: each puts in its own
    assert 'name="csrf_token" type="hidden" value=""' in part["html"]
    assert next(watching[1][0]) == "1"  # the English table asks for its page
    # a hand without the page's script (a redirect) has no part to follow: the version at once
    assert enter(client, table, HAND).status_code == 302
    assert [next(stream) for stream, _ in watching] == ["2", "2"]
    for _, response in watching:
        response.close()


def test_a_version_whose_part_never_comes_is_told_after_a_while(monkeypatch):
    monkeypatch.setattr(live, "PART_WAIT", 0.2)
    hub = live.Live("memory://")
    inbox = hub.subscribe(1)
    stream = Events(hub.stream(inbox, 1, 5, "3", "de member"))
    assert next(stream) == "3"
    inbox.put(live.Change(1, 5, 4, follows=True))
    inbox.put(live.Change(1, 6, 9))  # another game's: nothing for this stream
    started = time.monotonic()
    assert next(stream) == "4"
    assert time.monotonic() - started >= 0.15
    # a part of another view, or one that could not be sent, is told as its version
    inbox.put(live.Change(1, 5, 5, follows=True))
    inbox.put(live.Part(1, 5, 5, "en member", "<div></div>"))
    inbox.put(live.Part(1, 5, 6, "de member", None))
    inbox.put(live.Part(1, 5, 7, "de member", "<p>7</p>"))
    inbox.put(live.Change(1, 5, 7, follows=True))  # after its part: told already
    inbox.put(live.Change(1, 5, 8))
    assert [next(stream) for _ in range(4)] == ["5", "6", {"version": 7, "html": "<p>7</p>"},
                                                "8"]


def test_a_group_page_is_told_to_ask_at_once_and_then_at_most_every_so_often(monkeypatch):
    """A hall's tables enter games back to back: a page of the whole group (the ranking on
    the TV) is told at once of the first, of those that come meanwhile once when ASK_EVERY is
    over, and of none twice."""
    monkeypatch.setattr(live, "ASK_EVERY", 0.3)
    hub = live.Live("memory://")
    inbox = hub.subscribe(1)
    stream = Events(hub.stream(inbox, 1, None, "7-1"))
    assert next(stream) == "7-1"
    started = time.monotonic()
    for game in range(1, 6):  # five tables' games at once
        inbox.put(live.Change(1, game, 2))
    assert next(stream) == "?" and time.monotonic() - started < 0.2
    assert next(stream) == "?" and time.monotonic() - started >= 0.25
    inbox.put(None)  # nothing more came: the stream's end is the next thing it says
    with pytest.raises(pytest.fail.Exception, match="the stream ended"):
        next(stream)
    inbox = hub.subscribe(1)
    stream = Events(hub.stream(inbox, 1, None, "7-2"))
    assert next(stream) == "7-2"
    for _ in range(2):  # a change after a quiet moment: told at once again
        started = time.monotonic()
        inbox.put(live.Change(1, 3, 3))
        assert next(stream) == "?" and time.monotonic() - started < 0.2
        time.sleep(0.35)


def test_a_part_too_big_for_a_notify_travels_without_its_html():
    small = live.Part(1, 2, 3, "de member", "<p>Anna 12</p>" * 10)
    assert live.Part.read(json.loads(small.message(live.NOTIFY_BYTES))["part"]) == small
    big = live.Part(1, 2, 3, "de member", "".join(f"<p>{uuid.uuid4()}</p>" for _ in range(400)))
    assert live.Part.read(json.loads(big.message())["part"]) == big  # through Redis: whole
    assert len(big.message(live.NOTIFY_BYTES)) <= live.NOTIFY_BYTES
    assert live.Part.read(json.loads(big.message(live.NOTIFY_BYTES))["part"]).html is None


def test_a_table_hears_only_of_its_own_game(app, client):
    # two tables of the group: the other one is two hands ahead, so a version of the other
    # game told to this table's stream shows (it is not this game's next)
    mine = start_game(client, "hartenjagen", ["A", "B", "C", "D"])
    other = start_game(client, "hartenjagen", ["E", "F", "G", "H"])
    for _ in range(2):
        assert enter(client, other, {"hearts-E": "13", "queen": "F"}).status_code == 302
    stream, response = events(phone(app), mine + "/live/stream")
    assert next(stream) == "0"
    assert enter(client, other, {"hearts-E": "13", "queen": "F"}).status_code == 302  # at 3
    assert enter(client, mine, HAND).status_code == 302
    # only its own game's change reaches the stream's inbox (the other's, committed first,
    # would be there first: a hall of tables is one group)
    assert waiting(app, [1]) == [1]
    inboxes = [inbox for group in app.extensions["live"].hub.streams.values() for inbox in group]
    assert [change.game for change in inboxes[0].queue] == [int(mine.rsplit("/", 1)[1])]
    assert next(stream) == "1"
    assert client.get(other + "/live").get_json()["version"] == 3
    response.close()


def test_a_group_page_is_told_to_ask_when_anything_of_the_group_changes(app, client):
    table = start_game(client, "hartenjagen", ["A", "B", "C", "D"])
    version = client.get("/g/tanne/live").get_json()["version"]
    stream, response = events(client, "/g/tanne/live/stream")
    assert next(stream) == version
    assert enter(client, table, HAND).status_code == 302
    assert waiting(app, [1]) == [1]  # once for the hand (its game and its standings rows)
    assert next(stream) == "?"
    assert client.get("/g/tanne/live").get_json()["version"] != version
    response.close()


def test_a_group_page_hears_of_a_payment_marked_as_paid(app, client):
    pot = start_game(client, "vier-anderle", ["A", "B", "C", "D"])
    assert enter(client, pot, {"tricks-A": 4}).status_code == 302
    assert client.post(pot + "/close").status_code == 302
    evening = "/g/tanne/evenings/1"  # today's, the group's first
    payment = client.get(evening + "/settlement.json").get_json()["payments"][0]
    stream, response = events(client, "/g/tanne/live/stream")
    version = next(stream)
    assert client.post(evening + "/paid", data={"payer": payment["from"], "payee": payment["to"],
                                                "cents": payment["cents"]}).status_code == 302
    assert waiting(app, [1]) == [1]
    assert next(stream) == "?"
    assert client.get("/g/tanne/live").get_json()["version"] != version
    response.close()


def test_a_refused_hand_sends_nothing(app, client):
    table = start_game(client, "hartenjagen", ["A", "B", "C", "D"])
    stream, response = events(client, table + "/live/stream")
    next(stream)
    enter(client, table, HAND, seq=7)  # not the next hand: refused
    assert client.get(table + "/record.json").get_json()["hands"] == []
    assert waiting(app, [0]) == [0]
    response.close()


def test_the_stream_of_a_group_the_phone_has_not_joined_is_not_found(app, client):
    table = start_game(client, "hartenjagen", ["A", "B", "C", "D"])
    stranger = app.test_client()
    assert stranger.get(table + "/live/stream").status_code == 404
    assert stranger.get("/g/tanne/live/stream").status_code == 404


def test_without_streams_the_page_is_told_to_poll(app, client):
    table = start_game(client, "hartenjagen", ["A", "B", "C", "D"])
    app.config["LIVE_STREAMS"] = False
    assert client.get(table + "/live/stream").status_code == 204


def _reachable(port):
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        return True
    except OSError:
        return False


TRANSPORTS = []
if _reachable(6379):
    TRANSPORTS.append(os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0"))
if os.environ.get("TEST_DATABASE_URL"):
    TRANSPORTS.append("postgresql")


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_a_change_reaches_the_streams_of_another_process(transport, tmp_path):
    # two apps with the same Redis or PostgreSQL stand for two processes
    kind = "postgresql" if transport == "postgresql" else "sqlite"
    url = {} if kind == "postgresql" else {"LIVE_URL": transport}
    sender, watcher = (make_app(kind, tmp_path, **url) for _ in range(2))
    assert sender.extensions["live"].kind == watcher.extensions["live"].kind
    group = int(uuid.uuid4().int % 1_000_000_000)  # no other test's group
    inbox = watcher.extensions["live"].subscribe(group)
    try:
        change = live.Change(group, 7, 3)
        for _ in range(50):  # until the watcher listens
            with sender.app_context():
                sender.extensions["live"].publish({change})
            try:
                assert inbox.get(timeout=0.2) == change
                break
            except queue.Empty:
                continue
        else:
            pytest.fail("the change never arrived")
    finally:
        for app in (sender, watcher):
            app.extensions["live"].close()
            with app.app_context():
                db.engine.dispose()


@pytest.mark.skipif(not os.environ.get("TEST_DATABASE_URL"), reason="PostgreSQL's NOTIFY")
def test_a_change_travels_after_postgresql_dropped_the_sending_connection(tmp_path):
    """The NOTIFYs go on a connection of the process's own, kept open; one that PostgreSQL
    has closed meanwhile (a restart, an idle timeout) is replaced, and the change travels."""
    sender, watcher = (make_app("postgresql", tmp_path) for _ in range(2))
    group = int(uuid.uuid4().int % 1_000_000_000)
    inbox = watcher.extensions["live"].subscribe(group)
    wire = sender.extensions["live"]

    def travels(change):
        for _ in range(50):  # until the watcher listens
            with sender.app_context():
                wire.publish({change})
            with contextlib.suppress(queue.Empty):
                return inbox.get(timeout=0.2) == change
        return False

    try:
        assert travels(live.Change(group, 7, 3))
        first = wire.sender.info.backend_pid
        with watcher.app_context():
            with db.engine.begin() as conn:
                conn.exec_driver_sql(f"SELECT pg_terminate_backend({first})")
        with sender.app_context():  # the watcher listens: the first sending must do
            wire.publish({live.Change(group, 7, 4)})
        assert inbox.get(timeout=DEADLINE) == live.Change(group, 7, 4)
        assert wire.sender.info.backend_pid != first
    finally:
        for app in (sender, watcher):
            app.extensions["live"].close()
            with app.app_context():
                db.engine.dispose()
