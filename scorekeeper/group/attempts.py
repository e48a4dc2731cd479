"""Counting PIN attempts where the count lasts: in the database.

A limit holds for a sliding window (the last quarter of an hour, the last day), counted as the
sliding-window counter does: a row per key and fixed window of that length, and the count of the
window before weighted by the part of it that is still inside the sliding one. So a burst just
after a window's start counts with the attempts just before it, and there is no second burst at
a quarter hour or at midnight. Each row is raised by one statement that inserts it or adds one
to it (an upsert on both SQLite and PostgreSQL), so attempts sent all at once, from several
threads or processes, are each counted once; it is kept for two windows, while it still weighs
in. Rows whose time has passed are removed afterwards, in a transaction of their own (`clean`),
so two attempts never wait on each other's clean-up.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import delete, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import SQLAlchemyError

from scorekeeper.db import db
from scorekeeper.models import Attempt, now


def count(key: str, window: dt.timedelta) -> float:
    """Count one attempt for `key`; return how many there are in the last `window`, this one
    included: those of the current fixed window, and those of the window before weighted by
    the part of it still inside the last `window`. The caller commits."""
    moment = now().replace(tzinfo=dt.UTC).timestamp()
    seconds = int(window.total_seconds())
    start = int(moment) // seconds * seconds
    expires = dt.datetime.fromtimestamp(start + 2 * seconds, dt.UTC).replace(tzinfo=None)
    dialect = postgresql if db.engine.dialect.name == "postgresql" else sqlite
    insert = dialect.insert(Attempt).values(key=_row(key, seconds, start), count=1,
                                            expires=expires)
    upsert = insert.on_conflict_do_update(index_elements=[Attempt.key],
                                          set_={"count": Attempt.count + 1})
    current = int(db.session.execute(upsert.returning(Attempt.count)).scalar_one())
    before = db.session.scalar(select(Attempt.count).where(
        Attempt.key == _row(key, seconds, start - seconds))) or 0
    return current + before * (1 - (moment - start) / seconds)


def _row(key: str, seconds: int, start: int) -> str:
    """The row of `key`'s fixed window of `seconds` that starts at `start` (seconds since 1970):
    a day and its first quarter of an hour start together, yet are two rows."""
    return f"{key[:160]}/{seconds}@{start}"


def clean() -> None:
    """Remove the counts whose time has passed, and commit (if another attempt is removing
    them at the same moment, it does)."""
    try:
        db.session.execute(delete(Attempt).where(Attempt.expires <= now()))
        db.session.commit()
    except SQLAlchemyError:
        db.session.rollback()
