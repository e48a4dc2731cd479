"""Template helpers: money, dates and numbers in the user's locale."""

from __future__ import annotations

import datetime as dt
import functools
from typing import Any

from babel.numbers import format_currency
from flask import current_app, request, url_for
from flask_babel import format_date, format_datetime, format_decimal, get_locale

CURRENCY = "EUR"


def money(cents: int | None) -> str:
    return _money(cents or 0, str(get_locale()))


@functools.lru_cache(maxsize=4096)
def _money(cents: int, locale: str) -> str:
    """Babel's formatting is slow; a table shows the same few amounts again and again."""
    return format_currency(cents / 100, CURRENCY, locale=locale)


def page_url(endpoint: str, **values: Any) -> str:
    """`url_for` for the templates, remembered per app: a page builds the same few addresses
    on every render (a table page a dozen), and werkzeug's building is a tenth of the render.
    A path depends on the endpoint, its values and where the app is mounted; a relative
    endpoint, an address for another host (`_external`) or a value that cannot be a key is
    built as usual."""
    if endpoint.startswith(".") or values.get("_external"):
        return url_for(endpoint, **values)
    built = current_app.extensions.setdefault("page_urls", {})
    try:
        key = (request.script_root, endpoint, *values.items())
        return built[key]
    except KeyError:
        if len(built) > 10_000:  # addresses of many games: start again
            built.clear()
        path = built[key] = url_for(endpoint, **values)
        return path
    except TypeError:  # a list among the values: not a key
        return url_for(endpoint, **values)


FILTERS: dict[str, Any] = {
    "money": money,
    "datetime_short": lambda value: format_datetime(value, "short"),
    "date_long": lambda value: format_date(value, "full"),
    "date_short": lambda value: format_date(value, "short"),
    "decimal": lambda value: format_decimal(value, "#,##0.0"),
    "day_month": lambda value: format_date(value, "dd.MM."),
    "iso_date": dt.date.fromisoformat,  # a date kept as JSON ("2026-11-27")
}
