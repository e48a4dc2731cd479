"""Rule options: their names, defaults, allowed values and one-line explanations.

Each game module lists its options as `OPTIONS`; the record stores only those that differ from
the defaults, and `resolve` checks them and fills in the rest.

An option is one of four kinds: a choice (`choices`), yes or no (a bool default), a whole number
from `minimum` to `maximum`, or, with `text`, a line of text from `minimum` to `maximum`
characters long. A number or text option whose default is None may also be None ("no target");
with `required` it has no default (None) and the record must give it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import RuleError


@dataclass(frozen=True)
class Option:
    name: str
    default: Any
    help: str  # a one-line explanation (English, marked with N_: translated where shown)
    choices: tuple[Any, ...] = ()  # allowed values; empty: any value of the default's type
    minimum: int | None = None
    maximum: int | None = None
    multiple_of: int | None = None
    labels: Mapping[Any, str] = field(default_factory=dict)  # choice (or None) -> label (N_)
    extra_check: Callable[[Any], bool] | None = None
    text: bool = False  # a line of text, `minimum` to `maximum` characters long
    required: bool = False  # no default (None): the record must give a value

    def __post_init__(self) -> None:
        if self.kind in ("int", "text") and (self.minimum is None or self.maximum is None):
            raise ValueError(f"the option {self.name!r} needs a minimum and a maximum")
        if self.required and self.default is not None:
            raise ValueError(f"the required option {self.name!r} has no default: give None")

    @property
    def kind(self) -> str:
        if self.choices:
            return "choice"
        if self.text:
            return "text"
        return "bool" if isinstance(self.default, bool) else "int"

    @property
    def may_be_none(self) -> bool:
        """None is a value of the option (none, no limit): its default, unless it is required."""
        return self.default is None and not self.required

    def missing(self) -> RuleError:
        """The refusal of a record that does not give this required option."""
        return RuleError("missing_option", field=self.name, option=self.name, label=self.help)

    def error(self, value: Any) -> RuleError:
        """The refusal of `value`, saying what is allowed instead."""
        if self.kind == "text":
            return RuleError("bad_text_option", field=self.name, option=self.name,
                             label=self.help, value=_show(value), low=self.minimum,
                             high=self.maximum)
        kind = {"choice": "choice", "bool": "yes_no"}.get(self.kind) or (
            "multiple" if self.multiple_of else "number")
        return RuleError("bad_option", field=self.name, option=self.name, label=self.help,
                         value=_show(value), kind=kind, low=self.minimum, high=self.maximum,
                         multiple=self.multiple_of, choices=[self.labels.get(c) or _show(c)
                                                             for c in self.choices])

    def accepts(self, value: Any) -> bool:
        if value is None:
            return self.may_be_none
        if self.kind == "text":  # one printed line, blanks around it not counted as its length
            if not isinstance(value, str) or not value.isprintable():
                return False
            return ((self.minimum is None or len(value.strip()) >= self.minimum)
                    and (self.maximum is None or len(value) <= self.maximum))
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


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value[:_SHOWN_TEXT]}…"' if len(value) > _SHOWN_TEXT else f'"{value}"'
    return "null" if value is None else str(value)


_SHOWN_TEXT = 60  # a longer text is cut short in a message


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
    for option in options:
        if option.required and rules[option.name] is None:
            raise option.missing()
    return rules


def as_stored(options: tuple[Option, ...], given: Mapping[str, Any]) -> dict[str, Any]:
    """Every option's value of a stored game: `resolve`d, or, for a game kept from before an
    upgrade whose rules the engine now refuses, as stored and unchecked (to show and end it).
    Unknown options are then left out, the missing ones are at their defaults."""
    try:
        return resolve(options, given)
    except RuleError:
        pass
    rules = {option.name: option.default for option in options}
    rules.update((name, value) for name, value in given.items() if name in rules)
    return rules


def non_default(options: tuple[Option, ...], rules: Mapping[str, Any]) -> dict[str, Any]:
    """The options that differ from the defaults, as the game record stores them."""
    return {o.name: rules[o.name] for o in options
            if o.name in rules and rules[o.name] != o.default}
