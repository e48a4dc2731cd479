"""Who may see a group: this phone (its cookie and, for a game's history, what kind of phone it
is), the groups it joined by a join link (members), a view link (view) or a PIN (`pins`), and
what it may do there.

A phone's cookie holds one random device id, whatever the number of groups; its memberships are
rows on the server (`Membership`), found by the id's hash. Each keeps a fingerprint of the token
the phone joined with (`links`): renewing the join link replaces the token, so every fingerprint
taken from the old one stops matching. Without access a group answers exactly what a group that
does not exist answers (404).

What a hand's request passes through (`this_phone`, `admit`, `role`) is here, in one module.
Nothing here commits: the application layer (`changes.groups`) does.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from blinker import Namespace
from flask import abort, g, make_response, render_template, request, session
from sqlalchemy import and_, select

from scorekeeper.db import db
from scorekeeper.group.names import SLUG
from scorekeeper.models import Group, Membership, Player, TournamentTable

MEMBER, VIEW = "member", "view"
# a tournament table's phone, a guest of the group: it opens its table's game (by the table's
# link) and nothing else
TABLE = "guest"
PLAYS = frozenset({MEMBER, TABLE})  # the roles that enter and correct a game's hands
READS = frozenset({"GET", "HEAD"})
# sent when a phone comes with the groups of a cookie from before memberships were kept on the
# server: the application layer's receiver (changes.groups.adopt_old_cookie) moves them over
# with `adopt_old_cookie` below and commits, also on a page that stores nothing else
OLD_COOKIE = Namespace().signal("old-cookie")


def _fingerprint(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()[:32]


def _device() -> str | None:
    """The hash of this phone's device id, if it has one."""
    device = session.get("device")
    return hashlib.sha256(device.encode()).hexdigest() if isinstance(device, str) else None


def _this_device() -> str:
    """The hash of this phone's device id, made now (and put in its cookie) if it has none."""
    if not isinstance(session.get("device"), str):
        session["device"] = secrets.token_urlsafe(24)
        session.permanent = True  # for years (PERMANENT_SESSION_LIFETIME)
    return str(_device())


def adopt_old_cookie() -> None:
    """A phone from before memberships were kept on the server carries its groups in the
    cookie: they become its memberships (checked against the tokens as any other). The caller
    commits."""
    old = session.pop("groups", None)
    if not isinstance(old, dict):
        return
    device = _this_device()
    for group_id, entry in old.items():
        if not (isinstance(entry, list) and len(entry) == 2 and str(group_id).isdigit()
                and entry[0] in (MEMBER, VIEW)):
            continue
        if db.session.get(Group, int(group_id)) is not None:
            _keep(device, int(group_id), str(entry[0]), str(entry[1])[:64])


def _keep(device: str, group_id: int, kind: str, fingerprint: str) -> Membership:
    membership = db.session.scalar(select(Membership).where(Membership.device == device,
                                                            Membership.group_id == group_id))
    if membership is None:
        membership = Membership(device=device, group_id=group_id)
        db.session.add(membership)
    membership.role, membership.fingerprint = kind, fingerprint
    return membership


def _role(group: Group, membership: Membership | None) -> str | None:
    if membership is None:
        return None
    if membership.role == TABLE:
        table = db.session.get(TournamentTable, membership.table_id)
        token = table.token if table is not None else ""
    else:
        token = group.token if membership.role == MEMBER else group.view_token
    if not hmac.compare_digest(membership.fingerprint, _fingerprint(token)):
        return None  # joined with a link that was renewed since
    return membership.role


def role(group: Group) -> str | None:
    """This phone's role in the group: MEMBER, VIEW or None."""
    device = _device()
    if device is None:
        return None
    return _role(group, db.session.scalar(select(Membership).where(
        Membership.device == device, Membership.group_id == group.id)))


def grant(group: Group, kind: str) -> None:
    """This phone belongs to the group from now on (a member who opens the view link stays a
    member). The caller commits."""
    if kind == VIEW and role(group) == MEMBER:
        return
    token = group.token if kind == MEMBER else group.view_token
    _keep(_this_device(), group.id, kind, _fingerprint(token))


def leave(group: Group) -> None:
    """This phone is no longer in the group. The caller commits."""
    device = _device()
    membership = device and db.session.scalar(select(Membership).where(
        Membership.device == device, Membership.group_id == group.id))
    if membership:
        db.session.delete(membership)


def belongs_to(group: Group, player: Player | None) -> None:
    """Say whose phone this is ("this phone is Kurt's"), or nobody's. The caller commits."""
    membership = g.membership
    membership.player_id = player.id if player else None


def group_or_404(slug: str, view: bool = False, game_id: int | None = None) -> Group:
    """The group, if this phone may see it: a member always, a viewer only where `view` allows
    it and only to read, a tournament table's phone only for its table's game (`game_id`: the
    game the page opens). Anything else is the 404 of a group that does not exist. The group,
    the phone's membership and whose phone it is come in one query."""
    device = this_phone()
    found = None
    if device is not None and SLUG.fullmatch(slug):
        found = db.session.execute(
            select(Group, Membership, Player.name).join(Membership, and_(
                Membership.group_id == Group.id, Membership.device == device))
            .outerjoin(Player, Player.id == Membership.player_id)
            .where(Group.slug == slug)).first()
    group, membership, owner = found if found else (None, None, None)
    return admit(group, membership, owner, view, game_id)


def this_phone() -> str | None:
    """The hash of this phone's device id, if it has one (the groups of a cookie from before
    memberships were kept on the server moved over first: `OLD_COOKIE`)."""
    if "groups" in session:
        OLD_COOKIE.send()
    return _device()


def admit(group: Group | None, membership: Membership | None, owner: str | None,
          view: bool = False, game_id: int | None = None) -> Group:
    """The group, if this phone may see it with this membership (read by the caller, with
    whose phone it is): as `group_or_404`, else 404. A tournament table's phone sees only its
    table's game (`game_id`: the game a table's page opens)."""
    kind = _role(group, membership) if group is not None else None
    if group is not None and membership is not None and kind is None:
        # this phone was in the group until its link was renewed: it may know why it is out
        abort(make_response(render_template("access/renewed.html", group=group), 404))
    if group is None or kind is None or (kind == VIEW and not (view and request.method in READS)):
        abort(404)
    if kind == TABLE and (game_id is None or membership is None or game_id != _table_game(
            membership)):
        abort(404)
    g.role, g.membership, g.owner = kind, membership, owner
    return group


# --- what kind of phone made a change ------------------------------------------------------

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


def _table_game(membership: Membership) -> int | None:
    table = db.session.get(TournamentTable, membership.table_id)
    return table.game_id if table is not None else None


def seat_at(group: Group, table: TournamentTable) -> None:
    """This phone is a tournament table's phone from now on: it opens that table's game and
    nothing else of the group (a member's phone stays a member). The caller commits."""
    if role(group) == MEMBER:
        return
    membership = _keep(_this_device(), group.id, TABLE, _fingerprint(table.token))
    membership.table_id = table.id


def init_app(app) -> None:
    # templates show what changes something only to members
    app.context_processor(lambda: {"member": g.get("role") == MEMBER,
                                   "plays": g.get("role") in PLAYS})
