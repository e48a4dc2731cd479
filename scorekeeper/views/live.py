"""Live streams (Server-Sent Events): a table, an evening, the standings or the TV hears of a
change as soon as it is stored (scorekeeper/live.py). A page without a stream asks its version
itself (games.live, groups.live)."""

from __future__ import annotations

from flask import Blueprint, Response, current_app

from .. import versions
from .common import get_game_or_404, get_group_or_404

bp = Blueprint("live", __name__)


def _stream(group: int, game: int | None, version: object) -> Response:
    if not current_app.config["LIVE_STREAMS"]:
        return Response(status=204)  # the page stops asking for a stream and polls
    # the database session ends with the request context, before the stream waits
    response = Response(current_app.extensions["live"].stream(group, game, str(version)),
                        mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response


@bp.get("/g/<slug>/live/stream")
def group(slug: str):
    group = get_group_or_404(slug, view=True)
    return _stream(group.id, None, versions.group_version(group))


@bp.get("/g/<slug>/games/<int:game_id>/live/stream")
def game(slug: str, game_id: int):
    game = get_game_or_404(get_group_or_404(slug, view=True), game_id)
    return _stream(game.group_id, game.id, game.version)
