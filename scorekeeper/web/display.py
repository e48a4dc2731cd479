"""Template helpers: money, dates and numbers in the user's locale, long names that may break."""

from __future__ import annotations

import datetime as dt
import functools
import re
from typing import Any

from babel.numbers import format_currency
from flask import current_app, request, url_for
from flask_babel import format_date, format_datetime, format_decimal, get_locale
from markupsafe import Markup, escape

CURRENCY = "EUR"
LONG_WORD = re.compile(r"[^\s-]{15,}")  # a word of a name too long for a phone's narrow column


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


def breakable(name: str) -> Markup:
    """A name whose words of 15 letters or more may break where a column is too narrow for
    them: a break opportunity after every 10 letters of such a word, which changes nothing
    where the word fits and nothing of its text (printed, copied, searched); a ranking at
    390 px with "Hansjürgenmaximilian" in it was 435 px wide. (A name has no control
    characters: names.NAME.)"""
    marked = LONG_WORD.sub(lambda word: "\0".join(
        word[0][i:i + 10] for i in range(0, len(word[0]), 10)), name)
    return Markup(str(escape(marked)).replace("\0", "<wbr>"))


FILTERS: dict[str, Any] = {
    "breakable": breakable,
    "money": money,
    "datetime_short": lambda value: format_datetime(value, "short"),
    "date_long": lambda value: format_date(value, "full"),
    "date_short": lambda value: format_date(value, "short"),
    "decimal": lambda value: format_decimal(value, "#,##0.0"),
    "day_month": lambda value: format_date(value, "dd.MM."),
    "iso_date": dt.date.fromisoformat,  # a date kept as JSON ("2026-11-27")
}
