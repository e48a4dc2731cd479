"""Renaming a player: in every game they sat in, in its entries and history, in payments, fines
and the steps of signing an evening off. Stored here, committed by the change that asks for it
(`groups.rename_player`)."""

from __future__ import annotations

from sqlalchemy import select, update

from scorekeeper import engine
from scorekeeper.db import db
from scorekeeper.models import (
    Entry,
    Evening,
    Game,
    KasseEntry,
    PaidPayment,
    Player,
    Revision,
    Signoff,
)
from scorekeeper.season import standings
from scorekeeper.table import scoring


def rename_player(player: Player, new: str) -> None:
    """Rename a player in every game they sat in, replay those games and store the results.
    Each game's engine says where its entries name a player (`Table.renamed`).

    Raises scoring.StaleEntry if one of the games changed meanwhile (the caller rolls back:
    nothing is written then). The caller commits.
    """
    old = player.name
    games = db.session.scalars(select(Game).where(Game.group_id == player.group_id)).all()
    for game in games:
        if not any(p["name"] == old for p in game.state["players"]):
            continue
        table = engine.get(game.kind).Table
        seating = [new if n == old else n for n in game.seating]
        first_dealer = new if game.first_dealer == old else game.first_dealer
        # claim the game first: if a phone changed it since we read it, nothing is written
        scoring.claim(game, seating=seating, first_dealer=first_dealer)
        for entry in db.session.scalars(select(Entry).where(Entry.game_id == game.id)):
            entry.data = table.renamed(entry.data, old, new)
        for revision in db.session.scalars(select(Revision).where(Revision.game_id == game.id)):
            revision.data = table.renamed(revision.data, old, new)
        scoring.rebuild(game)  # the state and what each entry did, with the new name
        standings.store(game)
    evenings = select(Evening.id).where(Evening.group_id == player.group_id)
    for column in (PaidPayment.payer, PaidPayment.payee):
        db.session.execute(update(PaidPayment).where(PaidPayment.evening_id.in_(evenings),
                                                     column == old).values({column: new}))
    db.session.execute(update(KasseEntry).where(KasseEntry.group_id == player.group_id,
                                                KasseEntry.player == old).values(player=new))
    db.session.execute(update(Signoff).where(Signoff.evening_id.in_(evenings),
                                             Signoff.player == old).values(player=new))
    player.name = new
