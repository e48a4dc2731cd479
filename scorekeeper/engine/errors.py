"""Rule errors: an error code with parameters, and the words players read, in their language.

The engine raises `RuleError(code, field=..., **params)`; the web layer uses `field` to put the
message next to the right input, the CLI prints `message()`. Each game module contributes its
own codes through a `MESSAGES` mapping, merged here by `register_messages`.

Templates are `str.format` strings with three additions, so that params stay free of language:
- `{n:|trick|tricks}` writes the number with the singular or plural noun ("1 trick", "2 tricks");
- `{names:and}` joins a list of names with the language's word for "and" ("A, B and C");
- `{tie:most=for most|fewest=for fewest}` writes the text chosen by the param's value;
- a param that is a mapping of language to text (`{"en": ..., "de": ...}`) is written in the
  message's language.
"""

from __future__ import annotations

import string
from collections.abc import Mapping, Sequence
from typing import Any

LANGUAGES = ("de", "en", "nl")
DEFAULT_LANGUAGE = "en"

# code -> language -> template (str.format with the error's params)
MESSAGES: dict[str, dict[str, str]] = {
    "record_not_object": {
        "en": "the record is not a JSON object",
        "de": "der Spielbericht ist kein JSON-Objekt",
        "nl": "het spelverslag is geen JSON-object",
    },
    "record_bad_json": {
        "en": "the record is not valid JSON ({detail})",
        "de": "der Spielbericht ist kein gültiges JSON ({detail})",
        "nl": "het spelverslag is geen geldige JSON ({detail})",
    },
    "record_bad_format": {
        "en": "the record format must be \"scorekeeper-game/1\"",
        "de": "das Format des Spielberichts muss \"scorekeeper-game/1\" sein",
        "nl": "het formaat van het spelverslag moet \"scorekeeper-game/1\" zijn",
    },
    "unknown_game": {
        "en": "there is no game called \"{game}\"",
        "de": "es gibt kein Spiel namens \"{game}\"",
        "nl": "er is geen spel met de naam \"{game}\"",
    },
    "unknown_option": {
        "en": "there is no rule option \"{option}\" in this game",
        "de": "dieses Spiel hat keine Regel \"{option}\"",
        "nl": "dit spel heeft geen regeloptie \"{option}\"",
    },
    "bad_option": {
        "en": "the rule \u201c{label}\u201d cannot be {value}: {allowed}",
        "de": "die Regel \u201e{label}\u201c kann nicht {value} sein: {allowed}",
        "nl": "de regel \u201c{label}\u201d kan niet {value} zijn: {allowed}",
    },
    "bad_players": {
        "en": "players must be a list of names",
        "de": "die Spieler müssen eine Liste von Namen sein",
        "nl": "de spelers moeten een lijst met namen zijn",
    },
    "player_count": {
        "en": "this game needs {low} to {high} players, not {count}",
        "de": "dieses Spiel braucht {low} bis {high} Spieler, nicht {count}",
        "nl": "dit spel heeft {low} tot {high} spelers nodig, niet {count}",
    },
    "player_count_exact": {
        "en": "this game needs {low} players, not {count}",
        "de": "dieses Spiel braucht {low} Spieler, nicht {count}",
        "nl": "dit spel heeft {low} spelers nodig, niet {count}",
    },
    "duplicate_player": {
        "en": "{player} is named twice",
        "de": "{player} steht zweimal in der Liste",
        "nl": "{player} staat twee keer in de lijst",
    },
    "unknown_player": {
        "en": "{player} does not play in this game",
        "de": "{player} spielt in diesem Spiel nicht mit",
        "nl": "{player} speelt niet mee in dit spel",
    },
    "bad_hands": {
        "en": "hands must be a list",
        "de": "die Hände müssen eine Liste sein",
        "nl": "de handen moeten een lijst zijn",
    },
    "entry_not_object": {
        "en": "the entry is not a JSON object",
        "de": "der Eintrag ist kein JSON-Objekt",
        "nl": "de invoer is geen JSON-object",
    },
    "unknown_key": {
        "en": "{what}: there is no such thing in {game}",
        "de": "{what}: so etwas gibt es bei {game} nicht",
        "nl": "{what}: dat bestaat niet bij {game}",
    },
    "missing_key": {
        "en": "nothing was entered for {what}",
        "de": "es fehlt: {what}",
        "nl": "er is niets ingevoerd voor {what}",
    },
    "not_a_mapping": {
        "en": "{what}: give a whole number for each player",
        "de": "{what}: bitte für jeden Spieler eine ganze Zahl angeben",
        "nl": "{what}: geef voor elke speler een geheel getal",
    },
    "not_a_number": {
        "en": "{player}: \"{value}\" is not a whole number",
        "de": "{player}: \"{value}\" ist keine ganze Zahl",
        "nl": "{player}: \"{value}\" is geen geheel getal",
    },
    "game_over": {
        "en": "the game is over, no more hands can be entered",
        "de": "das Spiel ist zu Ende, es können keine Hände mehr eingetragen werden",
        "nl": "het spel is afgelopen, er kunnen geen handen meer worden ingevoerd",
    },
}


def register_messages(messages: dict[str, dict[str, str]]) -> None:
    for code in messages:
        if code in MESSAGES:
            raise ValueError(f"message code {code!r} defined twice")
    MESSAGES.update(messages)


AND = {"en": "and", "de": "und", "nl": "en"}
OR = {"en": "or", "de": "oder", "nl": "of"}


def join(names: Sequence[Any], lang: str, word: Mapping[str, str] = AND) -> str:
    """A, B and C: names joined as players say them."""
    shown = [str(n) for n in names]
    if len(shown) < 2:
        return "".join(shown)
    return ", ".join(shown[:-1]) + f" {word.get(lang, word[DEFAULT_LANGUAGE])} " + shown[-1]


class _Formatter(string.Formatter):
    def __init__(self, lang: str) -> None:
        self.lang = lang

    def format_field(self, value: Any, format_spec: str) -> str:
        if isinstance(value, Mapping):
            value = value.get(self.lang) or value.get(DEFAULT_LANGUAGE, "")
        if format_spec.startswith("|"):
            one, many = format_spec[1:].split("|")
            return f"{value} {one if value == 1 else many}"
        if format_spec in ("and", "or"):
            return join(value, self.lang, AND if format_spec == "and" else OR)
        if "=" in format_spec:
            choices = dict(part.split("=", 1) for part in format_spec.split("|"))
            return choices.get(str(value), str(value))
        return str(super().format_field(value, format_spec))


def render(code: str, params: dict[str, Any], lang: str = DEFAULT_LANGUAGE) -> str:
    templates = MESSAGES[code]
    template = templates.get(lang) or templates[DEFAULT_LANGUAGE]
    return str(_Formatter(lang).format(template, **params))


# What the keys of an entry are, in players' words (for "there is no such thing" and the like).
KEY_WORDS: dict[str, dict[str, str]] = {
    "points": {"en": "points", "de": "Punkte", "nl": "punten"},
    "tricks": {"en": "tricks", "de": "Stiche", "nl": "slagen"},
    "hearts": {"en": "hearts", "de": "Herzen", "nl": "harten"},
    "playing": {"en": "who plays", "de": "wer mitspielt", "nl": "wie meespeelt"},
    "playoffs": {"en": "playoff deals", "de": "Stechen", "nl": "beslissingsrondes"},
    "all_tricks": {"en": "all tricks", "de": "alle Stiche", "nl": "alle slagen"},
    "queen": {"en": "the queen of spades", "de": "Pik-Dame", "nl": "schoppenvrouw"},
    "jack": {"en": "the jack of diamonds", "de": "Karo-Bube", "nl": "ruitenboer"},
    "king": {"en": "the king of spades", "de": "Pik-König", "nl": "schoppenheer"},
    "ace": {"en": "the ace of spades", "de": "Pik-Ass", "nl": "schoppenaas"},
    "moon": {"en": "a moon choice", "de": "Wahl beim Mond", "nl": "keuze bij de maan"},
    "renege": {"en": "who reneged", "de": "wer Farbe verleugnet hat", "nl": "wie verzaakte"},
    "table": {"en": "a table change", "de": "Tischwechsel", "nl": "tafelwissel"},
    "dealer": {"en": "the dealer", "de": "Geber", "nl": "gever"},
}


def key_words(key: Any) -> Mapping[str, str] | str:
    """A key of an entry as players say it; an unknown one as it was written."""
    return KEY_WORDS.get(key, f"\u201c{key}\u201d") if isinstance(key, str) else f"{key!r}"


def unknown_key(key: Any, game: Mapping[str, str]) -> RuleError:
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

    def message(self, lang: str = DEFAULT_LANGUAGE) -> str:
        """The message in players' words, with the entry number when it belongs to one."""
        text = render(self.code, self.params, lang)
        if self.entry is None:
            return text
        word = ENTRY_WORDS[self.entry_word].get(lang, self.entry_word)
        return f"{word} {self.entry}: {text}"

    def __str__(self) -> str:
        return self.message()


ENTRY_WORDS = {
    "hand": {"en": "hand", "de": "Hand", "nl": "hand"},
    "entry": {"en": "entry", "de": "Eintrag", "nl": "invoer"},
}
