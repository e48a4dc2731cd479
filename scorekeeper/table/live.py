"""Live updates: a change to a game or a group is pushed to the phones that watch it.

A change is noted where it happens (`changed`, and every row of a group that a flush writes)
and sent once its transaction commits, so no phone hears of a change that was rolled back.
Each process keeps the open streams of its phones in a `Hub`; a change reaches the hubs of all
processes through Redis pub/sub when the app has a Redis (`LIVE_URL`, else the rate limits'),
through PostgreSQL's LISTEN/NOTIFY on PostgreSQL, and within the process otherwise (`make
serve` without Redis runs one process).

A stream is only a shortcut: it starts with the current version, and a page without one asks
for the version itself (static/js/live.js), so a phone whose stream dropped misses nothing.

A hand saved from the table page is answered with the page's changed part; that part, rendered
once, follows its version over the streams (`Part`) to every phone that shows the table alike (its
language and role), which puts it in place instead of fetching the page. A phone that misses a
version, or shows the table differently, fetches the page as before.
"""

from __future__ import annotations

import base64
import functools
import json
import logging
import queue
import threading
import time
import weakref
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from flask import Flask, current_app
from sqlalchemy import Boolean, Text, bindparam, cast, event, func, inspect
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session
from sqlalchemy.orm.util import identity_key

from scorekeeper.db import db
from scorekeeper.models import Evening, Game, PaidPayment, Signoff

CHANNEL = "scorekeeper_live"  # the default; LIVE_CHANNEL (letters, digits, _) for another
KEEPALIVE = 20.0  # s between two comments on a quiet stream: a phone that left is noticed
RETRY_MS = 2000  # how soon a phone opens a dropped stream again
PART_WAIT = 2.0  # s a stream waits for a part announced with its version before it says "ask"
# s between two "ask" on a page of the whole group (the ranking, the evening): the first at once,
# what comes meanwhile in one more when they are over; a hall's 50 tables entering would
# otherwise have every TV and spectator draw or fetch the ranking after each of their games
ASK_EVERY = 0.5
NOTIFY_BYTES = 7900  # PostgreSQL's NOTIFY carries under 8000 bytes: a bigger part is not sent
log = logging.getLogger(__name__)
_everyone: weakref.WeakSet[Live] = weakref.WeakSet()  # this process's apps' Live


@dataclass(frozen=True)
class Change:
    """A group changed; `game` and `version`: that game, now at that version; `follows`: the
    changed part of its page follows (a `Part`)."""

    group: int
    game: int | None = None
    version: int | None = None
    follows: bool = False


@dataclass(frozen=True)
class Part:
    """The changed part of a game's page at `version`, as the phones of one `view` (language and
    role) show it; `html` None: it could not be sent, the phones ask for the page."""

    group: int
    game: int
    version: int
    view: str
    html: str | None

    def message(self, limit: int | None = None) -> str:
        """As it travels between processes: the part compressed, left out beyond `limit`."""
        packed = None if self.html is None else \
            base64.b64encode(zlib.compress(self.html.encode(), 6)).decode()
        message = json.dumps({"part": [self.group, self.game, self.version, self.view, packed]})
        if limit is not None and len(message) > limit:
            return Part(self.group, self.game, self.version, self.view, None).message()
        return message

    @functools.cached_property
    def event(self) -> str:
        """As a stream sends it: made once for all its watchers."""
        return "event: part\ndata: " + json.dumps({"version": self.version, "html": self.html}) \
            + "\n\n"

    @classmethod
    def read(cls, fields: list[Any]) -> Part:
        group, game, version, view, packed = fields
        html = None if packed is None else zlib.decompress(base64.b64decode(packed)).decode()
        return cls(group, game, version, view, html)


# On PostgreSQL a game's change is announced by the UPDATE that makes it (in its RETURNING):
# PostgreSQL delivers a NOTIFY only when its transaction commits, and a hand costs no statement
# more (scoring.claim)
NOTIFY_GAME = func.pg_notify(
    bindparam("live_channel"),
    cast(func.json_build_array(Game.group_id, Game.id, Game.version,
                               bindparam("live_follows", type_=Boolean)), Text))


def announced_by_database() -> str | None:
    """The channel, if changes travel by PostgreSQL's NOTIFY (else Redis, or in the process)."""
    live = current_app.extensions["live"]
    return str(live.channel) if live.kind == "postgresql" else None


def changed(group: int, game: int | None = None, version: int | None = None) -> None:
    """Note a change of the current transaction; it is sent when the transaction commits."""
    db.session().info.setdefault("live", set()).add(Change(group, game, version, follows()))


def part_follows() -> None:
    """The game this request changes will send its page's changed part after the commit
    (`send_part`): its watchers wait for it instead of asking for the page."""
    db.session().info["live_follows"] = True


def follows() -> bool:
    return bool(db.session().info.get("live_follows"))


def send_part(group: int, game: int, version: int, view: str, html: str | None) -> None:
    """Send a game's changed part to the phones watching it (after the commit)."""
    db.session().info.pop("live_follows", None)
    current_app.extensions["live"].publish_part(Part(group, game, version, view, html))


class Hub:
    """The open streams of this process, by group and game (None: a page of the whole group):
    each a queue of changes (None: the stream ends). A game's change goes to that game's
    streams and the group's; its part to that game's alone (a hall of tables is one group)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.streams: dict[tuple[int, int | None], set[queue.Queue[Change | Part | None]]] = {}

    def subscribe(self, group: int, game: int | None = None) -> queue.Queue[Change | Part | None]:
        inbox: queue.Queue[Change | Part | None] = queue.Queue()
        with self.lock:
            self.streams.setdefault((group, game), set()).add(inbox)
        return inbox

    def unsubscribe(self, group: int, inbox: queue.Queue[Change | Part | None],
                    game: int | None = None) -> None:
        with self.lock:
            self.streams.get((group, game), set()).discard(inbox)
            if not self.streams.get((group, game), True):
                del self.streams[(group, game)]

    def deliver(self, change: Change | Part) -> None:
        watching = {(change.group, change.game)}  # a part: its game's streams alone
        if isinstance(change, Change):
            watching.add((change.group, None))
        with self.lock:
            inboxes = [inbox for key in watching for inbox in self.streams.get(key, ())]
        for inbox in inboxes:
            inbox.put(change)

    def end_all(self) -> None:
        """End every stream: the phones fall back to asking, then open a new one."""
        with self.lock:
            inboxes = [inbox for group in self.streams.values() for inbox in group]
        for inbox in inboxes:
            inbox.put(None)


class Live:
    """The app's hub and how its changes travel to the other processes (`url`: redis://...,
    postgresql://... or memory://)."""

    def __init__(self, url: str, channel: str = CHANNEL) -> None:
        if not channel.replace("_", "").isalnum():
            raise ValueError(f"LIVE_CHANNEL {channel!r}: letters, digits and _ only")
        self.url, self.hub, self.channel = url, Hub(), channel
        self.kind = url.split(":", 1)[0].split("+", 1)[0]
        self.listening = False
        self.ready = threading.Event()  # the listener hears every change from now on
        self.closed = threading.Event()
        self.lock = threading.Lock()
        self.redis: Any = None  # the client that sends, made when first needed
        self.sender: Any = None  # PostgreSQL: the connection that sends (autocommit), likewise
        self.sending = threading.Lock()
        self.closing: weakref.finalize | None = None  # closes it when the app is let go of
        _everyone.add(self)

    # sending

    def publish(self, changes: set[Change]) -> None:
        """Send the changes to every process's hub (this one's too)."""
        if self.kind == "memory":
            for change in changes:
                self.hub.deliver(change)
            return
        self._send([json.dumps([c.group, c.game, c.version, c.follows]) for c in changes])

    def publish_part(self, part: Part) -> None:
        if self.kind == "memory":
            self.hub.deliver(part)
        else:
            self._send([part.message(NOTIFY_BYTES if self.kind == "postgresql" else None)])

    def _send(self, messages: list[str]) -> None:
        try:
            if self.kind == "redis":
                import redis

                with self.lock:
                    if self.redis is None:
                        self.redis = redis.Redis.from_url(self.url)
                for message in messages:
                    self.redis.publish(self.channel, message)
            else:
                self._notify(messages)
        except Exception:  # the change is stored; its watchers see it when they ask next
            log.warning("live: could not send %s", messages, exc_info=True)

    def _notify(self, messages: list[str]) -> None:
        """After the commit, on the process's own connection in autocommit: a NOTIFY is one
        round trip, not a connection from the app's pool and a transaction of its own (BEGIN,
        the NOTIFY, COMMIT: three, each a moment the other requests of a busy process run
        first)."""
        with self.sending:
            for attempt in (1, 2):  # a connection PostgreSQL has dropped meanwhile: a new one
                try:
                    if self.sender is None or self.sender.closed:
                        self.sender = self._connect()
                        if self.closing is not None:
                            self.closing.detach()
                        self.closing = weakref.finalize(self, self.sender.close)
                    for message in messages:
                        self.sender.execute("SELECT pg_notify(%s, %s)", (self.channel, message))
                    return
                except Exception:
                    if self.sender is not None:
                        self.sender.close()
                    self.sender = None
                    if attempt == 2:
                        raise

    # receiving

    def subscribe(self, group: int, game: int | None = None) -> queue.Queue[Change | Part | None]:
        """A new stream's inbox: it gets every change of the game (None: of the group)
        committed from now on."""
        if self.kind != "memory":
            if not self.listening:
                with self.lock:
                    if not self.listening:
                        self.listening = True
                        threading.Thread(target=self._listen, daemon=True,
                                         name="scorekeeper-live").start()
            self.ready.wait(5.0)  # else its phone is sent on when the listener is back
        return self.hub.subscribe(group, game)

    def _listen(self) -> None:
        """Hand every change sent by any process to this process's hub; when the connection
        is lost, end the streams (their phones ask meanwhile) and connect again."""
        while not self.closed.is_set():
            try:
                for message in self._messages():
                    if message is None:  # listening (again): a stream opened meanwhile may
                        self.hub.end_all()  # have missed a change; its phone asks anew
                        self.ready.set()
                        continue
                    fields = json.loads(message)
                    self.hub.deliver(Part.read(fields["part"]) if isinstance(fields, dict)
                                     else Change(*fields))
            except Exception:
                log.warning("live: lost the connection to %s", self.kind, exc_info=True)
            self.ready.clear()
            self.hub.end_all()
            self.closed.wait(1.0)

    def _messages(self) -> Iterator[str | None]:
        """What the other processes send, after None once listening."""
        if self.kind == "redis":
            import redis

            client = redis.Redis.from_url(self.url)
            pubsub = client.pubsub()
            try:
                pubsub.subscribe(self.channel)
                while pubsub.get_message(timeout=1.0) is None:  # the subscription's answer
                    pass
                yield None
                while not self.closed.is_set():
                    message = pubsub.get_message(timeout=1.0)
                    if message is not None and message["type"] == "message":
                        yield message["data"].decode()
            finally:
                pubsub.close()
                client.close()
        else:
            with self._connect() as conn:
                conn.execute(f"LISTEN {self.channel}")
                yield None
                while not self.closed.is_set():
                    for notify in conn.notifies(timeout=1.0):
                        yield notify.payload

    def _connect(self) -> Any:
        """A connection of its own to PostgreSQL, in autocommit (psycopg: the app's driver)."""
        import psycopg

        url = make_url(self.url).set(drivername="postgresql")
        return psycopg.connect(url.render_as_string(hide_password=False), autocommit=True)

    def close(self) -> None:
        """Stop listening and end every stream (the app is going away)."""
        self.closed.set()
        self.hub.end_all()
        if self.redis is not None:
            self.redis.close()
        with self.sending:
            if self.sender is not None:
                self.sender.close()
                self.sender = None

    # what a phone reads

    def stream(self, inbox: queue.Queue[Change | Part | None], group: int, game: int | None,
               version: str, view: str = "") -> Iterator[str]:
        """Server-Sent Events for a page that watches `game` (or the whole group), from the
        inbox it subscribed before it read `version`: that version first, then each new one (a
        group's page is told "?": ask for the version). A version whose part follows is held
        back until its part comes (at most PART_WAIT): a page of the part's `view` is sent the
        part itself (event "part"), any other the version. A group's page is told to ask at
        most every ASK_EVERY seconds."""
        told = int(version) if game is not None else 0
        waiting: dict[int, float] = {}  # versions held back: until when
        asked, ask = 0.0, False  # a group's page: when it was last told to ask; to be told again
        try:
            yield f"retry: {RETRY_MS}\ndata: {version}\n\n"
            while True:
                due = [*waiting.values(), *([asked + ASK_EVERY] if ask else [])]
                wait = min([KEEPALIVE, *(until - time.monotonic() for until in due)])
                try:
                    change = inbox.get(timeout=max(wait, 0.0))
                except queue.Empty:
                    late = [v for v, until in waiting.items() if until <= time.monotonic()]
                    for held in sorted(late):
                        del waiting[held]
                        if held > told:
                            told = held
                            yield f"data: {held}\n\n"
                    if ask and asked + ASK_EVERY <= time.monotonic():
                        ask, asked = False, time.monotonic()
                        yield "data: ?\n\n"
                    elif not late:
                        yield ": still here\n\n"
                    continue
                if change is None:
                    return
                if game is None:
                    if isinstance(change, Change) and asked + ASK_EVERY <= time.monotonic():
                        ask, asked = False, time.monotonic()  # what waited is told with it
                        yield "data: ?\n\n"
                    elif isinstance(change, Change):
                        ask = True
                elif change.game != game or change.version is None or change.version <= told:
                    continue
                elif isinstance(change, Part):
                    waiting.pop(change.version, None)
                    told = change.version
                    if change.view == view and change.html is not None:
                        yield change.event
                    else:
                        yield f"data: {change.version}\n\n"
                elif change.follows:
                    waiting[change.version] = time.monotonic() + PART_WAIT
                else:
                    told = change.version
                    yield f"data: {change.version}\n\n"
        finally:
            self.hub.unsubscribe(group, inbox, game)


def end_streams() -> None:
    """End every stream of this process (it is stopping): the phones open new ones with the
    next process at once instead of holding this one until it is cut off."""
    for live in list(_everyone):
        live.hub.end_all()


def _rows_of_groups(session: Session, flush_context: Any) -> None:
    """A flush that writes a group's games, evenings, payments (or other rows with a
    group_id) notes a change of that group."""
    for row in (*session.new, *session.dirty, *session.deleted):
        loaded = inspect(row).dict  # what the row holds already: nothing is read here
        group = loaded.get("group_id")
        if isinstance(row, (PaidPayment, Signoff)):  # its evening was read to get here
            evening = session.identity_map.get(identity_key(Evening, loaded.get("evening_id")))
            group = evening.group_id if isinstance(evening, Evening) else None
        if isinstance(group, int):
            session.info.setdefault("live", set()).add(Change(group))


def _send(session: Session) -> None:
    session.info.pop("live_follows", None)
    changes = session.info.pop("live", set())
    games = {change.group for change in changes if change.game is not None}
    changes = {c for c in changes if c.game is not None or c.group not in games}  # one is enough
    if changes:
        current_app.extensions["live"].publish(changes)


def _forget(session: Session) -> None:
    session.info.pop("live", None)
    session.info.pop("live_follows", None)


def init_app(app: Flask) -> None:
    """Give the app its `Live` (app.extensions["live"]) and send what each commit changed."""
    url = app.config.get("LIVE_URL")
    if not url:
        shared = app.config.get("RATELIMIT_STORAGE_URI", "")
        database = app.config["SQLALCHEMY_DATABASE_URI"]
        url = (shared if shared.startswith(("redis://", "rediss://"))
               else database if database.startswith("postgresql") else "memory://")
    app.extensions["live"] = Live(url, app.config.get("LIVE_CHANNEL") or CHANNEL)
    if not event.contains(Session, "after_flush", _rows_of_groups):
        event.listen(Session, "after_flush", _rows_of_groups)
        event.listen(Session, "after_commit", _send)
        event.listen(Session, "after_rollback", _forget)
