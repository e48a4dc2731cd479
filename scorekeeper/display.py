"""Template helpers: money in the user's locale and texts built from engine results."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask_babel import format_currency, format_date, format_datetime, format_decimal, gettext

from .engine import cards

CURRENCY = "EUR"


def money(cents: int | None) -> str:
    return format_currency((cents or 0) / 100, CURRENCY)


def pot_rule_text(state: dict[str, Any], closing: dict[str, Any]) -> str:
    """Say what happens to the pot when a Vier-Anderle game is closed."""
    rule = state["rules"]["pot_at_end"]
    pot = money(state["pot_cents"])
    if rule == "split":
        return gettext("The pot of %(pot)s is shared out equally among the players at the table; "
                       "what cannot be split stays in the Kasse and starts the next Vier-Anderle "
                       "game.", pot=pot)
    if rule == "play-out":
        return gettext("The pot is empty: the game can end.")
    return gettext("The pot of %(pot)s stays in the Kasse and starts the next Vier-Anderle game.",
                   pot=pot)


def pass_label(direction: str | None, across_seats: int = 2) -> str:
    """Where the cards go; with 6, 8 or 10 players "across" is half the table away."""
    if direction == "across" and across_seats != 2:
        return gettext("across, %(n)s seats on", n=across_seats)
    labels = {"left": gettext("to the left"), "right": gettext("to the right"),
              "across": gettext("across"), "hold": gettext("no passing (hold)")}
    return labels.get(direction or "", "–")


def init_app(app: Flask) -> None:
    app.jinja_env.filters["money"] = money
    app.jinja_env.filters["datetime_short"] = lambda value: format_datetime(value, "short")
    app.jinja_env.filters["date_long"] = lambda value: format_date(value, "full")
    app.jinja_env.filters["date_short"] = lambda value: format_date(value, "short")
    app.jinja_env.filters["decimal"] = lambda value: format_decimal(value, "#,##0.0")
    app.jinja_env.globals.update(pot_rule_text=pot_rule_text, tricks_per_hand=cards.CEGO_TRICKS,
                                 hintersche_total=cards.HINTERSCHE_TOTAL, pass_label=pass_label,
                                 hearts_in_pack=cards.hearts_in_pack)
