"""Vier-Anderle: the pot, the two hand types and who pays what (rules/vier-anderle.md).

The players enter, per hand, who played and how many tricks each took; between hands they may
change who sits at the table. All arithmetic is in whole stakes; `stake_cents` only turns stakes
into money for display.

Entries (the record's ``hands`` list; table changes are entries too, so errors say "entry 7"):

- ``{"tricks": {"A": 2, "B": 1, "C": 1}}`` -- a hand in which everybody at the table played
  (always so in a type-1 hand). Players left out took no trick; naming a player who is not at
  the table or did not play is an error, even with 0 tricks.
- ``{"playing": ["B", "C", "D", "E"], "tricks": {"C": 1, "D": 3}}`` -- a type-2 hand: who played,
  then their tricks. ``"playing": []`` means nobody played (``tricks`` may then be left out); with a
  single player ``tricks`` may be left out too (they take all the tricks). In a type-1 hand
  ``playing`` may only be left out or name everybody at the table.
- ``{"table": ["A", "B", "C", "G"], "dealer": "G"}`` -- from the next hand on these sit at the
  table, in this order (clockwise). New names join with a balance of 0; whoever is left out keeps
  their balance. ``dealer`` is optional: by default the deal goes on from the last dealer, as
  the seed says ("der nächste Spieler links vom vorigen Geber"): the player after the last dealer
  in the new list (a newcomer seated there deals); if the last dealer left, the next player
  after them in the old order who is still seated. Before the first hand: the first dealer if
  still seated, else the first of the new list.

`Table.players` is everybody who ever sat at the table, in the order they first appeared;
`Table.seated` is who sits there now, in seating order.

`report()` returns the keys of game-record.md -- ``game``, ``hands_played``, ``next_dealer``,
``finished`` (always false: the evening is closed by the app, see `close`), ``pot``,
``next_hand_type`` and ``players`` -- plus these keys for the web UI:

- ``players``: everybody who ever sat at the table: first those seated now, in seating order, then
  those who left, in the order they first appeared. Each with ``name``, ``balance`` (stakes,
  positive: ahead), ``balance_cents`` (= balance * stake_cents) and ``seated``.
- ``seated``: the names at the table now, in seating order (the columns of the next entry form).
- ``dealer``: who deals the next hand (the same as ``next_dealer``).
- ``last_dealer``: who dealt the last hand, whom a table change passes the deal on from (null
  before the first hand, or after a table change that named the next dealer).
- ``pot_cents``: the pot in money (pot * stake_cents).
- ``starting_pot``: what the Kasse carried in; always ``sum(balance) + pot == starting_pot``.
- ``rules``: the resolved rule options.
- ``can_close``: whether the evening may end now (false only under ``pot_at_end: "play-out"``
  while the pot holds money).
- ``history``: one dict per entry, in order, all with the same keys; a key that does not apply
  to the kind of entry is null. ``kind`` (``"hand"`` or ``"table"``), ``dealer`` (who dealt this
  hand; for a table change who deals next), ``pot`` (the pot after the entry); for a hand:
  ``hand`` (hand number from 1), ``type`` (1 or 2), ``P`` (the pot after the ante), ``playing``
  (who played, in seating order), ``tricks`` (name -> tricks, for every player who played, 0
  included), ``payments`` (name -> change of balance in this hand for everybody at the table,
  in seating order: negative paid in, including the dealer's ante; its keys are who sat at the
  table); for a table change: ``table`` (the new seating order), ``joined`` and ``left`` (who
  sits down / gets up; a returning player keeps the old balance).

Errors (RuleError code -> field): ``vier-anderle.trick_count`` -> "tricks" (they do not add up
to 4); ``vier-anderle.bad_tricks`` -> the player (below 0 or above 4);
``vier-anderle.did_not_play`` and ``vier-anderle.not_playing`` -> the player;
``vier-anderle.everybody_plays`` -> "playing" (type-1 hand with somebody dropping; params
``missing``); ``vier-anderle.bad_playing`` -> "playing"; ``vier-anderle.not_seated`` -> the
player in ``tricks``, else "playing";
``unknown_player`` likewise, or "first_dealer"; ``duplicate_player`` -> "playing" / "table";
``vier-anderle.bad_table``, ``vier-anderle.table_too_small``, ``vier-anderle.pack_too_small``
-> "table"; ``vier-anderle.dealer_not_seated`` -> "dealer"; ``vier-anderle.pot_not_empty`` ->
"pot" (from `close`); and the generic ``unknown_key``, ``missing_key``, ``not_a_mapping``,
``not_a_number``, ``entry_not_object``.

`close(report_or_table)` says what happens to the pot when the evening ends, under the rule
option ``pot_at_end``; under ``"play-out"`` it raises RuleError ``vier-anderle.pot_not_empty``
while the pot holds money.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from . import base, cards, entries, errors
from .errors import N_, RuleError

NAME = "vier-anderle"
TITLE = N_("Vier-Anderle")


# --- the Cego pack ------------------------------------------------------------------------------

TRUMP = "trump"  # the suit of a tarock
TAROCKS = tuple(["Gstiess"] + [str(n) for n in range(21, 0, -1)])
COURT_RANKS = ("K", "Q", "C", "J")  # King, Queen, Cavalier (Reiter), Jack (Bube)
PIP_RANKS = {"clubs": ("10", "9", "8", "7"), "spades": ("10", "9", "8", "7"),
             "hearts": ("1", "2", "3", "4"), "diamonds": ("1", "2", "3", "4")}
CARDS_PER_PLAYER = 4


def cego_pack(with_pips: bool = False) -> tuple[cards.Card, ...]:
    """38 cards (22 tarocks and 16 court cards); 54 with the pip cards added."""
    pack = [cards.Card(rank, TRUMP) for rank in TAROCKS]
    pack += [cards.Card(rank, suit) for suit in cards.SUITS for rank in COURT_RANKS]
    if with_pips:
        pack += [cards.Card(rank, suit) for suit in cards.SUITS for rank in PIP_RANKS[suit]]
    return tuple(pack)


def cego_pack_for(players: int) -> tuple[cards.Card, ...] | None:
    """The smallest Cego pack that deals 4 cards to each of `players`, or None if none does."""
    for with_pips in (False, True):
        pack = cego_pack(with_pips)
        if players * CARDS_PER_PLAYER <= len(pack):
            return pack
    return None


def _biggest_pack() -> int:
    return len(cego_pack(with_pips=True))


TRICKS = CARDS_PER_PLAYER  # every hand has exactly this many tricks (4)
MIN_PLAYERS = 2
MAX_PLAYERS = _biggest_pack() // CARDS_PER_PLAYER  # 13: the pack with pip cards deals 4 to each


SUMMARY = N_("Played for money in stakes. Before every hand the dealer pays the ante into the "
             "pot; call the pot after the ante P. If the pot was empty before the ante (type 1), "
             "everybody plays and everybody who takes no trick pays P into the pot. If there was "
             "money in it (type 2), each player may drop out; every trick pays its taker a "
             "quarter of P out of the pot, and everybody who played without taking a trick pays "
             "P. Whoever plays alone takes the whole pot. Each balance is what a player took out "
             "minus what they paid in, so the balances and the pot always add up to what the "
             "Kasse brought in.")

OPTIONS: tuple[base.Option, ...] = (
    base.Option(
        "ante", 4,
        help=N_("stakes the dealer pays into the pot before each hand (a multiple of 4)"),
        minimum=TRICKS, maximum=400, multiple_of=TRICKS,
    ),
    base.Option(
        "stake_cents", 10,
        help=N_("money value of one stake"),
        minimum=0, maximum=10_000,
    ),
    base.Option(
        "nobody_plays", "ante-stays",
        help=N_("what happens to the dealer's ante when nobody plays a type-2 hand"),
        choices=("ante-stays", "ante-back"),
        labels={
            "ante-stays": N_("the ante stays in the pot"),
            "ante-back": N_("the dealer gets the ante back"),
        },
    ),
    base.Option(
        "pot_at_end", "carry",
        help=N_("what happens to the pot at the end of the evening"),
        choices=("carry", "split", "play-out"),
        labels={
            "carry": N_("it stays in the Kasse for the next game"),
            "split": N_("it is shared out among the players at the table"),
            "play-out": N_("play on until a hand empties it"),
        },
    ),
    base.Option(
        "starting_pot", 0,
        help=N_("stakes the Kasse carries into the pot from an earlier game (a multiple of 4)"),
        minimum=0, maximum=10_000_000, multiple_of=TRICKS,
    ),
)

MESSAGES: dict[str, str] = {
    f"{NAME}.trick_count": N_("{tricks} tricks in a hand, you entered {total}"),
    f"{NAME}.bad_tricks": N_("{player} cannot have {value:|trick|tricks}, a hand has {tricks}"),
    f"{NAME}.did_not_play": N_("{player} did not play this hand but has {tricks:|trick|tricks}"),
    f"{NAME}.not_playing": N_("{player} did not play this hand"),
    f"{NAME}.everybody_plays": N_("the pot is empty, so everybody plays this hand"),
    f"{NAME}.bad_playing": N_("who plays must be given as a list of names"),
    f"{NAME}.not_seated": N_("{player} is not at the table"),
    f"{NAME}.bad_table": N_("the table must be given as a list of names"),
    f"{NAME}.table_too_small": N_("at least {low} players must sit at the table, there are "
                                  "{count}"),
    f"{NAME}.pack_too_small": N_("{count} players need {needed} cards, the Cego pack has only "
                                 "{cards} even with the pip cards"),
    f"{NAME}.dealer_not_seated": N_("{player} does not sit at the new table and cannot deal"),
    f"{NAME}.type_changed": N_("the correction would make this a type-{now} hand, but it was "
                               "played as a type-{was} hand"),
    f"{NAME}.players_changed": N_("the correction would change who played this hand: {was:and} "
                                  "played it, it would be {now:and}"),
    f"{NAME}.pot_not_empty": N_("there are still {pot} stakes in the pot: the evening ends only "
                                "with a hand that empties the pot"),
}
errors.register_messages(MESSAGES)

_HAND_KEYS = frozenset({"tricks", "playing"})
_TABLE_KEYS = frozenset({"table", "dealer"})

errors.register_key_words({
    "tricks": N_("tricks"),
    "playing": N_("who plays"),
    "table": N_("a table change"),
    "dealer": N_("the dealer"),
})
_SHOW_LIMIT = 1_000_000


def _shown(value: int) -> int | str:
    """A number for a message; absurdly big ones are not written out in full."""
    if value > _SHOW_LIMIT:
        return f">{_SHOW_LIMIT}"
    if value < -_SHOW_LIMIT:
        return f"<{-_SHOW_LIMIT}"
    return value


Names = tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Hand(base.Row):
    """A hand of the history; `history()` spells it out (see the module docstring)."""

    dealer: str
    hand_type: int
    stake: int  # P: the pot after the ante
    seated: Names  # who sat at the table, in seating order
    playing: Names | None  # who played, in seating order; None: everybody at the table
    # The two mappings are the ones the hand was settled with, never changed afterwards
    # (tuples of pairs would leave thousands of small objects for the garbage collector).
    tricks: Mapping[str, int]  # name -> tricks, only those who took any
    paid: Mapping[str, int]  # name -> change of balance, only those it changed
    pot: int  # after the hand

    def spelled(self, players: Sequence[str], hand: int) -> dict[str, Any]:
        taken = dict.fromkeys(self.seated if self.playing is None else self.playing, 0)
        taken.update(self.tricks)
        payments = dict.fromkeys(self.seated, 0)
        payments.update(self.paid)
        return {"kind": "hand", "hand": hand, "dealer": self.dealer, "type": self.hand_type,
                "P": self.stake, "playing": list(taken), "tricks": taken,
                "payments": payments, "pot": self.pot, "table": None, "joined": None,
                "left": None}


@dataclass(frozen=True, slots=True)
class TableChange(base.Row):
    """A change of who sits at the table, between hands."""

    HAND = False

    dealer: str  # who deals next
    seated: Names  # the new seating order
    joined: Names
    left: Names
    pot: int

    def spelled(self, players: Sequence[str], hand: int) -> dict[str, Any]:
        return {"kind": "table", "hand": None, "dealer": self.dealer, "type": None,
                "P": None, "playing": None, "tricks": None, "payments": None,
                "pot": self.pot, "table": list(self.seated), "joined": list(self.joined),
                "left": list(self.left)}


class Table(base.Table):
    """One evening of Vier-Anderle at the table."""

    ENTRY_WORD = "entry"
    ENTRY_KEYS = _HAND_KEYS | _TABLE_KEYS
    SNAPSHOT = ("players", "seated", "_dealer", "_last_dealer", "_around", "balance", "pot",
                "hands_played", "finished", "_hands_of", "_best_win", "_best_hand")

    def __init__(self, players: Any, first_dealer: Any, rules: Any) -> None:
        super().__init__(players, first_dealer, rules)
        seated = list(self.players)  # `players`: everybody who ever sat, first appearance order
        _check_pack(len(seated), "players")
        self.seated: Names = tuple(seated)
        self._seated_set: frozenset[str] = frozenset(seated)
        self._dealer: int = self._first_dealer  # index in `seated` of the next dealer
        # Who dealt last (None before the first hand, or when a table change named the next
        # dealer) and the seating order that the deal goes round from them in: the table they
        # dealt at, or, once they have left, the new table with their empty seat kept where it
        # was (see `_deals_after_change`).
        self._last_dealer: str | None = None
        self._around: Names = self.seated
        self.balance: dict[str, int] = dict.fromkeys(seated, 0)
        self.starting_pot: int = self.rules["starting_pot"]
        self.pot: int = self.starting_pot
        self._ante: int = self.rules["ante"]
        self._ante_back: bool = self.rules["nobody_plays"] == "ante-back"
        self._hands_of: dict[str, int] = dict.fromkeys(seated, 0)  # hands each played in
        self._best_win: dict[str, int] = dict.fromkeys(seated, 0)  # most won in one hand
        self._best_hand: dict[str, int] = dict.fromkeys(seated, 0)  # the hand it was first won in

    def restored(self) -> None:
        self.seated = tuple(self.seated)
        self._around = tuple(self._around)
        self._seated_set = frozenset(self.seated)

    # --- entries ---------------------------------------------------------------------------

    def entry_keys(self, entry: Mapping[str, Any]) -> frozenset[str]:
        """A table change names the table (and the dealer); a hand its tricks and players."""
        return _TABLE_KEYS if "table" in entry else _HAND_KEYS

    def play_entry(self, entry: Mapping[str, Any]) -> Hand | TableChange:
        return self._change_table(entry) if "table" in entry else self._play_hand(entry)

    def _play_hand(self, entry: Mapping[str, Any]) -> Hand:
        seated = self.seated
        hand_type = self.next_hand_type
        # Who plays: None means everybody at the table.
        playing: set[str] | None = None
        raw_playing = entry.get("playing")
        if raw_playing is not None:
            playing = self._read_playing(raw_playing)
            if len(playing) == len(seated):
                playing = None
            elif hand_type == 1:
                raise RuleError(f"{NAME}.everybody_plays", field="playing",
                                missing=[p for p in seated if p not in playing])
        tricks = self._read_tricks(entry.get("tricks"), playing)
        # Valid: settle the money.
        dealer = seated[self._dealer]
        stake = self.pot + self._ante  # P
        paid, pot = self._payments(dealer, stake, hand_type, playing, tricks)
        for name, amount in paid.items():
            self.balance[name] += amount
            if amount > self._best_win[name]:
                self._best_win[name] = amount
                self._best_hand[name] = self.hands_played + 1
        for name in seated if playing is None else playing:
            self._hands_of[name] += 1
        self.pot = pot
        self.hands_played += 1
        self._dealer = (self._dealer + 1) % len(seated)
        self._last_dealer, self._around = dealer, seated
        order = None if playing is None else tuple([p for p in seated if p in playing])
        return Hand(dealer, hand_type, stake, seated, order, tricks, paid, pot)

    def _read_tricks(self, raw: Any, playing: set[str] | None) -> dict[str, int]:
        """The tricks of the hand: name -> tricks, only those who took at least one."""
        tricks: dict[str, int] = {}
        if raw is None:
            if playing is None or len(playing) > 1:
                raise errors.missing_key("tricks")
            return dict.fromkeys(playing, TRICKS)  # alone, or nobody: no tricks to type
        if not isinstance(raw, Mapping):
            raise errors.not_a_mapping("tricks")
        total = 0
        for name, value in raw.items():
            if name not in self._seated_set:
                raise self._absent(name, str(name))
            if type(value) is not int:
                value = entries.whole_number(name, value)
            if value < 0 or value > TRICKS:
                raise RuleError(f"{NAME}.bad_tricks", field=name, player=name,
                                value=_shown(value), tricks=TRICKS)
            if playing is not None and name not in playing:
                code = "did_not_play" if value else "not_playing"
                raise RuleError(f"{NAME}.{code}", field=name, player=name, tricks=value)
            if value:
                tricks[name] = value
                total += value
        expected = TRICKS if playing is None or playing else 0
        if total != expected:
            raise RuleError(f"{NAME}.trick_count", field="tricks", tricks=TRICKS, total=total)
        return tricks

    def _payments(self, dealer: str, stake: int, hand_type: int, playing: set[str] | None,
                  tricks: dict[str, int]) -> tuple[dict[str, int], int]:
        """Who pays or takes what in this hand (name -> change of balance, only for those it
        changes, the dealer's ante included), and the pot after it."""
        ante = self._ante
        if playing is not None and not playing:  # type 2, nobody plays
            if self._ante_back:
                return {}, stake - ante
            return {dealer: -ante}, stake
        losers = [p for p in (self.seated if playing is None else playing) if p not in tricks]
        paid = dict.fromkeys(losers, -stake)
        if hand_type == 1:
            pot = stake * (1 + len(losers))
        else:
            quarter = stake // TRICKS
            for name, taken in tricks.items():
                paid[name] = quarter * taken
            pot = stake * len(losers)
        paid[dealer] = paid.get(dealer, 0) - ante
        return paid, pot

    def _read_playing(self, raw: Any) -> set[str]:
        if type(raw) is not list:
            raise RuleError(f"{NAME}.bad_playing", field="playing")
        seated_set = self._seated_set
        playing: set[str] = set()
        for name in raw:
            if type(name) is not str:
                raise RuleError(f"{NAME}.bad_playing", field="playing")
            if name not in seated_set:
                raise self._absent(name, "playing")
            if name in playing:
                raise RuleError("duplicate_player", field="playing", player=name)
            playing.add(name)
        return playing

    def _absent(self, name: Any, field: str) -> RuleError:
        """The error for a name that is not at the table: gone, or never here."""
        if isinstance(name, str) and name in self.balance:
            return RuleError(f"{NAME}.not_seated", field=field, player=name)
        return RuleError("unknown_player", field=field, player=name)

    def _change_table(self, entry: Mapping[str, Any]) -> TableChange:
        raw = entry["table"]
        if type(raw) is not list or not all(type(n) is str and n.strip() for n in raw):
            raise RuleError(f"{NAME}.bad_table", field="table")
        seen: set[str] = set()
        for name in raw:
            if name in seen:
                raise RuleError("duplicate_player", field="table", player=name)
            seen.add(name)
        if len(raw) < MIN_PLAYERS:
            raise RuleError(f"{NAME}.table_too_small", field="table", low=MIN_PLAYERS,
                            count=len(raw))
        _check_pack(len(raw), "table")
        new: tuple[str, ...] = tuple(raw)
        dealer = entry.get("dealer")
        if dealer is None:
            dealer = self._deals_after_change(new)
        elif type(dealer) is not str or dealer not in seen:
            raise RuleError(f"{NAME}.dealer_not_seated", field="dealer", player=dealer)

        old = self._seated_set
        joined = tuple(name for name in new if name not in old)
        left = tuple(name for name in self.seated if name not in seen)
        for name in joined:
            if name not in self.balance:
                self.balance[name] = self._hands_of[name] = self._best_win[name] = 0
                self._best_hand[name] = 0
                self.players.append(name)
        if "dealer" in entry:  # the table chose the next dealer: the deal goes on from them
            self._last_dealer, self._around = None, new
        elif self._last_dealer in seen:
            self._around = new
        elif self._last_dealer is not None:  # their seat stays, empty, before the next dealer
            at = new.index(dealer)
            self._around = new[:at] + (self._last_dealer,) + new[at:]
        self.seated = new
        self._seated_set = frozenset(new)
        self._dealer = new.index(dealer)
        return TableChange(dealer, new, joined, left, self.pot)

    def _deals_after_change(self, new: Names) -> str:
        """Who deals after a table change to `new` when the table does not say: "der nächste
        Spieler links vom vorigen Geber". The player seated after the last dealer in the new
        order (a newcomer who sat down there deals); if the last dealer got up, the next one
        after them round the old table who is still seated. Before the first hand, the first
        dealer if still seated, else the first of the new order."""
        last = self._last_dealer
        if last is None:
            would_deal = self.seated[self._dealer]
            return would_deal if would_deal in new else new[0]
        if last in new:
            return new[(new.index(last) + 1) % len(new)]
        around = self._around
        at = around.index(last)
        staying = set(new)
        for name in around[at + 1:] + around[:at]:
            if name in staying:
                return name
        return new[0]  # a whole new table

    @classmethod
    def meaning_changed(cls, entered: Mapping[str, Any], now: Mapping[str, Any]
                        ) -> RuleError | None:
        """A hand entered as type 1 (everybody plays, nobody takes out) must not become a
        type-2 hand or the other way round, and a hand must keep who played it."""
        if entered.get("kind") != "hand" or now.get("kind") != "hand":
            return None
        if entered["type"] != now["type"]:
            return RuleError(f"{NAME}.type_changed", was=entered["type"], now=now["type"])
        if set(entered["playing"]) != set(now["playing"]):
            return RuleError(f"{NAME}.players_changed", was=list(entered["playing"]),
                             now=list(now["playing"]))
        return None

    # --- report ----------------------------------------------------------------------------

    @property
    def next_dealer(self) -> str:
        return self.seated[self._dealer]

    @property
    def next_hand_type(self) -> int:
        return 2 if self.pot else 1

    @property
    def can_close(self) -> bool:
        return self.pot == 0 or self.rules["pot_at_end"] != "play-out"

    def summary(self) -> dict[str, Any]:
        """The report without the history."""
        cents = self.rules["stake_cents"]
        seated = self._seated_set
        order = list(self.seated) + [p for p in self.players if p not in seated]
        return {
            "game": NAME,
            "hands_played": self.hands_played,
            "next_dealer": self.next_dealer,
            "finished": self.finished,
            "players": [
                {"name": name, "balance": self.balance[name],
                 "balance_cents": self.balance[name] * cents, "seated": name in seated,
                 "hands": self._hands_of[name], "best_win": self._best_win[name],
                 "best_win_hand": self._best_hand[name]}
                for name in order
            ],
            "pot": self.pot,
            "next_hand_type": self.next_hand_type,
            "seated": list(self.seated),
            "dealer": self.next_dealer,
            "last_dealer": self._last_dealer,
            "pot_cents": self.pot * cents,
            "starting_pot": self.starting_pot,
            "rules": dict(self.rules),
            "can_close": self.can_close,
        }


def _check_pack(count: int, field: str) -> None:
    if cego_pack_for(count) is None:
        raise RuleError(f"{NAME}.pack_too_small", field=field, count=count,
                        needed=count * CARDS_PER_PLAYER, cards=_biggest_pack())


# --- the end of the evening ---------------------------------------------------------------


def close(report_or_table: Table | Mapping[str, Any], pot_at_end: str | None = None
          ) -> dict[str, Any]:
    """What happens to the pot when the evening ends (rule option ``pot_at_end``).

    Takes a `Table` or its `report()`; ``pot_at_end`` overrides the game's option. Returns
    ``pot_at_end``, ``pot``, ``shares`` (name -> stakes from the pot, only under "split", for the
    players seated now), ``kasse`` (stakes that stay with the group: the whole pot under "carry",
    the remainder that cannot be split under "split", 0 under "play-out"),
    ``next_starting_pot`` (what the next game's ``starting_pot`` should be: what the Kasse
    keeps, under "carry" and "split" alike), ``balances`` (name -> final balance with the
    shares), ``balances_cents`` and ``kasse_cents``. Always
    ``sum(balances) + kasse == starting_pot``.

    Under "play-out" the evening can only close when the pot is empty; otherwise this raises
    RuleError ``vier-anderle.pot_not_empty`` (field ``pot``). Pure: changes nothing.
    """
    report = report_or_table.summary() if isinstance(report_or_table, Table) else report_or_table
    pot = report["pot"]
    rules = report["rules"]
    seated = list(report["seated"])
    balances = {p["name"]: p["balance"] for p in report["players"]}
    starting_pot = report.get("starting_pot", 0)
    mode = pot_at_end if pot_at_end is not None else rules["pot_at_end"]
    shares: dict[str, int] = {}
    if mode == "carry":
        kasse = pot
    elif mode == "split":
        # Everybody gets the same whole number of stakes; what stays must be a pot the next
        # game can play with (a multiple of 4, so its quarters are whole stakes).
        share = pot // len(seated)
        while (pot - share * len(seated)) % TRICKS:
            share -= 1
        kasse = pot - share * len(seated)
        shares = dict.fromkeys(seated, share)
    elif mode == "play-out":
        if pot:
            raise RuleError(f"{NAME}.pot_not_empty", field="pot", pot=pot)
        kasse = 0
    else:
        raise next(o for o in OPTIONS if o.name == "pot_at_end").error(mode)
    final = {name: value + shares.get(name, 0) for name, value in balances.items()}
    cents = rules["stake_cents"]
    return {
        "pot_at_end": mode,
        "pot": pot,
        "starting_pot": starting_pot,
        "shares": shares,
        "kasse": kasse,
        "next_starting_pot": kasse,
        "balances": final,
        "balances_cents": {name: value * cents for name, value in final.items()},
        "kasse_cents": kasse * cents,
    }
