"""Who may see a group: the phones that opened its join link (members) or its view link (view).

A phone keeps its groups in the signed session cookie, one entry per group: the role and a
fingerprint of the token it joined with. Renewing the join link replaces the token, so every
fingerprint taken from the old one stops matching. Without access a group answers exactly what a
group that does not exist answers (404).
"""

from __future__ import annotations

import hashlib
import hmac

from flask import abort, current_app, g, request, session, url_for
from werkzeug.security import check_password_hash, generate_password_hash

from . import club
from .models import Group, new_token

MEMBER, VIEW = "member", "view"
READS = frozenset({"GET", "HEAD"})


def _fingerprint(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()[:32]


def role(group: Group) -> str | None:
    """This phone's role in the group: MEMBER, VIEW or None."""
    entry = session.get("groups", {}).get(str(group.id))
    if not isinstance(entry, list) or len(entry) != 2:
        return None
    kind, fingerprint = entry
    token = group.token if kind == MEMBER else group.view_token if kind == VIEW else None
    if token is None or not hmac.compare_digest(str(fingerprint), _fingerprint(token)):
        return None
    return str(kind)


def grant(group: Group, kind: str) -> None:
    """Remember on this phone that it joined the group (for years: the cookie is permanent)."""
    token = group.token if kind == MEMBER else group.view_token
    groups = dict(session.get("groups", {}))
    if kind == VIEW and role(group) == MEMBER:
        return  # a member who opens the view link stays a member
    groups[str(group.id)] = [kind, _fingerprint(token)]
    session["groups"] = groups
    session.permanent = True


def group_or_404(slug: str, view: bool = False) -> Group:
    """The group, if this phone may see it: a member always, a viewer only where `view` allows
    it and only to read. Anything else is the 404 of a group that does not exist."""
    return admit(club.find_group(slug), view)


def admit(group: Group | None, view: bool = False) -> Group:
    """`group` (read by the caller), if this phone may see it (as `group_or_404`), else 404."""
    kind = role(group) if group is not None else None
    if group is None or kind is None or (kind == VIEW and not (view and request.method in READS)):
        abort(404)
    g.role = kind
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


def pin_opens(group: Group | None, pin: str) -> bool:
    return bool(group and group.pin_hash and check_password_hash(group.pin_hash, pin))


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
