"""What the web app asks of a game: one adapter per game, next to its engine module.

An adapter owns everything of its game that the shared views, templates and standings must not
know: the entry forms (built per state, and filled again from a stored entry for an edit), the
template parts the shared pages include, the standings figures, the money and the extras of a
new game or of closing one. The views only ever call the methods below, and pass in what a
method needs: an adapter reads no database and calls no shared module above it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from types import ModuleType
from typing import Any, ClassVar

from flask_babel import gettext
from flask_babel import lazy_gettext as _l

from scorekeeper.engine import RuleError, base
from scorekeeper.games.forms import GameForm
from scorekeeper.i18n import localized

# The template parts the shared pages include from a game's folder (``games/<name>/<part>``,
# `Adapter.template`), besides one per entry form kind (`Adapter.FORMS`): every game has these,
REQUIRED_PARTS = ("state", "describe", "effect", "standings", "result", "ending")
# and these it may leave out, when the shared page shows the default instead.
OPTIONAL_PARTS = {"more": "games/parts/empty.html", "changes": "games/parts/changes.html",
                  "details": "games/parts/empty.html", "seating": "games/parts/empty.html",
                  "player": "games/parts/empty.html", "style": "games/parts/empty.html",
                  "head": "games/parts/empty.html"}
FILE_NAMES = {"style": "style.css"}  # a part's file, where it is not <part>.html


@dataclass(frozen=True)
class Record:
    """A record of the season's chronicle, read from the figures a game stores per player
    (`Adapter.figures`; ``money_cents`` is the player's money from the game).

    `season`: the most of the figure added up over the season (moons shot); else the most (or,
    with `fewest`, the fewest) in one game. `hand`: the figure holding the number of the hand
    it happened in (for a count, the latest), linked on the game's history page. `only`: a
    figure that must be set for a game to count (played to its end). Only a value above 0
    counts for the most; `money`: the value is cents."""

    figure: str
    label: Any
    season: bool = False
    fewest: bool = False
    hand: str | None = None
    only: str | None = None
    money: bool = False


@dataclass(frozen=True)
class Sayings:
    """The table the entry form's sentence above Save is looked up in (`Adapter.sayings`):
    `text` as JSON, `version` a digest of it (the address's last part: a phone keeps it)."""

    text: str
    version: str


class Roster:
    """The group's players, for an entry form that may seat somebody: those still playing
    (`active`, by name) and every name the group has used (archived players too). Given
    `read` (which returns both), they are read when a form first asks: most forms never do."""

    def __init__(self, active: Sequence[str] = (), everyone: Sequence[str] = (),
                 read: Callable[[], tuple[Sequence[str], Sequence[str]]] | None = None) -> None:
        self._names = None if read else (tuple(active), tuple(everyone))
        self._read = read

    @classmethod
    def of(cls, group: Any) -> Roster:
        """The players of `group` (a stored group: its `players`, each with `name` and
        `archived`), read when a form first asks."""
        return cls(read=lambda: ([p.name for p in group.players if not p.archived],
                                 [p.name for p in group.players]))

    def _loaded(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        if self._names is None:
            active, everyone = self._read()  # type: ignore[misc]
            self._names = (tuple(active), tuple(everyone))
        return self._names

    @property
    def names(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """Both: `active` and `everyone`."""
        return self._loaded()

    @property
    def read_yet(self) -> bool:
        """Whether the names were read (by a form, or by `names`): they are not read again."""
        return self._names is not None

    @property
    def active(self) -> tuple[str, ...]:
        return self._loaded()[0]

    @property
    def everyone(self) -> tuple[str, ...]:
        return self._loaded()[1]

    def spelled(self, name: str) -> str:
        """The group's spelling of `name` ("anna" is Anna), or `name` for somebody new."""
        key = name.strip().casefold()
        return next((known for known in self.everyone if known.casefold() == key), name)


class Adapter:
    """The web side of one game; subclasses fill in the class attributes and override what their
    game does differently."""

    engine: ModuleType  # the game's engine module
    FORMS: ClassVar[dict[str, type[GameForm]]]  # the entry forms by kind (see form_kind)
    # the template parts the game has: every one of REQUIRED_PARTS, and those of OPTIONAL_PARTS
    # it does not leave to the shared default (the forms' parts are FORMS)
    PARTS: ClassVar[frozenset[str]]
    # for a game that lives outside the app: the folders holding its templates (games/<name>/)
    # and its rules document (rules/<name>.md), instead of the app's templates/ and docs/
    TEMPLATES: ClassVar[str | None] = None
    DOCS: ClassVar[str | None] = None
    SEATING_HINT: ClassVar[Any] = _l("Who plays? Tap in seating order.")
    FIGURES: ClassVar[tuple[str, ...]] = ()  # what the standings add up per player
    BEST: ClassVar[frozenset[str]] = frozenset()  # figures the standings take the most of
    # figures that say where something happened (a hand's number): kept, never added up
    WHERE: ClassVar[frozenset[str]] = frozenset()
    # who pays whom in the game, as head to head says it (see `transfers`)
    PAYS: ClassVar[Any] = _l("the losers to the winners, in proportion to what each won")
    # the season chronicle's records of the game (see Record): every game has the first
    RECORDS: ClassVar[tuple[Record, ...]] = (
        Record("money_cents", _l("Most won in one game"), money=True),)
    EFFECT_KEY: ClassVar[str] = ""  # the key of a history row that says what it did to each player
    # what of a history row says how the entry scored: a correction's preview lists the later
    # entries where it differs (empty: the whole row)
    SCORED_BY: ClassVar[tuple[str, ...]] = ()
    # entry forms seldom used (a table change): the table page shows them folded, and loads one
    # only when it is opened (see `forms`)
    FOLDED: ClassVar[frozenset[str]] = frozenset()
    # rule options a new game takes over from the group's last game (`new_game_rules`)
    CARRIED_RULES: ClassVar[frozenset[str]] = frozenset()
    # at a tournament night (tables of four, `tournament/`): the rule option that sets how many
    # games a table plays in a Durchgang ("": a table plays one game to its end); None: the
    # game is not played at tournaments
    TOURNAMENT_GAMES: ClassVar[str | None] = None

    @property
    def name(self) -> str:
        return str(self.engine.NAME)

    @property
    def title(self) -> str:
        return str(self.engine.TITLE)

    def own_name(self, rules: Mapping[str, Any]) -> str:
        """The name the group gave a game of this kind in its `rules` (a free list's "Skat"), or
        "" for a game known by its title. The pages show it instead of the title, and the
        standings, ratings and season keep each name apart (`games.section`)."""
        return ""

    def title_of(self, rules: Mapping[str, Any]) -> str:
        """What the pages call a game played by `rules`: its own name, else its title in the
        user's language."""
        return self.own_name(rules) or localized(self.title)

    def template(self, part: str) -> str:
        """The template of one of the game's parts: its own, or the shared default of an
        optional part it leaves out."""
        if part in self.PARTS or part in self.FORMS:
            return f"games/{self.name}/{FILE_NAMES.get(part, part + '.html')}"
        if part in OPTIONAL_PARTS:
            return OPTIONAL_PARTS[part]
        raise LookupError(f"the game {self.name!r} declares no template part {part!r}: add it "
                          "to the adapter's PARTS (and its file to the game's templates)")

    def missing_parts(self) -> list[str]:
        """The parts every game must have that this one does not declare."""
        return [part for part in REQUIRED_PARTS if part not in self.PARTS]

    def rules(self, rules: Mapping[str, Any]) -> dict[str, Any]:
        """All of a game's rule options, the defaults filled in (as stored, unchecked, for a
        game kept from before an upgrade whose rules the engine now refuses)."""
        return base.as_stored(self.engine.OPTIONS, rules)

    # --- entries -------------------------------------------------------------------------------

    def form_kind(self, values: Mapping[str, Any]) -> str:
        """Which of the game's entry forms posted `values` or shows a stored entry: ``hand``, or
        another of its FORMS."""
        return "hand"

    def forms(self, state: Mapping[str, Any], rules: Mapping[str, Any], roster: Roster,
              kind: str = "hand", formdata: Any = None, data: Mapping[str, Any] | None = None,
              error: RuleError | None = None, fold: bool = False
              ) -> dict[str, GameForm | None]:
        """The entry forms the table page shows, by kind; the one of `kind` holds `formdata`
        (posted) or `data` (a stored entry), the others are empty. With `fold`, those of FOLDED
        (but `kind`'s) are None: the page shows them folded and loads one when it is opened."""
        return {kind: self.form(kind, state, rules, roster, formdata, data, error)}

    def form(self, kind: str, state: Mapping[str, Any], rules: Mapping[str, Any], roster: Roster,
             formdata: Any = None, data: Mapping[str, Any] | None = None,
             error: RuleError | None = None) -> GameForm:
        """The entry form of `kind` for the game in `state`, played by `rules` (all options)."""
        raise NotImplementedError

    def fill(self, kind: str, entry: Mapping[str, Any], before: Mapping[str, Any]
             ) -> dict[str, Any]:
        """The data of the `kind` form that shows a stored entry again (for an edit)."""
        return self.FORMS[kind].fill(entry, before)

    def keep(self, values: Mapping[str, Any]) -> dict[str, str]:
        """What the next entry form keeps of the one just saved (`values`, as posted): the table
        page's query arguments, read by the game's form template. Nothing by default."""
        return {}

    def entry_name(self, seq: int, effect: Mapping[str, Any] | None) -> str:
        """Entry `seq` as the history and the table call it ("Hand 2"), from what it did."""
        hand = (effect or {}).get("hand")
        return gettext("Hand %(n)s", n=hand) if hand is not None else gettext("Entry %(n)s", n=seq)

    def is_hand(self, values: Mapping[str, Any]) -> bool:
        """Whether an entry (its data, or its form as posted) is a hand the table counts; every
        entry is, by default."""
        return True

    def entry_name_of(self, values: Mapping[str, Any], hand: int) -> str:
        """What the table calls an entry of which only what was entered is known (undone since,
        or sent too late), `hand` the number it has if it is a hand: as `entry_name` does."""
        return gettext("Hand %(n)s", n=hand)

    def reopening(self, later: int | None) -> str:
        """What a correction's preview says when the correction makes a finished game go on;
        `later`: the id of the next game at the same table when that has begun."""
        if later is None:
            return gettext("This correction reopens the finished game: it is no longer over.")
        return gettext("This correction reopens the finished game, although the next game at "
                       "this table (#%(n)s) has already begun: both would be running.", n=later)

    def changed(self, before: Mapping[str, Any], after: Mapping[str, Any]) -> bool:
        """Whether an entry scores differently after a correction (its history rows)."""
        keys = self.SCORED_BY or {*before, *after}
        return any(before.get(key) != after.get(key) for key in keys)

    # --- the table page, a new game, closing ------------------------------------------------

    def table_context(self, game: Any, state: Mapping[str, Any]) -> dict[str, Any]:
        """What the game's own table templates need besides the state."""
        return {}

    def sayings(self, players: Sequence[str], dealer: str, rules: Mapping[str, Any]
                ) -> Sayings | None:
        """What the entry form's sentence above Save is looked up in when `dealer` deals, as
        JSON with its version (the phone asks for it once, at `games.says`, and keeps it); None:
        the game's form says nothing before Save."""
        return None

    def says(self, state: Mapping[str, Any], rules: Mapping[str, Any]) -> str | None:
        """The version of what the next entry would write (`sayings`): the last part of the
        address the form asks for it at; None when nobody deals (no game to say anything of)
        or the game's form says nothing."""
        if state.get("dealer") is None:
            return None
        said = self.sayings([p["name"] for p in state["players"]], state["dealer"], rules)
        return None if said is None else said.version

    def sayings_at(self, players: Sequence[str], now: str | None, rules: Mapping[str, Any],
                   version: str) -> Sayings | None:
        """The sayings of the version a form names, for whichever of `players` deals, `now`
        (who deals now, whose the page has just worked out) tried first: one version for every
        dealer where who deals changes nothing; None: none has it (an address from before an
        update of the app)."""
        for dealer in sorted(players, key=lambda name: name != now):
            said = self.sayings(players, dealer, rules)
            if said is None or said.version == version:
                return said
        return None

    def next_game(self, game: Any) -> tuple[list[str], str | None]:
        """The seating and the first dealer of the next game at the same table (the deal passes
        on): who would deal next in `game`, also when it was ended at closing time (`deals_on`);
        None: the game's first dealer again."""
        state = game.state
        return list(game.seating), state.get("next_dealer") or state.get("deals_on")

    def new_game_rules(self, last: Any) -> dict[str, Any]:
        """Rule values a new game starts with, besides the previous game's; `last` is the
        group's latest game of this kind (None for none)."""
        return {}

    def suggestions(self, last: Any) -> dict[str, list[str]]:
        """Values the new-game page offers for a game's text options (the usual names of a
        game), by option; `last` as above."""
        return {}

    def check_new_game(self, last: Any, rules: Mapping[str, Any]) -> dict[str, str]:
        """What is wrong with these rules for a new game, by option; `last` as above."""
        return {}

    def closing(self, state: Mapping[str, Any]) -> dict[str, Any]:
        """What ending the game now does besides what its engine's `ended` says (nothing by
        default); RuleError when it cannot be ended now."""
        return {}

    # --- money and standings ------------------------------------------------------------------

    def money(self, game: Any) -> tuple[dict[str, int], int]:
        """Each player's money from a game in cents, and what the group's cash box gains."""
        return {p["name"]: p["balance_cents"] for p in game.state["players"]}, 0

    def figures(self, game: Any, player: Mapping[str, Any]) -> dict[str, int]:
        """One player's standings figures from a game (its summary's row of the player)."""
        raise NotImplementedError

    def tournament_score(self, player: Mapping[str, Any]) -> int:
        """A player's points from a table's Durchgang at a tournament (a player of the game's
        summary), as the tournament's ranking adds them up: the score, by default."""
        return int(player["score"])

    def lowest_wins(self, rules: Mapping[str, Any]) -> bool:
        """Whether the fewest points are best, in a tournament's ranking (not by default)."""
        return False

    def ranking_key(self, figures: Mapping[str, int], money_cents: int) -> tuple[int, ...]:
        """How one player's result in a game (the standings figures and money of a `Result`)
        compares with the others' when the game is read as a ranking (the ratings, head to
        head): a larger key finished ahead, equal keys tie. By money won, by default."""
        return (money_cents,)

    def transfers(self, results: Mapping[str, tuple[Mapping[str, int], int]]
                  ) -> list[tuple[str, str, Fraction]]:
        """Who paid whom how much in one ended game, as (payer, payee, cents), from each party's
        result (name -> (standings figures, money in cents); the Kasse, names.KASSE, is a party
        where the game put money into it or took some out): what head to head shows
        (docs/standings.md). Each party's payments, received less paid, add up to its money.
        By default the losers pay the winners: each loss is shared out among the winners in
        proportion to what each won (in a game with one winner, or one loser, just what
        changes hands). A game whose rules say who pays whom says so instead."""
        won = sum(cents for _figures, cents in results.values() if cents > 0)
        return [(loser, winner, Fraction(-lost * gained, won))
                for loser, (_f, lost) in results.items() if lost < 0
                for winner, (_g, gained) in results.items() if gained > 0]

    def standings(self, rows: list[dict[str, Any]]) -> dict[str, Any]:
        """The game's section of the standings from the summed rows (one per player, with
        ``player``, ``played``, ``money_cents`` and the FIGURES): what its template shows."""
        return {"rows": sorted(rows, key=lambda r: (-r["money_cents"], r["player"]))}

    def player_section(self, history: list[Any], args: Mapping[str, str],
                       load: Callable[[int], tuple[Any, list[dict[str, Any]]]]
                       ) -> dict[str, Any] | None:
        """The game's part of a player's page (its ``player`` part), from the player's (result,
        evening) rows, oldest first; `load(game_id)` gives one of the group's games with what
        each of its entries did. None for no section."""
        return None
