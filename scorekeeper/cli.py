"""Command-line tools: `replay` (no database needed) and `import`."""

from __future__ import annotations

import datetime as dt
import json
import sys

import click
from flask import Flask
from flask.cli import with_appcontext

from . import engine


def _read(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise click.ClickException(f"cannot read {path}: {exc}") from None


def _load_record(path: str) -> dict:
    try:
        return engine.load(_read(path))
    except engine.RuleError as error:
        raise click.ClickException(error.message()) from None


@click.command("replay")
@click.argument("path")
def replay_command(path: str) -> None:
    """Replay a game record (a file or - for standard input) and print its state as JSON."""
    record = _load_record(path)
    try:
        table = engine.replay(record)
    except engine.RuleError as error:
        click.echo(error.message(), err=True)
        sys.exit(1)
    click.echo(json.dumps(table.report(), ensure_ascii=False))


@click.command("import")
@with_appcontext
@click.argument("path")
@click.option("--group", "slug", required=True, help="the group's short name, e.g. stammtisch")
@click.option("--evening", "evening_date", default=None, help="the evening's date, YYYY-MM-DD")
def import_command(path: str, slug: str, evening_date: str | None) -> None:
    """Store a game record in a group (created as needed) and print the game's path."""
    from . import records

    record = _load_record(path)
    try:
        day = dt.date.fromisoformat(evening_date) if evening_date else None
    except ValueError:
        raise click.ClickException(f"{evening_date!r} is not a date like 2026-11-30") from None
    try:
        game = records.import_game(record, slug, day)
    except engine.RuleError as error:
        click.echo(error.message(), err=True)
        sys.exit(1)
    except ValueError as error:
        raise click.ClickException(str(error)) from None
    click.echo(f"/g/{slug}/games/{game.id}")
    click.echo(f"/g/{slug}/evenings/{game.evening_id}")


def init_app(app: Flask) -> None:
    app.cli.add_command(replay_command)
    app.cli.add_command(import_command)
