"""A tournament night's pages: setting one up, the organiser's page (the start list, the draw
of each Durchgang, every table's progress, voiding a table, the ranking with its lots), the run
sheets to print, a table's link (its phone opens its own game) and the spectators' ranking."""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Any

import segno
from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import gettext as _
from markupsafe import Markup
from sqlalchemy import select

from scorekeeper.changes import tournaments as change
from scorekeeper.changes.answers import Duplicate, Refused
from scorekeeper.db import db
from scorekeeper.group import club
from scorekeeper.i18n import language, localized
from scorekeeper.models import MAX_ID, Entrant, Group, Tournament, TournamentTable, now
from scorekeeper.tournament import night
from scorekeeper.views.common import device, get_group_or_404, live_answer, tell
from scorekeeper.views.forms import (
    EntrantForm,
    TournamentForm,
    TypedDrawForm,
    VoidForm,
    WithdrawForm,
    chosen_rules,
    rules_form,
    rules_said,
)

bp = Blueprint("tournaments", __name__)
QUIET = dt.timedelta(minutes=15)  # a table that entered nothing for this long has gone quiet
TV_ROWS, TV_TURN = 17, 10  # the TV's ranking: rows a page, seconds before the next page
# The app keeps the ranking pages drawn last (app.extensions["rankings"], web/drawn.py), by the
# ranking's version: the hall's TVs and a hundred phones ask for the same page after each
# change, and it is drawn once
DRAWN_KEPT = 64


def _tournament(slug: str, tournament_id: int, view: bool = False) -> tuple[Group, Tournament]:
    group = get_group_or_404(slug, view)
    tournament = db.session.get(Tournament, tournament_id) if 1 <= tournament_id <= MAX_ID \
        else None
    if tournament is None or tournament.group_id != group.id:
        abort(404)
    return group, tournament


def _round(tournament: Tournament, round_: int) -> int:
    """A Durchgang of the tournament, else 404."""
    if not 1 <= round_ <= tournament.rounds:
        abort(404)
    return round_


def _new_form(formdata: Any = None) -> TournamentForm:
    form = TournamentForm(formdata=formdata, day=club.evening_day())
    if formdata is None:
        form.key.data = uuid.uuid4().hex
    form.kind.choices = [(name, localized(adapter.title)) for name, adapter in
                         night.playable().items()]
    return form


def _rules_forms(formdata: Any = None) -> dict[str, Any]:
    """Each game's rule options, as a tournament's tables play it (fields `rule-<game>-...`):
    the page shows the chosen game's. A post without any of a game's fields (not from the page)
    keeps its usual rules: an unticked box would otherwise read as "no"."""
    return {kind: rules_form(adapter.engine, {}, formdata if formdata is not None and any(
                                 name.startswith(f"rule-{kind}-") for name in formdata) else None,
                             prefix=f"rule-{kind}", leave_out=change.set_by_tournament(adapter))
            for kind, adapter in night.playable().items()}


@bp.route("/g/<slug>/tournaments/new", methods=["GET", "POST"])
def new(slug: str):
    group = get_group_or_404(slug)
    posted = request.form if request.method == "POST" else None
    form, rules = _new_form(posted), _rules_forms(posted)
    chosen = rules.get(form.kind.data) if posted is not None else None  # the game's options
    engine = night.playable()[form.kind.data].engine if chosen is not None else None
    problems: dict[str, str] = {}
    valid = posted is not None and form.validate_on_submit()
    if posted is not None and form.entrants.data and \
            (problem := change.start_list_problem(form.entrants.data.splitlines())):
        problems["entrants"], valid = problem, False  # said with the form's other mistakes
    if chosen is not None and chosen.validate() and valid:
        cents = int(form.entry_fee.data * 100) if form.entry_fee.data is not None else 0
        made = change.create(group, form.name.data.strip(), form.kind.data, form.day.data,
                             form.rounds.data, form.games.data, chosen_rules(chosen, engine),
                             cents, getattr(form, "prize_cents", []),
                             form.entrants.data.splitlines(), form.key.data or None, device())
        if isinstance(made, Duplicate):  # a second tap, or Back and sent again
            flash(_("This tournament was set up already: here it is."))
            return redirect(url_for("tournaments.show", slug=slug, tournament_id=made.made))
        if isinstance(made, Tournament):
            return redirect(url_for("tournaments.show", slug=slug, tournament_id=made.id))
        for field, problem in made.items():  # the engine's word on an option: at its field
            if field in chosen:
                chosen[field].errors = [*chosen[field].errors, problem]
            else:
                problems[field if field in ("name", "kind", "entrants") else "_form"] = problem
    # the options unfolded where one is wrong or was chosen
    rules_open = chosen is not None and bool(chosen.errors or chosen_rules(chosen, engine))
    counted = [kind for kind, adapter in night.playable().items() if adapter.TOURNAMENT_GAMES]
    return render_template("tournaments/new.html", group=group, form=form, rules=rules,
                           rules_open=rules_open, counted=counted, problems=problems), \
        400 if posted is not None else 200


def _prizes(tournament: Tournament, ranked: Any) -> dict[int, int]:
    """Each prize by the entrant it goes to: in the ranking's order, its lots included (as
    closing the night pays them out)."""
    return {row.entrant: cents for row, cents in zip(ranked, tournament.prizes, strict=False)
            if cents}


def _open_ties(tournament: Tournament, ranked: Any) -> list[int]:
    """The shared places a prize depends on that have no lot yet, once a table has played."""
    if not night.played(tournament):
        return []
    tied = {entrant for tie in night.ties(tournament, ranked) for entrant in tie}
    return sorted({row.place for row in ranked if row.entrant in tied})


def _page(group: Group, tournament: Tournament, status: int = 200, **forms: Any):
    adapter, listed = night.playable()[tournament.kind], night.entrants(tournament)
    by_id = {e.id: e for e in listed}
    drawn = night.tables(tournament)
    # each Durchgang: its tables, whether one has played (no new draw then), and how many still
    # play (not voided, games left: the next draw and closing ask first)
    rounds = []
    for number in range(1, tournament.rounds + 1):
        round_tables = [t for t in drawn if t.round == number]
        rounds.append((number, round_tables,
                       any(t.game and t.game.entry_count for t in round_tables),
                       sum(1 for t in round_tables if t.game and t.game.status == "running"
                           and not t.voided)))
    ranked = night.ranked(tournament, listed)
    played = any(started for _number, _tables, started, _playing in rounds)
    return render_template(
        "tournaments/show.html", group=group, tournament=tournament, entrants=listed,
        rules_said=rules_said(adapter.engine, tournament.rules,
                              change.set_by_tournament(adapter)),
        by_id=by_id, rounds=rounds, ranked=ranked, now=now(), quiet=QUIET, played=played,
        ties=_open_ties(tournament, ranked) if played else [],
        entrant_form=forms.get("entrant_form") or EntrantForm(formdata=None),
        typed_form=forms.get("typed_form") or TypedDrawForm(formdata=None),
        void_form=VoidForm(formdata=None), posted_void=forms.get("posted_void"),
        refused=forms.get("refused"),
        history=night.history(tournament), drawn_rounds=night.drawn_rounds(tournament),
        prizes=_prizes(tournament, ranked),
        spectators=url_for("tournaments.ranking_link", token=tournament.view_token,
                           _external=True)), status


@bp.get("/g/<slug>/tournaments/<int:tournament_id>")
def show(slug: str, tournament_id: int):
    group, tournament = _tournament(slug, tournament_id, view=True)
    return _page(group, tournament)


@bp.post("/g/<slug>/tournaments/<int:tournament_id>/entrants")
def add_entrant(slug: str, tournament_id: int):
    group, tournament = _tournament(slug, tournament_id)
    form = EntrantForm()
    if not form.validate_on_submit():
        return _page(group, tournament, 400, entrant_form=form)
    tell(change.add_entrant(group, tournament, form.name.data, device()))
    return redirect(url_for("tournaments.show", slug=slug, tournament_id=tournament_id))


@bp.post("/g/<slug>/tournaments/<int:tournament_id>/withdraw")
def withdraw(slug: str, tournament_id: int):
    group, tournament = _tournament(slug, tournament_id)
    form = WithdrawForm()
    if not form.validate_on_submit():
        return _page(group, tournament, 400)
    entrant_id = form.entrant.data or 0
    entrant = db.session.get(Entrant, entrant_id) if 1 <= entrant_id <= MAX_ID else None
    if entrant is None or entrant.tournament_id != tournament.id:
        abort(404)
    tell(change.withdraw(tournament, entrant, device()))
    return redirect(url_for("tournaments.show", slug=slug, tournament_id=tournament_id))


@bp.post("/g/<slug>/tournaments/<int:tournament_id>/rounds/<int:round_>/draw")
def draw(slug: str, tournament_id: int, round_: int):
    group, tournament = _tournament(slug, tournament_id)
    answer = change.draw_round(group, tournament, _round(tournament, round_), by=device())
    if isinstance(answer, Refused):  # said in the Durchgang's section, where the page opens
        return _page(group, tournament, 400, refused=(round_, answer.message))
    tell(answer)
    return redirect(url_for("tournaments.show", slug=slug, tournament_id=tournament_id,
                            _anchor=f"round-{round_}"))


@bp.post("/g/<slug>/tournaments/<int:tournament_id>/rounds/<int:round_>/typed")
def typed(slug: str, tournament_id: int, round_: int):
    group, tournament = _tournament(slug, tournament_id)
    _round(tournament, round_)
    form = TypedDrawForm()
    if not form.validate_on_submit():
        return _page(group, tournament, 400, typed_form=form)
    answer = change.type_draw(group, tournament, round_, form.seats, device())
    if isinstance(answer, Refused):  # at the field with what was typed, where the page shows it
        if tournament.finished_at is None and round_ == night.drawn_rounds(tournament) + 1:
            form.tables.errors = [*form.tables.errors, answer.message]
            return _page(group, tournament, 400, typed_form=form)
        return _page(group, tournament, 400, refused=(round_, answer.message))
    tell(answer)
    return redirect(url_for("tournaments.show", slug=slug, tournament_id=tournament_id,
                            _anchor=f"round-{round_}"))


def _table(tournament: Tournament, table_id: int) -> TournamentTable:
    table = db.session.get(TournamentTable, table_id) if 1 <= table_id <= MAX_ID else None
    if table is None or table.tournament_id != tournament.id:
        abort(404)
    return table


@bp.post("/g/<slug>/tournaments/<int:tournament_id>/tables/<int:table_id>/renew")
def renew(slug: str, tournament_id: int, table_id: int):
    _group, tournament = _tournament(slug, tournament_id)
    tell(change.renew_link(tournament, _table(tournament, table_id), device()))
    return redirect(url_for("tournaments.show", slug=slug, tournament_id=tournament_id))


@bp.post("/g/<slug>/tournaments/<int:tournament_id>/tables/<int:table_id>/void")
def void(slug: str, tournament_id: int, table_id: int):
    group, tournament = _tournament(slug, tournament_id)
    table, form = _table(tournament, table_id), VoidForm()
    if not form.validate_on_submit():  # the message at the field of this table's form
        return _page(group, tournament, 400, posted_void=(table.id, form))
    tell(change.void(tournament, table, form.reason.data, device()))
    return redirect(url_for("tournaments.show", slug=slug, tournament_id=tournament_id))


@bp.post("/g/<slug>/tournaments/<int:tournament_id>/places/<int:place>/lot")
def lot(slug: str, tournament_id: int, place: int):
    _group, tournament = _tournament(slug, tournament_id)
    if not 1 <= place <= len(night.entrants(tournament)):
        abort(404)
    tell(change.draw_lot(tournament, place, device()))
    return redirect(url_for("tournaments.show", slug=slug, tournament_id=tournament_id,
                            _anchor="ranking"))


@bp.post("/g/<slug>/tournaments/<int:tournament_id>/close")
def close(slug: str, tournament_id: int):
    _group, tournament = _tournament(slug, tournament_id)
    tell(change.close(tournament, device()))
    return redirect(url_for("tournaments.show", slug=slug, tournament_id=tournament_id))


@bp.get("/g/<slug>/tournaments/<int:tournament_id>/rounds/<int:round_>/sheets")
def sheets(slug: str, tournament_id: int, round_: int):
    """The run sheets of a Durchgang, a table a page (A4): who sits where, a line per game, and
    the QR code of the table's link."""
    group, tournament = _tournament(slug, tournament_id)
    drawn = night.tables(tournament, _round(tournament, round_))
    if not drawn:
        abort(404)
    by_id = {e.id: e for e in night.entrants(tournament)}
    codes = {t.id: _qr(url_for("tournaments.table_link", token=t.token, _external=True))
             for t in drawn}
    return render_template("tournaments/sheets.html", group=group, tournament=tournament,
                           round=round_, tables=drawn, by_id=by_id, codes=codes)


def _qr(link: str) -> Markup:
    """The link as a QR code that fills the box the sheet's CSS gives it (a viewBox, no size
    of its own: printed, 9rem is smaller than on the screen, and a fixed size was cut off)."""
    return Markup(segno.make(link, error="m").svg_inline(scale=4, border=2, svgclass="qr",
                                                         omitsize=True))


@bp.get("/t/<token>")
def table_link(token: str):
    """A table's link (its run sheet's QR code): this phone becomes the table's phone and opens
    the table's game; it sees nothing else of the group."""
    table = db.session.scalar(select(TournamentTable).where(TournamentTable.token == token)) \
        if 20 <= len(token) <= 64 else None
    if table is None or table.game_id is None:
        abort(404)
    tournament = db.session.get(Tournament, table.tournament_id)
    group = db.session.get(Group, tournament.group_id) if tournament else None
    if group is None:
        abort(404)
    change.seat_phone(group, table)
    return redirect(url_for("games.table", slug=group.slug, game_id=table.game_id))


def _by_link(token: str) -> Tournament:
    tournament = night.by_link(token)
    if tournament is None:
        abort(404)
    return tournament


@bp.get("/r/<token>/live")
def ranking_version(token: str):
    """The ranking's version: the spectators' page and the TV fetch the ranking again when it
    changes (a stream of it tells them at once: views.live)."""
    found = night.version_by_link(token)
    if found is None:
        abort(404)
    return live_answer({"version": found[1]})


@bp.get("/r/<token>")
def ranking_link(token: str):
    """The spectators' link: the ranking, live, and nothing else (the TV shows it too). Drawn
    once for each version of the ranking, language, theme and address (a page with a message
    for this phone is drawn for it alone)."""
    found = night.version_by_link(token)
    if found is None:
        abort(404)
    version = found[1]
    key = (found[0], version, language(), request.cookies.get("theme"), request.full_path)

    def draw(_state: Any) -> tuple[str, None, None]:
        tournament = _by_link(token)
        people = night.entrants(tournament)
        listed, ranked = {e.id: e for e in people}, night.ranked(tournament, people)
        pages = max(1, -(-len(ranked) // TV_ROWS))
        page = min(max(1, request.args.get("page", 1, type=int) or 1), pages)
        played = night.played(tournament)
        return render_template("tournaments/ranking.html", tournament=tournament,
                               entrants=listed, ranked=ranked, tv=request.args.get("tv") == "1",
                               page=page, pages=pages, per_page=TV_ROWS, turn=TV_TURN,
                               prizes=_prizes(tournament, ranked), played=played,
                               ties=_open_ties(tournament, ranked) if played else [],
                               version=version), None, None

    if session.get("_flashes"):  # a message for this phone: drawn for it alone
        return draw({})[0]
    return current_app.extensions["rankings"].drawing(key, {}, draw, lambda: None).html


CARD_ROWS = 10  # the picture's lines: the first places (the prizes), then the last place


@bp.get("/r/<token>/card.svg")
def card(token: str):
    """The result as a picture (SVG) to share, as an evening's: the first places with their
    prizes and lots, and the last place; the share button turns it into a PNG where the phone
    can share a file."""
    tournament = _by_link(token)
    people = night.entrants(tournament)
    listed, ranked = {e.id: e for e in people}, night.ranked(tournament, people)
    shown = max(CARD_ROWS, len(tournament.prizes))
    rows = list(ranked[:shown])
    last = [row for row in ranked[shown:] if row.last]
    response = make_response(render_template(
        "tournaments/card.svg", tournament=tournament, entrants=listed, rows=rows,
        last=last[-1:], more=len(ranked) - len(rows) - len(last[-1:]),
        prizes=_prizes(tournament, ranked), ties=_open_ties(tournament, ranked)))
    response.mimetype = "image/svg+xml"
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.app_template_global()
def tournament_table(game: Any) -> TournamentTable | None:
    """For the table page: the tournament table whose game this is, if it is one."""
    return night.table_of(game.id)


@bp.app_template_global()
def voided_table(game: Any) -> TournamentTable | None:
    """For the table page: the tournament table whose game this is, if its Durchgang was voided
    (asked only of a closed game)."""
    return night.voided(game.id) if game.status == "closed" else None
