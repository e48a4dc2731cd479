"""Every change to a tournament night, in the organiser's words: set up a tournament with its
start list, enter a late entrant, withdraw one, draw a Durchgang by lot (again, before play
starts) or type in a draw made on paper, void a table's Durchgang, draw a lot for a tie, take a
table's link back, close the night, and a table's phone taking its seat by the table's link.
What the organiser does is noted in the tournament's history (`TournamentEvent`: when, on which
phone, and what: the reason of a void, the order of a lot).

A drawn table is a game of the tournament's kind on the tournament's own evening, its seats in
the drawn order and the number of games of a Durchgang in its rules; it is played like any
game (`changes.tables`). Each function checks, stores, commits and answers (`changes.answers`).
"""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Sequence
from typing import Any

from flask_babel import gettext as _
from flask_babel import ngettext
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from scorekeeper import engine, games
from scorekeeper.changes.answers import Done, Duplicate, Refused
from scorekeeper.db import db
from scorekeeper.evenings import ledger
from scorekeeper.group import access, club
from scorekeeper.group.names import name_error, name_problem
from scorekeeper.i18n import is_money, rule_message
from scorekeeper.models import (
    Entrant,
    Evening,
    Game,
    Group,
    Lot,
    Tournament,
    TournamentEvent,
    TournamentTable,
    new_token,
    now,
)
from scorekeeper.season import standings
from scorekeeper.table import scoring
from scorekeeper.tournament import draw as drawing
from scorekeeper.tournament import night, ranking
from scorekeeper.web.display import money

MAX_ENTRANTS = 400


def create(group: Group, name: str, kind: str, day: dt.date, rounds: int, games_per_round: int,
           rules: dict[str, Any], entry_fee_cents: int, prizes: list[int],
           names: Sequence[str], key: str | None = None, by: str = ""
           ) -> Tournament | Duplicate | dict[str, str]:
    """A tournament night with its start list (numbered in the order given), on an evening of
    its own; or what is wrong, by field. `key`: the form's (a double tap, or Back and the form
    sent again, sets up one tournament: the second sending answers `Duplicate` with the first's
    id)."""
    first = _made_with(group, key)
    if first is not None:
        return first
    errors: dict[str, str] = {}
    if kind not in night.playable():
        errors["kind"] = _("This game is not played at tournaments.")
    entered = [n.strip() for n in names if n.strip()]
    if problem := start_list_problem(entered):
        errors["entrants"] = problem
    if db.session.scalar(select(Evening.id).where(Evening.group_id == group.id,
                                                  Evening.date == day, Evening.place == name)):
        errors["name"] = _("There is a tournament or an evening of this name on this day "
                           "already: please give the tournament a name of its own.")
    if errors:
        return errors
    adapter = games.GAMES[kind]
    table_rules = _table_rules(adapter, name, rules, games_per_round)
    try:
        engine.base.resolve(adapter.engine.OPTIONS, table_rules)
        if not night.table_sizes(kind, table_rules):  # options that clash: no table could play
            adapter.engine.Table([str(seat) for seat in range(1, 5)], None, table_rules)
    except engine.RuleError as error:
        return {error.field or "_form": rule_message(error)}
    try:
        evening = Evening(group_id=group.id, date=day, place=name)
        db.session.add(evening)
        db.session.flush()
        tournament = Tournament(group_id=group.id, evening_id=evening.id, name=name, kind=kind,
                                rules=table_rules, rounds=rounds, games=games_per_round,
                                entry_fee_cents=entry_fee_cents, prizes=prizes, key=key or None)
        db.session.add(tournament)
        db.session.flush()
    except IntegrityError:  # the same form, sent twice at once: the other sending made it
        db.session.rollback()
        return _made_with(group, key) or {"_form": _("Please send the form again.")}
    for number, entrant in enumerate(entered, start=1):
        db.session.add(Entrant(tournament_id=tournament.id, number=number, name=entrant))
    club.join(group, entered)
    _note(tournament, "created", by, count=len(entered))
    db.session.commit()
    return tournament


def _made_with(group: Group, key: str | None) -> Duplicate | None:
    """The group's tournament set up with the form of this key before, if any."""
    if not key:
        return None
    made = db.session.scalar(select(Tournament.id).where(Tournament.key == key,
                                                         Tournament.group_id == group.id))
    return Duplicate(0, made) if made is not None else None


def _note(tournament: Tournament, kind: str, by: str, **data: Any) -> None:
    """What the organiser did, into the tournament's history (committed with the change)."""
    db.session.add(TournamentEvent(tournament_id=tournament.id, kind=kind, data=data,
                                   device=by[:200]))


def _twice(names: Sequence[str]) -> str | None:
    seen: set[str] = set()
    for name in names:
        if name.casefold() in seen:
            return name
        seen.add(name.casefold())
    return None


def start_list_problem(names: Sequence[str]) -> str | None:
    """What is wrong with a start list (a name a line), in the organiser's words, or None."""
    entered = [n.strip() for n in names if n.strip()]
    problem = next((_("%(name)s: %(problem)s", name=name[:40], problem=error)
                    if name_problem(name) == "format" else error
                    for name in entered if (error := name_error(name))), None)
    twice = _twice(entered)
    if problem or twice:
        return problem or _("%(name)s is entered twice.", name=twice)
    if len(entered) > MAX_ENTRANTS:
        return _("At most %(count)s entrants.", count=MAX_ENTRANTS)
    return None


def set_by_tournament(adapter: Any) -> set[str]:
    """The rule options of a table's game that the tournament sets itself: the number of games
    of a Durchgang where the game has such an option, a name the game must be given (the free
    list's: the tournament's), and what a point or a rubber is worth (a tournament's money is
    its entry fees and prizes; the tables keep the game's usual). The organiser chooses the
    others."""
    return {o.name for o in adapter.engine.OPTIONS
            if (o.required and o.kind == "text") or is_money(o)} | \
        ({adapter.TOURNAMENT_GAMES} if adapter.TOURNAMENT_GAMES else set())


def _table_rules(adapter: Any, name: str, rules: dict[str, Any], games_per_round: int
                 ) -> dict[str, Any]:
    """The rules of a table's game: the tournament's, with what the tournament sets itself
    (`set_by_tournament`)."""
    named = {o.name: name[:o.maximum] for o in adapter.engine.OPTIONS
             if o.required and o.kind == "text" and o.name not in rules}
    option = adapter.TOURNAMENT_GAMES
    return {**named, **rules, **({option: games_per_round} if option else {})}


# --- the start list ------------------------------------------------------------------------

def add_entrant(group: Group, tournament: Tournament, name: str, by: str = ""
                ) -> Done | Refused:
    """A late entrant: on the start list with the next number, drawn from the next Durchgang
    not drawn yet."""
    if tournament.finished_at is not None:
        return Refused(_("This tournament is closed."))
    name = name.strip()
    problem = name_error(name)
    if problem:
        return Refused(problem)
    listed = night.entrants(tournament)
    if any(e.name.casefold() == name.casefold() for e in listed):
        return Refused(_("%(name)s is entered twice.", name=name))
    first = night.drawn_rounds(tournament) + 1
    if first > tournament.rounds:
        return Refused(_("Every Durchgang is drawn: nobody can join any more."))
    db.session.add(Entrant(tournament_id=tournament.id, name=name, first_round=first,
                           number=max((e.number for e in listed), default=0) + 1))
    club.join(group, [name])
    _note(tournament, "entrant", by, name=name, round=first)
    db.session.commit()
    return Done(_("%(name)s plays from Durchgang %(round)s on.", name=name, round=first))


def withdraw(tournament: Tournament, entrant: Entrant, by: str = "") -> Done | Refused:
    """An entrant leaves: not drawn again (the Durchgänge drawn so far count)."""
    if tournament.finished_at is not None:
        return Refused(_("This tournament is closed."))
    entrant.withdrawn_after = night.drawn_rounds(tournament)
    _note(tournament, "withdraw", by, name=entrant.name, after=entrant.withdrawn_after)
    db.session.commit()
    return Done(_("%(name)s is not drawn again.", name=entrant.name))


# --- the draw ------------------------------------------------------------------------------

def draw_round(group: Group, tournament: Tournament, round_: int,
               seed: int | None = None, by: str = "") -> Done | Refused:
    """Draw the tables of Durchgang `round_` by lot (`seed`: a stored draw's, to make it again;
    else a new one), avoiding the earlier Durchgänge's pairings as far as possible. A Durchgang
    may be drawn again until one of its tables has entered a game."""
    seed = secrets.randbelow(2**31) if seed is None else seed
    return _seat(group, tournament, round_, seed, None, by)


def type_draw(group: Group, tournament: Tournament, round_: int,
              typed: Sequence[Sequence[int]], by: str = "") -> Done | Refused:
    """A draw made on paper, typed in as the start numbers at each table."""
    return _seat(group, tournament, round_, None, typed, by)


def _seat(group: Group, tournament: Tournament, round_: int, seed: int | None,
          typed: Sequence[Sequence[int]] | None, by: str) -> Done | Refused:
    if tournament.finished_at is not None:
        return Refused(_("This tournament is closed."))
    if not 1 <= round_ <= tournament.rounds or round_ > night.drawn_rounds(tournament) + 1:
        return Refused(_("Draw the Durchgänge in their order."))
    if night.played(tournament, round_):
        return Refused(_("This Durchgang has started: its draw stays."))
    drawn = night.tables(tournament, round_)
    listed = night.entrants(tournament)
    by_number = {e.number: e for e in listed}
    playing = [e.number for e in listed if e.first_round <= round_]
    # who withdrew before this Durchgang, or from it before it started (a draw made again)
    gone = [e.number for e in listed if e.withdrawn_after is not None
            and e.withdrawn_after <= round_]
    earlier = [[[night.number_of(table, seat) for seat in table.seats] for table in night.tables(
        tournament, r)] for r in range(1, round_)]
    sizes = night.table_sizes(tournament.kind, tournament.rules)
    try:
        if typed is None:
            assert seed is not None
            seated = drawing.draw(playing, seed, sizes, earlier, gone)
        else:
            seated = drawing.check_draw(typed, playing, sizes, gone)
    except engine.RuleError as error:
        return Refused(rule_message(error))
    try:
        for table in drawn:  # drawn again: the tables' games go, none has an entry
            if table.game is not None:
                scoring.delete_game(table.game)
            db.session.delete(table)
        db.session.flush()
        adapter = games.GAMES[tournament.kind]
        for number, seats in enumerate(seated, start=1):
            names = [by_number[n].name for n in seats]
            game = Game(group_id=group.id, evening_id=tournament.evening_id, kind=adapter.name,
                        rules=tournament.rules, seating=names, first_dealer=names[0])
            scoring.start_game(game)
            standings.store(game)
            db.session.add(TournamentTable(tournament_id=tournament.id, round=round_,
                                           number=number, seats=[by_number[n].id for n in seats],
                                           seed=seed, game_id=game.id))
        _note(tournament, "typed" if typed is not None else "draw", by, round=round_,
              tables=len(seated), again=bool(drawn))
        db.session.commit()
    except (IntegrityError, scoring.StaleEntry):  # drawn or played meanwhile on another phone
        db.session.rollback()
        return Refused(_("This Durchgang changed meanwhile on another phone: here it is now."))
    return Done(_("Durchgang %(round)s is drawn: %(count)s tables.", round=round_,
                  count=len(seated)))


def void(tournament: Tournament, table: TournamentTable, reason: str, by: str = ""
         ) -> Done | Refused:
    """The organiser voids a table's Durchgang (its list has errors nobody can trace): its
    players count the Durchgang's worst result (`ranking.evening`), and its game is closed: the
    table's phone says so, when and why, and takes no more entries. The reason is kept, on the
    table and in the history."""
    if tournament.finished_at is not None:
        return Refused(_("This tournament is closed."))
    reason = reason.strip()
    if not reason:
        return Refused(_("Please say why."))
    if table.voided:
        return Refused(_("This table's Durchgang is voided already."))
    table.voided, table.voided_at = reason[:200], now()
    if not _closed([table], by):
        return Refused(_("The table saved a game just now: please look at it and void it "
                         "again."))
    _note(tournament, "void", by, round=table.round, table=table.number, reason=table.voided)
    db.session.commit()
    return Done(_("Table %(number)s of Durchgang %(round)s is voided: its players count the "
                  "Durchgang's worst result.", number=table.number, round=table.round))


def _closed(tables: Sequence[TournamentTable], by: str) -> bool:
    """Close the tables' games as they stand, with their standings rows; False (and nothing
    kept) if one of them saved a game meanwhile."""
    try:
        for table in tables:
            if table.game is not None:
                scoring.close_game(table.game, device=by)
                standings.store(table.game)
    except scoring.StaleEntry:
        db.session.rollback()
        return False
    return True


def renew_link(tournament: Tournament, table: TournamentTable, by: str = "") -> Done:
    """The table's link is taken back (a phone lost, the code photographed): the table gets a
    new one, and a phone that opened the old one opens nothing of the group any more."""
    table.token = new_token()
    _note(tournament, "link", by, round=table.round, table=table.number)
    db.session.commit()
    return Done(_("Table %(number)s has a new link: print its sheet again.", number=table.number))


def draw_lot(tournament: Tournament, place: int, by: str = "") -> Done | Refused:
    """Draw by lot the order of the entrants who share `place` where a prize depends on it; the
    lot is kept and shown."""
    if tournament.finished_at is not None:
        return Refused(_("This tournament is closed."))
    standings = night.ranked(tournament)
    at_place = {row.entrant for row in standings if row.place == place}
    tied = next((tie for tie in night.ties(tournament, standings) if set(tie) == at_place),
                None)
    if tied is None:
        return Refused(_("Nobody shares this place."))
    seed = secrets.randbelow(2**31)
    order = ranking.draw_lot(tied, seed)
    db.session.add(Lot(tournament_id=tournament.id, place=place, drawn=list(order), seed=seed))
    names = {e.id: e.name for e in night.entrants(tournament)}
    _note(tournament, "lot", by, place=place, order=[names[i] for i in order])
    db.session.commit()
    return Done(_("The lot is drawn."))


def seat_phone(group: Group, table: TournamentTable) -> None:
    """A phone opened a table's link: it is that table's phone from now on."""
    access.seat_at(group, table)
    db.session.commit()


def close(tournament: Tournament, by: str) -> Done | Refused:
    """The night is over: the entry fees go into the Kasse's book and the prizes out of it, a
    line each, named after the places' winners as the ranking (and its lots) has them; every
    table's game is closed as it stands, and nothing of the tournament changes any more. Not
    while a shared place decides a prize and its lot is not drawn."""
    if tournament.finished_at is not None:
        return Refused(_("This tournament is closed."))
    if not night.played(tournament):  # every total 0: nobody has a place to pay
        return Refused(_("No table has played a game yet: there is nothing to close."))
    group = db.session.get(Group, tournament.group_id)
    assert group is not None
    listed = night.entrants(tournament)
    if not _closed([t for t in night.tables(tournament) if not t.voided], by):
        return Refused(_("A table saved a game just now: please look at the ranking and close "
                         "the tournament again."))
    ranked = night.ranked(tournament, listed)  # as the lists stand, closed
    if tied := night.ties(tournament, ranked):
        db.session.rollback()
        places = sorted({row.place for row in ranked for tie in tied if row.entrant in tie})
        if not tournament.prizes:  # no prizes: the lot names the winner
            return Refused(_("Place 1 is shared: draw the lot for the winner first."))
        return Refused(ngettext("Place %(places)s is shared and decides a prize: draw its lot "
                                "first.", "Places %(places)s are shared and decide prizes: draw "
                                "their lots first.", len(places),
                                places=", ".join(map(str, places))))
    day = tournament.evening.date
    if tournament.entry_fee_cents:  # those in the ranking: not who withdrew before playing
        ledger.enter(group, "deposit", tournament.entry_fee_cents * len(ranked),
                     _("%(name)s: entry fees, %(count)s × %(fee)s", name=tournament.name,
                       count=len(ranked), fee=money(tournament.entry_fee_cents)), day, by)
    names = {e.id: e.name for e in listed}
    for place, (row, cents) in enumerate(zip(ranked, tournament.prizes, strict=False), 1):
        if cents:
            ledger.enter(group, "withdrawal", cents,
                         _("%(name)s: prize for place %(place)s, %(winner)s",
                           name=tournament.name, place=place, winner=names[row.entrant]),
                         day, by)
    tournament.finished_at = now()
    _note(tournament, "close", by)
    db.session.commit()
    return Done(_("The tournament is closed: its fees and prizes are in the Kasse's book."))
