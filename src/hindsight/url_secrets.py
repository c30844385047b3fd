"""URLs of outside endpoints as they may be shown: the credentials an operator wrote into them masked.

An embedding or chat endpoint behind a proxy is often configured with its credentials in the URL
(`https://user:secret@host/v1`, `...?api_key=...`). The embedder's name carries its URL (the store records it,
`memory_stats` returns it to any reader, every backup's header holds it), and an endpoint failure names the URL to
whoever's call failed and in the server's log (attack round 34). `shown_url` masks the password of the user part
and the values of query parameters that name a secret; `scrubbed` does the same for a message (an httpx error
repeats the request's URL as sent).
"""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

#: query parameters whose value is a secret (compared lower-case, `-` read as `_`)
SECRET_PARAMS = frozenset({"password", "sslpassword", "api_key", "apikey", "key", "token", "access_token",
                           "secret", "client_secret", "sig", "signature", "auth"})
MASK = "***"
#: a URL inside free text (an exception's message)
_URL_IN_TEXT = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://[^\s'\"<>]+")


def _secret_name(name: str) -> bool:
    return name.strip().lower().replace("-", "_") in SECRET_PARAMS


def shown_url(url: str) -> str:
    """`url` with the password of its user part and the values of its secret query parameters masked."""
    try:
        parts = urlsplit(url)
        password = parts.password
    except ValueError:  # not a URL urllib can split (a bad port): show none of its user part
        return url.split("://", 1)[0] + "://" + MASK if "@" in url else url
    if password is not None:
        host = parts.netloc.rsplit("@", 1)[-1]
        parts = parts._replace(netloc=f"{parts.username}:{MASK}@{host}")
    pairs = parse_qsl(parts.query, keep_blank_values=True)
    if any(_secret_name(name) for name, _ in pairs):
        parts = parts._replace(query=urlencode([(n, MASK if _secret_name(n) else v) for n, v in pairs], safe="*/:"))
    return urlunsplit(parts)


def scrubbed(text: str) -> str:
    """`text` with every URL in it shown as `shown_url` shows it."""
    return _URL_IN_TEXT.sub(lambda match: shown_url(match.group(0)), text)
