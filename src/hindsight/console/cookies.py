"""The session cookie of the console and the review page: HttpOnly, SameSite=Strict, and Secure over https.

A request counts as https when its URL scheme is https: directly, or because the ASGI server took the scheme
from a trusted proxy's `X-Forwarded-Proto` (uvicorn does so for the addresses in `FORWARDED_ALLOW_IPS`, by
default only 127.0.0.1). Over plain http (the loopback default) the cookie has no Secure flag, or a browser
would never send it back and local sign-in would break.
"""

from __future__ import annotations

import hmac

from starlette.requests import Request
from starlette.responses import Response


def over_https(request: Request) -> bool:
    return request.url.scheme == "https"


def set_session_cookie(response: Response, request: Request, name: str, value: str, path: str) -> None:
    """Set the sign-in cookie `name` for `path`; Secure when `request` came over https."""
    response.set_cookie(name, value, httponly=True, samesite="strict", path=path, secure=over_https(request))


def csrf_matches(given: object, expected: str) -> bool:
    """Whether a form's CSRF field is the expected one, in constant time. `hmac.compare_digest` raises TypeError on
    a str holding a non-ASCII character, so `csrf=é` was a 500 on every form of both consoles (attack round 34):
    both sides are compared as UTF-8 bytes."""
    return hmac.compare_digest(str(given).encode("utf-8", "replace"), expected.encode("utf-8", "replace"))
