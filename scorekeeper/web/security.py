"""The headers every response carries, the proxy in front of the app when there is one, and the
rate limits (Flask-Limiter: in memory, or in Redis when RATELIMIT_STORAGE_URI names one)."""

from __future__ import annotations

from flask import Flask, Response, current_app
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from werkzeug.middleware.proxy_fix import ProxyFix

# no inline script or style, nothing from elsewhere, never inside a frame
POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
          "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'")
HEADERS = {
    "Content-Security-Policy": POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    # a join link in the address bar never travels to another site in a Referer
    "Referrer-Policy": "same-origin",
}


# limits per address (the proxy's X-Forwarded-For when BEHIND_PROXY); a storage that cannot be
# reached (Redis down) falls back to memory rather than answering 500
limiter = Limiter(key_func=get_remote_address, default_limits=[])
NEW_GROUPS = "10 per hour;30 per day"  # a whole pub creating its groups, not a script


def _headers(response: Response) -> Response:
    for name, value in HEADERS.items():
        response.headers.setdefault(name, value)
    if current_app.config["SESSION_COOKIE_SECURE"]:  # served over HTTPS: only ever over HTTPS
        response.headers.setdefault("Strict-Transport-Security", "max-age=31536000")
    return response


def init_app(app: Flask) -> None:
    app.after_request(_headers)
    app.config.setdefault("RATELIMIT_IN_MEMORY_FALLBACK_ENABLED", True)
    limiter.init_app(app)
    if app.config["BEHIND_PROXY"]:  # one proxy (nginx, Caddy) sets X-Forwarded-For/-Proto/-Host
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=1, x_proto=1, x_host=1)  # type: ignore[method-assign]
