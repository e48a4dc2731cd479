"""The season chronicle: what a Stammtisch makes of a calendar year at its end.

Everything is worked out from the per-game rows of the standings (`Result`, and the running
games' rows worked out from their state, as the standings count them), so no game is replayed.
The money is each evening's as its settlement pays it (standings.evening_money: rounded where
the group rounds, the Kasse taking the difference; a running game as it stands); the games and
their records are the ended games' (docs/standings.md):

- the champion and the Rote Laterne (last place): by the money won over the season, or, as the
  group chooses (`Group.champion_by`), by the money per evening among the players who played
  at least `Group.champion_share` per cent of the evenings; players level share the place; the
  Kasse's share of the evenings' money is shown beside them (`kasse_cents`);
- streaks: the most evenings in a row in the money (won on the evening, as settled), counted
  over the evenings each player played (a missed evening neither breaks nor extends a streak);
- the biggest climber and faller: the change of rank against the year before, for those
  ranked in both years;
- attendance: evenings played of the evenings held (an evening with at least one game);
- per game: the season's best and worst by the money won in that game (as the games' tables
  show it: the rounding is the evening's, over all its games), and the game's records
  (`Adapter.RECORDS`) with the game, and the hand where the game stores it, they happened in.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from sqlalchemy import select

from scorekeeper import games
from scorekeeper.db import db
from scorekeeper.games.base import Record
from scorekeeper.group.names import KASSE
from scorekeeper.models import Evening, Group, Result
from scorekeeper.season import standings
from scorekeeper.tournament import night as tournaments

BY = ("money", "average")  # how the champion is decided (Group.champion_by)


@dataclass(frozen=True)
class Row:
    """One player's figures and money from one game, with its evening's date."""

    game_id: int
    evening_id: int
    date: dt.date
    kind: str
    player: str
    figures: dict[str, int]
    money_cents: int
    name: str = ""  # the name the group gave the game (a free list's), if any

    @property
    def section(self) -> str:
        """Where the row counts: its game's section (`games.section`)."""
        return games.section(self.kind, self.name)


def season_rows(group_id: int, year: int) -> list[Row]:
    """The rows of the season's ended games (stored), oldest evening first."""
    found = [Row(game_id, evening_id, day, kind, player, figures or {}, cents, name)
             for game_id, evening_id, day, kind, player, figures, cents, name in db.session.execute(
                 select(Result.game_id, Result.evening_id, Evening.date, Result.kind,
                        Result.player, Result.figures, Result.money_cents, Result.name)
                 .join(Evening, Result.evening_id == Evening.id)
                 .where(Result.group_id == group_id, Result.season == year))]
    return sorted((r for r in found if r.kind in games.GAMES),
                  key=lambda r: (r.date, r.evening_id, r.game_id, r.player))


def running_rows(group_id: int) -> list[Row]:
    """The rows of the group's running games, worked out from their state (standings.running)."""
    return [Row(r.game_id, r.evening_id, evening.date, r.kind, r.player, r.figures or {},
                r.money_cents, r.name) for r, evening in standings.running(group_id)]


@dataclass(frozen=True)
class Night:
    """One evening of the season with everybody's money from its games as settled (the
    Kasse's share under KASSE)."""

    evening_id: int
    date: dt.date
    money: dict[str, int]


def season_money(group_id: int, year: int, running: list[Row]) -> dict[int, dict[str, int]]:
    """The season's evenings' money as settled, by evening (standings.evening_money; `running`:
    all the group's running games' rows)."""
    return standings.evening_money(group_id, year,
                                   live=[r for r in running if r.date.year == year])


def nights(money: dict[int, dict[str, int]], rows: list[Row]) -> list[Night]:
    """The season's evenings with games (`season_money`), oldest first, dated by the rows of
    the season's games (stored and running)."""
    days = {r.evening_id: r.date for r in rows}
    return sorted((Night(evening_id, days[evening_id], night)
                   for evening_id, night in money.items()),
                  key=lambda n: (n.date, n.evening_id))


def totals(evenings: list[dict[str, int]]) -> tuple[dict[str, tuple[int, int]], int]:
    """Each player's money and evenings played, and the evenings held, in these evenings'
    money."""
    money: dict[str, int] = defaultdict(int)
    played: dict[str, int] = defaultdict(int)
    for night in evenings:
        for player, cents in night.items():
            if player != KASSE:
                money[player] += cents
                played[player] += 1
    return {p: (cents, played[p]) for p, cents in money.items()}, len(evenings)


def ranking(players: dict[str, tuple[int, int]], held: int, by: str, share: int
            ) -> dict[str, Any]:
    """Everybody's money, evenings and average (from `totals`), and the ranks (1 = best; equal
    values share a rank) of those who count for the title: everybody by money; by the average
    only those who played at least `share` per cent of the `held` evenings."""
    lines: list[dict[str, Any]] = []
    for player, (cents, evenings) in players.items():
        average = Fraction(cents, evenings)
        counts = by == "money" or evenings * 100 >= share * held
        lines.append({"player": player, "money_cents": cents, "evenings": evenings,
                      "average_cents": round(average), "counts": counts,
                      "_key": Fraction(cents) if by == "money" else average})
    lines.sort(key=lambda line: (not line["counts"], -line["_key"], line["player"]))
    rank = 0
    for i, line in enumerate(lines):
        if line["counts"] and (i == 0 or line["_key"] != lines[i - 1]["_key"]):
            rank = i + 1
        line["rank"] = rank if line["counts"] else None
    ranked = [line for line in lines if line["counts"]]
    top = [line["player"] for line in ranked if line["rank"] == 1]
    low = [line["player"] for line in ranked if ranked and line["_key"] == ranked[-1]["_key"]]
    for line in lines:
        del line["_key"]
    return {"lines": lines, "evenings": held, "champion": top,
            # nobody is last where everybody shares the first place
            "lantern": [] if set(low) == set(top) else low}


def streaks(evenings: list[Night]) -> list[dict[str, Any]]:
    """Each player's longest run of evenings in the money (the first one, if several are as
    long), longest first; players never in the money have none."""
    best: dict[str, list[Night]] = defaultdict(list)
    run: dict[str, list[Night]] = defaultdict(list)
    for night in evenings:  # in date order
        for player, cents in night.money.items():
            if player == KASSE:
                continue
            run[player] = [*run[player], night] if cents > 0 else []
            if len(run[player]) > len(best[player]):
                best[player] = run[player]
    found = [{"player": player, "evenings": len(nights),
              "first": {"evening_id": nights[0].evening_id, "date": nights[0].date.isoformat()},
              "last": {"evening_id": nights[-1].evening_id, "date": nights[-1].date.isoformat()}}
             for player, nights in best.items() if nights]
    return sorted(found, key=lambda s: (-s["evenings"], s["player"]))


def movers(now: dict[str, Any], before: dict[str, Any]) -> dict[str, Any]:
    """The biggest climber and faller: the most places gained or lost against the year before,
    among the players ranked in both (several when they share it)."""
    was = {line["player"]: line["rank"] for line in before["lines"] if line["rank"]}
    changes = [{"player": line["player"], "rank": line["rank"], "before": was[line["player"]],
                "places": was[line["player"]] - line["rank"]}
               for line in now["lines"] if line["rank"] and line["player"] in was]
    up = max((c["places"] for c in changes), default=0)
    down = min((c["places"] for c in changes), default=0)
    return {"climber": [c for c in changes if up > 0 and c["places"] == up],
            "faller": [c for c in changes if down < 0 and c["places"] == down]}


def _value(record: Record, row: Row) -> int | None:
    """The row's value for the record, None where the game does not count for it."""
    if record.only and not row.figures.get(record.only):
        return None
    value = row.money_cents if record.figure == "money_cents" else row.figures.get(record.figure)
    return None if value is None or (not record.fewest and value <= 0) else value


def _holder(record: Record, row: Row, value: int) -> dict[str, Any]:
    hand = row.figures.get(record.hand) if record.hand else None
    return {"player": row.player, "value": value, "game_id": row.game_id,
            "evening_id": row.evening_id, "date": row.date.isoformat(), "hand": hand or None}


def record(record: Record, rows: list[Row]) -> dict[str, Any] | None:
    """Who holds the record in these rows (one game's kind) and where it happened; None when
    nobody does (nothing above 0 for the most)."""
    valued = [(row, v) for row in rows if (v := _value(record, row)) is not None]
    if record.season:  # added up per player; the place shown is the latest that counted
        totals: dict[str, int] = defaultdict(int)
        latest: dict[str, Row] = {}
        for row, value in valued:
            totals[row.player] += value
            latest[row.player] = row
        if not totals:
            return None
        best = max(totals.values())
        holders = [_holder(record, latest[p], best) for p in sorted(totals) if totals[p] == best]
    else:
        if not valued:
            return None
        best = (min if record.fewest else max)(value for _row, value in valued)
        holders = [_holder(record, row, value) for row, value in valued if value == best]
    return {"figure": record.figure, "label": str(record.label), "value": best,
            "money": record.money, "season": record.season, "fewest": record.fewest,
            "holders": holders}


def per_game(rows: list[Row]) -> dict[str, dict[str, Any]]:
    """Each game's best and worst of the season (by the money won in it) and its records, for
    the games played, by section (`games.section`: a free list's each name on its own), in the
    registry's order."""
    sections = {}
    for key in games.sections_in_order({r.section for r in rows}):
        adapter, _name = games.of_section(key)
        if adapter is None:
            continue
        mine = [r for r in rows if r.section == key]
        money: dict[str, int] = defaultdict(int)
        for r in mine:
            money[r.player] += r.money_cents
        top, bottom = max(money.values()), min(money.values())
        sections[key] = {
            "games": len({r.game_id for r in mine}),
            # nobody is best (or worst) where everybody is level
            "best": [] if top == bottom else sorted(p for p, c in money.items() if c == top),
            "worst": [] if top == bottom else sorted(p for p, c in money.items() if c == bottom),
            "best_cents": top, "worst_cents": bottom,
            "records": [found for rec in adapter.RECORDS if (found := record(rec, mine))]}
    return sections


def chronicle(group: Group, year: int) -> dict[str, Any]:
    """The season `year` of the group (see the module docstring), as plain JSON values."""
    by = group.champion_by if group.champion_by in BY else "money"
    running = running_rows(group.id)
    rows = season_rows(group.id, year)
    held = nights(season_money(group.id, year, running), [*rows, *running])
    now = ranking(*totals([night.money for night in held]), by, group.champion_share)
    before = ranking(*totals(list(season_money(group.id, year - 1, running).values())), by,
                     group.champion_share)
    attendance = {line["player"]: line["evenings"] for line in
                  sorted(now["lines"], key=lambda line: (-line["evenings"], line["player"]))}
    sections = per_game(rows)
    return {
        "year": year, "group": group.slug, "by": by, "share": group.champion_share,
        "evenings": len(held), "games": len({r.game_id for r in rows}),
        "running": len({r.game_id for r in running if r.date.year == year}),
        "first_evening": held[0].date.isoformat() if held else None,
        "last_evening": held[-1].date.isoformat() if held else None,
        "champion": now["champion"], "lantern": now["lantern"], "ranking": now["lines"],
        "kasse_cents": sum(night.money.get(KASSE, 0) for night in held),
        "attendance": attendance, "streaks": streaks(held),
        "had_before": bool(before["lines"]), **movers(now, before),
        "per_game": sections,
        "records": [{"game": key, **found} for key, section in sections.items()
                    for found in section["records"]],
        # the year's tournament nights added up, per game (tournament.night)
        "series": tournaments.series(group.id, year),
    }


def _euros(cents: int) -> str:
    return f"{cents / 100:.2f} €"


def text(season: dict[str, Any]) -> list[str]:
    """The chronicle as lines for the command line (amounts in euros)."""
    lines = [f"season {season['year']} of {season['group']}: {season['evenings']} evenings, "
             f"{season['games']} games"]
    if not season["evenings"]:
        return [*lines, "no games this year", *_book_lines(season)]
    rule = ("money" if season["by"] == "money" else
            f"money per evening, at least {season['share']} % of the evenings played")
    lines += [f"champion: {', '.join(season['champion']) or '-'} (by {rule})",
              f"Rote Laterne: {', '.join(season['lantern']) or '-'}", "table:"]
    lines += [f"  {line['rank'] or '-':>2} {line['player']}: {_euros(line['money_cents'])}, "
              f"{line['evenings']} evenings, {_euros(line['average_cents'])} per evening"
              for line in season["ranking"]]
    if season.get("kasse_cents"):  # with the players' money it adds up to zero
        lines.append(f"   Kasse: {_euros(season['kasse_cents'])} (pots and rounding)")
    for word, key in (("climber", "climber"), ("faller", "faller")):
        lines += [f"{word}: {c['player']} {c['before']}. -> {c['rank']}." for c in season[key]]
    lines += [f"streak: {s['player']} {s['evenings']} evenings in the money "
              f"({s['first']['date']} - {s['last']['date']})" for s in season["streaks"][:3]]
    lines.append("attendance: " + ", ".join(f"{name} {count} of {season['evenings']}"
                                            for name, count in season["attendance"].items()))
    for found in season["records"]:
        value = _euros(found["value"]) if found["money"] else str(found["value"])
        where = "; ".join(f"{h['player']} {h['date']} game {h['game_id']}"
                          + (f" hand {h['hand']}" if h["hand"] else "")
                          for h in found["holders"])
        lines.append(f"record {found['game']}: {found['label']}: {value} ({where})")
    for kind, lines_of in season.get("series", {}).items():
        lines.append(f"series {kind}: " + ", ".join(
            f"{line['place']}. {line['player']} {line['total']}" for line in lines_of))
    return lines + _book_lines(season)


def _book_lines(season: dict[str, Any]) -> list[str]:
    """The Kasse's book and the ratings, when the season carries them (the command adds
    them)."""
    lines = []
    kasse = season.get("kasse")
    if kasse:
        lines.append(f"Kasse: {_euros(kasse['opening'])} carried in, games "
                     f"{_euros(kasse['games'])}, paid in {_euros(kasse['paid_in'])}, paid out "
                     f"{_euros(kasse['paid_out'])}, {_euros(kasse['closing'])} at the end")
        if kasse["share_out"]:
            lines.append("share-out by evenings: " + ", ".join(
                f"{share['player']} {_euros(share['cents'])}" for share in kasse["share_out"]))
    for kind, rows in season.get("ratings", {}).items():
        lines.append(f"rating {kind}: " + ", ".join(f"{r['player']} {r['rating']}"
                                                    for r in rows))
    return lines
