"""Storing a group from its JSON (`export.group_json`) in an instance that does not have it
yet: the whole file checked first (`check`), every game replayed as it is stored, so that any
problem comes before the caller commits; the caller rolls back on any error."""

from __future__ import annotations

import datetime as dt
from typing import Any

from scorekeeper import engine, games
from scorekeeper.db import db
from scorekeeper.evenings import ledger
from scorekeeper.group import club
from scorekeeper.models import (
    ENDED,
    Entry,
    Evening,
    Fine,
    Game,
    Group,
    KasseEntry,
    PaidPayment,
    Player,
    Revision,
    Signoff,
)
from scorekeeper.records import game_record
from scorekeeper.records.check import bad, check_group
from scorekeeper.records.game_record import show
from scorekeeper.season import standings
from scorekeeper.table import scoring


def store_group(data: dict[str, Any]) -> Group:
    """Store a group from `group_json` output. The whole file is checked first and every game
    is replayed as it is stored; a problem raises ValueError (the engine's RuleError too), after
    rows may have been added: the caller rolls back (changes.records.import_group)."""
    check_group(data)
    if club.find_group(data["slug"]):
        raise ValueError(f"there is already a group {data['slug']!r}")
    names = {p["name"].casefold() for p in data["players"]}
    group = Group(slug=data["slug"], name=data["name"],
                  rounding_cents=data.get("rounding_cents", 0),
                  ratings=data.get("ratings", True),
                  signoff_hours=data.get("signoff_hours", 24))
    db.session.add(group)
    db.session.flush()
    fines = [Fine(group_id=group.id, **fine) for fine in data.get("fines", [])]
    db.session.add_all(fines)
    db.session.flush()
    for player in data["players"]:
        db.session.add(Player(group_id=group.id, name=player["name"],
                              archived=player.get("archived", False)))
    for i, item in enumerate(data["evenings"]):
        evening = Evening(group_id=group.id, date=dt.date.fromisoformat(item["date"]),
                          place=item.get("place", ""))
        db.session.add(evening)
        db.session.flush()
        for j, record in enumerate(item["games"]):
            _import_game(group, evening, record, f"evenings[{i}].games[{j}]", names)
        for paid in item.get("paid", []):
            db.session.add(PaidPayment(evening_id=evening.id, payer=paid["from"],
                                       payee=paid["to"], cents=paid["cents"]))
        _import_evening_extras(evening, item, fines)
    _import_kasse(group, data.get("kasse", []))
    return group


def _entered(entry: dict[str, Any]) -> dict[str, Any]:
    """The columns of a line of the Kasse's book that `check` checked."""
    return {"entered_by": entry.get("by", ""), "created_at": dt.datetime.fromisoformat(entry["at"]),
            "deleted_at": dt.datetime.fromisoformat(entry["deleted_at"])
            if "deleted_at" in entry else None, "deleted_by": entry.get("deleted_by", "")}


def _refused(record: dict[str, Any]) -> bool:
    """Whether this app's engine refuses the game record (a game kept from before an upgrade
    that the engine still refuses)."""
    try:
        engine.replay(record)
    except engine.RuleError:
        return True
    return False


def _store_kept(group: Group, evening: Evening, record: dict[str, Any]) -> Game:
    """Store a game the engine refuses as the app kept it (`export._kept`): its entries, with its
    state and history rows as they were and why it is refused. It is shown read-only, as
    after the upgrade that refused it (derived.rebuild_game)."""
    kept, hands = record["kept"], record.get("hands", [])
    game = Game(group_id=group.id, evening_id=evening.id, kind=record["game"],
                rules=dict(record.get("rules") or {}), seating=list(record["players"]),
                first_dealer=record.get("first_dealer") or record["players"][0],
                state=kept["state"], problem=kept["problem"], entry_count=len(hands))
    db.session.add(game)
    db.session.flush()
    for seq, (data, effect) in enumerate(zip(hands, kept["effects"], strict=True), start=1):
        db.session.add(Entry(game_id=game.id, seq=seq, data=data, effect=effect))
    db.session.flush()
    return game


def _import_kasse(group: Group, items: list[dict[str, Any]]) -> None:
    ids: list[int] = []
    for item in items:
        entry = KasseEntry(
            group_id=group.id, day=dt.date.fromisoformat(item["day"]), kind=item["kind"],
            cents=item["cents"], note=item["note"],
            cancels_id=ids[item["cancels"]] if "cancels" in item else None, **_entered(item))
        db.session.add(entry)
        db.session.flush()
        ids.append(entry.id)


def _import_game(group: Group, evening: Evening, record: dict[str, Any], path: str,
                 names: set[str]) -> None:
    kept = "kept" in record and _refused(record)
    try:
        if kept:  # refused here too: stored as the app kept it, read-only
            game = _store_kept(group, evening, record)
        else:
            game = game_record.store_game(group, evening, record, revisions=False)
        if record.get("status") == "closed" and not kept:  # as the table could close it
            games.get(game.kind).closing(game.state)
    except ValueError as error:  # also the engine's RuleError: "hand 3: ..."
        raise bad(path, str(error)) from None
    for player in game.state["players"]:  # also who sat down in a table change
        if player["name"].casefold() not in names:
            raise bad(path, f"{show(player['name'])} plays but is not one of the group's "
                             "players")
    if kept:
        game.status = record.get("status", "running")
        try:  # what the standings and the evening's money read of it
            standings.rows(game, evening.date.year)
            standings.store(game)
        except (LookupError, TypeError, ValueError, AttributeError):
            raise bad(f"{path}.kept.state", "gives no standings") from None
    elif record.get("status") in ENDED:  # ended by its players, or deleted
        game.status = record["status"]
        if game.status == "closed":
            game.state = scoring.ended_state(game)
        standings.store(game)
    for revision in record.get("revisions", []):
        db.session.add(Revision(game_id=game.id, seq=revision["seq"], action=revision["action"],
                                data=revision["data"], device=revision.get("device", ""),
                                created_at=dt.datetime.fromisoformat(revision["at"])))


def _import_evening_extras(evening: Evening, item: dict[str, Any], fines: list[Fine]) -> None:
    """Store the evening's fines and its signing off as `export._evening_extras` wrote them
    (after its games, so that storing them asked nobody anew)."""
    for booked in item.get("fines", []):
        db.session.add(KasseEntry(
            group_id=evening.group_id, evening_id=evening.id, day=evening.date, kind="fine",
            cents=booked["cents"], note=booked["name"], player=booked["player"],
            batch=booked.get("batch", ""),
            fine_id=fines[booked["fine"]].id if "fine" in booked else None, **_entered(booked)))
    signoff = item.get("signoff")
    if signoff:
        evening.signoff_round = signoff["round"]
        evening.signoff_at, evening.locks_at = (
            dt.datetime.fromisoformat(signoff[key]) if signoff.get(key) else None
            for key in ("asked_at", "locks_at"))
        evening.locked_at = dt.datetime.fromisoformat(signoff["locked_at"]) \
            if signoff.get("locked_at") else None
        evening.rounding_cents = signoff.get("rounding_cents")
        for step in signoff["steps"]:
            db.session.add(Signoff(evening_id=evening.id, round=step["round"], kind=step["kind"],
                                   player=step.get("player", ""), note=step.get("note", ""),
                                   device=step.get("by", ""),
                                   created_at=dt.datetime.fromisoformat(step["at"])))
    db.session.flush()
    if evening.rounding_cents is not None:  # the rounding it was signed off with
        ledger.store_evening(evening.id)
