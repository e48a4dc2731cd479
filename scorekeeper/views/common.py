"""What the pages share: the rows of a group an address names (else 404), a version's answer
to a watching phone, the phone's label, and what a game's templates need."""

from __future__ import annotations

import functools
from typing import Any, TypeVar

from flask import abort, flash, g, jsonify, request

from scorekeeper import games
from scorekeeper.changes.answers import Done, Refused
from scorekeeper.db import db
from scorekeeper.evenings import signoff
from scorekeeper.group import access
from scorekeeper.models import MAX_ID, Evening, Fine, Game, Group, Player
from scorekeeper.table import scoring

Row = TypeVar("Row", Player, Evening, Game, Fine)
RECENT = 13  # entries whose effect a table shows: the sheet's 12 rows and the one before
YEARS = range(1900, 10000)  # a season an address names (?season=, ?year=): four digits


def get_owned_or_404(model: type[Row], row_id: int, group: Group) -> Row:
    """The row `row_id` of `model` (a Player, Evening, Game, Fine) if it is `group`'s, else 404."""
    row = db.session.get(model, row_id) if 1 <= row_id <= MAX_ID else None
    if row is None or row.group_id != group.id:
        abort(404)
    return row


def get_group_or_404(slug: str, view: bool = False) -> Group:
    """The group, if this phone joined it; `view`: a read-only view link may read this page."""
    return access.group_or_404(slug, view)


def get_group_game_or_404(slug: str, game_id: int, view: bool = False) -> tuple[Group, Game]:
    """The group and its game `game_id`, for a member (a viewer where `view` allows it) and for
    the phone of the tournament table that plays the game."""
    group = access.group_or_404(slug, view, game_id)
    return group, get_owned_or_404(Game, game_id, group)


def get_player_or_404(group: Group, player_id: int) -> Player:
    return get_owned_or_404(Player, player_id, group)


def get_evening_or_404(group: Group, evening_id: int) -> Evening:
    return get_owned_or_404(Evening, evening_id, group)


def get_game_or_404(group: Group, game_id: int) -> Game:
    return get_owned_or_404(Game, game_id, group)


def tell(answer: Done | Refused | None) -> None:
    """What a change said, shown once on the next page."""
    if answer is not None and answer.message:
        flash(answer.message)


def device() -> str:
    """Who made a change, for the history: the player whose phone this is, if the phone said so
    (access.group_or_404 found it), else the kind of phone in a short label; no address and never
    the browser's whole string."""
    return g.get("owner") or access.device_label(request.user_agent.string)


def live_answer(data: dict[str, Any]) -> Any:
    """A version as JSON with its ETag: 304 when the phone holds it already."""
    response = jsonify(data)
    response.set_etag(f"v{data['version']}")
    response.headers["Cache-Control"] = "no-cache"
    return response.make_conditional(request)


def state_context(group: Group, game: Game,
                  recent: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """What a game's state templates need, on the table page and on the TV: the summary and what
    the last entries did (the score sheet's last rows: `recent`, else read here), so what it
    reads does not grow with the game."""
    adapter = games.get(game.kind)
    if recent is None:
        recent = scoring.recent_effects(game, RECENT)
    return {"group": group, "game": game, "adapter": adapter, "rules": adapter.rules(game.rules),
            "state": dict(game.state, history=recent[-RECENT:]),
            # what ending the game now would show: worked out only where the end box asks
            "ending": functools.partial(scoring.ended_state, game),
            # why a signed-off evening's game takes no change (its evening was read with it)
            "locked": signoff.refusal(game.evening, group),
            **adapter.table_context(game, game.state)}
