"""Rule errors: an error code with parameters, and the words players read, in their language.

The engine raises `RuleError(code, field=..., **params)`; the web layer uses `field` to put the
message next to the right input, the CLI prints `message()`. Each game module contributes its
own codes through a `MESSAGES` mapping, merged here by `register_messages`.
"""

from __future__ import annotations

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
        "en": "the rule option \"{option}\" cannot be {value}: {allowed}",
        "de": "die Regel \"{option}\" kann nicht {value} sein",
        "nl": "de regeloptie \"{option}\" kan niet {value} zijn",
    },
    "bad_players": {
        "en": "players must be a list of names",
        "de": "die Spieler müssen eine Liste von Namen sein",
        "nl": "de spelers moeten een lijst met namen zijn",
    },
    "player_count": {
        "en": "this game needs {low} to {high} players, there are {count}",
        "de": "dieses Spiel braucht {low} bis {high} Spieler, es sind {count}",
        "nl": "dit spel heeft {low} tot {high} spelers nodig, er zijn er {count}",
    },
    "player_count_exact": {
        "en": "this game needs {low} players, there are {count}",
        "de": "dieses Spiel braucht {low} Spieler, es sind {count}",
        "nl": "dit spel heeft {low} spelers nodig, er zijn er {count}",
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
        "en": "\"{key}\" does not belong in this entry",
        "de": "\"{key}\" gehört nicht in diesen Eintrag",
        "nl": "\"{key}\" hoort niet in deze invoer",
    },
    "missing_key": {
        "en": "\"{key}\" is missing",
        "de": "\"{key}\" fehlt",
        "nl": "\"{key}\" ontbreekt",
    },
    "not_a_mapping": {
        "en": "\"{key}\" must map player names to numbers",
        "de": "\"{key}\" muss Spielernamen Zahlen zuordnen",
        "nl": "\"{key}\" moet spelersnamen aan getallen koppelen",
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


def render(code: str, params: dict[str, Any], lang: str = DEFAULT_LANGUAGE) -> str:
    templates = MESSAGES[code]
    template = templates.get(lang) or templates[DEFAULT_LANGUAGE]
    return template.format(**params)


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
