"""Live streams (Server-Sent Events): a table, an evening, the standings or the TV hears of a
change as soon as it is stored (scorekeeper/live.py). A page without a stream asks its version
itself (games.live, groups.live)."""

from __future__ import annotations

from collections.abc import Callable

from flask import Blueprint, Response, abort, current_app

from scorekeeper.db import db
from scorekeeper.table import versions
from scorekeeper.tournament import night
from scorekeeper.views.common import get_group_game_or_404, get_group_or_404
from scorekeeper.views.games import live_view

bp = Blueprint("live", __name__)


def _stream(group: int, game: int | None, version: Callable[[], object], view: str = ""
            ) -> Response:
    if not current_app.config["LIVE_STREAMS"]:
        return Response(status=204)  # the page stops asking for a stream and polls
    live = current_app.extensions["live"]
    inbox = live.subscribe(group, game)
    db.session.rollback()  # the version read from now on: no change falls in between
    response = Response(live.stream(inbox, group, game, str(version()), view),
                        mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    response.call_on_close(lambda: live.hub.unsubscribe(group, inbox, game))  # also if never read
    # the database session ends with the request context, before the stream waits
    return response


@bp.get("/g/<slug>/live/stream")
def group(slug: str):
    group = get_group_or_404(slug, view=True)
    return _stream(group.id, None, lambda: versions.group_version(group))


@bp.get("/g/<slug>/games/<int:game_id>/live/stream")
def game(slug: str, game_id: int):
    _group, game = get_group_game_or_404(slug, game_id, view=True)
    return _stream(game.group_id, game.id, lambda: game.version, live_view())


@bp.get("/r/<token>/live/stream")
def ranking(token: str):
    """A tournament's ranking (its spectators' link): every change of the group may change it."""
    tournament = night.by_link(token)
    if tournament is None:
        abort(404)
    return _stream(tournament.group_id, None, lambda: night.version(tournament))
