"""A whole group as JSON (its players, evenings, every game record with its history, its
Kasse's book and fines, how each evening was signed off) or as CSV (one row per hand), for a
spreadsheet or for `import-group` on another instance (`check`, `group_import`)."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from sqlalchemy import select

from scorekeeper import games
from scorekeeper.db import db
from scorekeeper.evenings import ledger
from scorekeeper.group import access
from scorekeeper.models import (
    Evening,
    Fine,
    Game,
    Group,
    KasseEntry,
    PaidPayment,
    Revision,
    Signoff,
)

FORMAT = "scorekeeper-group/1"
FORMULA = ("=", "+", "-", "@", "\t", "\r")  # a spreadsheet reads a cell starting so as a formula
KASSE_KINDS = ("deposit", "withdrawal")  # the book's "kasse" list; a fine goes with its evening


def _games(evening: Evening) -> list[Game]:
    return list(db.session.scalars(select(Game).where(Game.evening_id == evening.id)
                                   .order_by(Game.id)))


def _evenings(group: Group) -> list[Evening]:
    return list(db.session.scalars(select(Evening).where(Evening.group_id == group.id)
                                   .order_by(Evening.date, Evening.id)))


def group_json(group: Group) -> dict[str, Any]:
    evenings = []
    fines = ledger.catalogue(group, archived=True)
    for evening in _evenings(group):
        games = []
        for game in _games(evening):
            revisions = db.session.scalars(select(Revision).where(Revision.game_id == game.id)
                                           .order_by(Revision.id))
            games.append({**game.record(), "status": game.status,
                          **({"kept": _kept(game)} if game.problem else {}), "revisions": [
                {"seq": r.seq, "action": r.action, "data": r.data,
                 "device": access.device_label(r.device),
                 "at": r.created_at.isoformat()} for r in revisions]})
        paid = db.session.scalars(select(PaidPayment).where(PaidPayment.evening_id == evening.id))
        evenings.append({"date": evening.date.isoformat(), "place": evening.place, "games": games,
                         "paid": [{"from": p.payer, "to": p.payee, "cents": p.cents}
                                  for p in paid], **_evening_extras(evening, fines)})
    kasse = _kasse_json(group)
    return {"format": FORMAT, "slug": group.slug, "name": group.name,
            **({"rounding_cents": group.rounding_cents} if group.rounding_cents else {}),
            **({"ratings": False} if not group.ratings else {}),
            **({"signoff_hours": group.signoff_hours} if group.signoff_hours != 24 else {}),
            "players": [{"name": p.name, "archived": p.archived} for p in group.players],
            "evenings": evenings, **({"kasse": kasse} if kasse else {}),
            **({"fines": [{"name": f.name, "cents": f.cents, "kind": f.kind,
                           "archived": f.archived} for f in fines]} if fines else {})}


def _kept(game: Game) -> dict[str, Any]:
    """What the app keeps of a game the engine refuses since an upgrade (derived.rebuild_game),
    which no replay gives back: why it is refused, its state and each entry's row of the
    history as they were."""
    return {"problem": game.problem, "state": game.state,
            "effects": [entry.effect for entry in game.entries]}


def _kasse_json(group: Group) -> list[dict[str, Any]]:
    """Members' entries in the Kasse's book, in the order they were made; a counter entry names
    the entry it cancels by its place in this list. (The games' lines are derived: an import
    stores them again from the games.)"""
    entries = db.session.scalars(select(KasseEntry).where(KasseEntry.group_id == group.id,
                                                          KasseEntry.kind.in_(KASSE_KINDS))
                                 .order_by(KasseEntry.id)).all()
    place = {entry.id: i for i, entry in enumerate(entries)}
    return [{"day": e.day.isoformat(), "kind": e.kind, "cents": e.cents, "note": e.note,
             "by": e.entered_by, "at": e.created_at.isoformat(),
             **({"cancels": place[e.cancels_id]} if e.cancels_id else {}),
             **({"deleted_at": e.deleted_at.isoformat(), "deleted_by": e.deleted_by}
                if e.deleted_at else {})} for e in entries]


def _evening_extras(evening: Evening, fines: list[Fine]) -> dict[str, Any]:
    """The fines booked at the evening (one item per player who pays; `fine`: its place in the
    catalogue) and how it was signed off (every step), where there are any."""
    place = {fine.id: i for i, fine in enumerate(fines)}
    booked = db.session.scalars(select(KasseEntry).where(KasseEntry.evening_id == evening.id,
                                                         KasseEntry.kind == "fine")
                                .order_by(KasseEntry.id)).all()
    extras: dict[str, Any] = {}
    if booked:
        extras["fines"] = [
            {"name": e.note, "player": e.player, "cents": e.cents, "batch": e.batch,
             "by": e.entered_by, "at": e.created_at.isoformat(),
             **({"fine": place[e.fine_id]} if e.fine_id in place else {}),
             **({"deleted_at": e.deleted_at.isoformat(), "deleted_by": e.deleted_by}
                if e.deleted_at else {})} for e in booked]
    if evening.signoff_round or evening.rounding_cents is not None:
        steps = db.session.scalars(select(Signoff).where(Signoff.evening_id == evening.id)
                                   .order_by(Signoff.id))
        extras["signoff"] = {
            "round": evening.signoff_round,
            "asked_at": evening.signoff_at.isoformat() if evening.signoff_at else None,
            "locks_at": evening.locks_at.isoformat() if evening.locks_at else None,
            "locked_at": evening.locked_at.isoformat() if evening.locked_at else None,
            "rounding_cents": evening.rounding_cents,
            "steps": [{"round": s.round, "kind": s.kind, "player": s.player, "note": s.note,
                       "by": s.device, "at": s.created_at.isoformat()} for s in steps]}
    return extras


def group_csv(group: Group) -> str:
    """One row per entry: when, which game (and the name the group gave it: a free list's), what
    was entered, and a column per player with what the entry did to that player (points, marks,
    payments as the game's history row says it; empty where the player did not sit at that
    game), so a spreadsheet can add a column up."""
    rows = []
    for evening in _evenings(group):
        for game in _games(evening):
            adapter = games.get(game.kind)
            key, name = adapter.EFFECT_KEY, adapter.own_name(game.rules or {})
            for entry in game.entries:
                row = entry.effect or {}
                rows.append(([evening.date.isoformat(), evening.place, game.id, game.kind, name,
                              entry.seq, row.get("dealer", ""),
                              json.dumps(entry.data, ensure_ascii=False)], row.get(key) or {}))
    people = [p.name for p in group.players]
    people += sorted({name for _, did in rows for name in did} - set(people))
    out = io.StringIO()
    writer = csv.writer(out)
    header = ("date", "place", "game_id", "game", "name", "entry", "dealer", "entered", *people)
    writer.writerow([_cell(value) for value in header])  # the players' names are cells too
    for cells, did in rows:
        writer.writerow([_cell(value) for value in (*cells, *(did.get(n, "") for n in people))])
    return out.getvalue()


def _cell(value: Any) -> str:
    """A CSV cell that a spreadsheet shows as text, never runs as a formula."""
    text = str(value)
    return "'" + text if text.startswith(FORMULA) else text
