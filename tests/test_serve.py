"""`make serve`'s server (gunicorn.conf.py, gevent): slow clients cannot starve it, and the
database and Redis clients wait cooperatively under gevent."""

import os
import socket
import subprocess
import sys
import textwrap

import load
import pytest
import slow_clients
import sqlalchemy
from support import DATABASES, ROOT, database_url, make_app

from scorekeeper.changes import records
from scorekeeper.db import db
from scorekeeper.models import Group


@pytest.mark.slow  # seconds of waiting for the held sockets
@pytest.mark.parametrize("kind", DATABASES)
def test_a_normal_request_is_answered_while_slow_sockets_are_held_open(kind, tmp_path):
    app = make_app(kind, tmp_path)
    with app.app_context():
        record = {"format": "scorekeeper-game/1", "game": "vier-anderle",
                  "players": ["A", "B", "C", "D"], "hands": []}
        game = records.import_game(record, "tanne").id
        token = db.session.scalar(db.select(Group.token))
    with app.app_context():
        db.engine.dispose()  # the served app has the database to itself
    port = load.free_port()
    server = slow_clients.serve(database_url(kind, tmp_path), port, [])
    try:
        phone = load.Phone(port, token, game)
        phone.conn.close()
        with slow_clients.SlowSockets(port) as slow:  # 64 slow headers, 64 slow bodies, 200 idle
            times = slow_clients.normal_requests(port, "/g/tanne", phone.cookie, seconds=2,
                                                 rate=5)
            held = slow.held()
    finally:
        server.terminate()
        server.wait(timeout=30)
    assert held == 328
    assert all(t <= slow_clients.WAIT for t in times), times  # each a 200 within 5 s


def _cooperative(script: str) -> str:
    """Run `script` after gevent's patching, as gunicorn's worker does; its output."""
    code = "from gevent import monkey; monkey.patch_all()\nimport gevent\n" + \
        textwrap.dedent(script)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=30, check=True).stdout.strip()


def _reachable(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        return True
    except OSError:
        return False


@pytest.mark.skipif(not os.environ.get("TEST_DATABASE_URL"), reason="needs TEST_DATABASE_URL")
def test_psycopg_waits_for_postgresql_without_blocking_other_greenlets():
    # one greenlet waits for a lock that only another greenlet can release: if psycopg blocked
    # the event loop, the release would never run and the wait would end by its timeout
    url = os.environ["TEST_DATABASE_URL"].replace("postgresql+psycopg://", "postgresql://")
    assert _cooperative(f"""
        import psycopg
        holder = psycopg.connect({url!r}, autocommit=True)
        waiter = psycopg.connect({url!r}, autocommit=True)
        holder.execute("SELECT pg_advisory_lock(4711)")
        waiter.execute("SET statement_timeout = '5s'")
        def release():
            gevent.sleep(0.2)
            holder.execute("SELECT pg_advisory_unlock(4711)")
        gevent.spawn(release)
        try:
            waiter.execute("SELECT pg_advisory_lock(4711)")
            print("released")
        except psycopg.errors.QueryCanceled:
            print("blocked")
        # a process's live updates: one greenlet waits for a notification another one sends
        waiter.execute("LISTEN scorekeeper_test")
        def notify():
            gevent.sleep(0.2)
            holder.execute("NOTIFY scorekeeper_test, 'hand'")
        gevent.spawn(notify)
        print([n.payload for n in waiter.notifies(timeout=5, stop_after=1)])
        """) == "released\n['hand']"


@pytest.mark.skipif(not _reachable(6379), reason="needs Redis on 127.0.0.1:6379")
def test_redis_waits_without_blocking_other_greenlets():
    url = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
    assert _cooperative(f"""
        import uuid, redis
        client = redis.Redis.from_url({url!r})
        key = "scorekeeper-test-" + uuid.uuid4().hex
        def push():
            gevent.sleep(0.2)
            client.rpush(key, "here")
        gevent.spawn(push)
        print(client.blpop(key, timeout=5) and "released" or "blocked")
        """) == "released"


def test_a_worker_keeps_what_the_app_holds_for_good_out_of_the_collectors_sight():
    """gunicorn.conf.py's post_worker_init: after the app is loaded, the objects it made are
    frozen (gc.freeze), so that a full collection walks only what requests made."""
    import gc
    import runpy
    from types import SimpleNamespace

    hooks = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    worker = SimpleNamespace(cfg=SimpleNamespace(worker_class_str="sync"))
    gc.unfreeze()
    try:
        hooks["post_worker_init"](worker)
        assert gc.get_freeze_count() > 1000
    finally:
        gc.unfreeze()


@pytest.mark.parametrize("kind", DATABASES)
def test_on_postgresql_a_process_uses_a_few_connections_in_turn(kind, tmp_path):
    """settings._pool: on PostgreSQL the requests of a process wait in line for a few
    connections (under gevent they would otherwise take turns by luck: bench/tournament.py);
    SQLite keeps SQLAlchemy's own pool."""
    app = make_app(kind, tmp_path, DATABASE_CONNECTIONS=3,
                   SQLALCHEMY_ENGINE_OPTIONS={"pool_timeout": 0.2})
    with app.app_context():
        held = [db.engine.connect() for _ in range(3)]
        if kind == "postgresql":
            with pytest.raises(sqlalchemy.exc.TimeoutError):  # a fourth waits for one of them
                db.engine.connect()
        else:
            db.engine.connect().close()
        for connection in held:
            connection.close()
