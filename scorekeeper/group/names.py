"""Names: what a player's name or a group's short name may be, and what is wrong with one."""

from __future__ import annotations

import re
import unicodedata

from flask_babel import gettext

SLUG = re.compile(r"^[a-z0-9][a-z0-9-]{0,59}$")
NAME = re.compile(r"^[^<>/\\\x00-\x1f]{1,40}$")
KASSE = "Kasse"  # the group's cash box: a party in every settlement, so no player's name
RESERVED = {KASSE.casefold()}
# control, format (bidi, zero-width), private-use, surrogate and unassigned characters, line
# and paragraph separators, and every space but the plain one
HIDDEN_CATEGORIES = {"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp", "Zs"}
HIDDEN = {"\u034f", "\u115f", "\u1160", "\u180e", "\u3164", "\uffa0"}  # invisible letters


def printable(text: str) -> bool:
    """True if `text` has no invisible or control character (the plain space is fine)."""
    return all(c == " " or (c not in HIDDEN and unicodedata.category(c) not in HIDDEN_CATEGORIES)
               for c in text)


def name_problem(name: str) -> str | None:
    """Why `name` cannot be a player's name ("format" or "reserved"), or None."""
    if not printable(name):
        return "format"
    name = name.strip()
    if not NAME.fullmatch(name):
        return "format"
    return "reserved" if unicodedata.normalize("NFKC", name).casefold() in RESERVED else None


def name_error(name: str) -> str | None:
    """What is wrong with a player's name, in the user's language; None when it is fine."""
    problem = name_problem(name)
    if problem == "reserved":
        return gettext("%(name)s is the group's cash box; please choose another name.",
                       name=name.strip())
    if problem:
        return gettext("Please use up to 40 characters, without < > / or \\.")
    return None


def slugify(name: str) -> str:
    """A group's short name for its address, from its name ("Zur Tanne" is zur-tanne)."""
    table = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss"})
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower().translate(table)).strip("-")
    return slug[:60] or "gruppe"
