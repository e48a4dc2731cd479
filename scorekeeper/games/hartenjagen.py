"""Hartenjagen in the web app: the hand form (by cards or by points), renege, the score path."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any, ClassVar

from flask_babel import LazyString, gettext
from flask_babel import lazy_gettext as _l
from wtforms import HiddenField, RadioField
from wtforms.fields.choices import SelectChoice

from scorekeeper.engine import RuleError, hartenjagen
from scorekeeper.games.base import Adapter, Record, Roster
from scorekeeper.games.forms import GameForm, build, make, numbers, pick
from scorekeeper.web import charts

CARD_LABELS = {"queen": ("♠", _l("Queen of spades")), "jack": ("♦", _l("Jack of diamonds")),
               "king": ("♠", _l("King of spades")), "ace": ("♠", _l("Ace of spades"))}
# the column of a card in the hand form's table: its suit and one word
CARD_COLUMNS = {"queen": ("♠", _l("Queen")), "jack": ("♦", _l("Jack")), "king": ("♠", _l("King")),
                "ace": ("♠", _l("Ace"))}


def card_field(key: str, copy: int) -> str:
    """The field of one copy of a penalty card: `queen`, and `queen-2` with two packs."""
    return key if copy == 1 else f"{key}-{copy}"


class HandForm(GameForm):
    GROUPS = frozenset({"points", "hearts", "moon", "renege", *CARD_LABELS})
    cards: ClassVar[dict[str, int]]  # penalty card -> copies in play

    def entry(self) -> dict[str, Any] | None:
        if self.kind.data == "renege":
            if not self.renege.data:
                self.problems["renege"] = gettext("Please choose who reneged.")
                return None
            return {"renege": self.renege.data}
        by_points = self.mode.data == "points"
        prefix = "points" if by_points else "hearts"
        counts = {n: v for n in self.names if (v := self[f"{prefix}-{n}"].data)}
        if any(self[f"{prefix}-{n}"].errors for n in self.names):
            return None
        entry: dict[str, Any] = {prefix: counts}
        named = {k: c for k, c in self.cards.items() if k == "jack" or not by_points}
        for key, copies in named.items():
            takers = [self[card_field(key, copy)].data for copy in range(1, copies + 1)]
            if copies == 1 and takers[0]:
                entry[key] = takers[0]
            elif any(takers):
                entry[key] = [t for t in takers if t]
        if "moon" in self and self.moon.data:
            entry["moon"] = self.moon.data
        return entry

    @classmethod
    def fill(cls, entry: Mapping[str, Any], before: Mapping[str, Any]) -> dict[str, Any]:
        data: dict[str, Any] = {"mode": "points" if "points" in entry else "cards",
                                "kind": "renege" if "renege" in entry else "",
                                "renege": entry.get("renege") or "",
                                "moon": entry.get("moon") or ""}
        for key in ("points", "hearts"):
            data.update({f"{key}-{n}": v for n, v in (entry.get(key) or {}).items()})
        for key in CARD_LABELS:
            takers = entry.get(key) or []
            for copy, who in enumerate([takers] if isinstance(takers, str) else takers, start=1):
                data[card_field(key, copy)] = who
        return data


@functools.lru_cache(maxsize=256)
def _hand_form(players: tuple[str, ...], cards: tuple[tuple[str, int], ...], moon: bool
               ) -> type[GameForm]:
    names = list(players)
    fields = {**numbers("points", names), **numbers("hearts", names),
              "mode": RadioField(_l("Entry mode"), validate_choice=False, default="cards",
                                 choices=[SelectChoice("cards", _l("By cards")),
                                          SelectChoice("points", _l("By points"))]),
              "kind": HiddenField(), "renege": pick(_l("Who reneged?"), names)}
    for key, copies in cards:
        sign, label = CARD_LABELS[key]
        for copy in range(1, copies + 1):
            text = f" ({copy})" if copies > 1 else ""  # the label stays in the user's language
            fields[card_field(key, copy)] = pick(
                LazyString(lambda s=sign, card=label, t=text: f"{s} {card}{t}"), names)
    if moon:
        fields["moon"] = RadioField(_l("If someone shot the moon"), validate_choice=False,
                                    default="", choices=[
                                        SelectChoice("", _l("no moon")),
                                        SelectChoice("self", _l("minus for the shooter")),
                                        SelectChoice("others", _l("plus for the others"))])
    return build(HandForm, fields, names, cards=dict(cards))


class Hartenjagen(Adapter):
    engine = hartenjagen
    FORMS = {"hand": HandForm}
    PARTS = frozenset({"state", "describe", "effect", "changes", "more", "standings", "result",
                       "ending", "head", "player", "style"})
    FIGURES = ("hands", "games", "finished", "wins", "points", "moons", "moon_hand")
    WHERE = frozenset({"moon_hand"})
    PAYS = _l("everybody to the winner")
    RECORDS = (Record("moons", _l("Moons shot"), season=True, hand="moon_hand"),
               Record("points", _l("Fewest points in a game"), fewest=True, only="finished"),
               Record("points", _l("Most points in a game"), only="finished"),
               *Adapter.RECORDS)
    EFFECT_KEY = "points"
    SCORED_BY = ("totals",)  # a hand's own points never depend on the hands before
    TOURNAMENT_GAMES = ""  # a table plays one game to its target: the fewest points win
    CARD_LABELS = CARD_LABELS
    CARD_COLUMNS = CARD_COLUMNS

    def form(self, kind: str, state: Mapping[str, Any], rules: Mapping[str, Any], roster: Roster,
             formdata: Any = None, data: Mapping[str, Any] | None = None,
             error: RuleError | None = None) -> GameForm:
        names = tuple(p["name"] for p in state["players"])
        form_class = _hand_form(names, tuple(state["cards"].items()), rules.get("moon") == "choice")
        return make(form_class, formdata, data)

    @staticmethod
    def pass_label(direction: str | None, across_seats: int = 2) -> str:
        """Where the cards go; with 6, 8 or 10 players "across" is half the table away."""
        if direction == "across" and across_seats != 2:
            return gettext("across, %(n)s seats on", n=across_seats)
        labels = {"left": gettext("to the left"), "right": gettext("to the right"),
                  "across": gettext("across"), "hold": gettext("no passing (hold)")}
        return labels.get(direction or "", "–")

    def figures(self, game: Any, player: Mapping[str, Any]) -> dict[str, int]:
        state = game.state
        played = state["finished"] or game.status == "closed"  # to its end, or to closing time
        return {"hands": state["hands_played"], "games": int(played),
                "finished": int(state["finished"]),
                "wins": int(state["winner"] == player["name"]), "points": player["score"],
                "moons": player.get("moons", 0), "moon_hand": player.get("moon_hand", 0)}

    def lowest_wins(self, rules: Mapping[str, Any]) -> bool:
        return True

    def ranking_key(self, figures: Mapping[str, int], money_cents: int) -> tuple[int, ...]:
        """Fewer points finish ahead (the winner has the fewest); equal points tie, whatever the
        tie-break of the game's end said."""
        return (-figures.get("points", 0),)

    def transfers(self, results: Mapping[str, tuple[Mapping[str, int], int]]
                  ) -> list[tuple[str, str, Fraction]]:
        """Every player pays the winner the difference (one the tie-break left below the
        winner is paid it); ended early, the leaders (the fewest points) share what the others
        pay, each in proportion to what they got."""
        points = {name: figures["points"] for name, (figures, _c) in results.items()
                  if "points" in figures}
        winners = [name for name in points if results[name][0].get("wins")] or \
            [name for name, p in points.items() if p == min(points.values())]
        # each winner's part of what a player pays: all of it, or their share of what was got
        got = sum(results[name][1] for name in winners)
        part = {name: Fraction(results[name][1], got) if got else Fraction(1, len(winners))
                for name in winners} if len(winners) > 1 else dict.fromkeys(winners, Fraction(1))
        paid = []
        for name, (_figures, cents) in results.items():
            for winner in [] if name in winners else winners:
                share = -cents * part[winner]
                paid.append((name, winner, share) if share > 0 else (winner, name, -share))
        return [payment for payment in paid if payment[2]]

    def standings(self, rows: list[dict[str, Any]]) -> dict[str, Any]:
        for row in rows:
            row["average"] = row["points"] / row["hands"] if row["hands"] else 0.0
        return {"rows": sorted(rows, key=lambda r: (-r["wins"], -r["money_cents"], r["player"]))}

    def keep(self, values: Mapping[str, Any]) -> dict[str, str]:
        """A hand entered by points: the next one is too."""
        return {"mode": "points"} if values.get("mode") == "points" else {}

    def player_section(self, history: list[Any], args: Mapping[str, str],
                       load: Callable[[int], tuple[Any, list[dict[str, Any]]]]
                       ) -> dict[str, Any] | None:
        """The score path of one of the player's games (the latest, or the one asked for)."""
        played = [r.game_id for r, _evening in history
                  if r.kind == self.name and r.figures.get("hands")]
        if not played:
            return None
        chosen = args.get("game", "")
        game, hands = load(next((g for g in played if str(g) == chosen), played[-1]))
        state = game.state
        series = [(p["name"], [(str(h["hand"]), h["totals"][p["name"]]) for h in hands])
                  for p in state["players"]]
        return {"game": game, "games": played,
                "chart": charts.line_chart(series, label=gettext("Score path"),
                                           highlight=state["target"], zero_line=False,
                                           empty=gettext("No hands yet."))}
