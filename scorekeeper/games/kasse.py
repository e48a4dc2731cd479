"""The Kasse: the group's cash box, which keeps a Vier-Anderle pot from one game to the next.

A closed game's pot rule (`pot_at_end`) may leave stakes in the Kasse; the group's next game of
this kind starts with exactly that pot, at the stake it was won at. In a settlement the Kasse is
a party like a player: it gains what a game leaves in it and pays in what a game takes out.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask_babel import gettext
from sqlalchemy import select

from .. import engine
from ..db import db
from ..display import money
from ..engine import vier_anderle
from ..models import Evening, Game

KASSE = "Kasse"  # no player may have this name (club.RESERVED)


def closing(state: Mapping[str, Any]) -> dict[str, Any]:
    """What closing the game now does with its pot (RuleError if it must be played out)."""
    return vier_anderle.close(state)


def held(group: Any) -> dict[str, int]:
    """What the Kasse holds for the group's next game, as its rules: the pot and the stake it
    was won at (empty when it holds nothing). The latest game of the group holds the Kasse's
    pot while it runs; once closed, what its pot rule left in the Kasse."""
    last = db.session.scalar(select(Game).join(Evening)
                             .where(Game.group_id == group.id, Game.kind == vier_anderle.NAME,
                                    Game.status != "deleted")
                             .order_by(Evening.date.desc(), Game.id.desc()).limit(1))
    if last is None or last.status != "closed":
        return {}
    pot = closing(last.state)["next_starting_pot"]
    return {"starting_pot": pot, "stake_cents": last.state["rules"]["stake_cents"]} if pot else {}


def check(group: Any, rules: Mapping[str, Any]) -> dict[str, str]:
    """A new game takes in exactly what the Kasse holds, at the stake it was won at."""
    holds = held(group)
    pot = rules.get("starting_pot", 0)
    if pot != holds.get("starting_pot", 0):
        return {"starting_pot": gettext("The Kasse holds %(held)s stakes, not %(pot)s.",
                                        held=holds.get("starting_pot", 0), pot=pot)}
    stake = rules.get("stake_cents", _default("stake_cents"))
    if holds and stake != holds["stake_cents"]:
        return {"stake_cents": gettext("The pot in the Kasse was won at a stake of %(stake)s; "
                                       "the next game plays at that stake.",
                                       stake=money(holds["stake_cents"]))}
    return {}


def share(game: Game) -> tuple[dict[str, int], int]:
    """Each player's money from a game in cents, and what the Kasse gains from it.

    The pot is handled by its `pot_at_end` rule as if the game closed now; a pot that must
    still be played out counts as the Kasse's until it is empty.
    """
    state = game.state
    stake = state["rules"]["stake_cents"]
    try:
        result = closing(state)
    except engine.RuleError:  # play-out with money in the pot: the table still owes it
        money = {p["name"]: p["balance_cents"] for p in state["players"]}
        return money, (state["pot"] - state["starting_pot"]) * stake
    return result["balances_cents"], (result["kasse"] - state["starting_pot"]) * stake


def _default(name: str) -> Any:
    return next(o.default for o in vier_anderle.OPTIONS if o.name == name)
