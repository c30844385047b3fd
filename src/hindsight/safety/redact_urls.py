"""Secrets carried in a URL's query string or fragment (round 19).

A pre-signed download link, an OAuth redirect or a dashboard export link carries its credential as a parameter:
``?sig=Hx83...&expires=...``, ``X-Amz-Signature=...``, ``#access_token=...``, ``?apikey=...``. The parameter's *name*
says what it is, so any parameter named for a signature, a token, a key, a secret, a password or a session goes when its
value is generated (mixed letters and digits, high entropy, or a long hex run); the rest of the URL - host, path, the
other parameters (``format=csv``, ``expires=1718000000``) - stays, so the note still says which link it was.

A parameter in words or an identifier (``key=reports``, ``token=YOUR_TOKEN``, ``sig=v1``) is not a secret; a link's
public identifiers (``?id=``, ``?page=``, ``?utm_source=``, a tracking number) are never read here.
"""

from __future__ import annotations

import re

from hindsight.safety.validators import PLACEHOLDER_VALUE, looks_random

Span = tuple[str, int, int]

# The query or fragment of an http(s) / custom-scheme link, up to 400 characters (bounded: linear on long texts).
_QUERY = re.compile(r"(?i)(?:https?|[a-z][a-z0-9+.-]{1,20})://[^\s\"'<>?#]{1,200}(?P<query>[?#][^\s\"'<>]{1,400})")
_SECRET_PARAM = re.compile(
    r"(?i)(?:^|[?#&;])(?P<name>(?:x-(?:amz|goog|oss|cos)-)?(?:signature|sig|sign|token|access[_-]?token|id[_-]?token|refresh[_-]?token|"
    r"auth(?:[_-]?(?:token|key))?|api[_-]?key|apikey|app[_-]?key|appkey|app[_-]?secret|client[_-]?secret|secret(?:[_-]?key)?|"
    r"private[_-]?token|session(?:[_-]?id)?|sessionid|jwt|password|passwd|pwd|pass|key|sas|credential))"
    r"=(?P<value>[A-Za-z0-9%_.~+/=-]{8,300})"
)
_HEX = re.compile(r"[0-9a-fA-F]{16,}")
# A one-time code in a link that signs somebody in or resets a password ("/reset?code=...", "/oauth/callback?code=...").
_CODE_LINK = re.compile(r"(?i)reset|verif|confirm|activat|invite|magic|oauth|callback|auth|login|signin|sso")
_CODE_PARAM = re.compile(r"(?i)(?:^|[?#&;])(?:code|otp|reset[_-]?token|invite[_-]?code)=(?P<value>[A-Za-z0-9%_.~+/=-]{12,300})")


def _generated(value: str) -> bool:
    plain = value.rstrip(".,;:)")
    if PLACEHOLDER_VALUE.match(plain) or re.fullmatch(r"(?i)[a-z]+(?:[_-][a-z]+)*", plain):
        return False
    return looks_random(plain, 12) or bool(_HEX.fullmatch(plain))


def find_url_secrets(text: str) -> list[Span]:
    out: list[Span] = []
    for url in _QUERY.finditer(text):
        query, base = url.group("query"), url.start("query")
        if _CODE_LINK.search(text, url.start(), base):
            for m in _CODE_PARAM.finditer(query):
                value = m.group("value").split("&", 1)[0].rstrip(".,;:)")
                if _generated(value):
                    out.append(("api_key", base + m.start("value"), base + m.start("value") + len(value)))
        for m in _SECRET_PARAM.finditer(query):
            value = m.group("value")
            end = len(value.split("&", 1)[0].rstrip(".,;:)"))
            if end >= 8 and _generated(value[:end]):
                kind = "password" if m.group("name").lower().startswith("pass") or m.group("name").lower() == "pwd" else "api_key"
                out.append((kind, base + m.start("value"), base + m.start("value") + end))
    return out
