"""Rule options: their names, defaults, allowed values and one-line explanations.

Each game module lists its options as `OPTIONS`; the record stores only those that differ from
the defaults, and `resolve` checks them and fills in the rest.

An option is a choice (`choices`), yes or no (a bool default), a whole number (between `minimum`
and `maximum`; a number option whose default is None may also be null: "none"), or a mapping
(a dict default: short lower-case names, each with a whole number between `minimum` and
`maximum`, such as a game's local bids and their values).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import RuleError

MAPPING_NAME = re.compile(r"[a-z][a-z0-9_]{0,29}")  # a name in a mapping option
MAPPING_SIZE = 30  # names in a mapping option at most


@dataclass(frozen=True)
class Option:
    name: str
    default: Any
    help: str  # a one-line explanation (English, marked with N_: translated where shown)
    choices: tuple[Any, ...] = ()  # allowed values; empty: any value of the default's type
    minimum: int | None = None
    maximum: int | None = None
    multiple_of: int | None = None
    labels: Mapping[Any, str] = field(default_factory=dict)  # choice -> label (N_)
    extra_check: Callable[[Any], bool] | None = None

    def __post_init__(self) -> None:
        if self.kind in ("int", "mapping") and (self.minimum is None or self.maximum is None):
            raise ValueError(f"the number option {self.name!r} needs a minimum and a maximum")

    @property
    def kind(self) -> str:
        if self.choices:
            return "choice"
        if isinstance(self.default, Mapping):
            return "mapping"
        return "bool" if isinstance(self.default, bool) else "int"

    def error(self, value: Any) -> RuleError:
        """The refusal of `value`, saying what is allowed instead."""
        if self.kind == "mapping":
            return RuleError("bad_option_mapping", field=self.name, option=self.name,
                             label=self.help, value=_show(value), low=self.minimum,
                             high=self.maximum)
        kind = {"choice": "choice", "bool": "yes_no"}.get(self.kind) or (
            "multiple" if self.multiple_of else "number")
        return RuleError("bad_option", field=self.name, option=self.name, label=self.help,
                         value=_show(value), kind=kind, low=self.minimum, high=self.maximum,
                         multiple=self.multiple_of, choices=[self.labels.get(c) or _show(c)
                                                             for c in self.choices])

    def accepts(self, value: Any) -> bool:
        if self.choices:
            return any(value == c and type(value) is type(c) for c in self.choices)
        if self.kind == "bool":
            return isinstance(value, bool)
        if self.kind == "mapping":
            if not isinstance(value, Mapping) or len(value) > MAPPING_SIZE or not all(
                    type(k) is str and MAPPING_NAME.fullmatch(k) and self._number(v)
                    for k, v in value.items()):
                return False
        elif not (value is None and self.default is None) and not self._number(value):
            return False
        return self.extra_check is None or self.extra_check(value)

    def _number(self, value: Any) -> bool:
        if not isinstance(value, int) or isinstance(value, bool):
            return False
        if self.minimum is not None and value < self.minimum:
            return False
        if self.maximum is not None and value > self.maximum:
            return False
        return not (self.multiple_of and value % self.multiple_of)


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if value is None:
        return "null"
    if isinstance(value, Mapping | list):
        try:
            return json.dumps(value, ensure_ascii=False)
        except (TypeError, ValueError):
            pass
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
