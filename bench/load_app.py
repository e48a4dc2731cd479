"""The app as `make serve` runs it, with the two floors bench/load.py measures a hand against:

- ``POST /bench/floor``: a trivial Flask endpoint that writes one row (no CSRF check);
  ``GET /bench/floor`` reads one (the floor of a page, bench/tournament.py);
- ``POST /g/<slug>/bench/best/<game>``: the least a hand entry needs on this stack, giving the
  same answer as a hand: the CSRF check, the game read (with its group and last entries, one
  query), the hand inserted, the game updated, one commit, and the table's content rendered.
  No form, no engine, no revision: the game's state stays as it was.
  With BENCH_BEST_ANSWER=none it answers without the table's content (an empty part): what a
  hand costs before anything is drawn, to see how much of the floor's multiple the answer
  takes.

gunicorn loads it as ``load_app:create()`` (with bench/ on its Python path).
"""

from __future__ import annotations

import os
import time

from flask import Blueprint, Flask, request
from sqlalchemy import Column, Float, Integer, MetaData, Table, insert, select

from scorekeeper import create_app
from scorekeeper.db import db
from scorekeeper.models import Entry
from scorekeeper.table import scoring
from scorekeeper.views.games import PART, _render_table, get_table_or_404

FLOOR = Table("bench_floor", MetaData(), Column("id", Integer, primary_key=True),
              Column("at", Float))
bp = Blueprint("bench", __name__)


@bp.post("/bench/floor")
def floor():
    db.session.execute(insert(FLOOR).values(at=time.time()))
    db.session.commit()
    return "ok"


@bp.get("/bench/floor")
def floor_page():
    """The floor of a page: a trivial Flask endpoint that reads one row."""
    return str(db.session.scalar(select(FLOOR.c.id).limit(1)))


@bp.post("/g/<slug>/bench/best/<int:game_id>")
def best(slug: str, game_id: int):
    at = get_table_or_404(slug, game_id)
    game = at.game
    data = {key: value for key, value in request.form.items() if key != "csrf_token"}
    seq = game.entry_count + 1
    scoring.claim(game, entry_count=seq)
    db.session.add(Entry(game_id=game.id, seq=seq, data=data))
    db.session.flush()
    db.session().expire_on_commit = False  # as a hand's commit: nothing is read again
    db.session.commit()
    db.session().expire_on_commit = True
    if os.environ.get("BENCH_BEST_ANSWER") == "none":
        return "<div data-table-part></div>", 200, {PART: "content"}
    return _render_table(at, part=True)


def create() -> Flask:
    app = create_app()
    app.extensions["csrf"].exempt(floor)
    app.register_blueprint(bp)
    return app
