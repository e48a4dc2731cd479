"""Joining a group: the join and view links (and their QR codes), the PIN, renewing the link."""

from __future__ import annotations

import ipaddress

import segno
from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_limiter import Limiter
from markupsafe import Markup

from .. import access, club, names
from ..db import db
from .common import get_group_or_404
from .forms import ConfirmForm, PinForm, PinJoinForm

bp = Blueprint("access", __name__)


def _group_key() -> str:
    return "pin:" + names.slugify(request.form.get("name", ""))[:60]


def _pin_key() -> str:
    """PIN attempts count per group and address (an IPv6 address by its /64 network): guesses
    from one phone do not lock other groups out, nor the group out of other addresses."""
    address = request.remote_addr or ""
    if ":" in address:
        address = str(ipaddress.ip_network(f"{address}/64", strict=False))
    return f"{_group_key()}:{address}"


limiter = Limiter(key_func=_pin_key, default_limits=[])
# every attempt counts, right or wrong, and is counted before the PIN is checked: guesses sent
# all at once are refused like guesses one after the other
PIN_LIMIT = "5 per 15 minutes"  # per group and address
PIN_GROUP_LIMIT = "20 per day"  # per group, from all addresses together


def qr_code(link: str) -> Markup:
    """The link as a QR code, drawn on the server as inline SVG."""
    svg = segno.make(link, error="m").svg_inline(scale=6, border=3, svgclass="qr",
                                                 dark="#1d2b25", light="#ffffff")
    return Markup(svg)  # noqa: S704 - segno's own markup of a link it encoded


@bp.get("/join/<token>")
def join(token: str):
    """Open a join link (or view link): this phone belongs to the group from now on."""
    found = access.by_token(token)
    if found is None:
        abort(404)
    group, kind = found
    access.grant(group, kind)
    return redirect(url_for("groups.home", slug=group.slug))


@bp.route("/join", methods=["GET", "POST"])
@limiter.limit(PIN_LIMIT, methods=["POST"])
@limiter.limit(PIN_GROUP_LIMIT, methods=["POST"], key_func=_group_key)
def join_with_pin():
    form = PinJoinForm()
    if form.validate_on_submit():
        group = club.find_group(names.slugify(form.name.data))
        if access.pin_opens(group, form.pin.data):
            access.grant(group, access.MEMBER)
            return redirect(url_for("groups.home", slug=group.slug))
        form.pin.errors.append(_("No group has this name and PIN."))
    return render_template("access/join.html", form=form), 400 if form.errors else 200


def _invite_page(group, pin_form: PinForm, status: int = 200):
    links = {kind: access.link(group, kind) for kind in (access.MEMBER, access.VIEW)}
    return render_template("access/invite.html", group=group, links=links,
                           codes={kind: qr_code(link) for kind, link in links.items()},
                           pin_form=pin_form, renew_form=ConfirmForm()), status


@bp.get("/g/<slug>/invite")
def invite(slug: str):
    return _invite_page(get_group_or_404(slug), PinForm())


@bp.post("/g/<slug>/invite/renew")
def renew(slug: str):
    group = get_group_or_404(slug)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    access.renew(group)
    db.session.commit()
    access.grant(group, access.MEMBER)  # this phone stays in; every other one must join again
    flash(_("The join link is new. Phones that joined with the old link are out until they open "
            "the new one."))
    return redirect(url_for("access.invite", slug=slug))


@bp.post("/g/<slug>/invite/pin")
def pin(slug: str):
    group = get_group_or_404(slug)
    form = PinForm()
    if not form.validate_on_submit():
        return _invite_page(group, form, 400)
    access.set_pin(group, form.pin.data or None)
    db.session.commit()
    flash(_("The PIN is set.") if form.pin.data else _("The PIN is off."))
    return redirect(url_for("access.invite", slug=slug))
