"""Turn the fields of an entry form into a game-record entry, and back for editing.

Only the shape is handled here (numbers typed, names ticked); every rule is the engine's.
Field names: `points-<name>`, `tricks-<name>`, `hearts-<name>`, `playing-<name>`,
`playoff-<i>-<name>`, and plain `queen`, `jack`, `king`, `ace`, `moon`, `all_tricks`, `renege`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask_babel import gettext as _

from .engine import cards

Form = Mapping[str, str]


class FormErrors(Exception):
    def __init__(self, errors: dict[str, str]) -> None:
        super().__init__(errors)
        self.errors = errors


def _number(form: Form, field: str, errors: dict[str, str]) -> int | None:
    text = (form.get(field) or "").strip()
    if text == "":
        return None
    try:
        return int(text)
    except ValueError:
        errors[field] = _("Please enter a whole number.")
        return None


def _numbers(form: Form, prefix: str, names: list[str],
             errors: dict[str, str]) -> dict[str, int | None]:
    return {name: _number(form, f"{prefix}-{name}", errors) for name in names}


def _choice(form: Form, field: str) -> str | None:
    return (form.get(field) or "").strip() or None


def hintersche(form: Form, state: dict[str, Any]) -> dict[str, Any]:
    names = list(state.get("in_deal") or [p["name"] for p in state["players"] if p["in"]])
    errors: dict[str, str] = {}
    points = _numbers(form, "points", names, errors)
    blank = [name for name, value in points.items() if value is None]
    if len(names) == 4 and len(blank) == 1 and not errors:
        # the last score fills itself: what is left of the pack's card points
        points[blank[0]] = cards.HINTERSCHE_TOTAL - sum(v for v in points.values() if v is not None)
        blank = []
    for name in blank:
        errors.setdefault(f"points-{name}", _("Please enter the points."))
    playoffs = []
    i = 0
    while any(key.startswith(f"playoff-{i}-") for key in form):
        deal = {}
        for key in form:
            if key.startswith(f"playoff-{i}-"):
                value = _number(form, key, errors)
                if value is None and key not in errors:
                    errors[key] = _("Please enter the points.")
                deal[key.removeprefix(f"playoff-{i}-")] = value
        playoffs.append(deal)
        i += 1
    if errors:
        raise FormErrors(errors)
    entry: dict[str, Any] = {"points": points}
    if playoffs:
        entry["playoffs"] = playoffs
    if _choice(form, "all_tricks"):
        entry["all_tricks"] = _choice(form, "all_tricks")
    return entry


def vier_anderle(form: Form, state: dict[str, Any]) -> dict[str, Any]:
    names = list(state["seated"])
    errors: dict[str, str] = {}
    tricks = {n: v for n, v in _numbers(form, "tricks", names, errors).items() if v}
    if errors:
        raise FormErrors(errors)
    if state["next_hand_type"] == 1:
        return {"tricks": tricks}
    playing = [n for n in names if form.get(f"playing-{n}")]
    if not playing and not tricks and not form.get("nobody"):
        # an empty form is a slip of the thumb more often than a hand nobody played
        raise FormErrors({"playing": _("Tick who plays, or “Nobody plays”.")})
    if len(playing) == 1 and not tricks:
        return {"playing": playing}  # who plays alone takes all the tricks
    return {"playing": playing, "tricks": tricks}


def vier_anderle_table(form: Form, state: dict[str, Any]) -> dict[str, Any]:
    """A table change: who sits at the table, and where those who sit down take their seats.

    Players who stay keep their order; those who sit down (new, or back) sit together after the
    player chosen in `after` (between that player and the next), else after the last one.
    """
    order = [n for n in (form.get("order") or "").split("\n") if n.strip()]
    chosen = [n.strip() for n in order if form.get(f"seat-{n.strip()}")]
    new_name = (form.get("new_player") or "").strip()
    if new_name and new_name not in chosen:
        chosen.append(new_name)
    staying = [n for n in state["seated"] if n in chosen]
    joining = [n for n in chosen if n not in staying]
    after = _choice(form, "after")
    at = staying.index(after) + 1 if after in staying else len(staying)
    entry: dict[str, Any] = {"table": staying[:at] + joining + staying[at:]}
    if _choice(form, "dealer"):
        entry["dealer"] = _choice(form, "dealer")
    return entry


def hartenjagen(form: Form, state: dict[str, Any]) -> dict[str, Any]:
    names = [p["name"] for p in state["players"]]
    errors: dict[str, str] = {}
    if form.get("kind") == "renege":
        if not _choice(form, "renege"):
            raise FormErrors({"renege": _("Please choose who reneged.")})
        return {"renege": _choice(form, "renege")}
    if form.get("mode") == "points":
        points = {n: v for n, v in _numbers(form, "points", names, errors).items() if v}
        entry: dict[str, Any] = {"points": points}
        cards_named = {"jack": state["cards"]["jack"]} if "jack" in state["cards"] else {}
    else:
        hearts = {n: v for n, v in _numbers(form, "hearts", names, errors).items() if v}
        entry = {"hearts": hearts}
        cards_named = state["cards"]
    if errors:
        raise FormErrors(errors)
    for key, copies in cards_named.items():
        # one pick per copy of the card in play: `queen`, and `queen-2` with two packs
        takers = [_choice(form, key if copy == 1 else f"{key}-{copy}") for copy in
                  range(1, copies + 1)]
        if copies == 1 and takers[0]:
            entry[key] = takers[0]
        elif any(takers):
            entry[key] = [t for t in takers if t]
    if _choice(form, "moon"):
        entry["moon"] = _choice(form, "moon")
    return entry


PARSERS = {"hintersche": hintersche, "vier-anderle": vier_anderle, "hartenjagen": hartenjagen}


def parse(kind: str, form: Form, state: dict[str, Any]) -> dict[str, Any]:
    return PARSERS[kind](form, state)


def joined_after(table: list[str], seated: list[str]) -> str:
    """Who the players sitting down in a table change sit after ("" for the end)."""
    for i, name in enumerate(table):
        if name not in seated and i > 0 and table[i - 1] in seated:
            return table[i - 1]
    return ""


def fields_of(entry: dict[str, Any], state: dict[str, Any] | None = None) -> dict[str, str]:
    """The form fields that show a stored entry again (for editing); `state` is the game
    before the entry."""
    fields: dict[str, str] = {}
    for key, value in entry.items():
        if key in ("points", "tricks", "hearts") and isinstance(value, dict):
            fields.update({f"{key}-{n}": str(v) for n, v in value.items()})
        elif key == "table" and isinstance(value, list):
            fields.update({f"seat-{n}": "on" for n in value}, table="1")
            if state is not None:
                fields["after"] = joined_after(value, state.get("seated", []))
        elif key == "playing" and isinstance(value, list):
            fields.update({f"playing-{n}": "on" for n in value})
        elif key == "playoffs" and isinstance(value, list):
            for i, deal in enumerate(value):
                fields.update({f"playoff-{i}-{n}": str(v) for n, v in deal.items()})
        elif key in ("queen", "jack", "king", "ace") and isinstance(value, list):
            fields.update({key if i == 0 else f"{key}-{i + 1}": n for i, n in enumerate(value)})
        elif isinstance(value, str):
            fields[key] = value
    if "renege" in entry:
        fields["kind"] = "renege"
    if entry.get("playing") == []:
        fields["nobody"] = "on"
    if "points" in entry:
        fields["mode"] = "points"
    return fields


def playoff_rows(form: Form, tied: list[str] | None = None) -> list[list[str]]:
    """The players of each playoff deal in the form, plus a new row for `tied` players."""
    rows: list[list[str]] = []
    while any(key.startswith(f"playoff-{len(rows)}-") for key in form):
        prefix = f"playoff-{len(rows)}-"
        rows.append([key.removeprefix(prefix) for key in form if key.startswith(prefix)])
    if tied:
        rows.append(list(tied))
    return rows
