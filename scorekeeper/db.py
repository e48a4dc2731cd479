"""The SQLAlchemy handle shared by the models and the views."""

import sqlite3
from pathlib import Path

from flask import Flask
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    pass


db = SQLAlchemy(model_class=Base)
migrate = Migrate()


def init_app(app: Flask, migrations: Path) -> None:
    """The database of the app's settings, and its migrations (Flask-Migrate) in `migrations`."""
    db.init_app(app)
    migrate.init_app(app, db, directory=str(migrations))


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
