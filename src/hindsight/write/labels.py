"""A session id that holds a personal value, stored under a keyed pseudonym of that value (attack round 26).

Clients key sessions by user, and a user is often a mailbox or a phone number: `session_id="alice.smith@example.com"`
was stored and returned as written (search results, `memory_get`, exports, every backup), while the same value in
the content is redacted. Redacting it to a bare `[REDACTED:email]` would merge every such session into one and
break session filters; refusing it would break those clients. So each value the redaction finders see in a
session id is replaced by `[REDACTED:<kind>:<pseudonym>]`, the pseudonym an HMAC-SHA-256 of the value under a
secret kept once per store (`kept_secret("label_secret")`, copied by `hindsight migrate` and a `.db` backup): one
user's sessions stay one session and two users' stay two, a filter naming the clear value finds them (the filter is
mapped the same way, `engine_read`), and nobody without the store's file can confirm a guessed mailbox against a
stored pseudonym (a bare hash of a mailbox could be). A session id holding no such value is kept as written.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Any

from hindsight.safety.redact import find_sensitive

#: the stored session id's bound (backup_check reads session ids of at most 200 characters)
MAX_LABEL_CHARS = 200
#: hex characters of the pseudonym (64 bits: no two users of one store meet by chance)
PSEUDONYM_CHARS = 16


def _pseudonym(secret: bytes, value: str) -> str:
    return hmac.new(secret, value.encode("utf-8"), hashlib.sha256).hexdigest()[:PSEUDONYM_CHARS]


def session_label(store: Any, label: str | None) -> str | None:
    """`label` as `store` keeps it: every personal value in it replaced by its keyed pseudonym; as written when it
    holds none (or the store keeps no secrets: a test double)."""
    if not label:
        return label
    findings = find_sensitive(label, tagger=False)
    keep = getattr(store, "kept_secret", None)
    if not findings or keep is None:
        return label
    secret = str(keep("label_secret")).encode()
    out = label
    for finding in sorted(findings, key=lambda f: f.start, reverse=True):
        value = label[finding.start : finding.end]
        out = f"{out[: finding.start]}[REDACTED:{finding.kind}:{_pseudonym(secret, value)}]{out[finding.end :]}"
    if len(out) > MAX_LABEL_CHARS:  # many values in one id: one pseudonym of the whole id
        out = f"[REDACTED:session:{_pseudonym(secret, label)}]"
    return out
