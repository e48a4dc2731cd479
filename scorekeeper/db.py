"""The SQLAlchemy handle shared by the models and the views."""

import fcntl
import os
import sqlite3
import threading

from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase
from sqlalchemy.pool import Pool


class Base(DeclarativeBase):
    pass


db = SQLAlchemy(model_class=Base)
migrate = Migrate()


def commit_keeping() -> None:
    """Commit, keeping the rows loaded in the session as they are instead of expiring them:
    for a caller that shows what it has just written (nothing is read again)."""
    session = db.session()
    session.expire_on_commit = False
    try:
        session.commit()
    finally:
        session.expire_on_commit = True


@event.listens_for(Engine, "connect")
def _sqlite_pragmas(dbapi_connection, connection_record):
    """SQLite: write-ahead log (readers never wait for the writer), synced at checkpoints
    rather than at every commit (a power cut may lose the last commits, never the database's
    consistency), and real foreign keys."""
    if isinstance(dbapi_connection, sqlite3.Connection):
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=10000")
        cursor.close()


# SQLite lets one transaction write at a time. The Python driver begins a transaction only
# before its first write (reads before it run without one), so a hand holds the write lock from
# its UPDATE to its commit. Writers that find it taken wait in SQLite's busy handler, which
# sleeps ever longer (up to 100 ms) between tries: under load most of a hand's slowest times.
# So every connection of every process first takes an exclusive flock on a file beside the
# database, and waits for it in the kernel, which wakes the next writer as soon as it is free.
WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE")
_held = threading.local()  # the write locks this thread holds (a second one is not waited for)


@event.listens_for(Engine, "before_cursor_execute")
def _take_write_lock(conn, cursor, statement, parameters, context, executemany):
    if conn.dialect.name != "sqlite" or conn.info.get("writing"):
        return
    if not statement.lstrip()[:7].upper().startswith(WRITES) or getattr(_held, "count", 0):
        return
    if "write_lock" not in conn.info:
        database = conn.engine.url.database
        conn.info["write_lock"] = None if not database or database == ":memory:" else \
            os.open(database + "-writer", os.O_RDWR | os.O_CREAT, 0o600)
    if conn.info["write_lock"] is not None:
        fcntl.flock(conn.info["write_lock"], fcntl.LOCK_EX)
        conn.info["writing"] = True
        _held.count = 1


def _release(info) -> None:
    if info.pop("writing", False):
        fcntl.flock(info["write_lock"], fcntl.LOCK_UN)
        _held.count = 0


@event.listens_for(Engine, "commit")
@event.listens_for(Engine, "rollback")
def _end_of_transaction(conn):
    _release(conn.info)


@event.listens_for(Pool, "reset")
def _connection_returned(dbapi_connection, connection_record, reset_state):
    _release(connection_record.info)


@event.listens_for(Pool, "close")
def _connection_closed(dbapi_connection, connection_record):
    _release(connection_record.info)
    if connection_record.info.get("write_lock") is not None:
        os.close(connection_record.info.pop("write_lock"))
