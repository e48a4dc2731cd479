"""Template helpers: money, dates and numbers in the user's locale; the games for every page."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask
from flask_babel import format_currency, format_date, format_datetime, format_decimal, gettext

CURRENCY = "EUR"


def money(cents: int | None) -> str:
    return format_currency((cents or 0) / 100, CURRENCY)


def entry_name(seq: int, effect: Mapping[str, Any] | None) -> str:
    """An entry as the history and the table call it ("Hand 2", "Table change"): a table
    change is an entry but no hand, so entry numbers can run ahead of the hands."""
    effect = effect or {}
    if effect.get("hand") is not None:
        return gettext("Hand %(n)s", n=effect["hand"])
    if effect.get("kind") == "table":
        return gettext("Table change")
    return gettext("Entry %(n)s", n=seq)


def init_app(app: Flask) -> None:
    app.jinja_env.filters["money"] = money
    app.jinja_env.filters["datetime_short"] = lambda value: format_datetime(value, "short")
    app.jinja_env.filters["date_long"] = lambda value: format_date(value, "full")
    app.jinja_env.filters["date_short"] = lambda value: format_date(value, "short")
    app.jinja_env.filters["decimal"] = lambda value: format_decimal(value, "#,##0.0")
    app.jinja_env.globals["entry_name"] = entry_name
    from . import club, games  # here, not at the top: the adapters use `money`

    app.jinja_env.filters["device"] = club.device_label
    app.jinja_env.globals["games_registry"] = games.GAMES
