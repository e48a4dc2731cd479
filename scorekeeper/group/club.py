"""A group's rows, looked up or made: the group, its players, its evenings, its last game."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from zoneinfo import ZoneInfo

from flask import current_app
from sqlalchemy import or_, select

from scorekeeper.db import db
from scorekeeper.group.names import SLUG
from scorekeeper.models import Evening, Game, Group, Player


def find_group(slug: str) -> Group | None:
    if not SLUG.fullmatch(slug):  # no such group; and PostgreSQL refuses a NUL in a query
        return None
    return db.session.scalar(select(Group).where(Group.slug == slug))


def find_group_by_token(token: str) -> Group | None:
    """The group whose join or view link holds `token`."""
    return db.session.scalar(select(Group).where(or_(Group.token == token,
                                                     Group.view_token == token)))


def group_for(slug: str, name: str | None = None) -> Group:
    """The group with this slug, created if it does not exist yet."""
    if not SLUG.fullmatch(slug):
        raise ValueError(f"{slug!r} is not a group name of lowercase letters, digits and dashes")
    group = find_group(slug)
    if group is None:
        group = Group(slug=slug, name=name or slug)
        db.session.add(group)
        db.session.flush()
    return group


def find_player(group: Group, name: str) -> Player | None:
    """The group's player with this name, whatever the case ("anna" finds "Anna")."""
    key = name.strip().casefold()
    players = db.session.scalars(select(Player).where(Player.group_id == group.id))
    return next((p for p in players if p.name.casefold() == key), None)


def join(group: Group, names: Iterable[str]) -> None:
    """Whoever of `names` is not a player of the group yet becomes one (somebody new who sat
    down at a table)."""
    known = {name.casefold() for name in
             db.session.scalars(select(Player.name).where(Player.group_id == group.id))}
    for name in dict.fromkeys(names):
        if name.casefold() not in known:
            db.session.add(Player(group_id=group.id, name=name))
            known.add(name.casefold())
    db.session.flush()


def evening_day() -> dt.date:
    """Today as the table sees it: a night that goes on past midnight is still one evening."""
    zone = ZoneInfo(current_app.config["BABEL_DEFAULT_TIMEZONE"])
    return (dt.datetime.now(zone) - dt.timedelta(hours=6)).date()


def find_evening(group: Group, day: dt.date | None = None) -> Evening | None:
    """The group's evening on `day` (tonight by default), if there is one."""
    return db.session.scalar(select(Evening).where(Evening.group_id == group.id,
                                                   Evening.date == (day or evening_day()))
                             .order_by(Evening.id).limit(1))


def evening_for(group: Group, day: dt.date | None = None) -> Evening:
    """The group's evening on `day` (tonight by default), created if needed."""
    day = day or evening_day()
    evening = find_evening(group, day)
    if evening is None:
        evening = Evening(group_id=group.id, date=day, place="")
        db.session.add(evening)
        db.session.flush()
    return evening


def last_game(group: Group, kind: str) -> Game | None:
    """The group's latest game of this kind (by its evening, then its start), deleted ones left
    out: what a game's adapter reads to start the next one (`Adapter.new_game_rules`)."""
    return db.session.scalar(select(Game).join(Evening)
                             .where(Game.group_id == group.id, Game.kind == kind,
                                    Game.status != "deleted")
                             .order_by(Evening.date.desc(), Game.id.desc()).limit(1))
