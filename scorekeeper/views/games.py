"""A game at the table: start it, enter hands, undo, edit, history, export."""

from __future__ import annotations

import re
import uuid
from typing import Any

from flask import Blueprint, abort, flash, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext as _
from sqlalchemy import select

from .. import club, engine, entry_forms, scoring, standings
from ..db import db
from ..i18n import rule_message
from ..models import Evening, Game, Group, Revision
from . import forms
from .forms import ConfirmForm, EntryForm, name_error
from .groups import get_group_or_404

bp = Blueprint("games", __name__, url_prefix="/g/<slug>/games")

# engine error fields that name a part of the entry form rather than a player
FORM_KEYS = {"points", "tricks", "hearts", "playing", "playoffs", "all_tricks", "queen", "jack",
             "king", "ace", "moon", "renege", "table", "dealer", "players", "first_dealer"}


RECENT = 13  # entries whose effect the table page shows: the sheet's 12 rows and the one before


def get_game_or_404(group: Group, game_id: int) -> Game:
    return club.get_owned_or_404(Game, game_id, group)


def _device() -> str:
    """Which kind of phone made a change (its browser), for the history; no address is kept."""
    return request.user_agent.string[:200]


def _error_fields(error: engine.RuleError, names: list[str]) -> dict[str, str]:
    """Put the engine's message where the user will see it: at the field (a part of the form,
    a player or a rule option), else above the form."""
    field = error.field if error.field in FORM_KEYS or error.field in names else "_form"
    return {field: rule_message(error)}


def _rules(game: Game) -> dict[str, Any]:
    """All of the game's rule options, the defaults filled in."""
    return engine.options.resolve(engine.get(game.kind).OPTIONS, game.rules)


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


def _kasse_rules(group: Group) -> dict[str, int]:
    """The pot the Kasse carries into the next Vier-Anderle game, at the stake it was won at."""
    last = db.session.scalar(select(Game).join(Evening)
                             .where(Game.group_id == group.id, Game.kind == "vier-anderle")
                             .order_by(Evening.date.desc(), Game.id.desc()).limit(1))
    if last is None or last.status != "closed":
        return {}
    pot = engine.get("vier-anderle").close(last.state)["next_starting_pot"]
    return {"starting_pot": pot, "stake_cents": last.state["rules"]["stake_cents"]} if pot else {}


@bp.route("/new", methods=["GET", "POST"])
def new(slug: str):
    group = get_group_or_404(slug)
    games = engine.all_games()
    kind = request.values.get("kind")
    previous = None
    if re.fullmatch(r"[0-9]{1,9}", request.args.get("from", "")):
        previous = get_game_or_404(group, int(request.args["from"]))
        kind = kind or previous.kind
    if kind not in games:
        return render_template("games/choose.html", group=group, games=games)
    form = ConfirmForm()
    errors: dict[str, str] = {}
    values: dict[str, Any] = {}
    if previous is not None:  # the next game: same table and rules, the deal passes on
        next_dealer = previous.state.get("next_dealer")
        values = {"order": previous.seating, "rules": dict(previous.rules),
                  "first_dealer": next_dealer if next_dealer in previous.seating
                  else previous.first_dealer}
    if kind == "vier-anderle" and request.method == "GET":
        values.setdefault("rules", {}).update(_kasse_rules(group))
    posted = request.method == "POST" and form.validate_on_submit()
    rules_form = forms.rules_form(games[kind], values.get("rules", {}),
                                  request.form if posted else None)
    if posted:
        game, errors, values = _start(group, kind, previous, rules_form)
        if game is not None:
            return redirect(url_for("games.table", slug=slug, game_id=game.id))
    for name, problem in errors.items():  # the engine's word on an option goes to its field
        if name in rules_form:
            rules_form[name].errors = [*rules_form[name].errors, problem]
    players = [p for p in group.players if not p.archived]
    return render_template("games/new.html", group=group, game=games[kind], kind=kind,
                           players=players, form=form, errors=errors, values=values,
                           rules_form=rules_form), 400 if errors or rules_form.errors else 200


def _start(group: Group, kind: str, previous: Game | None, rules_form: Any
           ) -> tuple[Game | None, dict[str, str], dict[str, Any]]:
    """Start the game the new-game form asks for: the game, or what is wrong (and what was
    chosen, to show it again)."""
    order = [n for n in request.form.get("order", "").split("\n") if n.strip()]
    chosen = [n.strip() for n in order if request.form.get(f"seat-{n.strip()}")]
    # a known player keeps the group's spelling ("anna" is Anna)
    chosen = [p.name if (p := club.find_player(group, n)) else n for n in chosen]
    first_dealer = request.form.get("first_dealer") or (chosen[0] if chosen else None)
    if first_dealer not in chosen and chosen:
        first_dealer = chosen[0]
    valid = rules_form.validate()
    rules = forms.chosen_rules(rules_form, engine.get(kind)) if valid else {}
    values = {"order": chosen, "first_dealer": first_dealer, "rules": rules}
    errors: dict[str, str] = {}
    problem = next(filter(None, map(name_error, chosen)), None)
    if problem:
        errors["players"] = problem
    carried = rules.get("starting_pot", 0)
    if kind == "vier-anderle" and carried:
        held = _kasse_rules(group).get("starting_pot", 0)  # the Kasse's pot goes in once
        if carried != held:
            errors["starting_pot"] = _("The Kasse holds %(held)s stakes, not %(pot)s.",
                                       held=held, pot=carried)
    if errors or not valid:
        return None, errors, values
    try:
        engine.get(kind).Table(chosen, first_dealer, rules)
    except engine.RuleError as error:
        return None, _error_fields(error, chosen + list(rules)), values
    for name in chosen:
        club.player_for(group, name)
    game = Game(group_id=group.id, evening_id=_evening(group, previous).id, kind=kind,
                rules=rules, seating=chosen, first_dealer=first_dealer)
    scoring.start_game(game)
    db.session.commit()
    return game, {}, values


# --- the table ---------------------------------------------------------------------------------

def _playoff_rows(values: Any, error: engine.RuleError | None = None) -> list[list[str]]:
    """Hintersche: the playoff deals to ask for (those typed so far and the one now needed)."""
    tied = error.params.get("tied") if error and error.code == "hintersche.playoff_needed" else None
    return entry_forms.playoff_rows(values or {}, tied)


def _render_table(group: Group, game: Game, errors: dict[str, str] | None = None,
                  values: Any = None, status: int = 200, error: engine.RuleError | None = None):
    # the page shows the summary and what the last entries did (the score sheet's last rows):
    # what it reads does not grow with the game
    state = dict(game.state, history=scoring.recent_effects(game, RECENT))
    form = EntryForm(formdata=None, key=uuid.uuid4().hex, seq=game.entry_count + 1)
    return render_template(
        "games/table.html", group=group, game=game, state=state, form=form,
        errors=errors or {}, values=values or {}, playoff_rows=_playoff_rows(values, error),
        rules=_rules(game), close=_closing(game) if game.kind == "vier-anderle" else None,
    ), status


@bp.get("/<int:game_id>")
def table(slug: str, game_id: int):
    group = get_group_or_404(slug)
    return _render_table(group, get_game_or_404(group, game_id))


@bp.post("/<int:game_id>/entries")
def add_entry(slug: str, game_id: int):
    group = get_group_or_404(slug)
    game = get_game_or_404(group, game_id)
    form = EntryForm()
    if not form.validate_on_submit():
        flash(_("The form had expired. Please enter the hand again."))
        return _render_table(group, game, values=request.form, status=400)
    if game.status == "closed":
        flash(_("This game is closed."))
        return redirect(url_for("games.table", slug=slug, game_id=game.id))
    try:
        if game.kind == "vier-anderle" and request.form.get("table") == "1":
            data = _table_change(group, request.form, game.state)
        else:
            data = entry_forms.parse(game.kind, request.form, game.state)
        scoring.add_entry(game, data, expected_seq=form.seq.data, key=form.key.data or None,
                          device=_device())
    except entry_forms.FormErrors as problem:
        return _render_table(group, game, problem.errors, request.form, 400)
    except engine.RuleError as error:
        names = [p["name"] for p in game.state["players"]]
        return _render_table(group, game, _error_fields(error, names), request.form, 400, error)
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


def _table_change(group: Group, form, state: dict[str, Any]) -> dict[str, Any]:
    """A Vier-Anderle table change; somebody new who sits down joins the group."""
    new_name = (form.get("new_player") or "").strip()
    if new_name:
        if name_error(new_name):
            raise entry_forms.FormErrors({"table": name_error(new_name)})
        known = club.find_player(group, new_name)
        form = {**form.to_dict(), "new_player": known.name if known else new_name}
    data = entry_forms.vier_anderle_table(form, state)
    for name in data["table"]:
        club.player_for(group, name)
    return data


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
    before = scoring.table_after(game, seq - 1).summary()
    form = ConfirmForm()
    errors: dict[str, str] = {}
    failure = None
    values: Any = entry_forms.fields_of(entry.data, before)
    if request.method == "POST" and form.validate_on_submit():
        values = request.form
        try:
            if "table" in entry.data:
                data = _table_change(group, request.form, before)
            else:
                data = entry_forms.parse(game.kind, request.form, before)
            scoring.edit_entry(game, seq, data, device=_device())
        except entry_forms.FormErrors as problem:
            errors = problem.errors
        except engine.RuleError as error:
            db.session.rollback()
            if error.entry == seq:
                errors = _error_fields(error, [p["name"] for p in before["players"]])
                failure = error
            else:
                errors = {"_form": _("This change does not fit the later entries: %(why)s",
                                     why=rule_message(error, with_entry=True))}
        except scoring.StaleEntry:
            db.session.rollback()
            errors = {"_form": _("The game changed in the meantime. Please check and save again.")}
        else:
            db.session.commit()
            flash(_("Entry %(seq)s was changed.", seq=seq))
            return redirect(url_for("games.table", slug=slug, game_id=game.id))
    return render_template("games/edit.html", group=group, game=game, entry=entry, state=before,
                           form=form, errors=errors, values=values,
                           playoff_rows=_playoff_rows(values, failure),
                           rules=_rules(game)), 400 if errors else 200


@bp.get("/<int:game_id>/history")
def history(slug: str, game_id: int):
    group = get_group_or_404(slug)
    game = get_game_or_404(group, game_id)
    revisions = db.session.scalars(db.select(Revision).where(Revision.game_id == game.id)
                                   .order_by(Revision.id.desc())).all()
    return render_template("games/history.html", group=group, game=game, revisions=revisions)


# --- Vier-Anderle: closing with the pot rule ---------------------------------------------------

def _closing(game: Game) -> dict[str, Any] | None:
    try:
        return engine.get("vier-anderle").close(game.state)
    except engine.RuleError as error:
        return {"refused": rule_message(error)}


@bp.post("/<int:game_id>/close")
def close(slug: str, game_id: int):
    group = get_group_or_404(slug)
    game = get_game_or_404(group, game_id)
    if game.kind != "vier-anderle" or not ConfirmForm().validate_on_submit():
        abort(400)
    closing = _closing(game) if game.status != "closed" else None
    if closing and "refused" in closing:
        flash(closing["refused"])
    elif closing:
        try:
            scoring.claim(game, status="closed")
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


@bp.get("/<int:game_id>/state.json")
def state(slug: str, game_id: int):
    """What `replay` prints for the game's record: its state with the whole history."""
    game = get_game_or_404(get_group_or_404(slug), game_id)
    try:
        return jsonify(scoring.replay(game).report())
    except engine.RuleError:  # a game kept from before an upgrade that the engine now refuses
        return jsonify(game.state)
