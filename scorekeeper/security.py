"""The headers every response carries, and the proxy in front of the app when there is one."""

from __future__ import annotations

from flask import Flask, Response, current_app
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


def _headers(response: Response) -> Response:
    for name, value in HEADERS.items():
        response.headers.setdefault(name, value)
    if current_app.config["SESSION_COOKIE_SECURE"]:  # served over HTTPS: only ever over HTTPS
        response.headers.setdefault("Strict-Transport-Security", "max-age=31536000")
    return response


def init_app(app: Flask) -> None:
    app.after_request(_headers)
    if app.config["BEHIND_PROXY"]:  # one proxy (nginx, Caddy) sets X-Forwarded-For/-Proto/-Host
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=1, x_proto=1, x_host=1)  # type: ignore[method-assign]
