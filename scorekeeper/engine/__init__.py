"""The scoring engines: cards, rules and replay. Pure Python; no web or database imports."""

from . import base, cards, errors
from .errors import RuleError
from .games import all_games, get
from .play import apply, history, report, restore, snapshot
from .record import FORMAT, load, replay

all_games()  # every game registers its messages and the words for its keys as it is imported

__all__ = ["FORMAT", "RuleError", "all_games", "apply", "base", "cards", "errors", "get", "history",
           "load", "replay", "report", "restore", "snapshot"]
