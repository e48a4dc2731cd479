"""Rule options: their names, defaults, allowed values and one-line explanations.

Each game module lists its options as `OPTIONS`; the record stores only those that differ from
the defaults, and `resolve` checks them and fills in the rest.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from . import errors
from .errors import RuleError


@dataclass(frozen=True)
class Option:
    name: str
    default: Any
    help: Mapping[str, str]  # language -> one-line explanation
    choices: tuple[Any, ...] = ()  # allowed values; empty: any value of the default's type
    minimum: int | None = None
    maximum: int | None = None
    multiple_of: int | None = None
    labels: Mapping[str, Mapping[str, str]] = field(default_factory=dict)  # choice -> lang -> label
    extra_check: Callable[[Any], bool] | None = None

    def __post_init__(self) -> None:
        if self.kind == "int" and (self.minimum is None or self.maximum is None):
            raise ValueError(f"the number option {self.name!r} needs a minimum and a maximum")

    @property
    def kind(self) -> str:
        if self.choices:
            return "choice"
        return "bool" if isinstance(self.default, bool) else "int"

    def allowed(self) -> dict[str, str]:
        """The allowed values in players' words, per language (for error messages)."""
        words: dict[str, str] = {}
        for lang in errors.LANGUAGES:
            if self.choices:
                shown = [f"\u201c{self.labels.get(c, {}).get(lang) or _show(c)}\u201d"
                         for c in self.choices]
                words[lang] = _CHOOSE[lang] + errors.join(shown, lang, errors.OR)
            elif self.kind == "bool":
                words[lang] = _CHOOSE[lang] + errors.join([_YES[lang], _NO[lang]], lang,
                                                          errors.OR)
            else:
                text = _WHOLE[lang].format(low=self.minimum, high=self.maximum)
                if self.multiple_of:
                    text += _MULTIPLE[lang].format(n=self.multiple_of)
                words[lang] = text
        return words

    def error(self, value: Any) -> RuleError:
        return RuleError("bad_option", field=self.name, option=self.name, label=dict(self.help),
                         value=_show(value), allowed=self.allowed())

    def accepts(self, value: Any) -> bool:
        if self.choices:
            return any(value == c and type(value) is type(c) for c in self.choices)
        if self.kind == "bool":
            return isinstance(value, bool)
        if not isinstance(value, int) or isinstance(value, bool):
            return False
        if self.minimum is not None and value < self.minimum:
            return False
        if self.maximum is not None and value > self.maximum:
            return False
        if self.multiple_of and value % self.multiple_of:
            return False
        return self.extra_check is None or self.extra_check(value)


_YES = {"en": "yes", "de": "ja", "nl": "ja"}
_NO = {"en": "no", "de": "nein", "nl": "nee"}
_CHOOSE = {"en": "choose ", "de": "bitte wählen: ", "nl": "kies "}
_WHOLE = {"en": "enter a whole number from {low} to {high}",
          "de": "bitte eine ganze Zahl von {low} bis {high} eingeben",
          "nl": "voer een geheel getal van {low} tot {high} in"}
_MULTIPLE = {"en": ", a multiple of {n}", "de": ", ein Vielfaches von {n}",
             "nl": ", een veelvoud van {n}"}


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    return str(value)


def resolve(options: tuple[Option, ...], given: Any) -> dict[str, Any]:
    """Return every option's value: the given ones checked, the rest at their defaults."""
    if given is None:
        given = {}
    if not isinstance(given, Mapping):
        raise RuleError("unknown_option", field="rules", option=str(given))
    by_name = {option.name: option for option in options}
    rules = {option.name: option.default for option in options}
    for name, value in given.items():
        option = by_name.get(name)
        if option is None:
            raise RuleError("unknown_option", field=str(name), option=name)
        if not option.accepts(value):
            raise option.error(value)
        rules[name] = value
    return rules


def non_default(options: tuple[Option, ...], rules: Mapping[str, Any]) -> dict[str, Any]:
    """The options that differ from the defaults, as the game record stores them."""
    return {o.name: rules[o.name] for o in options
            if o.name in rules and rules[o.name] != o.default}
