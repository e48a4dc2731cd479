"""Signing off an evening, as the table looks at the slate before the money changes hands.

"Abend abschließen" asks every player of the evening (`ask`): each confirms ("stimmt") or
objects with a note (`verdict`), from their own phone or from one shared phone that names them.
The evening locks when every player has confirmed, or when the group's window
(`Group.signoff_hours`, as it was when the players were asked: `Evening.locks_at`) has passed
with no objection open. Either is worked out from the stored steps when it is read, so players
who confirm at the same moment lock it too; `locked_at` is written when a confirmation finds
everybody has. A locked evening and
its games take no more entries, corrections, undos, payments or fines (`refusal` says why in
one sentence). A member may reopen it with a reason (`reopen`), which asks everybody again.

Every question is a round of its own. Whatever changes the evening's money while it is being
asked (a correction that answers an objection, a fine) starts a new round (`changed`): what
was confirmed before was a different result. Every step is a `Signoff` row, never changed, so
the history and the export show who said what and when.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from flask_babel import gettext as _
from sqlalchemy import select

from scorekeeper.db import db
from scorekeeper.evenings import accounts
from scorekeeper.group.names import KASSE
from scorekeeper.models import Evening, Game, Group, Signoff, now

VERDICTS = ("ok", "objection")


@dataclass
class Status:
    """Where the evening's sign-off stands: ``open`` (never asked, or nobody is being asked),
    ``asking`` or ``locked``; each player's verdict of this round (a Signoff row, or None);
    when the window locks it by itself (None: an objection holds it, or it is not asking)."""

    state: str
    players: list[str]
    verdicts: dict[str, Signoff | None]
    locks_at: dt.datetime | None = None
    locked_at: dt.datetime | None = None
    history: list[Signoff] = field(default_factory=list)
    by_window: bool = False  # locked as the window passed with no objection open

    @property
    def confirmed(self) -> list[str]:
        return [name for name, v in self.verdicts.items() if v is not None and v.kind == "ok"]


def _verdicts(evening: Evening) -> dict[str, Signoff]:
    """Each player's latest verdict in the current round."""
    rows = db.session.scalars(select(Signoff).where(
        Signoff.evening_id == evening.id, Signoff.round == evening.signoff_round,
        Signoff.kind.in_(VERDICTS)).order_by(Signoff.id))
    return {row.player: row for row in rows}


def _all_confirmed(names: list[str], verdicts: dict[str, Signoff]) -> bool:
    return bool(names) and all(name in verdicts and verdicts[name].kind == "ok"
                               for name in names)


def _by_window(evening: Evening, verdicts: dict[str, Signoff]) -> bool:
    """The window passed with no objection open."""
    return evening.locks_at is not None and now() >= evening.locks_at and \
        not any(v.kind == "objection" for v in verdicts.values())


def locked(evening: Evening, group: Group) -> bool:
    """Whether the evening is signed off. No query for an evening nobody is being asked about
    (the hand's path); while the table is being asked, its steps and players are read."""
    if evening.locked_at is not None:
        return True
    if evening.signoff_at is None:
        return False
    verdicts = _verdicts(evening)
    return _by_window(evening, verdicts) or _all_confirmed(players(evening, group), verdicts)


def refusal(evening: Evening, group: Group) -> str | None:
    """Why the evening and its games take no change now (one sentence), or None."""
    if locked(evening, group):
        return _("This evening has been signed off; a member can reopen it on the evening's "
                 "page.")
    return None


def players(evening: Evening, group: Group) -> list[str]:
    """Who is asked: everyone with a balance in the evening's settlement (its players, also one
    who broke even), not the Kasse."""
    return settled_players(accounts.settle(evening, group.rounding_cents))


def settled_players(result: accounts.Settlement) -> list[str]:
    """`players` from the evening's settlement, where the caller has it already."""
    return sorted(name for name in result.balances_cents if name != KASSE)


def status(evening: Evening, group: Group, names: list[str] | None = None) -> Status:
    """Where the evening's sign-off stands; `names`: its players, if the caller has settled
    the evening already (see `players`)."""
    names = players(evening, group) if names is None else names
    history = list(db.session.scalars(select(Signoff).where(Signoff.evening_id == evening.id)
                                      .order_by(Signoff.id)))
    if evening.signoff_at is None and evening.locked_at is None:
        return Status("open", names, dict.fromkeys(names), history=history)
    verdicts = _verdicts(evening)
    found: dict[str, Signoff | None] = {name: verdicts.get(name) for name in names}
    objected = any(v.kind == "objection" for v in verdicts.values())
    if evening.locked_at is not None:
        return Status("locked", names, found, locked_at=evening.locked_at, history=history)
    if _all_confirmed(names, verdicts):  # confirmed at the same moment: none wrote the lock
        return Status("locked", names, found, history=history,
                      locked_at=max(verdicts[name].created_at for name in names))
    if _by_window(evening, verdicts):
        return Status("locked", names, found, locked_at=evening.locks_at, history=history,
                      by_window=True)
    return Status("asking", names, found, None if objected else evening.locks_at,
                  history=history)


def not_signed_off(group: Group, season: int | None = None) -> list[Evening]:
    """The evenings (of the season) with games that are not signed off, oldest first: what
    the standings and the season page add up may still change there."""
    played = select(Game.evening_id).where(Game.group_id == group.id, Game.status != "deleted")
    query = select(Evening).where(Evening.group_id == group.id, Evening.locked_at.is_(None),
                                  Evening.id.in_(played)).order_by(Evening.date, Evening.id)
    if season is not None:
        query = query.where(Evening.date.between(dt.date(season, 1, 1), dt.date(season, 12, 31)))
    return [evening for evening in db.session.scalars(query) if not locked(evening, group)]


def open_evening(evening: Evening, group: Group) -> Evening:
    """The evening a new game goes into: this one, or if it is signed off, the next evening of
    the same day that is not ("Zur Tanne (2)"), made if needed: the table plays on after
    signing off without reopening what it signed."""
    number = 1
    while locked(evening, group):
        number += 1
        place = f"{evening.place} ({number})".strip() if number == 2 else \
            f"{evening.place.rsplit(' (', 1)[0]} ({number})".strip()
        found = db.session.scalar(select(Evening).where(
            Evening.group_id == group.id, Evening.date == evening.date, Evening.place == place))
        if found is None:
            found = Evening(group_id=group.id, date=evening.date, place=place)
            db.session.add(found)
            db.session.flush()
        evening = found
    return evening


def running_games(evening: Evening) -> list[Game]:
    return [game for game in accounts.games_of(evening) if game.status == "running"]


class Refused(Exception):
    """A sign-off step that cannot be taken now; its text says why, in the players' words."""


def ask(evening: Evening, group: Group, by: str) -> None:
    """Start signing the evening off: every player is asked (again)."""
    if locked(evening, group):
        raise Refused(_("This evening has been signed off already."))
    if running_games(evening):
        raise Refused(_("End the games still running first: their money can still change."))
    if not players(evening, group):
        raise Refused(_("Nobody has played this evening yet."))
    if evening.signoff_at is None:
        _next_round(evening, "ask", by)


def _next_round(evening: Evening, kind: str, by: str, note: str = "") -> None:
    """A new round: everybody is asked again from now on, within the group's window."""
    rounding, hours = db.session.execute(select(Group.rounding_cents, Group.signoff_hours)
                                         .where(Group.id == evening.group_id)).one()
    if evening.rounding_cents is None:
        evening.rounding_cents = rounding
    evening.signoff_round += 1
    evening.signoff_at = now()
    evening.locks_at = evening.signoff_at + dt.timedelta(hours=hours)
    evening.locked_at = None
    db.session.add(Signoff(evening_id=evening.id, round=evening.signoff_round, kind=kind,
                           note=note, device=by))


def verdict(evening: Evening, group: Group, player: str, kind: str, note: str, by: str) -> bool:
    """A player confirms ("ok") or objects (with a note); True if that locked the evening."""
    current = status(evening, group)
    if current.state == "locked":
        raise Refused(_("This evening has been signed off already."))
    if current.state != "asking":
        raise Refused(_("Nobody is being asked to sign this evening off."))
    if player not in current.players:
        raise Refused(_("%(name)s did not play this evening.", name=player))
    if kind not in VERDICTS or (kind == "objection" and not note.strip()):
        raise Refused(_("Please say what is wrong."))
    db.session.add(Signoff(evening_id=evening.id, round=evening.signoff_round, kind=kind,
                           player=player, note=note.strip() if kind == "objection" else "",
                           device=by))
    db.session.flush()
    if _all_confirmed(current.players, _verdicts(evening)):
        evening.locked_at = now()
        db.session.add(Signoff(evening_id=evening.id, round=evening.signoff_round, kind="lock",
                               device=by))
        return True
    return False


def reopen(evening: Evening, group: Group, reason: str, by: str) -> None:
    """A member reopens a signed-off evening, with a reason; everybody is asked again."""
    if not locked(evening, group):
        raise Refused(_("This evening is not signed off."))
    if not reason.strip():
        raise Refused(_("Please say why it is reopened."))
    _next_round(evening, "reopen", by, reason.strip())


def changed(evening_id: int, by: str = "") -> None:
    """The evening's money changed while its players are being asked: they are asked anew, as
    what they confirmed is not what it is now. A game running meanwhile (started, or reopened
    by a correction) withdraws the question; once no game runs, it is asked again. (A locked
    evening takes no change at all.)"""
    evening = db.session.get(Evening, evening_id)
    if evening is None or not evening.signoff_round or evening.locked_at is not None:
        return  # never asked, or signed off
    running = bool(running_games(evening))
    if evening.signoff_at is None:  # withdrawn (nothing else leaves a round without a question)
        if not running:
            _next_round(evening, "ask", by)
        return
    group = db.session.get(Group, evening.group_id)
    if group is None or locked(evening, group):
        return
    if running:
        evening.signoff_at = evening.locks_at = None
        db.session.add(Signoff(evening_id=evening.id, round=evening.signoff_round,
                               kind="withdrawn", device=by))
    else:
        _next_round(evening, "ask", by)
