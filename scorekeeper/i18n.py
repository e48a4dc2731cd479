"""Languages: German by default, English and Dutch; the choice is kept in a cookie."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask, current_app, g, request
from flask_babel import Babel, get_locale, get_translations, gettext
from markupsafe import Markup

from scorekeeper import engine
from scorekeeper.web.display import money

COOKIE = "lang"


def select_locale() -> str:
    languages = current_app.config["LANGUAGES"]
    chosen = request.cookies.get(COOKIE)
    if chosen is not None and chosen in languages:
        return chosen
    return str(languages[0])


def language() -> str:
    return str(get_locale() or "de")


def translations() -> Any:
    """This request's catalogue, looked up once: Flask-Babel looks it up again for every text,
    which made the forty-odd texts of a table page cost a millisecond."""
    found = g.get("translations")
    if found is None:
        found = g.translations = get_translations()
    return found


def translate(text: str) -> str:
    """An English text of the engine in the user's language (the catalogues have them all)."""
    return str(translations().ugettext(text))


def rule_message(error: engine.RuleError, with_entry: bool = False) -> str:
    """The engine's message in the user's language; without the entry number at a form field."""
    return error.message(translate, with_entry=with_entry)


def problem_message(problem: Mapping[str, Any] | None) -> str:
    """Why a game kept from before an upgrade is read-only (Game.problem), in one sentence."""
    if not problem:
        return ""
    try:
        error = engine.RuleError(str(problem["code"]), **dict(problem["params"]))
        error.entry = problem.get("entry")
        error.entry_word = str(problem.get("entry_word") or "hand")
        why = rule_message(error, with_entry=True)
    except (KeyError, TypeError, ValueError, IndexError):
        why = ""
    return gettext("Since an update of the app this game no longer fits its rules (%(why)s). "
                   "It is shown as it was and takes no more hands; it can still be exported "
                   "and ended.", why=why or "?")


def localized(text: str) -> str:
    """A title, summary or option text of the engine, translated."""
    return translate(text)


def is_money(option: engine.base.Option) -> bool:
    """An amount of money in cents: shown and typed in euros."""
    return option.kind == "int" and "cents" in option.name


def option_label(option: engine.base.Option, value: object) -> str:
    """A rule option's value as players read it (money in euros, "0,10 €")."""
    if is_money(option) and isinstance(value, int):
        return money(value)
    label = option.labels.get(value) if value is None or isinstance(value, str | int) else None
    if label:
        return translate(label)
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if value is None:
        return "–"
    if isinstance(value, dict):  # a table's local bids and their values: "leere 4, halbe 2"
        return ", ".join(f"{name} {number}" for name, number in value.items()) or "–"
    return str(value)


def init_app(app: Flask) -> None:
    Babel(app, locale_selector=select_locale)
    # the templates' _(), gettext() and ngettext(): as Flask-Babel's (Jinja's "newstyle": the
    # text is safe, its variables are escaped), but on the request's catalogue and not handed
    # the template's context: inside a loop Jinja copies the whole context for every call of a
    # function that takes it (the templates are HTML, always autoescaped)
    app.jinja_env.globals.update(_=_gettext, gettext=_gettext, ngettext=_ngettext,
                                 language=language, localized=localized, option_label=option_label,
                                 problem_message=problem_message)


def _gettext(text: str, **variables: Any) -> Markup:
    return Markup(translations().ugettext(text)) % variables


def _ngettext(singular: str, plural: str, num: int, **variables: Any) -> Markup:
    variables.setdefault("num", num)
    return Markup(translations().ungettext(singular, plural, num)) % variables
