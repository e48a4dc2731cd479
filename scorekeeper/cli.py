"""Command-line tools: `replay` (no database needed), `import`, `join-link` and the rest."""

from __future__ import annotations

import datetime as dt
import json
import os
import sqlite3
import sys

import click
from flask import Flask, current_app, url_for
from flask.cli import with_appcontext
from sqlalchemy.exc import SQLAlchemyError

from scorekeeper import engine
from scorekeeper.group import links

LOCAL_URL = "http://localhost:5000"  # PUBLIC_URL when nothing else is configured


def _read(path: str) -> str:
    try:
        if path == "-":
            return sys.stdin.read()
        with open(path, encoding="utf-8") as f:
            return f.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise click.ClickException(f"cannot read {path}: {exc}") from None


def _line(text: str) -> str:
    """One line on standard error: characters that would break or hide it are escaped."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def _load_record(path: str) -> dict:
    try:
        return engine.load(_read(path))
    except engine.RuleError as error:
        raise click.ClickException(_line(error.message())) from None
    except RecursionError:
        raise click.ClickException(f"cannot read {path}: it is nested too deeply") from None
    except ValueError as error:  # e.g. a number of more than 4300 digits
        raise click.ClickException(f"cannot read {path}: {error}") from None


def game_group(game):
    from scorekeeper.db import db
    from scorekeeper.models import Group

    return db.session.get(Group, game.group_id)


def _database_error(error: SQLAlchemyError) -> click.ClickException:
    """A last resort: what the database refused, on one line (nothing was stored)."""
    reason = str(getattr(error, "orig", None) or error).splitlines()[0]
    return click.ClickException(f"the database refused it: {reason}")


@click.command("replay")
@click.argument("path")
def replay_command(path: str) -> None:
    """Replay a game record (a file or - for standard input) and print its state as JSON."""
    record = _load_record(path)
    try:
        table = engine.replay(record)
    except engine.RuleError as error:
        click.echo(_line(error.message()), err=True)
        sys.exit(1)
    click.echo(json.dumps(engine.report(table), ensure_ascii=False))


@click.command("import")
@with_appcontext
@click.argument("path")
@click.option("--group", "slug", required=True, help="the group's short name, e.g. stammtisch")
@click.option("--evening", "evening_date", default=None, help="the evening's date, YYYY-MM-DD")
def import_command(path: str, slug: str, evening_date: str | None) -> None:
    """Store a game record in a group (created as needed) and print the game's path."""
    from scorekeeper.changes import records

    record = _load_record(path)
    try:
        day = dt.date.fromisoformat(evening_date) if evening_date else None
    except ValueError:
        raise click.ClickException(f"{evening_date!r} is not a date like 2026-11-30") from None
    try:
        game = records.import_game(record, slug, day)
    except engine.RuleError as error:
        click.echo(_line(error.message()), err=True)
        sys.exit(1)
    except ValueError as error:
        raise click.ClickException(str(error)) from None
    except SQLAlchemyError as error:
        raise _database_error(error) from None
    click.echo(f"/g/{slug}/games/{game.id}")
    click.echo(f"/g/{slug}/evenings/{game.evening_id}")
    click.echo(f"join link: {_join_link(game_group(game))}")


def _join_link(group) -> str:
    """The group's join link on the address the phones open: SCOREKEEPER_URL (PUBLIC_URL), else
    the app's SERVER_NAME with PREFERRED_URL_SCHEME; with neither, on localhost, and a word on
    standard error on how to set it."""
    config = current_app.config
    if config["PUBLIC_URL"] == LOCAL_URL and config.get("SERVER_NAME"):
        return url_for("access.join", token=group.token, _external=True)
    if config["PUBLIC_URL"] == LOCAL_URL:
        click.echo(f"(the link starts with {LOCAL_URL}: set SCOREKEEPER_URL, or SERVER_NAME and "
                   "PREFERRED_URL_SCHEME in instance/config.py, to the address the phones open)",
                   err=True)
    return links.link(group)


@click.command("export-group")
@click.argument("slug")
@click.option("--csv", "as_csv", is_flag=True, help="one row per hand instead of JSON")
@with_appcontext
def export_group_command(slug: str, as_csv: bool) -> None:
    """Print a whole group as JSON (or CSV) on standard output."""
    from scorekeeper.group import club
    from scorekeeper.records import export

    try:
        group = club.find_group(slug)
        if group is None:
            raise click.ClickException(f"there is no group {slug!r}")
        text = export.group_csv(group) if as_csv else json.dumps(
            export.group_json(group), ensure_ascii=False, indent=1) + "\n"
    except SQLAlchemyError as error:
        raise _database_error(error) from None
    click.echo(text, nl=False)


@click.command("import-group")
@click.argument("path")
@with_appcontext
def import_group_command(path: str) -> None:
    """Create a group from an `export-group` JSON file and print its path."""
    from scorekeeper.changes import records

    text = _read(path)
    try:
        data = json.loads(text)
    except RecursionError:
        raise click.ClickException(f"cannot import {path}: it is nested too deeply") from None
    except ValueError as error:
        raise click.ClickException(f"cannot import {path}: it is not JSON ({error})") from None
    try:
        group = records.import_group(data)  # stores nothing when it raises
    except ValueError as error:
        raise click.ClickException(f"cannot import {path}: {error}") from None
    except SQLAlchemyError as error:
        raise _database_error(error) from None
    click.echo(f"/g/{group.slug}")
    click.echo(f"join link: {_join_link(group)}")


@click.command("join-link")
@click.argument("slug")
@with_appcontext
def join_link_command(slug: str) -> None:
    """Print the group's join link (for the host who lost it). Open it on a phone, or show it as
    the QR code of the group's invite page. SCOREKEEPER_URL sets the address it starts with."""
    from scorekeeper.group import club

    group = club.find_group(slug)
    if group is None:
        raise click.ClickException(f"there is no group {slug!r}")
    click.echo(_join_link(group))


@click.command("backup")
@click.argument("path")
@with_appcontext
def backup_command(path: str) -> None:
    """Copy the SQLite database to PATH while the app keeps running (SQLite's online backup)."""
    from scorekeeper.db import db

    url = db.engine.url
    if url.get_backend_name() != "sqlite" or not url.database:
        raise click.ClickException("this database is not SQLite: back up PostgreSQL with pg_dump")
    _not_the_database(path, url.database)
    source = sqlite3.connect(url.database)
    try:
        target = sqlite3.connect(path)
        try:
            with target:
                source.backup(target)
        finally:
            target.close()
    except sqlite3.Error as error:
        raise click.ClickException(f"cannot back up to {path}: {error}") from None
    finally:
        source.close()
    click.echo(f"backed up {url.database} to {path}")


# SQLite's own files next to the database: a copy written over one of them breaks the database
SIDE_FILES = ("-wal", "-shm", "-journal")


def _not_the_database(path: str, database: str) -> None:
    """Refuse a backup onto the live database or its -wal, -shm or -journal file, however the
    path is spelled (a symlink, `instance/../instance/...`, a hard link), before anything is
    written."""
    target = os.path.realpath(path)
    for suffix in ("", *SIDE_FILES):
        live = database + suffix
        if target == os.path.realpath(live) or (
                os.path.exists(path) and os.path.exists(live) and os.path.samefile(path, live)):
            what = "the database itself" if not suffix else f"the database's {suffix} file"
            raise click.ClickException(f"{path} is {what}: back up to another file")


@click.command("chronicle")
@click.argument("slug")
@click.option("--year", default=None, help="the season, e.g. 2026 (default: this year)")
@click.option("--json", "as_json", is_flag=True, help="print it as JSON")
@with_appcontext
def chronicle_command(slug: str, year: str | None, as_json: bool) -> None:
    """Print the group's season: champion, Rote Laterne, attendance, streaks, records, the
    Kasse's book and the ratings."""
    from scorekeeper.evenings import ledger
    from scorekeeper.group import club
    from scorekeeper.season import chronicle, ratings

    if year is not None and not (year.isascii() and year.isdigit() and 1900 <= int(year) <= 9999):
        raise click.ClickException(f"{_line(year)!r} is not a year like 2026")
    try:
        group = club.find_group(slug)
        if group is None:
            raise click.ClickException(f"there is no group {_line(slug)!r}")
        with current_app.test_request_context():  # the records' names in the default language
            season_year = int(year) if year else club.evening_day().year
            season = chronicle.chronicle(group, season_year)
            season["kasse"] = ledger.book(group, season_year).as_json()
            season["ratings"] = ratings.as_json(ratings.season(group, season_year))
    except SQLAlchemyError as error:
        raise _database_error(error) from None
    if as_json:
        click.echo(json.dumps(season, ensure_ascii=False, indent=1))
        return
    click.echo("\n".join(chronicle.text(season)))


def init_app(app: Flask) -> None:
    for command in (replay_command, import_command, export_group_command, import_group_command,
                    join_link_command, backup_command, chronicle_command):
        app.cli.add_command(command)
