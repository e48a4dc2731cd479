"""Joining a group: the join and view links (and their QR codes), the PIN, renewing the link."""

from __future__ import annotations

import ipaddress

import segno
from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from markupsafe import Markup

from scorekeeper.changes import groups as change
from scorekeeper.db import db
from scorekeeper.group import access, links
from scorekeeper.models import Player
from scorekeeper.views.common import get_group_or_404
from scorekeeper.views.forms import ConfirmForm, OwnerForm, PinForm, PinJoinForm

bp = Blueprint("access", __name__)


def _address() -> str:
    """The phone's address for counting PIN attempts; an IPv6 address by its /64 network, so a
    phone hopping between addresses of its network counts as one."""
    address = request.remote_addr or ""
    if ":" in address:
        address = str(ipaddress.ip_network(f"{address}/64", strict=False))
    return address


def qr_code(link: str) -> Markup:
    """The link as a QR code, drawn on the server as inline SVG."""
    svg = segno.make(link, error="m").svg_inline(scale=6, border=3, svgclass="qr",
                                                 dark="#1d2b25", light="#ffffff")
    return Markup(svg)  # noqa: S704 - segno's own markup of a link it encoded


@bp.route("/join/<token>", methods=["GET", "POST"])
def join(token: str):
    """A join link (or view link) names the group and asks for one tap: only that tap (a POST
    with its CSRF token) puts this phone into the group, so a page elsewhere that sends the phone
    to a link cannot."""
    found = links.by_token(token)
    if found is None:
        abort(404)
    group, kind = found
    form = ConfirmForm()
    if access.role(group) in (access.MEMBER, kind):  # in already: straight to the group
        return redirect(url_for("groups.home", slug=group.slug))
    if form.validate_on_submit():
        change.join(group, kind)
        return redirect(url_for("groups.home", slug=group.slug))
    return render_template("access/join_link.html", group=group, kind=kind, form=form)


@bp.route("/join", methods=["GET", "POST"])
def join_with_pin():
    form = PinJoinForm()
    if form.validate_on_submit():
        try:
            tried = change.join_with_pin(form.name.data, form.pin.data, _address())
        except change.NotCounted:  # the count could not be kept: no attempt goes uncounted
            current_app.logger.exception("PIN attempts could not be counted")
            return render_template("errors/try_later.html"), 503
        if not tried.within:
            return render_template("errors/429.html"), 429
        if tried.group is not None:
            return redirect(url_for("groups.home", slug=tried.group.slug))
        form.pin.errors.append(_("No group has this name and PIN."))
    return render_template("access/join.html", form=form), 400 if form.errors else 200


@bp.post("/g/<slug>/leave")
def leave(slug: str):
    """This phone leaves the group (it can join again with the link)."""
    group = get_group_or_404(slug)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    flash(change.leave(group).message)
    return redirect(url_for("main.index"))


@bp.post("/g/<slug>/owner")
def owner(slug: str):
    """Say whose phone this is: the game's history then names the player, not the phone."""
    group = get_group_or_404(slug)
    form = OwnerForm()
    form.player.choices = [(0, "–")] + [(p.id, p.name) for p in group.players if not p.archived]
    if not form.validate_on_submit():
        abort(400)
    change.set_owner(group, db.session.get(Player, form.player.data) if form.player.data else None)
    return redirect(url_for("groups.home", slug=slug))


def _invite_page(group, pin_form: PinForm, status: int = 200):
    shown = {kind: links.link(group, kind) for kind in (access.MEMBER, access.VIEW)}
    return render_template("access/invite.html", group=group, links=shown,
                           codes={kind: qr_code(link) for kind, link in shown.items()},
                           pin_form=pin_form, renew_form=ConfirmForm()), status


@bp.get("/g/<slug>/invite")
def invite(slug: str):
    return _invite_page(get_group_or_404(slug), PinForm())


@bp.post("/g/<slug>/invite/renew")
def renew(slug: str):
    group = get_group_or_404(slug)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    flash(change.renew_links(group).message)  # this phone stays in; every other one is out
    return redirect(url_for("access.invite", slug=slug))


@bp.post("/g/<slug>/invite/pin")
def pin(slug: str):
    group = get_group_or_404(slug)
    form = PinForm()
    if not form.validate_on_submit():
        return _invite_page(group, form, 400)
    flash(change.set_pin(group, form.pin.data or None).message)
    return redirect(url_for("access.invite", slug=slug))
