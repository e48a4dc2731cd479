"""Counting PIN attempts where the count lasts: in the database.

A count lives in a fixed window (a quarter of an hour, a day): the key and the window's start
make one row, raised by one statement that inserts it or adds one to it (an upsert on both
SQLite and PostgreSQL), so attempts sent all at once, from several threads or processes, are each
counted once. Rows whose window has passed are removed afterwards, in a transaction of their
own (`clean`), so two attempts never wait on each other's clean-up.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import delete
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import SQLAlchemyError

from .db import db
from .models import Attempt, now


def count(key: str, window: dt.timedelta) -> int:
    """Count one attempt for `key` in the current window of length `window`; return how many
    there are in it now, this one included. The caller commits."""
    moment = now()
    seconds = int(window.total_seconds())
    start = int(moment.replace(tzinfo=dt.UTC).timestamp()) // seconds * seconds
    expires = dt.datetime.fromtimestamp(start + seconds, dt.UTC).replace(tzinfo=None)
    dialect = postgresql if db.engine.dialect.name == "postgresql" else sqlite
    insert = dialect.insert(Attempt).values(key=f"{key}@{start}"[:200], count=1,
                                            expires=expires)
    upsert = insert.on_conflict_do_update(index_elements=[Attempt.key],
                                          set_={"count": Attempt.count + 1})
    return int(db.session.execute(upsert.returning(Attempt.count)).scalar_one())


def clean() -> None:
    """Remove the counts whose window has passed, and commit (if another attempt is removing
    them at the same moment, it does)."""
    try:
        db.session.execute(delete(Attempt).where(Attempt.expires <= now()))
        db.session.commit()
    except SQLAlchemyError:
        db.session.rollback()
