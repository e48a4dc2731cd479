"""What the pages share: the rows of a group an address names (else 404), a version's answer
to a watching phone, the phone's label, and what a game's templates need."""

from __future__ import annotations

import functools
from typing import Any, TypeVar

from flask import abort, g, jsonify, request

from .. import access, club, devices, games, scoring
from ..db import db
from ..games.base import Roster
from ..models import MAX_ID, Evening, Game, Group, Player

Row = TypeVar("Row", Player, Evening, Game)
RECENT = 13  # entries whose effect a table shows: the sheet's 12 rows and the one before


def get_owned_or_404(model: type[Row], row_id: int, group: Group) -> Row:
    """The row `row_id` of `model` (Player, Evening, Game) if it is one of `group`'s, else 404."""
    row = db.session.get(model, row_id) if 1 <= row_id <= MAX_ID else None
    if row is None or row.group_id != group.id:
        abort(404)
    return row


def get_group_or_404(slug: str, view: bool = False) -> Group:
    """The group, if this phone joined it; `view`: a read-only view link may read this page."""
    return access.group_or_404(slug, view)


def get_player_or_404(group: Group, player_id: int) -> Player:
    return get_owned_or_404(Player, player_id, group)


def get_evening_or_404(group: Group, evening_id: int) -> Evening:
    return get_owned_or_404(Evening, evening_id, group)


def get_game_or_404(group: Group, game_id: int) -> Game:
    return get_owned_or_404(Game, game_id, group)


def name_taken(group: Group, name: str, but: Player | None = None) -> bool:
    """Whether another player of the group has this name, whatever the case."""
    player = club.find_player(group, name)
    return player is not None and player is not but


def device() -> str:
    """Who made a change, for the history: the player whose phone this is, if the phone said so
    (access.group_or_404 found it), else the kind of phone in a short label; no address and never
    the browser's whole string."""
    return g.get("owner") or devices.device_label(request.user_agent.string)


def live_answer(data: dict[str, Any]) -> Any:
    """A version as JSON with its ETag: 304 when the phone holds it already."""
    response = jsonify(data)
    response.set_etag(f"v{data['version']}")
    response.headers["Cache-Control"] = "no-cache"
    return response.make_conditional(request)


def roster(group: Group) -> Roster:
    """The group's players as a game's entry forms see them."""
    return Roster(active=tuple(p.name for p in group.players if not p.archived),
                  everyone=tuple(p.name for p in group.players))


def state_context(group: Group, game: Game) -> dict[str, Any]:
    """What a game's state templates need, on the table page and on the TV: the summary and what
    the last entries did (the score sheet's last rows), so what it reads does not grow with the
    game."""
    adapter = games.get(game.kind)
    return {"group": group, "game": game, "adapter": adapter, "rules": adapter.rules(game.rules),
            "state": dict(game.state, history=scoring.recent_effects(game, RECENT)),
            # what ending the game now would show: worked out only where the end box asks
            "ending": functools.partial(scoring.ended_state, game),
            **adapter.table_context(game, game.state)}
