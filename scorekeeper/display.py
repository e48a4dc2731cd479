"""Template helpers: money, dates and numbers in the user's locale; the games for every page."""

from __future__ import annotations

from flask import Flask
from flask_babel import format_currency, format_date, format_datetime, format_decimal

CURRENCY = "EUR"


def money(cents: int | None) -> str:
    return format_currency((cents or 0) / 100, CURRENCY)


def init_app(app: Flask) -> None:
    app.jinja_env.filters["money"] = money
    app.jinja_env.filters["datetime_short"] = lambda value: format_datetime(value, "short")
    app.jinja_env.filters["date_long"] = lambda value: format_date(value, "full")
    app.jinja_env.filters["date_short"] = lambda value: format_date(value, "short")
    app.jinja_env.filters["decimal"] = lambda value: format_decimal(value, "#,##0.0")
    from . import club, games  # here, not at the top: the adapters use `money`

    app.jinja_env.filters["device"] = club.device_label
    app.jinja_env.globals["games_registry"] = games.GAMES
