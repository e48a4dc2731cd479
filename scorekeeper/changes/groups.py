"""Every change to a group and to who is in it, in the players' words: start a group, add a
player, archive one or bring them back, rename one, switch the ratings, say how the champion is
decided; join by the link or by the PIN, leave, say whose phone this is, renew the links, set
the PIN; and a phone from before memberships were kept on the server keeps its groups.

Each function checks the change, stores it through the `group` room (`access`, `links`, `pins`,
`club`) or `changes.renaming`, commits and answers with what the page says (`answers.Done`,
`answers.Refused`, `answers.Stale`) or with what it made. Nothing here reads the request but the
phone's own cookie, which `access` keeps (a membership is this phone's).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask_babel import gettext as _
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from scorekeeper.changes import renaming
from scorekeeper.changes.answers import Done, Refused, Stale
from scorekeeper.db import db
from scorekeeper.group import access, club, links, names, pins
from scorekeeper.models import Group, Player
from scorekeeper.table import scoring

# --- the group and its players -----------------------------------------------------------------


def create_group(name: str) -> Group | Refused:
    """A new group called `name`, on the short name its letters make ("Zur Krone": zur-krone;
    two phones creating "Krone" at once get krone and krone-2); whoever creates it is in it
    (others join by the link)."""
    base = names.slugify(name)
    for number in range(1, 100):
        slug = base if number == 1 else f"{base[:55]}-{number}"
        if club.find_group(slug):
            continue
        group = Group(slug=slug, name=name.strip())
        db.session.add(group)
        try:
            db.session.commit()
            break
        except IntegrityError:  # the other phone took this short name a moment ago
            db.session.rollback()
    else:
        return Refused(_("Please choose another name."))
    access.grant(group, access.MEMBER)
    db.session.commit()
    return group


def _name_taken(group: Group, name: str, but: Player | None = None) -> Refused | None:
    """Refused if another player of the group has this name, whatever the case."""
    player = club.find_player(group, name)
    if player is not None and player is not but:
        return Refused(_("There is already a player called %(name)s.", name=name))
    return None


def add_player(group: Group, name: str) -> Done | Refused:
    """A new player of the group; refused if somebody has that name already."""
    if taken := _name_taken(group, name):
        return taken
    db.session.add(Player(group_id=group.id, name=name))
    db.session.commit()
    return Done()


def archive_player(player: Player) -> None:
    """Archive a player (the group's forms no longer offer them; their games stay), or bring
    an archived one back."""
    player.archived = not player.archived
    db.session.commit()


def rename_player(group: Group, player: Player, name: str) -> Done | Refused | Stale:
    """Rename a player everywhere they appear (`renaming`); refused if somebody else has that
    name. If a game of theirs changed meanwhile, nothing is renamed (Stale)."""
    if taken := _name_taken(group, name, but=player):
        return taken
    try:
        renaming.rename_player(player, name)
    except scoring.StaleEntry:  # a hand was entered meanwhile: nothing was renamed
        db.session.rollback()
        return Stale(_("A game changed in the meantime. Please rename again."))
    db.session.commit()
    return Done(_("Renamed."))


def switch_ratings(group: Group, on: bool) -> None:
    """Switch the group's skill ratings on or off (worked out when shown: nothing is lost by
    switching them off)."""
    group.ratings = on
    db.session.commit()


def set_champion_rule(group: Group, champion_by: str, share: int) -> None:
    """How the group's season champion is decided (every season's page shows it so)."""
    group.champion_by = champion_by
    group.champion_share = share
    db.session.commit()


# --- who is in the group -----------------------------------------------------------------------

def join(group: Group, kind: str) -> None:
    """This phone joins the group by its join link (a member) or view link (a viewer; a member
    who opens the view link stays a member)."""
    access.grant(group, kind)
    db.session.commit()


class NotCounted(Exception):
    """A PIN attempt that could not be counted (the database refused): the PIN was not
    checked, so that no attempt goes uncounted."""


@dataclass(frozen=True)
class PinTried:
    """What a group's name and PIN typed on the join page did: `group` is the group this phone
    joined (None: no group has this name and PIN); `within` False: past the limits on
    guessing, refused before the PIN was checked."""

    group: Group | None
    within: bool = True


def join_with_pin(name: str, pin: str, address: str) -> PinTried:
    """This phone joins the group called `name` whose PIN is `pin`. The attempt is counted
    first, right or wrong, from `address` and from this phone (and committed whatever comes
    after: `pins.attempt`); raises NotCounted if it cannot be."""
    try:
        within, group = pins.attempt(names.slugify(name), address)
    except SQLAlchemyError as error:
        db.session.rollback()
        raise NotCounted from error
    if not within:
        return PinTried(None, within=False)
    if not pins.opens(group, pin):
        return PinTried(None)
    assert group is not None  # a PIN opens only a group
    access.grant(group, access.MEMBER)
    db.session.commit()
    return PinTried(group)


def leave(group: Group) -> Done:
    """This phone leaves the group (it can join again with the link)."""
    access.leave(group)
    db.session.commit()
    return Done(_("This phone has left %(group)s.", group=group.name))


def set_owner(group: Group, player: Player | None) -> None:
    """Say whose phone this is (or nobody's): the games' history then names the player, not
    the phone."""
    access.belongs_to(group, player)
    db.session.commit()


def renew_links(group: Group) -> Done:
    """New join and view links (and no PIN): every phone that joined with the old ones is out
    until it opens a new one; this phone stays in."""
    links.renew(group)
    access.grant(group, access.MEMBER)
    db.session.commit()
    return Done(_("The join link is new. Phones that joined with the old link are out until "
                  "they open the new one."))


def set_pin(group: Group, pin: str | None) -> Done:
    """The group's PIN from now on (None: nobody joins by PIN)."""
    pins.set_pin(group, pin)
    db.session.commit()
    return Done(_("The PIN is set.") if pin else _("The PIN is off."))


@access.OLD_COOKIE.connect
def adopt_old_cookie(_sender: Any = None) -> None:
    """A phone from before memberships were kept on the server keeps the groups its cookie
    carries: they become its memberships, committed at once (also on a page that stores
    nothing else). Called by `access.this_phone` through `access.OLD_COOKIE`."""
    access.adopt_old_cookie()
    db.session.commit()
