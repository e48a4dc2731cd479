"""Write entries to a game and keep its cached state: every change replays the engine.

Shared by the views and the CLI. The functions add to the session and flush; the caller commits.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError

from . import engine, standings
from .db import db
from .models import Entry, Game, Revision, now


class StaleEntry(Exception):
    """The form was made for an earlier state of the game: somebody else entered first."""


class Duplicate(Exception):
    """This exact submission (its idempotency key) was already recorded."""


def replay(game: Game, hands: list[dict[str, Any]] | None = None) -> engine.games.Table:
    record = game.record()
    if hands is not None:
        record["hands"] = hands
    return engine.replay(record)


def status_of(table: engine.games.Table) -> str:
    return "finished" if table.finished else "running"


def claim(game: Game, **values: Any) -> None:
    """Write `values` to the game and bump its version, unless somebody else changed the game
    since we read it (then raise StaleEntry: the caller rolls back and asks again)."""
    result = db.session.execute(
        update(Game)
        .where(Game.id == game.id, Game.version == game.version)
        .values(version=game.version + 1, updated_at=now(), **values)
        .execution_options(synchronize_session=False)
    )
    if result.rowcount != 1:
        raise StaleEntry()
    db.session.expire(game)


def save_state(game: Game, table: engine.games.Table, count: int | None = None) -> None:
    """Store the replayed state (and the new number of entries), and the game's results."""
    if game.status == "closed":
        raise StaleEntry()
    claim(game, entry_count=game.entry_count if count is None else count,
          state=table.report(), status=status_of(table))
    standings.store(game)


def start_game(game: Game, hands: list[dict[str, Any]] = (),
               table: engine.games.Table | None = None, device: str = "",
               revisions: bool = True) -> None:
    """Store a new game, with the entries of an imported record, and its state.

    `table` is the replay of exactly these entries when the caller has one already; without
    `revisions` the caller brings the game's history of changes itself.
    """
    hands = list(hands)
    table = table or replay(game, hands)
    game.state = table.report()
    game.status = status_of(table)
    game.entry_count = len(hands)
    db.session.add(game)
    db.session.flush()
    standings.store(game)
    for seq, data in enumerate(hands, start=1):
        db.session.add(Entry(game_id=game.id, seq=seq, data=data))
        if revisions:
            db.session.add(Revision(game_id=game.id, seq=seq, action="add", data=data,
                                    device=device))
    db.session.flush()


def add_entry(game: Game, data: dict[str, Any], expected_seq: int | None = None,
              key: str | None = None, device: str = "") -> int:
    """Append an entry; return its sequence number.

    Raises Duplicate if `key` was recorded before, StaleEntry if the game moved on since the form
    for `expected_seq` was made, engine.RuleError if the entry breaks a rule.
    """
    if key and db.session.scalar(select(Revision.id).where(Revision.key == key)):
        raise Duplicate()
    seq = game.entry_count + 1
    if expected_seq is not None and expected_seq != seq:
        raise StaleEntry()
    hands = [entry.data for entry in game.entries]
    table = replay(game, hands + [data])
    game_id = game.id
    try:
        save_state(game, table, seq)
        db.session.add(Entry(game_id=game_id, seq=seq, data=data))
        db.session.add(Revision(game_id=game_id, seq=seq, action="add", data=data, key=key,
                                device=device[:200]))
        db.session.flush()
    except IntegrityError:
        db.session.rollback()
        if key and db.session.scalar(select(Revision.id).where(Revision.key == key)):
            raise Duplicate() from None
        raise StaleEntry() from None
    return seq


def edit_entry(game: Game, seq: int, data: dict[str, Any], device: str = "") -> None:
    """Replace entry `seq` and replay; a RuleError names the entry that no longer fits."""
    entry = next(e for e in game.entries if e.seq == seq)
    hands = [data if e.seq == seq else e.data for e in game.entries]
    table = replay(game, hands)
    save_state(game, table)
    entry.data = data
    entry.updated_at = now()
    db.session.add(Revision(game_id=game.id, seq=seq, action="edit", data=data,
                            device=device[:200]))
    db.session.flush()


def undo_last(game: Game, expected_seq: int, device: str = "") -> None:
    """Take back the last entry; it stays in the revision history."""
    if not game.entries or game.entry_count != expected_seq:
        raise StaleEntry()
    last = game.entries[-1]
    table = replay(game, [e.data for e in game.entries[:-1]])
    save_state(game, table, expected_seq - 1)
    db.session.add(Revision(game_id=game.id, seq=last.seq, action="undo", data=last.data,
                            device=device[:200]))
    db.session.delete(last)
    db.session.flush()
