"""A game at the table: start it, enter hands, undo, edit, history, export."""

from __future__ import annotations

import functools
import hashlib
import json
import re
import uuid
from dataclasses import dataclass
from typing import Any

from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    g,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import format_time
from flask_babel import gettext as _
from flask_wtf.csrf import generate_csrf
from itsdangerous import BadSignature, URLSafeSerializer
from markupsafe import Markup
from sqlalchemy import JSON, and_, bindparam, func, select, type_coerce
from sqlalchemy.orm.attributes import set_committed_value
from werkzeug.datastructures import MultiDict

from scorekeeper import engine, games
from scorekeeper.changes import answers, tables
from scorekeeper.db import db
from scorekeeper.games.base import Roster
from scorekeeper.group import access, club
from scorekeeper.group.names import SLUG
from scorekeeper.i18n import language, rule_message
from scorekeeper.models import (
    MAX_ID,
    Entry,
    Evening,
    Game,
    Group,
    Membership,
    Player,
    Revision,
    TournamentTable,
)
from scorekeeper.table import scoring
from scorekeeper.table.live import part_follows, send_part
from scorekeeper.views import forms
from scorekeeper.views.common import (
    RECENT,
    device,
    get_game_or_404,
    get_group_game_or_404,
    get_group_or_404,
    live_answer,
    state_context,
)
from scorekeeper.views.forms import ConfirmForm
from scorekeeper.web.assets import kept_for_a_year

bp = Blueprint("games", __name__, url_prefix="/g/<slug>/games")
PART = "X-Part"  # a request for a part of the page (the table page's content), and its answer

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


# --- the table an address names ---------------------------------------------------------------

@dataclass
class AtTable:
    """What the table page (and a hand sent from it) reads of a game, in one query: the group,
    the game, what its last entries did (the score sheet's rows, oldest first) and the table
    after its last entry (its snapshot; None before the first, or if not derived yet)."""

    group: Group
    game: Game
    recent: list[dict[str, Any]]
    snapshot: dict[str, Any] | None
    device: str  # who makes a change from this phone, for the history (`common.device`)
    seat: TournamentTable | None = None  # the tournament table this phone is, if it is this one


def get_table_or_404(slug: str, game_id: int, view: bool = False) -> AtTable:
    """The group's game with its evening and last entries, if this phone may see the group, else
    404: in one query with the phone's membership (as `get_group_or_404`)."""
    device = access.this_phone()
    if device is None or not SLUG.fullmatch(slug) or not 1 <= game_id <= MAX_ID:
        abort(404)
    query = _TABLE_QUERY[db.session.get_bind().dialect.name == "postgresql"]
    found = db.session.execute(query, {"slug": slug, "game_id": game_id, "device": device})
    game, group, evening, membership, seat, owner, pairs, snapshot = \
        found.first() or (None,) * 8
    group = access.admit(group, membership, owner, view, game_id)
    assert game is not None  # it came with the group
    set_committed_value(game, "evening", evening)  # held by the game: never read again
    return AtTable(group, game, [effect for _seq, effect in sorted(pairs or [])
                                 if effect is not None], snapshot,
                   owner or access.device_label(request.user_agent.string),
                   seat if seat is not None and seat.game_id == game.id else None)


def _table_query(postgresql: bool) -> Any:
    """The query of `get_table_or_404`: one row, what the last entries did in it as
    one JSON array of [seq, effect] pairs; a tournament table's phone's table with it (read
    again by `access.admit`, then from the session's identity map: no query of its own)."""
    pair = func.json_build_array(Entry.seq, Entry.effect) if postgresql else \
        func.json_array(Entry.seq, func.json(Entry.effect))
    recent = select(func.json_agg(pair) if postgresql else func.json_group_array(pair)) \
        .where(Entry.game_id == Game.id, Entry.seq > Game.entry_count - RECENT)
    last = select(Entry.snapshot).where(Entry.game_id == Game.id, Entry.seq == Game.entry_count)
    return (select(Game, Group, Evening, Membership, TournamentTable, Player.name,
                   type_coerce(recent.scalar_subquery(), JSON),
                   type_coerce(last.scalar_subquery(), JSON))
            .join(Group, Game.group_id == Group.id)
            .join(Evening, Game.evening_id == Evening.id)  # whether it is signed off
            .join(Membership, and_(Membership.group_id == Group.id,
                                   Membership.device == bindparam("device")))
            .outerjoin(TournamentTable, TournamentTable.id == Membership.table_id)
            .outerjoin(Player, Player.id == Membership.player_id)
            .where(Group.slug == bindparam("slug"), Game.id == bindparam("game_id")))


_TABLE_QUERY = {postgresql: _table_query(postgresql) for postgresql in (False, True)}


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
        order, next_dealer = games.get(previous.kind).next_game(previous)
        values = {"order": order, "rules": dict(previous.rules),
                  "first_dealer": next((d for d in (next_dealer, previous.first_dealer)
                                        if d in order), order[0])}
    last = club.last_game(group, adapter.name)
    if request.method == "GET":
        values["rules"].update(adapter.new_game_rules(last))
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
                           errors=errors, values=values, rules_form=rules_form,
                           suggestions=adapter.suggestions(last)), 400 if invalid else 200


def _start(group: Group, adapter: Any, previous: Game | None, seating: forms.SeatingForm,
           rules_form: Any) -> tuple[Game | None, dict[str, str], dict[str, Any]]:
    """Start the game the new-game form asks for: the game, or what is wrong (and what was
    chosen, to show it again)."""
    # a known player keeps the group's spelling ("anna" is Anna)
    chosen = [p.name if (p := club.find_player(group, n)) else n for n in seating.chosen()]
    first_dealer = seating.first_dealer.data
    if first_dealer not in chosen:  # nobody seated: no first dealer (whatever was posted)
        first_dealer = chosen[0] if chosen else None
    rules = forms.chosen_rules(rules_form, adapter.engine) if rules_form.validate() else None
    values = {"order": chosen, "first_dealer": first_dealer, "rules": rules or {}}
    started = tables.start(group, adapter, _evening(group, previous), chosen, first_dealer, rules)
    if isinstance(started, dict):
        fields = ("players", "first_dealer", *rules_form.data)
        return None, {k if k in fields else "_form": v for k, v in started.items()}, values
    if started.note:
        flash(started.note)
    return started.game, {}, values


# --- the table ---------------------------------------------------------------------------------

def _render_table(at: AtTable, posted: Any = None, status: int = 200, part: bool = False,
                  saved: str | None = None, kept: Any = None):
    """The table page; `posted` is the entry form that was sent and refused (with its errors).
    `part`: only the page's content (the answer to a hand sent by the page's script), with
    `saved` naming the hand just saved and `kept` what its form keeps for the next one."""
    group, game = at.group, at.game
    context = state_context(group, game, at.recent)
    playing = game.status == "running" and g.role in access.PLAYS and not game.problem
    opened = posted.PART if posted is not None else request.args.get("form", "hand")
    kind = opened if opened in context["adapter"].FORMS else "hand"
    kept = request.args if kept is None else kept
    entry = _entry_forms(game, context, kind, kept, posted, playing) \
        if playing or posted is not None else None
    # a hand's answer: only what a hand changes, where the forms stay as the phones have them
    # (drawn before, for the hand) and the page around them too (a hand before this one)
    # (not where the next form keeps something of this one, Hartenjagen's way of entering: the
    # page was drawn without it)
    change = saved is not None and entry is not None and not entry.new and entry.head \
        and opened == "hand" and game.entry_count > 1 and not kept
    template = "games/_change.html" if change else "games/_table.html" if part \
        else "games/table.html"
    html = render_template(template, entry_forms=entry, head=entry is not None and entry.head,
                           saved=saved, ending_open=opened == "end", kept=kept, seat=at.seat,
                           **context)
    return html, status, {PART: "content"} if part else {}


@dataclass(frozen=True)
class EntryForms:
    """The table page's entry forms as drawn (`drawing`: with the placeholders of this phone's
    values, `html`: with them, made when asked: a hand's answer that leaves the forms to the
    phone never asks); `head`: the hand's form is among them (its heading goes above them);
    `drawn`: which drawing (the same HTML, the same name in every process); `new`: drawn for
    this request, not kept from one before; `seq`: the next entry's number."""

    drawing: str
    head: bool
    drawn: str
    new: bool
    seq: int

    def __bool__(self) -> bool:
        return bool(self.drawing)

    @functools.cached_property
    def html(self) -> Markup:
        """The forms with this phone's CSRF token, the next entry number and a new key each."""
        html = self.drawing.replace(_TOKEN, generate_csrf()).replace(_SEQ, str(self.seq))
        return Markup(re.sub(_KEY, lambda _key: uuid.uuid4().hex, html))


# what the entry forms are drawn with where the phone's own values go in (`_entry_forms`)
_DRAWN_AS = uuid.uuid4().hex
_TOKEN, _SEQ, _KEY = f"{_DRAWN_AS}t", f"{_DRAWN_AS}s", f"{_DRAWN_AS}k"


def _entry_forms(game: Game, context: dict[str, Any], kind: str, kept: Any, posted: Any,
                 playing: bool) -> EntryForms:
    """The table page's entry forms, the one of `kind` open. Drawn once while what they read of
    the state stays the same (they look the same from hand to hand; `web.drawn`), then with
    this phone's CSRF token, the next entry number and a new key each; a form that was sent and
    refused (`posted`) is drawn as it came."""
    adapter, rules = context["adapter"], context["rules"]
    roster = Roster.of(context["group"])
    # the words above Save (their version: in the key) change only where the dealer sits out
    says = adapter.says(context["state"], rules)

    drew: list[bool] = []  # this request drew them

    def draw(state: Any) -> tuple[str, Any, tuple[bool, str]]:
        drew.append(True)
        forms = adapter.forms(state, rules, roster, kind=kind, fold=True) if playing else {}
        if posted is not None:
            forms[posted.PART] = posted
        for form in forms.values():
            if form is not None:  # a folded form is loaded when it is opened (entry_form)
                form.key.data, form.seq.data = _KEY, _SEQ
        html = render_template("games/_entry_forms.html", entry_forms=forms, kept=kept, says=says,
                               **{**context, "state": state, **adapter.table_context(game, state)})
        html = html.replace(generate_csrf(), _TOKEN)
        drawn_as = hashlib.blake2b(html.replace(_DRAWN_AS, "").encode(), digest_size=8)
        return html, roster.names if roster.read_yet else None, ("hand" in forms,
                                                                 drawn_as.hexdigest())

    key = (game.id, context["group"].slug, request.script_root,
           json.dumps(game.rules, sort_keys=True), live_view(), kind,
           tuple(MultiDict(kept).items(multi=True)), says)
    if posted is not None or current_app.jinja_env.auto_reload:  # what was typed; a template
        html, _inputs, (head, drawn_as) = draw(context["state"])  # being written: not kept
    else:
        drawings = current_app.extensions["drawn_forms"]
        found = drawings.drawing(key, context["state"], draw, lambda: roster.names)
        html, (head, drawn_as) = found.html, found.extra
    return EntryForms(html, head, drawn_as, bool(drew), game.entry_count + 1)


def _shared_part(at: AtTable, saved: str, kept: Any):
    """The table's content after a hand, rendered once: the answer to the phone that saved it,
    and the same bytes to every phone watching the table alike (`live_view`). It carries no
    CSRF token: each phone puts in its own (static/js/live.js)."""
    html, status, headers = _render_table(at, part=True, saved=saved, kept=kept)
    if token := g.get(current_app.config["WTF_CSRF_FIELD_NAME"]):  # drawn in: flask_wtf keeps it
        html = html.replace(token, "")
    send_part(at.group.id, at.game.id, at.game.version, live_view(), html)
    return html, status, headers


def live_view() -> str:
    """How this phone shows a table: a part rendered for one phone fits all of the same view."""
    return f"{language()} {g.role}"


@bp.get("/<int:game_id>")
def table(slug: str, game_id: int):
    return _render_table(get_table_or_404(slug, game_id, view=True))


@bp.get("/<int:game_id>/form")
def entry_form(slug: str, game_id: int):
    """A folded entry form of the table page (`?kind=`: a table change), loaded when it is
    opened."""
    at = get_table_or_404(slug, game_id)
    kind = request.args.get("kind", "")
    adapter = games.get(at.game.kind)
    if kind not in adapter.FOLDED or at.game.status != "running" or at.game.problem:
        abort(404)
    context = state_context(at.group, at.game, at.recent)
    form = adapter.form(kind, at.game.state, context["rules"], Roster.of(at.group))
    form.key.data, form.seq.data = uuid.uuid4().hex, at.game.entry_count + 1
    return render_template("games/_form.html", form=form, part=kind, **context)


@bp.get("/<int:game_id>/ending")
def ending(slug: str, game_id: int):
    """The table page's box that ends the game, with what ending it now does, loaded when it
    is opened."""
    at = get_table_or_404(slug, game_id)
    if at.game.status != "running" or not at.game.entry_count:
        abort(404)
    return render_template("games/_end.html", ending_open=True,
                           **state_context(at.group, at.game, at.recent))


@bp.post("/<int:game_id>/entries")
def add_entry(slug: str, game_id: int):
    """A hand from the table page (changes.tables.add_hand stores it). The page's script asks
    for the page's content alone (the PART header), which it puts in place; a phone that kept
    the hand while it had no network sends it later asking for JSON (static/js/queue.js): it is
    told whether it was stored, or why not. Without a script: post, redirect, get."""
    at = get_table_or_404(slug, game_id)
    queued = request.accept_mimetypes.best == "application/json"
    part = request.headers.get(PART) == "content"
    if part:
        part_follows()
    answer = tables.add_hand(at.group, at.game, request.form, at.device, at.snapshot)
    if isinstance(answer, answers.Saved):
        if queued:
            return jsonify(saved=answer.seq)
        saved = _("%(what)s saved.", what=answer.name)
        if part:
            at.recent.append(answer.effect)
            return _shared_part(at, saved, answer.kept)
        flash(saved, "saved")
        return redirect(url_for("games.table", slug=slug, game_id=game_id, **answer.kept))
    if isinstance(answer, answers.Duplicate):  # it was stored the first time
        return jsonify(saved=answer.seq) if queued else \
            redirect(url_for("games.table", slug=slug, game_id=game_id))
    if queued:
        if isinstance(answer, answers.Stale):
            return _refused(tables.too_late(at.game, request.form,
                                            request.form.get("seq", 1, type=int)), 409)
        return _refused(answer.message)
    if isinstance(answer, answers.Refused) and answer.form is not None:
        return _render_table(at, answer.form, 400, part=part)
    flash(answer.message)
    return redirect(url_for("games.table", slug=slug, game_id=game_id))


def _refused(message: str, status: int = 422):
    return jsonify(refused=message), status


# --- undo, edit, history -----------------------------------------------------------------------

@bp.route("/<int:game_id>/undo", methods=["GET", "POST"])
def undo(slug: str, game_id: int):
    group, game = get_group_game_or_404(slug, game_id)
    if shut := tables.shut(game, group):
        if request.method == "POST":
            flash(shut)
        return redirect(url_for("games.table", slug=slug, game_id=game.id))
    asked = request.args.get("seq", type=int)  # the last entry when the table showed the link
    if request.method == "GET" and asked is not None and asked != game.entry_count:
        # back to the question after the undo (or another phone's): never the next entry's
        if asked > game.entry_count:
            flash(_("%(what)s has been undone already: here is the table as it is now.",
                    what=tables.undone_name(game, asked)))
        elif (still := scoring.entry(game, asked)) is not None:
            what = games.get(game.kind).entry_name(still.seq, still.effect)
            flash(_("%(what)s is no longer the last entry: nothing was undone.", what=what))
        return redirect(url_for("games.table", slug=slug, game_id=game.id))
    if not game.entry_count:
        return redirect(url_for("games.table", slug=slug, game_id=game.id))
    form = ConfirmForm()
    if form.validate_on_submit():
        answer = tables.undo(game, group, form.seq.data or 0, device())
        flash(_("%(what)s was undone.", what=answer.name)
              if isinstance(answer, answers.Saved) else answer.message)
        return redirect(url_for("games.table", slug=slug, game_id=game.id))
    return render_template("games/undo.html", group=group, game=game,
                           entry=scoring.entry(game, game.entry_count),
                           form=ConfirmForm(formdata=None, seq=game.entry_count))


@bp.route("/<int:game_id>/entries/<int:seq>", methods=["GET", "POST"])
def edit(slug: str, game_id: int, seq: int):
    """Correct an entry: the corrected form is first shown with what it changes (a page of its
    own, reached by a redirect, so that Back and reload never send anything again), then
    confirmed."""
    group, game = get_group_game_or_404(slug, game_id)
    entry = scoring.entry(game, seq) or abort(404)
    shut = tables.shut(game, group)
    if shut:
        flash(shut)
        return redirect(url_for("games.history", slug=slug, game_id=game.id))
    adapter = games.get(game.kind)
    before = scoring.table_after(game, seq - 1).summary()
    kind = adapter.form_kind(entry.data)
    rules = adapter.rules(game.rules)
    proposal = _proposal(request.args.get("proposal", ""))
    if request.method == "GET" and proposal is None:
        filled = adapter.fill(kind, entry.data, before)
        form = adapter.form(kind, before, rules, Roster.of(group), data=filled)
        return _render_edit(group, game, entry, before, adapter, form, kind, rules)
    if request.method == "GET" and proposal is not None:  # a correction's preview (or Back)
        posted, version = proposal
        form = adapter.form(kind, before, rules, Roster.of(group), _formdata(posted))
        data = form.entry() if form.validate() else None
        if version != game.version or data is None:
            if data == entry.data:  # Back after the correction was confirmed: it is saved
                flash(_("%(what)s was corrected.", what=adapter.entry_name(seq, entry.effect)))
                return redirect(url_for("games.table", slug=slug, game_id=game.id))
            form.problems["_form"] = _("The game changed in the meantime: nothing was saved. "
                                       "Please check and save again.")
            return _render_edit(group, game, entry, before, adapter, form, kind, rules, 409)
    else:
        form = adapter.form(kind, before, rules, Roster.of(group), request.form)
        data = form.entry() if form.validate_on_submit() else None
        if data is None:
            return _render_edit(group, game, entry, before, adapter, form, kind, rules, 400)
    if request.method == "GET" or form.confirm.data is None:
        # first the table sees what the correction changes
        try:
            preview = tables.preview(game, seq, data)
        except engine.RuleError as error:
            answer: Any = answers.Refused(rule_message(error), error=error)
        else:
            if request.method == "POST":
                token = _proposals().dumps([form.posted(), preview.scores.version])
                return redirect(url_for("games.edit", slug=slug, game_id=game.id, seq=seq,
                                        proposal=token))
            return _render_edit(group, game, entry, before, adapter, form, kind, rules,
                                preview=preview)
    else:
        answer = tables.correct(game, group, seq, data, device(), form.confirm.data)
    if isinstance(answer, answers.Saved):
        flash(_("%(what)s was corrected.", what=answer.name))
        return redirect(url_for("games.table", slug=slug, game_id=game.id))
    if isinstance(answer, answers.Refused) and answer.error is not None and \
            answer.error.entry == seq:  # at the corrected entry's own fields
        form = adapter.form(kind, before, rules, Roster.of(group), _formdata(form.posted()),
                            error=answer.error)
        form.validate()
        form.show(answer.error)
    elif isinstance(answer, answers.Refused) and answer.error is not None:
        later = scoring.entry(game, answer.error.entry or 0)
        why = answer.message
        if later is not None:  # named as the history names it ("Hand 3", not "entry 4")
            why = f"{adapter.entry_name(later.seq, later.effect)}: {why}"
        form.problems["_form"] = _("This change does not fit the later entries: %(why)s",
                                   why=why)
    else:
        form.problems["_form"] = answer.message
    return _render_edit(group, game, entry, before, adapter, form, kind, rules, 400)


def _proposals() -> URLSafeSerializer:
    """Signs a correction's posted fields and the game's version for the preview's address."""
    return URLSafeSerializer(current_app.config["SECRET_KEY"], salt="correction")


def _formdata(posted: list[tuple[str, str]]) -> MultiDict[str, str]:
    """Posted fields to fill a form again (an entry form checks no CSRF token of its own: the
    app's CSRFProtect checked the post)."""
    return MultiDict(posted)


def _proposal(token: str) -> tuple[list[tuple[str, str]], int] | None:
    """The posted fields and version a preview address holds; None for none or a forged one."""
    if not token:
        return None
    try:
        posted, version = _proposals().loads(token)
        return [(str(k), str(v)) for k, v in posted], int(version)
    except (BadSignature, TypeError, ValueError):
        return None


def _render_edit(group: Group, game: Game, entry: Any, before: dict[str, Any], adapter: Any,
                 form: Any, kind: str, rules: dict[str, Any], status: int = 200,
                 preview: tables.Preview | None = None):
    """The edit page; with `preview` it shows what the correction changes and asks to confirm
    it, listing the corrected entry and the later ones that score differently."""
    changes = [row for row in preview.scores.effects if adapter.changed(row[1], row[2])] \
        if preview else []
    later = [row for row in changes if row[0] != entry.seq]
    return render_template("games/edit.html", group=group, game=game, entry=entry, state=before,
                           adapter=adapter, form=form, part=adapter.template(kind), kind=kind,
                           rules=rules, preview=preview and preview.scores, changes=changes,
                           later=later, money=preview.money if preview and any(
                               now or after for _name, now, after in preview.money) else [],
                           reopening=preview and preview.reopening), status


@bp.get("/<int:game_id>/history")
def history(slug: str, game_id: int):
    """Every entry, newest first: what was entered, what it did, who entered or corrected it
    and when; an entry that was undone stays as a row of its own."""
    group, game = get_group_game_or_404(slug, game_id)
    seats: dict[str, int] = {}  # the players in seating order (newcomers after them)
    for name in [*game.seating, *(p["name"] for p in game.state.get("players", []))]:
        seats.setdefault(name, len(seats))
    adapter = games.get(game.kind)
    made: dict[int, Revision] = {}
    edited: dict[int, Revision] = {}
    hands: dict[int, bool] = {}  # whether each entry was a hand, as the record stood
    rows: list[dict[str, Any]] = []
    for revision in db.session.scalars(db.select(Revision).where(Revision.game_id == game.id)
                                       .order_by(Revision.id)):
        if revision.action == "undo":  # named as the table named it then: its number is gone
            made.pop(revision.seq, None)
            edited.pop(revision.seq, None)
            hand = sum(hands.get(seq, True) for seq in range(1, revision.seq)) + 1
            rows.append({"seq": revision.seq, "order": revision.id, "undone": _when(revision),
                         "data": _in_seats(revision.data, seats),
                         "name": adapter.entry_name_of(revision.data, hand),
                         "number": hand if adapter.is_hand(revision.data) else None})
            hands.pop(revision.seq, None)
        elif revision.action in ("end", "delete"):  # the game ended early, or was deleted
            rows.append({"seq": revision.seq, "order": revision.id, "action": revision.action,
                         "when": _when(revision)})
        elif revision.action == "edit":
            edited[revision.seq] = revision
        else:
            made[revision.seq] = revision
            edited.pop(revision.seq, None)
            hands[revision.seq] = adapter.is_hand(revision.data)
    entries = db.session.execute(db.select(Entry.seq, Entry.data, Entry.effect, Entry.created_at)
                                 .where(Entry.game_id == game.id))
    for seq, data, effect, created_at in entries:
        # the table's number: the hand's, none for an entry that is no hand (a table change)
        rows.append({"seq": seq, "order": float("inf"), "data": _in_seats(data, seats),
                     "effect": _in_seats(effect, seats), "edited": _when(edited.get(seq)),
                     "name": adapter.entry_name(seq, effect),
                     "number": (effect or {}).get("hand") if adapter.is_hand(data) else None,
                     "made": _when(made.get(seq)) or {"time": format_time(created_at, "short"),
                                                      "at": created_at, "device": ""}})
    rows.sort(key=lambda row: (row["seq"], row["order"]), reverse=True)
    return render_template("games/history.html", group=group, game=game, rows=rows,
                           adapter=adapter, editable=not tables.shut(game, group))


def _in_seats(mapping: dict[str, Any] | None, seats: dict[str, int]) -> dict[str, Any]:
    """An entry's or effect's mappings by player in seating order: the names never move."""
    return {key: dict(sorted(value.items(), key=lambda item: seats[item[0]]))
            if isinstance(value, dict) and value and all(k in seats for k in value)
            else value for key, value in (mapping or {}).items()}


def _when(revision: Revision | None) -> dict[str, Any] | None:
    """When and on which phone a revision was made, for the history."""
    if revision is None:
        return None
    return {"time": format_time(revision.created_at, "short"), "at": revision.created_at,
            "device": revision.device}


# --- ending a game (closing time), deleting one started by mistake -----------------------------

@bp.post("/<int:game_id>/close")
def close(slug: str, game_id: int):
    """End the game now: its money and standings as the game's end box said."""
    group = get_group_or_404(slug)  # a member's: not a tournament table's phone
    game = get_game_or_404(group, game_id)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    answer = tables.end(game, group, device())
    if answer.message:
        flash(answer.message)
    return redirect(url_for("games.table", slug=slug, game_id=game.id))


@bp.post("/<int:game_id>/delete")
def delete(slug: str, game_id: int):
    """Delete a game that has no hands (started by mistake); one with hands can only be ended."""
    group = get_group_or_404(slug)  # a member's: not a tournament table's phone
    game = get_game_or_404(group, game_id)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    answer = tables.delete(game, group, device())
    flash(answer.message)
    if isinstance(answer, answers.Done):
        return redirect(url_for("groups.home", slug=slug))
    return redirect(url_for("games.table", slug=slug, game_id=game.id))


# --- export ------------------------------------------------------------------------------------

@bp.get("/<int:game_id>/record.json")
def record(slug: str, game_id: int):
    return jsonify(get_group_game_or_404(slug, game_id)[1].record())


@bp.get("/<int:game_id>/live")
def live(slug: str, game_id: int):
    """What a watching phone polls every two seconds: the game's version, with an ETag, so that
    an unchanged game costs one small query and a 304."""
    _group, game = get_group_game_or_404(slug, game_id, view=True)
    return live_answer({"version": game.version, "entries": game.entry_count,
                        "status": game.status})


@bp.get("/<int:game_id>/says/<version>")
def says(slug: str, game_id: int, version: str):
    """What the entry form's sentence above Save is looked up in (the form names it by its
    version, static/js/fields.js asks for it): the same address holds the same text for good,
    so the phone keeps it and asks once. For the phones that have the form: the group's
    members and the table's own phone (a viewer's page has no form)."""
    _group, game = get_group_game_or_404(slug, game_id)
    adapter = games.get(game.kind)
    said = None if game.problem else adapter.sayings_at(
        [p["name"] for p in game.state.get("players", [])], game.state.get("dealer"),
        adapter.rules(game.rules), version)
    if said is None:
        abort(404)
    return kept_for_a_year(current_app.response_class(said.text, mimetype="application/json"),
                           public=False)


@bp.get("/<int:game_id>/state.json")
def state(slug: str, game_id: int):
    """What `replay` prints for the game's record: its state with the whole history; with the
    game's `status`, and `ended` when its players ended it (its money as they ended it)."""
    _group, game = get_group_game_or_404(slug, game_id, view=True)
    ended = {"status": game.status, "ended": game.status == "closed"}
    try:
        table = scoring.replay(game)
    except engine.RuleError:  # a game kept from before an upgrade that the engine now refuses
        return jsonify({**game.state, **ended})
    report = engine.report(table)
    if ended["ended"]:
        report.update(type(table).ended(table.summary(), table.rules))
    return jsonify({**report, **ended})
