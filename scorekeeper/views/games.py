"""A game at the table: start it, enter hands, undo, edit, history, export."""

from __future__ import annotations

import re
import uuid
from typing import Any

from flask import (
    Blueprint,
    abort,
    flash,
    g,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _

from .. import access, club, engine, games, scoring, standings
from ..db import db
from ..i18n import rule_message
from ..models import Evening, Game, Group, Revision
from . import forms
from .forms import ConfirmForm, name_error
from .groups import get_group_or_404

bp = Blueprint("games", __name__, url_prefix="/g/<slug>/games")

RECENT = 13  # entries whose effect the table page shows: the sheet's 12 rows and the one before


def get_game_or_404(group: Group, game_id: int) -> Game:
    return club.get_owned_or_404(Game, game_id, group)


def _device() -> str:
    """Which kind of phone made a change, for the history: a short label, no address and never
    the browser's whole string."""
    return club.device_label(request.user_agent.string)


# --- starting a game ---------------------------------------------------------------------------

def _evening(group: Group, previous: Game | None) -> Evening:
    """The evening a new game belongs to: the one it was started from, the previous game's if
    that is today's, else today's."""
    chosen = request.values.get("evening", "")
    if re.fullmatch(r"[0-9]{1,9}", chosen):
        evening = db.session.get(Evening, int(chosen))
        if evening is not None and evening.group_id == group.id:
            return evening
    if previous is not None and previous.evening.date == club.evening_day():
        return previous.evening
    return club.evening_for(group)


@bp.route("/new", methods=["GET", "POST"])
def new(slug: str):
    group = get_group_or_404(slug)
    kind = request.values.get("kind")
    previous = None
    if re.fullmatch(r"[0-9]{1,9}", request.args.get("from", "")):
        previous = get_game_or_404(group, int(request.args["from"]))
        kind = kind or previous.kind
    if kind not in games.GAMES:
        return render_template("games/choose.html", group=group)
    adapter = games.get(kind)
    values: dict[str, Any] = {"rules": {}}
    if previous is not None:  # the next game: same table and rules, the deal passes on
        next_dealer = previous.state.get("next_dealer")
        values = {"order": previous.seating, "rules": dict(previous.rules),
                  "first_dealer": next_dealer if next_dealer in previous.seating
                  else previous.first_dealer}
    if request.method == "GET":
        values["rules"].update(adapter.new_game_rules(group))
    order = values.get("order", [])
    names = order + [p.name for p in group.players if not p.archived and p.name not in order]
    posted = request.form if request.method == "POST" else None
    seating = forms.seating_form(names, posted)
    rules_form = forms.rules_form(adapter.engine, values["rules"], posted)
    errors: dict[str, str] = {}
    if seating.validate_on_submit():
        game, errors, values = _start(group, adapter, previous, seating, rules_form)
        if game is not None:
            return redirect(url_for("games.table", slug=slug, game_id=game.id))
    for name, problem in errors.items():  # the engine's word on an option goes to its field
        if name in rules_form:
            rules_form[name].errors = [*rules_form[name].errors, problem]
    invalid = errors or rules_form.errors or seating.errors
    return render_template("games/new.html", group=group, adapter=adapter, seating=seating,
                           errors=errors, values=values,
                           rules_form=rules_form), 400 if invalid else 200


def _start(group: Group, adapter: Any, previous: Game | None, seating: forms.SeatingForm,
           rules_form: Any) -> tuple[Game | None, dict[str, str], dict[str, Any]]:
    """Start the game the new-game form asks for: the game, or what is wrong (and what was
    chosen, to show it again)."""
    # a known player keeps the group's spelling ("anna" is Anna)
    chosen = [p.name if (p := club.find_player(group, n)) else n for n in seating.chosen()]
    first_dealer = seating.first_dealer.data or (chosen[0] if chosen else None)
    if first_dealer not in chosen and chosen:
        first_dealer = chosen[0]
    valid = rules_form.validate()
    rules = forms.chosen_rules(rules_form, adapter.engine) if valid else {}
    values = {"order": chosen, "first_dealer": first_dealer, "rules": rules}
    errors: dict[str, str] = {}
    problem = next(filter(None, map(name_error, chosen)), None)
    if problem:
        errors["players"] = problem
    if valid:
        errors.update(adapter.check_new_game(group, rules))
    if errors or not valid:
        return None, errors, values
    try:
        adapter.engine.Table(chosen, first_dealer, rules)
    except engine.RuleError as error:
        field = error.field if error.field in ("players", "first_dealer", *rules_form.data) \
            else "_form"
        return None, {field: rule_message(error)}, values
    for name in chosen:
        club.player_for(group, name)
    game = Game(group_id=group.id, evening_id=_evening(group, previous).id, kind=adapter.name,
                rules=rules, seating=chosen, first_dealer=first_dealer)
    scoring.start_game(game)
    db.session.commit()
    return game, {}, values


# --- the table ---------------------------------------------------------------------------------

def _render_table(group: Group, game: Game, posted: Any = None, status: int = 200):
    """The table page; `posted` is the entry form that was sent and refused (with its errors)."""
    adapter = games.get(game.kind)
    rules = adapter.rules(game.rules)
    # the page shows the summary and what the last entries did (the score sheet's last rows):
    # what it reads does not grow with the game
    state = dict(game.state, history=scoring.recent_effects(game, RECENT))
    playing = game.status == "running" and g.role == access.MEMBER
    entry_forms = adapter.forms(game.state, rules, group) if playing else {}
    if posted is not None:
        entry_forms[posted.PART] = posted
    for form in entry_forms.values():
        form.key.data, form.seq.data = uuid.uuid4().hex, game.entry_count + 1
    return render_template(
        "games/table.html", group=group, game=game, state=state, adapter=adapter,
        entry_forms=entry_forms, rules=rules,
        **adapter.table_context(game, game.state)), status


@bp.get("/<int:game_id>")
def table(slug: str, game_id: int):
    group = get_group_or_404(slug, view=True)
    return _render_table(group, get_game_or_404(group, game_id))


@bp.post("/<int:game_id>/entries")
def add_entry(slug: str, game_id: int):
    group = get_group_or_404(slug)
    game = get_game_or_404(group, game_id)
    if game.status == "closed":
        flash(_("This game is closed."))
        return redirect(url_for("games.table", slug=slug, game_id=game.id))
    adapter = games.get(game.kind)
    rules = adapter.rules(game.rules)
    kind = adapter.form_kind(request.form)
    form = adapter.form(kind, game.state, rules, group, request.form)
    if not form.validate_on_submit():
        if form.errors.get("csrf_token"):
            form.problems["_form"] = _("The form had expired. Please enter the hand again.")
        return _render_table(group, game, form, 400)
    try:
        data = form.entry()
        if data is None:
            return _render_table(group, game, form, 400)
        scoring.add_entry(game, data, expected_seq=form.seq.data, key=form.key.data or None,
                          device=_device())
    except engine.RuleError as error:
        db.session.rollback()
        game = get_game_or_404(group, game_id)
        form = adapter.form(kind, game.state, rules, group, request.form, error=error)
        form.validate()
        form.show(error)
        return _render_table(group, game, form, 400)
    except scoring.Duplicate:
        return redirect(url_for("games.table", slug=slug, game_id=game.id))
    except scoring.StaleEntry:
        db.session.rollback()
        flash(_("This hand was already entered on another phone. Here is the table now."))
        return redirect(url_for("games.table", slug=slug, game_id=game.id))
    db.session.commit()
    flash(_("Entry %(seq)s saved.", seq=form.seq.data or game.entry_count))
    mode = {"mode": "points"} if request.form.get("mode") == "points" else {}
    return redirect(url_for("games.table", slug=slug, game_id=game.id, **mode))


# --- undo, edit, history -----------------------------------------------------------------------

@bp.route("/<int:game_id>/undo", methods=["GET", "POST"])
def undo(slug: str, game_id: int):
    group = get_group_or_404(slug)
    game = get_game_or_404(group, game_id)
    if not game.entry_count or game.status == "closed":
        return redirect(url_for("games.table", slug=slug, game_id=game.id))
    form = ConfirmForm()
    if form.validate_on_submit():
        try:
            scoring.undo_last(game, form.seq.data or 0, device=_device())
        except scoring.StaleEntry:
            db.session.rollback()
            flash(_("The game changed in the meantime. Nothing was undone."))
        else:
            db.session.commit()
            flash(_("Entry %(seq)s was undone.", seq=form.seq.data))
        return redirect(url_for("games.table", slug=slug, game_id=game.id))
    return render_template("games/undo.html", group=group, game=game,
                           entry=scoring.entry(game, game.entry_count),
                           form=ConfirmForm(formdata=None, seq=game.entry_count))


@bp.route("/<int:game_id>/entries/<int:seq>", methods=["GET", "POST"])
def edit(slug: str, game_id: int, seq: int):
    group = get_group_or_404(slug)
    game = get_game_or_404(group, game_id)
    entry = scoring.entry(game, seq) or abort(404)
    if game.status == "closed":
        flash(_("This game is closed."))
        return redirect(url_for("games.history", slug=slug, game_id=game.id))
    adapter = games.get(game.kind)
    before = scoring.table_after(game, seq - 1).summary()
    kind = adapter.form_kind(entry.data)
    rules = adapter.rules(game.rules)
    if request.method == "GET":
        data = adapter.fill(kind, entry.data, before)
        form = adapter.form(kind, before, rules, group, data=data)
        return _render_edit(group, game, entry, before, adapter, form, kind, rules)
    form = adapter.form(kind, before, rules, group, request.form)
    data = form.entry() if form.validate_on_submit() else None
    if form.errors.get("csrf_token"):
        form.problems["_form"] = _("The form had expired. Please check and save again.")
    if data is None:
        return _render_edit(group, game, entry, before, adapter, form, kind, rules, 400)
    try:
        scoring.edit_entry(game, seq, data, device=_device())
    except engine.RuleError as error:
        db.session.rollback()
        if error.entry == seq:
            form = adapter.form(kind, before, rules, group, request.form, error=error)
            form.validate()
            form.show(error)
        else:
            form.problems["_form"] = _("This change does not fit the later entries: %(why)s",
                                       why=rule_message(error, with_entry=True))
        return _render_edit(group, game, entry, before, adapter, form, kind, rules, 400)
    except scoring.StaleEntry:
        db.session.rollback()
        form.problems["_form"] = _("The game changed in the meantime. Please check and save "
                                   "again.")
        return _render_edit(group, game, entry, before, adapter, form, kind, rules, 400)
    db.session.commit()
    flash(_("Entry %(seq)s was changed.", seq=seq))
    return redirect(url_for("games.table", slug=slug, game_id=game.id))


def _render_edit(group: Group, game: Game, entry: Any, before: dict[str, Any], adapter: Any,
                 form: Any, kind: str, rules: dict[str, Any], status: int = 200):
    return render_template("games/edit.html", group=group, game=game, entry=entry, state=before,
                           adapter=adapter, form=form, part=adapter.template(kind),
                           rules=rules), status


@bp.get("/<int:game_id>/history")
def history(slug: str, game_id: int):
    group = get_group_or_404(slug)
    game = get_game_or_404(group, game_id)
    revisions = db.session.scalars(db.select(Revision).where(Revision.game_id == game.id)
                                   .order_by(Revision.id.desc())).all()
    return render_template("games/history.html", group=group, game=game, revisions=revisions)


# --- closing a game (a game whose adapter says players close it) --------------------------------

@bp.post("/<int:game_id>/close")
def close(slug: str, game_id: int):
    group = get_group_or_404(slug)
    game = get_game_or_404(group, game_id)
    adapter = games.get(game.kind)
    if not adapter.CLOSES or not ConfirmForm().validate_on_submit():
        abort(400)
    if game.status == "closed":
        return redirect(url_for("games.table", slug=slug, game_id=game.id))
    try:
        adapter.closing(game.state)
        scoring.claim(game, status="closed")
    except engine.RuleError as error:
        flash(rule_message(error))
    except scoring.StaleEntry:
        db.session.rollback()
        flash(_("The game changed in the meantime. Please check and close it again."))
    else:
        standings.store(game)
        db.session.commit()
        flash(_("The game is closed."))
    return redirect(url_for("games.table", slug=slug, game_id=game.id))


# --- export ------------------------------------------------------------------------------------

@bp.get("/<int:game_id>/record.json")
def record(slug: str, game_id: int):
    group = get_group_or_404(slug)
    return jsonify(get_game_or_404(group, game_id).record())


@bp.get("/<int:game_id>/live")
def live(slug: str, game_id: int):
    """What a watching phone polls every two seconds: the game's version, with an ETag, so that
    an unchanged game costs one small query and a 304."""
    game = get_game_or_404(get_group_or_404(slug, view=True), game_id)
    return live_answer({"version": game.version, "entries": game.entry_count,
                        "status": game.status})


def live_answer(data: dict[str, Any]):
    """A version as JSON with its ETag: 304 when the phone holds it already."""
    response = jsonify(data)
    response.set_etag(f"v{data['version']}")
    response.headers["Cache-Control"] = "no-cache"
    return response.make_conditional(request)


@bp.get("/<int:game_id>/state.json")
def state(slug: str, game_id: int):
    """What `replay` prints for the game's record: its state with the whole history."""
    game = get_game_or_404(get_group_or_404(slug, view=True), game_id)
    try:
        return jsonify(scoring.replay(game).report())
    except engine.RuleError:  # a game kept from before an upgrade that the engine now refuses
        return jsonify(game.state)
