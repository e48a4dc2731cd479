"""A whole group as JSON (players, evenings, every game record with its history) or CSV, and
the import of that JSON into an instance that does not have the group yet."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
from typing import Any

from sqlalchemy import select

from scorekeeper import engine, games
from scorekeeper.db import db
from scorekeeper.evenings import accounts, ledger
from scorekeeper.group import club, devices
from scorekeeper.group.names import SLUG, name_problem, printable
from scorekeeper.models import (
    ENDED,
    MAX_ID,
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
from scorekeeper.records.game_record import check_json, show, step
from scorekeeper.season import standings
from scorekeeper.table import scoring

FORMAT = "scorekeeper-group/1"
FORMULA = ("=", "+", "-", "@", "\t", "\r")  # a spreadsheet reads a cell starting so as a formula
MOST_CENTS = 10**9


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
                 "device": devices.device_label(r.device),
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


def group_csv(group: Group) -> str:
    """One row per entry: when, which game, what was entered, and a column per player with what
    the entry did to that player (points, marks, payments as the game's history row says it;
    empty where the player did not sit at that game), so a spreadsheet can add a column up."""
    rows = []
    for evening in _evenings(group):
        for game in _games(evening):
            key = games.get(game.kind).EFFECT_KEY
            for entry in game.entries:
                row = entry.effect or {}
                rows.append(([evening.date.isoformat(), evening.place, game.id, game.kind,
                              entry.seq, row.get("dealer", ""),
                              json.dumps(entry.data, ensure_ascii=False)], row.get(key) or {}))
    people = [p.name for p in group.players]
    people += sorted({name for _, did in rows for name in did} - set(people))
    out = io.StringIO()
    writer = csv.writer(out)
    header = ("date", "place", "game_id", "game", "entry", "dealer", "entered", *people)
    writer.writerow([_cell(value) for value in header])  # the players' names are cells too
    for cells, did in rows:
        writer.writerow([_cell(value) for value in (*cells, *(did.get(n, "") for n in people))])
    return out.getvalue()


def _cell(value: Any) -> str:
    """A CSV cell that a spreadsheet shows as text, never runs as a formula."""
    text = str(value)
    return "'" + text if text.startswith(FORMULA) else text


# --- import: one pass checks the whole file, then everything is stored or nothing --------------

def _bad(path: str, problem: str) -> ValueError:
    return ValueError(f"{path}: {problem}")


def _object(value: Any, path: str, required: tuple[str, ...],
            optional: tuple[str, ...] = ()) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _bad(path, f"{show(value)} is not an object")
    for key in required:
        if key not in value:
            raise _bad(path, f'"{key}" is missing')
    for key in value:
        if key not in required + optional:
            raise _bad(step(path, key), "is not part of a group export")
    return value


def _list(value: Any, path: str) -> list[Any]:
    if not isinstance(value, list):
        raise _bad(path, f"{show(value)} is not a list")
    return value


def _text(value: Any, path: str, longest: int, empty: bool = False) -> str:
    if not isinstance(value, str):
        raise _bad(path, f"{show(value)} is not a text")
    if not printable(value):
        raise _bad(path, f"{show(value)} has an invisible or control character")
    if len(value) > longest:
        raise _bad(path, f"is longer than {longest} characters")
    if not empty and not value.strip():
        raise _bad(path, "is empty")
    return value


def _whole(value: Any, path: str, unit: str, most: int, least: int = 1) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise _bad(path, f"{show(value)} is not a whole number{unit}")
    if not least <= value <= most:
        raise _bad(path, f"{value} is not between {least} and {most}")
    return value


def _date(value: Any, path: str) -> dt.date:
    try:
        return dt.date.fromisoformat(value)
    except (TypeError, ValueError):
        raise _bad(path, f"{show(value)} is not a date like 2026-11-30") from None


def _moment(value: Any, path: str) -> dt.datetime:
    try:
        moment = dt.datetime.fromisoformat(value)
    except (TypeError, ValueError):
        moment = None
    if moment is None or moment.tzinfo is not None:
        raise _bad(path, f"{show(value)} is not a time like 2026-11-30T21:15:00")
    return moment


def check_group(data: Any) -> None:
    """Check a whole `group_json` document before anything is stored: everything the forms and
    `import` check except the game rules, which the engine checks when each game is replayed.
    Raises ValueError with the first problem and where it is, e.g.
    `evenings[2].paid[0].cents: "abc" is not a whole number of cents`."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"not a group export (format {FORMAT})")
    _object(data, "the file", ("format", "slug", "name", "players", "evenings"),
            ("rounding_cents", "ratings", "kasse", "fines", "signoff_hours"))
    if not isinstance(data.get("ratings", True), bool):
        raise _bad("ratings", f"{show(data['ratings'])} is not true or false")
    for i, entry in enumerate(_list(data.get("kasse", []), "kasse")):
        _check_kasse(entry, f"kasse[{i}]", i)
    fines = _list(data.get("fines", []), "fines")
    for i, fine in enumerate(fines):
        _check_fine(fine, f"fines[{i}]")
    _whole(data.get("signoff_hours", 24), "signoff_hours", " of hours", 24 * 365)
    if data.get("rounding_cents", 0) not in accounts.ROUNDINGS \
            or isinstance(data.get("rounding_cents"), bool):
        raise _bad("rounding_cents", f"{show(data['rounding_cents'])} is not one of "
                                     f"{', '.join(map(str, accounts.ROUNDINGS))}")
    if not isinstance(data["slug"], str) or not SLUG.fullmatch(data["slug"]):
        raise _bad("slug", f"{show(data['slug'])} is not a group name of lowercase letters, "
                           "digits and dashes")
    _text(data["name"], "name", 60)
    names: set[str] = set()  # casefolded, as the app tells players apart
    for i, player in enumerate(_list(data["players"], "players")):
        path = f"players[{i}]"
        _object(player, path, ("name",), ("archived",))
        name = player["name"]
        if not isinstance(name, str) or name_problem(name) or name != name.strip():
            raise _bad(f"{path}.name", f"{show(name)} cannot be a player's name: up to 40 "
                                       "letters, digits and spaces, and not the Kasse")
        if name.casefold() in names:
            raise _bad(f"{path}.name", f"there is another player called {show(name)}")
        names.add(name.casefold())
        if not isinstance(player.get("archived", False), bool):
            raise _bad(f"{path}.archived", f"{show(player['archived'])} is not true or false")
    evenings = set()
    for i, evening in enumerate(_list(data["evenings"], "evenings")):
        path = f"evenings[{i}]"
        _object(evening, path, ("date", "games"), ("place", "paid", "fines", "signoff"))
        day = _date(evening["date"], f"{path}.date")
        place = _text(evening.get("place", ""), f"{path}.place", 100, empty=True)
        if (day, place) in evenings:
            raise _bad(path, f"there is another evening on {day} at {show(place)}")
        evenings.add((day, place))
        for j, game in enumerate(_list(evening["games"], f"{path}.games")):
            _check_game(game, f"{path}.games[{j}]", names)
        for j, paid in enumerate(_list(evening.get("paid", []), f"{path}.paid")):
            _check_paid(paid, f"{path}.paid[{j}]", names)
        for j, booked in enumerate(_list(evening.get("fines", []), f"{path}.fines")):
            _check_booked(booked, f"{path}.fines[{j}]", names, len(fines))
        if "signoff" in evening:
            _check_signoff(evening["signoff"], f"{path}.signoff")


def _check_game(game: Any, path: str, names: set[str]) -> None:
    _object(game, path, ("format", "game", "players"),
            ("rules", "first_dealer", "hands", "status", "kept", "revisions"))
    check_json(game, path)  # no hidden characters, NaN or deep nesting anywhere in it
    if not isinstance(game.get("rules", {}), dict):
        raise _bad(f"{path}.rules", f"{show(game['rules'])} is not an object")
    _list(game.get("hands", []), f"{path}.hands")
    for k, name in enumerate(_list(game["players"], f"{path}.players")):
        if not isinstance(name, str) or name.casefold() not in names:
            raise _bad(f"{path}.players[{k}]", f"{show(name)} is not one of the group's players")
    status = game.get("status", "running")
    if status not in ("running", "finished", "closed", "deleted"):
        raise _bad(f"{path}.status", f"{show(status)} is not running, finished, closed or "
                                     "deleted")
    if status == "deleted" and game.get("hands"):
        raise _bad(f"{path}.status", "a game with hands is ended, never deleted")
    if "kept" in game:
        _check_kept(game, f"{path}.kept")
    for k, revision in enumerate(_list(game.get("revisions", []), f"{path}.revisions")):
        where = f"{path}.revisions[{k}]"
        _object(revision, where, ("seq", "action", "data", "at"), ("device",))
        if revision["action"] not in ("add", "edit", "undo", "end", "delete"):
            raise _bad(f"{where}.action", f"{show(revision['action'])} is not add, edit, undo, "
                                          "end or delete")
        # the game's end and its deletion come after its last entry, which may be none
        _whole(revision["seq"], f"{where}.seq", "", MAX_ID,
               least=0 if revision["action"] in ("end", "delete") else 1)
        if not isinstance(revision["data"], dict):
            raise _bad(f"{where}.data", f"{show(revision['data'])} is not an object")
        device = revision.get("device", "")
        if not isinstance(device, str) or len(device) > 200:
            raise _bad(f"{where}.device", f"{show(device)} is not a text of up to 200 characters")
        _moment(revision["at"], f"{where}.at")


def _check_kept(game: dict[str, Any], path: str) -> None:
    """What `_kept` exports: a game of a kind the app knows, why the engine refuses it, a state
    naming its players and one history row (or none) per entry."""
    kept = _object(game["kept"], path, ("problem", "state", "effects"))
    if game["game"] not in games.GAMES:
        raise _bad(path, f"{show(game['game'])} is not a game this app knows")
    if (game.get("first_dealer") or (game["players"] or [None])[0]) not in game["players"]:
        raise _bad(path, "the first dealer does not sit at the table")
    problem = _object(kept["problem"], f"{path}.problem", ("code", "params"),
                      ("entry", "entry_word"))
    _text(problem["code"], f"{path}.problem.code", 100)
    if not isinstance(problem["params"], dict):
        raise _bad(f"{path}.problem.params", f"{show(problem['params'])} is not an object")
    if problem.get("entry") is not None:
        _whole(problem["entry"], f"{path}.problem.entry", "", MAX_ID)
    if problem.get("entry_word") is not None:
        _text(problem["entry_word"], f"{path}.problem.entry_word", 40)
    state = kept["state"]
    if not isinstance(state, dict) or not isinstance(state.get("players"), list) or not all(
            isinstance(player, dict) and isinstance(player.get("name"), str)
            for player in state["players"]):
        raise _bad(f"{path}.state", "is not a game's state with its players")
    effects = _list(kept["effects"], f"{path}.effects")
    if len(effects) != len(game.get("hands", [])):
        raise _bad(f"{path}.effects", "does not have one row for each hand")
    if not all(effect is None or isinstance(effect, dict) for effect in effects):
        raise _bad(f"{path}.effects", "has a row that is not an object")


def _check_paid(paid: Any, path: str, names: set[str]) -> None:
    _object(paid, path, ("from", "to", "cents"))
    for key in ("from", "to"):
        who = paid[key]
        if not isinstance(who, str) or (who.casefold() not in names and who != accounts.KASSE):
            raise _bad(f"{path}.{key}", f"{show(who)} is not one of the group's players "
                                        "or the Kasse")
    if paid["from"].casefold() == paid["to"].casefold():
        raise _bad(path, f"{show(paid['from'])} cannot pay themselves")
    _whole(paid["cents"], f"{path}.cents", " of cents", MOST_CENTS)


def _check_kasse(entry: Any, path: str, index: int) -> None:
    _object(entry, path, ("day", "kind", "cents", "note", "at"),
            ("by", "cancels", "deleted_at", "deleted_by"))
    _date(entry["day"], f"{path}.day")
    if entry["kind"] not in KASSE_KINDS:
        raise _bad(f"{path}.kind", f"{show(entry['kind'])} is not deposit or withdrawal")
    cents = entry["cents"]
    _whole(cents, f"{path}.cents", " of cents", MOST_CENTS, least=-MOST_CENTS)
    if cents == 0:
        raise _bad(f"{path}.cents", "0 is no entry")
    _text(entry["note"], f"{path}.note", 200, empty=True)
    if "cancels" in entry:
        _whole(entry["cancels"], f"{path}.cancels", "", index - 1, least=0)
    _check_entered(entry, path)


def _check_entered(entry: dict[str, Any], path: str) -> None:
    """Who entered a line of the Kasse's book and when, and who deleted it when (if)."""
    _text(entry.get("by", ""), f"{path}.by", 200, empty=True)
    _moment(entry["at"], f"{path}.at")
    if "deleted_at" in entry:
        _moment(entry["deleted_at"], f"{path}.deleted_at")
        _text(entry.get("deleted_by", ""), f"{path}.deleted_by", 200, empty=True)


def _entered(entry: dict[str, Any]) -> dict[str, Any]:
    """The columns of a line of the Kasse's book that `_check_entered` checked."""
    return {"entered_by": entry.get("by", ""), "created_at": dt.datetime.fromisoformat(entry["at"]),
            "deleted_at": dt.datetime.fromisoformat(entry["deleted_at"])
            if "deleted_at" in entry else None, "deleted_by": entry.get("deleted_by", "")}


def import_group(data: dict[str, Any]) -> Group:
    """Create a group from `group_json` output. The whole file is checked first and every game
    is replayed before it is stored; on any problem nothing is stored (ValueError)."""
    check_group(data)
    if club.find_group(data["slug"]):
        raise ValueError(f"there is already a group {data['slug']!r}")
    names = {p["name"].casefold() for p in data["players"]}
    try:
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
        db.session.commit()
    except Exception:
        db.session.rollback()
        raise
    return group


def _refused(record: dict[str, Any]) -> bool:
    """Whether this app's engine refuses the game record (a game kept from before an upgrade
    that the engine still refuses)."""
    try:
        engine.replay(record)
    except engine.RuleError:
        return True
    return False


def _store_kept(group: Group, evening: Evening, record: dict[str, Any]) -> Game:
    """Store a game the engine refuses as the app kept it (`_kept`): its entries, with its
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
        raise _bad(path, str(error)) from None
    for player in game.state["players"]:  # also who sat down in a table change
        if player["name"].casefold() not in names:
            raise _bad(path, f"{show(player['name'])} plays but is not one of the group's "
                             "players")
    if kept:
        game.status = record.get("status", "running")
        try:  # what the standings and the evening's money read of it
            standings.rows(game, evening.date.year)
            standings.store(game)
        except (LookupError, TypeError, ValueError, AttributeError):
            raise _bad(f"{path}.kept.state", "gives no standings") from None
    elif record.get("status") in ENDED:  # ended by its players, or deleted
        game.status = record["status"]
        if game.status == "closed":
            game.state = scoring.ended_state(game)
        standings.store(game)
    for revision in record.get("revisions", []):
        db.session.add(Revision(game_id=game.id, seq=revision["seq"], action=revision["action"],
                                data=revision["data"], device=revision.get("device", ""),
                                created_at=dt.datetime.fromisoformat(revision["at"])))


# --- an evening's fines and its signing off ----------------------------------------------------

KASSE_KINDS = ("deposit", "withdrawal")  # the book's "kasse" list; a fine goes with its evening
SIGNOFF_KINDS = ("ask", "ok", "objection", "lock", "reopen", "withdrawn")


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


def _check_fine(fine: Any, path: str) -> None:
    _object(fine, path, ("name", "cents", "kind"), ("archived",))
    _text(fine["name"], f"{path}.name", 60)
    _whole(fine["cents"], f"{path}.cents", " of cents", MOST_CENTS)
    if fine["kind"] not in ledger.FINE_KINDS:
        raise _bad(f"{path}.kind", f"{show(fine['kind'])} is not one of "
                                   f"{', '.join(ledger.FINE_KINDS)}")
    if not isinstance(fine.get("archived", False), bool):
        raise _bad(f"{path}.archived", f"{show(fine['archived'])} is not true or false")


def _check_booked(booked: Any, path: str, names: set[str], fines: int) -> None:
    _object(booked, path, ("name", "player", "cents", "at"),
            ("batch", "by", "fine", "deleted_at", "deleted_by"))
    _text(booked["name"], f"{path}.name", 200)
    if not isinstance(booked["player"], str) or booked["player"].casefold() not in names:
        raise _bad(f"{path}.player", f"{show(booked['player'])} is not one of the group's "
                                     "players")
    _whole(booked["cents"], f"{path}.cents", " of cents", MOST_CENTS)
    _text(booked.get("batch", ""), f"{path}.batch", 32, empty=True)
    if "fine" in booked:
        _whole(booked["fine"], f"{path}.fine", "", fines - 1, least=0)
    _check_entered(booked, path)


def _check_signoff(signoff: Any, path: str) -> None:
    _object(signoff, path, ("round", "steps"),
            ("asked_at", "locks_at", "locked_at", "rounding_cents"))
    _whole(signoff["round"], f"{path}.round", "", 10**6, least=0)
    for key in ("asked_at", "locks_at", "locked_at"):
        if signoff.get(key) is not None:
            _moment(signoff[key], f"{path}.{key}")
    rounding = signoff.get("rounding_cents")
    if isinstance(rounding, bool) or rounding not in (None, *accounts.ROUNDINGS):
        raise _bad(f"{path}.rounding_cents", f"{show(signoff['rounding_cents'])} is not one of "
                                             f"{', '.join(map(str, accounts.ROUNDINGS))}")
    for i, item in enumerate(_list(signoff["steps"], f"{path}.steps")):
        where = f"{path}.steps[{i}]"
        _object(item, where, ("round", "kind", "at"), ("player", "note", "by"))
        _whole(item["round"], f"{where}.round", "", 10**6, least=0)
        if item["kind"] not in SIGNOFF_KINDS:
            raise _bad(f"{where}.kind", f"{show(item['kind'])} is not a step of signing off")
        for key, longest in (("player", 40), ("note", 200), ("by", 200)):
            _text(item.get(key, ""), f"{where}.{key}", longest, empty=True)
        _moment(item["at"], f"{where}.at")


def _import_evening_extras(evening: Evening, item: dict[str, Any], fines: list[Fine]) -> None:
    """Store the evening's fines and its signing off as `_evening_extras` wrote them (after its
    games, so that storing them asked nobody anew)."""
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
