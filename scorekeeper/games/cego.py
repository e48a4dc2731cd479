"""Cego in the web app: the game form (the contract as big buttons, the declarer by one tap, the
result as the players count it, a fault folded away), the sentence that says before Save what
the game will write, the list, and the season's figures.

The sentence is the engine's: for the next game the adapter asks the engine (`Table.score`) what
every contract would write for every count, result, caller and losers the form can hold, and
the form names where the answers are (`data-says`: the table's `says/<version>`); the phone asks
for them once an address (four players: one address for the whole game; five: one a dealer),
keeps them (its HTTP cache and the service worker's) and static/js/fields.js looks them up as
the fields change: no network needed once fetched, and a hand's answer and the parts sent to
the watching phones do not carry their 15 KB.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any, ClassVar

from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from wtforms import RadioField, SelectMultipleField
from wtforms.fields.choices import SelectChoice

from scorekeeper.engine import RuleError, cego
from scorekeeper.games.base import Adapter, Record, Roster, Sayings
from scorekeeper.games.forms import GameForm, Number, build, make, numbers, pick
from scorekeeper.i18n import language, rule_message

FACH, FIXED, TRICKS, RAEUBER = cego.FACH, cego.FIXED, cego.TRICKS, cego.RAEUBER
WON = {"yes": True, "no": False}  # the won/lost buttons
MINUS = "\u2212"


def points(value: int, display: str = "plus-minus") -> str:
    """A game's points as the list shows them: +60 and −20, or 60 G (Gute) and 20 M (Miese)."""
    if display == "gute-miese":
        return f"{value}\u202fG" if value > 0 else f"{-value}\u202fM" if value < 0 else "0"
    return f"+{value}" if value > 0 else f"{MINUS}{-value}" if value < 0 else "0"


class HandForm(GameForm):
    """One game: the contract, who played it (Räuber: who called it) and the result of the
    contract's kind; a fault instead decides the game. Fields of the other kinds are left as
    they are (the form shows only the chosen contract's) and not read."""

    GROUPS = frozenset({"contract", "declarer", "announcer", "augen", "defender_augen", "won",
                        "tricks", "losers", "forfeit"})
    kinds: ClassVar[dict[str, str]]  # contract -> its kind, in precedence order

    def _result(self, kind: str) -> list[str]:
        """The fields that hold the result of a contract of this kind."""
        return {FACH: ["augen", "defender_augen"], FIXED: ["won"], TRICKS: ["won", "tricks"],
                RAEUBER: [f"augen-{n}" for n in self.names] + ["losers"]}[kind]

    def validate(self, extra_validators: Any = None) -> bool:
        """Only what the entry reads counts: a field of another contract's result (or any
        result, where a fault decides the game) is left as it is, wrong or not."""
        super().validate(extra_validators)
        kind = self.kinds.get(self.contract.data or "")
        read = set() if self.forfeit.data or kind is None else set(self._result(kind))
        for kind_of in (FACH, FIXED, TRICKS, RAEUBER):
            for name in set(self._result(kind_of)) - read:
                self[name].errors = []
        return not any(field.errors for field in self)

    def entry(self) -> dict[str, Any] | None:
        contract = self.contract.data or ""
        kind = self.kinds.get(contract)
        if not contract:
            self.problems["contract"] = gettext("Which game was played? Tap it.")
            return None
        entry: dict[str, Any] = {"contract": contract}
        if self.declarer.data:
            entry["announcer" if kind == RAEUBER else "declarer"] = self.declarer.data
        if self.forfeit.data:  # the fault decides the game: nothing else is read
            return {**entry, "forfeit": self.forfeit.data}
        if kind is None:  # the engine says why it is not played here
            return entry
        if kind == FACH:
            entry.update((key, self[key].data) for key in ("augen", "defender_augen")
                         if self[key].data is not None)
        elif kind == RAEUBER:
            counts = {n: v for n in self.names if (v := self[f"augen-{n}"].data) is not None}
            entry.update({"augen": counts} if counts else {})
            entry.update({"losers": list(self.losers.data)} if self.losers.data else {})
        else:
            if self.won.data in WON:
                entry["won"] = WON[self.won.data]
            if kind == TRICKS and self.tricks.data is not None:
                entry["tricks"] = self.tricks.data
        return entry

    def opened(self, names: Sequence[str], prefix: str = "") -> bool:
        """Whether one of these fields (`prefix` + name) holds something or is wrong: the fold
        that holds them shows open."""
        fields = [self[prefix + name] for name in names]
        return any(f.data is not None or f.errors or self.problem(name)
                   for f, name in zip(fields, names, strict=True))

    @classmethod
    def fill(cls, entry: Mapping[str, Any], before: Mapping[str, Any]) -> dict[str, Any]:
        won = entry.get("won")
        data: dict[str, Any] = {
            "contract": entry.get("contract") or "",
            "declarer": entry.get("declarer") or entry.get("announcer") or "",
            "forfeit": entry.get("forfeit") or "", "defender_augen": entry.get("defender_augen"),
            "won": "" if won is None else "yes" if won else "no", "tricks": entry.get("tricks"),
            "losers": list(entry.get("losers") or [])}
        augen = entry.get("augen")
        if isinstance(augen, Mapping):  # Räuber: every player's count
            data.update({f"augen-{name}": value for name, value in augen.items()})
        else:
            data["augen"] = augen
        return data


@functools.lru_cache(maxsize=256)
def _hand_form(in_game: tuple[str, ...], contracts: tuple[tuple[str, str, str], ...]
               ) -> type[GameForm]:
    """The game form for the players of the next game and the table's contracts (code, title,
    kind)."""
    names = list(in_game)
    fields = {
        "contract": RadioField(_l("Game played"), validate_choice=False, default="",
                               choices=[SelectChoice(c, t) for c, t, _k in contracts]),
        "declarer": pick(_l("Who played it?"), names),
        "augen": Number(_l("Declarer's Augen")),
        "defender_augen": Number(_l("Defenders' Augen")),
        "won": RadioField(_l("Result"), validate_choice=False, default="",
                          choices=[SelectChoice("yes", _l("won")), SelectChoice("no", _l("lost"))]),
        "tricks": Number(_l("Tricks the declarer took")),
        "losers": SelectMultipleField(_l("Who lost?"), validate_choice=False, default=[],
                                      choices=[SelectChoice(n, n) for n in names]),
        "forfeit": pick(_l("Who made the fault?"), names, optional=True),
        **numbers("augen", names)}
    return build(HandForm, fields, names, kinds={c: k for c, _t, k in contracts})


def in_game(state: Mapping[str, Any]) -> list[str]:
    """Who plays the next game: everybody, but the dealer who sits out with five."""
    return [p["name"] for p in state["players"] if p["name"] != state.get("sits_out")]


class Cego(Adapter):
    engine = cego
    FORMS = {"hand": HandForm}
    PARTS = frozenset({"state", "describe", "effect", "changes", "more", "standings", "result",
                       "ending", "head", "style"})
    FIGURES = ("hands", "points", "solos", "solos_won", "ultimos", "ultimos_won", "best_game",
               "best_game_hand")
    BEST = frozenset({"best_game"})
    WHERE = frozenset({"best_game_hand"})
    PAYS = _l("each game's value between its declarer and each opponent")
    RECORDS = (Record("best_game", _l("Biggest game won"), hand="best_game_hand"),
               Record("solos_won", _l("Most Solos won"), season=True),
               Record("ultimos", _l("Most Ultimos played"), season=True),
               Record("ultimos_won", _l("Most Ultimos won"), season=True),
               *Adapter.RECORDS)
    EFFECT_KEY = "points"
    SCORED_BY = ("points",)  # a game's points never depend on the games before
    TOURNAMENT_GAMES = "games"  # a Durchgang: this many games at each table (the SM: 24)
    points = staticmethod(points)

    def form(self, kind: str, state: Mapping[str, Any], rules: Mapping[str, Any], roster: Roster,
             formdata: Any = None, data: Mapping[str, Any] | None = None,
             error: RuleError | None = None) -> GameForm:
        contracts = tuple((c["contract"], c["title"], c["kind"]) for c in state["contracts"])
        return make(_hand_form(tuple(in_game(state)), contracts), formdata, data)

    def entry_name(self, seq: int, effect: Mapping[str, Any] | None) -> str:
        """A Cego deal is a game ("Spiel 5")."""
        game = (effect or {}).get("hand")
        return gettext("Game %(n)s", n=game) if game is not None else \
            gettext("Entry %(n)s", n=seq)

    def entry_name_of(self, values: Mapping[str, Any], hand: int) -> str:
        return gettext("Game %(n)s", n=hand)

    def sayings(self, players: Sequence[str], dealer: str, rules: Mapping[str, Any]
                ) -> Sayings:
        """What the game `dealer` deals would write, for every value the form can hold
        (`sayings` below), in the phone's language. Who deals only matters to the words if
        the dealer sits out (the engine's `sits_out`): else they are worked out once for all
        dealers."""
        if cego.sits_out(len(players), list(players).index(dealer)) is None:
            dealer = players[0]
        return _sayings(language(), tuple(players), dealer, json.dumps(dict(rules),
                                                                       sort_keys=True))

    # --- the standings ------------------------------------------------------------------------

    def figures(self, game: Any, player: Mapping[str, Any]) -> dict[str, int]:
        return {"hands": game.state["hands_played"], "points": player["score"],
                **{key: player.get(key, 0) for key in cego.FEATS}}

    def ranking_key(self, figures: Mapping[str, int], money_cents: int) -> tuple[int, ...]:
        """By the list's score: more points finish ahead."""
        return (figures.get("points", 0),)

    def transfers(self, results: Mapping[str, tuple[Mapping[str, int], int]]
                  ) -> list[tuple[str, str, Fraction]]:
        """The declarer wins or loses each game's value against each opponent (a Räuber loser
        pays each other player): between two players that is the difference of their lists,
        which is the difference of their money divided by the number at the table."""
        table = len(results)
        return [(payer, payee, Fraction(gained - lost, table))
                for payee, (_f, gained) in results.items()
                for payer, (_g, lost) in results.items() if gained > lost]

    def standings(self, rows: list[dict[str, Any]]) -> dict[str, Any]:
        return {"rows": sorted(rows, key=lambda r: (-r["points"], -r["money_cents"],
                                                    r["player"]))}


# --- what the form says before Save ------------------------------------------------------------

def _result(game: cego.Game, fault: bool = False, words: Mapping[str, str] | None = None
            ) -> str:
    """"Eine won, 1 Fach" (Räuber: its title alone); `words`: "won", "lost" and "(fault)"
    translated already (the form's sayings ask for them hundreds of times)."""
    if game.won is None:
        return cego.title(game.contract)
    said = words or _words()
    result = [cego.title(game.contract), said["won"] if game.won else said["lost"]]
    if fault:
        result.append(said["fault"])
    return " ".join(result) + (f", {game.fach} Fach" if game.fach else "")


def _words() -> dict[str, str]:
    return {"won": gettext("won"), "lost": gettext("lost"), "fault": gettext("(fault)")}


def _written(game: cego.Game, declarer: int, display: str) -> str:
    """The declarer's points, then the others' that are not 0: "+60 / −20 −20 −20"."""
    rest = [points(p, display) for seat, p in enumerate(game.points) if seat != declarer and p]
    return points(game.points[declarer], display) + (f" / {' '.join(rest)}" if rest else "")


def _named(game: cego.Game, players: Sequence[str], seats: Sequence[int], display: str) -> str:
    """Räuber: the losers by name with their points, then the others': "Anna −240 / +80 +80"."""
    mine = ", ".join(f"{players[s]} {points(game.points[s], display)}" for s in seats)
    rest = [points(p, display) for seat, p in enumerate(game.points) if seat not in seats and p]
    return mine + (f" / {' '.join(rest)}" if rest else "")


@functools.lru_cache(maxsize=512)
def _sayings(lang: str, players: tuple[str, ...], dealer: str, rules_json: str) -> Sayings:
    """The next game's sayings as `sayings` says, as JSON (the same for every page of the same
    table and game, in one language: worked out once). A tournament hall's 50 tables are 50 (15
    KB each; 250 with five players, a dealer's each): kept, they are not worked out again for
    every game (two thirds of a game's cost, bench/tournament.py)."""
    text = json.dumps(sayings(list(players), dealer, json.loads(rules_json)),
                      ensure_ascii=False, separators=(",", ":"))
    return Sayings(text, hashlib.sha256(text.encode()).hexdigest()[:16])


class _Saying:
    """What one game dealt by `dealer` would write, in words, gathered for the form: each
    sentence once (`texts`), and by the fields it is said for, their values joined by "|"."""

    def __init__(self, players: list[str], dealer: str, rules: Mapping[str, Any]) -> None:
        self.table = cego.Table(players, dealer, rules)
        self.players, self.display = players, self.table.rules["display"]
        self.summary = self.table.summary()
        self.seats = [i for i, n in enumerate(players) if n != self.summary["sits_out"]]
        self.texts: list[str] = []
        self.words = _words()
        self.numbers: dict[str, int] = {}
        self.groups: dict[tuple[str, ...], dict[str, int]] = {}

    def add(self, fields: tuple[str, ...], values: Sequence[Any], text: str) -> None:
        number = self.numbers.setdefault(text, len(self.texts))
        if number == len(self.texts):
            self.texts.append(text)
        self.groups.setdefault(fields, {})["|".join(map(str, values))] = number

    def of(self, code: str, entry: dict[str, Any], fault: bool = False) -> str:
        """A game the first player in it declares: "Eine won, 1 Fach: +60 / −20 −20 −20", or
        the engine's refusal."""
        try:
            game = self.table.score({"contract": code, "declarer": self.players[self.seats[0]],
                                     **entry})
        except RuleError as error:
            return rule_message(error)
        return f"{_result(game, fault, self.words)}: {_written(game, self.seats[0], self.display)}"

    def raeuber(self, entry: dict[str, Any], lost: Sequence[int]) -> str:
        """Räuber: "Räuber: Anna −240 / +80 +80 +80"."""
        game = self.table.score({"contract": "raeuber", **entry})
        named = _named(game, self.players, lost, self.display)
        return f"{_result(game, words=self.words)}: {named}"


FAULT, AT_FAULT, COUNT, TRICKS_TAKEN, WON_OR_LOST, CALLER_LOST, LOST = (
    ("contract", "declarer", "forfeit"), ("contract", "forfeit"), ("contract", "augen"),
    ("contract", "tricks"), ("contract", "won"), ("contract", "declarer", "losers"),
    ("contract", "losers"))


def sayings(players: list[str], dealer: str, rules: Mapping[str, Any]) -> list[Any]:
    """What the game that `dealer` deals would write, for every value the form's fields can
    hold, worked out by the engine: [texts, [[fields, {"their|values": text's number}], ...]].
    The form shows the text of the first group that has its fields' values (a group of boxes:
    its ticked values joined by ","), nothing where none has."""
    say = _Saying(players, dealer, rules)
    names = [players[seat] for seat in say.seats]
    one, other = names[0], names[1]
    for c in say.summary["contracts"]:
        code, kind = c["contract"], c["kind"]
        if kind == RAEUBER:  # the player at fault alone loses: as its caller, or not
            for seat, name in zip(say.seats, names, strict=True):
                say.add(FAULT, (code, name, name), say.raeuber(
                    {"announcer": name, "forfeit": name}, [seat]))
                say.add(AT_FAULT, (code, name), say.raeuber(
                    {"announcer": other if name == one else one, "forfeit": name}, [seat]))
            continue
        for name in names:  # the declarer at fault loses, a defender makes him win
            say.add(FAULT, (code, name, name), say.of(code, {"forfeit": one}, True))
            say.add(AT_FAULT, (code, name), say.of(code, {"forfeit": other}, True))
        if kind == FACH:
            for n in range(say.summary["augen_total"] + 1):
                say.add(COUNT, (code, n), say.of(code, {"augen": n}))
            continue
        for key, value in WON.items():
            say.add(WON_OR_LOST, (code, key), say.of(code, {"won": value}))
        if kind == TRICKS:
            for n in range(say.summary["tricks"] + 1):
                say.add(TRICKS_TAKEN, (code, n), say.of(code, {"tricks": n}))
    # Räuber by its losers: a caller among them loses more; any other caller is the same
    for size in range(1, len(names) + 1):
        for lost in itertools.combinations(say.seats, size):
            named = [players[seat] for seat in lost]
            for caller in named:
                say.add(CALLER_LOST, ("raeuber", caller, ",".join(named)),
                        say.raeuber({"announcer": caller, "losers": named}, lost))
            others = [name for name in names if name not in named]
            if others:
                say.add(LOST, ("raeuber", ",".join(named)),
                        say.raeuber({"announcer": others[0], "losers": named}, lost))
    say.add(("contract",), ("raeuber",), gettext(
        "Räuber: tap who lost, or enter every player's Augen (the most Augen lose)."))
    order = (FAULT, AT_FAULT, COUNT, TRICKS_TAKEN, WON_OR_LOST, CALLER_LOST, LOST, ("contract",))
    return [say.texts, [[list(fields), say.groups[fields]] for fields in order
                        if fields in say.groups]]
