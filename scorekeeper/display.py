"""Template helpers: money, dates and numbers in the user's locale."""

from __future__ import annotations

import datetime as dt
import functools
from typing import Any

from babel.numbers import format_currency
from flask_babel import format_date, format_datetime, format_decimal, get_locale

CURRENCY = "EUR"


def money(cents: int | None) -> str:
    return _money(cents or 0, str(get_locale()))


@functools.lru_cache(maxsize=4096)
def _money(cents: int, locale: str) -> str:
    """Babel's formatting is slow; a table shows the same few amounts again and again."""
    return format_currency(cents / 100, CURRENCY, locale=locale)


FILTERS: dict[str, Any] = {
    "money": money,
    "datetime_short": lambda value: format_datetime(value, "short"),
    "date_long": lambda value: format_date(value, "full"),
    "date_short": lambda value: format_date(value, "short"),
    "decimal": lambda value: format_decimal(value, "#,##0.0"),
    "day_month": lambda value: format_date(value, "dd.MM."),
    "iso_date": dt.date.fromisoformat,  # a date kept as JSON ("2026-11-27")
}
