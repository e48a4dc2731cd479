"""Head to head: how one player fared against each other player in the ended games they sat
in together, from the stored results (docs/standings.md).

"Ahead" uses the same reading of a result as the ratings (each adapter's `ranking_key`). The
money is what one player paid the other in those games, as each game's rules say who pays whom
(each adapter's `transfers`; by default the losers pay the winners, in proportion to what each
won). The Kasse is a party where a game put money into it or took some out, so a player's
amounts, the Kasse's among them, add up to what the player won in those games.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from sqlalchemy import select

from scorekeeper import games
from scorekeeper.db import db
from scorekeeper.group.names import KASSE
from scorekeeper.models import Group, Result


@dataclass
class Opponent:
    """One other player (or the Kasse): the games played together, how often the player
    finished ahead of, behind or level with them, and the money between them (positive: won
    from them)."""

    player: str
    games: int = 0
    ahead: int = 0
    behind: int = 0
    level: int = 0
    money: Fraction = Fraction(0)

    @property
    def money_cents(self) -> int:
        return round(self.money)

    @property
    def kasse(self) -> bool:
        """The Kasse: money, but no place at the table."""
        return self.player == KASSE


def table(group: Group, player: str, year: int | None = None) -> list[Opponent]:
    """`player` against every other player of the group's ended games (of `year`; None: all
    years), most games together first, and the Kasse last where it had a part. The player's
    page shows it (include ``standings/_head_to_head.html`` with ``head_to_head``)."""
    together = select(Result.game_id).where(Result.group_id == group.id, Result.player == player)
    query = select(Result.game_id, Result.kind, Result.player, Result.figures,
                   Result.money_cents).where(Result.game_id.in_(together))
    if year is not None:
        query = query.where(Result.season == year)
    tables: dict[int, list[tuple[str, str, dict[str, int], int]]] = {}
    for game_id, kind, name, figures, cents in db.session.execute(query):
        tables.setdefault(game_id, []).append((kind, name, figures or {}, cents))
    opponents: dict[str, Opponent] = {}
    for rows in tables.values():
        adapter = games.GAMES.get(rows[0][0])
        mine = next((row for row in rows if row[1] == player), None)
        if adapter is None or mine is None:
            continue
        key = adapter.ranking_key(mine[2], mine[3])
        for _kind, name, figures, cents in rows:
            if name == player:
                continue
            other = opponents.setdefault(name, Opponent(name))
            theirs = adapter.ranking_key(figures, cents)
            other.games += 1
            other.ahead += key > theirs
            other.behind += key < theirs
            other.level += key == theirs
        results = {name: (figures, cents) for _kind, name, figures, cents in rows}
        house = -sum(cents for _figures, cents in results.values())
        if house:  # what the game put into the Kasse (or took out of it): a party too
            results[KASSE] = ({}, house)
            opponents.setdefault(KASSE, Opponent(KASSE)).games += 1
        for payer, payee, amount in adapter.transfers(results):
            if payee == player:
                opponents[payer].money += amount
            elif payer == player:
                opponents[payee].money -= amount
    return sorted(opponents.values(), key=lambda o: (o.kasse, -o.games, o.player))


def years(group: Group, player: str) -> list[int]:
    """The years the player has ended games in, newest first."""
    return sorted(db.session.scalars(select(Result.season).where(
        Result.group_id == group.id, Result.player == player).distinct()), reverse=True)
