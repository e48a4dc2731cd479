"""Template helpers: money, dates and numbers in the user's locale."""

from __future__ import annotations

from typing import Any

from flask_babel import format_currency, format_date, format_datetime, format_decimal

CURRENCY = "EUR"


def money(cents: int | None) -> str:
    return format_currency((cents or 0) / 100, CURRENCY)


FILTERS: dict[str, Any] = {
    "money": money,
    "datetime_short": lambda value: format_datetime(value, "short"),
    "date_long": lambda value: format_date(value, "full"),
    "date_short": lambda value: format_date(value, "short"),
    "decimal": lambda value: format_decimal(value, "#,##0.0"),
}
