"""Groups, their players and evenings: look-ups and the small rules the web and CLI share."""

from __future__ import annotations

import datetime as dt
import re

from sqlalchemy import select, update

from .db import db
from .models import Evening, Group, Player

SLUG = re.compile(r"^[a-z0-9][a-z0-9-]{0,59}$")


def slugify(name: str) -> str:
    table = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss"})
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower().translate(table)).strip("-")
    return slug[:60] or "gruppe"


def find_group(slug: str) -> Group | None:
    return db.session.scalar(select(Group).where(Group.slug == slug))


def group_for(slug: str, name: str | None = None) -> Group:
    """The group with this slug, created if it does not exist yet."""
    if not SLUG.match(slug):
        raise ValueError(f"{slug!r} is not a group name of lowercase letters, digits and dashes")
    group = find_group(slug)
    if group is None:
        group = Group(slug=slug, name=name or slug)
        db.session.add(group)
        db.session.flush()
    return group


def player_for(group: Group, name: str) -> Player:
    player = db.session.scalar(select(Player).where(Player.group_id == group.id,
                                                    Player.name == name))
    if player is None:
        player = Player(group_id=group.id, name=name)
        db.session.add(player)
        db.session.flush()
    return player


def evening_for(group: Group, day: dt.date | None = None) -> Evening:
    """The group's evening on `day` (today by default), created if needed."""
    day = day or dt.date.today()
    evening = db.session.scalar(select(Evening).where(Evening.group_id == group.id,
                                                      Evening.date == day)
                                .order_by(Evening.id).limit(1))
    if evening is None:
        evening = Evening(group_id=group.id, date=day, place="")
        db.session.add(evening)
        db.session.flush()
    return evening


def _renamed(value, old: str, new: str):
    """`value` (stored JSON) with every occurrence of the name `old` as a key or value replaced."""
    if isinstance(value, dict):
        return {(new if k == old else k): _renamed(v, old, new) for k, v in value.items()}
    if isinstance(value, list):
        return [_renamed(v, old, new) for v in value]
    return new if value == old else value


def rename_player(player: Player, new: str) -> None:
    """Rename a player everywhere the name is stored: seating, entries and their history."""
    from .models import Entry, Game, PaidPayment, Result, Revision

    old = player.name
    games = db.session.scalars(select(Game).where(Game.group_id == player.group_id)).all()
    for game in games:
        if old not in game.seating and old not in str(game.state):
            continue
        game.seating = _renamed(game.seating, old, new)
        game.first_dealer = _renamed(game.first_dealer, old, new)
        game.state = _renamed(game.state, old, new)
        for entry in db.session.scalars(select(Entry).where(Entry.game_id == game.id)):
            entry.data = _renamed(entry.data, old, new)
        for revision in db.session.scalars(select(Revision).where(Revision.game_id == game.id)):
            revision.data = _renamed(revision.data, old, new)
    db.session.execute(update(Result).where(Result.group_id == player.group_id,
                                            Result.player == old).values(player=new))
    evenings = select(Evening.id).where(Evening.group_id == player.group_id)
    for column in (PaidPayment.payer, PaidPayment.payee):
        db.session.execute(update(PaidPayment).where(PaidPayment.evening_id.in_(evenings),
                                                     column == old).values({column: new}))
    player.name = new
