"""The money of an evening: each person's balance game by game, and the fewest payments."""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import select

from . import games, settlement
from .db import db
from .models import Evening, Game, PaidPayment
from .names import KASSE

Breakdown = dict[str, list[tuple[Game | None, int]]]


@dataclass
class Settlement:
    balances_cents: dict[str, int]
    paid: list[settlement.Payment]  # handed over already (marked as paid)
    payments: list[settlement.Payment]  # still to pay: together with `paid` they clear everything
    breakdown: Breakdown  # person -> (game, cents) for every game; (None, cents): the rounding
    games: list[Game] = field(default_factory=list)
    unfinished: list[Game] = field(default_factory=list)  # games whose money may still change

    def as_json(self) -> dict:
        return {"balances_cents": self.balances_cents,
                "payments": [{"from": p.payer, "to": p.payee, "cents": p.cents, "paid": done}
                             for done, batch in ((True, self.paid), (False, self.payments))
                             for p in batch]}


def games_of(evening: Evening) -> list[Game]:
    """The evening's games (a deleted one counts nowhere)."""
    return list(db.session.scalars(select(Game).where(Game.evening_id == evening.id,
                                                      Game.status != "deleted")
                                   .order_by(Game.id)))


ROUNDINGS = (0, 10, 50, 100)  # what a group may round its payments to, in cents


def _round(balances: dict[str, int], breakdown: Breakdown, unit: int) -> None:
    """Round every player's balance to `unit` cents (the nearest; half a unit away from zero),
    so that what players pay each other is in coins they have. The Kasse takes the difference,
    so the balances still add up to zero; each difference is a line of its own (no game)."""
    rest = 0
    for name, cents in list(balances.items()):
        if name == KASSE:
            continue
        rounded = (abs(cents) + unit // 2) // unit * unit * (1 if cents >= 0 else -1)
        if rounded != cents:
            balances[name] = rounded
            breakdown[name].append((None, rounded - cents))
            rest += rounded - cents
    if rest:
        balances[KASSE] = balances.get(KASSE, 0) - rest
        breakdown.setdefault(KASSE, []).append((None, -rest))


def _balances(played: list[Game], rounding: int) -> tuple[dict[str, int], Breakdown]:
    """Everybody's money from these games (the Kasse's too), game by game; rounded to
    `rounding` cents if the group rounds."""
    balances: dict[str, int] = {}
    breakdown: Breakdown = {}
    for game in played:
        money, house = games.get(game.kind).money(game)
        if house:  # what the game put into the group's cash box, or took out of it
            money = {**money, KASSE: house}
        for name, cents in money.items():
            balances[name] = balances.get(name, 0) + cents
            breakdown.setdefault(name, []).append((game, cents))
    if rounding:
        _round(balances, breakdown, rounding)
    return balances, breakdown


def settle(evening: Evening, rounding: int = 0) -> Settlement:
    """Add up every game of the evening and turn what is still owed into the fewest payments.

    Payments marked as paid count against the balances, so a later correction of a hand only
    changes what is still to be paid. With `rounding` (cents), players' balances are rounded to
    it and the Kasse takes the difference.
    """
    played = games_of(evening)
    balances, breakdown = _balances(played, rounding)
    paid = [settlement.Payment(row.payer, row.payee, row.cents) for row in paid_rows(evening)]
    owed = dict(balances)
    for payment in paid:
        owed[payment.payer] = owed.get(payment.payer, 0) + payment.cents
        owed[payment.payee] = owed.get(payment.payee, 0) - payment.cents
    unfinished = [game for game in played if game.status == "running"]
    return Settlement(balances, paid, settlement.payments(owed), breakdown, played, unfinished)


def kasse_part(played: list[Game], rounding: int) -> list[tuple[Game | None, int]]:
    """What these games of one evening put into the Kasse or took out of it, game by game, and
    what rounding the evening's payments to `rounding` cents left in it (None): the evening's
    lines of the Kasse's book (scorekeeper/ledger.py)."""
    return _balances(played, rounding)[1].get(KASSE, [])


def paid_rows(evening: Evening) -> list[PaidPayment]:
    return list(db.session.scalars(select(PaidPayment).where(PaidPayment.evening_id == evening.id)
                                   .order_by(PaidPayment.id)))
