"""Cego (Baden / Black Forest tarock): one entry per game (one deal), scored as rules/cego.md says.

The players play with real cards and enter, after each game, the contract, who played it and the
result; the engine writes the points. German words stay German: *Augen* are the card points
counted in the tricks, a *Fach* is a step of 5 Augen in the margin of a win or loss, *Räuber* is
the game played when nobody bids (the player with the most Augen loses), its *Ansager* (caller)
is the player who called it. The SM rules (Schwarzwaldmeisterschaft) are the defaults; every other
reading is a rule option.

Entries (the record's ``hands``)::

    {"contract": "cego",    "declarer": "B", "augen": 44}
    {"contract": "eine",    "declarer": "C", "defender_augen": 38}
    {"contract": "solo",    "declarer": "A", "augen": 52}
    {"contract": "ultimo",  "declarer": "C", "won": true}
    {"contract": "piccolo", "declarer": "D", "tricks": 2}
    {"contract": "bettel",  "declarer": "A", "won": true}
    {"contract": "raeuber", "announcer": "B", "augen": {"A": 25, "B": 25, "C": 18, "D": 11}}
    {"contract": "raeuber", "announcer": "C", "losers": ["B"]}
    {"contract": "halbe",   "declarer": "D", "forfeit": "D"}

- Fach games (Solo and the Cego bids of ``bid_multipliers``): ``declarer`` and the declarer's
  side's count ``augen`` or the defenders' ``defender_augen`` (both: they must add up to the
  deck's Augen).
- Ultimo and the local games of ``fixed_games``: ``won``. Piccolo and Bettel: ``won`` or the
  declarer's ``tricks`` (both: they must agree).
- Räuber: ``announcer`` and either ``augen`` for every player in the game (the most Augen lose)
  or ``losers``.
- ``forfeit`` (any contract): the player at fault (SM rule 4); the fault decides the game, so the
  entry carries no count, tricks, ``won`` or ``losers``.
With five players the dealer sits the game out (never entered, never declarer or caller) and pays
or receives as a defender.

Scoring: every game has a value V (Fach games: ``points_per_fach`` x Fach x multiplier, rounded
half-up to ``round_to``; fixed games their value; Räuber ``raeuber_value``, the caller
``raeuber_caller_factor`` times that). Each player's list entry (``declarer-only``) is +V or -V
for the declarer (-V for each Räuber loser), 0 for the others; under ``each-opponent`` (the
default) the declarer wins or loses V against every other player and each Räuber loser pays V to
every other player, so every game adds up to 0 and player p's points are
``n x list(p) - sum(list)``, n the players at the table.

Report (``summary()``): ``game``, ``hands_played`` (games entered), ``next_dealer``, ``dealer``
(both null once ``games`` are all played), ``deals_on``, ``sits_out`` (five players: who deals and
sits out the next game, else null), ``finished``, ``games`` and ``games_left`` (null for an
open-ended list), ``display`` and ``settlement`` (the options), ``augen_total``, ``augen_to_win``,
``tricks`` (tricks in a game), ``contracts`` (what the table plays, in precedence order, the
local fixed games after the Cego bids: name, ``title``, ``kind`` "fach" / "fixed" / "tricks" /
"raeuber", ``multiplier`` of a Cego bid or ``value`` of a fixed game and Räuber; Solo has
neither, its multipliers are options),
``last_game`` (the last game's contract, title, declarer, announcer, result, fach, value and
losers, or null) and ``players``: ``name``, ``score`` (as ``settlement`` says), ``list`` (the
declarer-only sum), ``balance_cents`` (``cents_per_point`` x the each-opponent score; under
declarer-only the same amounts, settled on the list's differences), and what the season's
records read: ``solos`` and ``solos_won``, ``ultimos`` and ``ultimos_won`` (declared, and won),
``best_game`` (the most points the player won in one game as its declarer, as ``settlement``
says; 0 for none) and ``best_game_hand`` (that game's number).

History rows (one per game): ``hand``, ``dealer``, ``sits_out``, ``contract``, ``title``,
``declarer``, ``announcer``, ``result`` ("won" / "lost"; null for Räuber), ``won``, ``fach``,
``value`` (V; Räuber: the most a loser paid, 0 when nobody lost), ``augen`` and
``defender_augen`` (null where not counted), ``tricks``, ``losers`` (Räuber: name -> V),
``forfeit``, ``points`` (name -> the game's points as ``settlement`` says), ``list`` (name -> the
list entry) and ``totals`` (name -> score after the game).

``Table.score(entry)`` says what an entry would write as the next game without writing it (the
entry form's preview); ``game_over()`` refuses a game after the last of ``games`` in the rules'
words ("this Durchgang is complete (24 games)").

A correction cannot re-type a later game: a game's meaning depends only on its own entry and on
its number (the dealer), which a correction does not change; so there is no `meaning_changed`.

Error codes (besides the generic ones of errors.py): ``cego.<code>`` for each refusal of
rules/cego.md, see MESSAGES.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from . import base, errors
from .base import Option
from .errors import N_, RuleError

NAME = "cego"
TITLE = N_("Cego")
MIN_PLAYERS = 3
MAX_PLAYERS = 5

# --- the pack and the count -------------------------------------------------------------------

# The 54 cards by their value: (what, how many, value). Every other card is a blank worth 1.
CARDS = (("Gstieß, Mond (21) and Geiß (1)", 3, 5), ("kings", 4, 5), ("queens", 4, 4),
         ("knights", 4, 3), ("jacks", 4, 2), ("blanks", 35, 1))
THREE_HANDED_OUT = 3  # blanks taken out for three players: Karo 4, Pik 7 and Kreuz 7
DEALS = {3: (13, 12), 4: (11, 10)}  # players in a game -> (cards each, cards in the Blinde)
GROUP = {"pairs": 2, "threes": 3}  # cards counted together
SITTING_OUT = 5  # with this many players the dealer sits out each game


def sits_out(n: int, dealer: int) -> int | None:
    """The seat that sits out the game `dealer` deals at a table of `n`: the dealer's with five
    players, else none."""
    return dealer if n == SITTING_OUT else None


def pack(in_game: int) -> list[int]:
    """The values of the cards dealt to `in_game` players (3 or 4)."""
    values = [value for _, count, value in CARDS for _ in range(count)]
    if in_game == 3:
        for _ in range(THREE_HANDED_OUT):
            values.remove(1)
    return values


@dataclass(frozen=True)
class Count:
    """What the Augen are with this many players in a game and this way of counting."""

    total: int  # Augen in the deck
    to_win: int  # the declarer's line
    least: int  # the fewest Augen of a side that took any cards (a trick of blanks)
    tricks: int  # tricks in a game (cards in each hand)
    in_game: int  # players in a game
    trick_cards: int  # cards in the tricks


def count(in_game: int, counting: str) -> Count:
    values = pack(in_game)
    group = GROUP[counting]
    total = sum(values) - len(values) // group * (group - 1)
    each, blinde = DEALS[in_game]
    assert in_game * each + blinde == len(values)
    return Count(total=total, to_win=total // 2 + 1, least=in_game // group, tricks=each,
                 in_game=in_game, trick_cards=in_game * each)


# --- contracts --------------------------------------------------------------------------------

FACH, FIXED, TRICKS, RAEUBER = "fach", "fixed", "tricks", "raeuber"
DEFAULT_BIDS = {"cego": 1, "halbe": 2, "eine": 3}  # SM rule 9 (Cego: DECISION)
OTHER_BIDS = ("leere", "verschiedene", "kleiner_mann", "grosser_mann")  # off until set
TRICKS_TO_WIN = {"piccolo": 1, "bettel": 0}
OWN_CONTRACTS = ("ultimo", "solo", "piccolo", "bettel", "raeuber")
# what the summary counts per player: Solos and Ultimos declared and won, the biggest game won
FEATS = ("solos", "solos_won", "ultimos", "ultimos_won", "best_game", "best_game_hand")
SPELLING = {"raeuber": "Räuber", "kleiner_mann": "kleiner Mann", "grosser_mann": "großer Mann"}


def title(contract: str) -> str:
    """A contract as the players write it (German in every language)."""
    return SPELLING.get(contract) or contract.replace("_", " ").capitalize()


SUMMARY = N_(
    "Black Forest tarock for 4 (3, or 5 with the dealer sitting out), scored by the rules of the "
    "Schwarzwaldmeisterschaft. After each game enter the contract, who played it and the result. "
    "Solo and the Cego bids are counted in Augen: the declarer needs 40 of 79, and every 5 Augen "
    "of the margin are a Fach worth 5 points, times the bid's multiplier (Halbe 2, Eine 3; Solo "
    "wins double), rounded to 10. Ultimo is worth 80, Piccolo 40, Bettel 30. In Räuber the "
    "player with the most Augen loses 40, the caller 80. The declarer wins or loses the value "
    "against each opponent.")

OPTIONS: tuple[Option, ...] = (
    Option("counting", "pairs", choices=("pairs", "threes"),
           help=N_("how the Augen are counted: two cards at a time (79, the declarer needs 40) "
                   "or three (70, the declarer needs 36)"),
           labels={"pairs": N_("in pairs"), "threes": N_("in threes")}),
    Option("settlement", "each-opponent", choices=("each-opponent", "declarer-only"),
           help=N_("who is written the points: the declarer against each opponent, or only the "
                   "declarer (a list)"),
           labels={"each-opponent": N_("the declarer against each opponent"),
                   "declarer-only": N_("only the declarer")}),
    Option("bid_multipliers", DEFAULT_BIDS, minimum=1, maximum=100,
           help=N_("the Cego bids played and what their Fach are multiplied by")),
    Option("fixed_games", {}, minimum=1, maximum=10_000,
           help=N_("local games with a fixed value, and their values")),
    Option("points_per_fach", 5, minimum=1, maximum=1000, help=N_("points for one Fach")),
    Option("fach_augen", 5, minimum=1, maximum=70, help=N_("Augen in one Fach")),
    Option("round_to", 10, minimum=1, maximum=1000,
           help=N_("a Fach game's value is rounded half-up to a multiple of this (1: not "
                   "rounded)")),
    Option("round_losses", True, help=N_("a lost Fach game's value is rounded too")),
    Option("solo_win_multiplier", 2, minimum=1, maximum=100,
           help=N_("what a won Solo's Fach are multiplied by")),
    Option("solo_loss_multiplier", 1, minimum=1, maximum=100,
           help=N_("what a lost Solo's Fach are multiplied by")),
    Option("solo_rounding", "once", choices=("once", "before-doubling"),
           help=N_("when a Solo's value is rounded"),
           labels={"once": N_("once, at the end"),
                   "before-doubling": N_("before it is doubled")}),
    Option("ultimo_value", 80, minimum=1, maximum=10_000, help=N_("points for Ultimo")),
    Option("piccolo_value", 40, minimum=1, maximum=10_000, help=N_("points for Piccolo")),
    Option("bettel_value", 30, minimum=1, maximum=10_000, help=N_("points for Bettel")),
    Option("raeuber_value", 40, minimum=1, maximum=10_000,
           help=N_("what the loser of Räuber loses")),
    Option("raeuber_caller_factor", 2, minimum=1, maximum=10,
           help=N_("the caller of Räuber loses this many times as much")),
    Option("raeuber_tie", "caller-loses", choices=("caller-loses", "all-lose"),
           help=N_("Räuber, when the caller shares the most Augen"),
           labels={"caller-loses": N_("only the caller loses"),
                   "all-lose": N_("every one of them loses")}),
    Option("raeuber_no_caller_tie", "all-lose", choices=("all-lose", "nobody-loses"),
           help=N_("Räuber, when players other than the caller share the most Augen"),
           labels={"all-lose": N_("every one of them loses"),
                   "nobody-loses": N_("nobody loses")}),
    Option("forfeit_fach", 1, minimum=1, maximum=16,
           help=N_("Fach of a Fach game lost through a fault")),
    Option("games", None, minimum=1, maximum=10_000,
           help=N_("games to play (24 for a Durchgang of the Schwarzwaldmeisterschaft); empty: "
                   "as many as you like")),
    Option("display", "plus-minus", choices=("plus-minus", "gute-miese"),
           help=N_("how the points are shown"),
           labels={"plus-minus": N_("plus and minus"), "gute-miese": N_("Gute and Miese")}),
    Option("cents_per_point", 0, minimum=0, maximum=10_000,
           help=N_("money: what one point is worth")),
)

# --- messages ---------------------------------------------------------------------------------

MESSAGES: dict[str, str] = {
    f"{NAME}.three_pairs": N_("with 3 players the cards are counted in threes"),
    f"{NAME}.contract_clash": N_("“{contract}” is already a contract of this game, it cannot be "
                                 "added again"),
    f"{NAME}.unknown_contract": N_("“{contract}” is not a contract in this game's rules"),
    f"{NAME}.no_multiplier": N_("“{contract}” has no multiplier in this game's rules"),
    f"{NAME}.not_played": N_("this table does not play {contract}"),
    f"{NAME}.no_declarer": N_("enter the declarer, who played {contract}"),
    f"{NAME}.no_caller": N_("enter who called Räuber"),
    f"{NAME}.not_playing": N_("{player} is not playing this game"),
    f"{NAME}.sits_out": N_("{player} deals this game and sits it out"),
    f"{NAME}.bad_caller": N_("the caller must be one of the players"),
    f"{NAME}.no_augen": N_("enter the declarer's Augen (0 to {total})"),
    f"{NAME}.not_whole": N_("{what}: “{value}” is not a whole number"),
    f"{NAME}.augen_negative": N_("{value} Augen is impossible, a count is never below 0"),
    f"{NAME}.augen_over": N_("{value} Augen is more than the {total} in the deck"),
    f"{NAME}.augen_low": N_("{value:|Auge|Augen} is impossible — cards taken are worth at "
                            "least {least}"),
    f"{NAME}.augen_impossible": N_("{value} Augen is impossible — {side:declarer=the "
                                   "declarer|defenders=the defenders} took at least one trick, "
                                   "worth at least {least}"),
    f"{NAME}.augen_sum": N_("{augen} + {defender_augen} = {got}, the two sides must add up to "
                            "{total}"),
    f"{NAME}.not_counted": N_("{contract} is not counted in Augen; say whether it was won"
                              "{tricks:yes= or how many tricks the declarer took|no=}"),
    f"{NAME}.no_result": N_("say whether {contract} was won{tricks:yes= or how many tricks the "
                            "declarer took|no=}"),
    f"{NAME}.tricks_range": N_("the declarer cannot take {value:|trick|tricks}: there are only "
                               "{tricks} tricks"),
    f"{NAME}.won_tricks": N_("{contract} with {tricks:|trick|tricks} is {won:yes=won, not "
                             "lost|no=lost, not won}"),
    f"{NAME}.raeuber_no_result": N_("enter the Augen of every player, or who lost"),
    f"{NAME}.augen_or_losers": N_("enter either the Augen of every player or who lost, not "
                                  "both"),
    f"{NAME}.raeuber_missing": N_("enter the Augen of every player ({player} is missing)"),
    f"{NAME}.raeuber_negative": N_("{player} cannot have {value} Augen, a count is never below "
                                   "0"),
    f"{NAME}.raeuber_low": N_("{player} cannot have {value:|Auge|Augen} — cards taken are "
                              "worth at least {least}"),
    f"{NAME}.raeuber_over": N_("the {count} counts add up to {got}, the deck holds {total}"),
    f"{NAME}.raeuber_under": N_("the {count} counts add up to {got}, but the {cards} cards in "
                                "the tricks alone count at least {least}"),
    f"{NAME}.bad_losers": N_("name the players who lost Räuber"),
    f"{NAME}.forfeit_only": N_("the player at fault decides the game: enter no {what}"),
    f"{NAME}.complete": N_("this Durchgang is complete ({games:|game|games})"),
}
errors.register_messages(MESSAGES)

errors.register_key_words({
    "contract": N_("the game played"),
    "declarer": N_("the declarer"),
    "announcer": N_("the caller"),
    "augen": N_("Augen"),
    "defender_augen": N_("the defenders' Augen"),
    "won": N_("won or lost"),
    "tricks": N_("tricks"),
    "losers": N_("who lost"),
    "forfeit": N_("the player at fault"),
})

_RESULT_KEYS = ("augen", "defender_augen", "won", "tricks", "losers")
_KEYS = {
    FACH: frozenset({"contract", "declarer", "augen", "defender_augen", "forfeit"}),
    FIXED: frozenset({"contract", "declarer", "won", "forfeit"}),
    TRICKS: frozenset({"contract", "declarer", "won", "tricks", "forfeit"}),
    RAEUBER: frozenset({"contract", "announcer", "augen", "losers", "forfeit"}),
}


def _shown(value: Any) -> str:
    """A value from an entry, for a message."""
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= 40 else text[:39] + "…"


# --- the history --------------------------------------------------------------------------------

Seats = tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Game(base.Row):
    """One game of the list; `spelled` writes it out (see the module docstring)."""

    dealer: int
    sits_out: int | None
    contract: str
    declarer: int | None
    announcer: int | None
    won: bool | None
    fach: int | None
    value: int
    augen: int | None  # the declarer's side's count
    defender_augen: int | None
    tricks: int | None
    losers: tuple[tuple[int, int], ...]  # Räuber: (seat, V)
    forfeit: int | None
    points: Seats  # the game's points as the settlement says
    written: Seats  # the list entries
    totals: Seats  # the scores after the game

    def spelled(self, players: Sequence[str], hand: int) -> dict[str, Any]:
        def name(seat: int | None) -> str | None:
            return None if seat is None else players[seat]

        return {
            "hand": hand, "dealer": players[self.dealer], "sits_out": name(self.sits_out),
            "contract": self.contract, "title": title(self.contract),
            "declarer": name(self.declarer), "announcer": name(self.announcer),
            "result": None if self.won is None else "won" if self.won else "lost",
            "won": self.won, "fach": self.fach, "value": self.value, "augen": self.augen,
            "defender_augen": self.defender_augen, "tricks": self.tricks,
            "losers": {players[seat]: value for seat, value in self.losers},
            "forfeit": name(self.forfeit),
            "points": dict(zip(players, self.points, strict=True)),
            "list": dict(zip(players, self.written, strict=True)),
            "totals": dict(zip(players, self.totals, strict=True)),
        }


# --- the table ----------------------------------------------------------------------------------

class Table(base.Table):
    """One list of Cego games at a table."""

    ENTRY_WORD = "hand"
    ENTRY_KEYS = frozenset(key for keys in _KEYS.values() for key in keys)
    SNAPSHOT = ("scores", "lists", "feats", "hands_played", "finished", "last_game")

    def __init__(self, players: Any, first_dealer: Any, rules: Any) -> None:
        super().__init__(players, first_dealer, rules)
        rules = self.rules
        self._n = n = len(self.players)
        if n == 3 and rules["counting"] == "pairs":
            raise RuleError(f"{NAME}.three_pairs", field="players")
        self._count = count(min(n, SITTING_OUT - 1), rules["counting"])
        self._index = {name: i for i, name in enumerate(self.players)}
        # contract -> (kind, multiplier or value), in precedence order
        contracts: dict[str, tuple[str, int | None]] = {
            "ultimo": (FIXED, rules["ultimo_value"]), "solo": (FACH, None),
            "piccolo": (TRICKS, rules["piccolo_value"]), "bettel": (TRICKS, rules["bettel_value"])}
        for option, kind in (("bid_multipliers", FACH), ("fixed_games", FIXED)):
            for contract, number in rules[option].items():
                if contract in contracts or contract in OWN_CONTRACTS:
                    raise RuleError(f"{NAME}.contract_clash", field=option, contract=contract)
                contracts[contract] = (kind, number)
        contracts["raeuber"] = (RAEUBER, rules["raeuber_value"])
        self._contracts = contracts
        self.scores = [0] * n  # each-opponent
        self.lists = [0] * n  # declarer-only
        self._list_only = rules["settlement"] == "declarer-only"
        self.feats = {key: [0] * n for key in FEATS}  # per seat, see _count_feats
        self.last_game: dict[str, Any] | None = None

    # --- entries --------------------------------------------------------------------------

    def _kind(self, entry: Mapping[str, Any]) -> str | None:
        contract = entry.get("contract")
        found = self._contracts.get(contract) if type(contract) is str else None
        return found[0] if found else None

    def entry_keys(self, entry: Mapping[str, Any]) -> frozenset[str]:
        """The keys of the entry's contract (every key while the contract is unknown)."""
        kind = self._kind(entry)
        return self.ENTRY_KEYS if kind is None else _KEYS[kind]

    def unknown_key(self, entry: Mapping[str, Any], key: Any) -> RuleError:
        """Augen entered for a game not counted in Augen say how it is entered."""
        kind = self._kind(entry)
        if key in ("augen", "defender_augen") and kind in (FIXED, TRICKS):
            return RuleError(f"{NAME}.not_counted", field=key, contract=title(entry["contract"]),
                             tricks="yes" if kind == TRICKS else "no")
        return errors.unknown_key(key, self.TITLE)

    def play_entry(self, entry: Mapping[str, Any]) -> Game:
        return self._commit(self._game(entry))

    def score(self, entry: Mapping[str, Any]) -> Game:
        """What `entry` would write as the next game, the table left as it is: its row without
        the totals, the points as ``settlement`` says (RuleError if the entry breaks a rule).
        The entry form says it before the game is saved."""
        game = self._game(entry)
        return dataclasses.replace(game, points=game.written) if self._list_only else game

    def game_over(self) -> RuleError:
        """The refusal of a game after the last of ``games`` (a Durchgang at the SM)."""
        games = self.rules["games"]
        return RuleError(f"{NAME}.complete", games=games) if games else RuleError("game_over")

    def _game(self, entry: Mapping[str, Any]) -> Game:
        """The entry's row (points each-opponent, totals empty), checked; nothing changes."""
        contract = self._contract(entry)
        kind, number = self._contracts[contract]
        n = self._n
        dealer = (self._first_dealer + self.hands_played) % n
        out = sits_out(n, dealer)
        forfeit = None
        if entry.get("forfeit") is not None:
            forfeit = self._seat(entry, "forfeit", out)
            for key in _RESULT_KEYS:
                if entry.get(key) is not None:
                    raise RuleError(f"{NAME}.forfeit_only", field=key,
                                    what=errors.key_words(key))
        if kind == RAEUBER:
            return self._raeuber(entry, dealer, out, forfeit)
        declarer = self._seat(entry, "declarer", out, contract)
        augen = tricks = fach = None
        if kind == FACH:
            if forfeit is not None:
                won, fach = forfeit != declarer, self.rules["forfeit_fach"]
            else:
                augen = self._augen(entry)
                won = augen >= self._count.to_win
                fach = self._fach(augen, won)
            value = self._fach_value(contract, won, fach)
        else:
            assert number is not None
            value = number
            if forfeit is not None:
                won = forfeit != declarer
            elif kind == TRICKS:
                won, tricks = self._tricks_result(entry, contract)
            else:
                won = self._won(entry, contract, tricks=False)
        written = [0] * n
        written[declarer] = value if won else -value
        points = [-written[declarer]] * n
        points[declarer] = written[declarer] * (n - 1)  # against each opponent
        defender_augen = None if augen is None else self._count.total - augen
        return Game(dealer, out, contract, declarer, None, won, fach, value, augen, defender_augen,
                    tricks, (), forfeit, tuple(points), tuple(written), ())

    def _contract(self, entry: Mapping[str, Any]) -> str:
        contract = entry.get("contract")
        if contract is None:
            raise errors.missing_key("contract")
        if type(contract) is str and contract in self._contracts:
            return contract
        if type(contract) is str and contract in DEFAULT_BIDS:
            raise RuleError(f"{NAME}.not_played", field="contract", contract=title(contract))
        if type(contract) is str and contract in OTHER_BIDS:
            raise RuleError(f"{NAME}.no_multiplier", field="contract", contract=contract)
        raise RuleError(f"{NAME}.unknown_contract", field="contract", contract=_shown(contract))

    def _seat(self, entry: Mapping[str, Any], key: str, out: int | None,
              contract: str = "") -> int:
        """The seat of the player named in `entry[key]`, who must play this game."""
        name = entry.get(key)
        if name is None:
            if key == "announcer":
                raise RuleError(f"{NAME}.no_caller", field=key)
            raise RuleError(f"{NAME}.no_declarer", field=key, contract=title(contract))
        return self._player(name, key, out)

    def _player(self, name: Any, key: str, out: int | None) -> int:
        seat = self._index.get(name) if type(name) is str else None
        if seat is None:
            if key == "announcer":
                raise RuleError(f"{NAME}.bad_caller", field=key, player=_shown(name))
            raise RuleError(f"{NAME}.not_playing", field=key, player=_shown(name))
        if seat == out:
            raise RuleError(f"{NAME}.sits_out", field=key, player=name)
        return seat

    def _whole(self, value: Any, key: str, field: str) -> int:
        if type(value) is int:
            return value
        if isinstance(value, float) and value.is_integer():
            return int(value)
        raise RuleError(f"{NAME}.not_whole", field=field, what=errors.key_words(key),
                        value=_shown(value))

    # Fach games

    def _augen(self, entry: Mapping[str, Any]) -> int:
        """The declarer's side's count, from `augen` or `defender_augen` or both."""
        total = self._count.total
        mine = self._side(entry, "augen", "defenders")
        theirs = self._side(entry, "defender_augen", "declarer")
        if mine is None and theirs is None:
            raise RuleError(f"{NAME}.no_augen", field="augen", total=total)
        if mine is not None and theirs is not None and mine + theirs != total:
            raise RuleError(f"{NAME}.augen_sum", field="defender_augen", augen=mine,
                            defender_augen=theirs, got=mine + theirs, total=total)
        return mine if mine is not None else total - theirs  # type: ignore[operator]

    def _side(self, entry: Mapping[str, Any], key: str, other: str) -> int | None:
        """One side's count, checked; `other` names the other side."""
        if entry.get(key) is None:
            return None
        value = self._whole(entry[key], key, key)
        c = self._count
        if value < 0:
            raise RuleError(f"{NAME}.augen_negative", field=key, value=value)
        if value > c.total:
            raise RuleError(f"{NAME}.augen_over", field=key, value=value, total=c.total)
        if 0 < value < c.least:
            raise RuleError(f"{NAME}.augen_low", field=key, value=value, least=c.least)
        if 0 < c.total - value < c.least:
            raise RuleError(f"{NAME}.augen_impossible", field=key, value=value, side=other,
                            least=c.least)
        return value

    def _fach(self, augen: int, won: bool) -> int:
        """The Fach of the margin: steps of `fach_augen` from the line (won) or below it."""
        line = self._count.to_win
        margin = augen - line if won else line - 1 - augen
        width: int = self.rules["fach_augen"]
        return margin // width + 1

    def _fach_value(self, contract: str, won: bool, fach: int) -> int:
        rules = self.rules
        raw: int = rules["points_per_fach"] * fach
        factor: int | None = self._contracts[contract][1]
        if factor is not None:  # a Cego bid
            return self._rounded(raw * factor, won)
        factor = rules["solo_win_multiplier"] if won else rules["solo_loss_multiplier"]
        if rules["solo_rounding"] == "before-doubling":
            return self._rounded(raw, won) * factor
        return self._rounded(raw * factor, won)

    def _rounded(self, raw: int, won: bool) -> int:
        """Half-up to a multiple of `round_to` (a loss only with `round_losses`)."""
        unit: int = self.rules["round_to"]
        if not won and not self.rules["round_losses"]:
            return raw
        return (2 * raw + unit) // (2 * unit) * unit

    # fixed games

    def _won(self, entry: Mapping[str, Any], contract: str, tricks: bool) -> bool:
        won = entry.get("won")
        if type(won) is not bool:
            raise RuleError(f"{NAME}.no_result", field="won", contract=title(contract),
                            tricks="yes" if tricks else "no")
        return won

    def _tricks_result(self, entry: Mapping[str, Any], contract: str) -> tuple[bool, int | None]:
        """Piccolo and Bettel: won or lost, from `won` or `tricks` (both must agree)."""
        if entry.get("tricks") is None:
            return self._won(entry, contract, tricks=True), None
        tricks = self._whole(entry["tricks"], "tricks", "tricks")
        if not 0 <= tricks <= self._count.tricks:
            raise RuleError(f"{NAME}.tricks_range", field="tricks", value=tricks,
                            tricks=self._count.tricks)
        won = tricks == TRICKS_TO_WIN[contract]
        if entry.get("won") is not None and self._won(entry, contract, tricks=True) != won:
            raise RuleError(f"{NAME}.won_tricks", field="won", contract=title(contract),
                            tricks=tricks, won="yes" if won else "no")
        return won, tricks

    # Räuber

    def _raeuber(self, entry: Mapping[str, Any], dealer: int, out: int | None,
                 forfeit: int | None) -> Game:
        announcer = self._seat(entry, "announcer", out)
        counts: tuple[int, ...] | None = None
        if forfeit is not None:
            losers = [forfeit]
        else:
            has_augen, has_losers = (entry.get(k) is not None for k in ("augen", "losers"))
            if has_augen and has_losers:
                raise RuleError(f"{NAME}.augen_or_losers", field="losers")
            if has_augen:
                counts = self._raeuber_counts(entry["augen"], out)
                losers = self._most(counts, announcer)
            elif has_losers:
                losers = self._losers(entry["losers"], out)
            else:
                raise RuleError(f"{NAME}.raeuber_no_result", field="augen")
        value = self.rules["raeuber_value"]
        lost = tuple((seat, value * (self.rules["raeuber_caller_factor"]
                                     if seat == announcer else 1)) for seat in losers)
        n = self._n
        written = [0] * n
        points = [0] * n
        for seat, paid in lost:  # each loser pays every other player
            written[seat] -= paid
            for other in range(n):
                points[other] += paid
            points[seat] -= paid * n
        top = max((paid for _, paid in lost), default=0)
        return Game(dealer, out, "raeuber", None, announcer, None, None, top, None, None, None,
                    lost, forfeit, tuple(points), tuple(written), ())

    def _raeuber_counts(self, raw: Any, out: int | None) -> tuple[int, ...]:
        """Every player's Augen in the game (the one sitting out: 0), checked."""
        if not isinstance(raw, Mapping):
            raise errors.not_a_mapping("augen")
        c = self._count
        counts = [0] * self._n
        given = set()
        for name, value in raw.items():
            seat = self._index.get(name) if type(name) is str else None
            if seat is None:
                raise RuleError(f"{NAME}.not_playing", field=str(name), player=_shown(name))
            if seat == out:
                raise RuleError(f"{NAME}.sits_out", field=name, player=name)
            augen = self._whole(value, "augen", name)
            if augen < 0:
                raise RuleError(f"{NAME}.raeuber_negative", field=name, player=name, value=augen)
            if 0 < augen < c.least:
                raise RuleError(f"{NAME}.raeuber_low", field=name, player=name, value=augen,
                                least=c.least)
            counts[seat] = augen
            given.add(seat)
        for seat, name in enumerate(self.players):
            if seat != out and seat not in given:
                raise RuleError(f"{NAME}.raeuber_missing", field=name, player=name)
        got = sum(counts)
        if got > c.total:
            raise RuleError(f"{NAME}.raeuber_over", field="augen", count=c.in_game, got=got,
                            total=c.total)
        least = c.trick_cards // GROUP[self.rules["counting"]]
        if got < least:
            raise RuleError(f"{NAME}.raeuber_under", field="augen", count=c.in_game, got=got,
                            cards=c.trick_cards, least=least)
        return tuple(counts)

    def _most(self, counts: tuple[int, ...], announcer: int) -> list[int]:
        """Who loses Räuber: the most Augen; ties as the rules say."""
        top = max(counts)
        tied = [seat for seat, augen in enumerate(counts) if augen == top]
        if announcer in tied:
            return [announcer] if self.rules["raeuber_tie"] == "caller-loses" else tied
        if len(tied) > 1 and self.rules["raeuber_no_caller_tie"] == "nobody-loses":
            return []
        return tied

    def _losers(self, raw: Any, out: int | None) -> list[int]:
        if type(raw) is not list or not raw:
            raise RuleError(f"{NAME}.bad_losers", field="losers")
        seats: list[int] = []
        for name in raw:
            seat = self._player(name, "losers", out)
            if seat in seats:
                raise RuleError("duplicate_player", field="losers", player=name)
            seats.append(seat)
        return sorted(seats)

    # the game's points

    def _commit(self, game: Game) -> Game:
        if sum(game.points):
            raise AssertionError(f"game {self.hands_played + 1} does not add up to 0")
        for seat in range(self._n):
            self.scores[seat] += game.points[seat]
            self.lists[seat] += game.written[seat]
        list_only = self._list_only
        totals = tuple(self.lists if list_only else self.scores)
        game = dataclasses.replace(game, points=game.written if list_only else game.points,
                                   totals=totals)
        self.hands_played += 1
        self._count_feats(game)
        games = self.rules["games"]
        self.finished = games is not None and self.hands_played >= games
        players = self.players
        self.last_game = {
            "contract": game.contract, "title": title(game.contract),
            "declarer": None if game.declarer is None else players[game.declarer],
            "announcer": None if game.announcer is None else players[game.announcer],
            "result": None if game.won is None else "won" if game.won else "lost",
            "fach": game.fach, "value": game.value,
            "losers": [players[seat] for seat, _ in game.losers]}
        return game

    def _count_feats(self, game: Game) -> None:
        """The declarer's Solos and Ultimos, played and won, and the most points a player won
        in one game as its declarer (as ``settlement`` says) with that game's number."""
        seat, feats = game.declarer, self.feats
        if seat is None:
            return
        for contract, played, won in (("solo", "solos", "solos_won"),
                                      ("ultimo", "ultimos", "ultimos_won")):
            if game.contract == contract:
                feats[played][seat] += 1
                feats[won][seat] += int(bool(game.won))
        if game.won and game.points[seat] > feats["best_game"][seat]:
            feats["best_game"][seat] = game.points[seat]
            feats["best_game_hand"][seat] = self.hands_played

    @classmethod
    def ended(cls, summary: Mapping[str, Any], rules: Mapping[str, Any]) -> dict[str, Any]:
        """Ended early, the money stands as it is; nobody deals or sits out any more."""
        return {**super().ended(summary, rules), "sits_out": None}

    @classmethod
    def renamed(cls, entry: Mapping[str, Any], old: str, new: str) -> dict[str, Any]:
        """The contract is never a name, even where a player is called "solo"."""
        renamed = super().renamed({k: v for k, v in entry.items() if k != "contract"}, old, new)
        return {**renamed, **({"contract": entry["contract"]} if "contract" in entry else {})}

    # --- report ---------------------------------------------------------------------------

    def balances(self) -> list[int]:
        """Money per player in cents: the each-opponent score, or the list's differences."""
        cents = self.rules["cents_per_point"]
        if self.rules["settlement"] == "declarer-only":
            n, total = self._n, sum(self.lists)
            return [cents * (n * written - total) for written in self.lists]
        return [cents * score for score in self.scores]

    def summary(self) -> dict[str, Any]:
        """The report without the history."""
        names = self.players
        n = self._n
        deals_on = (self._first_dealer + self.hands_played) % n
        dealer = None if self.finished else names[deals_on]
        games = self.rules["games"]
        c = self._count
        scores = self.lists if self.rules["settlement"] == "declarer-only" else self.scores
        return {
            "game": NAME,
            "hands_played": self.hands_played,
            "next_dealer": dealer,
            "dealer": dealer,
            "deals_on": names[deals_on],
            "sits_out": dealer if sits_out(n, deals_on) is not None else None,
            "finished": self.finished,
            "games": games,
            "games_left": None if games is None else games - self.hands_played,
            "display": self.rules["display"],
            "settlement": self.rules["settlement"],
            "augen_total": c.total,
            "augen_to_win": c.to_win,
            "tricks": c.tricks,
            "contracts": [{"contract": contract, "title": title(contract), "kind": kind,
                           "multiplier": number if kind == FACH else None,
                           "value": None if kind == FACH else number}
                          for contract, (kind, number) in self._contracts.items()],
            "last_game": self.last_game,
            "players": [{"name": name, "score": score, "list": written, "balance_cents": money,
                         **{key: self.feats[key][seat] for key in FEATS}}
                        for seat, (name, score, written, money) in enumerate(zip(
                            names, scores, self.lists, self.balances(), strict=True))],
        }
