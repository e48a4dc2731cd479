"""A group's join link (it makes a phone a member) and view link (read only): the tokens they
carry, the group and role a token opens, and renewing both."""

from __future__ import annotations

import hmac

from flask import current_app, request, url_for

from scorekeeper.group import club
from scorekeeper.group.access import MEMBER, VIEW
from scorekeeper.models import Group, new_token


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
    out, and the PIN is cleared: it let phones in as well. The caller commits."""
    group.token = new_token()
    group.view_token = new_token()
    group.pin_hash = None


def link(group: Group, kind: str = MEMBER) -> str:
    """The group's join (or view) link, absolute: on the server's address when serving a request,
    else (the command line) on PUBLIC_URL."""
    token = group.token if kind == MEMBER else group.view_token
    if request:
        return url_for("access.join", token=token, _external=True)
    path = current_app.url_map.bind("").build("access.join", {"token": token})
    return current_app.config["PUBLIC_URL"].rstrip("/") + path
