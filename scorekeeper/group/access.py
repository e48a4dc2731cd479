"""Who may see a group: the phones that joined it by its join link (members), its view link
(view) or its PIN.

A phone's cookie holds one random device id, whatever the number of groups; its memberships are
rows on the server (`Membership`), found by the id's hash. Each keeps a fingerprint of the token
the phone joined with: renewing the join link replaces the token, so every fingerprint taken from
the old one stops matching. Without access a group answers exactly what a group that does not
exist answers (404).
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import hmac
import secrets

from flask import (
    abort,
    current_app,
    g,
    make_response,
    render_template,
    request,
    session,
    url_for,
)
from sqlalchemy import and_, select
from werkzeug.security import check_password_hash, generate_password_hash

from scorekeeper.db import db
from scorekeeper.group import attempts, club
from scorekeeper.group.names import SLUG
from scorekeeper.models import Group, Membership, Player, new_token

MEMBER, VIEW = "member", "view"
READS = frozenset({"GET", "HEAD"})
# PIN attempts, right or wrong, counted before the PIN is checked, in sliding windows: from one
# address for all group names together, before a group is even looked up (so made-up names
# cost no hash) ...
ADDRESS_LIMIT = (10, dt.timedelta(minutes=15))
# ... then per group from one address, and per group and day from one address and from one
# phone (its cookie), so a stranger elsewhere cannot use up the attempts of the group's phones
PIN_LIMITS = ((5, dt.timedelta(minutes=15)), (20, dt.timedelta(days=1)))


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


def _adopt_old_cookie() -> None:
    """A phone from before memberships were kept on the server carries its groups in the
    cookie: they become its memberships (checked against the tokens as any other)."""
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
    db.session.commit()


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


def group_or_404(slug: str, view: bool = False) -> Group:
    """The group, if this phone may see it: a member always, a viewer only where `view` allows
    it and only to read. Anything else is the 404 of a group that does not exist. The group,
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
    return admit(group, membership, owner, view)


def this_phone() -> str | None:
    """The hash of this phone's device id, if it has one (the groups of a cookie from before
    memberships were kept on the server moved over first)."""
    if "groups" in session:
        _adopt_old_cookie()
    return _device()


def admit(group: Group | None, membership: Membership | None, owner: str | None,
          view: bool = False) -> Group:
    """The group, if this phone may see it with this membership (read by the caller, with
    whose phone it is): as `group_or_404`, else 404."""
    kind = _role(group, membership) if group is not None else None
    if group is not None and membership is not None and kind is None:
        # this phone was in the group until its link was renewed: it may know why it is out
        abort(make_response(render_template("access/renewed.html", group=group), 404))
    if group is None or kind is None or (kind == VIEW and not (view and request.method in READS)):
        abort(404)
    g.role, g.membership, g.owner = kind, membership, owner
    return group


def by_token(token: str) -> tuple[Group, str] | None:
    """The group and role a join or view link opens."""
    if not 16 <= len(token) <= 64 or not token.replace("-", "").replace("_", "").isalnum():
        return None
    group = club.find_group_by_token(token)
    if group is None:
        return None
    return group, MEMBER if hmac.compare_digest(group.token, token) else VIEW


def renew(group: Group) -> None:
    """New join and view links; every phone that joined with the old ones (or the PIN) is shut
    out, and the PIN is cleared: it let phones in as well."""
    group.token = new_token()
    group.view_token = new_token()
    group.pin_hash = None


def set_pin(group: Group, pin: str | None) -> None:
    group.pin_hash = generate_password_hash(pin) if pin else None


@functools.cache
def _no_pin() -> str:
    """A hash no PIN opens, checked for a group without a PIN, so the answer takes as long as
    for a group with one (it would tell otherwise which groups have one)."""
    return generate_password_hash(secrets.token_hex())


def pin_opens(group: Group | None, pin: str) -> bool:
    """Whether the PIN opens the group; as slow for a group without a PIN. A name no group has
    costs no hash (a group's name is not secret: creating one of that name tells it is taken)."""
    if group is None:
        return False
    opens = check_password_hash(group.pin_hash or _no_pin(), pin)
    return bool(group.pin_hash and opens)


def pin_attempt(slug: str, address: str) -> tuple[bool, Group | None]:
    """Count one PIN attempt for the group called `slug` from `address` and commit the counts:
    whether it is within the limits, and the group (None if there is none). Counted before the
    PIN is checked, so guesses sent all at once are refused like guesses one after the other;
    past the address's limit nothing is looked up."""
    within = attempts.count(f"pin:{address}", ADDRESS_LIMIT[1]) <= ADDRESS_LIMIT[0]
    group = club.find_group(slug) if within else None
    if group is not None:
        (quarter, day), device = PIN_LIMITS, _device()
        limits = [(f"pin:{group.id}:{address}", quarter), (f"pin:{group.id}:{address}", day)]
        if device is not None:  # a phone hopping between addresses counts as one
            limits.append((f"pin:{group.id}:{device}", day))
        within = all(attempts.count(key, window) <= limit for key, (limit, window) in limits)
    db.session.commit()
    attempts.clean()
    return within, group


def link(group: Group, kind: str = MEMBER) -> str:
    """The group's join (or view) link, absolute: on the server's address when serving a request,
    else (the command line) on PUBLIC_URL."""
    token = group.token if kind == MEMBER else group.view_token
    if request:
        return url_for("access.join", token=token, _external=True)
    path = current_app.url_map.bind("").build("access.join", {"token": token})
    return current_app.config["PUBLIC_URL"].rstrip("/") + path


def init_app(app) -> None:
    # templates show what changes something only to members
    app.context_processor(lambda: {"member": g.get("role") == MEMBER})
