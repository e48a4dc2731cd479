"""The money of an evening: each person's balance game by game, and the fewest payments."""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import select

from . import settlement, standings
from .db import db
from .models import Evening, Game, PaidPayment

KASSE = "Kasse"  # the group's cash box: a party when a Vier-Anderle pot stays with the group


@dataclass
class Settlement:
    balances_cents: dict[str, int]
    payments: list[settlement.Payment]
    breakdown: dict[str, list[tuple[Game, int]]]  # person -> (game, cents) for every game
    unfinished: list[Game] = field(default_factory=list)  # games whose money may still change

    def as_json(self) -> dict:
        return {"balances_cents": self.balances_cents,
                "payments": [{"from": p.payer, "to": p.payee, "cents": p.cents}
                             for p in self.payments]}


def games_of(evening: Evening) -> list[Game]:
    return list(db.session.scalars(select(Game).where(Game.evening_id == evening.id)
                                   .order_by(Game.id)))


def settle(evening: Evening) -> Settlement:
    """Add up every game of the evening and turn the balances into payments."""
    balances: dict[str, int] = {}
    breakdown: dict[str, list[tuple[Game, int]]] = {}
    unfinished = []
    for game in games_of(evening):
        money, kasse = standings.game_money(game)
        if kasse:
            money = {**money, KASSE: kasse}
        if game.status == "running":
            unfinished.append(game)
        for name, cents in money.items():
            balances[name] = balances.get(name, 0) + cents
            breakdown.setdefault(name, []).append((game, cents))
    return Settlement(balances, settlement.payments(balances), breakdown, unfinished)


def paid(evening: Evening) -> set[tuple[str, str, int]]:
    rows = db.session.scalars(select(PaidPayment).where(PaidPayment.evening_id == evening.id))
    return {(row.payer, row.payee, row.cents) for row in rows}


def mark_paid(evening: Evening, payer: str, payee: str, cents: int) -> None:
    """Mark a payment as paid, or unmark it when it was marked."""
    row = db.session.scalar(select(PaidPayment).where(
        PaidPayment.evening_id == evening.id, PaidPayment.payer == payer,
        PaidPayment.payee == payee, PaidPayment.cents == cents))
    if row is None:
        db.session.add(PaidPayment(evening_id=evening.id, payer=payer, payee=payee, cents=cents))
    else:
        db.session.delete(row)
