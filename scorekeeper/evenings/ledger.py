"""The Kasse's book: every line that put money into the group's cash box (names.KASSE) or took
some out, the balance over time, and a share-out of the balance by attendance.

The lines (models.KasseEntry) come from two places. The games' pots and each evening's
rounding are stored per evening by `store_evening` whenever one of its games is stored (from
standings.store, like the `Result` rows); members' deposits and withdrawals are entered on the
Kasse's page (`enter`, `cancel`, `delete`), fines of the group's catalogue at an evening
(`book_fine`). An evening with a game still running has its games'
lines worked out from their state when read instead, as the standings do for running games: a
hand writes nothing here, and reading the balance replays nothing.
"""

from __future__ import annotations

import datetime as dt
import secrets
from dataclasses import dataclass, field
from typing import Any

from flask_babel import gettext as _
from markupsafe import Markup
from sqlalchemy import case, delete, func, not_, or_, select
from sqlalchemy.orm import load_only

from scorekeeper.db import db
from scorekeeper.evenings import accounts, signoff
from scorekeeper.group.names import KASSE
from scorekeeper.models import Evening, Fine, Game, Group, KasseEntry, Result, now
from scorekeeper.web import charts

FROM_GAMES = ("game", "rounding")  # derived from the games, rewritten by store_evening
ENTERED = ("deposit", "withdrawal", "fine")  # entered by members, never rewritten
RECENT = 5  # lines the group's page shows


@dataclass
class Line:
    """One line of the book as the pages show it. `entry` is None for a running game's line
    (worked out, not stored yet); `counted` is False for a deleted entry (shown, not counted);
    `balance` is the Kasse's balance after this line."""

    day: dt.date
    kind: str
    cents: int
    evening_id: int | None = None
    game_id: int | None = None
    game_kind: str | None = None
    entry: KasseEntry | None = None
    counted: bool = True
    balance: int = 0
    cancelled: bool = False  # an entry that a counter entry cancels
    can_cancel: bool = False  # a member may cancel it by a counter entry (see `cancellable`)
    can_delete: bool = False  # or delete it with a record (see `deletable`)

    def order(self) -> tuple[Any, ...]:
        """Day by day: the games' lines (the rounding after the evening's games), then the
        entries in the order they were made."""
        if self.kind in FROM_GAMES:
            return (self.day, 0, self.evening_id or 0, self.kind == "rounding", self.game_id or 0)
        return (self.day, 1, 0, False, self.entry.id if self.entry else 0)


@dataclass
class Share:
    player: str
    evenings: int
    cents: int


@dataclass
class Book:
    """The Kasse's book over a year (or all years: `year` None): the balance carried in
    (`opening`), each line with the balance after it, the balance at the end (`closing`), what
    the games, the deposits and the withdrawals added up to (each net of counter entries), the
    balance over time as a chart, and who would get how much if the closing balance were shared
    out by evenings attended that year (empty: nothing to share, or no year)."""

    year: int | None
    opening: int
    lines: list[Line]
    closing: int
    games_cents: int
    deposits_cents: int
    withdrawals_cents: int
    chart: Markup
    split: list[Share] = field(default_factory=list)
    years: list[int] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        """The book as plain JSON values (the chronicle's ``kasse``; amounts in cents, what
        went out negative): its lines, a deleted entry among them with ``counted`` false."""
        lines = [{"day": line.day.isoformat(), "kind": line.kind, "cents": line.cents,
                  "balance": line.balance, "counted": line.counted,
                  "cancelled": line.cancelled, "evening_id": line.evening_id,
                  "game_id": line.game_id, "game": line.game_kind,
                  "note": line.entry.note if line.entry else "",
                  "running": line.entry is None}
                 for line in self.lines]
        return {"opening": self.opening, "closing": self.closing, "games": self.games_cents,
                "paid_in": self.deposits_cents, "paid_out": self.withdrawals_cents,
                "lines": lines, "share_out": [{"player": share.player, "evenings": share.evenings,
                                               "cents": share.cents} for share in self.split]}


# --- the lines from the games ------------------------------------------------------------------

def store_evening(evening_id: int) -> None:
    """Rewrite the evening's lines from its games: what each game put into the Kasse or took out
    of it, and what rounding the payments left over (see accounts.kasse_part). Lines of running
    games are stored too, though they are read from the games' state while one runs."""
    evening = db.session.get(Evening, evening_id)
    assert evening is not None, "a game belongs to an evening"
    rounding = accounts.rounding_of(evening, db.session.scalar(
        select(Group.rounding_cents).where(Group.id == evening.group_id)) or 0)
    db.session.execute(delete(KasseEntry).where(KasseEntry.evening_id == evening_id,
                                                KasseEntry.kind.in_(FROM_GAMES)))
    for game, cents in accounts.kasse_part(accounts.games_of(evening), rounding):
        db.session.add(KasseEntry(group_id=evening.group_id, evening_id=evening_id,
                                  game_id=game.id if game else None, day=evening.date,
                                  kind="game" if game else "rounding", cents=cents))
    db.session.flush()


def store_group(group: Group) -> None:
    """Rewrite every evening's lines (the group changed its rounding, which every evening's
    settlement follows): reads every game's state, once, when the setting is saved."""
    for evening_id in db.session.scalars(select(Evening.id).where(Evening.group_id == group.id)):
        store_evening(evening_id)


def _live(group: Group) -> tuple[set[int], list[Line]]:
    """The evenings with a game still running, and their lines worked out from their games
    (read in one query)."""
    running = (select(Game.evening_id).where(Game.group_id == group.id,
                                             Game.status == "running").distinct())
    played: dict[int, list[Game]] = {}
    # a game's money reads its state alone: its other JSON columns are not loaded
    only = load_only(Game.id, Game.kind, Game.evening_id, Game.status, Game.state)
    for game in db.session.scalars(select(Game).options(only)
                                   .where(Game.evening_id.in_(running), Game.status != "deleted")
                                   .order_by(Game.id)):
        played.setdefault(game.evening_id, []).append(game)
    if not played:
        return set(), []
    evenings = {evening.id: evening for evening in
                db.session.scalars(select(Evening).where(Evening.id.in_(played)))}
    lines = [Line(evenings[evening_id].date, "game" if game else "rounding", cents, evening_id,
                  game.id if game else None, game.kind if game else None)
             for evening_id, evening_games in played.items()
             for game, cents in accounts.kasse_part(
                 evening_games, accounts.rounding_of(evenings[evening_id], group.rounding_cents))]
    return set(played), lines


def _stored(group: Group, live: set[int]) -> Any:
    """The condition on stored lines: the group's, but the games' lines of evenings whose
    lines are worked out live."""
    return (KasseEntry.group_id == group.id) & or_(
        KasseEntry.evening_id.is_(None), not_(KasseEntry.evening_id.in_(live)),
        not_(KasseEntry.kind.in_(FROM_GAMES)))


# --- reading ----------------------------------------------------------------------------------

def summary(group: Group) -> tuple[int, list[Line]]:
    """What the Kasse holds now, and its latest lines (newest first), for the group's page: a
    sum and a few rows read from the book, so it costs the same however long the history."""
    live, live_lines = _live(group)
    where = _stored(group, live)
    latest = db.session.execute(
        select(KasseEntry, Game.kind).outerjoin(Game, KasseEntry.game_id == Game.id)
        .where(where).order_by(KasseEntry.day.desc(),  # as Line.order: a day's entries last
                               case((KasseEntry.kind.in_(ENTERED), 1), else_=0).desc(),
                               KasseEntry.id.desc()).limit(RECENT)).all()
    lines = sorted([*map(_line, latest), *live_lines], key=Line.order, reverse=True)[:RECENT]
    return _held(where, live_lines), lines


def _held(where: Any, live_lines: list[Line], until: dt.date | None = None) -> int:
    """The sum of the stored lines that count (and of `live_lines`), up to `until`."""
    query = select(func.coalesce(func.sum(KasseEntry.cents), 0)).where(
        where, KasseEntry.deleted_at.is_(None))
    if until is not None:
        query = query.where(KasseEntry.day <= until)
        live_lines = [line for line in live_lines if line.day <= until]
    # int(): PostgreSQL sums a BIGINT column as a NUMERIC
    return int(db.session.scalar(query) or 0) + sum(line.cents for line in live_lines)


def balance(group: Group, until: dt.date | None = None) -> int:
    """What the Kasse holds (at the end of the day `until`)."""
    live, live_lines = _live(group)
    return _held(_stored(group, live), live_lines, until)


def evening_part(group: Group, evening: Evening) -> dict[str, Any]:
    """The Kasse's part of an evening, for its settlement page: what its games put in or took
    out (with the rounding), what members paid in or out that day, and the balance at the end
    of that day."""
    rows = db.session.execute(
        select(KasseEntry, Game.kind).outerjoin(Game, KasseEntry.game_id == Game.id)
        .where(KasseEntry.group_id == group.id, KasseEntry.day == evening.date,
               KasseEntry.kind.in_(ENTERED),  # that day's, and of the fines only this evening's
               or_(KasseEntry.evening_id.is_(None), KasseEntry.evening_id == evening.id))
        .order_by(KasseEntry.id)).all()
    games_cents = sum(cents for _game, cents in accounts.kasse_part(
        accounts.games_of(evening), accounts.rounding_of(evening, group.rounding_cents)))
    return {"games_cents": games_cents, "entries": [_line(row) for row in rows],
            "balance": balance(group, evening.date)}


def _line(row: Any) -> Line:
    entry, kind = row
    return Line(entry.day, entry.kind, entry.cents, entry.evening_id, entry.game_id, kind, entry,
                counted=entry.deleted_at is None)


def years(group: Group) -> list[int]:
    """The years the book has lines in, newest first."""
    days = db.session.scalars(select(KasseEntry.day).where(KasseEntry.group_id == group.id)
                              .distinct())
    return sorted({day.year for day in days}, reverse=True)


def book(group: Group, year: int | None = None, split: bool = True) -> Book:
    """The Kasse's book of `year` (None: of all years); see `Book`. The season page shows it
    (include ``kasse/_book.html`` with ``book``)."""
    live, live_lines = _live(group)
    where = _stored(group, live)
    opening = 0
    if year is not None:
        start, end = dt.date(year, 1, 1), dt.date(year, 12, 31)
        opening = _held(where, live_lines, start - dt.timedelta(days=1))
        where = where & (KasseEntry.day >= start) & (KasseEntry.day <= end)
        live_lines = [line for line in live_lines if start <= line.day <= end]
    rows = db.session.execute(select(KasseEntry, Game.kind)
                              .outerjoin(Game, KasseEntry.game_id == Game.id).where(where)).all()
    lines = sorted([*map(_line, rows), *live_lines], key=Line.order)
    cancelled = set(db.session.scalars(select(KasseEntry.cancels_id).where(
        KasseEntry.group_id == group.id, KasseEntry.cancels_id.is_not(None),
        KasseEntry.deleted_at.is_(None))))
    # the fines of a signed-off evening stay as they were signed (evenings/signoff.py)
    fined = {line.evening_id for line in lines if line.kind == "fine"}
    signed = {evening.id for evening in db.session.scalars(select(Evening).where(
        Evening.id.in_(fined))) if signoff.locked(evening, group)} if fined else set()
    held = opening
    sums = dict.fromkeys(("game", "deposit", "withdrawal"), 0)
    points = []
    for line in lines:
        if line.entry is not None and line.kind in ENTERED:
            line.cancelled = line.entry.id in cancelled
            line.can_cancel = line.counted and not line.entry.cancels_id and \
                not line.cancelled and line.kind != "fine"
            line.can_delete = line.counted and (bool(line.entry.cancels_id) or not line.cancelled) \
                and line.evening_id not in signed
        if line.counted:
            held += line.cents
            sums["game" if line.kind in FROM_GAMES else
                 "deposit" if line.kind == "fine" else line.kind] += line.cents
        line.balance = held
        points.append((line.day, held))
    daily = dict(points)  # the balance at the end of each day
    chart = charts.line_chart(
        [(KASSE, [(day.strftime("%d.%m.%y"), cents / 100) for day, cents in daily.items()])],
        label=_("Balance over time"), unit="€", empty=_("Nothing in the book yet."))
    shares = share_out(held, attendance(group, year)) if split and year is not None else []
    return Book(year, opening, lines, held, sums["game"], sums["deposit"], sums["withdrawal"],
                chart, shares, years(group))


def attendance(group: Group, year: int | None) -> dict[str, int]:
    """Evenings each player played at in `year` (all years: None), from the standings' rows
    of ended games and the seats of running ones."""
    query = select(Result.player, Result.evening_id).where(Result.group_id == group.id)
    running = (select(Game.state, Evening.id, Evening.date).join(Evening)
               .where(Game.group_id == group.id, Game.status == "running"))
    if year is not None:
        query = query.where(Result.season == year)
    pairs = {*db.session.execute(query.distinct())}
    pairs |= {(player["name"], evening_id) for state, evening_id, day in
              db.session.execute(running) if year is None or day.year == year
              for player in state["players"]}
    counts: dict[str, int] = {}
    for player, _evening in pairs:
        counts[player] = counts.get(player, 0) + 1
    return counts


def share_out(cents: int, evenings: dict[str, int]) -> list[Share]:
    """Share `cents` out in proportion to the evenings each player attended, to the cent: each
    gets the whole cents of their share, and the cents left over go one each to the largest
    remainders (ties: by name). The shares add up to `cents` exactly. Nothing to share (a
    balance of zero or less, or no evenings): no shares."""
    total = sum(evenings.values())
    if cents <= 0 or total <= 0:
        return []
    base = {name: cents * n // total for name, n in evenings.items()}
    left = cents - sum(base.values())
    by_remainder = sorted(evenings, key=lambda name: (-(cents * evenings[name] % total), name))
    for name in by_remainder[:left]:
        base[name] += 1
    return sorted((Share(name, evenings[name], base[name]) for name in evenings),
                  key=lambda share: (-share.cents, share.player))


# --- members' entries ------------------------------------------------------------------------

def enter(group: Group, kind: str, cents: int, note: str, day: dt.date, by: str) -> KasseEntry:
    """A deposit into the Kasse or a withdrawal from it (`cents` > 0 either way)."""
    if kind not in ENTERED or cents <= 0:
        raise ValueError(f"not a deposit or withdrawal: {kind} {cents}")
    entry = KasseEntry(group_id=group.id, day=day, kind=kind,
                       cents=cents if kind == "deposit" else -cents, note=note, entered_by=by)
    db.session.add(entry)
    db.session.flush()
    return entry


def cancellable(entry: KasseEntry) -> bool:
    """A member's deposit or withdrawal that counts, is no counter entry and has none yet (a
    fine is undone by deleting it, as it belongs to its evening)."""
    if entry.kind not in ("deposit", "withdrawal") or entry.deleted_at is not None \
            or entry.cancels_id:
        return False
    return not db.session.scalar(select(func.count(KasseEntry.id)).where(
        KasseEntry.cancels_id == entry.id, KasseEntry.deleted_at.is_(None)))


def cancel(entry: KasseEntry, day: dt.date, by: str) -> KasseEntry:
    """A counter entry: the opposite amount on `day`, so both stay in the book."""
    if not cancellable(entry):
        raise ValueError("this entry cannot be cancelled")
    counter = KasseEntry(group_id=entry.group_id, day=day, kind=entry.kind, cents=-entry.cents,
                         note=entry.note, entered_by=by, cancels_id=entry.id)
    db.session.add(counter)
    db.session.flush()
    return counter


def deletable(entry: KasseEntry) -> bool:
    """A member's entry that counts and that no counter entry cancels (that would leave the
    counter entry alone)."""
    if entry.kind == "fine":
        return entry.deleted_at is None
    return entry.kind in ENTERED and entry.deleted_at is None and (
        bool(entry.cancels_id) or cancellable(entry))


def delete_entry(entry: KasseEntry, by: str) -> None:
    """Delete with a record: the line stays in the book, marked, and no longer counts. A fine
    goes with every line of its booking (a round on the house: each other player's)."""
    if not deletable(entry):
        raise ValueError("this entry cannot be deleted")
    lines = [entry]
    if entry.batch:
        lines = list(db.session.scalars(select(KasseEntry).where(
            KasseEntry.group_id == entry.group_id, KasseEntry.evening_id == entry.evening_id,
            KasseEntry.kind == "fine", KasseEntry.batch == entry.batch,
            KasseEntry.deleted_at.is_(None))))
    for line in lines:
        line.deleted_at = now()
        line.deleted_by = by


# --- fines ------------------------------------------------------------------------------------

FINE_KINDS = ("player", "others", "all")


def catalogue(group: Group, archived: bool = False) -> list[Fine]:
    """The group's fines, by name (with the archived ones: `archived`)."""
    query = select(Fine).where(Fine.group_id == group.id).order_by(Fine.name, Fine.id)
    if not archived:
        query = query.where(Fine.archived.is_(False))
    return list(db.session.scalars(query))


def payers(fine: Fine, player: str | None, present: list[str]) -> list[str]:
    """Who pays a fine booked on `player` among the evening's players `present`."""
    if fine.kind == "all":
        return list(present)
    if player not in present:
        return []
    return [player] if fine.kind == "player" else [name for name in present if name != player]


def book_fine(evening: Evening, fine: Fine, player: str | None, present: list[str],
              by: str) -> list[KasseEntry]:
    """Book a fine of the catalogue at the evening: a line of its price for each player who
    pays it (see `payers`), into the Kasse, in one batch (undone together). Nobody to pay: no
    lines."""
    batch = secrets.token_hex(8)
    # a round the others pay says whose round it was
    note = f"{fine.name} ({player})" if fine.kind == "others" else fine.name
    lines = [KasseEntry(group_id=evening.group_id, evening_id=evening.id, day=evening.date,
                        kind="fine", cents=fine.cents, note=note[:200], entered_by=by,
                        player=name, fine_id=fine.id, batch=batch)
             for name in payers(fine, player, present)]
    db.session.add_all(lines)
    db.session.flush()
    return lines
