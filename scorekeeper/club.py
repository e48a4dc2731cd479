"""Groups, their players and evenings: look-ups and the small rules the web and CLI share."""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from zoneinfo import ZoneInfo

from flask import abort, current_app
from sqlalchemy import func, or_, select, update

from .db import db
from .models import Evening, Group, Player

SLUG = re.compile(r"^[a-z0-9][a-z0-9-]{0,59}$")
NAME = re.compile(r"^[^<>/\\\x00-\x1f]{1,40}$")
RESERVED = {"kasse"}  # the group's cash box is a party in every settlement
# control, format (bidi, zero-width), private-use, surrogate and unassigned characters, line
# and paragraph separators, and every space but the plain one
HIDDEN_CATEGORIES = {"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp", "Zs"}
HIDDEN = {"\u034f", "\u115f", "\u1160", "\u180e", "\u3164", "\uffa0"}  # invisible letters
MAX_ID = 2**31 - 1  # the largest id a database column holds


def printable(text: str) -> bool:
    """True if `text` has no invisible or control character (the plain space is fine)."""
    return all(c == " " or (c not in HIDDEN and unicodedata.category(c) not in HIDDEN_CATEGORIES)
               for c in text)


def name_problem(name: str) -> str | None:
    """Why `name` cannot be a player's name ("format" or "reserved"), or None."""
    if not printable(name):
        return "format"
    name = name.strip()
    if not NAME.fullmatch(name):
        return "format"
    return "reserved" if unicodedata.normalize("NFKC", name).casefold() in RESERVED else None


def get_owned_or_404(model, row_id: int, group: Group):
    """The row `row_id` of `model` (Player, Evening, Game) if it is one of `group`'s, else 404."""
    row = db.session.get(model, row_id) if 1 <= row_id <= MAX_ID else None
    if row is None or row.group_id != group.id:
        abort(404)
    return row


def slugify(name: str) -> str:
    table = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss"})
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower().translate(table)).strip("-")
    return slug[:60] or "gruppe"


def find_group(slug: str) -> Group | None:
    if not SLUG.fullmatch(slug):  # no such group; and PostgreSQL refuses a NUL in a query
        return None
    return db.session.scalar(select(Group).where(Group.slug == slug))


_SYSTEMS = (("iPhone", "iPhone"), ("iPad", "iPad"), ("Android", "Android"),
            ("Windows", "Windows"), ("Mac OS X", "Mac"), ("CrOS", "ChromeOS"), ("Linux", "Linux"))
_BROWSERS = (("Edg/", "Edge"), ("OPR/", "Opera"), ("SamsungBrowser", "Samsung Internet"),
             ("Firefox/", "Firefox"), ("FxiOS", "Firefox"), ("CriOS", "Chrome"),
             ("Chrome/", "Chrome"), ("Safari/", "Safari"))


def device_label(user_agent: str) -> str:
    """What kind of phone made a change, in a few words ("Android · Chrome"): enough to tell the
    phones at the table apart in a game's history, never the browser's whole string. A label
    stays as it is; only printable characters are kept (a browser may send control characters,
    which an export could not carry)."""
    user_agent = "".join(c for c in user_agent if c.isprintable())
    if "/" not in user_agent and len(user_agent) <= 40:
        return user_agent
    system = next((label for key, label in _SYSTEMS if key in user_agent), "")
    browser = next((label for key, label in _BROWSERS if key in user_agent), "")
    return " · ".join(part for part in (system, browser) if part) or "–"


def group_version(group: Group) -> str:
    """Changes whenever a game of the group changes or starts, an evening opens or a payment is
    marked: what the evening and standings pages watch."""
    from .models import Game, PaidPayment

    games = db.session.execute(select(func.count(Game.id), func.coalesce(func.sum(Game.version), 0))
                               .where(Game.group_id == group.id)).one()
    evenings = select(Evening.id).where(Evening.group_id == group.id)
    paid = db.session.execute(select(func.count(PaidPayment.id),
                                     func.coalesce(func.max(PaidPayment.id), 0))
                              .where(PaidPayment.evening_id.in_(evenings))).one()
    opened = db.session.scalar(select(func.count()).select_from(evenings.subquery()))
    return "-".join(str(n) for n in (*games, *paid, opened))


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


def player_for(group: Group, name: str) -> Player:
    player = find_player(group, name)
    if player is None:
        player = Player(group_id=group.id, name=name)
        db.session.add(player)
        db.session.flush()
    return player


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


def _renamed(data: dict, old: str, new: str) -> dict:
    """A stored entry with the player `old` called `new`: as a key of the per-player mappings,
    in the lists of names and as a single name. `moon` holds a choice, never a name."""
    def name(value):
        return new if value == old else value

    def rename(value):
        if isinstance(value, dict):
            return {name(k): v for k, v in value.items()}
        if isinstance(value, list):
            return [rename(v) if isinstance(v, dict) else name(v) for v in value]
        return name(value)

    return {key: value if key == "moon" else rename(value) for key, value in data.items()}


def rename_player(player: Player, new: str) -> None:
    """Rename a player in every game they sat in, replay those games and store the results.

    Raises scoring.StaleEntry if one of the games changed meanwhile (nothing is written then).
    """
    from . import scoring, standings
    from .models import Entry, Game, PaidPayment, Revision

    old = player.name
    games = db.session.scalars(select(Game).where(Game.group_id == player.group_id)).all()
    for game in games:
        if not any(p["name"] == old for p in game.state["players"]):
            continue
        seating = [new if n == old else n for n in game.seating]
        first_dealer = new if game.first_dealer == old else game.first_dealer
        # claim the game first: if a phone changed it since we read it, nothing is written
        scoring.claim(game, seating=seating, first_dealer=first_dealer)
        for entry in db.session.scalars(select(Entry).where(Entry.game_id == game.id)):
            entry.data = _renamed(entry.data, old, new)
        for revision in db.session.scalars(select(Revision).where(Revision.game_id == game.id)):
            revision.data = _renamed(revision.data, old, new)
        scoring.rebuild(game)  # the state and what each entry did, with the new name
        standings.store(game)
    evenings = select(Evening.id).where(Evening.group_id == player.group_id)
    for column in (PaidPayment.payer, PaidPayment.payee):
        db.session.execute(update(PaidPayment).where(PaidPayment.evening_id.in_(evenings),
                                                     column == old).values({column: new}))
    player.name = new
