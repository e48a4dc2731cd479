"""A whole group as JSON (players, evenings, every game record with its history) or CSV, and
the import of that JSON into an instance that does not have the group yet."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
from typing import Any

from sqlalchemy import select

from . import records, standings
from .db import db
from .models import Evening, Game, Group, PaidPayment, Player, Revision

FORMAT = "scorekeeper-group/1"


def _games(evening: Evening) -> list[Game]:
    return list(db.session.scalars(select(Game).where(Game.evening_id == evening.id)
                                   .order_by(Game.id)))


def _evenings(group: Group) -> list[Evening]:
    return list(db.session.scalars(select(Evening).where(Evening.group_id == group.id)
                                   .order_by(Evening.date, Evening.id)))


def group_json(group: Group) -> dict[str, Any]:
    evenings = []
    for evening in _evenings(group):
        games = []
        for game in _games(evening):
            revisions = db.session.scalars(select(Revision).where(Revision.game_id == game.id)
                                           .order_by(Revision.id))
            games.append({**game.record(), "status": game.status, "revisions": [
                {"seq": r.seq, "action": r.action, "data": r.data, "device": r.device,
                 "at": r.created_at.isoformat()} for r in revisions]})
        paid = db.session.scalars(select(PaidPayment).where(PaidPayment.evening_id == evening.id))
        evenings.append({"date": evening.date.isoformat(), "place": evening.place, "games": games,
                         "paid": [{"from": p.payer, "to": p.payee, "cents": p.cents}
                                  for p in paid]})
    return {"format": FORMAT, "slug": group.slug, "name": group.name,
            "players": [{"name": p.name, "archived": p.archived} for p in group.players],
            "evenings": evenings}


def group_csv(group: Group) -> str:
    """One row per entry: when, which game, what was entered and what it did to each player."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["date", "place", "game_id", "game", "entry", "dealer", "entered", "result"])
    for evening in _evenings(group):
        for game in _games(evening):
            history = game.state.get("history", [])
            for entry in game.entries:
                row = history[entry.seq - 1] if entry.seq <= len(history) else {}
                # what the entry did: money (Vier-Anderle), marks (Hintersche), points (Hearts)
                result = row.get("payments") or row.get("marks") or row.get("points") or {}
                writer.writerow([evening.date.isoformat(), evening.place, game.id, game.kind,
                                 entry.seq, row.get("dealer", ""),
                                 json.dumps(entry.data, ensure_ascii=False),
                                 json.dumps(result, ensure_ascii=False)])
    return out.getvalue()


def import_group(data: dict[str, Any]) -> Group:
    """Create a group from `group_json` output. Every game is replayed before it is stored."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"not a group export (format {FORMAT})")
    if db.session.scalar(select(Group).where(Group.slug == data["slug"])):
        raise ValueError(f"there is already a group {data['slug']!r}")
    group = Group(slug=data["slug"], name=data["name"])
    db.session.add(group)
    db.session.flush()
    for player in data["players"]:
        db.session.add(Player(group_id=group.id, name=player["name"],
                              archived=player.get("archived", False)))
    for item in data["evenings"]:
        evening = Evening(group_id=group.id, date=dt.date.fromisoformat(item["date"]),
                          place=item.get("place", ""))
        db.session.add(evening)
        db.session.flush()
        for record in item["games"]:
            _import_game(group, evening, record)
        for paid in item.get("paid", []):
            db.session.add(PaidPayment(evening_id=evening.id, payer=paid["from"],
                                       payee=paid["to"], cents=paid["cents"]))
    db.session.commit()
    return group


def _import_game(group: Group, evening: Evening, record: dict[str, Any]) -> None:
    game = records.store_game(group, evening, record, revisions=False)
    if record.get("status") == "closed":
        game.status = "closed"
        standings.store(game)
    for revision in record.get("revisions", []):
        db.session.add(Revision(game_id=game.id, seq=revision["seq"], action=revision["action"],
                                data=revision["data"], device=revision.get("device", ""),
                                created_at=dt.datetime.fromisoformat(revision["at"])))
