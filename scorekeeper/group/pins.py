"""Joining a group by its name and PIN: the PIN kept as a hash, checked as slowly whether a group
has one or not, and the attempts counted, right or wrong, before it is checked (`attempts`).

Nothing here commits but the counting of attempts (`attempt`): the count must stand even when
the request fails after it, or a guesser would have it undone by breaking the request."""

from __future__ import annotations

import datetime as dt
import functools
import secrets

from werkzeug.security import check_password_hash, generate_password_hash

from scorekeeper.db import db
from scorekeeper.group import access, attempts, club
from scorekeeper.models import Group

# PIN attempts, right or wrong, counted before the PIN is checked, in sliding windows: from one
# address for all group names together, before a group is even looked up (so made-up names
# cost no hash) ...
ADDRESS_LIMIT = (10, dt.timedelta(minutes=15))
# ... then per group from one address, and per group and day from one address and from one
# phone (its cookie), so a stranger elsewhere cannot use up the attempts of the group's phones
PIN_LIMITS = ((5, dt.timedelta(minutes=15)), (20, dt.timedelta(days=1)))


def set_pin(group: Group, pin: str | None) -> None:
    """The group's PIN from now on (None: joining by PIN is off). The caller commits."""
    group.pin_hash = generate_password_hash(pin) if pin else None


@functools.cache
def _no_pin() -> str:
    """A hash no PIN opens, checked for a group without a PIN, so the answer takes as long as
    for a group with one (it would tell otherwise which groups have one)."""
    return generate_password_hash(secrets.token_hex())


def opens(group: Group | None, pin: str) -> bool:
    """Whether the PIN opens the group; as slow for a group without a PIN. A name no group has
    costs no hash (a group's name is not secret: creating one of that name tells it is taken)."""
    if group is None:
        return False
    right = check_password_hash(group.pin_hash or _no_pin(), pin)
    return bool(group.pin_hash and right)


def attempt(slug: str, address: str) -> tuple[bool, Group | None]:
    """Count one PIN attempt for the group called `slug` from `address` and commit the counts:
    whether it is within the limits, and the group (None if there is none). Counted before the
    PIN is checked, so guesses sent all at once are refused like guesses one after the other;
    past the address's limit nothing is looked up."""
    within = attempts.count(f"pin:{address}", ADDRESS_LIMIT[1]) <= ADDRESS_LIMIT[0]
    group = club.find_group(slug) if within else None
    if group is not None:
        (quarter, day), device = PIN_LIMITS, access._device()
        limits = [(f"pin:{group.id}:{address}", quarter), (f"pin:{group.id}:{address}", day)]
        if device is not None:  # a phone hopping between addresses counts as one
            limits.append((f"pin:{group.id}:{device}", day))
        within = all(attempts.count(key, window) <= limit for key, (limit, window) in limits)
    # committed here, not by the application layer: the count stands even if the request
    # fails after it (the PIN's check, joining), so no guess goes uncounted
    db.session.commit()
    attempts.clean()
    return within, group
