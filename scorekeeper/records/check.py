"""The checks of a group's JSON (`export.group_json`) before anything of it is stored: one
pass over the whole file, the first problem said with where it is."""

from __future__ import annotations

import datetime as dt
from typing import Any

from scorekeeper import games
from scorekeeper.evenings import accounts, ledger
from scorekeeper.group.names import SLUG, name_problem, printable
from scorekeeper.models import MAX_ID
from scorekeeper.records.export import FORMAT, KASSE_KINDS
from scorekeeper.records.game_record import check_json, show, step

MOST_CENTS = 10**9
SIGNOFF_KINDS = ("ask", "ok", "objection", "lock", "reopen", "withdrawn")


def bad(path: str, problem: str) -> ValueError:
    return ValueError(f"{path}: {problem}")


def _object(value: Any, path: str, required: tuple[str, ...],
            optional: tuple[str, ...] = ()) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise bad(path, f"{show(value)} is not an object")
    for key in required:
        if key not in value:
            raise bad(path, f'"{key}" is missing')
    for key in value:
        if key not in required + optional:
            raise bad(step(path, key), "is not part of a group export")
    return value


def _list(value: Any, path: str) -> list[Any]:
    if not isinstance(value, list):
        raise bad(path, f"{show(value)} is not a list")
    return value


def _text(value: Any, path: str, longest: int, empty: bool = False) -> str:
    if not isinstance(value, str):
        raise bad(path, f"{show(value)} is not a text")
    if not printable(value):
        raise bad(path, f"{show(value)} has an invisible or control character")
    if len(value) > longest:
        raise bad(path, f"is longer than {longest} characters")
    if not empty and not value.strip():
        raise bad(path, "is empty")
    return value


def _whole(value: Any, path: str, unit: str, most: int, least: int = 1) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise bad(path, f"{show(value)} is not a whole number{unit}")
    if not least <= value <= most:
        raise bad(path, f"{value} is not between {least} and {most}")
    return value


def _date(value: Any, path: str) -> dt.date:
    try:
        return dt.date.fromisoformat(value)
    except (TypeError, ValueError):
        raise bad(path, f"{show(value)} is not a date like 2026-11-30") from None


def _moment(value: Any, path: str) -> dt.datetime:
    try:
        moment = dt.datetime.fromisoformat(value)
    except (TypeError, ValueError):
        moment = None
    if moment is None or moment.tzinfo is not None:
        raise bad(path, f"{show(value)} is not a time like 2026-11-30T21:15:00")
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
        raise bad("ratings", f"{show(data['ratings'])} is not true or false")
    for i, entry in enumerate(_list(data.get("kasse", []), "kasse")):
        _check_kasse(entry, f"kasse[{i}]", i)
    fines = _list(data.get("fines", []), "fines")
    for i, fine in enumerate(fines):
        _check_fine(fine, f"fines[{i}]")
    _whole(data.get("signoff_hours", 24), "signoff_hours", " of hours", 24 * 365)
    if data.get("rounding_cents", 0) not in accounts.ROUNDINGS \
            or isinstance(data.get("rounding_cents"), bool):
        raise bad("rounding_cents", f"{show(data['rounding_cents'])} is not one of "
                                     f"{', '.join(map(str, accounts.ROUNDINGS))}")
    if not isinstance(data["slug"], str) or not SLUG.fullmatch(data["slug"]):
        raise bad("slug", f"{show(data['slug'])} is not a group name of lowercase letters, "
                           "digits and dashes")
    _text(data["name"], "name", 60)
    names: set[str] = set()  # casefolded, as the app tells players apart
    for i, player in enumerate(_list(data["players"], "players")):
        path = f"players[{i}]"
        _object(player, path, ("name",), ("archived",))
        name = player["name"]
        if not isinstance(name, str) or name_problem(name) or name != name.strip():
            raise bad(f"{path}.name", f"{show(name)} cannot be a player's name: up to 40 "
                                       "letters, digits and spaces, and not the Kasse")
        if name.casefold() in names:
            raise bad(f"{path}.name", f"there is another player called {show(name)}")
        names.add(name.casefold())
        if not isinstance(player.get("archived", False), bool):
            raise bad(f"{path}.archived", f"{show(player['archived'])} is not true or false")
    evenings = set()
    for i, evening in enumerate(_list(data["evenings"], "evenings")):
        path = f"evenings[{i}]"
        _object(evening, path, ("date", "games"), ("place", "paid", "fines", "signoff"))
        day = _date(evening["date"], f"{path}.date")
        place = _text(evening.get("place", ""), f"{path}.place", 100, empty=True)
        if (day, place) in evenings:
            raise bad(path, f"there is another evening on {day} at {show(place)}")
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
        raise bad(f"{path}.rules", f"{show(game['rules'])} is not an object")
    _list(game.get("hands", []), f"{path}.hands")
    for k, name in enumerate(_list(game["players"], f"{path}.players")):
        if not isinstance(name, str) or name.casefold() not in names:
            raise bad(f"{path}.players[{k}]", f"{show(name)} is not one of the group's players")
    status = game.get("status", "running")
    if status not in ("running", "finished", "closed", "deleted"):
        raise bad(f"{path}.status", f"{show(status)} is not running, finished, closed or "
                                     "deleted")
    if status == "deleted" and game.get("hands"):
        raise bad(f"{path}.status", "a game with hands is ended, never deleted")
    if "kept" in game:
        _check_kept(game, f"{path}.kept")
    for k, revision in enumerate(_list(game.get("revisions", []), f"{path}.revisions")):
        where = f"{path}.revisions[{k}]"
        _object(revision, where, ("seq", "action", "data", "at"), ("device",))
        if revision["action"] not in ("add", "edit", "undo", "end", "delete"):
            raise bad(f"{where}.action", f"{show(revision['action'])} is not add, edit, undo, "
                                          "end or delete")
        # the game's end and its deletion come after its last entry, which may be none
        _whole(revision["seq"], f"{where}.seq", "", MAX_ID,
               least=0 if revision["action"] in ("end", "delete") else 1)
        if not isinstance(revision["data"], dict):
            raise bad(f"{where}.data", f"{show(revision['data'])} is not an object")
        device = revision.get("device", "")
        if not isinstance(device, str) or len(device) > 200:
            raise bad(f"{where}.device", f"{show(device)} is not a text of up to 200 characters")
        _moment(revision["at"], f"{where}.at")


def _check_kept(game: dict[str, Any], path: str) -> None:
    """What `export._kept` writes: a game of a kind the app knows, why the engine refuses it, a
    state naming its players and one history row (or none) per entry."""
    kept = _object(game["kept"], path, ("problem", "state", "effects"))
    if game["game"] not in games.GAMES:
        raise bad(path, f"{show(game['game'])} is not a game this app knows")
    if (game.get("first_dealer") or (game["players"] or [None])[0]) not in game["players"]:
        raise bad(path, "the first dealer does not sit at the table")
    problem = _object(kept["problem"], f"{path}.problem", ("code", "params"),
                      ("entry", "entry_word"))
    _text(problem["code"], f"{path}.problem.code", 100)
    if not isinstance(problem["params"], dict):
        raise bad(f"{path}.problem.params", f"{show(problem['params'])} is not an object")
    if problem.get("entry") is not None:
        _whole(problem["entry"], f"{path}.problem.entry", "", MAX_ID)
    if problem.get("entry_word") is not None:
        _text(problem["entry_word"], f"{path}.problem.entry_word", 40)
    state = kept["state"]
    if not isinstance(state, dict) or not isinstance(state.get("players"), list) or not all(
            isinstance(player, dict) and isinstance(player.get("name"), str)
            for player in state["players"]):
        raise bad(f"{path}.state", "is not a game's state with its players")
    effects = _list(kept["effects"], f"{path}.effects")
    if len(effects) != len(game.get("hands", [])):
        raise bad(f"{path}.effects", "does not have one row for each hand")
    if not all(effect is None or isinstance(effect, dict) for effect in effects):
        raise bad(f"{path}.effects", "has a row that is not an object")


def _check_paid(paid: Any, path: str, names: set[str]) -> None:
    _object(paid, path, ("from", "to", "cents"))
    for key in ("from", "to"):
        who = paid[key]
        if not isinstance(who, str) or (who.casefold() not in names and who != accounts.KASSE):
            raise bad(f"{path}.{key}", f"{show(who)} is not one of the group's players "
                                        "or the Kasse")
    if paid["from"].casefold() == paid["to"].casefold():
        raise bad(path, f"{show(paid['from'])} cannot pay themselves")
    _whole(paid["cents"], f"{path}.cents", " of cents", MOST_CENTS)


def _check_kasse(entry: Any, path: str, index: int) -> None:
    _object(entry, path, ("day", "kind", "cents", "note", "at"),
            ("by", "cancels", "deleted_at", "deleted_by"))
    _date(entry["day"], f"{path}.day")
    if entry["kind"] not in KASSE_KINDS:
        raise bad(f"{path}.kind", f"{show(entry['kind'])} is not deposit or withdrawal")
    cents = entry["cents"]
    _whole(cents, f"{path}.cents", " of cents", MOST_CENTS, least=-MOST_CENTS)
    if cents == 0:
        raise bad(f"{path}.cents", "0 is no entry")
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


def _check_fine(fine: Any, path: str) -> None:
    _object(fine, path, ("name", "cents", "kind"), ("archived",))
    _text(fine["name"], f"{path}.name", 60)
    _whole(fine["cents"], f"{path}.cents", " of cents", MOST_CENTS)
    if fine["kind"] not in ledger.FINE_KINDS:
        raise bad(f"{path}.kind", f"{show(fine['kind'])} is not one of "
                                   f"{', '.join(ledger.FINE_KINDS)}")
    if not isinstance(fine.get("archived", False), bool):
        raise bad(f"{path}.archived", f"{show(fine['archived'])} is not true or false")


def _check_booked(booked: Any, path: str, names: set[str], fines: int) -> None:
    _object(booked, path, ("name", "player", "cents", "at"),
            ("batch", "by", "fine", "deleted_at", "deleted_by"))
    _text(booked["name"], f"{path}.name", 200)
    if not isinstance(booked["player"], str) or booked["player"].casefold() not in names:
        raise bad(f"{path}.player", f"{show(booked['player'])} is not one of the group's "
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
        raise bad(f"{path}.rounding_cents", f"{show(signoff['rounding_cents'])} is not one of "
                                             f"{', '.join(map(str, accounts.ROUNDINGS))}")
    for i, item in enumerate(_list(signoff["steps"], f"{path}.steps")):
        where = f"{path}.steps[{i}]"
        _object(item, where, ("round", "kind", "at"), ("player", "note", "by"))
        _whole(item["round"], f"{where}.round", "", 10**6, least=0)
        if item["kind"] not in SIGNOFF_KINDS:
            raise bad(f"{where}.kind", f"{show(item['kind'])} is not a step of signing off")
        for key, longest in (("player", 40), ("note", 200), ("by", 200)):
            _text(item.get(key, ""), f"{where}.{key}", longest, empty=True)
        _moment(item["at"], f"{where}.at")
