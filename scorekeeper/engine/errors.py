"""Rule errors: an error code with parameters, and the words players read, in their language.

The engine raises `RuleError(code, field=..., **params)`; the web layer uses `field` to put the
message next to the right input, the CLI prints `message()`. Each game module contributes its
own codes through a `MESSAGES` mapping, merged here by `register_messages`, and the words for
the keys of its entries through `register_key_words`.

Every text the engine shows players is English, marked with `N_` so that `pybabel extract -k N_`
collects it into the app's catalogues (scorekeeper/translations); the German and Dutch texts
live only there. Whoever writes a message passes a `translate` function (the web app: the
user's catalogue; the CLI: none, so English). Templates are `str.format` strings with three
additions, so that params hold no words of a language and the translated template decides:
- `{n:|trick|tricks}` writes the number with the singular or plural noun ("1 trick", "2 tricks");
- `{names:and}` joins a list with the word for "and" ("A, B and C"), `{names:or}` with "or",
  `{names:either}` quotes each and joins with "or";
- `{tie:most=for most|fewest=for fewest}` writes the text chosen by the param's value;
- a param that is a `Words` (made by `N_`) is translated too.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Sequence
from typing import Any

Translate = Callable[[str], str]


class Words(str):
    """An English text that is translated when a message is written (a param, a title)."""

    __slots__ = ()


def N_(text: str) -> Words:  # noqa: N802 - the gettext convention for "translate later"
    """Mark a text for the catalogues; it is translated where it is shown."""
    return Words(text)


def english(text: str) -> str:
    return text


# code -> template in English (str.format with the error's params)
MESSAGES: dict[str, str] = {
    "record_not_object": N_("the record is not a JSON object"),
    "record_bad_json": N_("the record is not valid JSON ({detail})"),
    "record_bad_format": N_("the record format must be \"scorekeeper-game/1\""),
    "unknown_game": N_("there is no game called \"{game}\""),
    "unknown_option": N_("there is no rule option \"{option}\" in this game"),
    "bad_option": N_("the rule “{label}” cannot be {value}: {kind:choice=choose "
                     "{choices:either}|yes_no=it is yes or no|number=enter a whole number from "
                     "{low} to {high}|multiple=enter a multiple of {multiple} from {low} to "
                     "{high}}"),
    "bad_text_option": N_("the rule “{label}” cannot be {value}: enter {low} to {high} "
                          "characters on one line"),
    "missing_option": N_("the rule “{label}” must be given"),
    "bad_mapping_option": N_("the rule “{label}” cannot be {value}: give each name (small "
                             "letters, digits and _) a whole number from {low} to {high}"),
    "bad_players": N_("players must be a list of names"),
    "player_count": N_("this game needs {low} to {high} players, not {count}"),
    "player_count_exact": N_("this game needs {low} players, not {count}"),
    "duplicate_player": N_("{player} is named twice"),
    "unknown_player": N_("{player} does not play in this game"),
    "bad_hands": N_("hands must be a list"),
    "entry_not_object": N_("the entry is not a JSON object"),
    "unknown_key": N_("{what}: there is no such thing in {game}"),
    "missing_key": N_("nothing was entered for {what}"),
    "not_a_mapping": N_("{what}: give a whole number for each player"),
    "not_a_number": N_("{player}: \"{value}\" is not a whole number"),
    "game_over": N_("the game is over, no more hands can be entered"),
}


def register_messages(messages: dict[str, str]) -> None:
    for code in messages:
        if code in MESSAGES:
            raise ValueError(f"message code {code!r} defined twice")
    MESSAGES.update(messages)


AND = N_("and")
OR = N_("or")


def join(names: Sequence[Any], translate: Translate = english, word: str = AND) -> str:
    """A, B and C: names joined as players say them."""
    shown = [translate(n) if isinstance(n, Words) else str(n) for n in names]
    if len(shown) < 2:
        return "".join(shown)
    return ", ".join(shown[:-1]) + f" {translate(word)} " + shown[-1]


class _Formatter(string.Formatter):
    def __init__(self, translate: Translate) -> None:
        self.translate = translate

    def format_field(self, value: Any, format_spec: str) -> str:
        if isinstance(value, Words):
            value = self.translate(value)
        if format_spec.startswith("|"):
            one, many = format_spec[1:].split("|")
            return f"{value} {one if value == 1 else many}"
        if format_spec in ("and", "or"):
            return join(value, self.translate, AND if format_spec == "and" else OR)
        if format_spec == "either":
            quoted = [f"\u201c{self.translate(v) if isinstance(v, Words) else v}\u201d"
                      for v in value]
            return join(quoted, self.translate, OR)
        if "=" in format_spec:
            choices = dict(part.split("=", 1) for part in format_spec.split("|"))
            return choices.get(str(value), str(value))
        return str(super().format_field(value, format_spec))


def render(code: str, params: dict[str, Any], translate: Translate = english) -> str:
    return str(_Formatter(translate).format(translate(MESSAGES[code]), **params))


# What the keys of an entry are, in players' words (for "there is no such thing" and the like).
# Each game registers the words for its keys (`register_key_words`).
KEY_WORDS: dict[str, Words] = {}


def register_key_words(words: dict[str, Words]) -> None:
    """Add a game's key words; a key that two games share must read the same in both."""
    for key, text in words.items():
        if KEY_WORDS.get(key, text) != text:
            raise ValueError(f"key {key!r} has two different words")
    KEY_WORDS.update(words)


def key_words(key: Any) -> str:
    """A key of an entry as players say it; an unknown one as it was written."""
    return KEY_WORDS.get(key, f"\u201c{key}\u201d") if isinstance(key, str) else f"{key!r}"


def unknown_key(key: Any, game: str) -> RuleError:
    return RuleError("unknown_key", field=str(key), key=key, what=key_words(key), game=game)


def missing_key(key: str) -> RuleError:
    return RuleError("missing_key", field=key, key=key, what=key_words(key))


def not_a_mapping(key: str) -> RuleError:
    return RuleError("not_a_mapping", field=key, key=key, what=key_words(key))


class RuleError(ValueError):
    """A record or entry breaks a rule. `field` names the input it concerns (a player, a key)."""

    def __init__(self, code: str, field: str | None = None, **params: Any) -> None:
        if code not in MESSAGES:
            raise KeyError(f"unknown error code {code!r}")
        self.code = code
        self.field = field
        self.params = params
        self.entry: int | None = None  # set by replay: the 1-based entry number
        self.entry_word = "hand"
        super().__init__(self.message())

    def message(self, translate: Translate = english, with_entry: bool = True) -> str:
        """The message in players' words (English unless `translate` says otherwise), with the
        entry number when it belongs to one."""
        text = render(self.code, self.params, translate)
        if self.entry is None or not with_entry:
            return text
        return f"{translate(ENTRY_WORDS[self.entry_word])} {self.entry}: {text}"

    def __str__(self) -> str:
        return self.message()


ENTRY_WORDS = {
    "hand": N_("hand"),
    "entry": N_("entry"),
}
