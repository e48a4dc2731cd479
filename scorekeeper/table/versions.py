"""A group's live version: what the evening, standings and TV pages watch for a change."""

from __future__ import annotations

from sqlalchemy import func, select

from scorekeeper.db import db
from scorekeeper.models import Evening, Fine, Game, Group, KasseEntry, PaidPayment, Signoff


def group_version(group: Group) -> str:
    """Changes whenever a game of the group changes or starts, an evening opens, a payment is
    marked, the Kasse's book changes (a fine too), a player signs an evening off or the group
    changes its fines or its window for signing off."""
    games = db.session.execute(select(func.count(Game.id), func.coalesce(func.sum(Game.version), 0))
                               .where(Game.group_id == group.id)).one()
    evenings = select(Evening.id).where(Evening.group_id == group.id)
    paid = db.session.execute(select(func.count(PaidPayment.id),
                                     func.coalesce(func.max(PaidPayment.id), 0))
                              .where(PaidPayment.evening_id.in_(evenings))).one()
    opened = db.session.scalar(select(func.count()).select_from(evenings.subquery()))
    book = db.session.execute(select(func.count(KasseEntry.id), func.count(KasseEntry.deleted_at))
                              .where(KasseEntry.group_id == group.id,
                                     KasseEntry.kind.in_(("deposit", "withdrawal", "fine")))).one()
    signed = db.session.scalar(select(func.count(Signoff.id))
                               .where(Signoff.evening_id.in_(evenings)))
    fines = db.session.execute(select(func.count(Fine.id), func.count(Fine.id).filter(
        Fine.archived.is_(True))).where(Fine.group_id == group.id)).one()
    return "-".join(str(n) for n in (*games, *paid, opened, *book, signed, *fines,
                                     group.signoff_hours))
