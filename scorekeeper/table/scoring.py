"""Write entries to a game and keep what is derived from them.

A new hand is applied to the table stored with the last entry (its snapshot), so a write does
not grow with the game; an edit replays from the edited entry on (its preview does the same
without writing), an undo picks up the table after the entry before. Each entry keeps what it
did (`effect`, its row of the history) and the table after it (`snapshot`); `Game.state` is
the engine's summary. The replay of the whole
record stays the source of truth: `rebuild` derives everything from it again, and a property
test checks that the stored state always equals a full replay.

Shared by the views and the CLI. The functions add to the session and flush; the caller writes
the game's standings rows (`standings.store`) and commits.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import Table, bindparam, insert, select, update
from sqlalchemy.engine import CursorResult
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.attributes import set_committed_value

from scorekeeper import engine
from scorekeeper.db import db
from scorekeeper.models import ENDED, Entry, Game, Revision, now
from scorekeeper.table import live


class StaleEntry(Exception):
    """The form was made for an earlier state of the game: somebody else entered first."""


class Duplicate(Exception):
    """This exact submission (its idempotency key) was already recorded."""


def replay(game: Game, hands: list[dict[str, Any]] | None = None) -> engine.games.Table:
    """The whole game (or these hands) replayed from the record: the source of truth."""
    record = game.record()
    if hands is not None:
        record["hands"] = hands
    return engine.replay(record)


def fresh_table(game: Game) -> Any:
    """The game's table before the first entry."""
    return _table_class(game)(list(game.seating), game.first_dealer, game.rules)


def _table_class(game: Game) -> type[engine.games.Table]:
    """The engine's table of the game's kind (a stored game's kind is always registered)."""
    return engine.games.GAMES[game.kind].Table


def entry(game: Game, seq: int) -> Entry | None:
    """The game's entry number `seq` (None if it has no such entry), without loading the
    others."""
    if not 1 <= seq <= game.entry_count:  # also keeps any number a URL holds out of the query
        return None
    return db.session.scalar(select(Entry).where(Entry.game_id == game.id, Entry.seq == seq))


def table_after(game: Game, seq: int) -> Any:
    """The table after entry `seq` (0: before the first), from the snapshot stored with it."""
    if seq == 0:
        return fresh_table(game)
    stored = entry(game, seq)
    if stored is None or stored.snapshot is None:  # not derived yet: replay up to it
        hands = db.session.scalars(select(Entry.data).where(Entry.game_id == game.id,
                                                            Entry.seq <= seq)
                                   .order_by(Entry.seq)).all()
        return replay(game, list(hands))
    return engine.restore(_table_class(game), stored.snapshot)


def recent_effects(game: Game, count: int) -> list[dict[str, Any]]:
    """What the last `count` entries did (their history rows), oldest first."""
    rows = db.session.scalars(select(Entry.effect).where(Entry.game_id == game.id)
                              .order_by(Entry.seq.desc()).limit(count)).all()
    return [row for row in reversed(rows) if row is not None]


def play_on(table: Any, hands: list[dict[str, Any]], first: int) -> list[tuple[Any, Any]]:
    """Apply `hands` (numbered from `first`) to `table`; return each one's (effect, snapshot).

    A RuleError names the entry that breaks a rule; `table` is then partly played."""
    return [engine.play.step(table, data, number)
            for number, data in enumerate(hands, start=first)]


def claim(game: Game, **values: Any) -> None:
    """Write `values` to the game and bump its version, unless somebody else changed the game
    since we read it (then raise StaleEntry: the caller rolls back and asks again)."""
    values = {"version": game.version + 1, **values}
    if "updated_at" not in values:
        values["updated_at"] = now()
    statements = _claim(tuple(values))
    channel = live.announced_by_database()  # the UPDATE itself tells the watchers, on commit
    notify = channel is not None
    # on the session's connection, as Core: the ORM has nothing to synchronise (the object is
    # updated below) and its bookkeeping would be most of the statement's cost
    result = cast(CursorResult[Any], db.session.connection().execute(
        statements[notify], {"claimed_id": game.id, "claimed_version": game.version,
                             **({"live_channel": channel, "live_follows": live.follows()}
                                if notify else {}), **values}))
    if (len(result.all()) if notify else result.rowcount) != 1:
        raise StaleEntry()
    for key, value in values.items():  # the row holds them now: so does the object, unread
        set_committed_value(game, key, value)
    if not notify:
        live.changed(game.group_id, game.id, game.version)  # its watchers hear of it on commit


@functools.cache
def _claim(columns: tuple[str, ...]) -> tuple[Any, Any]:
    """The UPDATE of `claim` that writes these columns, built once: as it is, and sending the
    NOTIFY (by whether the database announces changes)."""
    statement = (update(Game)
                 .where(Game.id == bindparam("claimed_id"),
                        Game.version == bindparam("claimed_version"))
                 .values({name: bindparam(name) for name in columns})
                 .execution_options(synchronize_session=False))
    return statement, statement.returning(live.NOTIFY_GAME)


def save_state(game: Game, table: engine.games.Table, count: int | None = None,
               **values: Any) -> None:
    """Store the replayed state (and the new number of entries; `values`: more of the game's
    columns). The caller writes the game's standings rows (`standings.store`)."""
    if game.status in ENDED:
        raise StaleEntry()
    claim(game, entry_count=game.entry_count if count is None else count,
          state=table.summary(), status="finished" if table.finished else "running", **values)


def start_game(game: Game, hands: Sequence[dict[str, Any]] = (), device: str = "",
               revisions: bool = True) -> None:
    """Store a new game, with the entries of an imported record, and what they derive.

    Without `revisions` the caller brings the game's history of changes itself.
    """
    hands = list(hands)
    table = fresh_table(game)
    derived = play_on(table, hands, 1)
    game.state = table.summary()
    game.status = "finished" if table.finished else "running"
    game.entry_count = len(hands)
    db.session.add(game)
    db.session.flush()
    for seq, (data, (effect, snapshot)) in enumerate(zip(hands, derived, strict=True), start=1):
        db.session.add(Entry(game_id=game.id, seq=seq, data=data, effect=effect,
                             snapshot=snapshot))
        if revisions:
            db.session.add(Revision(game_id=game.id, seq=seq, action="add", data=data,
                                    device=device))
    db.session.flush()


def rebuild(game: Game) -> None:
    """Derive everything from the entries again (after an upgrade, a rename): the state, the
    status (a closed game stays closed) and each entry's effect and snapshot. Raises RuleError
    if the current engine refuses an entry; nothing is changed then."""
    entries = db.session.scalars(select(Entry).where(Entry.game_id == game.id)
                                 .order_by(Entry.seq)).all()
    table = fresh_table(game)
    derived = play_on(table, [e.data for e in entries], 1)
    for entry, (effect, snapshot) in zip(entries, derived, strict=True):
        entry.effect, entry.snapshot = effect, snapshot
    game.state = table.summary()
    if game.status == "closed":  # ended by the players: its money as they ended it
        game.state = ended_state(game)
    elif game.status != "deleted":
        game.status = "finished" if table.finished else "running"


def ended_state(game: Game) -> dict[str, Any]:
    """The game's summary as it stands when its players end it now (the engine's `ended`)."""
    table_class = engine.get(game.kind).Table
    return table_class.ended(game.state, engine.base.as_stored(table_class.OPTIONS,
                                                                  game.rules))


def end_game(game: Game, device: str = "") -> None:
    """The players end the game now (closing time): it is closed, its money and standings are
    what the game's `ended` says, and the history keeps when and on which phone. Raises
    StaleEntry if the game is no longer running or changed meanwhile."""
    if game.status != "running":
        raise StaleEntry()
    _close(game, device)


def close_game(game: Game, device: str = "") -> None:
    """A tournament table's game, running or finished, is closed as it stands and takes nothing
    more (no correction either): its organiser voided its Durchgang, or closed the tournament.
    Raises StaleEntry if it changed meanwhile."""
    if game.status not in ENDED:
        _close(game, device)


def _close(game: Game, device: str) -> None:
    claim(game, status="closed", state=ended_state(game))
    db.session.add(Revision(game_id=game.id, seq=game.entry_count, action="end", data={},
                            device=device[:200]))
    db.session.flush()


def delete_game(game: Game, device: str = "") -> None:
    """Delete a game started by mistake: only one with no hands. It stays, marked as deleted,
    in the history and the exports, and counts nowhere. Raises StaleEntry otherwise."""
    if game.entry_count or game.status in ENDED:
        raise StaleEntry()
    claim(game, status="deleted")
    db.session.add(Revision(game_id=game.id, seq=0, action="delete", data={},
                            device=device[:200]))
    db.session.flush()


def check_fresh(game: Game, expected_seq: int | None, key: str | None) -> None:
    """Raise StaleEntry if the game moved on since the form for entry `expected_seq` was made,
    or Duplicate if that was this very submission, stored before (checked before the form
    itself: a form made for a table that has changed must not be stored as the next entry)."""
    if expected_seq is not None and expected_seq != game.entry_count + 1:
        raise stale(key)


def stale(key: str | None) -> Exception:
    """What a submission that came too late is: a Duplicate if its key was recorded (it was
    stored the first time), else StaleEntry. Looked up only then, never for a fresh hand."""
    if key and db.session.scalar(select(Revision.id).where(Revision.key == key)):
        return Duplicate()
    return StaleEntry()


def add_entry(game: Game, data: dict[str, Any], expected_seq: int | None = None,
              key: str | None = None, device: str = "",
              snapshot: dict[str, Any] | None = None, at: dt.datetime | None = None) -> Entry:
    """Append an entry; return it (its `seq`, and what it did: `effect`).

    Raises Duplicate if `key` was recorded before, StaleEntry if the game moved on since the form
    for `expected_seq` was made, engine.RuleError if the entry breaks a rule. `snapshot`: the
    table after the last entry, when the caller read it with the game (else it is read here);
    `at`: when the change was made (else now).
    Writes three statements: the game (only if nobody changed it meanwhile), the entry and its
    revision; the key's uniqueness keeps a submission sent twice at once single.
    """
    check_fresh(game, expected_seq, key)
    seq = game.entry_count + 1
    stamp = at or now()
    if snapshot is not None and seq > 1:
        table = engine.restore(_table_class(game), snapshot)
    else:
        table = table_after(game, seq - 1)
    effect, after = engine.play.step(table, data, seq)
    added = {"game_id": game.id, "seq": seq, "data": data, "effect": effect,
             "snapshot": after, "created_at": stamp, "updated_at": stamp}
    try:
        save_state(game, table, seq, updated_at=stamp)
        # written as Core inserts: nothing reads the rows back as objects in this request, and
        # the ORM's unit of work would cost more than the two statements themselves
        connection = db.session.connection()
        connection.execute(_ADD_ENTRY, added)
        connection.execute(_ADD_REVISION, {"game_id": game.id, "seq": seq, "action": "add",
                                           "data": data, "key": key, "device": device[:200],
                                           "created_at": stamp})
    except (IntegrityError, StaleEntry):  # another request came first: maybe this same one
        db.session.rollback()
        raise stale(key) from None
    return Entry(**added)  # not in the session: what was written, for the caller to show


_ADD_ENTRY = insert(cast(Table, Entry.__table__))
_ADD_REVISION = insert(cast(Table, Revision.__table__))


@dataclass(frozen=True)
class Preview:
    """What a correction would do, worked out and not stored: each entry's history row from the
    corrected one on, as (seq, row now, row after the correction), the game's summary now and
    after it, and the game's version it was worked out at."""

    effects: list[tuple[int, dict[str, Any], dict[str, Any]]]
    before: dict[str, Any]
    after: dict[str, Any]
    version: int


def _replayed(game: Game, seq: int, data: dict[str, Any]
              ) -> tuple[list[Entry], Any, list[tuple[Any, Any]]]:
    """Entry `seq` replaced by `data` and everything after it played again: the stored entries
    from `seq` on, the table after the last and each one's new (effect, snapshot)."""
    later = db.session.scalars(select(Entry).where(Entry.game_id == game.id, Entry.seq >= seq)
                               .order_by(Entry.seq)).all()
    table = table_after(game, seq - 1)
    derived = play_on(table, [data] + [e.data for e in later[1:]], seq)
    for stored, (effect, _snapshot) in zip(later[1:], derived[1:], strict=True):
        error = stored.effect and type(table).meaning_changed(stored.effect, effect)
        if error:  # the later hand would be read as something the players did not enter
            error.entry, error.entry_word = stored.seq, table.ENTRY_WORD
            raise error
    return list(later), table, derived


def preview_edit(game: Game, seq: int, data: dict[str, Any]) -> Preview:
    """What replacing entry `seq` with `data` would change, without writing anything; a
    RuleError names the entry that would no longer fit."""
    later, table, derived = _replayed(game, seq, data)
    return Preview(effects=[(e.seq, e.effect or {}, effect)
                            for e, (effect, _snapshot) in zip(later, derived, strict=True)],
                   before=game.state, after=table.summary(), version=game.version)


def edit_entry(game: Game, seq: int, data: dict[str, Any], device: str = "",
               version: int | None = None) -> None:
    """Replace entry `seq` and replay from it on; a RuleError names the entry that no longer
    fits. With `version` (the one a preview was made at) raises StaleEntry if the game has
    changed since."""
    if version is not None and version != game.version:
        raise StaleEntry()
    later, table, derived = _replayed(game, seq, data)
    save_state(game, table)
    for entry, (effect, snapshot) in zip(later, derived, strict=True):
        entry.effect, entry.snapshot = effect, snapshot
    later[0].data = data
    later[0].updated_at = now()
    db.session.add(Revision(game_id=game.id, seq=seq, action="edit", data=data,
                            device=device[:200]))
    db.session.flush()


def undo_last(game: Game, expected_seq: int, device: str = "") -> Entry:
    """Take back the last entry and return it; it stays in the revision history."""
    if not game.entry_count or game.entry_count != expected_seq:
        raise StaleEntry()
    last = entry(game, expected_seq)
    if last is None:
        raise StaleEntry()
    table = table_after(game, expected_seq - 1)
    save_state(game, table, expected_seq - 1)
    db.session.add(Revision(game_id=game.id, seq=last.seq, action="undo", data=last.data,
                            device=device[:200]))
    db.session.delete(last)
    db.session.flush()
    return last
