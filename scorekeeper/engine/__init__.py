"""The scoring engines: cards, rules and replay. Pure Python; no web or database imports."""

from . import cards, errors, options
from .errors import RuleError
from .games import all_games, get
from .record import FORMAT, load, replay

all_games()  # every game registers its messages and the words for its keys as it is imported

__all__ = ["FORMAT", "RuleError", "all_games", "cards", "errors", "get", "load", "options",
           "replay"]
