"""The database: what players entered, in order. Every score is derived from it by the engine.

A `Group` is a Stammtisch; it has `Player`s, `Evening`s and `Game`s. A game's `Entry` rows are
the live list of entries (hands, playoffs, table changes) as raw JSON; every add, edit and undo is
also written to `Revision`, so nothing entered is ever lost. `Game.state` and each entry's
`effect` and `snapshot` are only caches of the engine, rewritten on every change.
"""

from __future__ import annotations

import datetime as dt
import secrets
from typing import TYPE_CHECKING, Any

from sqlalchemy import JSON, BigInteger, ForeignKey, String, UniqueConstraint, true
from sqlalchemy.orm import Mapped, mapped_column, relationship

from scorekeeper.db import db

if TYPE_CHECKING:  # Flask-SQLAlchemy's db.Model is the declarative Base to a type checker
    from scorekeeper.db import Base as Model
else:
    Model = db.Model

MAX_ID = 2**31 - 1  # the largest id a database column holds


def now() -> dt.datetime:
    return dt.datetime.now(dt.UTC).replace(tzinfo=None)


def new_token() -> str:
    """An unguessable token for a link: 192 random bits, URL-safe."""
    return secrets.token_urlsafe(24)


# A game that is "closed" was ended by its players (at closing time, or its evening ended);
# a "deleted" one was started by mistake and had no hands: it counts nowhere. Neither takes
# hands any more; "running" and "finished" follow the game's rules.
ENDED = ("closed", "deleted")


class Group(Model):
    """A Stammtisch. It is private: a phone gets in by the join link (its `token`), read-only by
    the view link (`view_token`), or with the group's name and PIN (see scorekeeper/access.py)."""

    __tablename__ = "groups"
    id: Mapped[int] = mapped_column(primary_key=True)
    slug: Mapped[str] = mapped_column(String(60), unique=True)
    name: Mapped[str] = mapped_column(String(100))
    token: Mapped[str] = mapped_column(String(64), unique=True, default=new_token)
    view_token: Mapped[str] = mapped_column(String(64), unique=True, default=new_token)
    pin_hash: Mapped[str | None] = mapped_column(String(200))  # werkzeug's salted hash, or none
    # settlement payments rounded to this many cents (0: to the cent), the rest to the Kasse
    rounding_cents: Mapped[int] = mapped_column(default=0, server_default="0")
    # whether the group's pages show skill ratings (scorekeeper/ratings.py)
    ratings: Mapped[bool] = mapped_column(default=True, server_default=true())
    # the season's champion (scorekeeper/chronicle.py): by the money won ("money"), or by the
    # money per evening ("average") among those who played `champion_share` % of the evenings
    champion_by: Mapped[str] = mapped_column(String(10), default="money", server_default="money")
    champion_share: Mapped[int] = mapped_column(default=50, server_default="50")
    # an evening being signed off locks by itself this many hours after it was asked, unless a
    # player objected (evenings/signoff.py)
    signoff_hours: Mapped[int] = mapped_column(default=24, server_default="24")
    created_at: Mapped[dt.datetime] = mapped_column(default=now)

    players: Mapped[list[Player]] = relationship(
        back_populates="group", order_by="Player.name")


class Player(Model):
    __tablename__ = "players"
    __table_args__ = (UniqueConstraint("group_id", "name"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("groups.id"), index=True)
    name: Mapped[str] = mapped_column(String(40))
    archived: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[dt.datetime] = mapped_column(default=now)

    group: Mapped[Group] = relationship(back_populates="players")


class Evening(Model):
    __tablename__ = "evenings"
    __table_args__ = (UniqueConstraint("group_id", "date", "place"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("groups.id"), index=True)
    date: Mapped[dt.date]
    place: Mapped[str] = mapped_column(String(100), default="")
    created_at: Mapped[dt.datetime] = mapped_column(default=now)
    # Signing off (evenings/signoff.py): each time the players are asked is a round of its
    # own (0: never asked); `signoff_at` is when the current round asked (None: nobody is being
    # asked) and `locks_at` when it locks by itself unless somebody objects (the group's window
    # as it was then), `locked_at` when every player had confirmed. From the first question
    # on, the evening keeps the group's rounding as it was (`rounding_cents`), so a later
    # change of the setting does not change money the table signed off.
    signoff_round: Mapped[int] = mapped_column(default=0, server_default="0")
    signoff_at: Mapped[dt.datetime | None]
    locks_at: Mapped[dt.datetime | None]
    locked_at: Mapped[dt.datetime | None]
    rounding_cents: Mapped[int | None]

    @property
    def asked(self) -> bool:
        """Whether its players were asked to sign it off (it may be signed off since): else it
        takes any change, and nothing of its sign-off needs reading."""
        return self.signoff_at is not None or self.locked_at is not None


class Signoff(Model):
    """One step of signing off an evening, never changed: the table was asked (``ask``), a
    player confirmed (``ok``) or objected with a note (``objection``), every player had
    confirmed (``lock``), a member reopened it with a reason (``reopen``). A player's latest
    ``ok`` or ``objection`` of the evening's current round is what counts."""

    __tablename__ = "signoffs"
    id: Mapped[int] = mapped_column(primary_key=True)
    evening_id: Mapped[int] = mapped_column(ForeignKey("evenings.id"), index=True)
    round: Mapped[int]
    kind: Mapped[str] = mapped_column(String(10))
    player: Mapped[str] = mapped_column(String(40), default="")
    note: Mapped[str] = mapped_column(String(200), default="")
    device: Mapped[str] = mapped_column(String(200), default="")  # see views.common.device
    created_at: Mapped[dt.datetime] = mapped_column(default=now)


class Game(Model):
    __tablename__ = "games"
    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("groups.id"), index=True)
    evening_id: Mapped[int] = mapped_column(ForeignKey("evenings.id"), index=True)
    kind: Mapped[str] = mapped_column(String(20))
    rules: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    seating: Mapped[list[str]] = mapped_column(JSON)
    first_dealer: Mapped[str] = mapped_column(String(40))
    # running / finished / closed / deleted (see ENDED)
    status: Mapped[str] = mapped_column(String(12), default="running")
    entry_count: Mapped[int] = mapped_column(default=0)
    # bumped by every change (entry added, edited, undone; game closed; player renamed), so a
    # change made from an outdated read is refused instead of overwriting a newer one
    version: Mapped[int] = mapped_column(default=0, server_default="0")
    # cache of the engine's summary: the replay output without the history (that is in the
    # entries' `effect`), so reading it does not grow with the game
    state: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    # why the engine refuses the game's entries since an upgrade (a RuleError's code, params
    # and entry; see derived.rebuild_game), or None: such a game is shown read-only
    problem: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    created_at: Mapped[dt.datetime] = mapped_column(default=now)
    updated_at: Mapped[dt.datetime] = mapped_column(default=now)

    evening: Mapped[Evening] = relationship()
    entries: Mapped[list[Entry]] = relationship(order_by="Entry.seq", back_populates="game")

    def record(self) -> dict[str, Any]:
        """The game record (`scorekeeper-game/1`) of what was entered."""
        return {
            "format": "scorekeeper-game/1",
            "game": self.kind,
            "rules": dict(self.rules),
            "players": list(self.seating),
            "first_dealer": self.first_dealer,
            "hands": [entry.data for entry in self.entries],
        }


class Entry(Model):
    __tablename__ = "entries"
    __table_args__ = (UniqueConstraint("game_id", "seq"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    seq: Mapped[int]  # 1-based position in the game
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    # derived by the engine, rewritten when the entry or an earlier one changes: what this entry
    # did (its row of the game's history) and the table after it (a snapshot, so the next hand
    # is applied to it instead of replaying the whole game)
    effect: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    snapshot: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    created_at: Mapped[dt.datetime] = mapped_column(default=now)
    updated_at: Mapped[dt.datetime] = mapped_column(default=now)

    game: Mapped[Game] = relationship(back_populates="entries")


class Revision(Model):
    """One change to a game's entries: add, edit or undo, with the data it wrote or removed."""

    __tablename__ = "revisions"
    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    seq: Mapped[int]
    action: Mapped[str] = mapped_column(String(8))  # add / edit / undo / end / delete
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    key: Mapped[str | None] = mapped_column(String(64), unique=True)  # idempotency key of the form
    device: Mapped[str] = mapped_column(String(200), default="")
    created_at: Mapped[dt.datetime] = mapped_column(default=now)


class Result(Model):
    """One player's figures and money from one game, rewritten whenever the game changes.

    The standings add these up instead of replaying every game on each request.
    """

    __tablename__ = "results"
    __table_args__ = (UniqueConstraint("game_id", "player"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("groups.id"), index=True)
    evening_id: Mapped[int] = mapped_column(ForeignKey("evenings.id"), index=True)
    season: Mapped[int] = mapped_column(index=True)  # the calendar year of the evening
    kind: Mapped[str] = mapped_column(String(20))
    # the name the group gave the game (a free list's "Skat": Adapter.own_name), "" for a game
    # known by its title: the standings, ratings and season count each name on its own
    name: Mapped[str] = mapped_column(String(40), default="", server_default="")
    player: Mapped[str] = mapped_column(String(40))
    # what the game's adapter counts for the standings (hands, lines, wins ...): name -> number
    figures: Mapped[dict[str, int]] = mapped_column(JSON, default=dict)
    # Money has no upper bound (a pot multiplies, a point can be worth 100 euros): BigInteger,
    # as PostgreSQL's Integer is 32-bit.
    money_cents: Mapped[int] = mapped_column(BigInteger, default=0)


class Membership(Model):
    """A phone in a group. The phone keeps only a random device id in its cookie (the same size
    whatever the number of groups); this row holds the id's hash, the role (member or view), a
    fingerprint of the link it joined with (renewing the link changes the token, so phones that
    joined with the old one no longer match) and, if the phone said so, whose phone it is."""

    __tablename__ = "memberships"
    __table_args__ = (UniqueConstraint("device", "group_id"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    device: Mapped[str] = mapped_column(String(64), index=True)  # sha256 of the cookie's id
    group_id: Mapped[int] = mapped_column(ForeignKey("groups.id"), index=True)
    role: Mapped[str] = mapped_column(String(8))
    fingerprint: Mapped[str] = mapped_column(String(64))
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"))
    created_at: Mapped[dt.datetime] = mapped_column(default=now)
    # a tournament table's phone (role "table"): the table whose game alone it may open
    table_id: Mapped[int | None] = mapped_column(ForeignKey("tournament_tables.id"))


class Attempt(Model):
    """How many PIN attempts one key (an address, a group and address, a group and device) made
    in one window of time; the window before it is kept too, as the count slides over both.
    Counted in the database, so a restart, a recycled worker or a second process does not reset
    it (scorekeeper/attempts.py)."""

    __tablename__ = "attempts"
    key: Mapped[str] = mapped_column(String(200), primary_key=True)
    count: Mapped[int] = mapped_column(default=1)
    expires: Mapped[dt.datetime] = mapped_column(index=True)


class PaidPayment(Model):
    """A settlement payment of an evening that the players marked as paid."""

    __tablename__ = "paid_payments"
    id: Mapped[int] = mapped_column(primary_key=True)
    evening_id: Mapped[int] = mapped_column(ForeignKey("evenings.id"), index=True)
    payer: Mapped[str] = mapped_column(String(40))
    payee: Mapped[str] = mapped_column(String(40))
    cents: Mapped[int] = mapped_column(BigInteger)  # see Result.money_cents
    paid_at: Mapped[dt.datetime] = mapped_column(default=now)


class Fine(Model):
    """A fine of the group's catalogue: its price goes into the Kasse when it is booked at an
    evening (ledger.book_fine). ``player``: the player it is booked on pays; ``others``: every
    other player of the evening pays (a round on the house); ``all``: every player of the
    evening pays (the evening fee). A fine no longer wanted is archived: bookings keep it."""

    __tablename__ = "fines"
    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("groups.id"), index=True)
    name: Mapped[str] = mapped_column(String(60))
    cents: Mapped[int] = mapped_column(BigInteger)
    kind: Mapped[str] = mapped_column(String(8), default="player")
    archived: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[dt.datetime] = mapped_column(default=now)


class KasseEntry(Model):
    """One line of the book of the Kasse (the group's cash box, see names.KASSE); `cents` is
    what it put into the Kasse (negative: what it took out). Two sorts of line:

    - from the games: ``game`` (what a game left in the Kasse or took out of it, its `money`)
      and ``rounding`` (what an evening's rounded payments left over). Like `Result` these are
      derived from the games and rewritten whenever one of the evening's games is stored
      (scorekeeper/ledger.py), so reading the balance never replays a game;
    - entered by members: ``deposit`` (money paid in), ``withdrawal`` (what it paid for) and
      ``fine`` (a fine of the catalogue booked at an evening: one line per player who pays it,
      `player`; the lines of one booking share a `batch`), with a note, who entered it and
      when. They are never changed: a wrong one is cancelled by a
      counter entry (a line of the opposite amount with `cancels_id`), or deleted with a record
      (`deleted_at`, `deleted_by`): the line is kept and shown, it just no longer counts.
    """

    __tablename__ = "kasse_entries"
    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("groups.id"), index=True)
    evening_id: Mapped[int | None] = mapped_column(ForeignKey("evenings.id"), index=True)
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id"), index=True)
    day: Mapped[dt.date]  # the evening's date for a game's line, else the day it happened
    kind: Mapped[str] = mapped_column(String(12))  # game / rounding / deposit / withdrawal
    cents: Mapped[int] = mapped_column(BigInteger)  # see Result.money_cents
    note: Mapped[str] = mapped_column(String(200), default="")
    entered_by: Mapped[str] = mapped_column(String(200), default="")  # see views.common.device
    created_at: Mapped[dt.datetime] = mapped_column(default=now)
    cancels_id: Mapped[int | None] = mapped_column(ForeignKey("kasse_entries.id"))
    deleted_at: Mapped[dt.datetime | None]
    deleted_by: Mapped[str] = mapped_column(String(200), default="")
    player: Mapped[str] = mapped_column(String(40), default="", server_default="")
    fine_id: Mapped[int | None] = mapped_column(ForeignKey("fines.id"))
    batch: Mapped[str] = mapped_column(String(32), default="", server_default="")


class Tournament(Model):
    """A tournament night of the group: many tables of one game, the seats drawn by lot for each
    Durchgang (round), one ranking. Its games belong to its own evening. ``rules``: the tables'
    game rules (what differs from the defaults; the number of games per Durchgang included);
    ``view_token``: the spectators' link, which shows the ranking and nothing else; ``key``: the
    key of the form that set it up (sent twice, it sets up one tournament)."""

    __tablename__ = "tournaments"
    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("groups.id"), index=True)
    evening_id: Mapped[int] = mapped_column(ForeignKey("evenings.id"), index=True)
    name: Mapped[str] = mapped_column(String(100))
    kind: Mapped[str] = mapped_column(String(20))
    rules: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    rounds: Mapped[int] = mapped_column(default=2)  # Durchgänge
    games: Mapped[int] = mapped_column(default=24)  # games per Durchgang at each table
    entry_fee_cents: Mapped[int] = mapped_column(BigInteger, default=0)
    prizes: Mapped[list[int]] = mapped_column(JSON, default=list)  # cents, for place 1, 2, ...
    view_token: Mapped[str] = mapped_column(String(64), unique=True, default=new_token)
    created_at: Mapped[dt.datetime] = mapped_column(default=now)
    finished_at: Mapped[dt.datetime | None]
    key: Mapped[str | None] = mapped_column(String(64), unique=True)  # the form's, a uuid
    # what a Durchgang without a result counts (tournament.ranking): "worst", or "zero" (the
    # rule of the tournaments set up before it; their Kasse lines were booked by it)
    missing: Mapped[str] = mapped_column(String(8), default="worst", server_default="zero")

    evening: Mapped[Evening] = relationship()


class Entrant(Model):
    """A player of a tournament, by start number: a member of the group or a name typed at the
    door. ``first_round``: the first Durchgang drawn with them (a late entrant's is later);
    ``withdrawn_after``: the last Durchgang they played (None: still playing)."""

    __tablename__ = "entrants"
    __table_args__ = (UniqueConstraint("tournament_id", "number"),
                      UniqueConstraint("tournament_id", "name"))
    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), index=True)
    number: Mapped[int]
    name: Mapped[str] = mapped_column(String(40))
    first_round: Mapped[int] = mapped_column(default=1)
    withdrawn_after: Mapped[int | None]
    created_at: Mapped[dt.datetime] = mapped_column(default=now)


class TournamentTable(Model):
    """One table of one Durchgang: who sits there (entrant ids in the order of play), the seed
    its Durchgang was drawn with (None: typed in from a draw made on paper), the table's game
    once the Durchgang started, the token of its link (the table's phone opens its own game and
    nothing else) and, if the organiser voided the table's Durchgang, why and when."""

    __tablename__ = "tournament_tables"
    __table_args__ = (UniqueConstraint("tournament_id", "round", "number"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), index=True)
    round: Mapped[int]
    number: Mapped[int]
    seats: Mapped[list[int]] = mapped_column(JSON)
    seed: Mapped[int | None] = mapped_column(BigInteger)
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id"), index=True)
    token: Mapped[str] = mapped_column(String(64), unique=True, default=new_token)
    voided: Mapped[str | None] = mapped_column(String(200))
    voided_at: Mapped[dt.datetime | None]

    game: Mapped[Game | None] = relationship()


class Lot(Model):
    """A lot drawn for the order of a tie where a prize depends on it: the entrants who tied,
    in the order drawn, and the seed it was drawn with."""

    __tablename__ = "lots"
    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), index=True)
    place: Mapped[int]
    drawn: Mapped[list[int]] = mapped_column(JSON)  # entrant ids, first the better place
    seed: Mapped[int] = mapped_column(BigInteger)
    created_at: Mapped[dt.datetime] = mapped_column(default=now)


class TournamentEvent(Model):
    """What the organiser did, for the tournament's history: ``kind`` (draw, typed, void, lot,
    entrant, withdraw, link, close), what it was done to in ``data`` (the Durchgang, the table,
    the reason, the name, the place: plain JSON, shown in the reader's language), on which
    phone and when."""

    __tablename__ = "tournament_events"
    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), index=True)
    kind: Mapped[str] = mapped_column(String(12))
    data: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    device: Mapped[str] = mapped_column(String(200), default="")  # see views.common.device
    created_at: Mapped[dt.datetime] = mapped_column(default=now)
