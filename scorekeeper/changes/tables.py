"""Every change at a game's table, in the players' words: start a game, add a hand (or a table
change), correct an entry, undo the last one, end the game, delete one started by mistake.

Each function checks the change, stores it through `table.scoring`, writes what it derives (the
standings rows, newcomers joining the group) and commits; it answers with what happened
(`changes.answers`: `Saved`, `Done`, `Refused`, `Stale`, `Duplicate`). A page or the command
line only shows the answer. Nothing here reads the request: the caller passes the posted form
and the phone's label.
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import itemgetter
from typing import Any

from flask_babel import format_datetime
from flask_babel import gettext as _

from scorekeeper import engine, games
from scorekeeper.changes.answers import Done, Duplicate, Refused, Saved, Stale
from scorekeeper.db import db
from scorekeeper.evenings import signoff
from scorekeeper.games.base import Roster
from scorekeeper.group import club
from scorekeeper.group.names import name_error
from scorekeeper.i18n import problem_message, rule_message
from scorekeeper.models import Evening, Game, Group, Revision, now
from scorekeeper.season import standings
from scorekeeper.table import scoring
from scorekeeper.tournament import night

# --- why a game takes no change ------------------------------------------------------------------

def shut(game: Game, group: Group) -> str | None:
    """Why the game takes no more entries or changes (its evening signed off, ended, deleted,
    or refused by the engine since an upgrade), or None. The evening was read with the game:
    no query unless it is being signed off."""
    return ((signoff.refusal(game.evening, group) if game.evening.asked else None)
            or (voided(game) if game.status == "closed" else None)
            or (_("This game is closed.") if game.status == "closed" else None)
            or (_("This game was deleted.") if game.status == "deleted" else None)
            or (problem_message(game.problem) if game.problem else None))


def voided(game: Game) -> str | None:
    """Why a tournament table's closed game takes nothing any more, if its organiser voided
    its Durchgang: when and why."""
    table = night.voided(game.id)
    if table is None or table.voided_at is None:
        return None
    return _("The organiser voided this table's Durchgang (%(when)s): %(why)s. It takes no "
             "more entries.", when=format_datetime(table.voided_at, "short"), why=table.voided)


# --- starting a game -----------------------------------------------------------------------------

@dataclass(frozen=True)
class Started:
    """The game started (or found running: the same form sent again), and a sentence for the
    players when it says something they did not ask for."""

    game: Game
    note: str | None = None


def start(group: Group, adapter: Any, chosen_evening: Evening, players: list[str],
          first_dealer: str | None, rules: dict[str, Any] | None
          ) -> Started | dict[str, str]:
    """Start a game of `adapter`'s kind at this table with these rules (None: the rules form
    was not valid) on `chosen_evening` (a signed-off one: a new evening of its own); the game,
    or what is wrong by field."""
    if rules is not None and (running := _running(group, adapter, chosen_evening, players,
                                                  first_dealer, rules)):
        return Started(running, _("This game is running already: here it is."))
    errors: dict[str, str] = {}
    problem = next(filter(None, map(name_error, players)), None)
    if problem:
        errors["players"] = problem
    if rules is not None:
        errors.update(adapter.check_new_game(club.last_game(group, adapter.name), rules))
    evening = signoff.open_evening(chosen_evening, group)
    if rules is None:  # the options are refused at their fields; the table is checked all the same
        table = adapter.engine.Table
        try:
            engine.base.seat_players(players, first_dealer, table.MIN_PLAYERS, table.MAX_PLAYERS)
        except engine.RuleError as error:
            errors.setdefault(error.field or "_form", rule_message(error))
    if errors or rules is None:
        return errors
    try:
        adapter.engine.Table(players, first_dealer, rules)
    except engine.RuleError as error:
        return {error.field or "_form": rule_message(error)}
    club.join(group, players)
    game = Game(group_id=group.id, evening_id=evening.id, kind=adapter.name, rules=rules,
                seating=players, first_dealer=first_dealer)
    scoring.start_game(game)
    standings.store(game)
    db.session.commit()
    if evening is chosen_evening:
        return Started(game)
    return Started(game, _("That evening has been signed off: this game starts an evening of "
                           "its own, %(place)s.", place=evening.place))


def _running(group: Group, adapter: Any, evening: Evening, players: list[str],
             first_dealer: str | None, rules: dict[str, Any]) -> Game | None:
    """The game this new-game form started already, if it is sent again (Back, then start; a
    second phone with the same form): a running game of the same kind, table, first dealer
    and rules on the same evening. The rules a game takes over from the group's last one (the
    Kasse's pot) do not count: that game holds them now, and a form made again after Back
    offers what is left (no pot), so the rule checks come after this one."""
    def own(rules: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in adapter.rules(rules).items() if k not in adapter.CARRIED_RULES}

    candidates = db.session.scalars(
        db.select(Game).where(Game.group_id == group.id, Game.kind == adapter.name,
                              Game.status == "running", Game.first_dealer == first_dealer,
                              Game.evening_id == evening.id)
        .order_by(Game.id))
    return next((game for game in candidates
                 if list(game.seating) == players and own(game.rules) == own(rules)), None)


# --- a hand --------------------------------------------------------------------------------------

def add_hand(group: Group, game: Game, posted: Any, device: str,
             snapshot: dict[str, Any] | None = None) -> Saved | Refused | Stale | Duplicate:
    """A hand (or another entry: a table change) as posted from the table page's form.
    `snapshot`: the table after the last entry, if the caller read it with the game.

    A fresh hand costs four statements: the game was read with its group and last entries,
    then the game, the entry and its revision are written, and one commit; nothing is read
    again (the session keeps what it wrote, for the page that shows it)."""
    why, stamp = shut(game, group), now()
    if why:
        return Refused(why)
    adapter = games.GAMES[game.kind]
    roster, kind = Roster.of(group), adapter.form_kind(posted)
    rules = adapter.rules(game.rules)
    form = adapter.form(kind, game.state, rules, roster, posted)
    try:
        key = form.key.data if form.key.validate(form) else None  # a bad one: refused below
        if form.seq.data is not None and form.seq.data != game.entry_count + 1:
            # made for the table as it was (checked before the form itself: a form made for
            # a table that has changed must not be stored as the next entry)
            raise scoring.stale(key or None)
        if form.shape.data and form.shape.data != form.fields_shape():
            raise scoring.StaleEntry()  # typed for the table as it was (kept while offline)
        data = form.entry() if form.validate_on_submit() else None
        if data is None:
            return Refused(_problems(form), form)
        seated, before = set(map(itemgetter("name"), game.state["players"])), game.status
        added = scoring.add_entry(game, data, expected_seq=form.seq.data,
                                  key=form.key.data or None, device=device,
                                  snapshot=snapshot, at=stamp)
    except engine.RuleError as error:
        db.session.rollback()
        form = adapter.form(kind, game.state, rules, roster, posted, error=error)
        form.validate()
        form.show(error)
        return Refused(rule_message(error), form, error)
    except scoring.Duplicate:
        return Duplicate(form.seq.data)
    except scoring.StaleEntry:
        db.session.rollback()
        return Stale(_("%(what)s was already entered on another phone. Here is the table now.",
                       what=typed_as(game, posted, form.seq.data or game.entry_count)))
    if before != "running" or game.status != "running":  # a hand that ends the game
        standings.store(game, before)
    newcomers = set(map(itemgetter("name"), game.state["players"])) - seated
    if newcomers:  # a table change: whoever sits at the game now joins the group
        club.join(group, newcomers)
    saved = Saved(added.seq, adapter.entry_name(added.seq, added.effect), added.effect or {},
                  adapter.keep(posted))
    session = db.session()
    session.expire_on_commit = False  # the page shows the game as written: nothing read again
    try:
        session.commit()
    finally:
        session.expire_on_commit = True
    return saved


def _seated(game: Game) -> set[str]:
    return set(map(itemgetter("name"), game.state["players"]))


def _problems(form: Any) -> str:
    """What is wrong with a form, in one line (for a hand that was sent later)."""
    found = [*form.problems.values(), *(e for errors in form.errors.values() for e in errors)]
    return " ".join(dict.fromkeys(str(e) for e in found)) or _("Please check the entry.")


def typed_as(game: Game, values: Any, seq: int) -> str:
    """What the table called entry `seq` when it was typed (`values`: as entered): the hand
    after those entered before it ("Hand 8"), or what else it is ("Table change")."""
    before = scoring.table_after(game, min(max(seq - 1, 0), game.entry_count))
    return games.GAMES[game.kind].entry_name_of(values, before.hands_played + 1)


def too_late(game: Game, values: Any, seq: int) -> str:
    """What a phone that kept a hand while it had no network is told when the hand no longer
    fits the table."""
    return _("%(what)s no longer fits the table as it is now (another hand came before it), so "
             "it was not saved. Check the table and enter it again if it is missing.",
             what=typed_as(game, values, seq))


# --- undo ----------------------------------------------------------------------------------------

def undo(game: Game, group: Group, expected_seq: int, device: str) -> Saved | Refused | Stale:
    """Take back the last entry (entry `expected_seq`, as the page showed it)."""
    why = shut(game, group)
    if why:
        return Refused(why)
    try:
        undone = scoring.undo_last(game, expected_seq, device=device)
    except scoring.StaleEntry:
        db.session.rollback()
        return Stale(_("The game changed in the meantime. Nothing was undone."))
    standings.store(game)
    db.session.commit()
    return Saved(undone.seq, games.GAMES[game.kind].entry_name(undone.seq, undone.effect))


def undone_name(game: Game, seq: int) -> str:
    """What the table called entry `seq`, undone since (as were any after the last entry)."""
    undone = db.session.execute(db.select(Revision.seq, Revision.data).where(
        Revision.game_id == game.id, Revision.action == "undo",
        Revision.seq > game.entry_count).order_by(Revision.id.desc()))
    data = next((data for number, data in undone if number == seq), None)
    if data is None:
        return _("Entry %(n)s", n=seq)
    return typed_as(game, data, seq)


# --- a correction --------------------------------------------------------------------------------

@dataclass(frozen=True)
class Preview:
    """What a correction would change, not stored: the scoring preview, each player's money from
    the game now and after it (cents), and what it says if the finished game would go on."""

    scores: scoring.Preview
    money: list[tuple[str, int, int]]
    reopening: str | None


def preview(game: Game, seq: int, data: dict[str, Any]) -> Preview:
    """What replacing entry `seq` with `data` would change, without storing anything (nor
    anybody new at the table); a RuleError names the entry that would no longer fit."""
    adapter = games.GAMES[game.kind]
    try:
        scores = scoring.preview_edit(game, seq, data)
    finally:
        db.session.rollback()
    return Preview(scores, _money_change(adapter, game, scores),
                   _reopening(adapter, game, scores))


def correct(game: Game, group: Group, seq: int, data: dict[str, Any], device: str,
            version: int | None) -> Saved | Refused | Stale:
    """Replace entry `seq` with `data` (confirmed at the game's `version`) and replay the later
    ones. A refusal names the later entry that no longer fits, or holds the engine's error of
    the corrected entry itself for its form to show at the fields."""
    why = shut(game, group)
    if why:
        return Refused(why)
    adapter = games.GAMES[game.kind]
    seated = _seated(game)
    try:
        scoring.edit_entry(game, seq, data, device=device, version=version)
    except engine.RuleError as error:
        db.session.rollback()
        if error.entry == seq:
            return Refused(rule_message(error), error=error)
        later = scoring.entry(game, error.entry or 0)
        reason = rule_message(error)
        if later is not None:  # named as the history names it ("Hand 3", not "entry 4")
            reason = f"{adapter.entry_name(later.seq, later.effect)}: {reason}"
        return Refused(_("This change does not fit the later entries: %(why)s", why=reason))
    except scoring.StaleEntry:
        db.session.rollback()
        return Stale(_("The game changed in the meantime: nothing was saved. Please check and "
                       "save again."))
    standings.store(game)
    newcomers = _seated(game) - seated
    if newcomers:
        club.join(group, newcomers)
    db.session.commit()
    entry = scoring.entry(game, seq)
    return Saved(seq, adapter.entry_name(seq, entry.effect if entry else None))


def _money_change(adapter: Any, game: Game, preview: scoring.Preview
                  ) -> list[tuple[str, int, int]]:
    """Each player's money from the game now and after the correction, in cents: the adapter's
    money of the game in each state (a game made for it, never stored)."""
    def money(state: dict[str, Any], status: str) -> dict[str, int]:
        return adapter.money(Game(group_id=game.group_id, evening_id=game.evening_id,
                                  kind=game.kind, rules=game.rules, seating=game.seating,
                                  first_dealer=game.first_dealer, status=status,
                                  state=state))[0]

    now = money(preview.before, game.status)
    after = money(preview.after, "finished" if preview.after.get("finished") else "running")
    return [(name, now.get(name, 0), after.get(name, 0)) for name in {**after, **now}]


def _reopening(adapter: Any, game: Game, preview: scoring.Preview) -> str | None:
    """What the preview says when the correction makes the finished game (a rubber) go on, and
    whether the next game at the same table has begun: then both would be running."""
    if not preview.before.get("finished") or preview.after.get("finished"):
        return None
    table = set(adapter.next_game(game)[0])
    later = db.session.scalars(db.select(Game).where(
        Game.group_id == game.group_id, Game.kind == game.kind, Game.id > game.id,
        Game.status != "deleted").order_by(Game.id))
    return adapter.reopening(next((g.id for g in later if set(g.seating) == table), None))


# --- ending a game (closing time), deleting one started by mistake -------------------------------

def end(game: Game, group: Group, device: str) -> Done | Refused | Stale:
    """End the game now: its money and standings as the game's end box said. A game the engine
    refuses since an upgrade can still be ended; a signed-off evening's game stays as signed."""
    why = signoff.refusal(game.evening, group)
    if why:
        return Refused(why)
    if game.status != "running":
        return Stale("")
    try:
        games.GAMES[game.kind].closing(game.state)
        scoring.end_game(game, device=device)
    except engine.RuleError as error:
        return Refused(rule_message(error))
    except scoring.StaleEntry:
        db.session.rollback()
        return Stale(_("The game changed in the meantime. Please check and close it again."))
    standings.store(game)
    db.session.commit()
    return Done(_("The game is closed."))


def delete(game: Game, group: Group, device: str) -> Done | Refused | Stale:
    """Delete a game that has no hands (started by mistake); one with hands can only be ended;
    a tournament's table never (its organiser voids its Durchgang)."""
    why = signoff.refusal(game.evening, group)
    if why:
        return Refused(why)
    if night.table_of(game.id) is not None:
        return Refused(_("A tournament's table cannot be deleted: on the tournament's page its "
                         "organiser can void its Durchgang."))
    try:
        scoring.delete_game(game, device=device)
    except scoring.StaleEntry:
        db.session.rollback()
        return Stale(_("Only a game without hands can be deleted; this one can be ended."))
    standings.store(game)
    db.session.commit()
    return Done(_("The game was deleted."))
