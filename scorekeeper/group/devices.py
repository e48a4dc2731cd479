"""Which kind of phone made a change, in a few words, for a game's history."""

from __future__ import annotations

_SYSTEMS = (("iPhone", "iPhone"), ("iPad", "iPad"), ("Android", "Android"),
            ("Windows", "Windows"), ("Mac OS X", "Mac"), ("CrOS", "ChromeOS"), ("Linux", "Linux"))
_BROWSERS = (("Edg/", "Edge"), ("OPR/", "Opera"), ("SamsungBrowser", "Samsung Internet"),
             ("Firefox/", "Firefox"), ("FxiOS", "Firefox"), ("CriOS", "Chrome"),
             ("Chrome/", "Chrome"), ("Safari/", "Safari"))


def device_label(user_agent: str) -> str:
    """What kind of phone made a change, in a few words ("Android · Chrome"): enough to tell the
    phones at the table apart in a game's history, never the browser's whole string. A label
    stays as it is; only printable characters are kept (a browser may send control characters,
    which an export could not carry)."""
    user_agent = "".join(c for c in user_agent if c.isprintable())
    if "/" not in user_agent and len(user_agent) <= 40:
        return user_agent
    system = next((label for key, label in _SYSTEMS if key in user_agent), "")
    browser = next((label for key, label in _BROWSERS if key in user_agent), "")
    return " · ".join(part for part in (system, browser) if part) or "–"
