"""Seasons to look at and to time: weekly evenings over some years, the app's three games in
turn, played by changing company from a pool of players (so attendance, streaks and ranks
differ), each game imported as a record and ended as at closing time."""

from __future__ import annotations

import datetime as dt
import random

import generators

from scorekeeper import engine, games
from scorekeeper.changes import records
from scorekeeper.db import db
from scorekeeper.season import standings
from scorekeeper.table import scoring

POOL = ("Anna", "Bernd", "Carla", "Dieter", "Erika", "Fritz", "Gerda", "Hannes")
KINDS = ("hintersche", "vier-anderle", "hartenjagen")


def renamed(record: dict, names: list[str]) -> dict:
    """The record played by `names` instead of its own players (new names, all different)."""
    table = engine.get(record["game"]).Table
    old = list(record["players"])
    hands = [dict(hand) for hand in record["hands"]]
    for hand in hands:  # a table change may seat somebody not among the first players
        for name in hand.get("table", []):
            if name not in old:
                old.append(name)
    mapping = dict(zip(old, names, strict=False))
    for before, after in mapping.items():
        hands = [table.renamed(hand, before, after) for hand in hands]
    return {**record, "players": [mapping[n] for n in record["players"]],
            "first_dealer": mapping.get(record.get("first_dealer") or record["players"][0]),
            "hands": hands}


def fill(app, slug: str, first: dt.date, evenings: int, per_evening: int = 2,
         hands: int = 24, seed: int = 1) -> int:
    """Weekly evenings from `first` on, `per_evening` games of up to `hands` hands each; return
    the hands stored."""
    rng = random.Random(seed)
    stored = 0
    with app.app_context():
        for night in range(evenings):
            day = first + dt.timedelta(days=7 * night)
            company = rng.sample(POOL, rng.randint(6, len(POOL)))
            for i in range(per_evening):
                kind = KINDS[(night * per_evening + i) % len(KINDS)]
                record = generators.random_record(kind, hands, seed * 100_000 + night * 10 + i)
                if len(record["players"]) > len(company):
                    continue
                players = rng.sample(company, len(company))
                game = records.import_game(renamed(record, players + [
                    f"Gast {n}" for n in range(1, 20)]), slug, day)
                stored += game.state["hands_played"]
                if game.status == "running":
                    try:
                        games.get(game.kind).closing(game.state)
                    except engine.RuleError:
                        continue  # a pot still to be played out: the game runs on
                    scoring.end_game(game)
                    standings.store(game)
                    db.session.commit()
    return stored
