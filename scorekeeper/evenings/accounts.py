"""The money of an evening: each person's balance game by game, and the fewest payments."""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import select

from scorekeeper import games
from scorekeeper.db import db
from scorekeeper.evenings import settlement
from scorekeeper.group.names import KASSE
from scorekeeper.models import Evening, Game, KasseEntry, PaidPayment

# person -> (what, cents) from the games: a game, or None for the rounding
Breakdown = dict[str, list[tuple[Game | None, int]]]
# the evening's: also a fine's name (a str) for a fine
EveningBreakdown = dict[str, list[tuple[Game | str | None, int]]]


@dataclass
class Settlement:
    balances_cents: dict[str, int]
    paid: list[settlement.Payment]  # handed over already (marked as paid)
    payments: list[settlement.Payment]  # still to pay: together with `paid` they clear everything
    # person -> (game, cents) for every game; (None, cents): the rounding; (the fine's name,
    # cents): a fine booked at the evening
    breakdown: EveningBreakdown
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
    """Round every player's balance to `unit` cents (see `settled`), so that what players pay
    each other is in coins they have. The Kasse takes the difference, so the balances still add
    up to zero; each difference is a line of its own (no game)."""
    for name, cents in settled(balances, unit).items():
        if cents != balances.get(name, 0):
            breakdown.setdefault(name, []).append((None, cents - balances.get(name, 0)))
            balances[name] = cents


def round_cents(cents: int, unit: int) -> int:
    """`cents` rounded to `unit` cents (0: as they are): to the nearest, half a unit away from
    zero. The one rounding of a player's money: the settlement's and the standings'."""
    if not unit:
        return cents
    return (abs(cents) + unit // 2) // unit * unit * (1 if cents >= 0 else -1)


def settled(balances: dict[str, int], unit: int) -> dict[str, int]:
    """An evening's money from its games (the Kasse's part under KASSE, if any) as its
    settlement pays it: each player's rounded to `unit` cents, the Kasse taking the difference,
    so that they add up to what they added up to before (zero, for all of an evening's games).
    For the standings, which add up the stored results per evening (standings.evening_money)."""
    result = {name: round_cents(cents, unit) if name != KASSE else cents
              for name, cents in balances.items()}
    rest = sum(result.values()) - sum(balances.values())
    if rest or KASSE in balances:
        result[KASSE] = result.get(KASSE, 0) - rest
    return result


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


def rounding_of(evening: Evening, rounding: int) -> int:
    """The rounding of the evening's payments: the group's (`rounding`), or the one it had when
    the table was first asked to sign the evening off (evenings/signoff.py): kept, so a later
    change of the setting does not change money the table signed."""
    return rounding if evening.rounding_cents is None else evening.rounding_cents


def fines(evening: Evening) -> list[KasseEntry]:
    """The fines booked at the evening that count (not deleted), one line per player who pays."""
    return list(db.session.scalars(select(KasseEntry).where(
        KasseEntry.evening_id == evening.id, KasseEntry.kind == "fine",
        KasseEntry.deleted_at.is_(None)).order_by(KasseEntry.id)))


def settle(evening: Evening, rounding: int = 0) -> Settlement:
    """Add up every game of the evening and its fines, and turn what is still owed into the
    fewest payments.

    Payments marked as paid count against the balances, so a later correction of a hand only
    changes what is still to be paid. With `rounding` (cents; see `rounding_of`), players'
    money from the games is rounded to it and the Kasse takes the difference; a fine is added
    after the rounding, at its price: the player owes it to the Kasse.
    """
    played = games_of(evening)
    balances, from_games = _balances(played, rounding_of(evening, rounding))
    breakdown: EveningBreakdown = {name: [*rows] for name, rows in from_games.items()}
    for fine in fines(evening):
        for name, cents in ((fine.player, -fine.cents), (KASSE, fine.cents)):
            balances[name] = balances.get(name, 0) + cents
            breakdown.setdefault(name, []).append((fine.note, cents))
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
